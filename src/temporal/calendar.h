// Calendar arithmetic the resolver needs beyond chronon.h: ISO weekdays and
// weeks, month arithmetic that clamps to the month's length, and Easter
// Sunday (anonymous Gregorian algorithm, "Meeus/Jones/Butcher"), from which
// the movable feasts of resources/pt/holidays.txt are offsets.
#pragma once

#include "temporal/chronon.h"

namespace cronista::temporal {

// 1 = Monday … 7 = Sunday.
int iso_weekday(const Date& d);

struct IsoWeek {
  int year = 0;  // the ISO week-numbering year (may differ from d.year near January 1)
  int week = 0;  // 1..53
};
IsoWeek iso_week(const Date& d);
// The Monday of ISO week `week` of ISO year `year`.
Date iso_week_monday(int year, int week);

Date add_days(const Date& d, int days);
// Adds months, clamping the day to the target month's length (Jan 31 + 1 → Feb 28/29).
Date add_months(const Date& d, int months);

// Easter Sunday of a Gregorian year.
Date easter_sunday(int year);

}  // namespace cronista::temporal
