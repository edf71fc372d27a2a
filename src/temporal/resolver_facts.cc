// The tokens of a span read once, left to right, into the facts they state
// (year 1944, month 6, "3 units of year", "ago", "next", a clock time, a
// weekday…). A number takes its role from its neighbours: a day before "de
// junho", an hour after "às", an amount before a unit, a year with four
// digits. The rules (resolver_rules.h) compose the facts into a value.
#include "temporal/resolver_rules.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>

namespace cronista::temporal::resolver_rules {

namespace {

// 6-vi-1944 (folded).
bool parse_roman_month_date(std::string_view w, int* d, int* mo, int* y) {
  std::size_t n = digits_at(w, 0);
  if (n < 1 || n > 2 || n >= w.size() || (w[n] != '-' && w[n] != '.' && w[n] != '/')) return false;
  const char sep = w[n];
  std::size_t e = w.find(sep, n + 1);
  if (e == std::string_view::npos) return false;
  const int month = roman_value(w.substr(n + 1, e - n - 1));
  std::size_t yd = digits_at(w, e + 1);
  if (month < 1 || month > 12 || yd != 4 || e + 1 + yd != w.size()) return false;
  *d = static_cast<int>(to_long(w.substr(0, n)));
  *mo = month;
  *y = static_cast<int>(to_long(w.substr(e + 1)));
  return *d >= 1 && *d <= 31;
}

}  // namespace

Composition::Composition(const Lexicon* lexicon, const std::vector<Token>& tokens, const Pattern& pattern,
                         const ResolveContext& ctx)
    : lex_(lexicon), tk(tokens), n(tokens.size()), pattern(pattern), ctx_in(ctx), ctx(ctx) {
  res.type = pattern.timex;
}

std::string_view Composition::text_at(std::size_t i) const { return i < n ? std::string_view(tk[i].text) : ""; }

bool Composition::is_de(std::size_t i) const {
  auto t = text_at(i);
  return t == "de" || t == "do" || t == "da";
}

void Composition::read_facts() {
  for (std::size_t i = 0; i < n; ++i) {
    const Token& t = tk[i];
    const std::string& w = t.text;
    if (t.get("HABITUAL")) f.habitual = true;
    // Numeric dates: 06/06/1944, 6.6.1944, 6-6-44, 1944-06-06, 06/1944 (not a
    // phrase of the lexicon that opens with a digit: "2.ª feira").
    if (!t.number && t.entries == nullptr && !w.empty() && w[0] >= '0' && w[0] <= '9') {
      int a = -1, b = -1, c = -1;
      char s1 = 0, s2 = 0;
      char tail[8] = {0};
      if (std::sscanf(w.c_str(), "%d%c%d%c%d%7s", &a, &s1, &b, &s2, &c, tail) >= 5 && s1 == s2 &&
          (s1 == '/' || s1 == '.' || s1 == '-') && tail[0] == 0) {
        if (a > 999) {  // ISO
          f.year = a, f.month = b, f.day = c;
        } else {
          f.day = a, f.month = b;
          if (c < 100) {
            f.year = c < 30 ? 2000 + c : 1900 + c;
            f.year_from_two_digits = true;
          } else {
            f.year = c;
          }
        }
        if (f.month < 1 || f.month > 12 || f.day < 1 || f.day > 31) res.reject = true;
        continue;
      }
      if (std::sscanf(w.c_str(), "%d/%d%7s", &a, &b, tail) == 2 && b > 999 && a >= 1 && a <= 12) {
        f.month = a, f.year = b;
        continue;
      }
      // "25/12", "9/11": a day and a month, unless a fraction ("3/4 dos votos", "1/2 hora").
      if (std::sscanf(w.c_str(), "%d/%d%7s", &a, &b, tail) == 2 && digits_at(w, 0) <= 2 && w.size() <= 5 &&
          a >= 1 && a <= 31 && b >= 1 && b <= 12) {
        const std::string_view next = word_at(ctx_in.folded, ctx_in.end);
        if (i + 1 == n && (lex_->in_class(next, "UNIT") || next == "de" || next == "do" || next == "da" ||
                           next == "dos" || next == "das"))
          res.reject = true;
        f.day = a, f.month = b;
        continue;
      }
      // Clock: 17h30, 17:30, 17h, 17.30h, 9h30m, 02.30.
      if (int h = -1, m = -1, sec = -1; parse_clock(w, &h, &m, &sec)) {
        f.hour = h, f.minute = m, f.second = sec;
        continue;
      }
      // 6-VI-1944: a Roman month.
      if (int d = -1, mo = -1, y = -1; parse_roman_month_date(w, &d, &mo, &y)) {
        f.day = d, f.month = mo, f.year = y;
        continue;
      }
      // Ordinals written with digits: 1.º, 1º, 1ª.
      if (w.find("\xC2\xBA") != std::string::npos || w.find("\xC2\xAA") != std::string::npos ||
          w.find('o') != std::string::npos) {
        f.ordinal = std::atoi(w.c_str());
        // "o 12.º ano", "do 9º ano": a school grade.
        if (i + 1 < n && lex_->in_class(tk[i + 1].text, "GRADE_UNIT")) f.grade = true;
        // "1.º de maio": a day.
        if (i + 2 < n && is_de(i + 1) && tk[i + 2].get("MONTH")) f.day = f.ordinal;
        else if (i > 0 && tk[i - 1].text == "dia" && f.ordinal >= 1 && f.ordinal <= 31) f.day = f.ordinal;  // "no dia 1º"
        else if (i + 1 < n && tk[i + 1].get("UNIT")) {
          const std::string& u = *tk[i + 1].get("UNIT");
          if (u == "Q") f.quarter = f.ordinal;
          else if (u == "HALF") f.half = f.ordinal;
          else if (u == "C") f.century = f.ordinal - 1;
          else if (u == "L") f.millennium = f.ordinal - 1;
        }
        continue;
      }
    }
    if (t.number && read_clock_words(&i)) continue;
    if (t.number && t.digits > 0 && t.digits <= 4 && t.value > 0) {
      // Years of one to three digits where the words make them years: an era
      // after ("476 d.C."), "ano" before ("no ano 476"), or "em" before and the
      // clause ending after ("em 711, os mouros…").
      // Not the number of a decade ("anos 40 a.C."), read below.
      const bool decade_before = i > 0 && (tk[i - 1].text == "anos" || (is_de(i - 1) && i > 1 && tk[i - 2].text == "década"));
      const bool era_next = i + 1 < n && tk[i + 1].get("ERA") && !decade_before;
      const bool ano_before = t.digits >= 2 && t.digits <= 3 && i > 0 &&
                              (tk[i - 1].text == "ano" || (is_de(i - 1) && i > 1 && tk[i - 2].text == "ano"));
      const bool em_before = t.digits == 3 && i > 0 && tk[i - 1].text == "em" && i + 1 == n;
      if (era_next || ano_before || em_before) {
        if (em_before) {
          std::size_t p = ctx_in.end;
          while (p < ctx_in.folded.size() && ctx_in.folded[p] == ' ') ++p;
          const char c = p < ctx_in.folded.size() ? ctx_in.folded[p] : '.';
          if (c != ',' && c != '.' && c != ';' && c != ':') {
            res.reject = true;  // "em 300 metros", "em 500 lojas": no dating context
            continue;
          }
        }
        f.year = static_cast<int>(t.value);
        continue;
      }
    }
    if (t.number) {
      const long v = t.value;
      const std::string* next_unit = i + 1 < n ? tk[i + 1].get("UNIT") : nullptr;
      const bool after_decade_word = i > 0 && (tk[i - 1].text == "anos" || tk[i - 1].text == "década" ||
                                               (is_de(i - 1) && i > 1 && tk[i - 2].get("UNIT") &&
                                                *tk[i - 2].get("UNIT") == "E"));
      const bool after_century_word = i > 0 && tk[i - 1].get("UNIT") && *tk[i - 1].get("UNIT") == "C";
      if (after_century_word && v >= 1 && v <= 21) {
        f.century = static_cast<int>(v - 1);
        continue;
      }
      if (after_decade_word && t.digits != 1) {
        if (t.digits == 4 && v % 10 == 0) f.decade = static_cast<int>(v / 10);
        else if (v % 10 == 0 && v >= 10 && v < 100) {
          f.decade = static_cast<int>(190 + v / 10);
          f.decade_from_two_digits = true;
        }
        else if (t.digits == 4) f.year = static_cast<int>(v);
        if (f.decade >= 0 || f.year >= 0) continue;
      }
      // "17 horas de 3 de março", "3 de março, 17 horas": hours on a day are o'clock.
      const auto names_day = [&](std::size_t k) {
        return k < n && (tk[k].number || tk[k].get("MONTH") || tk[k].get("WEEKDAY") || tk[k].get("DEICTIC_DAY"));
      };
      const bool hours_on_a_day = i + 1 < n && tk[i + 1].get("UNIT") && *tk[i + 1].get("UNIT") == "H" &&
                                  t.digits > 0 && (f.day >= 0 || (i + 3 < n && is_de(i + 2) && names_day(i + 3)));
      if (v >= 0 && v <= 24 && t.digits <= 2 && i + 1 < n &&
          (hours_on_a_day ||
           (i > 0 && (tk[i - 1].text == "às" || tk[i - 1].text == "as" || tk[i - 1].text == "pelas" ||
                      tk[i - 1].text == "das"))) &&
          (tk[i + 1].text == "horas" || tk[i + 1].text == "hora")) {
        // "às três horas (e vinte minutos)": a clock time, not a duration.
        f.hour = static_cast<int>(v);
        f.minute = 0;
        ++i;
        if (i + 3 < n && tk[i + 1].text == "e" && tk[i + 2].number && tk[i + 3].text.rfind("minuto", 0) == 0) {
          f.minute = static_cast<int>(tk[i + 2].value);
          i += 3;
        }
        continue;
      }
      if (v >= 0 && v <= 24 && t.digits <= 2 && i + 3 < n && tk[i + 1].text == "horas" && is_de(i + 2) &&
          tk[i + 3].get("DAYPART")) {
        f.hour = static_cast<int>(v);
        f.minute = 0;
        ++i;
        continue;
      }
      if (i + 2 < n && tk[i + 1].get("ORDINAL") && tk[i + 2].get("UNIT") && v == 1 && t.digits == 0) {
        continue;  // "um segundo trimestre": an article
      }
      if (i + 2 < n && (tk[i + 1].get("ORDINAL") || tk[i + 1].get("MOD_LAST")) && tk[i + 2].get("UNIT")) {
        f.amount = static_cast<double>(v);
        f.unit = *tk[i + 2].get("UNIT");
        f.quantified_unit = true;
        i += 2;
        continue;
      }
      if (next_unit && !(t.digits == 4 && i > 0 && (tk[i - 1].get("MONTH")))) {
        f.amount = static_cast<double>(v);
        f.unit = *next_unit;
        f.quantified_unit = true;
        ++i;
        if (i + 1 < n && tk[i + 1].get("FRACTION")) {
          f.amount += std::atof(tk[i + 1].get("FRACTION")->c_str());
          ++i;
        }
        continue;
      }
      if (i + 1 < n && tk[i + 1].get("FRACTION") && i + 2 < n && tk[i + 2].get("UNIT")) {
        // "hora e meia" is unit then fraction; "um e meio ano" is rare; handled as unit amount.
        f.amount = static_cast<double>(v) + std::atof(tk[i + 1].get("FRACTION")->c_str());
        f.unit = *tk[i + 2].get("UNIT");
        f.quantified_unit = true;
        i += 2;
        continue;
      }
      if (i + 1 < n && tk[i + 1].text == "vezes") {
        f.vezes = true;
        ++i;
        continue;
      }
      // Day of month: "6 de junho", "dia 6".
      if (v >= 1 && v <= 31 && t.digits <= 2 &&
          ((i + 2 < n && is_de(i + 1) && tk[i + 2].get("MONTH")) || (i + 1 < n && tk[i + 1].get("MONTH")) ||
           (i > 0 && tk[i - 1].text == "dia"))) {
        f.day = static_cast<int>(v);
        continue;
      }
      if (v >= 0 && v <= 24 && t.digits <= 2 && i + 1 < n && tk[i + 1].text == "h") {  // "14 h"
        f.hour = static_cast<int>(v);
        f.minute = 0;
        ++i;
        continue;
      }
      // Hour: "9 da manhã", "10 horas da noite", "às 5".
      if (v >= 0 && v <= 24 && t.digits <= 2 &&
          ((i + 2 < n && is_de(i + 1) && tk[i + 2].get("DAYPART")) || (i + 1 < n && tk[i + 1].text == "horas"))) {
        f.hour = static_cast<int>(v);
        f.minute = 0;
        continue;
      }
      if (t.digits == 4 || (t.digits == 0 && v >= 1000 && v <= 2100)) {
        f.year = static_cast<int>(v);
        continue;
      }
      // "junho 3", "dezembro 25": a day right after its month.
      if (v >= 1 && v <= 31 && t.digits <= 2 && f.day < 0 && i > 0 && tk[i - 1].get("MONTH")) {
        f.day = static_cast<int>(v);
        continue;
      }
      // "março de 79", "verão de 85": two digits after a month or a season are its year.
      if (t.digits == 2 && i > 0 && (tk[i - 1].get("MONTH") || is_de(i - 1)) && (f.month >= 0 || !f.season.empty())) {
        f.year = 1900 + static_cast<int>(v);
        f.year_from_two_digits = true;
        continue;
      }
      if (t.digits == 2 && i > 0 && tk[i - 1].text == "'") {
        f.year = 1900 + static_cast<int>(v);
        continue;
      }
      if (v >= 1 && v <= 31 && t.digits <= 2 && f.weekday >= 0) {  // "terça-feira, dia 30" / "domingo, 8"
        f.day = static_cast<int>(v);
        continue;
      }
      ++f.numbers_unused;
      continue;
    }
    // "meia hora", "meio dia de trabalho": half a unit.
    if (const std::string* v = t.get("FRACTION_BEFORE"); v && i + 1 < n && tk[i + 1].get("UNIT")) {
      f.amount = std::atof(v->c_str());
      f.unit = *tk[i + 1].get("UNIT");
      f.quantified_unit = true;
      ++i;
      continue;
    }
    if (const std::string* v = t.get("ORDINAL_FROM_END")) {
      f.from_end = std::atoi(v->c_str());
      continue;
    }
    if (const std::string* v = t.get("ERA")) {
      f.era = *v == "BC" ? -1 : 1;
      continue;
    }
    if (t.get("MOD_BEFORE_LAST")) {
      f.rel = -2, f.rel_kind = Facts::RelKind::Deictic, f.rel_this = false;
      continue;
    }
    // "quarta agora": after a weekday, the coming one, as "que vem" says.
    if (t.get("WEEKDAY_COMING") && i > 0 && (tk[i - 1].get("WEEKDAY") || tk[i - 1].get("WEEKDAY_SHORT"))) {
      f.rel = 1, f.rel_kind = Facts::RelKind::Deictic, f.rel_this = false;
      continue;
    }
    // "para a semana": the unit and its "next" in one phrase.
    if (const std::string* v = t.get("NEXT_UNIT")) {
      f.unit = *v;
      f.rel = 1, f.rel_kind = Facts::RelKind::Deictic, f.rel_this = false;
      continue;
    }
    if (const std::string* v = t.get("REF")) {
      f.ref = *v;
      continue;
    }
    if (const std::string* v = t.get("HOLIDAY")) {
      f.holiday = *v;
      continue;
    }
    if (const std::string* v = t.get("DEICTIC_DAY")) {
      f.has_deictic_day = true;
      f.deictic_day = std::atoi(v->c_str());
      f.deictic_word = true;
      continue;
    }
    if (const std::string* v = t.get("MONTH")) {
      f.month = std::atoi(v->c_str());
      continue;
    }
    if (t.get("ORDINAL") && i + 1 < n && tk[i + 1].get("UNIT")) {
      const int o = std::atoi(t.get("ORDINAL")->c_str());
      const std::string& u = *tk[i + 1].get("UNIT");
      if (u == "Q") f.quarter = o;
      else if (u == "HALF") f.half = o;
      else if (u == "C") f.century = o - 1;
      else if (u == "L") f.millennium = o - 1;
      else {
        f.ordinal = o;
        f.unit = u;
        const std::string& uw = tk[i + 1].text;
        f.unit_plural = uw.size() > 2 && uw.back() == 's' &&
                        (lex_->in_class(uw.substr(0, uw.size() - 1), "UNIT") ||
                         lex_->in_class(uw.substr(0, uw.size() - 2), "UNIT"));
      }
      ++i;
      continue;
    }
    // The first weekday named is the expression's ("sexta e quinta-feira").
    if (const std::string* v = t.get("WEEKDAY")) {
      if (f.weekday < 0) f.weekday = std::atoi(v->c_str());
      continue;
    }
    if (const std::string* v = t.get("WEEKDAY_SHORT")) {
      if (f.weekday < 0) f.weekday = std::atoi(v->c_str());
      continue;
    }
    if (const std::string* v = t.get("ORDINAL")) {
      f.ordinal = std::atoi(v->c_str());
      continue;
    }
    if (const std::string* v = t.get("SEASON")) {
      f.season = *v;
      continue;
    }
    if (const std::string* v = t.get("CLOCKWORD")) {
      f.hour = std::atoi(v->c_str());
      f.minute = 0;
      if (i + 1 < n && tk[i + 1].get("FRACTION")) {  // "meio-dia e meia"
        f.minute = static_cast<int>(std::lround(60 * std::atof(tk[i + 1].get("FRACTION")->c_str())));
        ++i;
      }
      continue;
    }
    if (const std::string* v = t.get("DAYPART")) {
      f.daypart = *v;
      if (f.hour >= 0 && f.hour < 12 && (*v == "AF" || *v == "EV" || (*v == "NI" && f.hour >= 6))) f.hour += 12;
      continue;
    }
    if (const std::string* v = t.get("UNIT")) {
      if (i > 0 && (tk[i - 1].get("VAGUE_QUANT"))) {
        f.amount_vague = true;
        f.quantified_unit = true;
      }
      // "século XX", "milénio III": a century or a millennium numbered after its word.
      if ((*v == "C" && f.century < 0) || (*v == "L" && f.millennium < 0)) {
        const int r = i + 1 < n ? roman_value(tk[i + 1].text) : -1;
        if (r > 0 && r <= (*v == "C" ? 21 : 10)) {
          (*v == "C" ? f.century : f.millennium) = r - 1;
          ++i;
          continue;
        }
      }
      if (!f.unit.empty() || f.period || f.month > 0 || f.quarter > 0 || f.half > 0 || !f.season.empty()) {
        if (*v == "Y") f.outer_year = true;
        if (f.outer_unit.empty()) f.outer_unit = *v;
        continue;
      }
      f.unit = *v;
      f.unit_plural = w.size() > 2 && w.back() == 's' &&
                      (lex_->in_class(w.substr(0, w.size() - 1), "UNIT") ||
                       lex_->in_class(w.substr(0, w.size() - 2), "UNIT"));
      if (i + 1 < n && tk[i + 1].get("FRACTION") && f.quantified_unit) {
        f.amount += std::atof(tk[i + 1].get("FRACTION")->c_str());
        ++i;
      } else if (i + 1 < n && tk[i + 1].get("FRACTION") && !f.quantified_unit) {
        f.amount = 1 + std::atof(tk[i + 1].get("FRACTION")->c_str());
        f.quantified_unit = true;
        ++i;
      }
      continue;
    }
    if (t.get("MOD_NEXT")) {
      f.rel = 1, f.rel_kind = Facts::RelKind::Deictic, f.rel_this = false;
      continue;
    }
    if (t.get("MOD_LAST")) {
      f.rel = -1, f.rel_kind = Facts::RelKind::Deictic, f.rel_this = false;
      continue;
    }
    if (t.get("MOD_THIS")) {
      f.rel = 0, f.rel_kind = Facts::RelKind::Deictic, f.rel_this = true;
      f.demonstrative = t.get("DEMONSTRATIVE") != nullptr;
      continue;
    }
    if (t.get("MOD_FOLLOWING")) {
      f.rel = 1, f.rel_kind = Facts::RelKind::Anaphoric, f.rel_this = false;
      continue;
    }
    if (t.get("MOD_PREVIOUS")) {
      f.rel = -1, f.rel_kind = Facts::RelKind::Anaphoric, f.rel_this = false;
      continue;
    }
    if (t.get("MOD_SAME")) {
      f.rel = 0, f.rel_kind = Facts::RelKind::Anaphoric, f.rel_this = true;
      continue;
    }
    if (const std::string* v = t.get("POSITION")) {
      f.position = *v;
      continue;
    }
    if (t.get("PERIOD_WORD")) {
      f.period = true;
      continue;
    }
    if (t.get("AGO")) { f.ago = true; continue; }
    if (t.get("AFTER")) { f.after = true; continue; }
    if (t.get("BEFORE")) { f.before = true; continue; }
    if (t.get("FROM_NOW")) { f.from_now = true; continue; }
    if (const std::string* v = t.get("SET_ADVERB")) { f.set_adverb = *v; continue; }
    if (const std::string* v = t.get("FREQUENCY_WORD")) { f.set_adverb = *v; continue; }
    if (t.get("SET_QUANT")) {
      // "todo o ano" is the whole year; "todo ano", "todos os anos" every year.
      const bool whole = (w == "todo" || w == "toda") && i + 1 < n && tk[i + 1].get("ARTICLE");
      // "por ano" is each year, "por anos" for years (a SET_QUANT valued PER).
      const bool per_plural = *t.get("SET_QUANT") == "PER" && i + 1 < n && tk[i + 1].get("UNIT") &&
                              tk[i + 1].text.size() > 2 && tk[i + 1].text.back() == 's';
      if (!whole && !per_plural) f.set_quant = true;
      continue;
    }
    if (t.get("VAGUE_QUANT")) {
      f.amount_vague = true;
      continue;
    }
    if (t.get("ANAPHORIC_DAY")) {
      f.has_deictic_day = true;
      f.deictic_day = std::atoi(t.get("ANAPHORIC_DAY")->c_str());
      f.rel_kind = Facts::RelKind::Anaphoric;
      continue;
    }
    if (f.century < 0 && i > 0 && tk[i - 1].get("UNIT") && *tk[i - 1].get("UNIT") == "C") {
      int r = roman_value(w);
      if (r > 0 && r <= 21) f.century = r - 1;
    }
    // "III milênio": a Roman numeral before the millennium word.
    if (const std::string* u = i + 1 < n ? tk[i + 1].get("UNIT") : nullptr; u && *u == "L" && f.millennium < 0) {
      const int r = roman_value(w);
      if (r > 0 && r <= 10) f.millennium = r - 1, ++i;
    }
  }
}

}  // namespace cronista::temporal::resolver_rules
