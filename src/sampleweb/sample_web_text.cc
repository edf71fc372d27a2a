// The text of the sample web's pages: template filling, slugs, date spans,
// and the sentences that state a fact's date (explicitly, relative to the
// sentence before, or relative to the page's own date) together with the
// periods they denote, so that a sentence and its truth cannot drift apart.
#include "sampleweb/sample_web_generator.h"

namespace cronista::sampleweb::gen {

std::string fill(const std::string& tmpl, const Vars& vars) {
  std::string out;
  out.reserve(tmpl.size() + 16);
  for (std::size_t i = 0; i < tmpl.size();) {
    if (tmpl[i] == '{') {
      const std::size_t close = tmpl.find('}', i);
      if (close != std::string::npos) {
        const std::string key = tmpl.substr(i + 1, close - i - 1);
        bool found = false;
        for (const auto& [k, v] : vars) {
          if (k == key) {
            out += v;
            found = true;
            break;
          }
        }
        if (found) {
          i = close + 1;
          continue;
        }
      }
    }
    out += tmpl[i++];
  }
  return out;
}

std::string upper_first(std::string s) {
  if (!s.empty() && s[0] >= 'a' && s[0] <= 'z') s[0] = static_cast<char>(s[0] - 'a' + 'A');
  return s;
}
std::string lower_first(std::string s) {
  if (!s.empty() && s[0] >= 'A' && s[0] <= 'Z') s[0] = static_cast<char>(s[0] - 'A' + 'a');
  return s;
}

// ASCII slug of a Portuguese title: accents folded, everything else a dash.
std::string slugify(std::string_view title) {
  static const std::vector<std::pair<std::string, char>> kFold = {
      {"á", 'a'}, {"à", 'a'}, {"â", 'a'}, {"ã", 'a'}, {"é", 'e'}, {"ê", 'e'}, {"í", 'i'}, {"ó", 'o'},
      {"ô", 'o'}, {"õ", 'o'}, {"ú", 'u'}, {"ü", 'u'}, {"ç", 'c'}, {"Á", 'a'}, {"É", 'e'}, {"Í", 'i'},
      {"Ó", 'o'}, {"Ú", 'u'}, {"Ç", 'c'}, {"À", 'a'}, {"Â", 'a'}, {"Ê", 'e'}, {"Ô", 'o'}, {"ö", 'o'}};
  std::string out;
  for (std::size_t i = 0; i < title.size();) {
    const unsigned char c = static_cast<unsigned char>(title[i]);
    char add = 0;
    std::size_t len = 1;
    if (std::isalnum(c) && c < 0x80) {
      add = static_cast<char>(std::tolower(c));
    } else if (c >= 0x80) {
      len = c >= 0xF0 ? 4 : c >= 0xE0 ? 3 : 2;
      for (const auto& [from, to] : kFold) {
        if (title.substr(i, from.size()) == from) {
          add = to;
          len = from.size();
          break;
        }
      }
    }
    if (add != 0) {
      out += add;
    } else if (!out.empty() && out.back() != '-') {
      out += '-';
    }
    i += len;
  }
  while (!out.empty() && out.back() == '-') out.pop_back();
  return out.empty() ? "pagina" : out;
}

std::string two(int v) { return (v < 10 ? "0" : "") + std::to_string(v); }

DaySpan day_span(const Date& d) { return {d, d}; }
DaySpan month_span(int y, int m) { return {Date{y, m, 1}, Date{y, m, temporal::days_in_month(y, m)}}; }
DaySpan year_span(int y) { return {Date{y, 1, 1}, Date{y, 12, 31}}; }

std::string iso(const Date& d) { return d.to_string(); }

Vars Generator::date_vars(const Date& d) const {
  const std::string& month = c_.months[static_cast<std::size_t>(d.month - 1)];
  return {{"d", std::to_string(d.day)}, {"dd", two(d.day)},      {"m", std::to_string(d.month)},
          {"mm", two(d.month)},         {"month", month},         {"Month", upper_first(month)},
          {"yyyy", std::to_string(d.year)}};
}

Sentence Generator::explicit_sentence(const Fact& f, bool allow_trailing) {
  Sentence s;
  const Date first = f.when.span.first, last = f.when.span.last;
  std::string form;
  Vars vars = date_vars(first);
  bool single = true;
  // The sentence states the date in a form of this grain, with this truth.
  const auto state = [&](const char* grain_name, DaySpan span, DateGrain grain) {
    form = rng_.pick(c_.forms.at(grain_name));
    s.periods.push_back(span);
    s.anchor_grain = grain;
  };
  switch (f.when.grain) {
    case DateGrain::Day: {
      const std::string md = two(first.month) + "-" + two(first.day);
      auto h = c_.holidays.find(md);
      const int roll = rng_.uniform(0, 99);
      if (h != c_.holidays.end() && roll < 50) {
        vars.push_back({"holiday", h->second});
        state("holiday", day_span(first), DateGrain::Day);
      } else if (roll < 85) {
        state("day", day_span(first), DateGrain::Day);
      } else if (roll < 93) {
        state("month", month_span(first.year, first.month), DateGrain::Month);
      } else {
        state("year", year_span(first.year), DateGrain::Year);
      }
      break;
    }
    case DateGrain::Month:
      if (rng_.percent(85)) {
        state("month", month_span(first.year, first.month), DateGrain::Month);
      } else {
        state("year", year_span(first.year), DateGrain::Year);
      }
      break;
    case DateGrain::Year:
      if (rng_.percent(92)) {
        state("year", year_span(first.year), DateGrain::Year);
      } else {
        const int decade = first.year - ((first.year % 10) + 10) % 10;
        form = rng_.pick(c_.forms.at("decade"));
        vars.push_back({"decade", std::to_string(decade)});
        s.periods.push_back({Date{decade, 1, 1}, Date{decade + 9, 12, 31}});
        single = false;
      }
      break;
    case DateGrain::YearRange:
      form = rng_.pick(c_.forms.at("years"));
      vars.push_back({"yyyy2", std::to_string(last.year)});
      s.periods.push_back(f.when.span);
      single = false;
      break;
    case DateGrain::DayRange: {
      form = rng_.pick(c_.forms.at("days"));
      const std::string& month2 = c_.months[static_cast<std::size_t>(last.month - 1)];
      vars.push_back({"d2", std::to_string(last.day)});
      vars.push_back({"month2", month2});
      vars.push_back({"yyyy2", std::to_string(last.year)});
      s.periods.push_back(f.when.span);
      single = false;
      break;
    }
  }
  const std::string when = fill(form, vars);
  if (single) s.anchor = first;
  if (single && allow_trailing && rng_.percent(30)) {
    s.text = upper_first(f.clause) + " " + lower_first(when) + ".";
  } else {
    s.text = when + ", " + f.clause + ".";
  }
  return s;
}

std::optional<Sentence> Generator::relative_sentence(const Sentence& anchor, const Fact& f) {
  if (!anchor.anchor) return std::nullopt;
  if (f.when.grain != DateGrain::Day && f.when.grain != DateGrain::Month && f.when.grain != DateGrain::Year)
    return std::nullopt;
  const Date a = *anchor.anchor, b = f.when.span.first;
  const int dy = b.year - a.year;
  Sentence s;
  std::string form;
  Vars vars = date_vars(b);
  auto number = [&](int n) -> bool {
    auto w = c_.number_words.find(n);
    if (w == c_.number_words.end()) return false;
    vars.push_back({"n", std::to_string(n)});
    vars.push_back({"nw", w->second});
    vars.push_back({"Nw", upper_first(w->second)});
    return true;
  };
  if (dy == 0) {
    const bool fine_anchor = anchor.anchor_grain == DateGrain::Day || anchor.anchor_grain == DateGrain::Month;
    if (anchor.anchor_grain == DateGrain::Day && f.when.grain == DateGrain::Day) {
      const int dd = b.day_number() - a.day_number();
      if (dd == 1) {
        form = rng_.pick(c_.forms.at("after-1-day"));
      } else if (dd > 1 && number(dd)) {
        form = rng_.pick(c_.forms.at("after-days"));
      }
      if (!form.empty()) s.periods.push_back(day_span(b));
    }
    if (form.empty() && fine_anchor && f.when.grain != DateGrain::Year && b.month > a.month) {
      form = rng_.pick(c_.forms.at("same-year-month"));
      s.periods.push_back(month_span(b.year, b.month));
    }
  } else if (dy == 1) {
    form = rng_.pick(c_.forms.at("after-1-year"));
    s.periods.push_back(year_span(b.year));
  } else if (dy == -1) {
    form = rng_.pick(c_.forms.at("before-1-year"));
    s.periods.push_back(year_span(b.year));
  } else if (dy > 1 && number(dy)) {
    form = rng_.pick(c_.forms.at("after-years"));
    s.periods.push_back(year_span(b.year));
  } else if (dy < -1 && number(-dy)) {
    form = rng_.pick(c_.forms.at("before-years"));
    s.periods.push_back(year_span(b.year));
  }
  if (form.empty()) return std::nullopt;
  s.text = fill(form, vars) + ", " + f.clause + ".";
  return s;
}

Sentence Generator::deictic_sentence(const std::string& section, const Date& dct, int years_back,
                                     const std::string& rest) {
  Sentence s;
  Vars vars;
  if (section == "yesterday") {
    s.periods.push_back(day_span(Date::from_day_number(dct.day_number() - 1)));
  } else if (section == "today") {
    s.periods.push_back(day_span(dct));
  } else {  // years-ago
    vars.push_back({"n", std::to_string(years_back)});
    s.periods.push_back(year_span(dct.year - years_back));
  }
  s.text = fill(rng_.pick(c_.forms.at(section)), vars) + ", " + rest + ".";
  return s;
}

std::string Generator::filler_text(int sentences) {
  std::string out;
  for (int i = 0; i < sentences; ++i) {
    if (i) out += ' ';
    out += rng_.pick(c_.filler);
  }
  return out;
}

}  // namespace cronista::sampleweb::gen
