#include "temporal/scope.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <string>

namespace cronista::temporal {

namespace {

// One end of a period: YYYY, YYYY-MM or YYYY-MM-DD, or the same after "BC"
// for a year before Christ (TIMEX3's BC0044 = 44 BC), widened to the start
// (is_end false) or the end (is_end true) of its granularity.
std::optional<Date> parse_end(std::string_view s, bool is_end) {
  auto number = [](std::string_view f, int* out) {
    if (f.empty() || f[0] < '0' || f[0] > '9') return false;
    auto [p, ec] = std::from_chars(f.data(), f.data() + f.size(), *out);
    return ec == std::errc() && p == f.data() + f.size();
  };
  const bool bc = s.size() > 2 && s.substr(0, 2) == "BC";
  if (bc) s.remove_prefix(2);
  Date d;
  if (s.size() == 4) {
    if (!number(s, &d.year)) return std::nullopt;
    d.month = is_end ? 12 : 1;
  } else if (s.size() == 7 && s[4] == '-') {
    if (!number(s.substr(0, 4), &d.year) || !number(s.substr(5, 2), &d.month) || d.month < 1 || d.month > 12)
      return std::nullopt;
  } else if (s.size() == 10 && s[4] == '-' && s[7] == '-') {
    if (!number(s.substr(0, 4), &d.year) || !number(s.substr(5, 2), &d.month) || !number(s.substr(8, 2), &d.day))
      return std::nullopt;
  } else {
    return std::nullopt;
  }
  if (bc) {
    if (d.year < 1) return std::nullopt;  // BC0000: there is no year 0 before Christ
    d.year = year_of_bc(d.year);
  }
  if (s.size() < 10) d.day = is_end ? days_in_month(d.year, d.month) : 1;
  return d.valid() ? std::optional<Date>(d) : std::nullopt;
}

constexpr const char* kForms = "is not YYYY, YYYY-MM or YYYY-MM-DD, or BCYYYY… before the year 1 (BC0044 = 44 a.C.)";

// How to write what was meant: "476" → 0476; "44 a.C.", "44BC", "BC44" → BC0044.
std::string written_hint(std::string_view s) {
  auto digits = [](std::string_view d) {
    return !d.empty() && d.size() <= 4 && std::all_of(d.begin(), d.end(), [](char c) { return c >= '0' && c <= '9'; });
  };
  auto padded = [](std::string_view d) { return std::string(4 - d.size(), '0') + std::string(d); };
  if (digits(s) && s.size() < 4) return "; the year " + std::string(s) + " is written " + padded(s);
  std::string t;
  for (char c : s)
    if (c != ' ' && c != '.') t.push_back(static_cast<char>(std::tolower(static_cast<unsigned char>(c))));
  std::string_view v(t);
  std::string_view year;
  for (std::string_view era : {"ac", "aec", "bc", "bce"}) {
    if (v.size() > era.size() && v.substr(v.size() - era.size()) == era && digits(v.substr(0, v.size() - era.size())))
      year = v.substr(0, v.size() - era.size());
    if (v.size() > era.size() && v.substr(0, era.size()) == era && digits(v.substr(era.size())))
      year = v.substr(era.size());
  }
  if (year.empty() || year.find_first_not_of('0') == std::string_view::npos) return {};
  return "; the year " + std::string(year.substr(year.find_first_not_of('0'))) + " before Christ is written BC" +
         padded(year);
}

}  // namespace

Result<Period> Period::parse(std::string_view from, std::string_view to) {
  auto f = parse_end(from, false);
  if (!f) return Result<Period>::Error("--from '" + std::string(from) + "' " + kForms + written_hint(from));
  auto t = parse_end(to, true);
  if (!t) return Result<Period>::Error("--to '" + std::string(to) + "' " + kForms + written_hint(to));
  if (*t < *f) return Result<Period>::Error("--to " + std::string(to) + " is before --from " + std::string(from));
  return Period{*f, *t};
}

std::string period_end_name(std::string_view end) {
  auto d = parse_end(end, false);
  if (!d) return std::string(end);
  const bool bc = end.substr(0, 2) == "BC";
  const std::string year = year_name(d->year);
  if (end.size() == (bc ? 6u : 4u)) return year;
  return bc ? year + " (" + std::string(end) + ")" : std::string(end);
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
