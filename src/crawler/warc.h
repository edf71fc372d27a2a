// WARC files: a writer (WARC/1.1, one gzip member per record so standard
// tools can seek, request + response records with WARC-Date,
// WARC-Target-URI, WARC-Record-ID, WARC-Payload-Digest / WARC-Block-Digest
// as sha1 base32) and a reader (WARC/1.0 and 1.1, gzip per record, whole-file
// gzip or plain; a corrupt record is reported with its offset and skipped).
//
// What the writer produces, and how to read it with standard tools, is
// documented in docs/warc.md.
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
// Status line, headers (folded lines joined with a space), and the body with
// a chunked transfer-encoding removed (when the stored body really is
// chunked) and a gzip/x-gzip/deflate Content-Encoding decoded. Errors: no
// status line, no end of headers, undecodable or over-64-MiB compressed body.
Result<HttpMessage> parse_http_response(std::string_view block);

// "sha1:" + the RFC 4648 base32 SHA-1 of `data`, as WARC digests are written.
std::string warc_sha1_digest(std::string_view data);

// How the body handed to the writer relates to the response head's
// Content-Encoding (a transfer-encoding is always taken as removed).
enum class BodyCoding {
  kAuto,     // gzip, deflate and zstd are recognised by their bytes; other
             // codings (br) are taken as decoded, as libcurl does with them
  kDecoded,  // the body was content-decoded (e.g. by libcurl's ACCEPT_ENCODING)
  kAsSent,   // the body is exactly what the server sent, minus chunking
};

// WARC 1.1 §6.7: a revisit record instead of a response record, holding
// the response head only.
enum class WarcRevisit {
  kNone,                    // a response record with the payload
  kIdenticalPayloadDigest,  // the payload is byte for byte the one recorded earlier
  kServerNotModified,       // the server answered 304 to a conditional request
};
// The WARC-Profile URI of a revisit record.
std::string_view warc_revisit_profile(WarcRevisit revisit);

// One fetch, for WarcWriter::write().
struct WarcExchange {
  // Revisit records: the profile, and the record they refer to (its
  // WARC-Target-URI and WARC-Date). `body` is then not written; with
  // kIdenticalPayloadDigest it is the payload whose digest is recorded (the
  // same bytes as the earlier one).
  WarcRevisit revisit = WarcRevisit::kNone;
  std::string_view refers_to_uri, refers_to_date;
  std::string_view target_uri;
  std::string_view date;          // ISO 8601 UTC ("2026-11-22T08:30:00Z"); empty: now
  std::string_view ip_address;    // WARC-IP-Address; empty: omitted
  std::string_view http_request;  // request line + headers; empty: no request record
  std::string_view http_response_head;  // status line + headers
  std::string_view body;
  BodyCoding body_coding = BodyCoding::kAuto;
};

// Not thread-safe: one writer per file, used by one thread (or guarded).
class WarcWriter {
 public:
  struct Options {
    // zlib level per record member; 1 keeps up with a fast crawl, 6-9
    // trade speed for about a fifth less space.
    int compression_level = 1;
    // Compress when the path ends in ".gz" (the default), or force a choice.
    enum class Compression { kByExtension, kGzip, kNone } compression = Compression::kByExtension;
    // Told when open() repairs the end of an existing file (see open()).
    std::function<void(const std::string&)> on_repair;
    // The largest incomplete end open() cuts off (more than one record of
    // the largest body a crawl downloads); a longer damaged stretch fails.
    std::uint64_t max_incomplete_tail = 64ULL * 1024 * 1024;
  };

  // Opens for appending (a resumed crawl continues the same file); writes a
  // warcinfo record when the file is new. An existing file is first checked
  // for an incomplete last record (a crash while writing it): those bytes
  // are moved to PATH.incomplete-OFFSET and cut from the file, so that the
  // records appended after them are readable by every WARC reader, not only
  // by ours. A damaged stretch larger than any record a crash can leave
  // (Options::max_incomplete_tail) is not cut: open() fails naming its offset.
  static Result<std::unique_ptr<WarcWriter>> open(const std::string& path, std::string_view software);
  static Result<std::unique_ptr<WarcWriter>> open(const std::string& path, std::string_view software,
                                                  const Options& options);
  virtual ~WarcWriter() = default;

  // Writes a response and a request record for one fetch (the request
  // record names the response in WARC-Concurrent-To). `http_response_head`
  // is the raw status line + headers (the final blank line optional); `body`
  // the (decoded-transfer) payload. The head is adjusted to describe the
  // stored body: Transfer-Encoding, and a Content-Encoding the body no
  // longer has, are renamed to X-Cronista-Orig-*, and Content-Length is set.
  virtual Status write_exchange(std::string_view target_uri, std::string_view iso_date,
                                std::string_view http_request, std::string_view http_response_head,
                                std::string_view body) = 0;
  virtual Status write(const WarcExchange& exchange) = 0;
  // Makes everything written so far durable (fsync). A crash loses at most
  // a partly written last record, which readers report and skip.
  virtual Status flush() = 0;
  // Bytes in the file (for rotation and reports).
  virtual std::uint64_t size() const = 0;
};

// Reads records in file order from plain, per-record-gzip or whole-file-gzip
// WARC files (gzip members need not line up with records). Memory: one
// record plus 64 KiB buffers. ARC files are refused by open().
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
