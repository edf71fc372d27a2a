// Reading existing collections (method.md §5; contract.md `cronista build`):
// every format yields the same CollectionDocument stream, so the builder
// does not care where documents come from.
//
// Formats: WPT03 dumps (wpt03_reader.h), JSON Lines (jsonl_reader.h), folders
// of HTML or text files (html_dir_reader.h, text_dir_reader.h) and WARC files
// (warc_collection_reader.h). Each reader takes a file or a folder (a folder
// is read recursively, files in byte order of their paths, hidden files
// skipped), so the order of documents is deterministic. Readers keep one
// record in memory at a time; a record larger than max_document_bytes is
// skipped. A corrupt record is reported through on_error with the file and
// the byte offset where it starts, and reading goes on with the next record:
// a bad record never ends a build.
//
// Content is handed over as found (bytes in the collection's own encoding);
// conversion to UTF-8 (decode_to_utf8) belongs to the analysis, which runs on
// many threads.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "temporal/chronon.h"
#include "temporal/status.h"

namespace cronista::corpus {

struct CollectionDocument {
  std::string key;  // unique in the collection: URL, id, relative path, WARC-Record-ID
  std::string url;  // empty when unknown
  std::string content;  // the text or HTML, bytes as found
  bool is_html = false;
  // HTTP-style Content-Type when the collection gives one (charset hint).
  std::string content_type;
  // Document date from the collection's metadata, and where it came from:
  // "wpt03-last-modified", "wpt03-dataRec", "jsonl", "http-last-modified",
  // "warc-date". Dates found inside HTML (<meta>, <time>) are added later.
  std::optional<temporal::Date> date;
  std::string date_source;
  std::string title;
  std::string source;  // collection name (file stem, JSONL "source" field…)
  std::vector<std::pair<std::string, std::string>> metadata;
  std::string file;          // the file the record came from
  std::uint64_t offset = 0;  // byte offset of the record in that file (uncompressed for gzip)
};

class CollectionReader {
 public:
  virtual ~CollectionReader() = default;

  // Next document: true and *doc filled; false at the end (or after a fatal
  // error: see status()).
  virtual bool next(CollectionDocument* doc) = 0;
  // A fatal error that ended reading early (a file that vanished…); OK otherwise.
  Status status() const { return status_; }

  // Progress: bytes of input consumed so far (compressed bytes for gzip)
  // and the total size of the input files.
  std::uint64_t bytes_read() const { return done_bytes_ + current_bytes(); }
  std::uint64_t total_bytes() const { return total_bytes_; }
  std::uint64_t corrupt_records() const { return corrupt_; }

  // Receives "FILE: offset N: reason" for each skipped record.
  std::function<void(const std::string&)> on_error;
  // Records larger than this are skipped (and reported).
  std::uint64_t max_document_bytes = 64ull << 20;

 protected:
  void report_corrupt(const std::string& file, std::uint64_t offset, const std::string& why);
  virtual std::uint64_t current_bytes() const { return 0; }

  Status status_;
  std::uint64_t done_bytes_ = 0;
  std::uint64_t total_bytes_ = 0;
  std::uint64_t corrupt_ = 0;
};

enum class CollectionFormat { Wpt03, Warc, HtmlDir, TextDir, Jsonl };

// "wpt03", "warc", "html-dir", "text-dir", "jsonl".
Result<CollectionFormat> parse_collection_format(std::string_view name);

// Opens PATH (file or folder) in the given format. Errors: the path does not
// exist, holds no file of the format, cannot be read.
Result<std::unique_ptr<CollectionReader>> open_collection(const std::string& path, CollectionFormat format);

// ---- shared by the readers ----

// Regular, non-hidden files under `root` (or `root` itself when it is a
// file) accepted by `accept` (given the file name), sorted by path.
Result<std::vector<std::string>> list_collection_files(const std::string& root,
                                                       const std::function<bool(std::string_view)>& accept);

// Dates as collections write them: dd/mm/yyyy, yyyy-mm-dd (optionally
// followed by a time, "T…" or " …"), yyyy/mm/dd, yyyymmdd[hhmmss], and HTTP
// dates ("Tue, 15 Nov 1994 08:12:31 GMT"). nullopt when none of these or
// not a real date.
std::optional<temporal::Date> parse_collection_date(std::string_view s);

}  // namespace cronista::corpus
