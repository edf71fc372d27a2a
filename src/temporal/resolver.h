// The date resolver (method.md §2.3): from the words of one matched
// expression and its context to a TimeML type and value and to chronons.
//
// The resolver is compositional, not per-pattern: it reads the words of the
// span with the lexicon (month, number, unit, modifier…), collects the facts
// they state (year 1944, month 6, "3 units of year", "ago", "next"), and
// composes them by a fixed set of rules: explicit dates, decades and
// centuries, quarters/halves/seasons, deictic words and modifiers against the
// document date, anaphoric ones against the last date mentioned, shifts
// ("há três anos", "dois anos depois"), durations, sets, intervals. So a
// learned pattern needs no normalisation code of its own.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "temporal/chronon.h"
#include "temporal/expression.h"
#include "temporal/genre.h"
#include "temporal/lexicon.h"
#include "temporal/pattern_set.h"

namespace cronista::temporal {

// A point the text has mentioned, at its granularity (-1 = unknown part).
struct Anchor {
  int year = -1;
  int month = -1;
  int day = -1;
  int quarter = -1;  // set when the point mentioned was a quarter ("terceiro trimestre")
};

struct ResolveContext {
  std::optional<Date> dct;
  std::optional<Anchor> anchor;  // last date mentioned before the expression
  // Last quarter mentioned ("terceiro trimestre"), which a later bare
  // "trimestre" or a "há um ano" in a quarterly report refers to.
  std::optional<Anchor> quarter;
  // The folded text and the expression's place in it, for the tense cues
  // (tense.h), which are read only when a resolution needs them.
  std::string_view folded;
  std::size_t start = 0, end = 0;
  bool duration_cue = false;     // a DURATION_CUE word right before ("vive há três anos")
  bool que_after = false;        // "há três anos que…" opening a clause
  bool offset_in = false;        // an OFFSET_PREPOSITION right before ("chega em meia hora")
  // +1 when the words before point forward ("até maio"), -1 backward
  // ("desde janeiro", "findo a 31 de março"), 0 otherwise.
  int direction = 0;
  // A TARGET_PREPOSITION before the expression: a weekday or a day of the
  // month lies ahead whatever the sentence's tense ("ficou pra quinta", "foi
  // adiado para sexta", "marcado pro dia 25"); a month does not ("os números
  // para janeiro").
  bool target = false;
  // A LEANS_FUTURE word right before ("até sexta"): in colloquial texts a
  // weekday or a weekend ahead unless the sentence is in the past.
  bool leans_future = false;
  Genre genre = Genre::News;
};

// One end of an interval, as the resolver reads it: byte offsets into the
// span it was given, and the end's own type and value.
struct ResolvedEndpoint {
  std::size_t start = 0, end = 0;
  TimexType type = TimexType::Date;
  std::string value;
};

struct Resolution {
  TimexType type = TimexType::Date;
  std::string value;
  std::vector<Chronon> chronons;
  Reference reference = Reference::Explicit;
  bool resolved = true;
  bool interval = false;
  std::vector<ResolvedEndpoint> endpoints;  // an interval's two ends, in text order
  // Moved away from the time under discussion ("há um ano", "trimestre homólogo do
  // ano passado"): it does not become the quarter later bare mentions refer to.
  bool shifted = false;
  bool reject = false;  // the words make no temporal sense (e.g. "1945" as day 19/45)
  // Bytes at the end of the span that are not part of the expression: the
  // "depois" of "[dois anos] depois de a guerra acabar", a signal tying the
  // duration to an event rather than a date.
  std::size_t trim_end = 0;
  std::optional<Anchor> new_anchor;
};

class Resolver {
 public:
  explicit Resolver(const Lexicon* lexicon) : lex_(lexicon) {}
  // `span` is folded text (text_fold.h) of the whole match.
  Resolution resolve(std::string_view span, const Pattern& pattern, const ResolveContext& ctx) const;

  struct Token {
    std::string text;                          // folded phrase (words joined by one space)
    const std::vector<LexEntry>* entries = nullptr;
    bool number = false;                       // a cardinal: digits or number words
    long value = 0;                            // its value
    int digits = 0;                            // how many digits it was written with (0 = words)
    std::size_t begin = 0, end = 0;            // byte range in the span
    const std::string* get(std::string_view cls) const;
  };
  std::vector<Token> tokenize(std::string_view span) const;

 private:
  Resolution resolve_tokens(const std::vector<Token>& tokens, const Pattern& pattern, const ResolveContext& ctx) const;
  // An interval's two ends resolved apart (resolver_intervals.cc); nothing
  // when the span has no range connector to cut at.
  std::optional<Resolution> resolve_interval(const std::vector<Token>& tokens, const Pattern& pattern,
                                             const ResolveContext& ctx) const;
  const Lexicon* lex_;
};

}  // namespace cronista::temporal
