#include "cli/text_input.h"

#include <unicode/ucnv.h>

#include <cerrno>
#include <cstring>
#include <filesystem>

#include "crawler/charset.h"
#include "temporal/text_fold.h"

namespace cronista::cli {

namespace {

constexpr std::size_t kReadBytes = 1 << 16;

struct ConverterDeleter {
  void operator()(UConverter* c) const { ucnv_close(c); }
};
using ConverterPtr = std::unique_ptr<UConverter, ConverterDeleter>;

bool is_utf8_name(const std::string& name) { return name.empty() || name == "UTF-8"; }

// Where a piece of `s` may end, at or after `min` bytes: after the last blank
// line, else after the last line break, else after the last sentence end or
// space; else before the last UTF-8 character that starts at or after `min`.
std::size_t cut_point(std::string_view s, std::size_t min) {
  for (std::string_view sep : {std::string_view("\n\n"), std::string_view("\n"), std::string_view(". "),
                               std::string_view(" ")}) {
    const std::size_t at = s.rfind(sep);
    if (at != std::string_view::npos && at + sep.size() >= min) return at + sep.size();
  }
  std::size_t at = s.size();
  while (at > min && (static_cast<unsigned char>(s[at - 1]) & 0xC0) == 0x80) --at;
  if (at > min && static_cast<unsigned char>(s[at - 1]) >= 0xC0) --at;  // the lead byte of a cut character
  return at > 0 ? at : s.size();
}

}  // namespace

// Legacy charset → UTF-8, across reads (ICU keeps partial sequences).
struct TextPieces::Converter {
  ConverterPtr from, to;
  UChar pivot[1024];
  UChar* pivot_source = pivot;
  UChar* pivot_target = pivot;
};

Result<std::string> encoding_name(const std::string& label) {
  const std::string name = crawler::resolve_charset_label(label);
  if (name.empty()) return Result<std::string>::Error("--encoding: unknown character set '" + label + "'");
  return name;
}

Result<std::string> decode_document(std::string data, bool html, const std::string& encoding, bool lenient,
                                    const std::string& what) {
  std::string charset = "UTF-8";
  if (html || !encoding.empty()) {
    const crawler::DecodedText decoded =
        crawler::decode_to_utf8(data, encoding.empty() ? std::string() : "text/html; charset=" + encoding);
    charset = decoded.charset;
    if (charset != "UTF-8") {
      if (decoded.replaced > 0 && !lenient)
        return Result<std::string>::Error(what + " has " + std::to_string(decoded.replaced) +
                                          " byte sequence(s) invalid in its character set " + charset +
                                          " (use --lenient to replace them)");
      return decoded.utf8;
    }
  }
  // UTF-8: the input's own bytes, so that offsets are the input's.
  std::size_t bad = 0;
  if (crawler::is_valid_utf8(data, &bad)) return data;
  if (!lenient)
    return Result<std::string>::Error(what + " is not valid UTF-8 (first bad byte at offset " + std::to_string(bad) +
                                      "; use --lenient to replace bad bytes)");
  return temporal::replace_invalid_utf8(data);
}

TextPieces::~TextPieces() {
  if (owns_file_ && file_ != nullptr) std::fclose(file_);
}

Result<std::unique_ptr<TextPieces>> TextPieces::open(const std::string& path, const std::string& encoding,
                                                     bool lenient, std::size_t piece_bytes) {
  using R = Result<std::unique_ptr<TextPieces>>;
  std::unique_ptr<TextPieces> p(new TextPieces());
  p->lenient_ = lenient;
  p->piece_bytes_ = piece_bytes > 0 ? piece_bytes : 1;
  if (path.empty() || path == "-") {
    p->what_ = "standard input";
    p->file_ = stdin;
  } else {
    p->what_ = "'" + path + "'";
    std::error_code ec;
    if (std::filesystem::is_directory(path, ec)) return R::Error(p->what_ + " is a directory, not a file");
    p->file_ = std::fopen(path.c_str(), "rb");
    if (p->file_ == nullptr) return R::Error("cannot open " + p->what_ + ": " + std::strerror(errno));
    p->owns_file_ = true;
  }
  if (!encoding.empty()) {
    auto name = encoding_name(encoding);
    if (!name.ok()) return R::Error(name.status().message());
    if (!is_utf8_name(*name)) {
      auto c = std::make_unique<Converter>();
      UErrorCode err = U_ZERO_ERROR;
      c->from.reset(ucnv_open(name->c_str(), &err));
      if (U_FAILURE(err)) return R::Error("--encoding: no converter for '" + encoding + "'");
      c->to.reset(ucnv_open("UTF-8", &err));
      if (U_FAILURE(err)) return R::Error("--encoding: no UTF-8 converter");
      p->conv_ = std::move(c);
    }
  }
  return p;
}

Result<bool> TextPieces::fill() {
  if (eof_) return false;
  char raw[kReadBytes];
  const std::size_t n = std::fread(raw, 1, sizeof raw, file_);
  if (n < sizeof raw) {
    if (std::ferror(file_)) return Result<bool>::Error("cannot read " + what_);
    eof_ = true;
  }
  if (!conv_) {
    pending_.append(raw, n);
    return n > 0 || !eof_;
  }
  // ucnv_convertEx writes into a bounded target: grow and repeat until the
  // source is consumed (flushed at the end of input).
  const char* src = raw;
  const char* src_end = raw + n;
  for (;;) {
    const std::size_t old = pending_.size();
    pending_.resize(old + 4 * n + 64);
    char* target = pending_.data() + old;
    UErrorCode err = U_ZERO_ERROR;
    ucnv_convertEx(conv_->to.get(), conv_->from.get(), &target, pending_.data() + pending_.size(), &src, src_end,
                   conv_->pivot, &conv_->pivot_source, &conv_->pivot_target, conv_->pivot + 1024, false, eof_, &err);
    pending_.resize(static_cast<std::size_t>(target - pending_.data()));
    if (err == U_BUFFER_OVERFLOW_ERROR) continue;
    if (U_FAILURE(err)) return Result<bool>::Error(what_ + " cannot be converted to UTF-8: " + u_errorName(err));
    break;
  }
  return n > 0 || !eof_;
}

Result<bool> TextPieces::next(std::string* piece) {
  while (pending_.size() < piece_bytes_ && !eof_) {
    auto more = fill();
    if (!more.ok()) return more.status();
  }
  if (pending_.empty()) return false;
  const std::size_t cut = eof_ && pending_.size() <= piece_bytes_ ? pending_.size() : cut_point(pending_, piece_bytes_ / 2);
  piece->assign(pending_, 0, cut);
  pending_.erase(0, cut);
  offset_ = next_offset_;
  next_offset_ += cut;
  if (conv_) return true;  // ICU wrote valid UTF-8 (U+FFFD for bad input)
  std::size_t bad = 0;
  if (!crawler::is_valid_utf8(*piece, &bad)) {
    if (!lenient_)
      return Result<bool>::Error(what_ + " is not valid UTF-8 (first bad byte at offset " +
                                 std::to_string(offset_ + bad) + "; use --lenient to replace bad bytes)");
    *piece = temporal::replace_invalid_utf8(*piece);
  }
  return true;
}

}  // namespace cronista::cli
