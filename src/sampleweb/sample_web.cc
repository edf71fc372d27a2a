// Generating the sample web (see sample_web.h and docs/sample-web.md).
//
// Approach: first decide every page (site, kind, the fact it is about, its
// publication date, its path), then write each page's HTML and, beside it,
// the truth: the sections of the page (paragraphs, list items, page
// furniture) with the periods their text states and the links they hold.
// A sentence and its truth come from the same call, so they cannot drift
// apart: `explicit_sentence` picks a date form from forms.txt and returns the
// text together with the day span that form denotes ("Em junho de 1944" →
// 1944-06-01…1944-06-30, whatever the fact's exact day).
//
// Locality: pages are ordered by the middle of their fact's date; a link in
// a paragraph goes, most of the time, to a page whose date lies within a
// year of the paragraph's, so a crawler that follows only in-scope
// paragraphs stays near the scope. Furniture links go anywhere.
#include "sampleweb/sample_web.h"
#include "sampleweb/sample_web_noise.h"

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <optional>
#include <set>
#include <sstream>

#include <nlohmann/json.hpp>

#include "sampleweb/sample_web_corpus.h"
#include "temporal/tagger.h"
#include "temporal/xml_escape.h"

namespace cronista::sampleweb {

std::string default_sample_corpora_dir() { return temporal::default_home() + "/corpora/sample-web"; }

namespace {

namespace fs = std::filesystem;
using temporal::Date;
using temporal::DayNumber;

// splitmix64: small, fast, and the same numbers on every platform (the
// standard distributions are not).
class Rng {
 public:
  explicit Rng(std::uint64_t seed) : state_(seed * 0x9E3779B97F4A7C15ULL + 0x632BE59BD9B4E019ULL) {}
  std::uint64_t next() {
    std::uint64_t z = (state_ += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
  }
  // Uniform in [lo, hi].
  int uniform(int lo, int hi) {
    if (hi <= lo) return lo;
    return lo + static_cast<int>(next() % static_cast<std::uint64_t>(hi - lo + 1));
  }
  bool percent(int p) { return uniform(0, 99) < p; }
  template <typename T>
  const T& pick(const std::vector<T>& v) {
    return v[static_cast<std::size_t>(uniform(0, static_cast<int>(v.size()) - 1))];
  }

 private:
  std::uint64_t state_;
};

enum Site { kEnc = 0, kJornal, kFolha, kBlog, kHemeroteca, kCalendario, kPortal, kSiteCount };
constexpr const char* kSiteName[kSiteCount] = {"enciclopedia", "jornal", "folha", "blog",
                                                "hemeroteca", "calendario", "portal"};
// Share of the content pages each site holds (the calendar and the portal
// have none of their own).
constexpr int kSiteWeight[kSiteCount] = {40, 20, 14, 12, 14, 0, 0};

enum class Kind {
  Article, News, Anniversary, Post, Edition,  // content pages, about one fact
  YearPage, YearIndex, Archive, ArchiveIndex, Home, ListPage, Directory, DirectoryIndex,
  Holidays, About, Disallowed, Huge, ServerError
};

bool is_content(Kind k) {
  return k == Kind::Article || k == Kind::News || k == Kind::Anniversary || k == Kind::Post || k == Kind::Edition;
}

struct Page {
  int site = 0;
  Kind kind = Kind::Article;
  std::string path;
  std::string title;
  int fact = -1;
  DayNumber center = 0;
  std::optional<Date> dct;
  int year = 0;       // year and archive pages
  int category = -1;  // directory pages: fact file
  int years_ago = 0;  // anniversaries
  bool disallowed = false;
  bool malformed = false;
  bool bad_utf8 = false;
  int status = 200;
  std::vector<int> items;  // pages listed by index pages
  std::string label;       // list pages: their heading
};

// A page of a site with its kind, path and title; the rest keeps its defaults.
Page make_page(int site, Kind kind, std::string path, std::string title) {
  Page p;
  p.site = site;
  p.kind = kind;
  p.path = std::move(path);
  p.title = std::move(title);
  return p;
}

struct Section {
  std::vector<DaySpan> periods;
  bool boilerplate = false;
  std::vector<std::string> links;  // canonical absolute URLs, as linked (redirects not followed)
};

struct Sentence {
  std::string text;
  std::vector<DaySpan> periods;
  // The single date the sentence states, for a following anaphoric sentence.
  std::optional<Date> anchor;
  DateGrain anchor_grain = DateGrain::Day;
};

// A rendered block of HTML and its truth.
struct Block {
  std::string html;
  Section section;
  bool counted = true;  // false for blocks that state nothing and link nowhere
};

// Non-page URLs the truth knows: redirects and deliberate 404s.
struct Extra {
  int site = 0;
  std::string path;
  int status = 301;
  std::string location;  // absolute, for redirects
};

using Vars = std::vector<std::pair<std::string, std::string>>;

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

// UTF-8 → ISO-8859-1; characters outside Latin-1 become '?'.
std::string to_latin1(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  for (std::size_t i = 0; i < s.size();) {
    const unsigned char c = static_cast<unsigned char>(s[i]);
    if (c < 0x80) {
      out += static_cast<char>(c);
      ++i;
    } else if ((c & 0xE0) == 0xC0 && i + 1 < s.size()) {
      const unsigned cp = ((c & 0x1Fu) << 6) | (static_cast<unsigned char>(s[i + 1]) & 0x3Fu);
      out += cp <= 0xFF ? static_cast<char>(cp) : '?';
      i += 2;
    } else {
      out += '?';
      i += (c & 0xF0) == 0xE0 ? 3 : (c & 0xF8) == 0xF0 ? 4 : 1;
    }
  }
  return out;
}

std::string two(int v) { return (v < 10 ? "0" : "") + std::to_string(v); }

DaySpan day_span(const Date& d) { return {d, d}; }
DaySpan month_span(int y, int m) { return {Date{y, m, 1}, Date{y, m, temporal::days_in_month(y, m)}}; }
DaySpan year_span(int y) { return {Date{y, 1, 1}, Date{y, 12, 31}}; }

std::string iso(const Date& d) { return d.to_string(); }

class Generator {
 public:
  Generator(const SampleCorpus& corpus, const SampleWebOptions& options)
      : c_(corpus), o_(options), rng_(options.seed) {}

  Result<SampleWebSummary> run();

 private:
  // Planning.
  int pick_fact();
  bool plan_content_page(int site);
  void plan_structure();
  std::string unique_path(int site, const std::string& path);
  int add_page(Page p);

  // Text.
  Vars date_vars(const Date& d) const;
  Sentence explicit_sentence(const Fact& f, bool allow_trailing);
  std::optional<Sentence> relative_sentence(const Sentence& anchor, const Fact& f);
  Sentence deictic_sentence(const std::string& form_section, const Date& dct, int days_back, const std::string& rest);
  std::string filler_text(int sentences);

  // Links.
  std::string base(int site) const { return "http://" + authority(site); }
  std::string authority(int site) const {
    return "127.0.0." + std::to_string(o_.first_host + site) + ":" + std::to_string(o_.port);
  }
  std::string url(int page) const { return base(pages_[page].site) + pages_[page].path; }
  int near_page(DayNumber mid);
  int random_content_page(int site = -1);
  std::string link_url(int target);  // may create a redirect or a 404
  std::string href(int from_page, const std::string& absolute);
  std::string anchor(int from_page, const std::string& absolute, const std::string& text) {
    return "<a href=\"" + temporal::xml_escape(href(from_page, absolute)) + "\">" + temporal::xml_escape(text) + "</a>";
  }
  void add_links(int page, Block& b, const std::vector<DaySpan>& periods, int count);

  // Rendering.
  std::vector<Block> furniture_top(int page);
  std::vector<Block> furniture_bottom(int page);
  std::vector<Block> content_blocks(int page);
  std::vector<Block> index_blocks(int page);
  std::string render(int page, std::vector<Section>* truth);
  std::string trap_template(std::vector<Section>* truth_template);

  Status write_all(SampleWebSummary* summary);

  const SampleCorpus& c_;
  const SampleWebOptions& o_;
  Rng rng_;
  std::vector<Page> pages_;
  std::vector<int> content_by_center_;  // content page ids sorted by center
  std::vector<int> content_of_site_[kSiteCount];
  std::vector<int> articles_of_fact_;   // first encyclopedia article of each fact, or -1
  std::map<int, int> year_page_;        // year → encyclopedia year page
  std::map<std::string, int> path_index_[kSiteCount];
  std::vector<Extra> extras_;
  std::map<std::string, std::string> alias_of_;  // target URL → redirect source already made
  std::vector<int> fact_picks_;                  // weighted list of fact indices
  int jump_counter_ = 0;
  std::map<int, int> articles_per_fact_;
};

int Generator::pick_fact() { return rng_.pick(fact_picks_); }

int Generator::add_page(Page p) {
  path_index_[p.site][p.path] = static_cast<int>(pages_.size());
  pages_.push_back(std::move(p));
  return static_cast<int>(pages_.size()) - 1;
}

std::string Generator::unique_path(int site, const std::string& path) {
  if (!path_index_[site].count(path)) return path;
  // Insert a counter before the extension, or at the end.
  const std::size_t slash = path.find_last_of('/');
  const std::size_t dot = path.find('.', slash == std::string::npos ? 0 : slash);
  const bool trailing_slash = !path.empty() && path.back() == '/';
  for (int n = 2;; ++n) {
    std::string candidate;
    if (trailing_slash) {
      candidate = path.substr(0, path.size() - 1) + "-" + std::to_string(n) + "/";
    } else if (dot != std::string::npos) {
      candidate = path.substr(0, dot) + "-" + std::to_string(n) + path.substr(dot);
    } else {
      candidate = path + "-" + std::to_string(n);
    }
    if (!path_index_[site].count(candidate)) return candidate;
  }
}

bool Generator::plan_content_page(int site) {
  static const Date kOnlineFirst{1996, 1, 2}, kOnlineLast{2024, 12, 30};
  for (int attempt = 0; attempt < 60; ++attempt) {
    const int fi = pick_fact();
    const Fact& f = c_.facts[static_cast<std::size_t>(fi)];
    const Date first = f.when.span.first;
    Page p;
    p.site = site;
    p.fact = fi;
    p.center = f.when.span.mid();
    const std::string slug = slugify(f.title);
    switch (site) {
      case kEnc: {
        p.kind = Kind::Article;
        const int n = articles_per_fact_[fi]++;
        p.title = f.title;
        if (n > 0) {
          std::vector<std::string> q;
          std::stringstream ss(c_.site_text("enciclopedia", "qualifiers"));
          for (std::string item; std::getline(ss, item, '|');) q.push_back(item);
          if (q.empty()) q.push_back("2");
          const std::size_t k = static_cast<std::size_t>(n - 1);
          p.title += " — " + q[k % q.size()];
          if (k >= q.size()) p.title += ", " + q[(k / q.size()) % q.size()];
        }
        p.path = unique_path(site, "/wiki/" + slugify(p.title));
        break;
      }
      case kJornal:
      case kFolha: {
        std::vector<std::string> patterns;
        std::stringstream ss(c_.site_text(kSiteName[site], "title_patterns"));
        for (std::string item; std::getline(ss, item, '|');) patterns.push_back(item);
        if (f.when.grain == DateGrain::Day && first >= kOnlineFirst && first <= kOnlineLast && rng_.percent(75)) {
          p.kind = Kind::News;
          p.dct = Date::from_day_number(first.day_number() + 1);
          p.title = f.title;
        } else {
          if (f.when.grain == DateGrain::DayRange || f.when.grain == DateGrain::YearRange) continue;
          std::vector<int> choices;
          for (int k : {10, 20, 25, 30, 40, 50, 60, 70, 75, 80, 100}) {
            const int y = first.year + k;
            if (y >= 1996 && y <= 2024) choices.push_back(k);
          }
          if (choices.empty()) continue;
          p.kind = Kind::Anniversary;
          p.years_ago = rng_.pick(choices);
          const int y = first.year + p.years_ago;
          const int m = f.when.grain == DateGrain::Year ? rng_.uniform(1, 12) : first.month;
          const int d = f.when.grain == DateGrain::Day ? std::min(first.day, temporal::days_in_month(y, m))
                                                       : rng_.uniform(1, 28);
          p.dct = Date{y, m, d};
          p.title = fill(patterns.size() > 1 ? patterns[static_cast<std::size_t>(rng_.uniform(1, static_cast<int>(patterns.size()) - 1))]
                                             : "{title}",
                         {{"title", f.title}});
        }
        const Date& dct = *p.dct;
        std::string path = site == kJornal ? "/" + std::to_string(dct.year) + "/" + two(dct.month) + "/" + two(dct.day) +
                                                 "/" + slug + ".html"
                                           : "/" + std::to_string(dct.year) + "/" + two(dct.month) + "/" + slug + ".shtml";
        if (site == kJornal && rng_.percent(4)) {
          path = "/assinantes" + path;
          p.disallowed = true;
        }
        p.path = unique_path(site, path);
        break;
      }
      case kBlog: {
        p.kind = Kind::Post;
        const DayNumber lo = Date{2008, 1, 1}.day_number(), hi = Date{2024, 12, 31}.day_number();
        const DayNumber from = std::max(lo, f.when.span.last.day_number() + 2);
        if (from > hi) continue;
        p.dct = Date::from_day_number(rng_.uniform(from, hi));
        std::vector<std::string> patterns;
        std::stringstream ss(c_.site_text("blog", "title_patterns"));
        for (std::string item; std::getline(ss, item, '|');) patterns.push_back(item);
        p.title = fill(patterns.empty() ? "{title}" : rng_.pick(patterns), {{"title", f.title}});
        p.path = unique_path(site, "/" + std::to_string(p.dct->year) + "/" + two(p.dct->month) + "/" + slug + "/");
        break;
      }
      case kHemeroteca: {
        if (f.when.grain != DateGrain::Day || first.year < 1850 || first.year >= 1990) continue;
        p.kind = Kind::Edition;
        p.dct = Date::from_day_number(first.day_number() + 1);
        std::vector<std::string> papers;
        std::stringstream ss(c_.site_text("hemeroteca", "newspapers"));
        for (std::string item; std::getline(ss, item, '|');) papers.push_back(item);
        p.title = f.title + " - " + (papers.empty() ? std::string("Jornal") : rng_.pick(papers));
        p.path = unique_path(site, "/jornal/" + std::to_string(p.dct->year) + "/" + two(p.dct->month) + "/" +
                                       two(p.dct->day) + "/pagina-1.html");
        break;
      }
      default:
        return false;
    }
    add_page(std::move(p));
    return true;
  }
  return false;
}

void Generator::plan_structure() {
  // Homes.
  for (int s = 0; s < kSiteCount; ++s) {
    Page home = make_page(s, Kind::Home, "/", c_.site_text(kSiteName[s], "title"));
    add_page(home);
  }
  // Encyclopedia: year pages for every year of a day/month/year-dated article.
  std::map<int, std::vector<int>> enc_by_year;
  for (int id : content_of_site_[kEnc]) {
    const Fact& f = c_.facts[static_cast<std::size_t>(pages_[id].fact)];
    if (f.when.grain == DateGrain::Day || f.when.grain == DateGrain::Month) enc_by_year[f.when.span.first.year].push_back(id);
  }
  Page years = make_page(kEnc, Kind::YearIndex, "/wiki/anos", c_.site_text("enciclopedia", "year_title"));
  const int years_id = add_page(years);
  for (auto& [y, ids] : enc_by_year) {
    Page p;
    p.site = kEnc;
    p.kind = Kind::YearPage;
    p.year = y;
    p.path = "/wiki/ano/" + std::to_string(y);
    p.title = std::to_string(y);
    p.center = year_span(y).mid();
    // One line per fact, the first article about it.
    std::set<int> facts_seen;
    for (int id : ids)
      if (facts_seen.insert(pages_[id].fact).second) p.items.push_back(id);
    std::stable_sort(p.items.begin(), p.items.end(), [&](int a, int b) {
      return c_.facts[static_cast<std::size_t>(pages_[a].fact)].when.span.first <
             c_.facts[static_cast<std::size_t>(pages_[b].fact)].when.span.first;
    });
    year_page_[y] = add_page(p);
    pages_[years_id].items.push_back(year_page_[y]);
  }
  // Encyclopedia furniture: search (disallowed), random article (redirect), the huge page.
  Page search = make_page(kEnc, Kind::Disallowed, "/especial/pesquisa", c_.site_text("enciclopedia", "search_title"));
  search.disallowed = true;
  add_page(search);
  Page huge = make_page(kEnc, Kind::Huge, "/wiki/cronologia-completa", c_.site_text("enciclopedia", "huge_title"));
  add_page(huge);
  if (!content_of_site_[kEnc].empty())
    extras_.push_back({kEnc, "/especial/aleatorio", 302, url(rng_.pick(content_of_site_[kEnc]))});

  // Archives by publication year (news, blog, newspaper archive).
  struct ArchiveSpec {
    int site;
    const char* index;
    const char* prefix;
  };
  for (const ArchiveSpec& a : {ArchiveSpec{kJornal, "/arquivo/", "/arquivo/"}, ArchiveSpec{kFolha, "/memoria/", "/memoria/"},
                               ArchiveSpec{kBlog, "/arquivo/", "/arquivo/"}, ArchiveSpec{kHemeroteca, "/titulos/", "/ano/"}}) {
    std::map<int, std::vector<int>> by_year;
    for (int id : content_of_site_[a.site])
      if (!pages_[id].disallowed) by_year[pages_[id].dct->year].push_back(id);
    Page index = make_page(a.site, Kind::ArchiveIndex, a.index, c_.site_text(kSiteName[a.site], "archive_title"));
    const int index_id = add_page(index);
    for (auto& [y, ids] : by_year) {
      std::sort(ids.begin(), ids.end(), [&](int x, int z) {
        return std::make_pair(*pages_[x].dct, pages_[x].path) < std::make_pair(*pages_[z].dct, pages_[z].path);
      });
      Page p;
      p.site = a.site;
      p.kind = Kind::Archive;
      p.year = y;
      p.path = std::string(a.prefix) + std::to_string(y) + "/";
      p.title = c_.site_text(kSiteName[a.site], "archive_title");
      p.items = ids;
      const int archive_id = add_page(p);  // may reallocate pages_: add first, then index
      pages_[index_id].items.push_back(archive_id);
    }
  }
  // Section pages of the news sites and the blog's tags: plain lists.
  auto list_page = [&](int site, const std::string& path, const std::string& label) {
    Page p = make_page(site, Kind::ListPage, path, label);
    p.label = label;
    for (int i = 0; i < 20 && !content_of_site_[site].empty(); ++i) p.items.push_back(random_content_page(site));
    add_page(p);
  };
  auto nav_labels = [&](int site) {
    std::vector<std::string> out;
    std::stringstream ss(c_.site_text(kSiteName[site], "nav"));
    for (std::string item; std::getline(ss, item, '|');) out.push_back(item);
    return out;
  };
  {
    auto l = nav_labels(kJornal);
    for (std::size_t i = 1; i + 2 < l.size(); ++i) list_page(kJornal, "/seccao/" + slugify(l[i]), l[i]);
    l = nav_labels(kFolha);
    for (std::size_t i = 1; i + 2 < l.size(); ++i) list_page(kFolha, "/secao/" + slugify(l[i]), l[i]);
    l = nav_labels(kBlog);
    if (l.size() > 2) list_page(kBlog, "/etiquetas", l[2]);
  }
  Page about = make_page(kBlog, Kind::About, "/sobre", c_.site_text("blog", "about"));
  add_page(about);
  for (int i = 1; i <= 3; ++i) {
    Page draft =
        make_page(kBlog, Kind::Disallowed, "/rascunhos/" + std::to_string(i) + "/", c_.site_text("blog", "draft_title"));
    draft.disallowed = true;
    add_page(draft);
  }
  // Calendar: the holidays page (the endless months are served from a template).
  Page holidays = make_page(kCalendario, Kind::Holidays, "/feriados", c_.site_text("calendario", "holidays_title"));
  holidays.year = 2024;
  add_page(holidays);
  // Portal: a directory by category, linking through redirect chains.
  Page dir_index = make_page(kPortal, Kind::DirectoryIndex, "/diretorio/", c_.site_text("portal", "title"));
  const int dir_index_id = add_page(dir_index);
  const int directory_pages = std::max(static_cast<int>(c_.files.size()), o_.pages / 50);
  std::map<int, std::vector<int>> content_by_file;
  for (int id : content_by_center_) content_by_file[c_.facts[static_cast<std::size_t>(pages_[id].fact)].file].push_back(id);
  for (int i = 0; i < directory_pages; ++i) {
    const int file = i % static_cast<int>(c_.files.size());
    Page p;
    p.site = kPortal;
    p.kind = Kind::Directory;
    p.category = file;
    p.title = c_.files[static_cast<std::size_t>(file)].category;
    p.path = "/diretorio/" + c_.files[static_cast<std::size_t>(file)].name + "/" +
             std::to_string(i / static_cast<int>(c_.files.size()) + 1);
    const auto& pool = content_by_file[file];
    for (int k = 0; k < 20 && !pool.empty(); ++k) p.items.push_back(rng_.pick(pool));
    const int directory_id = add_page(p);
    pages_[dir_index_id].items.push_back(directory_id);
  }
  Page error = make_page(kPortal, Kind::ServerError, "/novidades", c_.site_text("portal", "error_title"));
  error.status = 500;
  add_page(error);
  Page old = make_page(kPortal, Kind::ListPage, "/antigo", c_.site_text("portal", "tagline"));
  old.label = old.title;
  old.malformed = true;
  for (int i = 0; i < 15 && !content_by_center_.empty(); ++i) old.items.push_back(random_content_page());
  add_page(old);
}

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

int Generator::near_page(DayNumber mid) {
  const DayNumber t = mid + rng_.uniform(-365, 365);
  auto it = std::lower_bound(content_by_center_.begin(), content_by_center_.end(), t,
                             [&](int id, DayNumber v) { return pages_[id].center < v; });
  if (it == content_by_center_.end()) --it;
  const DayNumber c = pages_[*it].center;
  auto lo = std::lower_bound(content_by_center_.begin(), content_by_center_.end(), c,
                             [&](int id, DayNumber v) { return pages_[id].center < v; });
  auto hi = std::upper_bound(content_by_center_.begin(), content_by_center_.end(), c,
                             [&](DayNumber v, int id) { return v < pages_[id].center; });
  return *(lo + rng_.uniform(0, static_cast<int>(hi - lo) - 1));
}

int Generator::random_content_page(int site) {
  if (site >= 0 && !content_of_site_[site].empty()) return rng_.pick(content_of_site_[site]);
  return rng_.pick(content_by_center_);
}

std::string Generator::link_url(int target) {
  const std::string final_url = url(target);
  const Page& t = pages_[target];
  const int roll = rng_.uniform(0, 999);
  if (roll < 10) {
    // A link to a page that was removed: 404.
    Extra e{t.site, "", 404, ""};
    e.path = unique_path(t.site, t.path.back() == '/' ? t.path + "removido" : t.path + "-removido");
    path_index_[t.site][e.path] = -1;
    extras_.push_back(e);
    return base(t.site) + e.path;
  }
  if (roll < 50 && t.kind == Kind::Article) {
    // An old address: /artigo/<slug> → 301 → /wiki/<slug>.
    auto known = alias_of_.find(final_url);
    if (known != alias_of_.end()) return known->second;
    const std::string path = "/artigo/" + t.path.substr(std::string("/wiki/").size());
    extras_.push_back({t.site, path, 301, final_url});
    path_index_[t.site][path] = -1;
    return alias_of_[final_url] = base(t.site) + path;
  }
  if (roll < 70 && (t.kind == Kind::News || t.kind == Kind::Anniversary) && !t.disallowed) {
    // A short link through two redirects: /n/<id> → 302 → /r/<id> → 301 → the article.
    const std::string id = std::to_string(++jump_counter_);
    extras_.push_back({t.site, "/r/" + id, 301, final_url});
    extras_.push_back({t.site, "/n/" + id, 302, base(t.site) + "/r/" + id});
    return base(t.site) + "/n/" + id;
  }
  return final_url;
}

std::string Generator::href(int from_page, const std::string& absolute) {
  const Page& from = pages_[from_page];
  const std::string own = base(from.site);
  const int roll = rng_.uniform(0, 99);
  if (absolute.compare(0, own.size(), own) != 0 || absolute.size() == own.size() || absolute[own.size()] != '/') {
    return roll < 5 ? absolute + "#topo" : absolute;
  }
  const std::string path = absolute.substr(own.size());
  if (roll < 55) return path;
  if (roll < 80) return absolute;
  if (roll < 90) return path + "#seccao";
  // Relative to the current folder when both live in the same one.
  const std::size_t a = from.path.find_last_of('/'), b = path.find_last_of('/');
  if (a == b && from.path.compare(0, a + 1, path, 0, b + 1) == 0 && b + 1 < path.size()) return path.substr(b + 1);
  return path;
}

void Generator::add_links(int page, Block& b, const std::vector<DaySpan>& periods, int count) {
  if (count <= 0 || content_by_center_.empty()) return;
  std::vector<std::string> anchors;
  std::set<int> used;
  for (int i = 0; i < count; ++i) {
    int target;
    if (periods.empty() || rng_.percent(12)) {
      target = random_content_page();
    } else {
      const DaySpan& p = periods[static_cast<std::size_t>(rng_.uniform(0, static_cast<int>(periods.size()) - 1))];
      if (rng_.percent(8) && p.first.year == p.last.year && year_page_.count(p.first.year)) {
        // The year page, with the year as anchor: the year joins the paragraph's periods.
        target = year_page_[p.first.year];
        if (!used.insert(target).second) continue;
        const std::string u = url(target);
        anchors.push_back(anchor(page, u, pages_[target].title));
        b.section.links.push_back(u);
        b.section.periods.push_back(year_span(p.first.year));
        continue;
      }
      target = near_page(p.mid());
    }
    if (target == page || !used.insert(target).second) continue;
    const std::string u = link_url(target);
    anchors.push_back(anchor(page, u, pages_[target].title));
    b.section.links.push_back(u);
  }
  if (anchors.empty()) return;
  b.html += " " + temporal::xml_escape(c_.site_text(kSiteName[pages_[page].site], "related")) + ": ";
  for (std::size_t i = 0; i < anchors.size(); ++i) b.html += (i ? ", " : "") + anchors[i];
  b.html += ".";
}

std::vector<Block> Generator::furniture_top(int page) {
  const Page& p = pages_[page];
  const std::string site = kSiteName[p.site];
  std::vector<Block> out;
  Block header;
  header.section.boilerplate = true;
  header.html = "<header><p class=\"marca\">" + temporal::xml_escape(c_.site_text(site, "title")) + " - " +
                temporal::xml_escape(c_.site_text(site, "tagline")) + "</p>";
  if (p.dct && is_content(p.kind)) {
    header.html += "<p class=\"data\"><time datetime=\"" + iso(*p.dct) + "\">" +
                   temporal::xml_escape(fill(c_.site_text(site, "dateline"), date_vars(*p.dct))) + "</time></p>";
    header.section.periods.push_back(day_span(*p.dct));
  }
  header.html += "</header>";
  out.push_back(header);

  Block nav;
  nav.section.boilerplate = true;
  std::vector<std::string> labels;
  std::stringstream ss(c_.site_text(site, "nav"));
  for (std::string item; std::getline(ss, item, '|');) labels.push_back(item);
  const std::string trap = base(kCalendario) + "/calendario/2024/05";
  std::vector<std::string> targets;
  switch (p.site) {
    case kEnc: targets = {"/", "/wiki/anos", "/especial/aleatorio", "/especial/pesquisa", trap}; break;
    case kJornal:
      targets = {"/"};
      for (std::size_t i = 1; i + 2 < labels.size(); ++i) targets.push_back("/seccao/" + slugify(labels[i]));
      targets.push_back("/arquivo/");
      targets.push_back(trap);
      break;
    case kFolha:
      targets = {"/"};
      for (std::size_t i = 1; i + 2 < labels.size(); ++i) targets.push_back("/secao/" + slugify(labels[i]));
      targets.push_back("/memoria/");
      targets.push_back(trap);
      break;
    case kBlog: targets = {"/", "/sobre", "/etiquetas", trap}; break;
    case kHemeroteca: targets = {"/", "/titulos/", "/pesquisa", trap}; break;
    case kCalendario: targets = {"/", "/calendario/2024/05", "/feriados"}; break;
    case kPortal: targets = {"/", "/diretorio/", "/novidades", trap}; break;
  }
  nav.html = "<nav><ul>";
  for (std::size_t i = 0; i < labels.size() && i < targets.size(); ++i) {
    const std::string u = targets[i][0] == '/' ? base(p.site) + targets[i] : targets[i];
    nav.html += "<li>" + anchor(page, u, labels[i]) + "</li>";
    nav.section.links.push_back(u);
    if (p.site == kHemeroteca && targets[i] == "/pesquisa" && !path_index_[kHemeroteca].count("/pesquisa")) {
      extras_.push_back({kHemeroteca, "/pesquisa", 404, ""});
      path_index_[kHemeroteca]["/pesquisa"] = -1;
    }
  }
  nav.html += "</ul></nav>";
  out.push_back(nav);
  return out;
}

std::vector<Block> Generator::furniture_bottom(int page) {
  const Page& p = pages_[page];
  const std::string site = kSiteName[p.site];
  std::vector<Block> out;
  Block aside;
  aside.section.boilerplate = true;
  aside.html = "<aside><h2>" + temporal::xml_escape(c_.site_text(site, "sidebar")) + "</h2><ul>";
  std::set<int> used;
  for (int i = 0; i < 5 && !content_by_center_.empty(); ++i) {
    const int t = random_content_page(p.site);
    if (t == page || !used.insert(t).second) continue;
    aside.html += "<li>" + anchor(page, url(t), pages_[t].title) + "</li>";
    aside.section.links.push_back(url(t));
  }
  const Date updated = Date::from_day_number(rng_.uniform(Date{2022, 1, 1}.day_number(), Date{2024, 12, 31}.day_number()));
  aside.html += "</ul><p>" + temporal::xml_escape(fill(c_.site_text(site, "updated"), date_vars(updated))) + "</p>";
  if (const std::string visits = noise_visits(c_, site, o_.seed, page); !visits.empty())
    aside.html += "<p>" + temporal::xml_escape(visits) + "</p>";
  aside.html += "</aside>";
  aside.section.periods.push_back(day_span(updated));
  out.push_back(aside);

  Block footer;
  footer.section.boilerplate = true;
  footer.html = "<footer><p>" + temporal::xml_escape(fill(c_.site_text(site, "footer"), {{"yyyy", "2024"}, {"site", c_.site_text(site, "title")}})) +
                "</p><p>";
  footer.section.periods.push_back(year_span(2024));
  for (int k = 1; k <= 3; ++k) {
    const int other = (p.site + k * 2) % kSiteCount;
    const std::string u = base(other) + "/";
    footer.html += (k > 1 ? " | " : "") + anchor(page, u, c_.site_text(kSiteName[other], "title"));
    footer.section.links.push_back(u);
  }
  if (p.site == kPortal) {
    footer.html += " | " + anchor(page, base(kPortal) + "/antigo", c_.site_text("portal", "tagline"));
    footer.section.links.push_back(base(kPortal) + "/antigo");
  }
  footer.html += "</p>";
  if (const std::string address = noise_address(c_, site, o_.seed, page); !address.empty())
    footer.html += "<p>" + temporal::xml_escape(address) + "</p>";
  footer.html += "</footer>";
  out.push_back(footer);
  return out;
}

std::vector<Block> Generator::content_blocks(int page) {
  const Page p = pages_[page];
  const Fact& f = c_.facts[static_cast<std::size_t>(p.fact)];
  std::vector<Block> out;
  auto paragraph = [&](std::vector<Sentence> sentences, int links, const std::string& extra = {}) {
    Block b;
    std::string text;
    for (const Sentence& s : sentences) {
      text += (text.empty() ? "" : " ") + s.text;
      b.section.periods.insert(b.section.periods.end(), s.periods.begin(), s.periods.end());
    }
    if (!extra.empty()) text += " " + upper_first(extra) + ".";
    b.html = "<p>" + temporal::xml_escape(text);
    add_links(page, b, b.section.periods, links);
    b.html += "</p>";
    out.push_back(std::move(b));
  };
  const std::string site = kSiteName[p.site];
  const std::vector<std::string>* leads = c_.sentences.count("news-lead") ? &c_.sentences.at("news-lead") : nullptr;

  // Opening paragraph.
  switch (p.kind) {
    case Kind::News:
    case Kind::Edition:
      paragraph({deictic_sentence("yesterday", *p.dct, 0, f.clause)}, rng_.uniform(1, 3),
                leads && !leads->empty() ? rng_.pick(*leads) : std::string());
      break;
    case Kind::Anniversary:
      paragraph({deictic_sentence("years-ago", *p.dct, p.years_ago, f.clause)}, rng_.uniform(1, 2));
      paragraph({explicit_sentence(f, true)}, rng_.uniform(1, 2));
      break;
    case Kind::Post: {
      const auto& acts = c_.sentences.at("blog-activity");
      paragraph({deictic_sentence("yesterday", *p.dct, 0, rng_.pick(acts))}, 0);
      paragraph({explicit_sentence(f, true)}, rng_.uniform(1, 3));
      break;
    }
    default: {
      std::vector<Sentence> first{explicit_sentence(f, true)};
      paragraph(first, rng_.uniform(1, 3));
    }
  }
  // Neighbouring facts, some with an anaphoric follow-up.
  const int idx = p.fact;
  const int n = static_cast<int>(c_.facts.size());
  const int paragraphs = rng_.uniform(2, 5);
  for (int i = 0; i < paragraphs; ++i) {
    int step = 1;
    while (step < 12 && rng_.percent(45)) ++step;
    int j = idx + (rng_.percent(50) ? step : -step);
    if (p.kind == Kind::Edition || p.kind == Kind::News) j = idx - step;  // a newspaper knows only the past
    j = std::clamp(j, 0, n - 1);
    const Fact& g = c_.facts[static_cast<std::size_t>(j)];
    if (p.dct && g.when.span.last >= *p.dct) continue;  // nobody writes about what has not happened yet
    std::vector<Sentence> ss{explicit_sentence(g, true)};
    if (j + 1 < n && rng_.percent(40)) {
      const Fact& h = c_.facts[static_cast<std::size_t>(j + 1)];
      if (!(p.dct && h.when.span.last >= *p.dct))
        if (auto rel = relative_sentence(ss.back(), h)) ss.push_back(*rel);
    }
    paragraph(ss, rng_.uniform(1, 3));
    if (rng_.percent(30)) {
      Block filler;
      filler.html = "<p>" + temporal::xml_escape(filler_text(rng_.uniform(2, 4)));
      if (rng_.percent(30)) add_links(page, filler, {}, 1);
      filler.html += "</p>";
      out.push_back(std::move(filler));
    }
  }
  // A hand-written paragraph near the fact's time.
  if (!c_.free.empty() && rng_.percent(35)) {
    auto it = std::lower_bound(c_.free.begin(), c_.free.end(), p.center,
                               [](const FreeParagraph& fp, DayNumber v) { return fp.periods.front().mid() < v; });
    if (it == c_.free.end()) --it;
    if (std::abs(it->periods.front().mid() - p.center) < 5 * 366 && !(p.dct && it->periods.back().last >= *p.dct)) {
      Block b;
      b.section.periods = it->periods;
      b.html = "<p>" + temporal::xml_escape(it->text);
      add_links(page, b, b.section.periods, rng_.uniform(1, 2));
      b.html += "</p>";
      out.push_back(std::move(b));
    }
  }
  // Filler and the closing paragraph.
  {
    Block filler;
    filler.html = "<p>" + temporal::xml_escape(filler_text(rng_.uniform(2, 4)));
    if (rng_.percent(30)) add_links(page, filler, {}, 1);
    filler.html += "</p>";
    out.push_back(std::move(filler));
  }
  if (p.kind == Kind::Anniversary && c_.sentences.count("commemoration")) {
    paragraph({deictic_sentence("today", *p.dct, 0, rng_.pick(c_.sentences.at("commemoration")))}, 0);
  }
  if (p.bad_utf8) {
    Block bad;
    bad.html = "<p>" + temporal::xml_escape(filler_text(1)) + " \xC3\x28\xFF\xFE " + temporal::xml_escape(filler_text(1)) + "</p>";
    out.push_back(std::move(bad));
  }
  return out;
}

std::vector<Block> Generator::index_blocks(int page) {
  const Page p = pages_[page];
  const std::string site = kSiteName[p.site];
  std::vector<Block> out;
  auto plain_list = [&](const std::string& intro, const std::vector<int>& items) {
    Block b;
    b.html = "<p>" + temporal::xml_escape(intro) + "</p><ul>";
    for (int id : items) {
      b.html += "<li>" + anchor(page, url(id), pages_[id].title) + "</li>";
      b.section.links.push_back(url(id));
    }
    b.html += "</ul>";
    out.push_back(std::move(b));
  };
  switch (p.kind) {
    case Kind::Home: {
      std::vector<int> items;
      if (p.site == kCalendario) {
        Block b;
        b.html = "<p>" + temporal::xml_escape(c_.site_text(site, "tagline")) + ": " +
                 anchor(page, base(kCalendario) + "/calendario/2024/05", c_.site_text(site, "title")) +
                 ", " + anchor(page, base(kCalendario) + "/feriados", c_.site_text(site, "holidays_title")) + ".</p>";
        b.section.links = {base(kCalendario) + "/calendario/2024/05", base(kCalendario) + "/feriados"};
        out.push_back(std::move(b));
        break;
      }
      const std::vector<int>& pool = content_of_site_[p.site];
      if (p.site == kPortal) {
        for (int id = 0; id < static_cast<int>(pages_.size()); ++id)
          if (pages_[id].kind == Kind::Directory && pages_[id].path.size() > 2 && pages_[id].path.back() == '1' &&
              pages_[id].path[pages_[id].path.size() - 2] == '/')
            items.push_back(id);
      } else {
        for (int i = 0; i < 30 && !pool.empty(); ++i) {
          const int id = rng_.pick(pool);
          if (!pages_[id].disallowed && std::find(items.begin(), items.end(), id) == items.end()) items.push_back(id);
        }
      }
      plain_list(c_.site_text(site, "tagline"), items);
      break;
    }
    case Kind::ListPage:
    case Kind::DirectoryIndex:
      plain_list(p.label.empty() ? c_.site_text(site, "list_intro") : p.label, p.items);
      break;
    case Kind::Directory: {
      Block b;
      b.html = "<p>" + temporal::xml_escape(c_.site_text(site, "directory_intro")) + "</p><ul>";
      for (int id : p.items) {
        // Every directory link goes through /ir/<n> → 302 → /saida/<n> → 301 → the page.
        const std::string n = std::to_string(++jump_counter_);
        extras_.push_back({kPortal, "/saida/" + n, 301, url(id)});
        extras_.push_back({kPortal, "/ir/" + n, 302, base(kPortal) + "/saida/" + n});
        const std::string u = base(kPortal) + "/ir/" + n;
        b.html += "<li>" + anchor(page, u, pages_[id].title) + "</li>";
        b.section.links.push_back(u);
      }
      b.html += "</ul>";
      out.push_back(std::move(b));
      break;
    }
    case Kind::YearIndex:
    case Kind::ArchiveIndex: {
      // One paragraph listing the year pages: by title, or in an archive by year.
      Block b;
      b.html = "<p>" + temporal::xml_escape(p.title) + ":";
      for (int id : p.items) {
        const std::string text =
            p.kind == Kind::YearIndex ? pages_[id].title : std::to_string(pages_[id].year);
        b.html += " " + anchor(page, url(id), text);
        b.section.links.push_back(url(id));
        b.section.periods.push_back(year_span(pages_[id].year));
      }
      b.html += "</p>";
      out.push_back(std::move(b));
      break;
    }
    case Kind::YearPage: {
      Block intro;
      intro.html = "<p>" + temporal::xml_escape(fill(c_.site_text(site, "year_intro"), {{"yyyy", std::to_string(p.year)}})) + "</p>";
      intro.section.periods.push_back(year_span(p.year));
      out.push_back(std::move(intro));
      out.push_back(Block{"<ul>", {}, false});
      for (int id : p.items) {
        const Fact& f = c_.facts[static_cast<std::size_t>(pages_[id].fact)];
        Block li;
        const Date d = f.when.span.first;
        std::string when;
        if (f.when.grain == DateGrain::Day) {
          when = fill(c_.site_text(site, "item_date"), date_vars(d));
          li.section.periods.push_back(day_span(d));
        } else {
          when = upper_first(c_.months[static_cast<std::size_t>(d.month - 1)]);
          li.section.periods.push_back(month_span(d.year, d.month));
        }
        li.html = "<li>" + temporal::xml_escape(when) + " - " + temporal::xml_escape(upper_first(f.clause)) + ". " + anchor(page, url(id), pages_[id].title) + "</li>";
        li.section.links.push_back(url(id));
        out.push_back(std::move(li));
      }
      out.push_back(Block{"</ul>", {}, false});
      Block nav;
      nav.html = "<p>" + temporal::xml_escape(c_.site_text(site, "year_nav"));
      for (int y : {p.year - 1, p.year + 1}) {
        auto it = year_page_.find(y);
        if (it == year_page_.end()) continue;
        nav.html += " " + anchor(page, url(it->second), std::to_string(y));
        nav.section.links.push_back(url(it->second));
        nav.section.periods.push_back(year_span(y));
      }
      nav.html += "</p>";
      out.push_back(std::move(nav));
      break;
    }
    case Kind::Archive: {
      Block intro;
      intro.html = "<p>" + temporal::xml_escape(fill(c_.site_text(site, "archive_intro"), {{"yyyy", std::to_string(p.year)}})) + "</p>";
      intro.section.periods.push_back(year_span(p.year));
      out.push_back(std::move(intro));
      out.push_back(Block{"<ul>", {}, false});
      for (int id : p.items) {
        Block li;
        li.html = "<li>" + temporal::xml_escape(fill(c_.site_text(site, "item_date"), date_vars(*pages_[id].dct))) + " - " +
                  anchor(page, url(id), pages_[id].title) + "</li>";
        li.section.periods.push_back(day_span(*pages_[id].dct));
        li.section.links.push_back(url(id));
        out.push_back(std::move(li));
      }
      out.push_back(Block{"</ul>", {}, false});
      break;
    }
    case Kind::Holidays: {
      Block intro;
      intro.html = "<p>" + temporal::xml_escape(fill(c_.site_text(site, "holidays_intro"), {{"yyyy", std::to_string(p.year)}})) + "</p>";
      intro.section.periods.push_back(year_span(p.year));
      out.push_back(std::move(intro));
      out.push_back(Block{"<ul>", {}, false});
      for (const auto& [md, name] : c_.holidays) {
        const Date d{p.year, std::atoi(md.substr(0, 2).c_str()), std::atoi(md.substr(3, 2).c_str())};
        Block li;
        li.html = "<li>" + temporal::xml_escape(fill(c_.site_text(site, "item_date"), date_vars(d))) + ": " + temporal::xml_escape(name) + "</li>";
        li.section.periods.push_back(day_span(d));
        out.push_back(std::move(li));
      }
      out.push_back(Block{"</ul>", {}, false});
      break;
    }
    case Kind::About:
    case Kind::Disallowed:
    case Kind::ServerError: {
      Block b;
      b.html = "<p>" + temporal::xml_escape(filler_text(p.kind == Kind::ServerError ? 1 : 3)) + "</p>";
      out.push_back(std::move(b));
      break;
    }
    case Kind::Huge: {
      Block intro;
      intro.html = "<p>" + temporal::xml_escape(c_.site_text(site, "huge_intro")) + "</p>";
      out.push_back(std::move(intro));
      for (std::size_t fi = 0; fi < c_.facts.size(); ++fi) {
        Block b;
        Sentence s = explicit_sentence(c_.facts[fi], false);
        b.section.periods = s.periods;
        b.html = "<p>" + temporal::xml_escape(s.text);
        if (articles_of_fact_[fi] >= 0) {
          b.html += " " + anchor(page, url(articles_of_fact_[fi]), pages_[articles_of_fact_[fi]].title);
          b.section.links.push_back(url(articles_of_fact_[fi]));
        }
        b.html += "</p>";
        out.push_back(std::move(b));
      }
      // Then enough filler to make the page a few megabytes.
      std::size_t size = 0;
      while (size < 2'500'000) {
        Block b;
        b.html = "<p>" + temporal::xml_escape(filler_text(6)) + "</p>";
        size += b.html.size();
        out.push_back(std::move(b));
      }
      break;
    }
    default:
      break;
  }
  return out;
}

std::string Generator::render(int page, std::vector<Section>* truth) {
  const Page& p = pages_[page];
  const bool latin1 = p.site == kHemeroteca;
  std::vector<Block> blocks = furniture_top(page);
  std::vector<Block> main = is_content(p.kind) ? content_blocks(page) : index_blocks(page);
  std::vector<Block> bottom = furniture_bottom(page);
  std::string html = "<!DOCTYPE html>\n<html lang=\"pt\">\n<head>\n";
  html += latin1 ? "<meta http-equiv=\"Content-Type\" content=\"text/html; charset=iso-8859-1\">\n" : "<meta charset=\"utf-8\">\n";
  html += "<title>" + temporal::xml_escape(p.title) + " - " + temporal::xml_escape(c_.site_text(kSiteName[p.site], "title")) + "</title>\n";
  if (p.dct && is_content(p.kind)) {
    html += "<meta property=\"article:published_time\" content=\"" + iso(*p.dct) + "T08:00:00Z\">\n";
    html += "<meta name=\"date\" content=\"" + iso(*p.dct) + "\">\n";
  }
  html += "</head>\n<body>\n";
  for (Block& b : blocks) html += b.html + "\n";
  html += "<main><article>\n<h1>" + temporal::xml_escape(p.title) + "</h1>\n";
  for (Block& b : main) html += b.html + "\n";
  html += "</article></main>\n";
  for (Block& b : bottom) html += b.html + "\n";
  html += "</body>\n</html>\n";
  if (truth) {
    for (auto* list : {&blocks, &main, &bottom})
      for (Block& b : *list)
        if (b.counted && (!b.section.periods.empty() || !b.section.links.empty())) truth->push_back(b.section);
  }
  if (p.malformed) {
    // Browsers cope with all of this; so must the crawler.
    std::string bad;
    bad.reserve(html.size());
    for (std::size_t i = 0; i < html.size();) {
      if (html.compare(i, 4, "</p>") == 0 || html.compare(i, 5, "</li>") == 0) {
        i += html[i + 2] == 'p' ? 4 : 5;
      } else if (html.compare(i, 3, "<p>") == 0) {
        bad += "<P>";
        i += 3;
      } else {
        bad += html[i++];
      }
    }
    const std::size_t main_at = bad.find("<main>");
    if (main_at != std::string::npos) bad.insert(main_at + 6, "<div class=nao-fechado><span>");
    const std::size_t end = bad.find("</body>");
    if (end != std::string::npos) bad.insert(end, "</b></i></td>");
    html = std::move(bad);
  }
  return latin1 ? to_latin1(html) : html;
}

std::string Generator::trap_template(std::vector<Section>* truth_template) {
  // The calendar month page, with {{month}}, {{yyyy}} and {{next}} for the
  // server to fill. Its furniture is fixed; its content section states the
  // month and (by "Mês seguinte") the next one.
  Page p;
  p.site = kCalendario;
  p.kind = Kind::About;
  p.title = c_.site_text("calendario", "title");
  pages_.push_back(p);
  const int page = static_cast<int>(pages_.size()) - 1;
  std::vector<Block> top = furniture_top(page), bottom = furniture_bottom(page);
  pages_.pop_back();
  std::string html = "<!DOCTYPE html>\n<html lang=\"pt\">\n<head>\n<meta charset=\"utf-8\">\n<title>{{Month}} {{yyyy}} - " +
                     temporal::xml_escape(p.title) + "</title>\n</head>\n<body>\n";
  for (Block& b : top) html += b.html + "\n";
  html += "<main><h1>{{Month}} {{yyyy}}</h1>\n<p>" +
          temporal::xml_escape(fill(c_.site_text("calendario", "month_intro"), {{"month", "{{month}}"}, {"yyyy", "{{yyyy}}"}})) +
          " <a href=\"{{next}}\">" + temporal::xml_escape(c_.site_text("calendario", "month_next")) + "</a></p>\n</main>\n";
  for (Block& b : bottom) html += b.html + "\n";
  html += "</body>\n</html>\n";
  auto keep = [&](const Block& b) {
    if (!b.section.periods.empty() || !b.section.links.empty()) truth_template->push_back(b.section);
  };
  for (Block& b : top) keep(b);
  truth_template->push_back(Section{});  // the month paragraph, filled per month
  for (Block& b : bottom) keep(b);
  return html;
}

nlohmann::ordered_json sections_json(const std::vector<Section>& sections) {
  nlohmann::ordered_json out = nlohmann::ordered_json::array();
  for (const Section& s : sections) {
    nlohmann::ordered_json j;
    nlohmann::ordered_json periods = nlohmann::ordered_json::array();
    for (const DaySpan& d : s.periods) periods.push_back({iso(d.first), iso(d.last)});
    j["periods"] = periods;
    if (s.boilerplate) j["boilerplate"] = true;
    j["links"] = s.links;
    out.push_back(j);
  }
  return out;
}

bool relevant_for(const std::vector<Section>& sections, const DaySpan& scope) {
  for (const Section& s : sections) {
    if (s.boilerplate || s.periods.empty()) continue;
    bool inside = true;
    for (const DaySpan& d : s.periods)
      if (d.first < scope.first || scope.last < d.last) inside = false;
    if (inside) return true;
  }
  return false;
}

Status write_file(const fs::path& path, const std::string& data) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  if (!out) return Status::Error("cannot write '" + path.string() + "': " + std::strerror(errno));
  out << data;
  out.close();
  if (!out) return Status::Error("cannot write '" + path.string() + "'");
  return Status::Ok();
}

Status Generator::write_all(SampleWebSummary* summary) {
  const fs::path root(o_.out_dir);
  std::error_code ec;
  fs::create_directories(root, ec);
  if (ec) return Status::Error("cannot create '" + root.string() + "': " + ec.message());

  const DaySpan scope_war{Date{1939, 1, 1}, Date{1945, 12, 31}};
  const DaySpan scope_2001{Date{2001, 1, 1}, Date{2001, 12, 31}};
  struct TruthLine {
    std::string url;
    std::string json;
  };
  std::vector<TruthLine> truth;
  std::vector<std::vector<std::string>> routes(kSiteCount);  // "path\tstatus\ttype\tvalue"
  std::vector<int> relevant_war, relevant_2001;

  for (int s = 0; s < kSiteCount; ++s) {
    fs::create_directories(root / "sites" / kSiteName[s] / "files", ec);
    if (ec) return Status::Error("cannot create '" + (root / "sites" / kSiteName[s]).string() + "': " + ec.message());
  }
  // Pages (rendering may add redirects and 404s to extras_, so pages first).
  const int page_count = static_cast<int>(pages_.size());
  for (int id = 0; id < page_count; ++id) {
    const Page& p = pages_[id];
    std::vector<Section> sections;
    const std::string html = render(id, &sections);
    char name[32];
    std::snprintf(name, sizeof name, "p%06d.html", id);
    if (Status st = write_file(root / "sites" / kSiteName[p.site] / "files" / name, html); !st.ok()) return st;
    const std::string ctype = p.site == kHemeroteca ? "text/html" : "text/html; charset=utf-8";
    routes[static_cast<std::size_t>(p.site)].push_back(p.path + "\t" + std::to_string(p.status) + "\t" + ctype +
                                                       "\tfiles/" + name);
    nlohmann::ordered_json j;
    j["url"] = url(id);
    j["host"] = authority(p.site);
    j["site"] = kSiteName[p.site];
    j["status"] = p.status;
    if (p.disallowed) j["disallowed"] = true;
    if (p.dct && is_content(p.kind)) j["dct"] = iso(*p.dct);
    if (p.site == kHemeroteca) j["charset"] = "iso-8859-1";
    if (p.malformed) j["malformed"] = true;
    if (p.bad_utf8) j["invalid_utf8"] = true;
    j["title"] = p.title;
    j["sections"] = sections_json(sections);
    const bool war = p.status == 200 && relevant_for(sections, scope_war);
    const bool y2001 = p.status == 200 && relevant_for(sections, scope_2001);
    j["relevant"] = {{"1939-1945", war}, {"2001", y2001}};
    if (war && !p.disallowed) relevant_war.push_back(id);
    if (y2001 && !p.disallowed) relevant_2001.push_back(id);
    summary->pages += p.status == 200;
    summary->relevant_1939_1945 += war;
    summary->relevant_2001 += y2001;
    truth.push_back({url(id), j.dump()});
  }
  // Redirects and deliberate 404s.
  for (const Extra& e : extras_) {
    nlohmann::ordered_json j;
    j["url"] = base(e.site) + e.path;
    j["host"] = authority(e.site);
    j["site"] = kSiteName[e.site];
    j["status"] = e.status;
    if (!e.location.empty()) {
      j["location"] = e.location;
      routes[static_cast<std::size_t>(e.site)].push_back(e.path + "\t" + std::to_string(e.status) + "\t-\t" + e.location);
      ++summary->redirects;
    } else {
      routes[static_cast<std::size_t>(e.site)].push_back(e.path + "\t404\t-\t-");
    }
    truth.push_back({base(e.site) + e.path, j.dump()});
  }
  // The calendar trap: a template, and truth for its first two years.
  std::vector<Section> trap_sections;
  const std::string trap = trap_template(&trap_sections);
  if (Status st = write_file(root / "sites" / "calendario" / "files" / "mes.html", trap); !st.ok()) return st;
  routes[kCalendario].push_back("/calendario/\ttrap\ttext/html; charset=utf-8\tfiles/mes.html");
  {
    std::string months;
    for (const std::string& m : c_.months) months += m + "\n";
    if (Status st = write_file(root / "sites" / "calendario" / "months.txt", months); !st.ok()) return st;
  }
  for (int k = 0; k < 24; ++k) {
    const int y = 2024 + (4 + k) / 12, m = (4 + k) % 12 + 1;
    const int ny = m == 12 ? y + 1 : y, nm = m == 12 ? 1 : m + 1;
    const std::string path = "/calendario/" + std::to_string(y) + "/" + two(m);
    std::vector<Section> sections = trap_sections;
    for (Section& s : sections) {
      if (!s.boilerplate) {
        s.periods = {month_span(y, m), month_span(ny, nm)};
        s.links = {base(kCalendario) + "/calendario/" + std::to_string(ny) + "/" + two(nm)};
      }
    }
    nlohmann::ordered_json j;
    j["url"] = base(kCalendario) + path;
    j["host"] = authority(kCalendario);
    j["site"] = "calendario";
    j["status"] = 200;
    j["trap"] = true;
    j["sections"] = sections_json(sections);
    j["relevant"] = {{"1939-1945", false}, {"2001", false}};
    truth.push_back({base(kCalendario) + path, j.dump()});
  }
  // robots.txt (none on the newspaper archive: its absence means "allow all").
  const std::map<int, std::string> robots = {
      {kEnc, "User-agent: *\nDisallow: /especial/\n"},
      {kJornal, "User-agent: BadBot\nDisallow: /\n\nUser-agent: *\nDisallow: /assinantes/\n"},
      {kFolha, "User-agent: *\nAllow: /\n"},
      {kBlog, "User-agent: *\nDisallow: /rascunhos/\n"},
      {kCalendario, "User-agent: *\nDisallow:\n"},
      {kPortal, "User-agent: *\nCrawl-delay: 1\nDisallow: /admin/\n"}};
  for (const auto& [s, body] : robots) {
    if (Status st = write_file(root / "sites" / kSiteName[s] / "files" / "robots.txt", body); !st.ok()) return st;
    routes[static_cast<std::size_t>(s)].push_back("/robots.txt\t200\ttext/plain; charset=utf-8\tfiles/robots.txt");
  }

  // Routes, hosts, web.json.
  nlohmann::ordered_json web;
  web["generator"] = "cronista sample-web";
  web["seed"] = o_.seed;
  web["pages"] = o_.pages;
  web["port"] = o_.port;
  web["hosts"] = nlohmann::ordered_json::array();
  std::string hosts;
  for (int s = 0; s < kSiteCount; ++s) {
    std::sort(routes[static_cast<std::size_t>(s)].begin(), routes[static_cast<std::size_t>(s)].end());
    std::string body = "# path\tstatus\tcontent-type\tfile or location\n";
    for (const std::string& r : routes[static_cast<std::size_t>(s)]) body += r + "\n";
    if (Status st = write_file(root / "sites" / kSiteName[s] / "routes.tsv", body); !st.ok()) return st;
    const std::string address = "127.0.0." + std::to_string(o_.first_host + s);
    web["hosts"].push_back({{"name", kSiteName[s]}, {"address", address}, {"authority", authority(s)},
                            {"title", c_.site_text(kSiteName[s], "title")}});
    hosts += base(s) + "/ " + kSiteName[s] + "\n";
  }
  summary->hosts = kSiteCount;
  if (Status st = write_file(root / "web.json", web.dump(2) + "\n"); !st.ok()) return st;
  if (Status st = write_file(root / "hosts.txt", hosts); !st.ok()) return st;

  std::sort(truth.begin(), truth.end(), [](const TruthLine& a, const TruthLine& b) { return a.url < b.url; });
  std::string truth_body;
  for (const TruthLine& t : truth) truth_body += t.json + "\n";
  if (Status st = write_file(root / "truth.jsonl", truth_body); !st.ok()) return st;

  // Seeds, like the original study's: ten pages about the period, year pages first.
  auto seeds = [&](int from_year, int to_year, const std::vector<int>& relevant) {
    std::vector<int> chosen;
    for (int y = from_year; y <= to_year; ++y)
      if (auto it = year_page_.find(y); it != year_page_.end()) chosen.push_back(it->second);
    std::vector<int> enc, other;
    for (int id : relevant) {
      if (!is_content(pages_[id].kind)) continue;
      (pages_[id].site == kEnc ? enc : other).push_back(id);
    }
    Rng pick(o_.seed ^ static_cast<std::uint64_t>(from_year));
    for (auto* pool : {&enc, &other}) {
      while (chosen.size() < (pool == &enc ? 7u : 10u) && !pool->empty()) {
        const std::size_t k = static_cast<std::size_t>(pick.uniform(0, static_cast<int>(pool->size()) - 1));
        if (std::find(chosen.begin(), chosen.end(), (*pool)[k]) == chosen.end()) chosen.push_back((*pool)[k]);
        pool->erase(pool->begin() + static_cast<long>(k));
      }
    }
    while (chosen.size() > 10) chosen.pop_back();
    std::string out;
    for (int id : chosen) out += url(id) + "\n";
    return out;
  };
  if (Status st = write_file(root / "seeds-1939-1945.txt", seeds(1939, 1945, relevant_war)); !st.ok()) return st;
  if (Status st = write_file(root / "seeds-2001.txt", seeds(2001, 2001, relevant_2001)); !st.ok()) return st;
  return Status::Ok();
}

Result<SampleWebSummary> Generator::run() {
  for (std::size_t i = 0; i < c_.facts.size(); ++i) {
    const int w = c_.files[static_cast<std::size_t>(c_.facts[i].file)].weight;
    // Each file's weight is shared among its facts: scale by 100 / count.
    const int count = static_cast<int>(std::count_if(c_.facts.begin(), c_.facts.end(),
                                                     [&](const Fact& f) { return f.file == c_.facts[i].file; }));
    const int copies = std::max(1, (w * 100) / std::max(1, count));
    if (w > 0)
      for (int k = 0; k < copies; ++k) fact_picks_.push_back(static_cast<int>(i));
  }
  if (fact_picks_.empty()) return Result<SampleWebSummary>::Error("no fact has a positive weight");

  // Content pages, site by weight; then their order by date.
  int total_weight = 0;
  for (int w : kSiteWeight) total_weight += w;
  for (int i = 0; i < o_.pages; ++i) {
    int roll = rng_.uniform(0, total_weight - 1), site = 0;
    while (roll >= kSiteWeight[site]) roll -= kSiteWeight[site++];
    if (!plan_content_page(site)) plan_content_page(kEnc);
  }
  articles_of_fact_.assign(c_.facts.size(), -1);
  for (int id = 0; id < static_cast<int>(pages_.size()); ++id) {
    content_by_center_.push_back(id);
    content_of_site_[pages_[id].site].push_back(id);
    if (pages_[id].kind == Kind::Article && articles_of_fact_[static_cast<std::size_t>(pages_[id].fact)] < 0)
      articles_of_fact_[static_cast<std::size_t>(pages_[id].fact)] = id;
  }
  std::stable_sort(content_by_center_.begin(), content_by_center_.end(),
                   [&](int a, int b) { return pages_[a].center < pages_[b].center; });
  // Faulty content pages: some malformed, some with invalid UTF-8 on the Brazilian site.
  for (int id : content_by_center_) {
    if (rng_.percent(2)) pages_[id].malformed = true;
    if (pages_[id].site == kFolha && rng_.percent(1)) pages_[id].bad_utf8 = true;
  }
  if (!content_of_site_[kFolha].empty()) pages_[content_of_site_[kFolha].front()].bad_utf8 = true;
  plan_structure();

  SampleWebSummary summary;
  if (Status st = write_all(&summary); !st.ok()) return st;
  return summary;
}

}  // namespace

Result<SampleWebSummary> generate_sample_web(const SampleWebOptions& options) {
  if (options.pages < 50) return Result<SampleWebSummary>::Error("--pages must be at least 50");
  if (options.port < 1 || options.port > 65535) return Result<SampleWebSummary>::Error("--port must be 1-65535");
  if (options.first_host < 2 || options.first_host + kSiteCount > 255)
    return Result<SampleWebSummary>::Error("first host address out of range");
  auto corpus = SampleCorpus::load(options.corpora_dir.empty() ? default_sample_corpora_dir() : options.corpora_dir);
  if (!corpus) return corpus.status();
  Generator g(*corpus, options);
  return g.run();
}

}  // namespace cronista::sampleweb
