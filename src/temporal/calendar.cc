#include "temporal/calendar.h"

namespace cronista::temporal {

int iso_weekday(const Date& d) {
  // 1970-01-01 was a Thursday (4).
  const int n = d.day_number();
  int w = (n % 7 + 7 + 3) % 7;  // 0 = Monday
  return w + 1;
}

IsoWeek iso_week(const Date& d) {
  // The week belongs to the year of its Thursday.
  const Date thursday = add_days(d, 4 - iso_weekday(d));
  const int doy = thursday.day_number() - Date{thursday.year, 1, 1}.day_number();
  return IsoWeek{thursday.year, doy / 7 + 1};
}

Date iso_week_monday(int year, int week) {
  const Date jan4{year, 1, 4};
  const Date week1_monday = add_days(jan4, 1 - iso_weekday(jan4));
  return add_days(week1_monday, 7 * (week - 1));
}

Date add_days(const Date& d, int days) { return Date::from_day_number(d.day_number() + days); }

Date add_months(const Date& d, int months) {
  int index = d.year * 12 + (d.month - 1) + months;
  int y = index >= 0 ? index / 12 : -((-index + 11) / 12);
  int m = index - y * 12 + 1;
  int day = d.day;
  if (day > days_in_month(y, m)) day = days_in_month(y, m);
  return Date{y, m, day};
}

Date easter_sunday(int y) {
  const int a = y % 19, b = y / 100, c = y % 100, d = b / 4, e = b % 4;
  const int f = (b + 8) / 25, g = (b - f + 1) / 3;
  const int h = (19 * a + b - d - g + 15) % 30;
  const int i = c / 4, k = c % 4;
  const int l = (32 + 2 * e + 2 * i - h - k) % 7;
  const int m = (a + 11 * h + 22 * l) / 451;
  const int month = (h + l - 7 * m + 114) / 31;
  const int day = (h + l - 7 * m + 114) % 31 + 1;
  return Date{y, month, day};
}

}  // namespace cronista::temporal
