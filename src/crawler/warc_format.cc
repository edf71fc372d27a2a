// Definitions of the helpers the WARC writer and reader share (warc_format.h).
#include "crawler/warc_format.h"

#include <openssl/rand.h>
#include <unistd.h>
#include <zlib.h>

#include <algorithm>
#include <chrono>
#include <cstring>
#include <ctime>

namespace cronista::crawler::warc_format {

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

}  // namespace cronista::crawler::warc_format
