// Crawl evaluation against ground truth: loading, the oracle and
// reachability walks (plain breadth-first searches over the truth's link
// graph), the curves, and their CSV, Markdown and SVG forms.
#include "eval/crawl_eval.h"

#include <algorithm>
#include <cctype>
#include <functional>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <deque>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

#include <nlohmann/json.hpp>

#include "crawler/crawl_shards.h"
#include "crawler/crawl_store.h"
#include "crawler/url.h"
#include "store/database.h"
#include "temporal/scope.h"
#include "temporal/xml_escape.h"

namespace cronista::eval {
namespace {

using temporal::Date;
using temporal::DayNumber;
using temporal::DayRange;

// One URL per line; "URL<TAB>seconds" lines (crawl --order-out) also give
// each line its crawling time in *seconds, which is left empty unless every
// line has one.
Result<std::vector<std::string>> read_url_lines(const std::string& path, std::vector<double>* seconds = nullptr) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return Result<std::vector<std::string>>::Error("cannot open '" + path + "': " + std::strerror(errno));
  std::vector<std::string> out;
  std::vector<double> times;
  bool timed = true;
  std::string line;
  while (std::getline(in, line)) {
    while (!line.empty() && (line.back() == '\r' || line.back() == ' ' || line.back() == '\t')) line.pop_back();
    std::size_t b = 0;
    while (b < line.size() && (line[b] == ' ' || line[b] == '\t')) ++b;
    if (b == line.size() || line[b] == '#') continue;
    // Tolerate "URL<TAB>anything" lines.
    std::string url = line.substr(b);
    const std::size_t tab = url.find('\t');
    if (tab != std::string::npos) {
      const std::string rest = url.substr(tab + 1);
      char* end = nullptr;
      const double t = std::strtod(rest.c_str(), &end);
      if (end != rest.c_str() && std::isfinite(t) && t >= 0) times.push_back(t); else timed = false;
      url.resize(tab);
    } else {
      timed = false;
    }
    out.push_back(canonical_form(url));
  }
  if (seconds != nullptr) *seconds = timed ? std::move(times) : std::vector<double>{};
  return out;
}

// A run read from crawl databases (shards of one crawl merged by fetch
// time): its downloads in order, each at its seconds since the earliest run
// start, on the one clock of the fetch timestamps.
Result<RunCurve> run_from_databases(const std::vector<std::string>& paths) {
  using RR = Result<RunCurve>;
  auto db = crawler::open_shards(paths);
  if (!db) return RR::Error(db.status().message());
  auto first = db->prepare("SELECT min(started_at) FROM runs");
  if (!first) return RR::Error("'" + paths[0] + "' is not a crawl database: " + first.status().message());
  const std::int64_t start = first->step() ? crawler::iso_ms(first->column_text(0)).value_or(0) : 0;
  auto st = db->prepare("SELECT url, fetched_at FROM history ORDER BY seq");
  if (!st) return RR::Error("'" + paths[0] + "' is not a crawl database: " + st.status().message());
  RunCurve run;
  while (st->step()) {
    run.lines.push_back(canonical_form(st->column_text(0)));
    const auto at = crawler::iso_ms(st->column_text(1));
    run.seconds.push_back(at ? std::max(0.0, static_cast<double>(*at - start) / 1000.0) : 0.0);
  }
  if (!st->status().ok()) return RR::Error("reading the crawl's history: " + st->status().message());
  return run;
}

std::string fmt(double v, int decimals) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.*f", decimals, v);
  return buf;
}

std::string percent(double v) { return fmt(100.0 * v, 1) + "%"; }

// The breadth-first walk shared by the oracle and reachability.
// `follow(section)` says which sections' links to take. Returns the URLs
// fetched, in order (a redirect hop is not a download; its target is).
std::vector<std::string> walk(const CrawlTruth& truth, const std::vector<std::string>& seeds, std::size_t limit,
                              const std::function<bool(const TruthSection&)>& follow) {
  std::vector<std::string> fetched;
  std::set<std::string> seen;
  std::deque<std::string> queue;
  for (const std::string& s : seeds)
    if (seen.insert(s).second) queue.push_back(s);
  while (!queue.empty() && fetched.size() < limit) {
    std::string url = queue.front();
    queue.pop_front();
    const TruthPage* p = truth.find(url);
    if (p && p->disallowed) continue;
    // A redirect chain is followed at once; its hops are not downloads.
    bool skip = false;
    for (int hop = 0; hop < 10 && p && !p->location.empty(); ++hop) {
      url = p->location;
      p = truth.find(url);
      if (!seen.insert(url).second || (p && p->disallowed)) {
        skip = true;
        break;
      }
    }
    if (skip) continue;
    fetched.push_back(url);
    if (!p || p->status != 200) continue;
    for (const TruthSection& s : p->sections) {
      if (!follow(s)) continue;
      for (const std::string& l : s.links)
        if (seen.insert(l).second) queue.push_back(l);
    }
  }
  return fetched;
}

}  // namespace

bool section_in_scope(const TruthSection& s, const DayRange& scope) {
  if (s.boilerplate || s.periods.empty()) return false;
  for (const auto& [a, b] : s.periods)
    if (a < scope.first || b > scope.last) return false;
  return true;
}

std::string canonical_form(const std::string& url) {
  auto c = crawler::CanonicalUrl::parse(url);
  if (c.ok()) return c->str();
  std::size_t b = 0, e = url.size();
  while (b < e && std::isspace(static_cast<unsigned char>(url[b]))) ++b;
  while (e > b && std::isspace(static_cast<unsigned char>(url[e - 1]))) --e;
  return url.substr(b, e - b);
}

Result<DayRange> parse_scope(const std::string& text) {
  std::string from = text, to = text;
  if (const std::size_t dots = text.find(".."); dots != std::string::npos) {
    from = text.substr(0, dots);
    to = text.substr(dots + 2);
  } else if (text.size() == 9 && text[4] == '-') {  // YYYY-YYYY
    from = text.substr(0, 4);
    to = text.substr(5);
  }
  auto period = temporal::Period::parse(from, to);
  if (!period) return Result<DayRange>::Error("--scope '" + text + "': " + period.status().message());
  return period->days();
}

Result<CrawlTruth> CrawlTruth::load(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return Result<CrawlTruth>::Error("cannot open '" + path + "': " + std::strerror(errno));
  CrawlTruth t;
  std::string line;
  int line_no = 0;
  while (std::getline(in, line)) {
    ++line_no;
    if (line.empty()) continue;
    const std::string where = path + ":" + std::to_string(line_no) + ": ";
    nlohmann::json j = nlohmann::json::parse(line, nullptr, false);
    if (j.is_discarded() || !j.is_object() || !j.contains("url") || !j["url"].is_string())
      return Result<CrawlTruth>::Error(where + "not a truth record (JSON object with \"url\")");
    TruthPage p;
    p.url = canonical_form(j["url"].get<std::string>());
    p.status = j.value("status", 200);
    if (j.contains("location") && j["location"].is_string()) p.location = canonical_form(j["location"].get<std::string>());
    p.disallowed = j.value("disallowed", false);
    if (j.contains("sections") && j["sections"].is_array()) {
      for (const auto& s : j["sections"]) {
        TruthSection sec;
        sec.boilerplate = s.value("boilerplate", false);
        if (s.contains("periods") && s["periods"].is_array()) {
          for (const auto& per : s["periods"]) {
            if (!per.is_array() || per.size() != 2 || !per[0].is_string() || !per[1].is_string())
              return Result<CrawlTruth>::Error(where + "a period must be [\"YYYY-MM-DD\", \"YYYY-MM-DD\"]");
            auto a = Date::parse(per[0].get<std::string>()), b = Date::parse(per[1].get<std::string>());
            if (!a || !b) return Result<CrawlTruth>::Error(where + "bad date in a period");
            sec.periods.emplace_back(a->day_number(), b->day_number());
          }
        }
        if (s.contains("links") && s["links"].is_array())
          for (const auto& l : s["links"])
            if (l.is_string()) sec.links.push_back(canonical_form(l.get<std::string>()));
        p.sections.push_back(std::move(sec));
      }
    }
    const std::string key = p.url;
    t.pages_[key] = std::move(p);
  }
  if (t.pages_.empty()) return Result<CrawlTruth>::Error("'" + path + "' holds no truth records");
  return t;
}

const TruthPage* CrawlTruth::find(const std::string& url) const {
  auto it = pages_.find(url);
  return it == pages_.end() ? nullptr : &it->second;
}

std::string CrawlTruth::resolve(const std::string& url) const {
  std::string u = url;
  for (int hop = 0; hop < 10; ++hop) {
    const TruthPage* p = find(u);
    if (!p || p->location.empty()) return u;
    u = p->location;
  }
  return u;
}

bool CrawlTruth::relevant(const std::string& url, const DayRange& scope) const {
  const TruthPage* p = find(url);
  if (!p || p->status != 200) return false;
  for (const TruthSection& s : p->sections)
    if (section_in_scope(s, scope)) return true;
  return false;
}

Result<CrawlEvaluation> evaluate_crawls(const EvalCrawlOptions& o) {
  using R = Result<CrawlEvaluation>;
  CrawlEvaluation e;
  e.scope = o.scope;
  auto days = parse_scope(o.scope);
  if (!days) return days.status();
  e.days = *days;
  auto truth = CrawlTruth::load(o.truth_path);
  if (!truth) return truth.status();
  e.truth_urls = truth->size();
  for (const auto& [url, page] : truth->pages())
    if (!page.disallowed && truth->relevant(url, e.days)) ++e.truth_relevant;

  // Seeds: given, or seeds-<scope>.txt beside the truth file.
  std::string seeds_path = o.seeds_path;
  if (seeds_path.empty()) {
    const auto guess = std::filesystem::path(o.truth_path).parent_path() / ("seeds-" + o.scope + ".txt");
    std::error_code ec;
    if (std::filesystem::exists(guess, ec)) seeds_path = guess.string();
  }
  if (!seeds_path.empty()) {
    auto seeds = read_url_lines(seeds_path);
    if (!seeds) return seeds.status();
    e.seeds = *seeds;
  }

  // The runs.
  std::set<std::string> union_relevant;
  std::size_t longest = 0;
  std::set<std::string> names;
  for (std::size_t i = 0; i < o.order_paths.size(); ++i) {
    std::vector<double> seconds;
    auto lines = read_url_lines(o.order_paths[i], &seconds);
    if (!lines) return lines.status();
    RunCurve run;
    run.seconds = std::move(seconds);
    run.name = i < o.names.size() && !o.names[i].empty() ? o.names[i]
                                                          : std::filesystem::path(o.order_paths[i]).stem().string();
    if (!names.insert(run.name).second) run.name += "-" + std::to_string(i + 1);
    run.lines = std::move(*lines);
    e.runs.push_back(std::move(run));
    longest = std::max(longest, e.runs.back().lines.size());
  }
  if (!o.order_dbs.empty()) {
    auto run = run_from_databases(o.order_dbs);
    if (!run) return run.status();
    const std::size_t i = o.order_paths.size();
    run->name = i < o.names.size() && !o.names[i].empty() ? o.names[i]
                                                           : std::filesystem::path(o.order_dbs[0]).stem().string();
    if (!names.insert(run->name).second) run->name += "-" + std::to_string(i + 1);
    e.runs.push_back(std::move(*run));
    longest = std::max(longest, e.runs.back().lines.size());
  }
  // The oracle, as long as the longest run.
  if (o.oracle && !e.seeds.empty()) {
    RunCurve oracle;
    oracle.name = "oracle";
    oracle.oracle = true;
    oracle.lines = walk(*truth, e.seeds, std::max<std::size_t>(longest, 1),
                        [&](const TruthSection& s) { return section_in_scope(s, e.days); });
    // On the time axis, as long as the longest timed run.
    double horizon = 0;
    for (const RunCurve& r : e.runs)
      if (!r.seconds.empty()) horizon = std::max(horizon, *std::max_element(r.seconds.begin(), r.seconds.end()));
    if (horizon > 0) {
      // The crawl's own response times when its database is given: the
      // crawler's gap runs from the end of a response, so the oracle's does
      // too.
      HostLatency latency;
      if (!o.db_paths.empty()) {
        auto l = crawl_latencies(o.db_paths, &e.oracle_latency_s);
        if (!l) return l.status();
        latency = std::move(*l);
      }
      std::vector<std::string> urls;
      std::vector<double> seconds;
      for (auto& [url, t] :
           oracle_timeline(*truth, e.seeds, e.days, horizon, sample_web_gaps(o.truth_path, o.delay_ms), latency)) {
        urls.push_back(std::move(url));
        seconds.push_back(t);
      }
      oracle.time = time_curve(*truth, e.days, urls, seconds);
    }
    e.runs.push_back(std::move(oracle));
  }
  for (RunCurve& run : e.runs)
    if (!run.oracle) run.time = time_curve(*truth, e.days, run.lines, run.seconds);
  // Time cut-offs: 30 s, 1, 2, 5, 10, 20, 30 min, 1, 2, 5, 10, 20 h… up to the longest timed run.
  double longest_time = 0;
  for (const RunCurve& r : e.runs)
    if (!r.oracle && !r.time.empty()) longest_time = std::max(longest_time, r.time.seconds.back());
  for (double t : {30.0, 60.0, 120.0, 300.0, 600.0, 1200.0, 1800.0, 3600.0, 7200.0, 18000.0, 36000.0, 72000.0})
    if (t <= longest_time) e.time_cutoffs.push_back(t);
  for (RunCurve& run : e.runs) {
    std::set<std::string> seen;
    int relevant = 0;
    run.relevant_at.reserve(run.lines.size());
    for (const std::string& line : run.lines) {
      const std::string page = truth->resolve(line);
      const TruthPage* p = truth->find(page);
      if (seen.insert(page).second && p && !p->disallowed && truth->relevant(page, e.days)) {
        ++relevant;
        union_relevant.insert(page);
      }
      run.relevant_at.push_back(relevant);
    }
  }
  e.union_relevant = static_cast<int>(union_relevant.size());

  // Where each run's irrelevant downloads came from.
  enum : unsigned { kInScope = 1, kFurniture = 2, kUndated = 4, kOutOfScope = 8 };
  for (RunCurve& run : e.runs) {
    std::vector<std::string> pages;
    std::set<std::string> distinct;
    for (const std::string& line : run.lines) {
      std::string page = truth->resolve(line);
      if (distinct.insert(page).second) pages.push_back(std::move(page));
    }
    std::map<std::string, unsigned> linked_by;
    for (const std::string& page : pages) {
      const TruthPage* p = truth->find(page);
      if (!p || p->status != 200 || p->disallowed) continue;
      for (const TruthSection& s : p->sections) {
        const unsigned kind = s.boilerplate ? kFurniture
                              : s.periods.empty() ? kUndated
                              : section_in_scope(s, e.days) ? kInScope
                                                            : kOutOfScope;
        for (const std::string& l : s.links) linked_by[truth->resolve(l)] |= kind;
      }
    }
    IrrelevantSources& src = run.sources;
    for (const std::string& page : pages) {
      if (truth->relevant(page, e.days)) continue;
      ++src.total;
      auto it = linked_by.find(page);
      const unsigned k = it == linked_by.end() ? 0 : it->second;
      if (k & kInScope) ++src.in_scope;
      else if (k == kFurniture) ++src.furniture;
      else if (k == kUndated) ++src.undated;
      else if (k == kOutOfScope) ++src.out_of_scope;
      else if (k != 0) ++src.several;
      else ++src.unlinked;
    }
  }

  // Reachable relevant pages: through every link of every fetchable page.
  if (!e.seeds.empty()) {
    const auto reachable = walk(*truth, e.seeds, static_cast<std::size_t>(-1), [](const TruthSection&) { return true; });
    for (const std::string& u : reachable)
      if (truth->relevant(u, e.days)) ++e.reachable_relevant;
  } else {
    e.reachable_relevant = e.truth_relevant;
  }

  for (std::size_t base = 100;; base *= 10) {
    bool any = false;
    for (std::size_t c : {base, base * 2, base * 5 / 2, base * 5}) {
      if (c == base * 5 / 2 && base != 100) continue;  // 250 only: 100, 200, 250, 500, 1000, 2000, 5000…
      if (c <= longest) {
        e.cutoffs.push_back(c);
        any = true;
      }
    }
    if (!any || base > 1'000'000'000) break;
  }

  // The crawler's own judgement, when its database is given.
  if (!o.db_paths.empty()) {
    for (const auto& p : o.db_paths) e.db_path += (e.db_path.empty() ? "" : " + ") + p;
    auto db = crawler::open_shards(o.db_paths);
    if (!db) return db.status();
    auto st = db->prepare("SELECT url, final_url, relevant FROM pages WHERE relevant IS NOT NULL ORDER BY id");
    if (!st) return R::Error("'" + e.db_path + "' is not a crawl database: " + st.status().message());
    std::set<std::string> done;
    while (st->step()) {
      const std::string final_url = st->column_text(1).empty() ? st->column_text(0) : st->column_text(1);
      const std::string page = truth->resolve(canonical_form(final_url));
      if (!done.insert(page).second) continue;
      ++e.db_pages_judged;
      const TruthPage* p = truth->find(page);
      const bool truth_rel = p && truth->relevant(page, e.days);
      const bool crawl_rel = st->column_int(2) != 0;
      if (truth_rel != crawl_rel) e.disagreements.push_back({page, truth_rel, crawl_rel});
    }
    if (!st->status().ok()) return R::Error("reading '" + e.db_path + "': " + st->status().message());
  }
  return e;
}

namespace {

double precision_at(const RunCurve& r, std::size_t n) {
  return n == 0 ? 0.0 : static_cast<double>(r.relevant_at[n - 1]) / static_cast<double>(n);
}
double ratio(int a, int b) { return b == 0 ? 0.0 : static_cast<double>(a) / b; }

}  // namespace

std::string cutoffs_csv(const CrawlEvaluation& e) {
  std::string out = "run,pages,relevant,precision,recall_reachable,recall_union\n";
  for (const RunCurve& r : e.runs) {
    std::vector<std::size_t> at;
    for (std::size_t c : e.cutoffs)
      if (c <= r.pages()) at.push_back(c);
    if (r.pages() > 0 && (at.empty() || at.back() != r.pages())) at.push_back(r.pages());
    for (std::size_t n : at) {
      const int rel = r.relevant_at[n - 1];
      out += r.name + "," + std::to_string(n) + "," + std::to_string(rel) + "," + fmt(precision_at(r, n), 4) + "," +
             fmt(ratio(rel, e.reachable_relevant), 4) + "," + fmt(ratio(rel, e.union_relevant), 4) + "\n";
    }
  }
  return out;
}

std::string curves_csv(const CrawlEvaluation& e) {
  std::string out = "run,pages,relevant,precision,recall_reachable,recall_union\n";
  for (const RunCurve& r : e.runs) {
    for (std::size_t n = 1; n <= r.pages(); ++n) {
      const int rel = r.relevant_at[n - 1];
      out += r.name + "," + std::to_string(n) + "," + std::to_string(rel) + "," + fmt(precision_at(r, n), 4) + "," +
             fmt(ratio(rel, e.reachable_relevant), 4) + "," + fmt(ratio(rel, e.union_relevant), 4) + "\n";
    }
  }
  return out;
}

std::string disagreements_csv(const CrawlEvaluation& e) {
  std::string out = "url,truth_relevant,crawler_relevant\n";
  for (const TaggerDisagreement& d : e.disagreements)
    out += d.url + "," + (d.truth_relevant ? "1" : "0") + "," + (d.crawler_relevant ? "1" : "0") + "\n";
  return out;
}

std::string summary_markdown(const CrawlEvaluation& e) {
  std::ostringstream md;
  md << "# Crawl evaluation, scope " << e.scope << "\n\n";
  md << "- truth: " << e.truth_urls << " URLs, " << e.truth_relevant << " relevant pages that may be fetched\n";
  if (e.seeds.empty())
    md << "- seeds: none (no seeds file; give --oracle-seeds FILE): no oracle run, and recall (reachable) is "
          "measured against every relevant page of the web, "
       << e.reachable_relevant << "\n";
  else
    md << "- seeds: " << e.seeds.size() << "; relevant pages reachable from them: " << e.reachable_relevant << "\n";
  md << "- relevant pages found by the runs together (union): " << e.union_relevant << "\n\n";
  md << "Precision = distinct relevant pages among the first n downloads / n. Recall (reachable) = the same count / "
        "relevant pages reachable from the seeds; recall (union) = / relevant pages found by any run, the oracle included.\n\n";
  md << "## Precision at n pages downloaded\n\n| n |";
  for (const RunCurve& r : e.runs) md << " " << r.name << " |";
  md << "\n|---:|";
  for (std::size_t i = 0; i < e.runs.size(); ++i) md << "---:|";
  md << "\n";
  auto row = [&](const std::string& label, const std::function<std::string(const RunCurve&)>& cell) {
    md << "| " << label << " |";
    for (const RunCurve& r : e.runs) md << " " << cell(r) << " |";
    md << "\n";
  };
  for (std::size_t c : e.cutoffs)
    row(std::to_string(c), [&](const RunCurve& r) { return c <= r.pages() ? percent(precision_at(r, c)) : std::string("-"); });
  row("end", [&](const RunCurve& r) {
    return r.pages() ? percent(precision_at(r, r.pages())) + " (" + std::to_string(r.pages()) + ")" : std::string("-");
  });
  md << "\n## Recall at n pages downloaded (reachable / union)\n\n| n |";
  for (const RunCurve& r : e.runs) md << " " << r.name << " |";
  md << "\n|---:|";
  for (std::size_t i = 0; i < e.runs.size(); ++i) md << "---:|";
  md << "\n";
  auto recall = [&](const RunCurve& r, std::size_t n) {
    const int rel = r.relevant_at[n - 1];
    return percent(ratio(rel, e.reachable_relevant)) + " / " + percent(ratio(rel, e.union_relevant));
  };
  for (std::size_t c : e.cutoffs) row(std::to_string(c), [&](const RunCurve& r) { return c <= r.pages() ? recall(r, c) : std::string("-"); });
  row("end", [&](const RunCurve& r) { return r.pages() ? recall(r, r.pages()) : std::string("-"); });
  if (!e.time_cutoffs.empty()) {
    md << "\n## Relevant pages by crawling time\n\n"
          "Distinct relevant pages (and downloads) whose transfer started within t seconds of crawling (the order "
          "files' second column). The oracle follows the same links as above, first found first, keeping every host "
          "busy at the crawls' politeness (one request per host per delay after the previous response ended, "
          "robots.txt Crawl-delay obeyed), its responses taking "
       << (e.db_path.empty() ? std::string("no time (no crawl database given)")
                             : "the crawl's measured response time per host (mean " + fmt(e.oracle_latency_s * 1000, 1) +
                                   " ms, `pages.duration_ms` of " + e.db_path + ")")
       << ".\n\n| t |";
    for (const RunCurve& r : e.runs)
      if (!r.time.empty()) md << " " << r.name << " |";
    md << "\n|---:|";
    for (const RunCurve& r : e.runs)
      if (!r.time.empty()) md << "---:|";
    md << "\n";
    for (double t : e.time_cutoffs) {
      md << "| " << fmt(t, 0) << " s |";
      for (const RunCurve& r : e.runs) {
        if (r.time.empty()) continue;
        if (!r.oracle && t > r.time.seconds.back()) md << " - |";
        else md << " " << r.time.relevant_by(t) << " (" << r.time.pages_by(t) << ") |";
      }
      md << "\n";
    }
  }
  md << "\n## Where the irrelevant downloads came from\n\n"
        "Distinct pages that are not relevant, by the truth sections linking to them from pages of the same run. "
        "Those linked from an in-scope paragraph are what any crawl following in-scope links fetches; the others "
        "came through links the truth puts outside the scope.\n\n";
  md << "| run | not relevant | via an in-scope paragraph | only furniture | only undated paragraphs | "
        "only other periods | a mix of those | not linked (seeds…) |\n|---|---:|---:|---:|---:|---:|---:|---:|\n";
  for (const RunCurve& r : e.runs) {
    const IrrelevantSources& s = r.sources;
    md << "| " << r.name << " | " << s.total << " | " << s.in_scope << " | " << s.furniture << " | " << s.undated
       << " | " << s.out_of_scope << " | " << s.several << " | " << s.unlinked << " |\n";
  }
  if (!e.db_path.empty()) {
    int missed = 0, extra = 0;
    for (const auto& d : e.disagreements) (d.truth_relevant ? missed : extra)++;
    md << "\n## The crawler's tagger against the truth (" << e.db_path << ")\n\n";
    md << "- pages judged by the crawler: " << e.db_pages_judged << "\n";
    md << "- relevant by the truth, not by the crawler (missed): " << missed << "\n";
    md << "- relevant by the crawler, not by the truth (false alarms): " << extra << "\n";
    int shown = 0;
    for (const auto& d : e.disagreements) {
      if (shown++ >= 20) {
        md << "- … (all in tagger-disagreements.csv)\n";
        break;
      }
      md << "- " << (d.truth_relevant ? "missed: " : "false alarm: ") << d.url << "\n";
    }
  }
  return md.str();
}

std::string chart_svg(const CrawlEvaluation& e) {
  const int panel_w = 440, panel_h = 300, left = 60, top = 40, gap = 90, legend_h = 30;
  const int width = left + panel_w + gap + panel_w + 30, height = top + panel_h + 50 + legend_h;
  static const char* kColors[] = {"#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b", "#e377c2"};
  std::size_t longest = 1;
  for (const RunCurve& r : e.runs) longest = std::max(longest, r.pages());
  // A round upper bound for the x axis: 1, 2 or 5 × 10^k.
  double xmax = 1;
  while (xmax < static_cast<double>(longest)) {
    if (xmax * 2 >= static_cast<double>(longest)) { xmax *= 2; break; }
    if (xmax * 5 >= static_cast<double>(longest)) { xmax *= 5; break; }
    xmax *= 10;
  }
  std::ostringstream s;
  s << "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" << width << "\" height=\"" << height << "\" viewBox=\"0 0 "
    << width << " " << height << "\" font-family=\"sans-serif\" font-size=\"12\">\n";
  s << "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n";
  auto panel = [&](int x0, const std::string& title, const std::function<double(const RunCurve&, std::size_t)>& value) {
    s << "<text x=\"" << x0 + panel_w / 2 << "\" y=\"" << top - 15 << "\" text-anchor=\"middle\" font-size=\"14\" font-weight=\"bold\">"
      << title << " (scope " << e.scope << ")</text>\n";
    for (int k = 0; k <= 5; ++k) {
      const double y = top + panel_h - panel_h * k / 5.0;
      s << "<line x1=\"" << x0 << "\" y1=\"" << fmt(y, 1) << "\" x2=\"" << x0 + panel_w << "\" y2=\"" << fmt(y, 1)
        << "\" stroke=\"#ddd\"/>\n";
      s << "<text x=\"" << x0 - 6 << "\" y=\"" << fmt(y + 4, 1) << "\" text-anchor=\"end\">" << k * 20 << "%</text>\n";
    }
    for (int k = 0; k <= 5; ++k) {
      const double x = x0 + panel_w * k / 5.0;
      s << "<line x1=\"" << fmt(x, 1) << "\" y1=\"" << top + panel_h << "\" x2=\"" << fmt(x, 1) << "\" y2=\""
        << top + panel_h + 5 << "\" stroke=\"black\"/>\n";
      s << "<text x=\"" << fmt(x, 1) << "\" y=\"" << top + panel_h + 18 << "\" text-anchor=\"middle\">"
        << static_cast<long long>(std::llround(xmax * k / 5.0)) << "</text>\n";
    }
    s << "<rect x=\"" << x0 << "\" y=\"" << top << "\" width=\"" << panel_w << "\" height=\"" << panel_h
      << "\" fill=\"none\" stroke=\"black\"/>\n";
    s << "<text x=\"" << x0 + panel_w / 2 << "\" y=\"" << top + panel_h + 36 << "\" text-anchor=\"middle\">pages downloaded</text>\n";
    for (std::size_t i = 0; i < e.runs.size(); ++i) {
      const RunCurve& r = e.runs[i];
      if (r.pages() == 0) continue;
      const std::size_t step = std::max<std::size_t>(1, r.pages() / 400);
      s << "<polyline fill=\"none\" stroke=\"" << (r.oracle ? "#555555" : kColors[i % 7]) << "\" stroke-width=\"2\""
        << (r.oracle ? " stroke-dasharray=\"6,4\"" : "") << " points=\"";
      for (std::size_t n = 1; n <= r.pages(); n += step) {
        const double x = x0 + panel_w * static_cast<double>(n) / xmax;
        const double y = top + panel_h - panel_h * std::clamp(value(r, n), 0.0, 1.0);
        s << fmt(x, 1) << "," << fmt(y, 1) << " ";
      }
      const double x = x0 + panel_w * static_cast<double>(r.pages()) / xmax;
      s << fmt(x, 1) << "," << fmt(top + panel_h - panel_h * std::clamp(value(r, r.pages()), 0.0, 1.0), 1) << "\"/>\n";
    }
  };
  panel(left, "Precision", [](const RunCurve& r, std::size_t n) { return precision_at(r, n); });
  panel(left + panel_w + gap, "Recall of reachable relevant pages",
        [&](const RunCurve& r, std::size_t n) { return ratio(r.relevant_at[n - 1], e.reachable_relevant); });
  // Legend.
  int lx = left;
  const int ly = top + panel_h + 60;
  for (std::size_t i = 0; i < e.runs.size(); ++i) {
    const RunCurve& r = e.runs[i];
    s << "<line x1=\"" << lx << "\" y1=\"" << ly << "\" x2=\"" << lx + 28 << "\" y2=\"" << ly << "\" stroke=\""
      << (r.oracle ? "#555555" : kColors[i % 7]) << "\" stroke-width=\"3\"" << (r.oracle ? " stroke-dasharray=\"6,4\"" : "")
      << "/>\n";
    const std::string name = temporal::xml_escape(r.name);
    s << "<text x=\"" << lx + 34 << "\" y=\"" << ly + 4 << "\">" << name << " (" << r.pages() << " pages)</text>\n";
    lx += 60 + static_cast<int>(name.size() + 12) * 7;
  }
  s << "</svg>\n";
  return s.str();
}

}  // namespace cronista::eval
