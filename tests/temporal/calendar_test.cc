// Calendar arithmetic behind the resolver: weekdays, ISO weeks, month
// rollover, leap years, Easter.
#include "temporal/calendar.h"

#include <gtest/gtest.h>

namespace cronista::temporal {
namespace {

TEST(Calendar, IsoWeekdayOfKnownDates) {
  EXPECT_EQ(iso_weekday(Date{1944, 6, 6}), 2);    // Tuesday, D-Day
  EXPECT_EQ(iso_weekday(Date{1998, 2, 13}), 5);   // Friday
  EXPECT_EQ(iso_weekday(Date{2000, 2, 29}), 2);   // Tuesday, leap day
  EXPECT_EQ(iso_weekday(Date{1970, 1, 1}), 4);    // Thursday, day 0
  EXPECT_EQ(iso_weekday(Date{1969, 12, 28}), 7);  // Sunday, before day 0
}

TEST(Calendar, IsoWeeksAtYearBoundaries) {
  EXPECT_EQ(iso_week(Date{1998, 2, 13}).week, 7);
  IsoWeek w = iso_week(Date{2021, 1, 3});  // belongs to the last week of 2020
  EXPECT_EQ(w.year, 2020);
  EXPECT_EQ(w.week, 53);
  w = iso_week(Date{2008, 12, 29});  // belongs to week 1 of 2009
  EXPECT_EQ(w.year, 2009);
  EXPECT_EQ(w.week, 1);
  EXPECT_EQ(iso_week(Date{2015, 12, 31}).week, 53);
  EXPECT_EQ(iso_week_monday(2009, 1), (Date{2008, 12, 29}));
  EXPECT_EQ(iso_week_monday(1998, 7), (Date{1998, 2, 9}));
}

TEST(Calendar, AddMonthsRollsOverYearsAndClampsDays) {
  EXPECT_EQ(add_months(Date{1998, 12, 15}, 1), (Date{1999, 1, 15}));
  EXPECT_EQ(add_months(Date{1998, 1, 15}, -1), (Date{1997, 12, 15}));
  EXPECT_EQ(add_months(Date{2000, 1, 31}, 1), (Date{2000, 2, 29}));  // leap year
  EXPECT_EQ(add_months(Date{1900, 1, 31}, 1), (Date{1900, 2, 28}));  // not a leap year
  EXPECT_EQ(add_months(Date{2004, 2, 29}, 12), (Date{2005, 2, 28}));
  EXPECT_EQ(add_months(Date{1998, 3, 10}, -27), (Date{1995, 12, 10}));
}

TEST(Calendar, AddDaysCrossesLeapDays) {
  EXPECT_EQ(add_days(Date{2000, 2, 28}, 1), (Date{2000, 2, 29}));
  EXPECT_EQ(add_days(Date{1999, 2, 28}, 1), (Date{1999, 3, 1}));
  EXPECT_EQ(add_days(Date{1998, 1, 1}, -1), (Date{1997, 12, 31}));
}

TEST(Calendar, EasterSundayOfSeveralYears) {
  EXPECT_EQ(easter_sunday(1944), (Date{1944, 4, 9}));
  EXPECT_EQ(easter_sunday(1974), (Date{1974, 4, 14}));
  EXPECT_EQ(easter_sunday(1998), (Date{1998, 4, 12}));
  EXPECT_EQ(easter_sunday(2000), (Date{2000, 4, 23}));
  EXPECT_EQ(easter_sunday(2019), (Date{2019, 4, 21}));
  EXPECT_EQ(easter_sunday(2024), (Date{2024, 3, 31}));
  EXPECT_EQ(easter_sunday(2025), (Date{2025, 4, 20}));
  EXPECT_EQ(easter_sunday(2038), (Date{2038, 4, 25}));  // the latest possible date
  EXPECT_EQ(easter_sunday(2285), (Date{2285, 3, 22}));  // the earliest possible date
}

}  // namespace
}  // namespace cronista::temporal
