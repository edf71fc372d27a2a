#include "temporal/scope.h"

#include <algorithm>
#include <charconv>
#include <string>

namespace cronista::temporal {

namespace {

// One end of a period: YYYY, YYYY-MM or YYYY-MM-DD, widened to the start
// (is_end false) or the end (is_end true) of its granularity.
std::optional<Date> parse_end(std::string_view s, bool is_end) {
  auto number = [](std::string_view f, int* out) {
    if (f.empty()) return false;
    auto [p, ec] = std::from_chars(f.data(), f.data() + f.size(), *out);
    return ec == std::errc() && p == f.data() + f.size();
  };
  Date d;
  if (s.size() == 4) {
    if (!number(s, &d.year)) return std::nullopt;
    d.month = is_end ? 12 : 1;
    d.day = is_end ? 31 : 1;
  } else if (s.size() == 7 && s[4] == '-') {
    if (!number(s.substr(0, 4), &d.year) || !number(s.substr(5, 2), &d.month) || d.month < 1 || d.month > 12)
      return std::nullopt;
    d.day = is_end ? days_in_month(d.year, d.month) : 1;
  } else {
    return Date::parse(s);
  }
  return d.valid() ? std::optional<Date>(d) : std::nullopt;
}

}  // namespace

// "476" for the year 476: say how to write it ("0476").
static std::string four_digit_hint(std::string_view s) {
  if (s.empty() || s.size() > 3 || !std::all_of(s.begin(), s.end(), [](char c) { return c >= '0' && c <= '9'; }))
    return {};
  return "; the year " + std::string(s) + " is written " + std::string(4 - s.size(), '0') + std::string(s);
}

Result<Period> Period::parse(std::string_view from, std::string_view to) {
  auto f = parse_end(from, false);
  if (!f)
    return Result<Period>::Error("--from '" + std::string(from) + "' is not YYYY, YYYY-MM or YYYY-MM-DD" +
                                 four_digit_hint(from));
  auto t = parse_end(to, true);
  if (!t)
    return Result<Period>::Error("--to '" + std::string(to) + "' is not YYYY, YYYY-MM or YYYY-MM-DD" +
                                 four_digit_hint(to));
  if (*t < *f) return Result<Period>::Error("--to " + std::string(to) + " is before --from " + std::string(from));
  return Period{*f, *t};
}

bool chronon_in_period(const Chronon& c, const Period& p) {
  auto r = c.days();
  if (!r) return false;
  const DayRange pd = p.days();
  return r->first >= pd.first && r->last <= pd.last;
}

double in_scope_share(const Segment& s, const Period& p) {
  int placeable = 0, inside = 0;
  for (const Chronon& c : s.chronons) {
    if (!c.days()) continue;
    ++placeable;
    if (chronon_in_period(c, p)) ++inside;
  }
  return placeable == 0 ? 0.0 : static_cast<double>(inside) / placeable;
}

bool segment_in_scope(const Segment& s, const Period& p, double threshold) {
  return in_scope_share(s, p) > threshold;
}

}  // namespace cronista::temporal
