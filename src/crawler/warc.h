// WARC files: a writer (WARC/1.1, one gzip member per record so standard
// tools can seek, request + response records with WARC-Date,
// WARC-Target-URI, WARC-Record-ID, WARC-Payload-Digest / WARC-Block-Digest
// as sha1 base32) and a reader (WARC/1.0 and 1.1, gzip per record, whole-file
// gzip or plain; a corrupt record is reported with its offset and skipped).
#pragma once

#include <cstdint>
#include <cstdio>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "temporal/status.h"

namespace cronista::crawler {

struct WarcRecord {
  std::string type;  // "response", "request", "warcinfo", "metadata", "resource"…
  // WARC header fields in file order (names as written).
  std::vector<std::pair<std::string, std::string>> headers;
  std::string block;  // the record block (for response: HTTP headers + body)
  std::uint64_t offset = 0;  // offset of the record (or its gzip member) in the file

  // Case-insensitive header lookup; empty when absent.
  std::string header(std::string_view name) const;
};

// For response records with an HTTP block: status, headers and body.
struct HttpMessage {
  int status = 0;
  std::vector<std::pair<std::string, std::string>> headers;
  std::string body;
  std::string header(std::string_view name) const;
};
Result<HttpMessage> parse_http_response(std::string_view block);

class WarcWriter {
 public:
  // Opens for appending (a resumed crawl continues the same file); writes a
  // warcinfo record when the file is new.
  static Result<std::unique_ptr<WarcWriter>> open(const std::string& path, std::string_view software);
  virtual ~WarcWriter() = default;

  // Writes a request and a response record for one fetch. `http_response`
  // is the raw status line + headers; `body` the (decoded-transfer) payload.
  virtual Status write_exchange(std::string_view target_uri, std::string_view iso_date,
                                std::string_view http_request, std::string_view http_response_head,
                                std::string_view body) = 0;
  virtual Status flush() = 0;
};

class WarcReader {
 public:
  static Result<std::unique_ptr<WarcReader>> open(const std::string& path);
  virtual ~WarcReader() = default;

  // Next record: true and *record filled; false at the end of the file.
  // Corrupt records are passed to `on_error` (message with the offset) and
  // skipped; reading continues with the next record that can be found.
  virtual bool next(WarcRecord* record) = 0;
  std::function<void(const std::string&)> on_error;
};

}  // namespace cronista::crawler
