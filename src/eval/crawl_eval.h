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

struct RunCurve {
  std::string name;
  bool oracle = false;
  IrrelevantSources sources;
  std::vector<std::string> lines;  // canonical, as downloaded
  std::vector<int> relevant_at;    // distinct relevant pages among the first i+1 lines
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
  std::vector<std::string> names;  // optional, one per order file
  std::string seeds_path;          // empty: seeds-<scope>.txt beside the truth file, if present
  bool oracle = true;
  std::string db_path;             // optional crawl database (pages.relevant)
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
  std::vector<TaggerDisagreement> disagreements;
  std::string db_path;
  int db_pages_judged = 0;
};

Result<CrawlEvaluation> evaluate_crawls(const EvalCrawlOptions& options);

// Outputs. Precision/recall as fractions in CSV, percentages in Markdown.
std::string cutoffs_csv(const CrawlEvaluation& e);
std::string curves_csv(const CrawlEvaluation& e);
std::string disagreements_csv(const CrawlEvaluation& e);
std::string summary_markdown(const CrawlEvaluation& e);
// Two panels side by side (precision, recall against reachable relevant
// pages) over pages downloaded, one curve per run, legend; self-contained.
std::string chart_svg(const CrawlEvaluation& e);

}  // namespace cronista::eval
