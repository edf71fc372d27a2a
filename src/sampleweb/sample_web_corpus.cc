// Loading corpora/sample-web/: a few small line-oriented files, read whole.
#include "sampleweb/sample_web_corpus.h"

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <optional>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>

namespace cronista::sampleweb {
namespace {

using temporal::Date;

std::string trim(std::string_view s) {
  std::size_t b = 0, e = s.size();
  while (b < e && (s[b] == ' ' || s[b] == '\t' || s[b] == '\r')) ++b;
  while (e > b && (s[e - 1] == ' ' || s[e - 1] == '\t' || s[e - 1] == '\r')) --e;
  return std::string(s.substr(b, e - b));
}

std::vector<std::string> split(std::string_view s, std::string_view sep) {
  std::vector<std::string> out;
  std::size_t pos = 0;
  while (true) {
    std::size_t next = s.find(sep, pos);
    if (next == std::string_view::npos) {
      out.push_back(trim(s.substr(pos)));
      return out;
    }
    out.push_back(trim(s.substr(pos, next - pos)));
    pos = next + sep.size();
  }
}

Result<std::vector<std::string>> read_lines(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return Result<std::vector<std::string>>::Error("cannot open '" + path.string() + "': " + std::strerror(errno));
  std::vector<std::string> lines;
  std::string line;
  while (std::getline(in, line)) {
    if (!line.empty() && line.back() == '\r') line.pop_back();
    lines.push_back(line);
  }
  return lines;
}

// One end of a date spec: YYYY, YYYY-MM or YYYY-MM-DD; `last` widens to the end.
std::optional<std::pair<Date, DateGrain>> parse_end(std::string_view s, bool last) {
  auto num = [](std::string_view t, int& v) {
    if (t.empty()) return false;
    v = 0;
    for (char c : t) {
      if (c < '0' || c > '9') return false;
      v = v * 10 + (c - '0');
    }
    return true;
  };
  int y = 0, m = 0;
  if (s.size() == 4 && num(s, y)) {
    return std::make_pair(last ? Date{y, 12, 31} : Date{y, 1, 1}, DateGrain::Year);
  }
  if (s.size() == 7 && s[4] == '-' && num(s.substr(0, 4), y) && num(s.substr(5, 2), m) && m >= 1 && m <= 12) {
    return std::make_pair(last ? Date{y, m, temporal::days_in_month(y, m)} : Date{y, m, 1}, DateGrain::Month);
  }
  if (auto date = Date::parse(s)) return std::make_pair(*date, DateGrain::Day);
  return std::nullopt;
}

bool starts_with(std::string_view s, std::string_view p) { return s.substr(0, p.size()) == p; }

}  // namespace

Result<DateSpec> DateSpec::parse(std::string_view text) {
  const std::string t = trim(text);
  const std::size_t dots = t.find("..");
  DateSpec spec;
  if (dots == std::string::npos) {
    auto a = parse_end(t, false), b = parse_end(t, true);
    if (!a || !b) return Result<DateSpec>::Error("bad date '" + t + "'");
    spec.span = {a->first, b->first};
    spec.grain = a->second;
    return spec;
  }
  auto a = parse_end(std::string_view(t).substr(0, dots), false);
  auto b = parse_end(std::string_view(t).substr(dots + 2), true);
  if (!a || !b || b->first < a->first) return Result<DateSpec>::Error("bad date range '" + t + "'");
  spec.span = {a->first, b->first};
  spec.grain = (a->second == DateGrain::Year && b->second == DateGrain::Year) ? DateGrain::YearRange : DateGrain::DayRange;
  return spec;
}

const std::string& SampleCorpus::site_text(const std::string& site, const std::string& key) const {
  static const std::string kEmpty;
  for (const std::string& name : {site, std::string("default")}) {
    auto s = sites.find(name);
    if (s == sites.end()) continue;
    auto k = s->second.find(key);
    if (k != s->second.end()) return k->second;
  }
  return kEmpty;
}

Result<SampleCorpus> SampleCorpus::load(const std::string& dir) {
  namespace fs = std::filesystem;
  SampleCorpus c;
  auto where = [](const fs::path& p, std::size_t line) { return p.string() + ":" + std::to_string(line + 1) + ": "; };

  // forms.txt: [section] then one entry per line.
  const fs::path forms_path = fs::path(dir) / "forms.txt";
  auto forms = read_lines(forms_path);
  if (!forms) return forms.status();
  std::string section;
  for (std::size_t i = 0; i < forms->size(); ++i) {
    const std::string line = trim((*forms)[i]);
    if (line.empty() || line[0] == '#') continue;
    if (line.front() == '[' && line.back() == ']') {
      section = line.substr(1, line.size() - 2);
      continue;
    }
    if (section.empty()) return Result<SampleCorpus>::Error(where(forms_path, i) + "entry outside a [section]");
    if (section == "months") {
      c.months.push_back(line);
    } else if (section == "numbers") {
      const std::size_t sp = line.find(' ');
      if (sp == std::string::npos) return Result<SampleCorpus>::Error(where(forms_path, i) + "expected '<number> <words>'");
      c.number_words[std::atoi(line.substr(0, sp).c_str())] = trim(line.substr(sp + 1));
    } else if (section == "holidays") {
      if (line.size() < 7 || line[2] != '-' || line[5] != ' ')
        return Result<SampleCorpus>::Error(where(forms_path, i) + "expected 'MM-DD <name>'");
      c.holidays[line.substr(0, 5)] = trim(line.substr(6));
    } else {
      c.forms[section].push_back(line);
    }
  }
  if (c.months.size() != 12) return Result<SampleCorpus>::Error(forms_path.string() + ": [months] must list 12 names");
  for (const char* needed : {"day", "month", "year", "decade", "holiday", "years", "days", "after-1-year", "after-years",
                             "before-1-year", "before-years", "same-year-month", "after-1-day", "after-days",
                             "yesterday", "today", "years-ago"}) {
    if (c.forms[needed].empty()) return Result<SampleCorpus>::Error(forms_path.string() + ": missing section [" + needed + "]");
  }

  // filler.txt: one sentence per line.
  const fs::path filler_path = fs::path(dir) / "filler.txt";
  auto filler = read_lines(filler_path);
  if (!filler) return filler.status();
  for (const std::string& l : *filler) {
    std::string line = trim(l);
    if (!line.empty() && line[0] != '#') c.filler.push_back(line);
  }
  if (c.filler.size() < 4) return Result<SampleCorpus>::Error(filler_path.string() + ": needs at least 4 sentences");

  // sites.txt: [site NAME] with key = value, other [lists] with sentences.
  const fs::path sites_path = fs::path(dir) / "sites.txt";
  auto sites = read_lines(sites_path);
  if (!sites) return sites.status();
  section.clear();
  for (std::size_t i = 0; i < sites->size(); ++i) {
    const std::string line = trim((*sites)[i]);
    if (line.empty() || line[0] == '#') continue;
    if (line.front() == '[' && line.back() == ']') {
      section = line.substr(1, line.size() - 2);
      continue;
    }
    if (starts_with(section, "site ")) {
      const std::size_t eq = line.find(" = ");
      if (eq == std::string::npos) return Result<SampleCorpus>::Error(where(sites_path, i) + "expected 'key = value'");
      c.sites[section.substr(5)][line.substr(0, eq)] = trim(line.substr(eq + 3));
    } else if (!section.empty()) {
      c.sentences[section].push_back(line);
    } else {
      return Result<SampleCorpus>::Error(where(sites_path, i) + "entry outside a [section]");
    }
  }

  // facts/*.txt, in name order.
  std::vector<fs::path> fact_files;
  std::error_code ec;
  for (const auto& e : fs::directory_iterator(fs::path(dir) / "facts", ec))
    if (e.path().extension() == ".txt") fact_files.push_back(e.path());
  if (ec) return Result<SampleCorpus>::Error("cannot list '" + (fs::path(dir) / "facts").string() + "': " + ec.message());
  std::sort(fact_files.begin(), fact_files.end());
  if (fact_files.empty()) return Result<SampleCorpus>::Error("no fact files in '" + (fs::path(dir) / "facts").string() + "'");

  auto has_date_word = [&](const std::string& s) {
    for (char ch : s)
      if (ch >= '0' && ch <= '9') return true;
    std::string lower = s;
    for (char& ch : lower) ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
    for (const std::string& m : c.months) {
      std::size_t p = lower.find(m);
      while (p != std::string::npos) {
        const bool left = p == 0 || !std::isalpha(static_cast<unsigned char>(lower[p - 1]));
        const bool right = p + m.size() >= lower.size() || !std::isalpha(static_cast<unsigned char>(lower[p + m.size()]));
        if (left && right) return true;
        p = lower.find(m, p + 1);
      }
    }
    return false;
  };

  for (const fs::path& path : fact_files) {
    auto lines = read_lines(path);
    if (!lines) return lines.status();
    FactFile file;
    file.name = path.stem().string();
    file.category = file.name;
    const int file_index = static_cast<int>(c.files.size());
    for (std::size_t i = 0; i < lines->size(); ++i) {
      const std::string line = trim((*lines)[i]);
      if (line.empty() || line[0] == '#') continue;
      if (starts_with(line, "@category ")) {
        file.category = trim(line.substr(10));
      } else if (starts_with(line, "@weight ")) {
        file.weight = std::atoi(line.substr(8).c_str());
        if (file.weight < 0) return Result<SampleCorpus>::Error(where(path, i) + "weight must be >= 0");
      } else if (starts_with(line, "@variant ")) {
        file.variant = trim(line.substr(9));
      } else if (line[0] == '=') {
        const std::size_t bar = line.find(" | ");
        if (bar == std::string::npos) return Result<SampleCorpus>::Error(where(path, i) + "expected '= PERIODS | text'");
        FreeParagraph fp;
        fp.file = file_index;
        for (const std::string& p : split(std::string_view(line).substr(1, bar - 1), ";")) {
          auto spec = DateSpec::parse(p);
          if (!spec) return Result<SampleCorpus>::Error(where(path, i) + spec.status().message());
          fp.periods.push_back(spec->span);
        }
        fp.text = trim(line.substr(bar + 3));
        c.free.push_back(std::move(fp));
      } else {
        auto parts = split(line, " | ");
        if (parts.size() != 3) return Result<SampleCorpus>::Error(where(path, i) + "expected 'DATE | title | clause'");
        auto spec = DateSpec::parse(parts[0]);
        if (!spec) return Result<SampleCorpus>::Error(where(path, i) + spec.status().message());
        if (has_date_word(parts[1]))
          return Result<SampleCorpus>::Error(where(path, i) + "a title must not contain digits or month names: '" + parts[1] + "'");
        c.facts.push_back(Fact{*spec, parts[1], parts[2], file_index});
      }
    }
    c.files.push_back(std::move(file));
  }
  std::stable_sort(c.facts.begin(), c.facts.end(), [](const Fact& a, const Fact& b) {
    if (a.when.span.mid() != b.when.span.mid()) return a.when.span.mid() < b.when.span.mid();
    return a.title < b.title;
  });
  std::stable_sort(c.free.begin(), c.free.end(), [](const FreeParagraph& a, const FreeParagraph& b) {
    return a.periods.front().mid() < b.periods.front().mid();
  });
  if (c.facts.size() < 10) return Result<SampleCorpus>::Error("'" + dir + "' holds fewer than 10 facts");
  return c;
}

}  // namespace cronista::sampleweb
