// Clock times and parts of the day: the clock forms written in digits
// ("17h30", "10:30:45", "21.30h"), a time on a known day, and a clock time or
// a part of the day alone, on the day under discussion.
#include "temporal/resolver_rules.h"

namespace cronista::temporal::resolver_rules {

// 17h30, 17h, 17hs, 17:30, 17.30, 17.30h, 9h30m, 9h30min, and with seconds:
// 17h30m15s, 10:30:45.
bool parse_clock(std::string_view w, int* h, int* m, int* s) {
  std::size_t n = digits_at(w, 0);
  if (n < 1 || n > 2 || n == w.size()) return false;
  const int hour = static_cast<int>(to_long(w.substr(0, n)));
  const char sep = w[n];
  if (sep != 'h' && sep != ':' && sep != '.') return false;
  std::size_t k = n + 1;
  std::size_t md = digits_at(w, k);
  if (md != 0 && md != 2) return false;
  if (md == 0 && sep != 'h') return false;
  const int minute = md ? static_cast<int>(to_long(w.substr(k, 2))) : 0;
  k += md;
  int second = -1;
  if (md == 2 && sep != '.' && k < w.size() && (w[k] == ':' || w[k] == 'm') &&
      digits_at(w, k + 1) == 2) {
    second = static_cast<int>(to_long(w.substr(k + 1, 2)));
    k += 3;
    if (k < w.size() && w[k] == 's') ++k;
    if (k != w.size() || second > 59) return false;
  }
  std::string_view rest = w.substr(k);
  if (!(rest.empty() || rest == "h" || rest == "hs" || rest == "s" || rest == "m" || rest == "min") ||
      (sep == '.' && rest == "m") || (rest == "s" && (md != 0 || sep != 'h')))
    return false;
  if (hour > 24 || minute > 59) return false;
  *h = hour, *m = minute, *s = second;
  return true;
}

void Composition::add_time(const std::optional<Date>& d) {
  // A clock time or a part of the day on a known (or unknown) day.
  std::string day = d ? d->to_string() : "XXXX-XX-XX";
  res.type = TimexType::Time;
  if (f.hour >= 0) {
    res.value = day + "T" + pad(f.hour, 2) + ":" + pad(f.minute < 0 ? 0 : f.minute, 2);
    if (f.second >= 0) res.value += ":" + pad(f.second, 2);
    if (d) {
      Chronon c = Chronon::of_date(*d);
      c.hour = f.hour == 24 ? 24 : f.hour;
      c.minute = f.minute < 0 ? 0 : f.minute;
      if (c.hour == 24) c.hour = 0, c = Chronon::of_date(add_days(*d, 1)), c.hour = 0, c.minute = 0;
      res.chronons = {c};
    } else {
      res.chronons.clear();
      res.resolved = false;
    }
  } else {
    res.value = day + "T" + f.daypart;
    if (d) res.chronons = {Chronon::of_date(*d)};
    else res.chronons.clear(), res.resolved = false;
  }
  if (d) res.new_anchor = anchor_of(*d);
}

bool Composition::clock_time_alone() {
  // --- A clock time or a part of the day alone.
  if (f.hour >= 0 || !f.daypart.empty()) {
    std::optional<Date> d;
    if (ctx.anchor && ctx.anchor->day > 0) d = Date{ctx.anchor->year, ctx.anchor->month, ctx.anchor->day};
    else if (have_dct) d = dct;
    if (f.rel_this && have_dct) d = dct;
    add_time(d);
    if (!d) res.resolved = false;
    return true;
  }
  return false;
}

}  // namespace cronista::temporal::resolver_rules
