// Gold-standard documents for evaluating the tagger: plain text with the
// annotated temporal expressions at byte offsets into that text. Both
// readers (timeml_reader.h, harem_reader.h) produce this form.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "temporal/chronon.h"

namespace cronista::eval {

struct GoldExpression {
  std::size_t start = 0;  // byte offsets into GoldDocument::text, end exclusive
  std::size_t end = 0;
  std::string text;
  std::string type;   // TimeML: DATE/TIME/DURATION/SET; HAREM: e.g. TEMPO_CALEND/DATA, DURACAO
  std::string value;  // TimeML value; empty for HAREM
  // HAREM: a vague reading (CATEG lists TEMPO among others) or a generic time
  // (GENERICO); scored apart.
  bool vague = false;
  // HAREM <ALT>: expressions of alternative segmentations share a group
  // (> 0) and differ in alternative; scoring keeps the best alternative.
  int alt_group = 0;
  int alternative = 0;
};

struct GoldRange {
  std::size_t start = 0, end = 0;
  int alternatives = 0;  // for an ALT group: how many alternatives it has
};

struct GoldDocument {
  std::string id;
  // HAREM: the collection's `versao` attribute ("PrimeiroHAREM-…",
  // "Segundo_dourada_…"), which tells the annotation scheme.
  std::string collection_version;
  std::string text;
  std::optional<temporal::Date> dct;
  std::vector<GoldExpression> expressions;
  // HAREM: for each ALT group (index = group - 1), the text range it covers.
  std::vector<GoldRange> alt_ranges;
  // HAREM <OMITIDO>: text left out of the evaluation.
  std::vector<GoldRange> omitted;
  // TimeML: the annotated sentences (<s>); system expressions elsewhere (the
  // document header and headline) are not scored. Empty: all text is scored.
  std::vector<GoldRange> scored;
};

}  // namespace cronista::eval
