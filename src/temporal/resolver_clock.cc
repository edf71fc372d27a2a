// Clock times and parts of the day: the clock forms written in digits
// ("17h30", "10:30:45", "21.30h"), a time on a known day, and a clock time or
// a part of the day alone, on the day under discussion; clock times in words
// ("às nove e quinze", "dez para as seis", "sete menos um quarto").
#include "temporal/resolver_rules.h"

#include <cmath>
#include <cstdlib>

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

void Composition::add_time(const std::optional<Date>& named) {
  // A clock time or a part of the day on a known (or unknown) day. Minutes
  // past midnight ("meia-noite e meia") are on the next day: T24:00 ends a
  // day, T00:30 is in the next one.
  std::optional<Date> d = named;
  if (f.hour == 24 && f.minute > 0) {
    f.hour = 0;
    if (d) d = add_days(*d, 1);
  }
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

namespace {

// The hour and minutes of a number written in words after a clock
// preposition: "nove e quinze" (9:15), "vinte e uma e trinta" (21:30), "oito"
// (8:00). The tokenizer has merged the words into one number; its parts are
// read again from its text.
bool hour_and_minutes(const Lexicon& lex, const Token& t, int* hour, int* minute) {
  if (t.digits > 0) {
    *hour = static_cast<int>(t.value), *minute = 0;
    return t.digits <= 2 && t.value <= 24;
  }
  std::vector<long> parts;
  std::string_view rest = t.text;
  while (!rest.empty()) {
    const std::size_t cut = rest.find(" e ");
    const std::string_view part = rest.substr(0, cut);
    const std::string* v = lex.value(part, "NUMWORD");
    if (v == nullptr) return false;
    parts.push_back(to_long(*v));
    rest = cut == std::string_view::npos ? std::string_view() : rest.substr(cut + 3);
  }
  if (parts.empty()) return false;
  std::size_t k = 1;
  long h = parts[0];
  if (h == 20 && parts.size() > 1 && parts[1] < 5) h += parts[k++];  // "vinte e uma"
  long m = 0;
  for (; k < parts.size(); ++k) m += parts[k];
  if (h > 24 || m > 59) return false;
  *hour = static_cast<int>(h), *minute = static_cast<int>(m);
  return true;
}

}  // namespace

bool Composition::read_clock_words(std::size_t* pi) {
  std::size_t i = *pi;
  // "dez para as seis", "vinte minutos para as oito": minutes to the hour.
  std::size_t k = i + 1;
  if (k < n && tk[k].text == "minutos") ++k;
  if (k + 2 < n && tk[k].text == "para" && (tk[k + 1].text == "as" || tk[k + 1].text == "a") && tk[k + 2].number &&
      tk[i].value > 0 && tk[i].value < 60) {
    int h = -1, m = -1;
    if (!hour_and_minutes(*lex_, tk[k + 2], &h, &m) || m != 0 || h < 1) return false;
    f.hour = h - 1, f.minute = static_cast<int>(60 - tk[i].value);
    *pi = k + 2;
    return true;
  }
  if (i == 0 || !lex_->in_class(tk[i - 1].text, "CLOCK_PREPOSITION")) return false;
  // "às três horas" and "às 5 h" are read with the hour words.
  if (i + 1 < n && lex_->in_class(tk[i + 1].text, "UNIT")) return false;
  int h = -1, m = -1;
  if (!hour_and_minutes(*lex_, tk[i], &h, &m)) return false;
  k = i + 1;
  if (k < n && tk[k].get("FRACTION")) {  // "dez e meia", "nove e um quarto"
    m = static_cast<int>(std::lround(60 * std::atof(tk[k].get("FRACTION")->c_str())));
    ++k;
  } else if (k + 1 < n && tk[k].text == "menos" && tk[k + 1].number) {  // "sete menos um quarto", "oito menos dez"
    long before = tk[k + 1].value;
    std::size_t last = k + 1;
    if (before == 1 && last + 1 < n && tk[last + 1].text == "quarto") before = 15, ++last;
    else if (last + 1 < n && tk[last + 1].text == "minutos") ++last;
    if (before <= 0 || before >= 60 || h < 1) return false;
    h -= 1, m = static_cast<int>(60 - before);
    k = last + 1;
  }
  f.hour = h, f.minute = m;
  *pi = k - 1;
  return true;
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
