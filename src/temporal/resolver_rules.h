// The resolver's rules (resolver.h), shared by the files that hold them.
//
// Resolver::resolve_tokens reads a span's tokens into Facts, then offers the
// facts to one rule per family, in a fixed order; the first rule that
// recognises its family writes the Resolution and ends the composition. Each
// rule is a member of Composition, which carries the facts, the context and
// the resolution under construction; the files that define them:
//   resolver_facts.cc      the tokens read into facts
//   resolver_durations.cc  sets, vague references, durations
//   resolver_calendar.cc   decades, centuries, holidays, explicit dates, dates
//                          without a year, parts of a year; writing values
//   resolver_anchoring.cc  the reference point (document date or last date),
//                          shifts, deictic and anaphoric days, weekdays,
//                          units with a modifier
//   resolver_clock.cc      clock times and parts of the day
//   resolver_intervals.cc  intervals: a span cut into its two ends
//   resolver_tokens.cc     the span cut into lexicon tokens and numbers
// Internal to src/temporal/: not part of the tagger's interface.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "temporal/calendar.h"
#include "temporal/resolver.h"

namespace cronista::temporal::resolver_rules {

using Token = Resolver::Token;

bool all_digits(std::string_view s);
// The word starting at or after folded[p] (skipping spaces), empty if none.
std::string_view word_at(std::string_view t, std::size_t p);
long to_long(std::string_view s);
std::string pad(long v, int width);
int roman_value(std::string_view s);
std::size_t digits_at(std::string_view s, std::size_t i);
Anchor anchor_of(const Date& d);
// The ISO 8601 duration of `amount` units ("P3Y", "PT1H30M", "PXY" when vague).
std::string duration_value(double amount, bool vague, const std::string& unit);
// 17h30, 17h, 17hs, 17:30, 17.30, 17.30h, 9h30m, 9h30min, and with seconds:
// 17h30m15s, 10:30:45.
bool parse_clock(std::string_view w, int* h, int* m, int* s);

// Facts a span states.
struct Facts {
  int year = -1, month = -1, day = -1, weekday = -1;
  bool year_from_two_digits = false;
  std::string season;
  int quarter = -1, half = -1;
  int decade = -1, century = -1;
  bool decade_from_two_digits = false;  // "anos 40": the 1940s, or the forties BC with an era
  int millennium = -1;     // as TIMEX2 writes it: the ordinal less one ("segundo milénio" = 1)
  int hour = -1, minute = -1, second = -1;
  std::string daypart;
  std::string holiday;
  bool has_deictic_day = false;
  int deictic_day = 0;
  bool deictic_word = false;  // "ontem" (the document date), not "véspera" (the anchor)
  std::string ref;
  int rel = 0;             // +1 next/following, -1 last/previous, 0 this/same
  enum class RelKind { None, Deictic, Anaphoric } rel_kind = RelKind::None;
  bool rel_this = false;
  bool demonstrative = false;  // "este", "neste" (not "em curso", "corrente")
  bool grade = false;          // "o 12.º ano": a school grade, not a time
  bool habitual = false;       // "aos domingos", "nas noites de segunda": a habit
  std::string position;
  bool ago = false, after = false, before = false, from_now = false;
  double amount = -1;      // quantity before a unit
  bool amount_vague = false;
  std::string unit;        // the unit of the quantity, or the bare unit
  bool unit_plural = false;
  bool quantified_unit = false;
  int ordinal = -1;
  int from_end = -1;       // "penúltimo" = 2: counted from the end of the year
  int era = 0;             // -1 before Christ ("a.C."), +1 after ("d.C."), 0 unsaid
  std::string set_adverb;
  bool set_quant = false;
  bool vezes = false;      // "três vezes por semana"
  int numbers_unused = 0;  // numbers that took no role
  bool period = false;     // "período": the period under discussion
  std::string outer_unit;  // a second unit ("último dia do mês")
  bool outer_year = false; // a second unit, the year, qualifies the first ("trimestre do ano passado")
};

// One composition: the facts of a span, its context and the resolution being
// written. Each rule returns true when it has written the resolution (or
// rejected the span), false to leave it to the rules after it.
class Composition {
 public:
  Composition(const Lexicon* lexicon, const std::vector<Token>& tokens, const Pattern& pattern,
              const ResolveContext& ctx);

  // A clock time in words after a clock preposition, or "dez para as seis",
  // at tk[*i]; moves *i past it (resolver_clock.cc).
  bool read_clock_words(std::size_t* i);

  // The rules, in the order resolve_tokens applies them.
  void read_facts();                    // resolver_facts.cc
  bool rejected();                      // resolver_anchoring.cc
  bool period_under_discussion();       // resolver_anchoring.cc
  void take_reference_points();         // resolver_anchoring.cc
  bool sets();                          // resolver_durations.cc
  bool vague_reference();               // resolver_durations.cc
  bool durations();                     // resolver_durations.cc
  bool before_christ();                 // resolver_calendar.cc
  bool decades_and_centuries();         // resolver_calendar.cc (and millennia)
  bool holidays();                      // resolver_calendar.cc
  bool day_of_unit();                   // resolver_calendar.cc
  bool part_of_year_counted();          // resolver_calendar.cc
  bool explicit_year();                 // resolver_calendar.cc
  void choose_base();                   // resolver_anchoring.cc
  bool shifts();                        // resolver_anchoring.cc
  bool day_and_month_without_year();    // resolver_calendar.cc
  bool day_of_month_alone();            // resolver_calendar.cc
  bool deictic_days();                  // resolver_anchoring.cc
  bool weekdays();                      // resolver_anchoring.cc
  bool parts_of_year();                 // resolver_calendar.cc
  bool clock_time_alone();              // resolver_clock.cc
  bool unit_with_modifier();            // resolver_anchoring.cc
  bool what_remains();                  // resolver_anchoring.cc (always true)

  Resolution res;

 private:
  std::string_view text_at(std::size_t i) const;
  bool is_de(std::size_t i) const;
  std::optional<Anchor> anchor_or_dct() const;
  void set_day(const Date& d);
  void set_month(int y, int m);
  void set_year(int y);
  void unresolved(std::string value, Reference r);
  void add_time(const std::optional<Date>& named);
  static Date shift_unit(const Date& base, const std::string& unit, long k);
  bool colloquial_next_year(const Date& d) const;
  bool past_feast_last_year(const Date& d) const;
  // Writes the value of the calendar unit containing d.
  void set_unit_value(const Date& d, const std::string& unit);

  const Lexicon* lex_;
  const std::vector<Token>& tk;
  const std::size_t n;
  const Pattern& pattern;
  const ResolveContext& ctx_in;
  ResolveContext ctx;  // ctx_in, its direction dropped where the tense contradicts it
  Facts f;
  bool have_dct = false;
  Date dct{};
  bool relative_shift = false;  // a quantity moved by "há", "daqui a", "depois", "antes"
  bool anaphoric = false;       // relative to the last date mentioned, not the document date
  std::optional<Date> base;     // the reference point of relative expressions
};

}  // namespace cronista::temporal::resolver_rules
