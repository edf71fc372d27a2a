// WARC writing and reading.
//
// Writer: each record is built in memory, compressed as one gzip member
// (zlib, deflateInit2 with the gzip wrapper) and appended with a single
// write(2) on an O_APPEND descriptor, so a crash leaves whole members plus
// at most one truncated last member; flush() is fsync(2).
//
// Reader: the file is seen as one byte stream — plain bytes, or the
// concatenated output of every gzip member — and records are parsed from it
// by their Content-Length, which handles per-record gzip, whole-file gzip
// and members that do not line up with records alike. For each gzip member
// we remember where its output starts in the stream, so a record reports
// the file offset of the member it starts in. A member that fails to
// inflate (corrupt or truncated) leaves a "discontinuity" in the stream;
// a record that spans one, or a header that is not a WARC header, is
// reported through on_error and the reader resynchronises on the next
// "WARC/" line after it.
#include "crawler/warc.h"

#include <fcntl.h>
#include <openssl/evp.h>
#include <openssl/rand.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <ctime>
#include <deque>
#include <optional>

namespace cronista::crawler {
namespace {

constexpr std::size_t kReadChunk = 64 * 1024;
constexpr std::size_t kMaxHeaderBytes = 64 * 1024;
constexpr std::uint64_t kMaxRecordBytes = 1ULL << 30;
constexpr std::size_t kMaxDecodedBody = 64 * 1024 * 1024;

char ascii_lower(char c) { return (c >= 'A' && c <= 'Z') ? static_cast<char>(c + 32) : c; }

bool iequals(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i)
    if (ascii_lower(a[i]) != ascii_lower(b[i])) return false;
  return true;
}

bool icontains(std::string_view haystack, std::string_view needle) {
  if (needle.size() > haystack.size()) return false;
  for (std::size_t i = 0; i + needle.size() <= haystack.size(); ++i)
    if (iequals(haystack.substr(i, needle.size()), needle)) return true;
  return false;
}

std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t' || s.front() == '\r')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r')) s.remove_suffix(1);
  return s;
}

std::string find_header(const std::vector<std::pair<std::string, std::string>>& headers, std::string_view name) {
  for (const auto& [k, v] : headers)
    if (iequals(k, name)) return v;
  return {};
}

// Splits "Name: value" lines (LF or CRLF, extra CRs tolerated) with folded
// continuation lines joined by a space.
void parse_header_lines(std::string_view text, std::vector<std::pair<std::string, std::string>>* out) {
  std::size_t pos = 0;
  while (pos < text.size()) {
    std::size_t end = text.find('\n', pos);
    if (end == std::string_view::npos) end = text.size();
    std::string_view line = text.substr(pos, end - pos);
    pos = end + 1;
    while (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    if (line.empty()) continue;
    if ((line[0] == ' ' || line[0] == '\t') && !out->empty()) {
      const std::string_view more = trim(line);
      if (!more.empty()) {
        out->back().second.push_back(' ');
        out->back().second.append(more);
      }
      continue;
    }
    const std::size_t colon = line.find(':');
    if (colon == std::string_view::npos) continue;
    out->emplace_back(std::string(trim(line.substr(0, colon))), std::string(trim(line.substr(colon + 1))));
  }
}

// The block length a WARC record's header announces: the header fields of a
// record (after its version line), parsed into `fields`; nothing when its
// Content-Length is missing, not decimal or over kMaxRecordBytes.
std::optional<std::uint64_t> announced_length(std::string_view header_fields,
                                              std::vector<std::pair<std::string, std::string>>* fields) {
  parse_header_lines(header_fields, fields);
  std::string_view text;
  for (const auto& [name, value] : *fields)
    if (iequals(name, "Content-Length")) {
      text = value;
      break;
    }
  if (text.empty() || text.size() >= 19) return std::nullopt;
  std::uint64_t length = 0;
  for (char c : text) {
    if (c < '0' || c > '9') return std::nullopt;
    length = length * 10 + static_cast<std::uint64_t>(c - '0');
  }
  if (length > kMaxRecordBytes) return std::nullopt;
  return length;
}

// ---- digests, ids, dates ---------------------------------------------------

std::string base32(const unsigned char* data, std::size_t n) {
  static constexpr char kAlphabet[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";
  std::string out;
  std::uint32_t buffer = 0;
  int bits = 0;
  for (std::size_t i = 0; i < n; ++i) {
    buffer = (buffer << 8) | data[i];
    bits += 8;
    while (bits >= 5) {
      out.push_back(kAlphabet[(buffer >> (bits - 5)) & 31]);
      bits -= 5;
    }
  }
  if (bits > 0) out.push_back(kAlphabet[(buffer << (5 - bits)) & 31]);
  while (out.size() % 8 != 0) out.push_back('=');
  return out;
}

class Sha1 {
 public:
  Sha1() : ctx_(EVP_MD_CTX_new()) { EVP_DigestInit_ex(ctx_, EVP_sha1(), nullptr); }
  ~Sha1() { EVP_MD_CTX_free(ctx_); }
  Sha1(const Sha1&) = delete;
  Sha1& operator=(const Sha1&) = delete;
  void update(std::string_view data) { EVP_DigestUpdate(ctx_, data.data(), data.size()); }
  std::string warc_digest() {
    unsigned char md[EVP_MAX_MD_SIZE];
    unsigned int n = 0;
    EVP_DigestFinal_ex(ctx_, md, &n);
    return "sha1:" + base32(md, n);
  }

 private:
  EVP_MD_CTX* ctx_;
};

std::string new_record_id() {
  unsigned char b[16];
  if (RAND_bytes(b, sizeof b) != 1) {
    // OpenSSL's generator failed: fall back to the clock and a counter,
    // still unique within this process.
    static std::uint64_t counter = 0;
    const std::uint64_t t = static_cast<std::uint64_t>(std::chrono::system_clock::now().time_since_epoch().count());
    const std::uint64_t c = ++counter ^ (static_cast<std::uint64_t>(::getpid()) << 32);
    std::memcpy(b, &t, 8);
    std::memcpy(b + 8, &c, 8);
  }
  b[6] = static_cast<unsigned char>((b[6] & 0x0F) | 0x40);  // version 4
  b[8] = static_cast<unsigned char>((b[8] & 0x3F) | 0x80);  // RFC 4122 variant
  static constexpr char kHex[] = "0123456789abcdef";
  std::string id = "<urn:uuid:";
  for (int i = 0; i < 16; ++i) {
    if (i == 4 || i == 6 || i == 8 || i == 10) id.push_back('-');
    id.push_back(kHex[b[i] >> 4]);
    id.push_back(kHex[b[i] & 15]);
  }
  id.push_back('>');
  return id;
}

std::string utc_now() {
  const std::time_t t = std::chrono::system_clock::to_time_t(std::chrono::system_clock::now());
  std::tm tm{};
  gmtime_r(&t, &tm);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return buf;
}

bool safe_header_value(std::string_view v) {
  for (char c : v) {
    const unsigned char u = static_cast<unsigned char>(c);
    if (u < 0x20 || u == 0x7f) return false;
  }
  return true;
}

// ---- gzip -----------------------------------------------------------------

bool gzip_member(std::string_view data, int level, std::string* out) {
  z_stream zs{};
  if (deflateInit2(&zs, level, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) != Z_OK) return false;
  const uLong bound = deflateBound(&zs, static_cast<uLong>(data.size()));
  out->resize(bound);
  zs.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(data.data()));
  zs.avail_in = static_cast<uInt>(data.size());
  zs.next_out = reinterpret_cast<Bytef*>(out->data());
  zs.avail_out = static_cast<uInt>(out->size());
  const int rc = deflate(&zs, Z_FINISH);
  out->resize(zs.total_out);
  deflateEnd(&zs);
  return rc == Z_STREAM_END;
}

// Inflates gzip or zlib (window_bits 15+32) or raw deflate (-15) data.
bool inflate_all(std::string_view data, int window_bits, std::string* out) {
  z_stream zs{};
  if (inflateInit2(&zs, window_bits) != Z_OK) return false;
  zs.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(data.data()));
  zs.avail_in = static_cast<uInt>(data.size());
  out->clear();
  char buf[kReadChunk];
  int rc = Z_OK;
  while (rc != Z_STREAM_END) {
    zs.next_out = reinterpret_cast<Bytef*>(buf);
    zs.avail_out = sizeof buf;
    rc = inflate(&zs, Z_NO_FLUSH);
    if (rc != Z_OK && rc != Z_STREAM_END) break;
    out->append(buf, sizeof buf - zs.avail_out);
    if (out->size() > kMaxDecodedBody) {
      rc = Z_MEM_ERROR;
      break;
    }
    if (rc == Z_OK && zs.avail_in == 0 && zs.avail_out != 0) break;  // input ended early
  }
  inflateEnd(&zs);
  return rc == Z_STREAM_END;
}

bool looks_gzip(std::string_view body) { return body.size() >= 3 && body.substr(0, 3) == "\x1f\x8b\x08"; }

bool looks_zstd(std::string_view body) { return body.size() >= 4 && body.substr(0, 4) == "\x28\xb5\x2f\xfd"; }

bool looks_deflate(std::string_view body) {
  std::string probe;
  // A whole body that inflates as zlib or raw deflate is still encoded.
  return inflate_all(body.substr(0, std::min<std::size_t>(body.size(), kMaxDecodedBody)), 15, &probe) ||
         inflate_all(body, -15, &probe);
}

// ---- writer ---------------------------------------------------------------

// The response head rewritten to describe the body as stored: see
// WarcWriter::write_exchange.
std::string adjust_response_head(std::string_view head, std::string_view body, BodyCoding coding) {
  std::vector<std::string_view> lines;
  std::size_t pos = 0;
  while (pos < head.size()) {
    std::size_t end = head.find('\n', pos);
    if (end == std::string_view::npos) end = head.size();
    std::string_view line = head.substr(pos, end - pos);
    pos = end + 1;
    while (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    if (line.empty()) {
      if (lines.empty()) continue;
      break;
    }
    lines.push_back(line);
  }
  std::string out;
  out.reserve(head.size() + 96);
  std::string_view content_length;
  for (std::size_t i = 0; i < lines.size(); ++i) {
    const std::string_view line = lines[i];
    const std::size_t colon = line.find(':');
    if (i == 0 || colon == std::string_view::npos) {
      out.append(line);
      out += "\r\n";
      continue;
    }
    const std::string_view name = trim(line.substr(0, colon));
    const std::string_view value = trim(line.substr(colon + 1));
    if (iequals(name, "Content-Length")) {
      content_length = value;
      continue;  // written at the end
    }
    bool rename = iequals(name, "Transfer-Encoding");
    if (iequals(name, "Content-Encoding") && !value.empty() && !iequals(value, "identity")) {
      if (coding == BodyCoding::kDecoded) {
        rename = true;
      } else if (coding == BodyCoding::kAuto) {
        if (icontains(value, "gzip")) rename = !looks_gzip(body);
        else if (icontains(value, "deflate")) rename = !looks_deflate(body);
        else if (icontains(value, "zstd")) rename = !looks_zstd(body);
        else rename = true;  // br and others: no magic number; HTTP clients decode them
      }
    }
    if (rename) out += "X-Cronista-Orig-";
    out.append(line);
    out += "\r\n";
  }
  if (!lines.empty()) {
    const std::string length = std::to_string(body.size());
    if (!content_length.empty() && content_length != length) {
      out += "X-Cronista-Orig-Content-Length: ";
      out.append(content_length);
      out += "\r\n";
    }
    out += "Content-Length: " + length + "\r\n";
  }
  out += "\r\n";
  return out;
}

std::string terminated_head(std::string_view head) {
  std::string out(head);
  while (!out.empty() && (out.back() == '\n' || out.back() == '\r')) out.pop_back();
  out += "\r\n\r\n";
  return out;
}

class FileWarcWriter : public WarcWriter {
 public:
  FileWarcWriter(int fd, std::string path, bool gzip, int level, std::uint64_t size)
      : fd_(fd), path_(std::move(path)), gzip_(gzip), level_(level), size_(size) {}
  ~FileWarcWriter() override {
    if (fd_ >= 0) ::close(fd_);
  }

  Status write_warcinfo(std::string_view software) {
    std::string block;
    block += "software: ";
    block.append(software);
    block += "\r\nformat: WARC File Format 1.1\r\n";
    block += "conformsTo: https://iipc.github.io/warc-specifications/specifications/warc-format/warc-1.1/\r\n";
    block += "robots: obey\r\n";
    const std::size_t slash = path_.rfind('/');
    const std::string name = slash == std::string::npos ? path_ : path_.substr(slash + 1);
    std::string fields = "WARC-Type: warcinfo\r\nWARC-Record-ID: " + new_record_id() + "\r\nWARC-Date: " + utc_now() +
                         "\r\nWARC-Filename: " + name + "\r\nContent-Type: application/warc-fields\r\n";
    return append_record(fields, {block}, nullptr);
  }

  Status write_exchange(std::string_view target_uri, std::string_view iso_date, std::string_view http_request,
                        std::string_view http_response_head, std::string_view body) override {
    WarcExchange e;
    e.target_uri = target_uri;
    e.date = iso_date;
    e.http_request = http_request;
    e.http_response_head = http_response_head;
    e.body = body;
    return write(e);
  }

  Status write(const WarcExchange& e) override {
    if (fd_ < 0) return Status::Error("WARC file " + path_ + " is closed after an earlier write error");
    if (e.target_uri.empty() || !safe_header_value(e.target_uri) || e.target_uri.find(' ') != std::string_view::npos)
      return Status::Error("invalid WARC-Target-URI for " + path_ + ": '" +
                           std::string(e.target_uri.substr(0, 200)) + "'");
    if (!safe_header_value(e.date) || !safe_header_value(e.ip_address))
      return Status::Error("control characters in WARC date or IP address for " + std::string(e.target_uri));
    const std::string date = e.date.empty() ? utc_now() : std::string(e.date);
    const std::string response_id = new_record_id();

    const std::string head = adjust_response_head(e.http_response_head, e.body, e.body_coding);
    Sha1 payload;
    payload.update(e.body);
    std::string fields = "WARC-Type: response\r\nWARC-Record-ID: " + response_id + "\r\nWARC-Date: " + date +
                         "\r\nWARC-Target-URI: " + std::string(e.target_uri) + "\r\n";
    if (!e.ip_address.empty()) fields += "WARC-IP-Address: " + std::string(e.ip_address) + "\r\n";
    fields += "Content-Type: application/http; msgtype=response\r\nWARC-Payload-Digest: " + payload.warc_digest() +
              "\r\n";
    if (Status s = append_record(fields, {head, e.body}, nullptr); !s.ok()) return s;

    if (!e.http_request.empty()) {
      const std::string request = terminated_head(e.http_request);
      std::string rfields = "WARC-Type: request\r\nWARC-Record-ID: " + new_record_id() + "\r\nWARC-Date: " + date +
                            "\r\nWARC-Target-URI: " + std::string(e.target_uri) + "\r\n";
      if (!e.ip_address.empty()) rfields += "WARC-IP-Address: " + std::string(e.ip_address) + "\r\n";
      rfields += "WARC-Concurrent-To: " + response_id + "\r\nContent-Type: application/http; msgtype=request\r\n";
      if (Status s = append_record(rfields, {request}, nullptr); !s.ok()) return s;
    }
    return Status::Ok();
  }

  Status flush() override {
    if (fd_ < 0) return Status::Error("WARC file " + path_ + " is closed after an earlier write error");
    if (::fsync(fd_) != 0) return Status::Error("cannot sync WARC file " + path_ + ": " + std::strerror(errno));
    return Status::Ok();
  }

  std::uint64_t size() const override { return size_; }

 private:
  // fields: the WARC header lines after "WARC/1.1" without Block-Digest and
  // Content-Length; parts: the block, in pieces.
  Status append_record(const std::string& fields, std::initializer_list<std::string_view> parts, void*) {
    Sha1 block_digest;
    std::size_t length = 0;
    for (std::string_view p : parts) {
      block_digest.update(p);
      length += p.size();
    }
    std::string record;
    record.reserve(fields.size() + length + 160);
    record += "WARC/1.1\r\n";
    record += fields;
    record += "WARC-Block-Digest: " + block_digest.warc_digest() + "\r\n";
    record += "Content-Length: " + std::to_string(length) + "\r\n\r\n";
    for (std::string_view p : parts) record.append(p);
    record += "\r\n\r\n";
    std::string compressed;
    std::string_view bytes = record;
    if (gzip_) {
      if (!gzip_member(record, level_, &compressed)) return Status::Error("gzip failed for WARC file " + path_);
      bytes = compressed;
    }
    while (!bytes.empty()) {
      const ssize_t n = ::write(fd_, bytes.data(), bytes.size());
      if (n < 0) {
        if (errno == EINTR) continue;
        const std::string why = std::strerror(errno);
        ::close(fd_);
        fd_ = -1;
        return Status::Error("cannot write WARC file " + path_ + ": " + why);
      }
      bytes.remove_prefix(static_cast<std::size_t>(n));
      size_ += static_cast<std::uint64_t>(n);
    }
    return Status::Ok();
  }

  int fd_;
  std::string path_;
  bool gzip_;
  int level_;
  std::uint64_t size_;
};

// ---- reader ---------------------------------------------------------------

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

// ---- HTTP -----------------------------------------------------------------

// Decodes a chunked body; false if it is not well-formed chunked data.
bool dechunk(std::string_view in, std::string* out) {
  out->clear();
  std::size_t pos = 0;
  while (true) {
    const std::size_t nl = in.find('\n', pos);
    if (nl == std::string_view::npos) return false;
    std::string_view size_line = trim(in.substr(pos, nl - pos));
    if (const std::size_t semi = size_line.find(';'); semi != std::string_view::npos)
      size_line = trim(size_line.substr(0, semi));
    if (size_line.empty() || size_line.size() > 15) return false;
    std::size_t size = 0;
    for (char c : size_line) {
      int v;
      if (c >= '0' && c <= '9') v = c - '0';
      else if (c >= 'a' && c <= 'f') v = c - 'a' + 10;
      else if (c >= 'A' && c <= 'F') v = c - 'A' + 10;
      else return false;
      size = size * 16 + static_cast<std::size_t>(v);
    }
    pos = nl + 1;
    if (size == 0) return true;  // trailers, if any, are ignored
    if (size > in.size() - pos) return false;
    out->append(in.substr(pos, size));
    pos += size;
    if (in.substr(pos, 2) == "\r\n") pos += 2;
    else if (in.substr(pos, 1) == "\n") pos += 1;
    else return false;
  }
}

}  // namespace

std::string WarcRecord::header(std::string_view name) const { return find_header(headers, name); }

std::string HttpMessage::header(std::string_view name) const { return find_header(headers, name); }

std::string warc_sha1_digest(std::string_view data) {
  Sha1 h;
  h.update(data);
  return h.warc_digest();
}

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

namespace {

// Offset after the last whole gzip member of a file, scanning from the start.
Result<std::uint64_t> end_of_whole_members(int fd) {
  z_stream zs{};
  if (inflateInit2(&zs, 15 + 16) != Z_OK) return Status::Error("zlib could not start");
  std::vector<unsigned char> in(kReadChunk), out(kReadChunk);
  std::uint64_t pos = 0, good = 0;
  bool damaged = false;
  while (!damaged) {
    const ssize_t n = ::pread(fd, in.data(), in.size(), static_cast<off_t>(pos));
    if (n < 0) {
      if (errno == EINTR) continue;
      const std::string why = std::strerror(errno);
      inflateEnd(&zs);
      return Status::Error(why);
    }
    if (n == 0) break;
    zs.next_in = in.data();
    zs.avail_in = static_cast<uInt>(n);
    for (;;) {
      zs.next_out = out.data();
      zs.avail_out = static_cast<uInt>(out.size());
      const int r = inflate(&zs, Z_NO_FLUSH);
      if (r == Z_STREAM_END) {
        good = pos + (static_cast<std::uint64_t>(n) - zs.avail_in);
        inflateReset(&zs);
        if (zs.avail_in == 0) break;
        continue;
      }
      if (r != Z_OK && r != Z_BUF_ERROR) {
        damaged = true;
        break;
      }
      if (zs.avail_in == 0 && zs.avail_out != 0) break;  // wants more input
      if (r == Z_BUF_ERROR) break;
    }
    pos += static_cast<std::uint64_t>(n);
  }
  inflateEnd(&zs);
  return good;
}

// Offset after the last whole record of a plain WARC file.
Result<std::uint64_t> end_of_whole_records(int fd, std::uint64_t size) {
  std::uint64_t good = 0;
  std::string head(kMaxHeaderBytes, '\0');
  std::string tail(4, '\0');
  while (good < size) {
    const ssize_t n = ::pread(fd, head.data(), head.size(), static_cast<off_t>(good));
    if (n < 0) return Status::Error(std::strerror(errno));
    const std::string_view h(head.data(), static_cast<std::size_t>(n));
    const std::size_t end = h.find("\r\n\r\n");
    if (!h.starts_with("WARC/") || end == std::string_view::npos) break;
    std::vector<std::pair<std::string, std::string>> fields;
    const std::size_t first_eol = h.find("\r\n");
    const auto length = announced_length(h.substr(first_eol + 2, end + 2 - (first_eol + 2)), &fields);
    if (!length) break;
    const std::uint64_t record_end = good + end + 4 + *length + 4;
    if (record_end > size) break;
    if (::pread(fd, tail.data(), 4, static_cast<off_t>(record_end - 4)) != 4 || tail != "\r\n\r\n") break;
    good = record_end;
  }
  return good;
}

// Moves an incomplete end of the file at `path` (open as `fd`, `size` bytes)
// to PATH.incomplete-OFFSET and cuts it off; returns the new size.
Result<std::uint64_t> repair_tail(int fd, const std::string& path, std::uint64_t size,
                                  const WarcWriter::Options& options) {
  const int rd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (rd < 0) return Status::Error("cannot read WARC file " + path + ": " + std::strerror(errno));
  unsigned char magic[2] = {0, 0};
  const bool gzip = ::pread(rd, magic, 2, 0) == 2 && magic[0] == 0x1f && magic[1] == 0x8b;
  auto good = gzip ? end_of_whole_members(rd) : end_of_whole_records(rd, size);
  if (!good.ok()) {
    ::close(rd);
    return Status::Error("cannot read WARC file " + path + ": " + good.status().message());
  }
  if (*good == size) {
    ::close(rd);
    return size;
  }
  const std::uint64_t cut = size - *good;
  if (cut > options.max_incomplete_tail) {
    ::close(rd);
    return Status::Error("WARC file " + path + " is damaged from offset " + std::to_string(*good) + " (" +
                         std::to_string(cut) + " bytes before its end, more than a crash can leave); not appending");
  }
  std::string bytes(static_cast<std::size_t>(cut), '\0');
  const bool read_ok = ::pread(rd, bytes.data(), bytes.size(), static_cast<off_t>(*good)) ==
                       static_cast<ssize_t>(bytes.size());
  ::close(rd);
  const std::string keep = path + ".incomplete-" + std::to_string(*good);
  const int out = ::open(keep.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  bool saved = read_ok && out >= 0;
  if (saved) saved = ::write(out, bytes.data(), bytes.size()) == static_cast<ssize_t>(bytes.size()) && ::fsync(out) == 0;
  if (out >= 0) ::close(out);
  if (!saved) return Status::Error("cannot save the incomplete end of WARC file " + path + " to " + keep);
  if (::ftruncate(fd, static_cast<off_t>(*good)) != 0 || ::fsync(fd) != 0)
    return Status::Error("cannot cut the incomplete end of WARC file " + path + ": " + std::strerror(errno));
  if (options.on_repair)
    options.on_repair("the last " + std::to_string(cut) + " bytes of WARC file " + path +
              " were an incomplete record; moved to " + keep);
  return *good;
}

}  // namespace

Result<std::unique_ptr<WarcWriter>> WarcWriter::open(const std::string& path, std::string_view software) {
  return open(path, software, Options());
}

Result<std::unique_ptr<WarcWriter>> WarcWriter::open(const std::string& path, std::string_view software,
                                                     const Options& options) {
  const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
  if (fd < 0) return Result<std::unique_ptr<WarcWriter>>::Error("cannot open WARC file " + path + ": " +
                                                                std::strerror(errno));
  struct stat st {};
  if (::fstat(fd, &st) != 0) {
    const std::string why = std::strerror(errno);
    ::close(fd);
    return Result<std::unique_ptr<WarcWriter>>::Error("cannot stat WARC file " + path + ": " + why);
  }
  if (st.st_size > 0) {
    auto size = repair_tail(fd, path, static_cast<std::uint64_t>(st.st_size), options);
    if (!size.ok()) {
      ::close(fd);
      return size.status();
    }
    st.st_size = static_cast<off_t>(*size);
  }
  bool gzip;
  switch (options.compression) {
    case Options::Compression::kGzip: gzip = true; break;
    case Options::Compression::kNone: gzip = false; break;
    default: gzip = path.size() >= 3 && path.compare(path.size() - 3, 3, ".gz") == 0;
  }
  auto writer = std::make_unique<FileWarcWriter>(fd, path, gzip, std::clamp(options.compression_level, 0, 9),
                                                 static_cast<std::uint64_t>(st.st_size));
  if (st.st_size == 0) {
    if (Status s = writer->write_warcinfo(software); !s.ok()) return s;
  }
  return std::unique_ptr<WarcWriter>(std::move(writer));
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
