// The crawl loop of method.md §3: take the best URL the frontier offers among
// the hosts politeness allows → check robots.txt → fetch → decode, parse,
// tag and segment (on worker threads) → keep the links of in-scope segments
// (all links in general mode) → push them to the frontier, counting
// backlinks → repeat until the page budget is spent or the frontier is empty.
//
// A URL's backlinks are the distinct downloaded pages whose kept links point
// at it (in-scope links of main text in temporal mode, every link in general
// mode): the priority ranks what the crawl would follow, among what it
// follows. A page is relevant when a segment of its main text is in the
// period; page furniture (navigation, headers, footers, sidebars) never
// makes it so. In temporal mode the links of in-scope page furniture (a
// dated header or footer line) are not followed: the crawl ends when the
// links of in-scope main text are spent, unless follow_furniture asks it to
// go on with them (lowest priority, no backlink counted); a link whose
// anchor text holds dates is kept when
// they all lie in the period and dropped otherwise, whatever its segment;
// a kept link's priority adds a penalty (crawl.cc: link_penalty and the
// constants beside it) for a segment near an end of the period, a
// paragraph without a date of its own, a URL dated before the period and
// anchor words that so far named pages out of the period (TitleWords);
// and the frontier serves the globally best links first (FrontierOptions::
// priority_slack), but fills a host's free politeness slot with its best
// link when that link is worth a page of the budget (fill_free_slots). A page
// is a download when its fetch ended with an HTTP response that is not a
// redirect; downloads are numbered in the order their analysis completes
// (history, --order-out).
//
// One thread runs the libcurl event loop and owns the frontier and the host
// table; analysis runs on a pool of worker threads (Tagger::tag is const);
// the database and the WARC are written by the store's single writer thread.
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "crawler/shared_work.h"
#include "revisit/revisit_schedule.h"
#include "temporal/genre.h"
#include "temporal/scope.h"
#include "temporal/status.h"

namespace cronista::crawler {

struct CrawlOptions {
  std::vector<std::string> seeds;
  std::string db;
  std::string from, to;  // as given (recorded in the run)
  temporal::Period period;
  bool temporal_mode = true;  // false: --mode general
  std::int64_t max_pages = 0;  // 0: until the frontier is empty (distinct pages, over every run)
  // Revisits (crawl.cc, "revisits"): downloaded pages stay scheduled with a
  // next-due time and are fetched again; the crawl does not end when nothing
  // new is left, only at run_for_s, max_fetches or a signal.
  bool revisit = false;
  revisit::RevisitPolicy revisit_policy = revisit::RevisitPolicy::kOptimal;
  // The prior change rate of a page (its estimate before it has a history):
  // predicted from its first fetch's features by a model the crawl trains
  // on its own visits (revisit/rate_prior.h), or the constant pooled over
  // the crawl's visits (false, the default: --rate-prior constant; the
  // learned prior measured a better error of ln λ but no better freshness,
  // docs/living-web.md).
  bool learned_rate_prior = false;
  double run_for_s = 0;          // this run ends after this many seconds (0: no limit)
  std::int64_t max_fetches = 0;  // this run ends after this many page requests (0: no limit)
  // Requests per second over the whole crawl, new pages and revisits (0: as
  // fast as politeness allows). With revisits it is the budget the schedule
  // shares out; without a rate, the budget is every host's politeness cap.
  double fetch_rate = 0;
  // The mean time a new URL may wait on the hubs that announce it: the
  // revisits spent on discovery (revisit_schedule.h).
  double discovery_wait_s = revisit::RevisitOptions{}.discovery_wait_s;
  std::string order_out;
  std::string warc;
  std::vector<std::string> allow_hosts;
  bool same_host = false;
  int delay_ms = 1000;
  int host_connections = 1;
  int connections = 32;
  double threshold = 0.99;
  // Temporal mode, FrontierOptions::priority_slack: how much worse than the
  // best link of a host that will soon be ready a link may be and still be
  // fetched now (-1: keep every host busy). Backlink priorities are 100 (no
  // counted backlink: seeds, links of dated page furniture), 50, 33, 25…;
  // 0 serves the best tier only. The general crawl, the breadth-first-like
  // baseline of method.md §4, always keeps every host busy.
  int priority_slack = 0;
  // Temporal mode: a ready host whose best link the slack holds back is
  // served anyway when that link is worth a page of the budget (crawl.cc,
  // worth_a_slot): within --max-pages of the best queued links, or expected
  // (LinkYield: pages reached through links of the same priority so far) to
  // be as relevant as the last link the budget reaches; with no page budget,
  // always. false: the slack alone decides (hosts may idle).
  bool fill_free_slots = true;
  // Temporal mode: the link penalty added to the priority of a link in a
  // segment at an end of the period, falling to 0 for a segment a year or
  // more inside it (crawl.cc, link_penalty). 0: backlinks alone.
  int max_link_penalty = 40;
  // Temporal mode: also follow the links of in-scope page furniture (a dated
  // header or footer), after every link of in-scope main text. Without it
  // the crawl ends (frontier-empty) once the in-scope links are spent.
  bool follow_furniture = false;
  std::string user_agent;  // empty: "cronista/<version> (+contact)"
  std::string contact;
  std::string ca_file;  // HTTPS trust anchors instead of the system's (FetcherOptions)
  std::vector<std::string> resolve;  // HOST:PORT:ADDRESS entries resolved without DNS (FetcherOptions)
  // Replica detection during the crawl (replica_watch.h): hosts found to
  // replicate another are verified by probes, then fetched no more, their
  // URLs rewritten onto the canonical host. false: --replicas off.
  bool replicas_detect = true;
  bool resume = false;
  int max_depth = -1;
  std::int64_t max_pages_per_host = 0;
  int timeout_ms = 30000;
  int connect_timeout_ms = 10000;
  std::size_t max_body_bytes = 10 * 1024 * 1024;
  int threads = 0;  // analysis threads, 0 = hardware concurrency
  int retries = 3;
  int retry_base_ms = 1000;
  int max_retry_wait_ms = 120000;
  int max_redirects = 10;
  std::string home;    // tagger resources; empty = temporal::default_home()
  std::vector<std::string> pattern_files;  // empty: the tagger's default pattern files
  temporal::Genre genre = temporal::Genre::News;  // how the tagger reads undated expressions
  std::string args;    // the command line, recorded in the run
  std::chrono::milliseconds progress_interval{2000};
  bool progress = true;
  // One crawl, many workers (shared_work.h): URLs come from and go to this
  // shared frontier, max_pages is the budget of the whole crawl, and this
  // run ends when it stays unreachable for shared_patience.
  std::shared_ptr<SharedWork> shared;
  std::chrono::seconds shared_patience{30};
  // Called once everything is set up, before the first fetch (the command's
  // start banner: printed only for a crawl that really starts).
  std::function<void()> on_started;
};

struct CrawlSummary {
  std::int64_t pages = 0;        // downloaded in this run
  std::int64_t total_pages = 0;  // including earlier runs of a resumed crawl
  std::int64_t relevant = 0;     // relevant pages downloaded in this run
  std::int64_t total_relevant = 0;
  std::int64_t segments = 0, segments_in_scope = 0;
  double seconds = 0;
  std::int64_t queued = 0;  // URLs left in the frontier
  std::map<std::string, std::int64_t> errors;   // by kind
  std::map<std::string, std::int64_t> skipped;  // links not queued, by link-filter reason
  std::int64_t fetches = 0;       // page requests answered in this run (new pages, revisits, redirects)
  std::int64_t revisits = 0;      // revisits answered in this run
  std::int64_t spare_revisits = 0;  // revisits started before their due time, in slots nothing else took
  std::int64_t lost_documents = 0;  // revisits answered without a document (a redirect, a 4xx or 5xx, a body not analysed)
  std::int64_t changed = 0;       // revisits that found the main text changed
  std::int64_t not_modified = 0;  // revisits answered 304 Not Modified
  // The revisit schedule at the end: the pages it holds, their revisit
  // frequencies summed and the budget its last solve shared out (per second).
  std::int64_t scheduled = 0;
  double scheduled_rate = 0, revisit_budget = 0;
  // The rate prior at the end of the run: the visits the learned model was
  // last trained on (0: not trained, or --rate-prior constant), the pages
  // whose prior in the schedule is its prediction, and the spread (standard
  // deviation of ln λ) of those priors.
  std::int64_t prior_trained_on = 0, prior_predicted = 0;
  double prior_log_rate_sd = 0;
  // A temporal crawl's record of title words (the topic signal of its
  // links): the page titles it learnt, every worker's in a shared crawl,
  // those of the pages downloaded before a --resume included, and the
  // words it holds (0 without the signal).
  std::int64_t titles_learnt = 0, title_words = 0;
  std::string end_reason;  // max-pages, frontier-empty, run-for, max-fetches, interrupted, frontier-lost
};

// Runs a crawl. `stop` (may be null) is polled: when it turns true the
// crawl stops cleanly (transfers in flight are abandoned and will be fetched
// again on --resume; everything fetched and analysed is written).
Result<CrawlSummary> run_crawl(const CrawlOptions& options, const std::atomic<bool>* stop);

}  // namespace cronista::crawler
