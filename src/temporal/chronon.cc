// Civil-calendar arithmetic uses Howard Hinnant's days_from_civil algorithm:
// exact for the proleptic Gregorian calendar, no tables, no time zones.
#include "temporal/chronon.h"

#include <charconv>
#include <cstdio>

namespace cronista::temporal {

bool is_leap_year(int y) { return (y % 4 == 0 && y % 100 != 0) || y % 400 == 0; }

int days_in_month(int y, int m) {
  static constexpr int kDays[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  if (m < 1 || m > 12) return 0;
  return m == 2 && is_leap_year(y) ? 29 : kDays[m - 1];
}

bool Date::valid() const {
  return year >= -9999 && year <= 99999 && month >= 1 && month <= 12 && day >= 1 &&
         day <= days_in_month(year, month);
}

DayNumber Date::day_number() const {
  const int y = year - (month <= 2 ? 1 : 0);
  const int era = (y >= 0 ? y : y - 399) / 400;
  const int yoe = y - era * 400;
  const int mp = (month + 9) % 12;
  const int doy = (153 * mp + 2) / 5 + day - 1;
  const int doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
  return era * 146097 + doe - 719468;
}

Date Date::from_day_number(DayNumber n) {
  const int z = n + 719468;
  const int era = (z >= 0 ? z : z - 146096) / 146097;
  const int doe = z - era * 146097;
  const int yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
  const int doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
  const int mp = (5 * doy + 2) / 153;
  const int d = doy - (153 * mp + 2) / 5 + 1;
  const int m = mp < 10 ? mp + 3 : mp - 9;
  return Date{yoe + era * 400 + (m <= 2 ? 1 : 0), m, d};
}

std::string timex_year(int year) {
  char buf[24];
  if (year <= 0) std::snprintf(buf, sizeof buf, "BC%04d", bc_of_year(year));
  else std::snprintf(buf, sizeof buf, "%04d", year);
  return buf;
}

std::string year_name(int year) {
  return year <= 0 ? std::to_string(bc_of_year(year)) + " BC" : std::to_string(year);
}

std::string Date::to_string() const {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%04d-%02d-%02d", year, month, day);
  return buf;
}

namespace {

// Parses exactly `width` digits, or `width` 'X' (unknown) when allow_x.
bool parse_field(std::string_view s, std::size_t pos, std::size_t width, bool allow_x, int* out) {
  if (pos + width > s.size()) return false;
  std::string_view f = s.substr(pos, width);
  if (allow_x && f.find_first_not_of('X') == std::string_view::npos) {
    *out = Chronon::kUnknown;
    return true;
  }
  int v = 0;
  auto [p, ec] = std::from_chars(f.data(), f.data() + f.size(), v);
  if (ec != std::errc() || p != f.data() + f.size()) return false;
  *out = v;
  return true;
}

}  // namespace

std::optional<Date> Date::parse(std::string_view s) {
  Date d;
  if (s.size() != 10 || s[4] != '-' || s[7] != '-') return std::nullopt;
  if (!parse_field(s, 0, 4, false, &d.year) || !parse_field(s, 5, 2, false, &d.month) ||
      !parse_field(s, 8, 2, false, &d.day) || !d.valid())
    return std::nullopt;
  return d;
}

Granularity Chronon::granularity() const {
  if (second != kUnknown) return Granularity::Second;
  if (minute != kUnknown) return Granularity::Minute;
  if (hour != kUnknown) return Granularity::Hour;
  if (day != kUnknown) return Granularity::Day;
  if (month != kUnknown) return Granularity::Month;
  if (year != kUnknown) return Granularity::Year;
  return Granularity::Unknown;
}

std::string Chronon::to_string() const {
  std::string out;
  auto field = [&out](char sep, int v, int width) {
    if (sep) out.push_back(sep);
    if (v == kUnknown) {
      out.append(static_cast<std::size_t>(width), 'X');
      return;
    }
    char buf[16];
    std::snprintf(buf, sizeof buf, "%0*d", width, v);
    out.append(buf);
  };
  if (year != kUnknown && year <= 0) out = timex_year(year);
  else field(0, year, 4);
  field('-', month, 2);
  field('-', day, 2);
  if (hour != kUnknown) {
    field(' ', hour, 2);
    field(':', minute, 2);
    if (second != kUnknown) field(':', second, 2);
  }
  return out;
}

std::optional<Chronon> Chronon::parse(std::string_view s) {
  Chronon c;
  // "BC0044-…": the year counted before Christ.
  const bool bc = s.size() > 2 && s.substr(0, 2) == "BC";
  if (bc) s.remove_prefix(2);
  if (s.size() < 10 || s[4] != '-' || s[7] != '-') return std::nullopt;
  if (!parse_field(s, 0, 4, true, &c.year) || !parse_field(s, 5, 2, true, &c.month) ||
      !parse_field(s, 8, 2, true, &c.day))
    return std::nullopt;
  if (bc) {
    if (c.year == kUnknown || c.year < 1) return std::nullopt;
    c.year = year_of_bc(c.year);
  }
  if (s.size() == 10) return c;
  if (s.size() != 16 && s.size() != 19) return std::nullopt;
  if (s[10] != ' ' || s[13] != ':') return std::nullopt;
  if (!parse_field(s, 11, 2, false, &c.hour) || !parse_field(s, 14, 2, true, &c.minute)) return std::nullopt;
  if (s.size() == 19 && (s[16] != ':' || !parse_field(s, 17, 2, false, &c.second))) return std::nullopt;
  return c;
}

std::optional<DayRange> Chronon::days() const {
  if (year == kUnknown) return std::nullopt;
  if (month == kUnknown) return DayRange{Date{year, 1, 1}.day_number(), Date{year, 12, 31}.day_number()};
  if (month < 1 || month > 12) return std::nullopt;
  if (day == kUnknown)
    return DayRange{Date{year, month, 1}.day_number(), Date{year, month, days_in_month(year, month)}.day_number()};
  Date d{year, month, day};
  if (!d.valid()) return std::nullopt;
  return DayRange{d.day_number(), d.day_number()};
}

}  // namespace cronista::temporal
