// The output forms of `cronista tag` (contract.md), written as the text is
// tagged, piece by piece, so that memory does not grow with the input:
// - json: {"dct", "expressions": [...]} (the shape of contract.md);
// - timex3: a TimeML document (root, DCT TIMEX3, TEXT with inline TIMEX3s);
// - harem: the text with inline HAREM <EM CATEG="TEMPO" TIPO=…>.
// `scheme` chooses which expressions and which extents are written, as the
// evaluator scores them (eval::scheme_mentions()): TimeML extents, Second
// HAREM extents (with the leading preposition) or First HAREM names.
#pragma once

#include <cstddef>
#include <optional>
#include <ostream>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "eval/tagger_eval.h"
#include "temporal/chronon.h"
#include "temporal/expression.h"

namespace cronista::cli {

enum class TagFormat { Json, Timex3, Harem };

// Appends `s` as a JSON string (quotes included), escaped as nlohmann::json
// dumps it (UTF-8 kept as is, control characters as \uXXXX).
void append_json_string(std::string& out, std::string_view s);

// Writes JSON as nlohmann::json dumps it: indented by two spaces (pretty)
// or on one line, without building a document tree.
class JsonEmitter {
 public:
  JsonEmitter(std::string& out, bool pretty);
  void open(char bracket);   // '{' or '['
  void close(char bracket);  // '}' or ']'
  JsonEmitter& key(std::string_view k);  // then one value
  void string(std::string_view v);
  void number(std::size_t v);
  void boolean(bool v);
  void null();

 private:
  void item();
  void newline();
  std::string& out_;
  bool pretty_;
  int depth_ = 0;
  bool first_ = true;
  bool after_key_ = false;
};

class TagWriter {
 public:
  struct Options {
    TagFormat format = TagFormat::Json;
    eval::GoldScheme scheme = eval::GoldScheme::TimeML;
    std::optional<temporal::Date> dct;
    // JSON on one line (a line of JSON Lines) instead of indented.
    bool line = false;
    // String fields written before "dct" (JSON only): {"file", path}, {"id", id}.
    std::vector<std::pair<std::string, std::string>> head;
  };
  // `out` receives the output; it is written to whenever 1 MiB has gathered
  // and at finish().
  TagWriter(std::ostream& out, const Options& options);

  // One piece of the document, in order. `text` is the piece as tagged;
  // `found` the tagger's expressions, offsets into `text`; `base` the offset
  // of the piece in the whole output text (JSON offsets are base + offset).
  // `source` (JSON only, may be null) maps a `text` offset to an input offset
  // and `input` holds the input those refer to (an HTML page): JSON offsets
  // and texts are then the input's.
  struct SourceMap {
    std::string_view input;
    const std::vector<std::size_t>* offsets = nullptr;  // TextDocument::source_offsets
  };
  void write(std::string_view text, std::size_t base, const std::vector<temporal::TemporalExpression>& found,
             const SourceMap* source = nullptr);
  // Closes the document and flushes. False when the stream failed.
  bool finish();
  bool ok() const { return out_.good(); }

 private:
  void flush_if_full();
  bool mapped() const;
  void range(std::size_t b, std::size_t t, std::size_t* s, std::size_t* u) const;
  std::string_view text_of(std::size_t s, std::size_t u, std::string_view own) const;
  // "start", "end" and "text" of the extent [b, t) of the text written.
  void json_extent(std::size_t b, std::size_t t, std::string_view own);
  void json_expression(const temporal::TemporalExpression& e);
  void json_mention(const temporal::TemporalExpression& e, const eval::SchemeMention& m, std::string_view text);
  void inline_mention(const temporal::TemporalExpression& e, const eval::SchemeMention& m, std::string_view text);

  std::ostream& out_;
  TagFormat format_;
  eval::GoldScheme scheme_;
  std::optional<temporal::Date> dct_;
  std::string buf_;
  JsonEmitter json_;
  std::size_t count_ = 0;  // expressions (json) or tags (inline) written
  const SourceMap* source_ = nullptr;
  std::size_t base_ = 0;
};

}  // namespace cronista::cli
