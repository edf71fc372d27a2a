// Scores the tagger against gold documents (TimeML or HAREM).
//
// Extraction: strict = same extent; relaxed = overlapping extents, matched
// one to one. Precision, recall and F1 overall and per type (a per-type match
// also needs the same type). TimeML: TimeML extents and types, plus value
// accuracy over the relaxed matches; only the annotated sentences (<s>) are
// scored, not the header and headline. HAREM: HAREM extents (with the leading
// preposition) and HAREM types; vague and generic gold expressions are
// scored apart (neither missed nor false alarms in the main figures); of an
// <ALT> group the alternative that best fits the system output counts;
// <OMITIDO> text is ignored.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "corpus/gold.h"
#include "temporal/tagger.h"

namespace cronista::corpus {

enum class GoldScheme { TimeML, Harem };

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

// "TEMPO_CALEND/DATA", "DURACAO", "FREQUENCIA"… for a system expression; the
// First HAREM types are mapped to these (DATA → TEMPO_CALEND/DATA, HORA →
// TEMPO_CALEND/HORA, PERIODO → DURACAO, CICLICO → FREQUENCIA).
std::string harem_label(const temporal::TemporalExpression& e);
std::string normalize_harem_type(const std::string& gold_type);

}  // namespace cronista::corpus
