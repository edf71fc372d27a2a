// Sets ("todos os anos", "aos domingos"), vague references ("atualmente",
// "no passado") and durations ("três anos", "durante dois meses", "há três
// anos que…"), told apart from the shifts that name an instant by the
// pattern's type and the words around the span.
#include "temporal/resolver_rules.h"

#include <algorithm>
#include <cmath>

#include "temporal/tense.h"
#include "temporal/text_fold.h"

namespace cronista::temporal::resolver_rules {

namespace {

bool is_time_unit(const std::string& u) { return u == "H" || u == "MIN" || u == "S"; }

}  // namespace

std::string duration_value(double amount, bool vague, const std::string& unit) {
  if (unit.empty()) return "PXY";
  std::string u = unit;
  double a = amount;
  if (u == "HALF") { u = "M"; a *= 6; }
  if (u == "F") { u = "W"; a *= 2; }
  if (u == "Q" && !vague) { u = "M"; a *= 3; }
  if (u == "T" && !vague) { u = "M"; a *= 4; }
  const bool t = is_time_unit(u);
  std::string letter = u == "MIN" ? "M" : u;
  if (vague || a < 0) return std::string(t ? "PT" : "P") + "X" + letter;
  double whole = std::floor(a);
  double frac = a - whole;
  std::string out = t ? "PT" : "P";
  if (frac > 1e-9) {
    // "dois anos e meio" = P2Y6M; "hora e meia" = PT1H30M; "minuto e meio" = PT1M30S.
    struct Sub { const char* unit; const char* sub; double per; };
    static const Sub kSubs[] = {{"Y", "M", 12}, {"M", "D", 30}, {"W", "D", 7}, {"D", "H", 24},
                                {"H", "M", 60}, {"MIN", "S", 60}, {"E", "Y", 10}, {"C", "Y", 100}};
    for (const Sub& s : kSubs) {
      if (u == s.unit) {
        std::string sub_letter = s.sub;
        bool sub_time = (u == "D");
        out += whole > 0 ? std::to_string(static_cast<long>(whole)) + letter : "";
        if (sub_time) out += "T";
        out += std::to_string(static_cast<long>(std::lround(frac * s.per))) + sub_letter;
        return out;
      }
    }
  }
  return out + std::to_string(static_cast<long>(whole)) + letter;
}

bool Composition::sets() {
  // --- Sets.
  if (!f.set_adverb.empty()) {
    res.type = TimexType::Set;
    res.value = f.set_adverb;
    res.reference = Reference::Vague;
    return true;
  }
  // A plural weekday or part of the day names a habit ("aos domingos", "nas
  // noites de segunda"), unless a date pins it down ("os domingos de março de 1998").
  const bool habit = f.habitual && f.year < 0 && f.month < 0 && f.day < 0 && f.unit.empty() &&
                     (f.weekday > 0 || !f.daypart.empty());
  if (pattern.timex == TimexType::Set || (f.set_quant && !f.unit.empty()) || f.vezes || habit) {
    res.type = TimexType::Set;
    res.reference = Reference::Vague;
    if (f.weekday > 0) res.value = "XXXX-WXX-" + std::to_string(f.weekday) + (f.daypart.empty() ? "" : "T" + f.daypart);
    else if (f.month > 0) res.value = "XXXX-" + pad(f.month, 2);
    else if (!f.season.empty()) res.value = "XXXX-" + f.season;
    else if (!f.daypart.empty()) res.value = "XXXX-XX-XXT" + f.daypart;
    else if (f.unit == "Q") res.value = "P" + std::to_string(f.amount > 0 ? static_cast<long>(f.amount) : 1) + "Q";
    else if (!f.unit.empty()) res.value = duration_value(f.amount > 0 ? f.amount : 1, false, f.unit);
    else res.value = "PX";
    return true;
  }
  return false;
}

bool Composition::vague_reference() {
  // --- Vague references.
  if (!f.ref.empty() && f.year < 0 && f.month < 0 && f.unit.empty()) {
    res.value = f.ref;
    res.reference = Reference::Vague;
    if (res.type == TimexType::Duration || res.type == TimexType::Set) res.type = TimexType::Date;
    return true;
  }
  return false;
}

bool Composition::durations() {
  // --- Durations ("três anos", "durante dois meses", "há três anos que…").
  relative_shift = (f.ago || f.from_now || f.after || f.before) && f.quantified_unit;
  bool duration = pattern.timex == TimexType::Duration;
  if (f.day > 0 && f.month < 0 && !f.quantified_unit) duration = false;  // "dia 18": a day of the month
  if (relative_shift && f.ago && (ctx.duration_cue || ctx.que_after)) duration = true;
  // "dois anos depois de a guerra acabar", "30 dias antes de concluírem": the
  // shift is measured from an event, so the expression is the duration and
  // "depois de" the signal linking it (TimeML), not a date.
  if (relative_shift && (f.after || f.before) && !f.ago && !f.from_now && ctx.end > 0 &&
      lex_->in_class(word_at(ctx.folded, ctx.end), "EVENT_LINK")) {
    duration = true;
    // Counted in words here; resolve() turns them into bytes of the span.
    for (std::size_t i = n; i > 0 && (tk[i - 1].get("AFTER") || tk[i - 1].get("BEFORE")); --i)
      res.trim_end += 1 + static_cast<std::size_t>(std::count(tk[i - 1].text.begin(), tk[i - 1].text.end(), ' '));
  }
  // "os primeiros nove meses (de 1997)", "a primeira semana": a stretch of
  // time, whatever the pattern said.
  if (!relative_shift && f.ordinal == 1 && f.month < 0 && f.day < 0 && f.quarter < 0 && f.half < 0 &&
      f.outer_unit.empty() && f.year < 0 &&
      (f.unit == "Y" || f.unit == "M" || f.unit == "W" || f.unit == "D" || f.unit == "H"))
    duration = true;
  // "os primeiros nove meses de 1997", "os últimos dois anos de 1990": a
  // counted stretch of time qualified by its year is still a duration.
  if (!relative_shift && f.quantified_unit && f.amount > 0 && !f.amount_vague && f.month < 0 && f.day < 0 &&
      (f.ordinal == 1 || f.rel_kind != Facts::RelKind::None))
    duration = true;
  if (duration && f.year >= 0 && !f.quantified_unit && f.ordinal != 1) duration = false;
  // "ao meio dia": the lexicon reads the named hour (CLOCKWORD), not half a
  // unit; no unit is left to count, so it is the time of day.
  if (duration && f.unit.empty() && f.hour >= 0) duration = false;
  // "chega em meia hora", "sai em cinco dias": a count of weeks, days or hours
  // after "em" in a clause not in the past is the instant it ends; "fez o
  // exame em meia hora" is a duration.
  if (duration && ctx.offset_in && f.quantified_unit && !f.amount_vague && !f.ago && !f.after && !f.before &&
      (f.unit == "W" || f.unit == "D" || f.unit == "H" || f.unit == "MIN") &&
      sentence_tense(*lex_, ctx.folded, ctx.start, ctx.end) >= 0) {
    f.from_now = true;
    relative_shift = true;
    duration = false;
  }
  if (duration) {
    res.type = TimexType::Duration;
    res.reference = Reference::Vague;
    if (f.unit.empty() && f.decade >= 0) {
      res.type = TimexType::Date;
    } else {
      const bool vague = f.amount_vague || (!f.quantified_unit && f.unit_plural);
      res.value = duration_value(f.quantified_unit || f.amount > 0 ? f.amount : 1, vague, f.unit);
      if (f.ordinal > 0 && f.amount < 0 && !vague) res.value = duration_value(1, false, f.unit);
      // "[o ano] findo em 30 de junho": the year is the stretch of time, the
      // DIRECTION_PAST word the signal to the date that ends it.
      if (res.trim_end == 0)
        for (std::size_t i = n; i > 0 && tk[i - 1].get("DIRECTION_PAST"); --i) ++res.trim_end;
      return true;
    }
  }
  return false;
}

}  // namespace cronista::temporal::resolver_rules
