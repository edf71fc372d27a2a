// When to fetch each downloaded page again: the revisit schedule of a crawl.
//
// Every page fetched once joins the schedule with its host, a weight (its
// importance: in a temporal crawl, its relevance) and a prior change rate
// (a classifier of its features, or a constant). Each later visit reports
// whether the main text changed and how many new URLs the page announced.
// From these the schedule keeps, per page:
// - the change rate λ̂, the maximum-likelihood estimate over its visits with
//   the prior as pseudo-visits (change_rate.h);
// - its yield, the new URLs it announced per fetch (an exponentially
//   weighted mean), which makes it a hub.
// The prior is fitted to the crawl's pages (empirical Bayes, the
// Gamma–Poisson model). A page's prior mean μ is its given prior rate times
// its host's factor: the changes the host's pages showed over the changes
// their given priors expected, each side starting from one. Around those
// means the rates are taken to spread as Gammas of one shape α (variance
// μ²/α), so a page that saw x changes in T seconds has the posterior mean
// (α + x) / (α/μ + T): the prior weighs α/μ seconds of observation. α comes
// from the spread of the observed rates x_i / T_i less the spread counting
// itself adds (μ_i / T_i per page):
//   α̂ = Σ T_i μ_i² / (Σ T_i (x_i/T_i − μ_i)² − Σ μ_i).
// Pages that change alike (large α) pull each estimate hard towards its
// mean; pages that differ widely let their histories speak. While a revisit
// sees at most one change (λ/f small, where freshness is nearly linear in
// λ), the posterior mean is also the rate that maximises the expected
// freshness of an allocation, so it is the estimate the optimum is given.
// `resolve()` shares out the revisit budget (fetches per second) by the
// chosen policy under the per-host caps (allocation.h), in two parts:
// - discovery: to pages by the rate a_i at which they announce new URLs
//   (their yield times their visits per second). A new URL waits on its hub
//   half the hub's interval, so Σ a_i / (2 g_i) over Σ a_i is the mean
//   wait; for a spend D it is least with g_i ∝ √a_i, and it equals
//   `discovery_wait_s` at D = (Σ √a_i)² / (2 · wait · Σ a_i). Discovery
//   spends that D, at most `hub_share` of the budget, only while some page
//   has announced something; every page takes part, whatever its weight
//   (a page of weight 0 is revisited only as a hub);
// - freshness: the rest, by the policy (the optimum, or a reference one),
//   within what discovery left of each host's cap.
// A page's next visit is its last visit plus 1/f (visits evenly spaced); a
// page with f = 0 is not revisited until a resolve gives it a frequency. A
// page added after a resolve starts with the mean frequency that resolve
// gave (when it has a weight or a yield), until the next one.
//
// New URLs and revisits share one crawl budget by this rule: the crawl
// reports the rate at which it fetches new URLs (`set_new_url_rate`) and
// the fastest its queued new URLs could be fetched (`set_new_url_capacity`:
// their hosts' caps, 0 when none is queued); revisits get the rest of the
// budget, but never less than `min_revisit_share` of it while any page is
// scheduled, and never more than leaves new URLs `min_new_share` of it (or
// their capacity, if lower), so that revisits cannot starve new URLs of
// the slots that would show their rate.
//
// The budget is spent whole (work-conserving): a request slot of the
// budget that no due revisit and no new URL can take goes to the scheduled
// page due earliest whose host's politeness allows a fetch now
// (`earliest_ready`), its visit brought forward. Taking pages in the order
// of their due times advances the schedule as a whole rather than any one
// page; the visit resets the page's clock, so its following visits keep
// the spacing its frequency gives. A visit is brought forward by at most
// half the page's interval (1/2f): without that bound, a page of short
// interval visited by a spare slot is again the page due earliest, and
// while the others were all visited recently (a collection just crawled)
// every spare slot went back to it, a second apart, to find it unchanged.
// So spare visits at most double a page's frequency, and a spare slot
// that no page can take that early stays unused. Pages the policy gave no frequency (the
// optimum's abandoned pages) are not scheduled; neither they nor the pages
// without a freshness weight (hubs only, and under the optimum the pages
// without a document, below) take spare slots.
//
// A page's freshness weight counts only while it has a document: while its
// last answer was a page the crawl analyses (HTML with 2xx) or a feed or a
// sitemap (weight 0 anyway: hubs only). A revisit answered by a redirect, a
// 4xx or a 5xx, or a 2xx body that is neither (`set_document(page, false)`)
// leaves it without one; a transport failure (no answer) says nothing of
// the page and changes nothing. Under the optimum a page without a
// document has weight 0: its share goes to pages with documents, it is
// revisited as a hub only (by the yield of its earlier visits, which its
// empty answers wear down) and it never takes a spare slot; it is asked
// again 60 s after the answer, then after twice the wait each time it
// answers without a document again (120 s, 240 s, … at most a day), or
// sooner when its hub frequency says so. The first answer that is a
// document again gives it back its weight (`set_document(page, true)`),
// its clock restarting then (the gap teaches nothing of its rate), and the
// mean frequency of the last resolve until the next one, as a new page. A
// redirect's target is a URL of its own (queued like any link), so nothing
// is lost by not refreshing the redirect. The reference policies keep
// revisiting such pages as deployed crawlers do (Nutch fetches redirects
// and gone pages again at its intervals): their weight stays, the page is
// asked again at its frequency but not sooner than 60 s after the answer.
// Spare slots, the crawl's rule for every policy, go only to pages with a
// freshness weight (a hub of weight 0 is not brought forward: the visit
// would add no freshness). A first download that is not a document (a
// redirect, an error status, a body not analysed) does not join the
// schedule at all, under any policy.
//
// Memory per page: a fixed record (176 bytes a page measured at a million,
// the newest kKeptObservations visits included; older unchanged intervals are summed,
// older changed ones kept as a count and a mean interval). resolve() took
// 3.4 s of CPU for a million pages on 1,000 hosts (bench/revisit_bench.cc). Not thread-safe: one owner
// (the crawl loop).
#pragma once

#include <array>
#include <cstdint>
#include <functional>
#include <optional>
#include <queue>
#include <vector>

#include "revisit/allocation.h"
#include "revisit/change_rate.h"

namespace cronista::revisit {

// kOptimal, kUniform and kProportional share out the budget (allocation.h).
// The two baselines of deployed crawlers do not (freshness.md §2, §4):
// - kAdaptive, Nutch's AdaptiveFetchSchedule: a page's interval starts at
//   the uniform one (pages / budget) and is multiplied by 1 + 0.4 after a
//   visit that saw no change and by 1 - 0.2 after one that did, within
//   [60 s, 365 days];
// - kClasses, the Barbosa study's four classes revisited at intervals in
//   the ratio 1 : 3 : 30 : 97, scaled so that the classes spend the budget;
//   a page starts in the second class and moves one class faster when at
//   least 80% of its last n visits saw a change, one slower when at most
//   20% did (n = 3/2/2/1 from the fastest class), n new visits after a move.
// Neither spends a discovery share: they are the schemes as deployed.
enum class RevisitPolicy { kOptimal, kUniform, kProportional, kAdaptive, kClasses };

struct RevisitOptions {
  double budget = 1.0;             // fetches per second over the whole crawl (new + revisits)
  double min_revisit_share = 0.2;  // revisits keep at least this share of the budget
  double min_new_share = 0.2;      // queued new URLs keep at least this share (within their capacity)
  double hub_share = 0.2;          // most of the revisit budget spent on discovery
  double discovery_wait_s = 5;     // the mean wait of a new URL on its hubs that discovery aims at (0: spend hub_share)
  double yield_memory = 0.3;       // weight of the newest fetch in the yield's moving mean
  RevisitPolicy policy = RevisitPolicy::kOptimal;
  double prior_weight = 1.0;       // pseudo-visits of the prior, when not fitted
  // The prior's weight fitted to the crawl's pages at each resolve
  // (empirical Bayes, RevisitSchedule::fit_prior): as many seconds of
  // pseudo-observation as the spread of the pages' rates warrants.
  bool fit_prior = true;
};

inline constexpr std::size_t kKeptObservations = 16;

class RevisitSchedule {
 public:
  using PageId = std::uint32_t;

  explicit RevisitSchedule(const RevisitOptions& options) : options_(options) {}

  // A host's politeness gap in seconds (its cap is 1/gap fetches per second).
  void set_host_gap(std::uint32_t host, double gap_s);

  // A page fetched for the first time at `now` (seconds on any clock).
  // `yield`: its yield so far; for a page that counts only as a hub (weight
  // 0: a feed, a sitemap, an out-of-scope page of a temporal crawl) the new
  // URLs its first fetch found, without which no revisit would ever measure it.
  PageId add_page(std::uint32_t host, double weight, double prior_rate, double now, double yield = 0);

  // A revisit at `now`: whether the main text changed since the previous
  // visit, and how many URLs never seen before the page links to.
  void record_visit(PageId page, double now, bool changed, std::size_t new_urls);
  // A page's visits and yield (another process of a shared crawl made
  // visits since this one last did: its history replaces this one's).
  VisitHistory history(PageId page) const;
  void set_history(PageId page, const VisitHistory& history);
  // More URLs never seen before that the page's last visit announced,
  // learnt after record_visit() (from another process of a shared crawl):
  // the yield becomes what record_visit() would have made of them all.
  void add_announced(PageId page, std::size_t new_urls);

  // A visit that cannot be compared with the one before (nothing known of
  // the earlier content): no observation, the page's clock starts again.
  void rebase(PageId page, double now);

  void set_weight(PageId page, double weight);
  // Whether the page's answer at `now` was a document (the header comment):
  // false for a redirect, a 4xx or 5xx, a body neither HTML nor a feed;
  // true for one again. Each change of state restarts the page's clock at
  // `now`; an answer without a document after another lengthens the wait.
  void set_document(PageId page, bool present, double now);
  bool has_document(PageId page) const { return pages_[page].lost == 0; }
  // The earliest time a spare slot may take the page (earliest_ready()):
  // half its interval after its last visit; infinity when it has no
  // freshness weight or no frequency.
  double spare_from(PageId page) const;
  // The prior change rate of a page (its estimate before it has a history).
  void set_prior_rate(PageId page, double rate);
  double prior_rate(PageId page) const { return pages_[page].prior_rate; }
  double last_visit(PageId page) const { return pages_[page].last_visit; }
  void set_budget(double fetches_per_second) { options_.budget = fetches_per_second; }
  void set_new_url_rate(double fetches_per_second) { new_url_rate_ = fetches_per_second; }
  void set_new_url_capacity(double fetches_per_second) { new_url_capacity_ = fetches_per_second; }

  // Re-estimates every rate and shares out the budget again.
  void resolve();

  // The page due earliest, if it is due at `now`; it stays due until
  // record_visit() (or postpone()).
  std::optional<PageId> next_due(double now);
  // The time the next page falls due (infinity when none is scheduled).
  double next_due_time();
  // A spare slot's revisit at `now` (the work-conserving rule in the header
  // comment): of the scheduled pages with a freshness weight and at least
  // half their interval past since their last visit, the one due earliest
  // that `ready` accepts, due or not yet; nullopt when none of the first
  // `limit` pages by due time is taken. The page stays scheduled until record_visit().
  std::optional<PageId> earliest_ready(const std::function<bool(PageId)>& ready, double now, std::size_t limit = 256);
  void postpone(PageId page, double until);

  double estimated_rate(PageId page) const;
  double frequency(PageId page) const { return pages_[page].frequency; }
  double yield(PageId page) const { return pages_[page].yield; }
  double due(PageId page) const { return pages_[page].due; }
  std::size_t size() const { return pages_.size(); }
  // The budget revisits get now (the sharing rule in the header comment).
  double revisit_budget() const;
  // The Gamma shape of the pages' rates around their prior means, fitted
  // at the last resolve (0 before one, or with fit_prior off).
  double prior_shape() const { return prior_shape_; }

 private:
  struct Page {
    std::uint32_t host = 0;
    float interval = 0;  // kAdaptive: seconds between visits (0: not set yet)
    double weight = 1;
    double prior_rate = 0;
    double last_visit = 0;
    double due = 0;
    double frequency = 0;
    double yield = 0;
    std::uint32_t version = 0;  // invalidates older heap entries
    // Visits: the newest kKeptObservations in a ring (the interval in
    // seconds, negative when the visit saw a change), older ones folded.
    std::array<float, kKeptObservations> recent{};
    std::uint8_t kept = 0, oldest = 0;
    std::uint8_t since_move = 0;  // kClasses: visits since the class was set
    std::uint8_t klass : 2 = 1;   // kClasses: the class
    std::uint8_t lost : 6 = 0;    // answers in a row without a document (0: it has one; at most 63)
    FoldedVisits folded;
  };
  struct Due {
    double at;
    PageId page;
    std::uint32_t version;
    bool operator>(const Due& o) const { return at > o.at; }
  };
  void schedule(PageId page);
  // The weight a page has in the freshness objective: 0 under the optimum
  // while it has no document.
  double freshness_weight(const Page& p) const;
  // kAdaptive and kClasses: a visit moves the page's interval or class.
  void adapt(Page& p, bool changed);
  void resolve_deployed(double budget);
  // The newest `n` visits of a page (at most those kept), newest first: changed or not.
  int recent_changes(const Page& p, int n) const;
  // The visits that saw a change, the seconds observed and the visits, over a page's history.
  struct Exposure {
    double changes = 0, seconds = 0, visits = 0;
  };
  Exposure exposure(const Page& p) const;
  // Fits host_ratio_ and prior_shape_ to the pages' histories (the header comment).
  void fit_prior();
  // A page's prior mean μ: its given prior rate times its host's factor.
  double prior_mean(const Page& p) const;

  RevisitOptions options_;
  std::vector<Page> pages_;
  std::vector<double> host_caps_;
  std::priority_queue<Due, std::vector<Due>, std::greater<Due>> heap_;
  double new_url_rate_ = 0;
  double new_url_capacity_ = 0;
  double class_base_s_ = 0;  // kClasses: the fastest class's interval
  double provisional_ = 0;   // the last resolve's budget per page: a new page's frequency until the next
  std::vector<double> host_ratio_;  // fit_prior(): each host's factor on its pages' given priors
  double prior_shape_ = 0;          // fit_prior(): the rates' Gamma shape α (0: not fitted)
};

}  // namespace cronista::revisit
