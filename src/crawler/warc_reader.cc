// WARC reading.
//
// The file is seen as one byte stream — plain bytes, or the concatenated
// output of every gzip member — and records are parsed from it by their
// Content-Length, which handles per-record gzip, whole-file gzip and members
// that do not line up with records alike. For each gzip member we remember
// where its output starts in the stream, so a record reports the file offset
// of the member it starts in. A member that fails to inflate (corrupt or
// truncated) leaves a "discontinuity" in the stream; a record that spans
// one, or a header that is not a WARC header, is reported through on_error
// and the reader resynchronises on the next "WARC/" line after it.
#include "crawler/warc.h"

#include <fcntl.h>
#include <unistd.h>
#include <zlib.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <deque>

#include "crawler/warc_format.h"

namespace cronista::crawler {

using namespace warc_format;

namespace {

class FileWarcReader : public WarcReader {
 public:
  FileWarcReader(int fd, std::string path, bool gzip) : fd_(fd), path_(std::move(path)), gzip_(gzip) {
    if (gzip_) inflateInit2(&zs_, 15 + 16);
  }
  ~FileWarcReader() override {
    if (gzip_) inflateEnd(&zs_);
    if (fd_ >= 0) ::close(fd_);
  }

  // Makes at least `n` bytes available at buf_[pos_...]; false if the
  // stream ends first.
  bool ensure(std::size_t n) {
    while (buf_.size() - pos_ < n) {
      if (!produce()) return false;
    }
    return true;
  }

  std::string_view available() const { return std::string_view(buf_).substr(pos_); }
  std::uint64_t stream_pos() const { return buf_offset_ + pos_; }

  bool next(WarcRecord* record) override {
    while (true) {
      if (done_) return false;
      compact();
      // Skip blank lines between records.
      while (true) {
        if (!ensure(1)) return finish();
        const char c = buf_[pos_];
        if (c != '\r' && c != '\n' && c != ' ' && c != '\t') break;
        ++pos_;
      }
      const std::uint64_t start = stream_pos();
      // Header lines up to an empty line.
      std::size_t scan = 0;
      std::size_t header_end = std::string::npos;  // relative to pos_, after the empty line
      std::size_t next_record = std::string::npos;  // relative to pos_: a record cut short
      while (header_end == std::string::npos) {
        const std::string_view av = available();
        const std::size_t nl = av.find('\n', scan);
        if (nl == std::string_view::npos) {
          if (av.size() > kMaxHeaderBytes) break;
          if (!produce()) break;
          continue;
        }
        std::string_view line = av.substr(scan, nl - scan);
        while (!line.empty() && line.back() == '\r') line.remove_suffix(1);
        // A version line inside the header (possibly glued to a cut-off
        // line) means this record was truncated and the next one begins.
        if (scan > 0 && line.size() >= 8 && (line.ends_with("WARC/1.0") || line.ends_with("WARC/1.1"))) {
          next_record = scan + line.size() - 8;
          break;
        }
        if (line.empty() && scan > 0) header_end = nl + 1;
        scan = nl + 1;
        if (scan > kMaxHeaderBytes) break;
      }
      const std::string_view av = available();
      if (av.substr(0, 5) != "WARC/") {
        report("no WARC record header at offset " + describe(start));
        resync(start + 1);
        continue;
      }
      if (next_record != std::string::npos) {
        report("truncated WARC record at offset " + describe(start));
        pos_ += next_record;
        continue;
      }
      if (header_end == std::string::npos) {
        if (ensure(kMaxHeaderBytes + 1)) {
          report("WARC header too long at offset " + describe(start));
          resync(start + 1);
          continue;
        }
        report("truncated WARC header at offset " + describe(start));
        return finish();
      }
      record->type.clear();
      record->headers.clear();
      record->block.clear();
      record->offset = file_offset_of(start);
      const std::string_view header_text = av.substr(0, header_end);
      const std::size_t first_nl = header_text.find('\n');
      const auto announced = announced_length(header_text.substr(first_nl + 1), &record->headers);
      if (!announced) {
        report("missing or invalid Content-Length in WARC record at offset " + describe(start));
        resync(start + 1);
        continue;
      }
      const std::uint64_t length = *announced;
      if (!ensure(header_end + length)) {
        report("truncated WARC record at offset " + describe(start) + ": " + std::to_string(length) +
               " block bytes announced, " + std::to_string(available().size() - std::min(available().size(), header_end)) +
               " present");
        return finish();
      }
      const std::uint64_t end = start + header_end + length;
      if (const auto gap = discontinuity_in(start, end)) {
        report("WARC record at offset " + describe(start) + " is cut by corrupt gzip data");
        resync(*gap);
        continue;
      }
      record->block.assign(buf_, pos_ + header_end, length);
      record->type = record->header("WARC-Type");
      pos_ += header_end + length;
      return true;
    }
  }

  // Detects the format from the first bytes; an error for ARC or non-WARC.
  Status check_start() {
    if (!ensure(1)) return Status::Ok();  // empty file: no records
    std::size_t skip = 0;
    while (ensure(skip + 1) && (buf_[pos_ + skip] == '\r' || buf_[pos_ + skip] == '\n')) ++skip;
    ensure(skip + 16);
    const std::string_view head = available().substr(skip);
    if (head.substr(0, 11) == "filedesc://")
      return Status::Error("ARC files are not supported (only WARC 1.0/1.1): " + path_);
    if (!gzip_ && head.substr(0, 5) != "WARC/")
      return Status::Error("not a WARC file (no WARC/ header at the start): " + path_);
    return Status::Ok();
  }

 private:
  struct MemberStart {
    std::uint64_t stream;  // offset of its first output byte in the stream
    std::uint64_t file;    // offset of the member in the file
  };

  bool finish() {
    done_ = true;
    return false;
  }

  void report(const std::string& message) {
    if (on_error) on_error(path_ + ": " + message);
  }

  // "1234" for plain files; "1234 (uncompressed 5678)" when the record is
  // not at the start of its gzip member.
  std::string describe(std::uint64_t stream_offset) const {
    if (!gzip_) return std::to_string(stream_offset);
    const std::uint64_t file = file_offset_of(stream_offset);
    const MemberStart* m = member_of(stream_offset);
    std::string s = std::to_string(file);
    if (m == nullptr || m->stream != stream_offset) s += " (uncompressed " + std::to_string(stream_offset) + ")";
    return s;
  }

  const MemberStart* member_of(std::uint64_t stream_offset) const {
    const MemberStart* found = nullptr;
    for (const MemberStart& m : members_) {
      if (m.stream <= stream_offset) found = &m;
      else break;
    }
    return found;
  }

  std::uint64_t file_offset_of(std::uint64_t stream_offset) const {
    if (!gzip_) return stream_offset;
    const MemberStart* m = member_of(stream_offset);
    return m ? m->file : 0;
  }

  std::optional<std::uint64_t> discontinuity_in(std::uint64_t begin, std::uint64_t end) const {
    for (std::uint64_t d : gaps_)
      if (d > begin && d < end) return d;
    return std::nullopt;
  }

  // Skips to the next "WARC/" at the start of a line at or after `from`.
  void resync(std::uint64_t from) {
    pos_ = static_cast<std::size_t>(std::max(from, buf_offset_) - buf_offset_);
    while (true) {
      const std::string_view av = available();
      std::size_t i = 0;
      while (true) {
        const std::size_t hit = av.find("WARC/", i);
        if (hit == std::string_view::npos) break;
        const std::uint64_t at = stream_pos() + hit;
        const bool line_start = (pos_ + hit == 0) || buf_[pos_ + hit - 1] == '\n' ||
                                std::find(gaps_.begin(), gaps_.end(), at) != gaps_.end();
        if (line_start) {
          pos_ += hit;
          return;
        }
        i = hit + 1;
      }
      // Keep the last 4 bytes: "WARC/" may straddle the refill.
      if (av.size() > 4) pos_ += av.size() - 4;
      compact();
      if (!produce()) {
        pos_ = buf_.size();
        return;
      }
    }
  }

  void compact() {
    if (pos_ < (1u << 20)) return;
    buf_.erase(0, pos_);
    buf_offset_ += pos_;
    pos_ = 0;
    while (members_.size() > 1 && members_[1].stream <= buf_offset_) members_.pop_front();
    while (!gaps_.empty() && gaps_.front() < buf_offset_) gaps_.pop_front();
  }

  // Reads more of the file into in_; false at the end of the file.
  bool read_input() {
    if (in_eof_) return false;
    if (in_pos_ > 0) {
      in_.erase(0, in_pos_);
      in_offset_ += in_pos_;
      in_pos_ = 0;
    }
    const std::size_t old = in_.size();
    in_.resize(old + kReadChunk);
    ssize_t n;
    do {
      n = ::read(fd_, in_.data() + old, kReadChunk);
    } while (n < 0 && errno == EINTR);
    if (n <= 0) {
      in_.resize(old);
      in_eof_ = true;
      if (n < 0) report(std::string("read error: ") + std::strerror(errno));
      return false;
    }
    in_.resize(old + static_cast<std::size_t>(n));
    return true;
  }

  // Appends more stream bytes to buf_; false when there are no more.
  bool produce() {
    if (!gzip_) {
      if (in_pos_ < in_.size()) {
        buf_.append(in_, in_pos_, std::string::npos);
        in_pos_ = in_.size();
        return true;
      }
      if (!read_input()) return false;
      buf_.append(in_, in_pos_, std::string::npos);
      in_pos_ = in_.size();
      return true;
    }
    while (true) {
      if (!member_active_) {
        if (!start_member()) return false;
      }
      if (in_pos_ == in_.size() && !read_input()) {
        report("truncated gzip member at offset " + std::to_string(member_file_start_));
        member_active_ = false;
        gaps_.push_back(buf_offset_ + buf_.size());
        return false;
      }
      zs_.next_in = reinterpret_cast<Bytef*>(in_.data() + in_pos_);
      zs_.avail_in = static_cast<uInt>(in_.size() - in_pos_);
      const std::size_t old = buf_.size();
      buf_.resize(old + kReadChunk);
      zs_.next_out = reinterpret_cast<Bytef*>(buf_.data() + old);
      zs_.avail_out = kReadChunk;
      const int rc = inflate(&zs_, Z_NO_FLUSH);
      const std::size_t produced = kReadChunk - zs_.avail_out;
      buf_.resize(old + produced);
      in_pos_ = in_.size() - zs_.avail_in;
      if (rc == Z_STREAM_END) {
        member_active_ = false;
        if (produced > 0) return true;
        continue;
      }
      if (rc == Z_OK || rc == Z_BUF_ERROR) {
        if (produced > 0) return true;
        continue;
      }
      report("corrupt gzip data in member at offset " + std::to_string(member_file_start_) + " (" +
             (zs_.msg ? zs_.msg : "inflate error") + ")");
      gaps_.push_back(buf_offset_ + buf_.size());
      member_active_ = false;
      // Look for the next member after the start of the broken one.
      if (member_file_start_ + 1 >= in_offset_) in_pos_ = static_cast<std::size_t>(member_file_start_ + 1 - in_offset_);
      if (!seek_magic()) return false;
    }
  }

  // Positions in_pos_ on the next gzip magic; false if none is left.
  bool seek_magic() {
    while (true) {
      const std::string_view in = std::string_view(in_).substr(in_pos_);
      const std::size_t hit = in.find("\x1f\x8b\x08");
      if (hit != std::string_view::npos) {
        in_pos_ += hit;
        return true;
      }
      if (in.size() > 2) in_pos_ = in_.size() - 2;
      if (!read_input()) {
        in_pos_ = in_.size();
        return false;
      }
    }
  }

  // Starts inflating the member at in_pos_; false at the end of the file.
  bool start_member() {
    while (in_.size() - in_pos_ < 3) {
      if (!read_input()) break;
    }
    if (in_pos_ == in_.size()) return false;
    if (std::string_view(in_).substr(in_pos_, 3) != "\x1f\x8b\x08") {
      // Trailing zero padding or whitespace is harmless; anything else is reported.
      std::size_t k = in_pos_;
      while (k < in_.size() && (in_[k] == '\0' || in_[k] == '\r' || in_[k] == '\n')) ++k;
      const std::uint64_t at = in_offset_ + in_pos_;
      if (k == in_.size() && !read_input() && k == in_.size()) return false;
      report("data that is not gzip at offset " + std::to_string(at) + " skipped");
      gaps_.push_back(buf_offset_ + buf_.size());
      if (!seek_magic()) return false;
    }
    member_file_start_ = in_offset_ + in_pos_;
    members_.push_back({buf_offset_ + buf_.size(), member_file_start_});
    inflateReset(&zs_);
    member_active_ = true;
    return true;
  }

  int fd_;
  std::string path_;
  bool gzip_;
  z_stream zs_{};
  bool member_active_ = false;
  std::uint64_t member_file_start_ = 0;
  std::string in_;
  std::size_t in_pos_ = 0;
  std::uint64_t in_offset_ = 0;  // file offset of in_[0]
  bool in_eof_ = false;
  std::string buf_;
  std::size_t pos_ = 0;
  std::uint64_t buf_offset_ = 0;  // stream offset of buf_[0]
  std::deque<MemberStart> members_;
  std::deque<std::uint64_t> gaps_;  // stream offsets where broken members left off
  bool done_ = false;
};

}  // namespace

std::string WarcRecord::header(std::string_view name) const { return find_header(headers, name); }

std::string HttpMessage::header(std::string_view name) const { return find_header(headers, name); }

Result<HttpMessage> parse_http_response(std::string_view block) {
  HttpMessage m;
  const std::size_t first_nl = block.find('\n');
  const std::string_view status_line = trim(block.substr(0, first_nl));
  if (status_line.substr(0, 5) != "HTTP/")
    return Result<HttpMessage>::Error("not an HTTP response (status line '" +
                                      std::string(status_line.substr(0, 60)) + "')");
  const std::size_t sp = status_line.find(' ');
  if (sp == std::string_view::npos) return Result<HttpMessage>::Error("HTTP status line without a status code");
  std::string_view code = status_line.substr(sp + 1, 3);
  if (code.size() != 3 || !std::all_of(code.begin(), code.end(), [](char c) { return c >= '0' && c <= '9'; }))
    return Result<HttpMessage>::Error("invalid HTTP status code in '" + std::string(status_line.substr(0, 60)) + "'");
  m.status = (code[0] - '0') * 100 + (code[1] - '0') * 10 + (code[2] - '0');

  // End of the headers: the first line that is empty (ignoring CRs).
  if (first_nl == std::string_view::npos) return Result<HttpMessage>::Error("HTTP response without headers end");
  std::size_t pos = first_nl + 1, body_start = std::string_view::npos;
  while (pos <= block.size()) {
    std::size_t nl = block.find('\n', pos);
    std::string_view line = block.substr(pos, nl == std::string_view::npos ? std::string_view::npos : nl - pos);
    while (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    if (line.empty()) {
      body_start = nl == std::string_view::npos ? block.size() : nl + 1;
      break;
    }
    if (nl == std::string_view::npos) break;
    pos = nl + 1;
  }
  if (body_start == std::string_view::npos) {
    // Headers only, without the final blank line (seen in revisit records).
    parse_header_lines(block.substr(first_nl + 1), &m.headers);
    return m;
  }
  parse_header_lines(block.substr(first_nl + 1, pos - first_nl - 1), &m.headers);
  std::string_view body = block.substr(body_start);

  std::string dechunked;
  if (icontains(m.header("Transfer-Encoding"), "chunked") && dechunk(body, &dechunked)) {
    m.body = std::move(dechunked);
  } else {
    m.body.assign(body);
  }
  const std::string coding = m.header("Content-Encoding");
  if (!m.body.empty() && (icontains(coding, "gzip") || icontains(coding, "deflate"))) {
    std::string decoded;
    bool ok;
    if (icontains(coding, "gzip")) {
      ok = inflate_all(m.body, 15 + 32, &decoded);
    } else {
      ok = inflate_all(m.body, 15, &decoded) || inflate_all(m.body, -15, &decoded);
    }
    if (!ok)
      return Result<HttpMessage>::Error("cannot decode the '" + coding + "' HTTP body (corrupt, or over " +
                                        std::to_string(kMaxDecodedBody >> 20) + " MiB)");
    m.body = std::move(decoded);
  }
  return m;
}

Result<std::unique_ptr<WarcReader>> WarcReader::open(const std::string& path) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return Result<std::unique_ptr<WarcReader>>::Error("cannot open WARC file " + path + ": " +
                                                                std::strerror(errno));
  unsigned char magic[2] = {0, 0};
  const ssize_t n = ::pread(fd, magic, 2, 0);
  const bool gzip = n == 2 && magic[0] == 0x1f && magic[1] == 0x8b;
  auto reader = std::make_unique<FileWarcReader>(fd, path, gzip);
  if (Status s = reader->check_start(); !s.ok()) return s;
  return std::unique_ptr<WarcReader>(std::move(reader));
}

}  // namespace cronista::crawler
