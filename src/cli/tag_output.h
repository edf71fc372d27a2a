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
#include <vector>

#include "eval/tagger_eval.h"
#include "temporal/chronon.h"
#include "temporal/expression.h"

namespace cronista::cli {

enum class TagFormat { Json, Timex3, Harem };

// Appends `s` as a JSON string (quotes included), escaped as nlohmann::json
// dumps it (UTF-8 kept as is, control characters as \uXXXX).
void append_json_string(std::string& out, std::string_view s);

class TagWriter {
 public:
  // `out` receives the output; it is written to whenever 1 MiB has gathered
  // and at finish().
  TagWriter(std::ostream& out, TagFormat format, eval::GoldScheme scheme, const std::optional<temporal::Date>& dct);

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
  void json_expression(const temporal::TemporalExpression& e);
  void json_mention(const temporal::TemporalExpression& e, const eval::SchemeMention& m, std::string_view text);
  void inline_mention(const temporal::TemporalExpression& e, const eval::SchemeMention& m, std::string_view text);

  std::ostream& out_;
  TagFormat format_;
  eval::GoldScheme scheme_;
  std::optional<temporal::Date> dct_;
  std::string buf_;
  std::size_t count_ = 0;  // expressions (json) or tags (inline) written
  const SourceMap* source_ = nullptr;
  std::size_t base_ = 0;
};

}  // namespace cronista::cli
