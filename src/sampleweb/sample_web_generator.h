// The sample web's generator, internal to src/sampleweb/: the pages it plans,
// the blocks it renders with their truth, and the Generator whose methods are
// spread over files by concern:
//   sample_web.cc              the entry point and the order of the work
//   sample_web_plan.cc         sites and page kinds: which pages exist, their paths
//   sample_web_text.cc         the text of pages: sentences and the periods they state
//   sample_web_links.cc        links: targets near a period, redirects, 404s, href forms
//   sample_web_pages.cc        content pages and the furniture around every page
//   sample_web_index_pages.cc  index pages (home, years, archives, directory), the calendar trap
//   sample_web_faults.cc       faults: malformed HTML, Latin-1 pages
//   sample_web_truth.cc        writing the web: pages, routes, truth, hosts, seeds
//   sample_web_living.cc       the living web's truth: change processes, publications
// Same options -> byte-identical output: every random choice comes from one
// Rng, drawn in the same order whatever file the drawing code lives in.
#pragma once

#include <cstdint>
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "sampleweb/sample_web.h"
#include "sampleweb/sample_web_corpus.h"
#include "temporal/xml_escape.h"

namespace cronista::sampleweb::gen {

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

inline bool is_content(Kind k) {
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
Page make_page(int site, Kind kind, std::string path, std::string title);

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

// Replaces every {key} of tmpl that vars names; other braces stay.
std::string fill(const std::string& tmpl, const Vars& vars);
std::string upper_first(std::string s);
std::string lower_first(std::string s);
// ASCII slug of a Portuguese title: accents folded, everything else a dash.
std::string slugify(std::string_view title);
// Two digits, zero-padded.
std::string two(int v);
DaySpan day_span(const Date& d);
DaySpan month_span(int y, int m);
DaySpan year_span(int y);
std::string iso(const Date& d);

// UTF-8 -> ISO-8859-1; characters outside Latin-1 become '?'.
std::string to_latin1(std::string_view s);
// The page as an old, careless site writes it: closing </p> and </li>
// dropped, <P> in capitals, tags left open or closed without an opening.
std::string malformed_html(const std::string& html);

Status write_file(const std::filesystem::path& path, const std::string& data);

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
  Status write_living(SampleWebSummary* summary);

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

}  // namespace cronista::sampleweb::gen
