// Line-by-line reading of a plain or gzip-compressed file (zlib reads both),
// with the uncompressed byte offset of each line, for the line-oriented
// collection formats (WPT03, JSONL). Lines longer than a cap are not kept
// whole: the reader returns their first `max_line` bytes and says so, so
// that one runaway record cannot exhaust memory.
#pragma once

#include <zlib.h>

#include <cstdint>
#include <string>

#include "temporal/status.h"

namespace cronista::corpus {

class LineReader {
 public:
  LineReader() = default;
  LineReader(const LineReader&) = delete;
  LineReader& operator=(const LineReader&) = delete;
  ~LineReader();

  Status open(const std::string& path);
  // Next line without its "\n" (and "\r"): true and *line, *offset set;
  // false at the end of the file or on a read error (see status()).
  // *truncated is set when the line was longer than max_line.
  bool next(std::string* line, std::uint64_t* offset, bool* truncated = nullptr);
  Status status() const { return status_; }
  // Compressed bytes consumed so far (file bytes for a plain file).
  std::uint64_t raw_offset() const;

  std::size_t max_line = 64u << 20;

 private:
  bool fill();

  gzFile file_ = nullptr;
  std::string path_;
  std::string buffer_;
  std::size_t pos_ = 0;
  std::uint64_t buffer_offset_ = 0;  // uncompressed offset of buffer_[0]
  bool eof_ = false;
  Status status_;
};

}  // namespace cronista::corpus
