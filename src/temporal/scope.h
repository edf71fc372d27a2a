// The scope test of the temporal crawler (method.md §3): a period, and
// whether a segment's chronons lie in it.
#pragma once

#include <string>
#include <string_view>

#include "temporal/chronon.h"
#include "temporal/segmenter.h"
#include "temporal/status.h"

namespace cronista::temporal {

// An inclusive range of days.
struct Period {
  Date from;
  Date to;
  DayRange days() const { return {from.day_number(), to.day_number()}; }

  // Parses the contract's --from/--to forms (YYYY, YYYY-MM, YYYY-MM-DD, and
  // the same after "BC" for years before Christ, as TIMEX3 writes them); each
  // end is widened to its granularity: ("1939", "1945") = 1939-01-01 … 1945-12-31,
  // ("BC0100", "0100") = 1 January 100 BC … 31 December AD 100.
  static Result<Period> parse(std::string_view from, std::string_view to);
};

// An end of a period as given (Period::parse), for a reader: a year by its
// name ("1939", "0100" as "100", "BC0044" as "44 BC"), "1939-09" as it is,
// "BC0044-03-15" as "44 BC (BC0044-03-15)".
std::string period_end_name(std::string_view end);

// Whether a chronon lies in the period: its whole day range is inside it.
// A chronon whose year is unknown lies nowhere.
bool chronon_in_period(const Chronon& c, const Period& p);

// Share of the segment's placeable chronons (known year) that lie in the
// period; 0 when it has none.
double in_scope_share(const Segment& s, const Period& p);

// A segment is in scope when more than `threshold` of its placeable chronons
// lie in the period (and it has at least one).
bool segment_in_scope(const Segment& s, const Period& p, double threshold = 0.99);

}  // namespace cronista::temporal
