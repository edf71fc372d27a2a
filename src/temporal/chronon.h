// Calendar values of the temporal library.
//
// A Chronon is a point on one of the timelines of method.md §2.3 (years,
// months, days, hours): a calendar date-time whose finer parts may be unknown.
// Written form (contract.md): "YYYY-MM-DD hh:mm:ss" trimmed to the known
// granularity, with X for unknown parts: "1944-06-06", "2000-06-XX",
// "1944-XX-XX", "XXXX-12-25", "1997-04-30 17:30". Years before 1 are written
// as TIMEX3 writes them, "BC" and the year as counted before Christ:
// "BC0044-03-15", "BC0001-XX-XX" (there is no year 0 in that count).
//
// Date is a plain proleptic-Gregorian day; DayNumber counts days since
// 1970-01-01 so that ranges compare with integers. Years are numbered
// astronomically (ISO 8601): year 0 is 1 BC, year -43 is 44 BC.
#pragma once

#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <string_view>

namespace cronista::temporal {

using DayNumber = std::int32_t;

struct Date {
  int year = 1970;
  int month = 1;  // 1..12
  int day = 1;    // 1..31

  // Days since 1970-01-01 (negative before). Requires a valid date.
  DayNumber day_number() const;
  static Date from_day_number(DayNumber n);
  bool valid() const;
  // "YYYY-MM-DD".
  std::string to_string() const;
  // Parses "YYYY-MM-DD" (strictly); nullopt when malformed or not a real date.
  static std::optional<Date> parse(std::string_view s);

  friend bool operator==(const Date&, const Date&) = default;
  friend auto operator<=>(const Date&, const Date&) = default;
};

bool is_leap_year(int year);

// The astronomical year of a year counted before Christ (44 BC → -43), and back.
constexpr int year_of_bc(int bc) { return 1 - bc; }
constexpr int bc_of_year(int year) { return 1 - year; }

// A year as TIMEX3 writes it: "1944", "0476", "BC0044" (year -43).
std::string timex_year(int year);
// A year as a reader writes it: "1944", "476", "44 BC" (year -43).
std::string year_name(int year);
int days_in_month(int year, int month);

// Inclusive range of days.
struct DayRange {
  DayNumber first = 0;
  DayNumber last = 0;
  friend bool operator==(const DayRange&, const DayRange&) = default;
};

enum class Granularity { Unknown, Century, Decade, Year, Season, Quarter, Month, Week, Day, Hour, Minute, Second };

struct Chronon {
  static constexpr int kUnknown = std::numeric_limits<int>::min();
  int year = kUnknown;
  int month = kUnknown;
  int day = kUnknown;
  int hour = kUnknown;
  int minute = kUnknown;
  int second = kUnknown;

  static Chronon of_year(int y) { Chronon c; c.year = y; return c; }
  static Chronon of_month(int y, int m) { Chronon c; c.year = y; c.month = m; return c; }
  static Chronon of_day(int y, int m, int d) { Chronon c; c.year = y; c.month = m; c.day = d; return c; }
  static Chronon of_date(const Date& d) { return of_day(d.year, d.month, d.day); }

  // The finest known part (Year, Month, Day, Hour, Minute, Second), Unknown if none.
  Granularity granularity() const;
  // Contract form, see the file comment.
  std::string to_string() const;
  // Inverse of to_string(); nullopt on malformed input.
  static std::optional<Chronon> parse(std::string_view s);
  // The days this chronon covers ("1944-06-XX" → all of June 1944); nullopt
  // when the year is unknown or a known part is out of range.
  std::optional<DayRange> days() const;

  friend bool operator==(const Chronon&, const Chronon&) = default;
};

}  // namespace cronista::temporal
