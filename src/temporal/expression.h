// A temporal expression found in a text, as the annotator and the resolver
// leave it (method.md §2.2, §2.3; contract.md `cronista tag`).
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "temporal/chronon.h"

namespace cronista::temporal {

// TimeML TIMEX3 type.
enum class TimexType { Date, Time, Duration, Set };
// HAREM category TEMPO/TIME types: CALENDAR_REF (TEMPO_CALEND), DURATION
// (DURACAO), FREQUENCY (FREQUENCIA), GENERIC (GENERICO).
enum class HaremType { CalendarRef, Duration, Frequency, Generic };
// HAREM subtype of CALENDAR_REF: DATE (DATA), HOUR (HORA), INTERVAL (INTERVALO).
enum class HaremSubtype { None, Date, Hour, Interval };
// How the expression refers to the timeline (method.md §2.3).
enum class Reference { Explicit, Implicit, Deictic, Anaphoric, Vague };

std::string_view to_string(TimexType t);     // "DATE", "TIME", "DURATION", "SET"
std::string_view to_string(HaremType t);     // "CALENDAR_REF", "DURATION", "FREQUENCY", "GENERIC"
std::string_view to_string(HaremSubtype t);  // "", "DATE", "HOUR", "INTERVAL"
std::string_view to_string(Reference r);     // "explicit", "implicit", "deictic", "anaphoric", "vague"

// One end of an interval. TimeML annotates "entre 1985 e 1987" as two TIMEX3s,
// "1985" and "1987"; the tagger keeps the interval as one expression with two
// chronons and records its ends here.
struct IntervalEndpoint {
  // TimeML extent of the end, byte offsets into the analysed text, end
  // exclusive ("de abril a maio de 2009" → "abril", "maio de 2009").
  std::size_t start = 0;
  std::size_t end = 0;
  // The words of the end that name a time (see TemporalExpression::name_start).
  std::size_t name_start = 0;
  std::size_t name_end = 0;
  std::string text;  // the bytes [start, end)
  TimexType type = TimexType::Date;
  std::string value;  // the end's own value: "de abril a maio de 2009" → "2009-04", "2009-05"
};

// What in an expression names a time on the calendar, as opposed to counting
// ("três anos") or pointing ("hoje", "no ano seguinte").
struct TimeNames {
  bool number = false;  // a number that is not a quantity: "1997", "5 de maio", "17h30", "século XX"
  bool month = false;   // a month name
  bool cyclic = false;  // a holiday, a season, or a capitalised weekday: "Natal", "Verão", "Domingo"
  bool proper = false;  // another capitalised word inside a sentence: "Idade Média"
  bool any() const { return number || month || cyclic || proper; }
};

struct TemporalExpression {
  // TimeML extent: byte offsets into the analysed text, end exclusive, no
  // leading preposition or article ("em 1997" → "1997").
  std::size_t start = 0;
  std::size_t end = 0;
  // HAREM extent: as above but including the leading preposition/article.
  std::size_t harem_start = 0;
  std::size_t harem_end = 0;
  std::string text;  // the bytes [start, end)

  TimexType type = TimexType::Date;
  std::string value;  // TIMEX3 value: "1997-04", "P3D", "PRESENT_REF", "XXXX-12-25"…
  // Resolved points: one, two for an interval, none for durations, sets and
  // vague references.
  std::vector<Chronon> chronons;

  HaremType harem_type = HaremType::CalendarRef;
  HaremSubtype harem_subtype = HaremSubtype::Date;
  Reference reference = Reference::Explicit;
  // False when the value could not be fully determined (no DCT for a deictic
  // expression, no anchor for an anaphoric one, a vague reference).
  bool resolved = true;
  // The annotation schemes that count this expression: some are TIMEX3s but
  // not HAREM entities ("agora"), others HAREM entities without a TIMEX3
  // reading ("às vezes", "mais tarde").
  bool in_timeml = true;
  bool in_harem = true;

  // The two ends of an interval ("entre 1985 e 1987", "1939-1945", "de 25 a
  // 28 de junho"), in text order; empty when the expression is no interval.
  std::vector<IntervalEndpoint> endpoints;

  // Name extent: the words that name a time, as named-entity schemes
  // delimit them: from the first to the last number, month, season, holiday
  // or capitalised word of the TimeML extent, with the century or decade word
  // before a number ("século XX", "anos 70") and the hour word after one ("17
  // horas"); "dia", modifiers ("finais de", "próximo") and lower-case weekday
  // names stay out ("no próximo dia 26" → "26"). Empty (name_start ==
  // name_end) when nothing names a time ("hoje", "três anos depois").
  std::size_t name_start = 0;
  std::size_t name_end = 0;
  TimeNames names;
};

}  // namespace cronista::temporal
