// What the WARC writer and reader share: header-field parsing, the record
// length a header announces, SHA-1 digests in WARC's base32 form, record ids
// and dates, gzip members and HTTP body decoding. Internal to crawler/; the
// public interface is crawler/warc.h.
#pragma once

#include <openssl/evp.h>

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "crawler/ascii.h"

namespace cronista::crawler::warc_format {

constexpr std::size_t kReadChunk = 64 * 1024;
constexpr std::size_t kMaxHeaderBytes = 64 * 1024;
constexpr std::uint64_t kMaxRecordBytes = 1ULL << 30;
constexpr std::size_t kMaxDecodedBody = 64 * 1024 * 1024;

using HeaderFields = std::vector<std::pair<std::string, std::string>>;

bool icontains(std::string_view haystack, std::string_view needle);
std::string_view trim(std::string_view s);
std::string find_header(const HeaderFields& headers, std::string_view name);

// Splits "Name: value" lines (LF or CRLF, extra CRs tolerated) with folded
// continuation lines joined by a space.
void parse_header_lines(std::string_view text, HeaderFields* out);

// The block length a WARC record's header announces: the header fields of a
// record (after its version line), parsed into `fields`; nothing when its
// Content-Length is missing, not decimal or over kMaxRecordBytes.
std::optional<std::uint64_t> announced_length(std::string_view header_fields, HeaderFields* fields);

std::string base32(const unsigned char* data, std::size_t n);

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

// "<urn:uuid:…>", a random (version 4) UUID.
std::string new_record_id();
// Now, as "YYYY-MM-DDTHH:MM:SSZ".
std::string utc_now();
// No control characters (a value that can go into a header line).
bool safe_header_value(std::string_view v);

// One gzip member holding `data`.
bool gzip_member(std::string_view data, int level, std::string* out);
// Inflates gzip or zlib (window_bits 15+32) or raw deflate (-15) data.
bool inflate_all(std::string_view data, int window_bits, std::string* out);
bool looks_gzip(std::string_view body);
bool looks_zstd(std::string_view body);
bool looks_deflate(std::string_view body);

// Decodes a chunked body; false if it is not well-formed chunked data.
bool dechunk(std::string_view in, std::string* out);

}  // namespace cronista::crawler::warc_format
