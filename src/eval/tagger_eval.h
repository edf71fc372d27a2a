// Scores the tagger against gold documents (TimeML or HAREM).
//
// Extraction: strict = same extent; relaxed = overlapping extents, matched
// one to one. Precision, recall and F1 overall and per type (a per-type match
// also needs the same type). Each scheme sees the system's expressions as its
// own annotators would have marked them (scheme_mentions()):
// - TimeML: TimeML extents and types, an interval as its two ends (two
//   TIMEX3s), plus value accuracy over the relaxed matches; only the
//   annotated sentences (<s>) are scored, not the header and headline.
// - Second HAREM (2008): HAREM extents (with the leading preposition) and
//   HAREM types, an interval as one TEMPO_CALEND/INTERVALO entity.
// - First HAREM (2005): named entities. Santos & Cardoso (eds.) 2007,
//   "Directivas para a identificação e classificação semântica na colecção
//   dourada do HAREM", and the guidelines published for the evaluation
//   (https://www.linguateca.pt/primeiroHAREM/harem_classificacao_old.html:
//   an entity has at least one capitalised word and/or digits;
//   https://www.linguateca.pt/primeiroHAREM/harem_comunicacao11.html:
//   candidates without capitals, such as "quarta-feira", are not marked, and
//   ABSTRACCAO/PERIODO joins TEMPO/PERIODO). So only what names a time is an
//   entity, and only the naming words (TemporalExpression::name_start): no
//   preposition, article, "dia", modifier or lower-case weekday; deictic,
//   anaphoric and counted expressions without a name ("hoje", "no ano
//   seguinte", "durante três anos") are no entities. Choices where the
//   guidelines are silent: month and season names count in either case (their
//   capital is a spelling convention of pre-1990 pt-PT, absent in pt-BR); the
//   ends of an interval written with words ("de 25 a 28 de Junho") are two
//   DATA entities, a range written as one token ("1939-1945") one PERIODO;
//   types: TIME → HORA, DURATION and decades/centuries → PERIODO, SET and
//   unanchored holidays/seasons/weekdays → CICLICO, other dates → DATA.
// In both HAREM schemes vague and generic gold expressions are scored apart
// (neither missed nor false alarms in the main figures); of an <ALT> group
// the alternative that best fits the system output counts; <OMITIDO> text is
// ignored.
#pragma once

#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "eval/gold.h"
#include "temporal/tagger.h"

namespace cronista::eval {

enum class GoldScheme { TimeML, Harem, FirstHarem };  // Harem: the Second HAREM

// The scheme of a HAREM collection from its `versao` attribute: First HAREM
// collections are "PrimeiroHAREM-…"; everything else follows the Second.
GoldScheme harem_scheme(std::string_view collection_version);
// "timeml", "second-harem", "first-harem".
std::string_view to_string(GoldScheme s);

// One expression as a scheme's annotators would have marked it.
struct SchemeMention {
  std::size_t start = 0, end = 0;  // byte offsets into the analysed text
  std::string type;
  std::string value;
  // The TimeML type of what the mention stands for (the expression, or the
  // end of an interval), whatever the scheme.
  temporal::TimexType timex = temporal::TimexType::Date;
};
// The mentions a system expression stands for under `scheme` (none when the
// scheme does not annotate it, two for an interval split into its ends).
std::vector<SchemeMention> scheme_mentions(const temporal::TemporalExpression& e, GoldScheme scheme,
                                           std::string_view text);

struct MatchCounts {
  long gold = 0;
  long system = 0;
  long strict = 0;         // exact matches
  long relaxed_gold = 0;   // gold expressions overlapped by a system one
  long relaxed_system = 0; // system expressions overlapping a gold one
  double strict_precision() const { return system ? double(strict) / system : 0; }
  double strict_recall() const { return gold ? double(strict) / gold : 0; }
  double relaxed_precision() const { return system ? double(relaxed_system) / system : 0; }
  double relaxed_recall() const { return gold ? double(relaxed_gold) / gold : 0; }
  static double f1(double p, double r) { return p + r > 0 ? 2 * p * r / (p + r) : 0; }
  double strict_f1() const { return f1(strict_precision(), strict_recall()); }
  double relaxed_f1() const { return f1(relaxed_precision(), relaxed_recall()); }
  void add(const MatchCounts& o) {
    gold += o.gold, system += o.system, strict += o.strict;
    relaxed_gold += o.relaxed_gold, relaxed_system += o.relaxed_system;
  }
};

struct EvalError {
  std::string document;
  std::string kind;  // "miss", "false-alarm", "extent", "value"
  std::string text;
  std::string type;
  std::string gold_text;   // for "extent": the gold text
  std::string gold_value;
  std::string system_value;
  std::string context;
};

struct EvalReport {
  GoldScheme scheme = GoldScheme::TimeML;
  std::string name;  // what was scored (file name), for the report's title
  long documents = 0;
  MatchCounts overall;
  std::map<std::string, MatchCounts> per_type;
  long value_pairs = 0;    // TimeML: relaxed matches
  long value_correct = 0;  // … whose values agree
  // HAREM vague/generic gold expressions, scored apart.
  long vague_gold = 0;
  long vague_found = 0;
  std::vector<EvalError> errors;
  double value_accuracy() const { return value_pairs ? double(value_correct) / value_pairs : 0; }
};

// Runs the tagger over every document and scores it. `errors` fills
// EvalReport::errors.
EvalReport evaluate(const std::vector<GoldDocument>& docs, GoldScheme scheme, const temporal::Tagger& tagger,
                    bool errors);

// Human-readable and JSON forms of a report.
std::string format_report_text(const EvalReport& r, bool errors);
std::string format_report_json(const std::vector<EvalReport>& reports, bool errors);

// "TEMPO_CALEND/DATA", "DURACAO", "FREQUENCIA"… for a system expression
// (Second HAREM); normalize_harem_type() maps gold types onto these.
std::string harem_label(const temporal::TemporalExpression& e);
std::string normalize_harem_type(const std::string& gold_type);
// "DATA", "HORA", "PERIODO", "CICLICO" for a system expression (First HAREM).
std::string first_harem_label(const temporal::TemporalExpression& e);

}  // namespace cronista::eval
