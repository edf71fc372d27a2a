// Inputs of the commands that read a document (`tag`, `segment`): plain text
// read in pieces (so that a command's memory does not grow with its input),
// and whole documents decoded to UTF-8 as `build` and `crawl` decode them.
#pragma once

#include <cstddef>
#include <cstdio>
#include <istream>
#include <memory>
#include <string>
#include <string_view>

#include "temporal/status.h"

namespace cronista::cli {

// The canonical name of an --encoding label ("latin1" → "windows-1252"), or
// an error naming the label when neither WHATWG nor ICU knows it.
Result<std::string> encoding_name(const std::string& label);

// A whole document as UTF-8. HTML: its charset as build and crawl find it
// (BOM, <meta>, detection; `encoding`, if not empty, is taken as the HTTP
// header's charset and wins). Plain text: `encoding` (default UTF-8). When
// the charset is UTF-8 the bytes are kept as they are, so offsets are the
// input's; bytes invalid in the charset are an error naming `what`, unless
// `lenient` (then replaced: by '?' in UTF-8, keeping offsets, by U+FFFD
// otherwise).
Result<std::string> decode_document(std::string data, bool html, const std::string& encoding, bool lenient,
                                    const std::string& what);

// Reads plain text in pieces of about `piece_bytes` (at least), each ending
// after a blank line when there is one (else after a line break, a sentence
// end, a space), converted to UTF-8 from `encoding` (empty or UTF-8: the
// bytes as they are, validated: invalid UTF-8 is an error unless `lenient`,
// which replaces bad bytes by '?' so offsets stay the input's).
class TextPieces {
 public:
  ~TextPieces();
  // `path` "-" is standard input.
  static Result<std::unique_ptr<TextPieces>> open(const std::string& path, const std::string& encoding, bool lenient,
                                                  std::size_t piece_bytes);
  // The next piece into *piece; false at the end of the input. An error
  // names the input and the byte offset at fault.
  Result<bool> next(std::string* piece);
  // Offset of the last piece returned in the UTF-8 text read so far.
  std::size_t offset() const { return offset_; }

 private:
  TextPieces() = default;
  // Reads more bytes into pending_ (converted); false at end of input.
  Result<bool> fill();

  std::string what_;
  std::FILE* file_ = nullptr;
  bool owns_file_ = false;
  bool lenient_ = false;
  std::size_t piece_bytes_ = 0;
  std::string pending_;  // UTF-8 read but not yet returned
  std::size_t offset_ = 0;
  std::size_t next_offset_ = 0;
  bool eof_ = false;
  struct Converter;
  std::unique_ptr<Converter> conv_;  // null for UTF-8
};

}  // namespace cronista::cli
