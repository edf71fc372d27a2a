// Anchoring: what a relative expression is relative to. The document date
// for deictic words ("ontem", "na próxima semana", "há três anos"), the last
// date mentioned for anaphoric ones ("na véspera", "no ano seguinte", "dois
// anos depois"), the quarter under discussion in a quarterly report; and the
// rules that resolve against it: shifts, deictic days, weekdays, units with a
// modifier, and what is left ("nessa altura", "mais tarde").
#include "temporal/resolver_rules.h"

#include <algorithm>
#include <cstdlib>

#include "temporal/tense.h"

namespace cronista::temporal::resolver_rules {

bool Composition::rejected() {
  if (res.reject) return true;
  if (f.grade && f.year < 0 && f.month < 0 && f.day < 0) {
    res.reject = true;
    return true;
  }
  return false;
}

bool Composition::period_under_discussion() {
  if (f.period && f.unit.empty() && f.quarter < 0) {
    // "último período", "nesse período": the quarter under discussion; with
    // no quarter named, "o período homólogo do ano passado" is that year.
    if (!ctx_in.quarter) {
      f.period = false;  // without a year it is "nesse período": the time under discussion
      if (f.outer_year) f.unit = "Y", f.outer_year = false;
    }
  }
  if (f.period && f.unit.empty() && f.quarter < 0) {
    f.unit = "Q";
    if (f.rel_kind != Facts::RelKind::None && !f.outer_year && f.year < 0) {
      res.value = pad(ctx_in.quarter->year, 4) + "-Q" + std::to_string(ctx_in.quarter->quarter);
      res.chronons = {Chronon::of_year(ctx_in.quarter->year)};
      res.reference = Reference::Anaphoric;
      return true;
    }
  }
  // A quarter named without its number ("trimestre correspondente de 1988")
  // is the one under discussion.
  if (f.unit == "Q" && f.quarter < 0 && f.year >= 0 && !f.quantified_unit && ctx_in.quarter) {
    f.quarter = ctx_in.quarter->quarter;
    res.shifted = true;  // the same quarter in another year: a comparison, not the topic
  }
  if ((f.outer_year && !f.rel_this) || f.ago) res.shifted = true;  // "trimestre deste ano" is no look back
  return false;
}

void Composition::take_reference_points() {
  // A forward-looking preposition in a sentence in the past looks nowhere.
  ctx = ctx_in;
  if (ctx.direction > 0 && sentence_tense(*lex_, ctx.folded, ctx.start, ctx.end) < 0) ctx.direction = 0;
  // "até sexta" looks ahead in speech; in news it as often closes a span
  // that is over ("vendidas até terça-feira").
  if (ctx.leans_future && (ctx.genre != Genre::Colloquial || sentence_tense(*lex_, ctx.folded, ctx.start, ctx.end) < 0))
    ctx.leans_future = false;

  // Reference points. A narrative's is the last day it mentioned, and once it
  // has mentioned only a year or a month, no day at all.
  if (ctx.genre == Genre::Narrative && ctx.anchor && ctx.anchor->year >= 0) {
    ctx.dct.reset();
    if (ctx.anchor->day > 0) ctx.dct = Date{ctx.anchor->year, ctx.anchor->month, ctx.anchor->day};
  }
  have_dct = ctx.dct.has_value();
  dct = have_dct ? *ctx.dct : Date{};
}

std::optional<Anchor> Composition::anchor_or_dct() const {
  if (ctx.anchor && ctx.anchor->year >= 0) return ctx.anchor;
  if (have_dct) return anchor_of(dct);
  return std::nullopt;
}

void Composition::choose_base() {
  // Everything below is relative: deictic (DCT) or anaphoric (last date).
  anaphoric = f.rel_kind == Facts::RelKind::Anaphoric || f.after || f.before;
  if (anaphoric) {
    res.reference = Reference::Anaphoric;
    if (ctx.anchor && ctx.anchor->year >= 0) {
      base = Date{ctx.anchor->year, ctx.anchor->month > 0 ? ctx.anchor->month : 1,
                  ctx.anchor->day > 0 ? ctx.anchor->day : 1};
    } else if (have_dct) {
      base = dct;
    }
  } else {
    res.reference = Reference::Deictic;
    if (have_dct) base = dct;
  }
  if (res.type == TimexType::Duration || res.type == TimexType::Set) res.type = TimexType::Date;
}

bool Composition::shifts() {
  // --- Shifts: "há três anos", "daqui a dois meses", "dois anos depois".
  if (relative_shift && !f.unit.empty()) {
    if (!base) {
      unresolved(f.unit == "Y" ? "XXXX" : "XXXX-XX-XX", res.reference);
      return true;
    }
    if (f.amount_vague || f.amount < 0) {
      res.value = f.ago || f.before ? "PAST_REF" : "FUTURE_REF";
      res.reference = Reference::Vague;
      return true;
    }
    const long k = static_cast<long>(f.amount) * ((f.ago || f.before) ? -1 : 1);
    if (f.unit == "Y" && k == -1 && ctx.quarter) {
      // "há um ano" after a quarter was named: the same quarter a year before.
      set_unit_value(Date{ctx.quarter->year + static_cast<int>(k), ctx.quarter->month, 1}, "Q");
      return true;
    }
    Date d = shift_unit(*base, f.unit, k);
    // From an anchor known only to the year (or month), a shift by months or
    // days cannot be finer than the anchor.
    const bool coarse_year = anaphoric && ctx.anchor && ctx.anchor->year >= 0 && ctx.anchor->month < 0;
    const bool coarse_month = anaphoric && ctx.anchor && ctx.anchor->month > 0 && ctx.anchor->day < 0;
    const bool day_unit = f.unit == "W" || f.unit == "F" || f.unit == "D";
    if (coarse_year && (day_unit || f.unit == "M" || f.unit == "Q" || f.unit == "HALF")) set_year(ctx.anchor->year);
    else if (coarse_month && day_unit) set_month(ctx.anchor->year, ctx.anchor->month);
    else if (day_unit) set_day(d);
    else set_unit_value(d, f.unit);
    return true;
  }
  return false;
}

bool Composition::deictic_days() {
  // --- Today, yesterday, tomorrow; the eve ("véspera").
  if (f.has_deictic_day) {
    if (f.deictic_word && have_dct) {
      base = dct;  // "mais tarde ontem" is still yesterday
      anaphoric = false;
      res.reference = Reference::Deictic;
    }
    if (!base) {
      unresolved(f.hour >= 0 || !f.daypart.empty() ? "XXXX-XX-XXT" + (f.daypart.empty() ? "XX" : f.daypart)
                                                   : "XXXX-XX-XX",
                 res.reference);
      return true;
    }
    Date d = add_days(*base, f.deictic_day);
    if (anaphoric && ctx.anchor && ctx.anchor->year >= 0 && ctx.anchor->day < 0) {
      // "na véspera" of a month or a year: no finer than the anchor.
      if (ctx.anchor->month > 0) set_month(ctx.anchor->year, ctx.anchor->month);
      else set_year(ctx.anchor->year);
      return true;
    }
    if (f.hour >= 0 || !f.daypart.empty()) add_time(d);
    else set_day(d);
    return true;
  }
  return false;
}

bool Composition::weekdays() {
  // --- Weekdays: the nearest one, in the past unless the sentence speaks of the future.
  if (f.weekday > 0) {
    if (!base) {
      unresolved("XXXX-WXX-" + std::to_string(f.weekday), res.reference);
      return true;
    }
    const int today = iso_weekday(*base);
    int delta = f.weekday - today;  // -6..6
    // Only a verb of its own clause puts a weekday ahead: in "o acordo,
    // anunciado sexta-feira, daria aos acionistas…" the future is another clause's.
    auto clause_future = [&]() {
      const TenseCue cue = tense_cue(*lex_, ctx.folded, ctx.start, ctx.end);
      return cue.tense > 0 && cue.in_clause;
    };
    // Colloquial texts mean the next one unless the tense says past.
    const bool colloquial_next = ctx.genre == Genre::Colloquial && ctx.direction == 0 &&
                                 sentence_tense(*lex_, ctx.folded, ctx.start, ctx.end) >= 0;
    const bool future = f.rel > 0 || (f.rel_kind == Facts::RelKind::None &&
                                      (ctx.direction > 0 || ctx.target || colloquial_next ||
                                       (ctx.direction == 0 && (ctx.leans_future || clause_future()))));
    // A weekday named on its own day without "esta"/"nesta" is another
    // week's: the next after a word that looks ahead ("ficou pra terça", "até
    // terça"), the last after one that looks back ("desde terça"); in
    // colloquial texts by the tense too ("terça tem jogo", "na terça fui").
    // News keeps the day itself ("disse quinta-feira" in Thursday's paper).
    if (delta == 0 && f.rel == 0 && !f.rel_this && f.rel_kind == Facts::RelKind::None && f.day <= 0) {
      if (ctx.direction > 0 || ctx.target || ctx.leans_future) delta = 7;
      else if (ctx.direction < 0) delta = -7;
      else if (ctx.genre == Genre::Colloquial) delta = future ? 7 : -7;
    }
    if (f.unit == "W" && f.rel_kind == Facts::RelKind::Deictic) {
      // "a sexta da semana que vem", "a quarta desta semana": that day of the
      // week named, weeks running Monday to Sunday.
      delta = f.weekday - today + 7 * (f.rel_this ? 0 : f.rel);
    } else if (f.rel_this && f.rel_kind == Facts::RelKind::Deictic) {
      // "esta sexta-feira": the one of the current week.
    } else if (f.rel < 0) {
      if (delta >= 0) delta -= 7;
      delta -= 7 * (-1 - f.rel);  // "domingo retrasado": one week further back
    } else if (f.rel > 0) {
      if (delta <= 0) delta += 7;
    } else if (future) {
      if (delta < 0) delta += 7;
    } else if (delta > 0) {
      delta -= 7;
    }
    if (f.day > 0) {
      // "domingo, dia 8", "quinta (14)": the day of that number that falls on
      // that weekday within three weeks of the weekday's own reading; else
      // trust the day number, in the month of the nearest weekday.
      Date guess = add_days(*base, delta);
      Date d{guess.year, guess.month, f.day};
      for (int k : {0, -1, 1}) {
        const Date m = add_months(Date{guess.year, guess.month, 1}, k);
        const Date c{m.year, m.month, f.day};
        if (c.valid() && iso_weekday(c) == f.weekday && std::abs(c.day_number() - guess.day_number()) <= 21) {
          d = c;
          break;
        }
      }
      if (d.valid()) {
        set_day(d);
        if (f.hour >= 0 || !f.daypart.empty()) add_time(d);
        return true;
      }
    }
    Date d = add_days(*base, delta);
    if (f.hour >= 0 || !f.daypart.empty()) add_time(d);
    else set_day(d);
    return true;
  }
  return false;
}

bool Composition::unit_with_modifier() {
  // --- A unit with a modifier: "ano passado", "próxima semana", "este mês", "no ano seguinte".
  if (!f.unit.empty()) {
    if (!base) {
      unresolved(f.unit == "Y" ? "XXXX" : f.unit == "M" ? "XXXX-XX" : f.unit == "W" ? "XXXX-WXX" : "XXXX-XX-XX",
                 res.reference);
      return true;
    }
    if (f.rel_kind == Facts::RelKind::None && !f.position.empty()) {
      // "fim do ano", "início do mês": the current one; "ao fim do dia"
      // after "ontem": the day under discussion.
      if (f.unit == "D" && ctx.anchor && ctx.anchor->day > 0) {
        set_day(Date{ctx.anchor->year, ctx.anchor->month, ctx.anchor->day});
        return true;
      }
      set_unit_value(*base, f.unit);
      return true;
    }
    if (f.rel_kind == Facts::RelKind::None || f.outer_year) {
      // A bare unit is the one under discussion ("o trimestre") when the text
      // has named one, else the current one ("o ano"); a year ahead of the
      // document date was a forecast ("começa a produzir em 1993"), not the
      // time under discussion; "trimestre homólogo do
      // ano passado" is that one moved by the year's modifier.
      Date b = *base;
      if (f.unit == "Q" && ctx.quarter)
        b = Date{ctx.quarter->year, ctx.quarter->month, 1};
      else if (ctx.anchor && ctx.anchor->year >= 0 && (!have_dct || ctx.anchor->year <= dct.year) &&
               ((f.unit == "M" && ctx.anchor->month > 0) || f.unit == "Y"))
        b = Date{ctx.anchor->year, ctx.anchor->month > 0 ? ctx.anchor->month : 1, 1};
      if (f.outer_year) b = add_months(b, 12 * (f.rel_this ? 0 : f.rel));
      set_unit_value(b, f.unit);
      return true;
    }
    if (f.unit_plural) {
      res.value = f.rel < 0 ? "PAST_REF" : f.rel > 0 ? "FUTURE_REF" : "PRESENT_REF";
      res.reference = Reference::Vague;
      return true;
    }
    Date b = *base;
    // "esse trimestre", and in a report on a quarter "este trimestre" too: the
    // quarter reported on, not the one running at the document date ("o
    // trimestre em curso").
    if (f.unit == "Q" && (anaphoric || f.demonstrative) && ctx.quarter) b = Date{ctx.quarter->year, ctx.quarter->month, 1};
    // "nesse dia" after a year or a month named without its day: a day of
    // that year or month, not its first day.
    const bool day_unit = f.unit == "D" || f.unit == "W" || f.unit == "F" || f.unit == "WE";
    if (anaphoric && day_unit && ctx.anchor && ctx.anchor->year >= 0 && ctx.anchor->day < 0) {
      const Anchor& a = *ctx.anchor;
      res.value = f.unit == "D" ? pad(a.year, 4) + (a.month > 0 ? "-" + pad(a.month, 2) : "-XX") + "-XX"
                                : pad(a.year, 4) + "-WXX";
      res.chronons = {a.month > 0 ? Chronon::of_month(a.year, a.month) : Chronon::of_year(a.year)};
      return true;
    }
    set_unit_value(shift_unit(b, f.unit, f.rel), f.unit);
    return true;
  }
  return false;
}

bool Composition::what_remains() {
  if (!f.ref.empty()) {
    res.value = f.ref;
    res.reference = Reference::Vague;
    return true;
  }
  // "nessa altura", "na mesma data": the time under discussion.
  if (f.rel_kind == Facts::RelKind::Anaphoric && f.rel == 0 && ctx.anchor && ctx.anchor->year >= 0) {
    const Anchor& a = *ctx.anchor;
    if (a.day > 0) set_day(Date{a.year, a.month, a.day});
    else if (a.month > 0) set_month(a.year, a.month);
    else set_year(a.year);
    res.reference = Reference::Anaphoric;
    return true;
  }
  if (f.rel_kind == Facts::RelKind::Anaphoric && f.rel == 0 && f.unit.empty() && f.weekday < 0) {
    // "nessa altura" before any date: a time the text has not dated.
    unresolved("XXXX-XX-XX", Reference::Anaphoric);
    return true;
  }
  if ((f.after || f.before) && !f.quantified_unit) {  // "mais tarde", "antes": vague
    res.value = f.after ? "FUTURE_REF" : "PAST_REF";
    res.reference = Reference::Vague;
    return true;
  }
  if (f.rel_kind == Facts::RelKind::Deictic && f.rel_this) {
    res.value = "PRESENT_REF";
    res.reference = Reference::Vague;
    return true;
  }
  res.reject = true;
  return true;
}

}  // namespace cronista::temporal::resolver_rules
