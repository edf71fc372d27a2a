// Calendar dates: decades and centuries, holidays (fixed and movable feasts),
// "o último dia do mês", dates with an explicit year, day and month without a
// year (the occurrence the tense and the document date point to), "dia 18",
// quarters, halves and seasons without a year; and the writing of a value and
// its chronons for a day, a month, a year or the calendar unit holding a day.
#include "temporal/resolver_rules.h"

#include <algorithm>

#include "temporal/tense.h"

namespace cronista::temporal::resolver_rules {

void Composition::set_day(const Date& d) {
  res.value = d.to_string();
  res.chronons = {Chronon::of_date(d)};
  res.new_anchor = anchor_of(d);
}

void Composition::set_month(int y, int m) {
  res.value = pad(y, 4) + "-" + pad(m, 2);
  res.chronons = {Chronon::of_month(y, m)};
  res.new_anchor = Anchor{y, m, -1};
}

void Composition::set_year(int y) {
  res.value = pad(y, 4);
  res.chronons = {Chronon::of_year(y)};
  res.new_anchor = Anchor{y, -1, -1};
}

void Composition::unresolved(std::string value, Reference r) {
  res.value = std::move(value);
  res.chronons.clear();
  res.resolved = false;
  res.reference = r;
}

Date Composition::shift_unit(const Date& base, const std::string& unit, long k) {
  if (unit == "Y") return add_months(base, static_cast<int>(12 * k));
  if (unit == "M") return add_months(base, static_cast<int>(k));
  if (unit == "Q") return add_months(base, static_cast<int>(3 * k));
  if (unit == "HALF") return add_months(base, static_cast<int>(6 * k));
  if (unit == "T") return add_months(base, static_cast<int>(4 * k));
  if (unit == "W") return add_days(base, static_cast<int>(7 * k));
  if (unit == "F") return add_days(base, static_cast<int>(14 * k));
  if (unit == "E") return add_months(base, static_cast<int>(120 * k));
  if (unit == "C") return add_months(base, static_cast<int>(1200 * k));
  if (unit == "D") return add_days(base, static_cast<int>(k));
  return base;
}

void Composition::set_unit_value(const Date& d, const std::string& unit) {
  if (unit == "Y") set_year(d.year);
  else if (unit == "M") set_month(d.year, d.month);
  else if (unit == "W") {
    IsoWeek w = iso_week(d);
    res.value = pad(w.year, 4) + "-W" + pad(w.week, 2);
    res.chronons = {Chronon::of_month(d.year, d.month)};
    res.new_anchor = Anchor{d.year, d.month, -1};
  } else if (unit == "Q") {
    const int q = (d.month - 1) / 3 + 1;
    res.value = pad(d.year, 4) + "-Q" + std::to_string(q);
    res.chronons = {Chronon::of_year(d.year)};
    res.new_anchor = Anchor{d.year, (q - 1) * 3 + 1, -1, q};
  } else if (unit == "WE") {
    // The weekend: the next one with a forward modifier ("que vem"), the
    // last one with a backward one. With "este"/"esse" the one of the week,
    // unless the sentence tells of it in the past; without a modifier, the
    // next one when the words before or the tense look ahead ("no fim de
    // semana vamos", in colloquial texts unless the tense is past), else the
    // last one. On a weekend day the coming one is the current one.
    const int wd = iso_weekday(d);
    const Date last = add_days(d, wd >= 6 ? 6 - wd : -(wd + 1));
    bool ahead = f.rel > 0;
    if (f.rel == 0) {
      const int tense = sentence_tense(*lex_, ctx.folded, ctx.start, ctx.end);
      if (f.rel_this || f.rel_kind == Facts::RelKind::Anaphoric)
        ahead = tense >= 0;
      else if (f.rel_kind == Facts::RelKind::None)
        ahead = ctx.direction > 0 || ctx.target ||
                (ctx.direction == 0 && (ctx.leans_future || tense > 0 || (tense == 0 && ctx.genre == Genre::Colloquial)));
    }
    Date sat = ahead && !(f.rel == 0 && wd == 7) ? add_days(d, (6 - wd + 7) % 7) : last;
    IsoWeek w = iso_week(sat);
    res.value = pad(w.year, 4) + "-W" + pad(w.week, 2) + "-WE";
    res.chronons = {Chronon::of_date(sat)};
    res.new_anchor = anchor_of(sat);
  } else if (unit == "HALF") {
    res.value = pad(d.year, 4) + "-H" + std::to_string((d.month - 1) / 6 + 1);
    res.chronons = {Chronon::of_year(d.year)};
    res.new_anchor = Anchor{d.year, -1, -1};
  } else if (unit == "E") {
    res.value = std::to_string(d.year / 10);
    res.chronons = {Chronon::of_year(d.year / 10 * 10), Chronon::of_year(d.year / 10 * 10 + 9)};
  } else if (unit == "C") {
    res.value = std::to_string(d.year / 100);
    res.chronons = {Chronon::of_year(d.year / 100 * 100), Chronon::of_year(d.year / 100 * 100 + 99)};
  } else if (unit == "H" || unit == "MIN" || unit == "S") {
    res.type = TimexType::Time;
    res.value = d.to_string();
    res.chronons = {Chronon::of_date(d)};
  } else {
    set_day(d);
  }
}

// A feast named without its year in a colloquial text ("no Natal") is the next
// one unless the tense says past: true when `d`, in the document's year, is
// already over.
bool Composition::colloquial_next_year(const Date& d) const {
  return ctx.genre == Genre::Colloquial && f.year < 0 && have_dct && d < dct &&
         (!ctx.anchor || ctx.anchor->year < 0) && sentence_tense(*lex_, ctx.folded, ctx.start, ctx.end) >= 0;
}

// A feast named without its year that is still ahead in the document's year,
// told in the past by a verb of its own clause ("na virada do ano choveu" in
// February): last year's. Not "disse que a loja abre no Natal deste ano".
bool Composition::past_feast_last_year(const Date& d) const {
  if (f.year >= 0 || f.outer_year || !have_dct || !(dct < d) || (ctx.anchor && ctx.anchor->year >= 0)) return false;
  const TenseCue cue = tense_cue(*lex_, ctx.folded, ctx.start, ctx.end);
  return cue.tense < 0 && cue.in_clause;
}

// The years from `first` to `last` (astronomical numbering, chronon.h) as the
// two chronons of a span of years.
static std::vector<Chronon> years(int first, int last) { return {Chronon::of_year(first), Chronon::of_year(last)}; }

// "44 a.C.", "século V a.C.", "o segundo milénio a.C.", "anos 40 a.C.":
// TIMEX3's BC values (the year's four digits, the century's two, the decade's
// three, the millennium's one, after "BC"). Counting down from year 1, the
// fifth century BC runs from 500 to 401 BC and the forties BC from 49 to 40 BC.
// Such a date anchors nothing: the dates after it are not read against it.
bool Composition::before_christ() {
  if (f.era >= 0 || (f.year < 0 && f.century < 0 && f.millennium < 0 && f.decade < 0)) return false;
  res.type = TimexType::Date;
  if (f.year > 0) {
    res.value = "BC" + pad(f.year, 4);
    res.chronons = {Chronon::of_year(year_of_bc(f.year))};
  } else if (f.decade >= 0) {
    if (f.decade_from_two_digits) f.decade -= 190;  // "anos 40 a.C.": the forties BC, not the 1940s
    res.value = "BC" + pad(f.decade, 3);
    res.chronons = years(year_of_bc(f.decade * 10 + 9), year_of_bc(std::max(1, f.decade * 10)));
  } else if (f.century >= 0) {
    res.value = "BC" + pad(f.century, 2);
    res.chronons = years(year_of_bc(f.century * 100 + 100), year_of_bc(f.century * 100 + 1));
  } else if (f.millennium >= 0) {
    res.value = "BC" + std::to_string(f.millennium);
    res.chronons = years(year_of_bc(f.millennium * 1000 + 1000), year_of_bc(f.millennium * 1000 + 1));
  } else {
    return false;
  }
  return true;
}

bool Composition::decades_and_centuries() {
  // --- Decades, centuries and millennia.
  if (f.decade >= 0) {
    res.value = std::to_string(f.decade);
    res.chronons = years(f.decade * 10, f.decade * 10 + 9);
    return true;
  }
  if (f.century >= 0 && f.year < 0) {
    res.value = pad(f.century, 2);
    res.chronons = years(f.century * 100 + 1, f.century * 100 + 100);
    return true;
  }
  if (f.millennium >= 0 && f.year < 0) {
    // After Christ, a millennium beyond the third is no date ("o capítulo V milénio").
    if (f.millennium > 2) {
      res.reject = true;
      return true;
    }
    res.value = std::to_string(f.millennium);
    res.chronons = years(f.millennium * 1000 + 1, f.millennium * 1000 + 1000);
    return true;
  }
  return false;
}

bool Composition::holidays() {
  // --- Holidays.
  if (!f.holiday.empty()) {
    res.reference = Reference::Implicit;
    int year = f.year;
    if (year < 0) {
      if (auto a = anchor_or_dct()) year = a->year;
    }
    const std::string& h = f.holiday;
    if (h[0] == 'E') {
      const int off = std::atoi(h.c_str() + 1);
      if (year < 0) {
        unresolved("XXXX-XX-XX", Reference::Implicit);
        return true;
      }
      Date d = add_days(easter_sunday(year), off);
      if (colloquial_next_year(d)) d = add_days(easter_sunday(year + 1), off);
      else if (past_feast_last_year(d)) d = add_days(easter_sunday(year - 1), off);
      set_day(d);
      return true;
    }
    const int m = std::atoi(h.c_str()), d = std::atoi(h.c_str() + 3);
    if (year < 0) {
      res.value = "XXXX-" + pad(m, 2) + "-" + pad(d, 2);
      Chronon c;
      c.month = m, c.day = d;
      res.chronons = {c};
      res.resolved = false;
      return true;
    }
    const Date feast{year, m, d};
    set_day(Date{colloquial_next_year(feast) ? year + 1 : past_feast_last_year(feast) ? year - 1 : year, m, d});
    return true;
  }
  return false;
}

bool Composition::day_of_unit() {
  // "o último dia do mês", "o primeiro dia do ano": a day of the current (or
  // named) month or year.
  if (f.unit == "D" && f.day < 0 && (f.ordinal > 0 || f.rel < 0) && (f.outer_unit == "M" || f.outer_unit == "Y" || f.month > 0) &&
      (have_dct || f.year >= 0)) {
    int y = f.year >= 0 ? f.year : dct.year;
    int mo = f.month > 0 ? f.month : (f.outer_unit == "Y" ? (f.rel < 0 ? 12 : 1) : dct.month);
    int d = f.rel < 0 ? days_in_month(y, mo) : std::min(f.ordinal, days_in_month(y, mo));
    set_day(Date{y, mo, d});
    res.reference = Reference::Deictic;
    return true;
  }
  return false;
}

// "o segundo mês de 2020", "o penúltimo trimestre de 2019", "o terceiro
// quadrimestre de 2011", "a última semana de 2015": a part of a year counted
// from its start (an ordinal) or from its end ("último", "penúltimo").
bool Composition::part_of_year_counted() {
  if (f.year < 0 || f.month > 0 || f.day > 0 || f.quarter > 0 || f.half > 0 || f.quantified_unit) return false;
  if (f.ordinal <= 0 && f.from_end <= 0 && f.rel >= 0) return false;
  const int y = f.year;
  int parts = 0;
  if (f.unit == "M") parts = 12;
  else if (f.unit == "Q") parts = 4;
  else if (f.unit == "T") parts = 3;
  else if (f.unit == "HALF") parts = 2;
  else if (f.unit == "W") parts = iso_week(Date{y, 12, 28}).week;
  else return false;
  const int k = f.ordinal > 0 ? f.ordinal : parts + 1 - (f.from_end > 0 ? f.from_end : 1);
  if (k < 1 || k > parts) return false;
  if (res.type == TimexType::Duration || res.type == TimexType::Set) res.type = TimexType::Date;
  if (f.unit == "M") {
    set_month(y, k);
  } else if (f.unit == "W") {
    const Date monday = iso_week_monday(y, k);
    res.value = pad(y, 4) + "-W" + pad(k, 2);
    res.chronons = {Chronon::of_month(monday.year, monday.month)};
    res.new_anchor = Anchor{y, -1, -1};
  } else {
    const char* letter = f.unit == "Q" ? "-Q" : f.unit == "T" ? "-T" : "-H";
    res.value = pad(y, 4) + letter + std::to_string(k);
    res.chronons = {Chronon::of_year(y)};
    res.new_anchor = f.unit == "Q" ? Anchor{y, (k - 1) * 3 + 1, -1, k} : Anchor{y, -1, -1};
  }
  return true;
}

bool Composition::explicit_year() {
  // --- Explicit year.
  if (f.year >= 0) {
    const int y = f.year;
    if (f.month > 0 && f.day > 0) {
      Date d{y, f.month, f.day};
      if (!d.valid()) {
        res.reject = true;
        return true;
      }
      set_day(d);
      if (f.hour >= 0 || (!f.daypart.empty() && res.type == TimexType::Time)) add_time(d);
    } else if (f.month > 0) {
      set_month(y, f.month);
    } else if (f.quarter > 0 && f.quarter <= 4) {
      res.value = pad(y, 4) + "-Q" + std::to_string(f.quarter);
      res.chronons = {Chronon::of_year(y)};
      res.new_anchor = Anchor{y, (f.quarter - 1) * 3 + 1, -1, f.quarter};
    } else if ((f.half > 0 && f.half <= 2) || (f.unit == "HALF" && f.rel < 0)) {
      res.value = pad(y, 4) + "-H" + std::to_string(f.half > 0 ? f.half : 2);  // "o último semestre de 1989"
      res.chronons = {Chronon::of_year(y)};
      res.new_anchor = Anchor{y, -1, -1};
    } else if (!f.season.empty()) {
      res.value = pad(y, 4) + "-" + f.season;
      res.chronons = {Chronon::of_year(y)};
      res.new_anchor = Anchor{y, -1, -1};
    } else {
      set_year(y);
    }
    if (res.type == TimexType::Duration || res.type == TimexType::Set) res.type = TimexType::Date;
    return true;
  }
  return false;
}

bool Composition::day_and_month_without_year() {
  // --- Day and month without a year: "6 de junho", "em março".
  if (f.month > 0) {
    int year = -1;
    res.reference = Reference::Anaphoric;
    if (f.outer_year && f.rel_kind != Facts::RelKind::None && base) {
      // "junho do ano passado", "janeiro deste ano".
      year = base->year + (f.rel_this ? 0 : f.rel);
    } else if (have_dct) {
      // News: the occurrence the tense points to, else the nearest one.
      res.reference = Reference::Deictic;
      const int md = f.month * 100 + (f.day > 0 ? f.day : 0), dd = dct.month * 100 + (f.day > 0 ? dct.day : 0);
      const int past = md <= dd ? dct.year : dct.year - 1;
      const int next = md >= dd ? dct.year : dct.year + 1;
      if (f.rel > 0) year = md > dd ? dct.year : dct.year + 1;
      else if (f.rel < 0) year = md < dd ? dct.year : dct.year - 1;
      else if (ctx.direction > 0) year = md >= dd ? dct.year : dct.year + 1;
      else if (ctx.direction < 0) year = md <= dd ? dct.year : dct.year - 1;
      else if (ctx.genre == Genre::Colloquial)  // the next one unless the tense says past
        year = sentence_tense(*lex_, ctx.folded, ctx.start, ctx.end) < 0 ? past : next;
      else {
        // How far back the last occurrence lies and how far ahead the next
        // one, in months, each side made farther by what speaks against it:
        // news leans to the past (2 months); a verb of the expression's own
        // clause weighs 9 months, one elsewhere in the sentence 5; a word
        // like "até" before it leans ahead (4). So "foi prorrogada até 16 de
        // novembro" a fortnight before still reads ahead, and "será
        // comandante numa missão em dezembro" in March reads ahead.
        const double day_shift = f.day > 0 ? (dct.day - f.day) / 30.44 : 0.0;
        double dp = (dct.year - past) * 12 + dct.month - f.month + day_shift;
        double dn = (next - dct.year) * 12 + f.month - dct.month - day_shift + 2;
        const TenseCue cue = tense_cue(*lex_, ctx.folded, ctx.start, ctx.end);
        const double weight = cue.in_clause ? 9 : 5;
        if (cue.tense < 0) dn += weight;
        else if (cue.tense > 0) dp += weight;
        std::size_t b = std::min(ctx.start, ctx.folded.size());
        while (b > 0 && ctx.folded[b - 1] == ' ') --b;
        std::size_t a = b;
        while (a > 0 && ctx.folded[a - 1] != ' ') --a;
        if (lex_->in_class(ctx.folded.substr(a, b - a), "LEANS_FUTURE")) dp += 4;
        year = dn < dp ? next : past;
      }
    } else if (ctx.anchor && ctx.anchor->year >= 0) {
      year = ctx.anchor->year;
    }
    if (year < 0) {
      res.resolved = false;
      if (f.day > 0) {
        res.value = "XXXX-" + pad(f.month, 2) + "-" + pad(f.day, 2);
        Chronon c;
        c.month = f.month, c.day = f.day;
        res.chronons = {c};
      } else {
        res.value = "XXXX-" + pad(f.month, 2);
        Chronon c;
        c.month = f.month;
        res.chronons = {c};
      }
      return true;
    }
    if (f.day > 0) {
      Date d{year, f.month, f.day};
      if (!d.valid()) {
        res.reject = true;
        return true;
      }
      set_day(d);
      if (f.hour >= 0) add_time(d);
    } else {
      set_month(year, f.month);
    }
    return true;
  }
  return false;
}

bool Composition::day_of_month_alone() {
  // --- "dia 18": that day of the month under discussion, else of the
  // document's month, moved a month back or ahead when the tense says so.
  if (f.day > 0 && f.month < 0 && f.weekday < 0 && !f.has_deictic_day) {
    res.reference = Reference::Anaphoric;
    int y = -1, m = -1;
    if (ctx.anchor && ctx.anchor->year >= 0 && ctx.anchor->month > 0) {
      y = ctx.anchor->year, m = ctx.anchor->month;
    } else if (have_dct) {
      res.reference = Reference::Deictic;
      Date first{dct.year, dct.month, 1};
      const int tense = sentence_tense(*lex_, ctx.folded, ctx.start, ctx.end);
      const bool ahead =
          ctx.direction > 0 || ctx.target || (ctx.direction == 0 && (tense > 0 || (tense == 0 && ctx.genre == Genre::Colloquial)));
      const bool back = ctx.direction < 0 || (ctx.direction == 0 && tense < 0);  // "desde o dia 2"
      if (back && f.day > dct.day) first = add_months(first, -1);
      else if (ahead && f.day < dct.day) first = add_months(first, 1);
      y = first.year, m = first.month;
    }
    const Date d{y, m, f.day};
    if (y < 0 || !d.valid()) {
      unresolved("XXXX-XX-" + pad(f.day, 2), res.reference);
      return true;
    }
    set_day(d);
    if (f.hour >= 0) add_time(d);
    return true;
  }
  return false;
}

bool Composition::parts_of_year() {
  // --- Quarters, halves and seasons without a year.
  if (f.quarter > 0 || f.half > 0 || !f.season.empty()) {
    std::optional<Anchor> a = anaphoric ? anchor_or_dct() : (have_dct ? std::optional<Anchor>(anchor_of(dct))
                                                                      : anchor_or_dct());
    if (!a) {
      unresolved(f.quarter > 0   ? "XXXX-Q" + std::to_string(f.quarter)
                 : f.half > 0    ? "XXXX-H" + std::to_string(f.half)
                                 : "XXXX-" + f.season,
                 res.reference);
      return true;
    }
    int y = a->year + f.rel * (f.rel_kind != Facts::RelKind::None && !f.rel_this ? 1 : 0);
    if (f.quarter > 0 && f.quarter <= 4) res.new_anchor = Anchor{y, (f.quarter - 1) * 3 + 1, -1, f.quarter};
    if (f.quarter > 0 && f.quarter <= 4) res.value = pad(y, 4) + "-Q" + std::to_string(f.quarter);
    else if (f.half > 0 && f.half <= 2) res.value = pad(y, 4) + "-H" + std::to_string(f.half);
    else res.value = pad(y, 4) + "-" + f.season;
    res.chronons = {Chronon::of_year(y)};
    return true;
  }
  return false;
}

}  // namespace cronista::temporal::resolver_rules
