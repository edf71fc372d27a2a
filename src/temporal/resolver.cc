// Approach: tokenize the span (greedy longest lexicon phrases, numbers in
// digits or words merged into one token), read the tokens once into a set of
// facts, then compose a value from the facts by the TimeML type the pattern
// gives, which the facts may overrule (a clock time makes a TIME; "há três
// anos" after "vive" is a DURATION). Unknown parts become X; relative
// expressions without their reference point stay unresolved.
#include "temporal/resolver.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>

#include "temporal/calendar.h"
#include "temporal/tense.h"

namespace cronista::temporal {

namespace {

bool all_digits(std::string_view s) {
  if (s.empty()) return false;
  for (char c : s)
    if (c < '0' || c > '9') return false;
  return true;
}

long to_long(std::string_view s) { return std::strtol(std::string(s).c_str(), nullptr, 10); }

std::string pad(long v, int width) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%0*ld", width, v);
  return buf;
}

int roman_value(std::string_view s) {
  if (s.empty() || s.size() > 8) return -1;
  auto val = [](char c) {
    switch (c) {
      case 'i': return 1;
      case 'v': return 5;
      case 'x': return 10;
      case 'l': return 50;
      case 'c': return 100;
      default: return 0;
    }
  };
  int total = 0;
  for (std::size_t i = 0; i < s.size(); ++i) {
    int v = val(s[i]);
    if (v == 0) return -1;
    int next = i + 1 < s.size() ? val(s[i + 1]) : 0;
    total += v < next ? -v : v;
  }
  return total > 0 ? total : -1;
}

// Facts a span states.
struct Facts {
  int year = -1, month = -1, day = -1, weekday = -1;
  bool year_from_two_digits = false;
  std::string season;
  int quarter = -1, half = -1;
  int decade = -1, century = -1;
  int hour = -1, minute = -1;
  std::string daypart;
  std::string holiday;
  bool has_deictic_day = false;
  int deictic_day = 0;
  bool deictic_word = false;  // "ontem" (the document date), not "véspera" (the anchor)
  std::string ref;
  int rel = 0;             // +1 next/following, -1 last/previous, 0 this/same
  enum class RelKind { None, Deictic, Anaphoric } rel_kind = RelKind::None;
  bool rel_this = false;
  std::string position;
  bool ago = false, after = false, before = false, from_now = false;
  double amount = -1;      // quantity before a unit
  bool amount_vague = false;
  std::string unit;        // the unit of the quantity, or the bare unit
  bool unit_plural = false;
  bool quantified_unit = false;
  int ordinal = -1;
  std::string set_adverb;
  bool set_quant = false;
  bool vezes = false;      // "três vezes por semana"
  int numbers_unused = 0;  // numbers that took no role
  bool period = false;     // "período": the period under discussion
  std::string outer_unit;  // a second unit ("último dia do mês")
  bool outer_year = false; // a second unit, the year, qualifies the first ("trimestre do ano passado")
};

bool is_time_unit(const std::string& u) { return u == "H" || u == "MIN" || u == "S"; }

std::string duration_value(double amount, bool vague, const std::string& unit) {
  if (unit.empty()) return "PXY";
  std::string u = unit;
  double a = amount;
  if (u == "HALF") { u = "M"; a *= 6; }
  if (u == "F") { u = "W"; a *= 2; }
  if (u == "Q" && !vague) { u = "M"; a *= 3; }
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

Anchor anchor_of(const Date& d) { return Anchor{d.year, d.month, d.day}; }

std::size_t digits_at(std::string_view s, std::size_t i) {
  std::size_t j = i;
  while (j < s.size() && s[j] >= '0' && s[j] <= '9') ++j;
  return j - i;
}

// 17h30, 17h, 17:30, 17.30, 17.30h, 9h30m, 9h30min.
bool parse_clock(std::string_view w, int* h, int* m) {
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
  std::string_view rest = w.substr(k);
  if (!(rest.empty() || rest == "h" || rest == "m" || rest == "min") || (sep == '.' && rest == "m")) return false;
  if (hour > 24 || minute > 59) return false;
  *h = hour, *m = minute;
  return true;
}

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

const std::string* Resolver::Token::get(std::string_view cls) const {
  if (entries == nullptr) return nullptr;
  for (const auto& e : *entries)
    if (e.cls == cls) return &e.value;
  return nullptr;
}

std::vector<Resolver::Token> Resolver::tokenize(std::string_view span) const {
  // Raw words, with their byte ranges in the span.
  std::vector<std::string> raw;
  std::vector<std::pair<std::size_t, std::size_t>> at;
  std::string cur;
  std::size_t cur_start = 0;
  auto flush = [&]() {
    if (cur.empty()) return;
    // "1939-1945", "1939–1945", "2005/06": a numeric range of years is three tokens.
    std::size_t dash = cur.find('-');
    std::size_t en = cur.find("\xE2\x80\x93");
    std::size_t slash = cur.find('/');
    std::size_t cut = dash != std::string::npos ? dash : en != std::string::npos ? en : slash;
    std::size_t cut_len = cut == en && en != std::string::npos ? 3 : 1;
    std::string left = cut != std::string::npos ? cur.substr(0, cut) : "";
    std::string right = cut != std::string::npos ? cur.substr(cut + cut_len) : "";
    if (cut != std::string::npos && cut > 0 && all_digits(left) && all_digits(right) &&
        (cut != slash || (left.size() == 4 && (right.size() == 4 || right.size() == 2)))) {
      if (left.size() == 4 && right.size() == 2) right = left.substr(0, 2) + right;  // 2005/06
      raw.push_back(left);
      at.emplace_back(cur_start, cur_start + cut);
      raw.push_back("-");
      at.emplace_back(cur_start + cut, cur_start + cut + cut_len);
      raw.push_back(right);
      at.emplace_back(cur_start + cut + cut_len, cur_start + cur.size());
    } else {
      raw.push_back(cur);
      at.emplace_back(cur_start, cur_start + cur.size());
    }
    cur.clear();
  };
  for (std::size_t i = 0; i < span.size(); ++i) {
    const char c = span[i];
    if (c == ' ') {
      flush();
    } else if (c == ',' || c == ';' || c == '(' || c == ')' || c == '"') {
      flush();
      raw.push_back(std::string(1, c));
      at.emplace_back(i, i + 1);
    } else {
      if (cur.empty()) cur_start = i;
      cur.push_back(c);
    }
  }
  flush();
  // Trailing dots are sentence punctuation unless the lexicon knows the
  // dotted word ("jan.", "séc.") or it is an ordinal ("1.º" has none).
  for (std::size_t k = 0; k < raw.size(); ++k) {
    std::string& w = raw[k];
    if (w.size() > 1 && w.back() == '.' && lex_->lookup(w) == nullptr) {
      w.pop_back();
      --at[k].second;
    }
  }
  std::vector<Token> out;
  const std::size_t maxw = lex_->max_phrase_words();
  for (std::size_t i = 0; i < raw.size();) {
    std::size_t taken = 0;
    for (std::size_t n = std::min(maxw, raw.size() - i); n >= 1 && !taken; --n) {
      std::string phrase = raw[i];
      for (std::size_t k = 1; k < n; ++k) phrase += " " + raw[i + k];
      if (const auto* e = lex_->lookup(phrase)) {
        Token t;
        t.text = phrase;
        t.entries = e;
        t.begin = at[i].first;
        t.end = at[i + n - 1].second;
        out.push_back(std::move(t));
        taken = n;
      }
      if (n == 1) break;
    }
    if (!taken) {
      Token t;
      t.text = raw[i];
      t.begin = at[i].first;
      t.end = at[i].second;
      if (all_digits(t.text) && t.text.size() <= 9) {
        t.number = true;
        t.value = to_long(t.text);
        t.digits = static_cast<int>(t.text.size());
      }
      out.push_back(std::move(t));
      taken = 1;
    }
    i += taken;
  }
  // Merge number words ("vinte e cinco", "dois mil e três") into one number.
  std::vector<Token> merged;
  for (std::size_t i = 0; i < out.size(); ++i) {
    if (!out[i].get("NUMWORD")) {
      merged.push_back(std::move(out[i]));
      continue;
    }
    long total = 0, current = 0;
    std::string text;
    std::size_t j = i;
    while (j < out.size()) {
      const std::string* v = out[j].get("NUMWORD");
      if (!v) break;
      long n = to_long(*v);
      if (n == 1000) {
        total += (current == 0 ? 1 : current) * 1000;
        current = 0;
      } else {
        current += n;
      }
      text += (text.empty() ? "" : " ") + out[j].text;
      if (j + 2 < out.size() && out[j + 1].text == "e" && out[j + 2].get("NUMWORD")) {
        text += " e";
        j += 2;
      } else {
        ++j;
      }
    }
    Token t = out[i];  // keeps the entries of the first word ("uma" is also an article)
    t.text = text;
    t.end = out[j - 1].end;
    t.number = true;
    t.value = total + current;
    t.digits = 0;
    merged.push_back(std::move(t));
    i = j - 1;
  }
  return merged;
}

Resolution Resolver::resolve(std::string_view span, const Pattern& pattern, const ResolveContext& ctx) const {
  std::vector<Token> tokens = tokenize(span);
  if (pattern.harem_subtype == HaremSubtype::Interval) {
    // Split at the first range connector that follows something temporal.
    std::size_t cut = 0;
    for (std::size_t i = 1; i + 1 < tokens.size(); ++i) {
      if (tokens[i].get("RANGE_TO") || tokens[i].text == "-") {
        cut = i;
        break;
      }
    }
    if (cut) {
      std::vector<Token> left(tokens.begin(), tokens.begin() + cut), right(tokens.begin() + cut + 1, tokens.end());
      while (!left.empty() && left.front().get("RANGE_FROM")) left.erase(left.begin());
      Pattern point = pattern;
      point.harem_subtype = HaremSubtype::Date;
      Resolution r = resolve_tokens(right, point, ctx);
      // The left end borrows what it lacks from the right one ("de abril a maio de 2009").
      std::vector<Token> left_full = left;
      bool left_has_year = false, left_has_month = false;
      for (const auto& t : left) {
        left_has_year |= t.number && t.digits == 4;
        left_has_month |= t.get("MONTH") != nullptr;
      }
      if (!left_has_year || !left_has_month) {
        bool copying = false;
        for (const auto& t : right) {
          if (!left_has_month && t.get("MONTH") && !left_has_year && !left.empty() && left.back().number &&
              left.back().digits <= 2) {
            Token de;
            de.text = "de";
            de.entries = lex_->lookup("de");
            left_full.push_back(de);
            copying = true;
          }
          if (copying || (!left_has_year && t.number && t.digits == 4)) {
            if (!copying) {
              Token de;
              de.text = "de";
              de.entries = lex_->lookup("de");
              left_full.push_back(de);
              copying = true;
            }
            left_full.push_back(t);
          }
        }
      }
      Resolution l = resolve_tokens(left_full, point, ctx);
      if (l.reject || r.reject || l.value.empty()) return resolve_tokens(tokens, pattern, ctx);
      Resolution out = l;
      out.interval = true;
      out.chronons.clear();
      if (!l.chronons.empty()) out.chronons.push_back(l.chronons.front());
      if (!r.chronons.empty()) out.chronons.push_back(r.chronons.back());
      out.new_anchor = r.new_anchor ? r.new_anchor : l.new_anchor;
      // The ends as TimeML annotates them, without the connectors.
      auto connector = [](const Token& t) {
        return !t.number && (t.get("RANGE_TO") || t.get("RANGE_FROM") || t.get("ARTICLE") || t.text == ",");
      };
      std::size_t lb = 0, le = left.size(), rb = 0, re = right.size();
      while (lb < le && connector(left[lb])) ++lb;
      while (le > lb && connector(left[le - 1])) --le;
      while (rb < re && connector(right[rb])) ++rb;
      while (re > rb && right[re - 1].text == ",") --re;
      if (lb < le && rb < re) {
        out.endpoints.push_back(ResolvedEndpoint{left[lb].begin, left[le - 1].end, l.type, l.value});
        out.endpoints.push_back(ResolvedEndpoint{right[rb].begin, right[re - 1].end, r.type, r.value});
      }
      return out;
    }
  }
  return resolve_tokens(tokens, pattern, ctx);
}

Resolution Resolver::resolve_tokens(const std::vector<Token>& tk, const Pattern& pattern,
                                    const ResolveContext& ctx_in) const {
  Facts f;
  Resolution res;
  res.type = pattern.timex;
  const std::size_t n = tk.size();
  auto text_at = [&](std::size_t i) -> std::string_view { return i < n ? std::string_view(tk[i].text) : ""; };
  auto is_de = [&](std::size_t i) {
    auto t = text_at(i);
    return t == "de" || t == "do" || t == "da";
  };
  for (std::size_t i = 0; i < n; ++i) {
    const Token& t = tk[i];
    const std::string& w = t.text;
    // Numeric dates: 06/06/1944, 6.6.1944, 6-6-44, 1944-06-06, 06/1944.
    if (!t.number && !w.empty() && w[0] >= '0' && w[0] <= '9') {
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
      // Clock: 17h30, 17:30, 17h, 17.30h, 9h30m, 02.30.
      if (int h = -1, m = -1; parse_clock(w, &h, &m)) {
        f.hour = h, f.minute = m;
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
        // "1.º de maio": a day.
        if (i + 2 < n && is_de(i + 1) && tk[i + 2].get("MONTH")) f.day = f.ordinal;
        else if (i + 1 < n && tk[i + 1].get("UNIT")) {
          const std::string& u = *tk[i + 1].get("UNIT");
          if (u == "Q") f.quarter = f.ordinal;
          else if (u == "HALF") f.half = f.ordinal;
          else if (u == "C") f.century = f.ordinal - 1;
        }
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
        else if (v % 10 == 0 && v >= 10 && v < 100) f.decade = static_cast<int>(190 + v / 10);
        else if (t.digits == 4) f.year = static_cast<int>(v);
        if (f.decade >= 0 || f.year >= 0) continue;
      }
      if (v >= 0 && v <= 24 && t.digits <= 2 && i > 0 && i + 1 < n &&
          (tk[i - 1].text == "às" || tk[i - 1].text == "as" || tk[i - 1].text == "pelas" || tk[i - 1].text == "das") &&
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
      if (t.digits == 2 && i > 0 && (tk[i - 1].get("MONTH") || is_de(i - 1)) && f.month >= 0) {
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
      if (f.century < 0 && *v == "C" && i + 1 < n) {
        int r = roman_value(tk[i + 1].text);
        if (r > 0 && r <= 21) {
          f.century = r - 1;
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
      if (!whole) f.set_quant = true;
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
  }
  if (res.reject) return res;
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
      return res;
    }
  }
  // A quarter named without its number ("trimestre correspondente de 1988")
  // is the one under discussion.
  if (f.unit == "Q" && f.quarter < 0 && f.year >= 0 && !f.quantified_unit && ctx_in.quarter) {
    f.quarter = ctx_in.quarter->quarter;
    res.shifted = true;  // the same quarter in another year: a comparison, not the topic
  }
  if (f.outer_year || f.ago) res.shifted = true;

  // A forward-looking preposition in a sentence in the past looks nowhere.
  ResolveContext ctx = ctx_in;
  if (ctx.direction > 0 && sentence_tense(*lex_, ctx.folded, ctx.start, ctx.end) < 0) ctx.direction = 0;

  // Reference points.
  const bool have_dct = ctx.dct.has_value();
  const Date dct = have_dct ? *ctx.dct : Date{};
  auto anchor_or_dct = [&]() -> std::optional<Anchor> {
    if (ctx.anchor && ctx.anchor->year >= 0) return ctx.anchor;
    if (have_dct) return anchor_of(dct);
    return std::nullopt;
  };

  auto set_day = [&](const Date& d) {
    res.value = d.to_string();
    res.chronons = {Chronon::of_date(d)};
    res.new_anchor = anchor_of(d);
  };
  auto set_month = [&](int y, int m) {
    res.value = pad(y, 4) + "-" + pad(m, 2);
    res.chronons = {Chronon::of_month(y, m)};
    res.new_anchor = Anchor{y, m, -1};
  };
  auto set_year = [&](int y) {
    res.value = pad(y, 4);
    res.chronons = {Chronon::of_year(y)};
    res.new_anchor = Anchor{y, -1, -1};
  };
  auto unresolved = [&](std::string value, Reference r) {
    res.value = std::move(value);
    res.chronons.clear();
    res.resolved = false;
    res.reference = r;
  };
  auto add_time = [&](const std::optional<Date>& d) {
    // A clock time or a part of the day on a known (or unknown) day.
    std::string day = d ? d->to_string() : "XXXX-XX-XX";
    res.type = TimexType::Time;
    if (f.hour >= 0) {
      res.value = day + "T" + pad(f.hour, 2) + ":" + pad(f.minute < 0 ? 0 : f.minute, 2);
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
  };
  auto shift_unit = [&](const Date& base, const std::string& unit, long k) -> Date {
    if (unit == "Y") return add_months(base, static_cast<int>(12 * k));
    if (unit == "M") return add_months(base, static_cast<int>(k));
    if (unit == "Q") return add_months(base, static_cast<int>(3 * k));
    if (unit == "HALF") return add_months(base, static_cast<int>(6 * k));
    if (unit == "W") return add_days(base, static_cast<int>(7 * k));
    if (unit == "F") return add_days(base, static_cast<int>(14 * k));
    if (unit == "E") return add_months(base, static_cast<int>(120 * k));
    if (unit == "C") return add_months(base, static_cast<int>(1200 * k));
    if (unit == "D") return add_days(base, static_cast<int>(k));
    return base;
  };
  // Writes the value of the calendar unit containing d.
  auto set_unit_value = [&](const Date& d, const std::string& unit) {
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
      // The weekend: the last one, the next one with a forward modifier.
      const int wd = iso_weekday(d);
      Date sat = f.rel > 0 ? add_days(d, (6 - wd + 7) % 7) : add_days(d, wd >= 6 ? 6 - wd : -(wd + 1));
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
  };

  // --- Sets.
  if (!f.set_adverb.empty()) {
    res.type = TimexType::Set;
    res.value = f.set_adverb;
    res.reference = Reference::Vague;
    return res;
  }
  if (pattern.timex == TimexType::Set || (f.set_quant && !f.unit.empty()) || f.vezes) {
    res.type = TimexType::Set;
    res.reference = Reference::Vague;
    if (f.weekday > 0) res.value = "XXXX-WXX-" + std::to_string(f.weekday) + (f.daypart.empty() ? "" : "T" + f.daypart);
    else if (f.month > 0) res.value = "XXXX-" + pad(f.month, 2);
    else if (!f.season.empty()) res.value = "XXXX-" + f.season;
    else if (!f.daypart.empty()) res.value = "XXXX-XX-XXT" + f.daypart;
    else if (f.unit == "Q") res.value = "P" + std::to_string(f.amount > 0 ? static_cast<long>(f.amount) : 1) + "Q";
    else if (!f.unit.empty()) res.value = duration_value(f.amount > 0 ? f.amount : 1, false, f.unit);
    else res.value = "PX";
    return res;
  }

  // --- Vague references.
  if (!f.ref.empty() && f.year < 0 && f.month < 0 && f.unit.empty()) {
    res.value = f.ref;
    res.reference = Reference::Vague;
    if (res.type == TimexType::Duration || res.type == TimexType::Set) res.type = TimexType::Date;
    return res;
  }

  // --- Durations ("três anos", "durante dois meses", "há três anos que…").
  const bool relative_shift = (f.ago || f.from_now || f.after || f.before) && f.quantified_unit;
  bool duration = pattern.timex == TimexType::Duration;
  if (relative_shift && f.ago && (ctx.duration_cue || ctx.que_after)) duration = true;
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
  if (duration) {
    res.type = TimexType::Duration;
    res.reference = Reference::Vague;
    if (f.unit.empty() && f.decade >= 0) {
      res.type = TimexType::Date;
    } else {
      const bool vague = f.amount_vague || (!f.quantified_unit && f.unit_plural);
      res.value = duration_value(f.quantified_unit || f.amount > 0 ? f.amount : 1, vague, f.unit);
      if (f.ordinal > 0 && f.amount < 0 && !vague) res.value = duration_value(1, false, f.unit);
      return res;
    }
  }

  // --- Decades and centuries.
  if (f.decade >= 0) {
    res.value = std::to_string(f.decade);
    res.chronons = {Chronon::of_year(f.decade * 10), Chronon::of_year(f.decade * 10 + 9)};
    return res;
  }
  if (f.century >= 0 && f.year < 0) {
    res.value = pad(f.century, 2);
    res.chronons = {Chronon::of_year(f.century * 100 + 1), Chronon::of_year(f.century * 100 + 100)};
    return res;
  }

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
        return res;
      }
      set_day(add_days(easter_sunday(year), off));
      return res;
    }
    const int m = std::atoi(h.c_str()), d = std::atoi(h.c_str() + 3);
    if (year < 0) {
      res.value = "XXXX-" + pad(m, 2) + "-" + pad(d, 2);
      Chronon c;
      c.month = m, c.day = d;
      res.chronons = {c};
      res.resolved = false;
      return res;
    }
    set_day(Date{year, m, d});
    return res;
  }

  // "o último dia do mês", "o primeiro dia do ano": a day of the current (or
  // named) month or year.
  if (f.unit == "D" && (f.ordinal > 0 || f.rel < 0) && (f.outer_unit == "M" || f.outer_unit == "Y" || f.month > 0) &&
      (have_dct || f.year >= 0)) {
    int y = f.year >= 0 ? f.year : dct.year;
    int mo = f.month > 0 ? f.month : (f.outer_unit == "Y" ? (f.rel < 0 ? 12 : 1) : dct.month);
    int d = f.rel < 0 ? days_in_month(y, mo) : std::min(f.ordinal, days_in_month(y, mo));
    set_day(Date{y, mo, d});
    res.reference = Reference::Deictic;
    return res;
  }

  // --- Explicit year.
  if (f.year >= 0) {
    const int y = f.year;
    if (f.month > 0 && f.day > 0) {
      Date d{y, f.month, f.day};
      if (!d.valid()) {
        res.reject = true;
        return res;
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
    return res;
  }

  // Everything below is relative: deictic (DCT) or anaphoric (last date).
  bool anaphoric = f.rel_kind == Facts::RelKind::Anaphoric || f.after || f.before;
  std::optional<Date> base;
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

  // --- Shifts: "há três anos", "daqui a dois meses", "dois anos depois".
  if (relative_shift && !f.unit.empty()) {
    if (!base) {
      unresolved(f.unit == "Y" ? "XXXX" : "XXXX-XX-XX", res.reference);
      return res;
    }
    if (f.amount_vague || f.amount < 0) {
      res.value = f.ago || f.before ? "PAST_REF" : "FUTURE_REF";
      res.reference = Reference::Vague;
      return res;
    }
    const long k = static_cast<long>(f.amount) * ((f.ago || f.before) ? -1 : 1);
    if (f.unit == "Y" && k == -1 && ctx.quarter) {
      // "há um ano" after a quarter was named: the same quarter a year before.
      set_unit_value(Date{ctx.quarter->year + static_cast<int>(k), ctx.quarter->month, 1}, "Q");
      return res;
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
    return res;
  }

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
      const int past = f.month <= dct.month ? dct.year : dct.year - 1;
      const int next = f.month >= dct.month ? dct.year : dct.year + 1;
      const int md = f.month * 100 + (f.day > 0 ? f.day : 0), dd = dct.month * 100 + (f.day > 0 ? dct.day : 0);
      if (f.rel > 0) year = md > dd ? dct.year : dct.year + 1;
      else if (f.rel < 0) year = md < dd ? dct.year : dct.year - 1;
      else if (ctx.direction > 0) year = md >= dd ? dct.year : dct.year + 1;
      else if (ctx.direction < 0) year = md <= dd ? dct.year : dct.year - 1;
      else if (const int tense = sentence_tense(*lex_, ctx.folded, ctx.start, ctx.end); std::abs(tense) == 2)
        year = tense > 0 ? next : past;
      else {
        const int dp = (dct.year - past) * 12 + dct.month - f.month;
        const int dn = (next - dct.year) * 12 + f.month - dct.month;
        year = dn + 2 < dp ? next : past;
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
      return res;
    }
    if (f.day > 0) {
      Date d{year, f.month, f.day};
      if (!d.valid()) {
        res.reject = true;
        return res;
      }
      set_day(d);
      if (f.hour >= 0) add_time(d);
    } else {
      set_month(year, f.month);
    }
    return res;
  }

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
      return res;
    }
    Date d = add_days(*base, f.deictic_day);
    if (anaphoric && ctx.anchor && ctx.anchor->year >= 0 && ctx.anchor->day < 0) {
      // "na véspera" of a month or a year: no finer than the anchor.
      if (ctx.anchor->month > 0) set_month(ctx.anchor->year, ctx.anchor->month);
      else set_year(ctx.anchor->year);
      return res;
    }
    if (f.hour >= 0 || !f.daypart.empty()) add_time(d);
    else set_day(d);
    return res;
  }

  // --- Weekdays: the nearest one, in the past unless the sentence speaks of the future.
  if (f.weekday > 0) {
    if (!base) {
      unresolved("XXXX-WXX-" + std::to_string(f.weekday), res.reference);
      return res;
    }
    const int today = iso_weekday(*base);
    int delta = f.weekday - today;  // -6..6
    const bool future = f.rel > 0 || (f.rel_kind == Facts::RelKind::None &&
                                      (ctx.direction > 0 ||
                                       (ctx.direction == 0 && sentence_tense(*lex_, ctx.folded, ctx.start, ctx.end) > 0)));
    if (f.rel_this && f.rel_kind == Facts::RelKind::Deictic) {
      // "esta sexta-feira": the one of the current week.
    } else if (f.rel < 0) {
      if (delta >= 0) delta -= 7;
    } else if (f.rel > 0) {
      if (delta <= 0) delta += 7;
    } else if (future) {
      if (delta < 0) delta += 7;
    } else if (delta > 0) {
      delta -= 7;
    }
    if (f.day > 0) {
      // "domingo, dia 8": trust the day number, in the month of the nearest weekday.
      Date guess = add_days(*base, delta);
      Date d{guess.year, guess.month, f.day};
      if (d.valid()) {
        set_day(d);
        if (f.hour >= 0 || !f.daypart.empty()) add_time(d);
        return res;
      }
    }
    Date d = add_days(*base, delta);
    if (f.hour >= 0 || !f.daypart.empty()) add_time(d);
    else set_day(d);
    return res;
  }

  // --- Quarters, halves and seasons without a year.
  if (f.quarter > 0 || f.half > 0 || !f.season.empty()) {
    std::optional<Anchor> a = anaphoric ? anchor_or_dct() : (have_dct ? std::optional<Anchor>(anchor_of(dct))
                                                                      : anchor_or_dct());
    if (!a) {
      unresolved(f.quarter > 0   ? "XXXX-Q" + std::to_string(f.quarter)
                 : f.half > 0    ? "XXXX-H" + std::to_string(f.half)
                                 : "XXXX-" + f.season,
                 res.reference);
      return res;
    }
    int y = a->year + f.rel * (f.rel_kind != Facts::RelKind::None && !f.rel_this ? 1 : 0);
    if (f.quarter > 0 && f.quarter <= 4) res.new_anchor = Anchor{y, (f.quarter - 1) * 3 + 1, -1, f.quarter};
    if (f.quarter > 0 && f.quarter <= 4) res.value = pad(y, 4) + "-Q" + std::to_string(f.quarter);
    else if (f.half > 0 && f.half <= 2) res.value = pad(y, 4) + "-H" + std::to_string(f.half);
    else res.value = pad(y, 4) + "-" + f.season;
    res.chronons = {Chronon::of_year(y)};
    return res;
  }

  // --- A clock time or a part of the day alone.
  if (f.hour >= 0 || !f.daypart.empty()) {
    std::optional<Date> d;
    if (ctx.anchor && ctx.anchor->day > 0) d = Date{ctx.anchor->year, ctx.anchor->month, ctx.anchor->day};
    else if (have_dct) d = dct;
    if (f.rel_this && have_dct) d = dct;
    add_time(d);
    if (!d) res.resolved = false;
    return res;
  }

  // --- A unit with a modifier: "ano passado", "próxima semana", "este mês", "no ano seguinte".
  if (!f.unit.empty()) {
    if (!base) {
      unresolved(f.unit == "Y" ? "XXXX" : f.unit == "M" ? "XXXX-XX" : f.unit == "W" ? "XXXX-WXX" : "XXXX-XX-XX",
                 res.reference);
      return res;
    }
    if (f.rel_kind == Facts::RelKind::None && !f.position.empty()) {
      // "fim do ano", "início do mês": the current one; "ao fim do dia"
      // after "ontem": the day under discussion.
      if (f.unit == "D" && ctx.anchor && ctx.anchor->day > 0) {
        set_day(Date{ctx.anchor->year, ctx.anchor->month, ctx.anchor->day});
        return res;
      }
      set_unit_value(*base, f.unit);
      return res;
    }
    if (f.rel_kind == Facts::RelKind::None || f.outer_year) {
      // A bare unit is the one under discussion ("o trimestre") when the text
      // has named one, else the current one ("o ano"); "trimestre homólogo do
      // ano passado" is that one moved by the year's modifier.
      Date b = *base;
      if (f.unit == "Q" && ctx.quarter)
        b = Date{ctx.quarter->year, ctx.quarter->month, 1};
      else if (ctx.anchor && ctx.anchor->year >= 0 && ((f.unit == "M" && ctx.anchor->month > 0) || f.unit == "Y"))
        b = Date{ctx.anchor->year, ctx.anchor->month > 0 ? ctx.anchor->month : 1, 1};
      if (f.outer_year) b = add_months(b, 12 * (f.rel_this ? 0 : f.rel));
      set_unit_value(b, f.unit);
      return res;
    }
    if (f.unit_plural) {
      res.value = f.rel < 0 ? "PAST_REF" : f.rel > 0 ? "FUTURE_REF" : "PRESENT_REF";
      res.reference = Reference::Vague;
      return res;
    }
    Date b = *base;
    if (f.unit == "Q" && anaphoric && ctx.quarter) b = Date{ctx.quarter->year, ctx.quarter->month, 1};  // "esse trimestre"
    set_unit_value(shift_unit(b, f.unit, f.rel), f.unit);
    return res;
  }

  if (!f.ref.empty()) {
    res.value = f.ref;
    res.reference = Reference::Vague;
    return res;
  }
  // "nessa altura", "na mesma data": the time under discussion.
  if (f.rel_kind == Facts::RelKind::Anaphoric && f.rel == 0 && ctx.anchor && ctx.anchor->year >= 0) {
    const Anchor& a = *ctx.anchor;
    if (a.day > 0) set_day(Date{a.year, a.month, a.day});
    else if (a.month > 0) set_month(a.year, a.month);
    else set_year(a.year);
    res.reference = Reference::Anaphoric;
    return res;
  }
  if ((f.after || f.before) && !f.quantified_unit) {  // "mais tarde", "antes": vague
    res.value = f.after ? "FUTURE_REF" : "PAST_REF";
    res.reference = Reference::Vague;
    return res;
  }
  if (f.rel_kind == Facts::RelKind::Deictic && f.rel_this) {
    res.value = "PRESENT_REF";
    res.reference = Reference::Vague;
    return res;
  }
  res.reject = true;
  return res;
}

}  // namespace cronista::temporal
