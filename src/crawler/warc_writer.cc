// WARC writing.
//
// Each record is built in memory, compressed as one gzip member (zlib,
// deflateInit2 with the gzip wrapper) and appended with a single write(2) on
// an O_APPEND descriptor, so a crash leaves whole members plus at most one
// truncated last member; flush() is fsync(2). Reopening a file cuts such a
// truncated end off (repair_tail below).
#include "crawler/warc.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

#include "crawler/warc_format.h"

namespace cronista::crawler {
namespace {

using namespace warc_format;

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

    if (e.revisit != WarcRevisit::kNone) {
      if (!safe_header_value(e.refers_to_uri) || !safe_header_value(e.refers_to_date))
        return Status::Error("control characters in the WARC-Refers-To fields for " + std::string(e.target_uri));
      // The head as the server sent it (its Content-Length describes the
      // payload recorded earlier, not this block).
      const std::string head = terminated_head(e.http_response_head);
      std::string fields = "WARC-Type: revisit\r\nWARC-Record-ID: " + response_id + "\r\nWARC-Date: " + date +
                           "\r\nWARC-Target-URI: " + std::string(e.target_uri) + "\r\n";
      if (!e.ip_address.empty()) fields += "WARC-IP-Address: " + std::string(e.ip_address) + "\r\n";
      fields += "WARC-Profile: " + std::string(warc_revisit_profile(e.revisit)) + "\r\n";
      if (!e.refers_to_uri.empty()) fields += "WARC-Refers-To-Target-URI: " + std::string(e.refers_to_uri) + "\r\n";
      if (!e.refers_to_date.empty()) fields += "WARC-Refers-To-Date: " + std::string(e.refers_to_date) + "\r\n";
      if (e.revisit == WarcRevisit::kIdenticalPayloadDigest) {
        Sha1 payload;
        payload.update(e.body);
        fields += "WARC-Payload-Digest: " + payload.warc_digest() + "\r\n";
      }
      fields += "Content-Type: application/http; msgtype=response\r\n";
      if (Status s = append_record(fields, {head}, nullptr); !s.ok()) return s;
      return write_request(e, date, response_id);
    }
    const std::string head = adjust_response_head(e.http_response_head, e.body, e.body_coding);
    Sha1 payload;
    payload.update(e.body);
    std::string fields = "WARC-Type: response\r\nWARC-Record-ID: " + response_id + "\r\nWARC-Date: " + date +
                         "\r\nWARC-Target-URI: " + std::string(e.target_uri) + "\r\n";
    if (!e.ip_address.empty()) fields += "WARC-IP-Address: " + std::string(e.ip_address) + "\r\n";
    fields += "Content-Type: application/http; msgtype=response\r\nWARC-Payload-Digest: " + payload.warc_digest() +
              "\r\n";
    if (Status s = append_record(fields, {head, e.body}, nullptr); !s.ok()) return s;
    return write_request(e, date, response_id);
  }

  // The request record of an exchange, naming its response (or revisit) record.
  Status write_request(const WarcExchange& e, const std::string& date, const std::string& response_id) {
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

std::string_view warc_revisit_profile(WarcRevisit revisit) {
  switch (revisit) {
    case WarcRevisit::kIdenticalPayloadDigest: return "http://netpreserve.org/warc/1.1/revisit/identical-payload-digest";
    case WarcRevisit::kServerNotModified: return "http://netpreserve.org/warc/1.1/revisit/server-not-modified";
    case WarcRevisit::kNone: break;
  }
  return "";
}

std::string warc_sha1_digest(std::string_view data) {
  Sha1 h;
  h.update(data);
  return h.warc_digest();
}

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

}  // namespace cronista::crawler
