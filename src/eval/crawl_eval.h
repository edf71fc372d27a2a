// Scoring crawls against a sample web's ground truth (method.md §4, with
// truth instead of the crawler's own judgement; semantics in
// docs/sample-web.md).
//
// Inputs: truth.jsonl (sample_web.h), a scope, the download order of one or
// more crawls (`cronista crawl --order-out`, one URL per line). For each run
// and each number n of pages downloaded: precision = distinct relevant pages
// among the first n lines / n; recall against every relevant page reachable
// from the seeds (through any link of any fetchable page, robots.txt
// obeyed), and recall against the union of the relevant pages the runs found
// (the original study's measure; the oracle counts as a run, so no recall
// exceeds 100%). An *oracle* run is added: breadth-first
// from the seeds, following exactly the links that sit in truly in-scope
// paragraphs — what a perfect tagger with no ordering cleverness would do.
//
// URLs are compared in CanonicalUrl form (crawler/url.h), the form the
// crawler writes; a line that is a redirect counts as the page it leads to.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "temporal/chronon.h"
#include "temporal/status.h"

namespace cronista::eval {

struct TruthSection {
  std::vector<std::pair<temporal::DayNumber, temporal::DayNumber>> periods;  // inclusive day ranges
  bool boilerplate = false;
  std::vector<std::string> links;  // canonical
};

struct TruthPage {
  std::string url;  // canonical
  int status = 200;
  std::string location;  // canonical, for redirects
  bool disallowed = false;
  std::vector<TruthSection> sections;
};

// Main text (not furniture) stating periods that all lie in the scope.
bool section_in_scope(const TruthSection& s, const temporal::DayRange& scope);

class CrawlTruth {
 public:
  static Result<CrawlTruth> load(const std::string& path);

  const TruthPage* find(const std::string& canonical_url) const;
  // Follows redirects (at most 10 hops); the URL itself when it is not one.
  std::string resolve(const std::string& canonical_url) const;
  // Status 200, and a non-furniture section whose every period lies in the scope.
  bool relevant(const std::string& canonical_url, const temporal::DayRange& scope) const;
  std::size_t size() const { return pages_.size(); }
  const std::map<std::string, TruthPage>& pages() const { return pages_; }

 private:
  std::map<std::string, TruthPage> pages_;
};

// "1939-1945", "2001", "1939-09..1945-05", "2001-09-11": each end widened to
// its granularity, as --from/--to are.
Result<temporal::DayRange> parse_scope(const std::string& text);

// URL → canonical string (CanonicalUrl); the trimmed text itself when it
// does not parse.
std::string canonical_form(const std::string& url);

// Where a run's downloads that are not relevant came from: the kinds of
// truth sections that link to them among the pages the run downloaded. A
// page linked from an in-scope paragraph would be fetched by the oracle too;
// the others came through links the truth puts outside the scope (page
// furniture, undated paragraphs, paragraphs about other periods).
struct IrrelevantSources {
  int total = 0;
  int in_scope = 0;        // linked from at least one in-scope paragraph
  int furniture = 0;       // only from furniture (navigation, sidebars, footers)
  int undated = 0;         // only from paragraphs stating no period
  int out_of_scope = 0;    // only from paragraphs about other periods
  int several = 0;         // only from a mix of the three above
  int unlinked = 0;        // seeds, or linked from no page of the run
};

// Relevant pages against crawling time: after the i-th download in time
// order (seconds[i], ascending), relevant[i] distinct relevant pages.
struct TimeCurve {
  std::vector<double> seconds;
  std::vector<int> relevant;
  bool empty() const { return seconds.empty(); }
  // Downloads and relevant pages fetched by `t` seconds.
  std::size_t pages_by(double t) const;
  int relevant_by(double t) const;
};

struct RunCurve {
  std::string name;
  bool oracle = false;
  IrrelevantSources sources;
  std::vector<std::string> lines;  // canonical, as downloaded
  std::vector<double> seconds;     // per line, the order file's second column (empty: none given)
  std::vector<int> relevant_at;    // distinct relevant pages among the first i+1 lines
  // The oracle's: its timed walk (oracle_timeline); a run's: from `seconds`.
  TimeCurve time;
  int relevant() const { return relevant_at.empty() ? 0 : relevant_at.back(); }
  std::size_t pages() const { return lines.size(); }
};

// A page the crawler judged differently from the truth (crawl DB given).
struct TaggerDisagreement {
  std::string url;
  bool truth_relevant = false;
  bool crawler_relevant = false;
};

struct EvalCrawlOptions {
  std::string truth_path;
  std::string scope;
  std::vector<std::string> order_paths;
  // One more run read from crawl databases: the download order of their
  // history, several being the shards of one shared crawl merged by fetch
  // time (crawler/crawl_shards.h), each download's time counted from the
  // earliest run start.
  std::vector<std::string> order_dbs;
  std::vector<std::string> names;  // optional, one per order file, then one for order_dbs
  std::string seeds_path;          // empty: seeds-<scope>.txt beside the truth file, if present
  bool oracle = true;
  std::vector<std::string> db_paths;  // optional crawl database, or shards of one crawl (pages.relevant)
  // The oracle's politeness on the time axis: the minimum gap between two
  // requests to one host (the crawls' --delay-ms), raised by a host's
  // robots.txt Crawl-delay when the sample web's files are beside the truth.
  int delay_ms = 1000;
};

struct CrawlEvaluation {
  std::string scope;
  temporal::DayRange days;
  std::vector<std::string> seeds;
  std::size_t truth_urls = 0;
  int truth_relevant = 0;       // relevant pages in the whole web (fetchable)
  int reachable_relevant = 0;   // … reachable from the seeds
  int union_relevant = 0;       // … found by at least one of the runs (oracle included)
  std::vector<RunCurve> runs;   // the given runs, then the oracle
  std::vector<std::size_t> cutoffs;
  std::vector<double> time_cutoffs;  // seconds: 30, 60, 120, 300, 600, 1200, 1800, 3600…
  std::vector<TaggerDisagreement> disagreements;
  std::string db_path;
  int db_pages_judged = 0;
  // The oracle's mean response time on the time axis: the crawl's measured
  // one (crawl_latencies) when a database is given, else 0.
  double oracle_latency_s = 0;
};

Result<CrawlEvaluation> evaluate_crawls(const EvalCrawlOptions& options);

// The oracle on the time axis: the oracle's crawl (the links of truly
// in-scope paragraphs, first discovered first) keeping every host busy at
// the same politeness as the crawler's: robots.txt at time 0; a request to
// a host takes `latency` seconds (sent to end of response; none when empty),
// its links usable when it ends; the host's next request `gap` after that
// end (a redirect hop costs a request; its target is queued on its own
// host). Downloads (URL, seconds when the request was sent, as the crawl's
// order file) in time order, up to `horizon` seconds.
using HostGap = std::function<double(const std::string& canonical_url)>;
using HostLatency = std::function<double(const std::string& canonical_url)>;
std::vector<std::pair<std::string, double>> oracle_timeline(const CrawlTruth& truth,
                                                            const std::vector<std::string>& seeds,
                                                            const temporal::DayRange& scope, double horizon,
                                                            const HostGap& gap, const HostLatency& latency = {});
// The response times a crawl measured on the web it crawled (pages.duration_ms
// of the crawl databases, or shards of one crawl): a host's mean, and for a
// host the crawl never reached the mean over every response. Sets *mean_s
// to that overall mean (0 when the databases hold no response).
Result<HostLatency> crawl_latencies(const std::vector<std::string>& db_paths, double* mean_s);
// Seconds between two requests to the host of a URL: `delay_ms`, or the
// Crawl-delay of the host's robots.txt in the sample web beside `truth_path`
// (web.json, sites/NAME/files/robots.txt) when longer.
HostGap sample_web_gaps(const std::string& truth_path, int delay_ms);
// The time curve of downloads (canonical URL, seconds), in any order.
TimeCurve time_curve(const CrawlTruth& truth, const temporal::DayRange& scope,
                     const std::vector<std::string>& lines, const std::vector<double>& seconds);
// Relevant pages by crawling time: run,seconds,pages,relevant at each time
// cut-off a run reaches (runs with times only).
std::string time_cutoffs_csv(const CrawlEvaluation& e);
// Relevant pages against seconds of crawling, one curve per timed run, the
// oracle dashed; self-contained.
std::string time_chart_svg(const CrawlEvaluation& e);

// Outputs. Precision/recall as fractions in CSV, percentages in Markdown.
std::string cutoffs_csv(const CrawlEvaluation& e);
std::string curves_csv(const CrawlEvaluation& e);
std::string disagreements_csv(const CrawlEvaluation& e);
std::string summary_markdown(const CrawlEvaluation& e);
// Two panels side by side (precision, recall against reachable relevant
// pages) over pages downloaded, one curve per run, legend; self-contained.
std::string chart_svg(const CrawlEvaluation& e);

}  // namespace cronista::eval
