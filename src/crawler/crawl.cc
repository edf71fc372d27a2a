// The crawl loop; see crawl.h. Structure:
//   - event loop (this thread): frontier, host table, libcurl multi;
//   - AnalysisPool (page_analysis.h): worker threads turning an HTML response
//     into a PageRecord and the list of resolved links;
//   - CrawlStore: the single writer thread.
// Every frontier change caused by a page travels in the same store job as
// the page, so the database is always a consistent cut of the crawl.
#include "crawler/crawl.h"

#include <curl/curl.h>
#include <malloc.h>
#include <openssl/sha.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <ctime>
#include <deque>
#include <limits>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <thread>
#include <unordered_map>
#include <unordered_set>

#include "crawler/charset.h"
#include "crawler/crawl_record.h"
#include "crawler/crawl_store.h"
#include "crawler/feeds.h"
#include "crawler/fetcher.h"
#include "crawler/frontier.h"
#include "crawler/host_queue.h"
#include "crawler/link_filters.h"
#include "crawler/link_yield.h"
#include "crawler/page_analysis.h"
#include "crawler/page_copy.h"
#include "crawler/replica_watch.h"
#include "crawler/robots.h"
#include "crawler/robots_policy.h"
#include "crawler/title_words.h"
#include "crawler/url.h"
#include "revisit/content_signature.h"
#include "revisit/page_features.h"
#include "revisit/rate_prior.h"
#include "revisit/revisit_schedule.h"
#include "temporal/lexicon.h"
#include "temporal/tagger.h"
#include "temporal/utf8.h"

namespace cronista::crawler {

namespace {

#ifndef CRONISTA_VERSION
#define CRONISTA_VERSION "0.1"
#endif

std::string sha1_hex(std::string_view data) {
  unsigned char digest[SHA_DIGEST_LENGTH];
  SHA1(reinterpret_cast<const unsigned char*>(data.data()), data.size(), digest);
  static const char* hex = "0123456789abcdef";
  std::string out;
  out.reserve(2 * SHA_DIGEST_LENGTH);
  for (unsigned char c : digest) {
    out += hex[c >> 4];
    out += hex[c & 15];
  }
  return out;
}

std::string lower(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

// HTML by Content-Type, or by sniffing when the server says nothing.
bool looks_like_html(std::string_view content_type, std::string_view body) {
  const std::string ct = lower(content_type);
  if (!ct.empty()) return ct.find("html") != std::string::npos;
  std::string_view b = body.substr(0, 512);
  if (b.starts_with("\xEF\xBB\xBF")) b.remove_prefix(3);
  while (!b.empty() && std::isspace(static_cast<unsigned char>(b.front()))) b.remove_prefix(1);
  const std::string head = lower(b.substr(0, 14));
  return head.starts_with("<!doctype html") || head.starts_with("<html") || head.starts_with("<head") ||
         head.starts_with("<!--");
}

// Retry-After: delta-seconds or an HTTP-date.
std::optional<std::chrono::milliseconds> retry_after(const std::string& value) {
  if (value.empty()) return std::nullopt;
  if (std::all_of(value.begin(), value.end(), [](char c) { return c >= '0' && c <= '9'; }) && value.size() < 9)
    return std::chrono::milliseconds(std::stoll(value) * 1000);
  const time_t t = curl_getdate(value.c_str(), nullptr);
  if (t < 0) return std::nullopt;
  const auto delta = std::chrono::system_clock::from_time_t(t) - std::chrono::system_clock::now();
  return std::max(std::chrono::milliseconds(0), std::chrono::duration_cast<std::chrono::milliseconds>(delta));
}

std::string origin_of(const CanonicalUrl& u) { return std::string(u.scheme()) + "://" + u.authority(); }

// When the server answered (HostQueue::on_finish): the last status line's
// arrival, or `now` when none arrived.
Clock::time_point answered_at(const FetchResponse& r, Clock::time_point now) {
  return r.answered == Clock::time_point{} ? now : std::min(r.answered, now);
}

// Seconds since the epoch: the revisit schedule's clock, the same across
// the runs of a resumed crawl.
double wall_seconds(std::chrono::system_clock::time_point t) {
  return std::chrono::duration<double>(t.time_since_epoch()).count();
}
double wall_seconds() { return wall_seconds(std::chrono::system_clock::now()); }

// An HTTP date (Last-Modified) in seconds since the epoch, or nullopt.
std::optional<double> http_seconds(const std::string& value) {
  if (value.empty()) return std::nullopt;
  const time_t t = curl_getdate(value.c_str(), nullptr);
  if (t < 0) return std::nullopt;
  return static_cast<double>(t);
}

// Seconds since the epoch of an iso_time() string.
std::optional<double> iso_seconds(const std::string& iso) {
  const auto ms = iso_ms(iso);
  return ms ? std::optional<double>(static_cast<double>(*ms) / 1000.0) : std::nullopt;
}

// Revisits (crawl.h): how often the schedule is solved again.
constexpr double kResolveEveryS = 10;
// A Last-Modified within this many seconds of the fetch, on a page whose
// main text did not change, is the server's clock, not the page's.
constexpr double kLastModifiedIsNowS = 5;
// A revisit that failed (network, 5xx after retries) is tried again after
// this long at the earliest.
constexpr double kFailedRevisitWaitS = 60;
// The window over which the rate of new-URL fetches is measured.
constexpr double kNewUrlRateWindowS = 60;
// A shared crawl reads the crawl's figures for its schedule at most this often.
constexpr double kSharedViewEveryS = 1;
// While new URLs are queued, the share of request slots they keep whatever
// the schedule says (RevisitOptions::min_new_share, counted slot by slot).
constexpr double kNewUrlSlotShare = revisit::RevisitOptions{}.min_new_share;
// AnalysisTask::revisit_page of a replica verification probe.
constexpr std::int64_t kProbePage = -2;
// How long the loop pauses when only hosts under replica verification are ready.
constexpr std::chrono::milliseconds kHeldPause{10};

// ---- the loop ----

class Crawl {
 public:
  explicit Crawl(const CrawlOptions& o) : o_(o), hosts_(politeness(o)) {}

  Result<CrawlSummary> run(const std::atomic<bool>* stop);

 private:
  static PolitenessOptions politeness(const CrawlOptions& o) {
    PolitenessOptions p;
    p.delay = std::chrono::milliseconds(std::max(0, o.delay_ms));
    p.host_connections = std::max(1, o.host_connections);
    p.max_urls_per_host = o.max_pages_per_host;
    return p;
  }

  Status setup();
  // `hub`: a feed or sitemap, whose path is not a page's.
  std::optional<std::string_view> skip_reason(const CanonicalUrl& u, bool hub);
  bool admit(const CanonicalUrl& u, bool hub = false);
  std::uint32_t host_for(const CanonicalUrl& u, StoreJob& job);
  void on_response(FetchResponse&& r);
  // `from_shared`: an answer a worker of a shared crawl fetched, read from
  // the shared frontier (no request to the host), with `shared_ttl` the time
  // left of its keeping (else the response's Cache-Control says).
  void on_robots(std::uint32_t host, const FetchResponse& r, bool from_shared = false,
                 std::optional<std::chrono::milliseconds> shared_ttl = std::nullopt);
  void on_analysed(AnalysisResult&& r);
  void dispatch();
  void submit(StoreJob job) {
    if (replicas_ && replicas_->has_returned()) bring_back(job);
    ++jobs_submitted_;
    store_->submit(std::move(job));
  }
  void count_error(const std::string& kind) { ++errors_[kind]; }
  bool worth_a_slot(int priority) const;
  void progress(bool final_line);
  void fetch_robots(std::uint32_t host, Clock::time_point now);
  std::unique_ptr<PageRecord> page_record(const FrontierEntry& e, const FetchResponse& r);
  void analyse_later(FrontierEntry e, std::unique_ptr<PageRecord> page, FetchResponse& r, std::int64_t revisit_page);
  // The global request budget (--fetch-rate): whether a request may start
  // now, as far as this worker knows (a shared crawl's slot is taken by
  // shared_slot() when a request is in hand), and when one may next.
  bool rate_allows(Clock::time_point now) const;
  Clock::time_point next_rate_slot() const;
  // A shared crawl's --fetch-rate is the crawl's, paced in the shared
  // frontier for all workers: a slot is taken just before a request is
  // sent (true), or none is free now (false: the request waits).
  bool shared_slot();
  // A request starts: counted, and the next slot of --fetch-rate set.
  void take_slot(Clock::time_point now);
  Clock::duration fetch_rate_interval() const;
  Clock::duration fetch_rate_tolerance() const;
  // A shared crawl: claims as many URLs as there are free connections.
  void pump_shared();
  void learn_title(const std::string& title, bool relevant);
  // A temporal crawl with the topic signal: links are judged by the title
  // words of the pages downloaded (title_words.h).
  bool topic_signal() const { return o_.temporal_mode && o_.max_link_penalty > 0; }
  // A shared crawl's title words come from its log of titles (every
  // worker's, from its beginning) and, at once, this run's own pages; a
  // resumed worker's pages of before come from the log, not its database.
  bool titles_from_log() const { return shared_ && topic_signal(); }

  // Revisits (o_.revisit).
  using PageId = revisit::RevisitSchedule::PageId;
  using Copy = PageCopy;  // what the crawl holds of a downloaded page
  double page_weight(const std::string& url, std::optional<bool> relevant) const;
  void schedule_copy(const StoredVisit& v, double at);
  static StoredVisit visit_of(const PageRecord& p, std::uint32_t host, std::uint16_t depth);
  // A feed or sitemap fetched (a first download, or a revisit of page
  // `revisit_page`): its URLs go to the frontier, it joins the schedule as a hub.
  void on_feed(FrontierEntry e, std::unique_ptr<PageRecord> page, const Feed& feed, std::int64_t revisit_page);
  // robots.txt `Sitemap:` lines, or /sitemap.xml when there are none: hubs
  // of a revisiting crawl.
  void queue_sitemaps(std::uint32_t host, const RobotsRules& rules, StoreJob& job);
  // A visit of a scheduled page: whether its main text changed (nullopt:
  // no earlier signature to compare with), the validators it came with.
  void note_visit(PageId id, double at, std::optional<bool> changed, std::int64_t new_urls,
                  const std::string& last_modified);
  // The new URLs a revisit announced, as its yield counts them now: those
  // new to this crawl's frontier; in a shared crawl none yet (a link new
  // here may be known to the others): the shared frontier tells which were
  // new to the crawl, and credit_announced() adds them to the yield.
  std::int64_t announced_here(std::int64_t fresh) const { return shared_ ? 0 : fresh; }
  void credit_announced();
  bool dispatch_revisit(Clock::time_point now, double wall);
  // A slot of the budget that no due revisit and no new URL takes: the
  // scheduled page due earliest whose host may be fetched now is revisited
  // ahead of time (revisit_schedule.h, the work-conserving rule).
  bool dispatch_spare_revisit(Clock::time_point now, double wall);
  bool robots_allow_revisit(PageId id);
  void start_revisit(PageId id, Clock::time_point now, double wall);
  // A shared crawl (shared_work.h): the shared frontier keeps the due
  // times; a worker revisits the pages it claims, whoever downloaded them.
  bool claim_revisit(const SharedClaim& c, StoreJob& job);
  bool dispatch_claimed_revisit(Clock::time_point now, double wall);
  void share_visit(const std::string& url, std::optional<bool> relevant, bool revisited);
  void on_revisit_response(PageId id, std::uint32_t host, FetchResponse&& r);
  void on_revisit_analysed(AnalysisResult&& r);
  void keep_copy(Copy& c, PageRecord& p, std::optional<bool> changed);
  void maybe_resolve(double wall, bool force);
  void read_shared_view(double wall);
  void move_shared_due();
  double shared_new_url_rate() const;
  double shared_queued_caps() const;
  double prior_rate() const;
  // The learned prior (o_.learned_rate_prior): trained again when the
  // visits it learns from have grown by a tenth; every page with features
  // gets its prediction, the others (and every page until it has trained)
  // `constant`.
  void train_rate_prior();
  double page_prior(PageId id, double constant) const;
  std::uint32_t observations(PageId id) const { return id < observations_.size() ? observations_[id] : 0; }
  Status restore_schedule();

  // Replicas (o_.replicas_detect, replica_watch.h).
  void dispatch_probes(Clock::time_point now);
  void on_probe_response(ReplicaProbe probe, std::uint32_t host, FetchResponse&& r);
  void on_probe_analysed(AnalysisResult&& r);
  // An entry popped for a held or replica host: true when it was put back
  // (held) or rewritten onto the canonical host.
  bool divert_replica(FrontierEntry& e, Clock::time_point now, std::vector<FrontierEntry>* held);
  std::string rewrite_link(const std::string& url);
  // URLs moved by decisions since undone: queued again on their replica (in `job`).
  void bring_back(StoreJob& job);
  bool downloaded_or_under_way(const std::string& url);
  // A probe of `url` sent and not answered, or its answer in analysis.
  bool probe_under_way(const std::string& url) const;
  // A page downloaded from the frontier whose URL a probe waits to ask:
  // it answers the probe (no probe row: the request was the crawl's own).
  void answer_probe(const std::string& url, long status, const std::string& fetched_at,
                    const revisit::ContentSignature* signature, const std::vector<std::uint64_t>& sketch,
                    StoreJob& job);

  const CrawlOptions& o_;
  // Declaration order is destruction order backwards: the store's writer
  // wakes the fetcher, the frontier reads through the store, the pool wakes
  // the fetcher and uses the tagger.
  HostQueue hosts_;
  std::unique_ptr<Fetcher> fetcher_;
  std::unique_ptr<CrawlStore> store_;
  std::unique_ptr<Frontier> frontier_;
  std::unique_ptr<temporal::Tagger> tagger_;
  std::unique_ptr<AnalysisPool> pool_;
  std::unique_ptr<SharedCrawl> shared_;  // o_.shared
  std::int64_t pages_at_finish_ = 0;     // pages_ when the last entry was finished
  std::string ua_token_;
  RobotsPolicy robots_policy_;
  HostScope scope_;
  CalendarTrapDetector calendar_;
  RedirectAliases aliases_;
  std::unordered_set<std::uint64_t> seed_keys_;  // url_key() of the seeds given (a claim's depth)
  TitleWords title_words_;
  // The page titles title_words_ learnt: in this run and, on --resume,
  // those of the pages downloaded before it.
  std::int64_t titles_learnt_ = 0;
  LinkYield yield_;
  std::map<std::string, std::int64_t> skipped_;

  struct InFlight {
    bool robots = false;
    std::uint32_t host = 0;
    FrontierEntry entry;
    std::int64_t revisit_page = -1;  // a revisit: the page's id in the schedule
    ReplicaProbe probe;              // a replica verification probe (url set)
  };
  std::unordered_map<std::uint64_t, InFlight> in_flight_;
  std::uint64_t next_token_ = 1;
  std::uint64_t jobs_submitted_ = 0;
  std::int64_t page_transfers_ = 0;  // page fetches in flight or in analysis

  std::int64_t pages_before_ = 0, relevant_before_ = 0;
  std::int64_t pages_ = 0, relevant_ = 0, segments_ = 0, segments_in_scope_ = 0;
  std::map<std::string, std::int64_t> errors_;
  Clock::time_point started_;
  Clock::time_point last_progress_;

  double started_wall_ = 0;
  std::int64_t fetches_ = 0;  // page requests started in this run
  Clock::time_point next_slot_{};  // --fetch-rate: the earliest the next request may start
  // When a spare slot last found no host free: the earliest a host it
  // looked at may be fetched again (max: none waits).
  Clock::time_point spare_retry_ = Clock::time_point::max();
  std::int64_t answered_ = 0, revisits_ = 0, changed_ = 0, not_modified_ = 0;
  std::int64_t spare_revisits_ = 0;  // revisits brought forward into spare slots
  std::int64_t lost_documents_ = 0;  // revisits answered without a document
  std::unique_ptr<revisit::RevisitSchedule> schedule_;
  std::vector<Copy> copies_;                                // by PageId
  std::unordered_map<std::uint64_t, PageId> copy_of_;       // url_key → PageId
  std::vector<std::uint8_t> last_modified_distrusted_;      // by host: Last-Modified proven wrong
  std::deque<PageId> claimed_revisits_;                     // a shared crawl's revisits claimed, not started
  std::vector<std::int8_t> shared_relevance_;               // by PageId, a shared crawl's: -1 unknown, 0, 1
  // A shared crawl: the page (PageId + 1) whose revisit offers the links
  // being added now (0: none); the shared frontier tells which were new to
  // the crawl, and those make the page's yield.
  std::uint64_t announcing_ = 0;
  // A shared crawl's new-URL claims over the last minute: (the shared
  // frontier's clock, new URLs claimed by then), and when it was last read.
  std::deque<std::pair<double, std::int64_t>> shared_new_claims_;
  double shared_view_read_ = -std::numeric_limits<double>::infinity();
  SharedView shared_view_;
  // By PageId: the due time this worker's visit set in the shared frontier
  // (0: none, or another worker's since), moved when a solve changes it.
  std::vector<double> shared_due_;
  std::deque<double> new_fetch_times_;                      // wall times of new-URL requests (the last minute)
  double new_url_owed_ = 0;  // slots owed to queued new URLs (kNewUrlSlotShare of each one dispatched)
  double last_resolve_check_ = -std::numeric_limits<double>::infinity();
  double resolve_cost_s_ = 0;   // CPU seconds the last solve took
  // Every visit so far pooled (changes seen, seconds observed, pages with an
  // observation): the prior change rate of a page without a history of its
  // own (prior_rate()).
  double pooled_changes_ = 0, pooled_seconds_ = 0;
  std::size_t pooled_pages_ = 0;
  std::vector<std::uint16_t> observations_;  // by PageId: visits compared with the one before (saturating)
  // The learned prior: features of each page's first fetch, the model.
  std::optional<revisit::FeatureCues> cues_;
  revisit::CrawlRatePrior rate_prior_;
  std::size_t trained_seen_ = 0;  // rate_prior_.observations() at the last training
  double resolved_budget_ = 0;  // the revisit budget it shared out
  bool resolved_dry_ = false;    // whether the frontier was empty then
  std::size_t resolved_size_ = 0;
  std::int64_t visits_since_resolve_ = 0;

  std::unique_ptr<ReplicaWatch> replicas_;
  bool held_ = false;  // the last dispatch put back entries of hosts under verification
  std::unordered_map<std::string, ReplicaProbe> probes_in_analysis_;  // by URL
  std::unordered_set<std::string> probe_pages_;  // URLs kept as pages from probe answers
  std::unordered_set<std::string> probes_out_;   // URLs of probes sent and not answered yet
};

// The link filters of link_filters.h, in order of cost; the reason a URL
// is skipped, or nullopt. Only for URLs the frontier has not seen.
std::optional<std::string_view> Crawl::skip_reason(const CanonicalUrl& u, bool hub) {
  if (!scope_.allows(u)) return "off-host";
  if (!hub && surely_not_html(u.path())) return "not-html";
  if (auto r = static_trap_reason(u)) return r;
  return calendar_.check(u);
}

bool Crawl::admit(const CanonicalUrl& u, bool hub) {
  if (frontier_->state(u.str()) != UrlState::None) return true;  // known: counts a backlink
  if (auto reason = skip_reason(u, hub)) {
    ++skipped_[std::string(*reason)];
    return false;
  }
  return true;
}

std::uint32_t Crawl::host_for(const CanonicalUrl& u, StoreJob& job) {
  bool created = false;
  const std::string authority = u.authority();
  const std::uint32_t id = hosts_.intern(authority, origin_of(u), &created);
  if (created) job.hosts.push_back(HostRow{id, authority, origin_of(u), "", 0});
  return id;
}

Status Crawl::setup() {
  auto store = CrawlStore::open(o_.db, CrawlStoreOptions{o_.order_out, o_.warc, 256, std::chrono::milliseconds(250),
                                                         "cronista/" CRONISTA_VERSION, o_.genre});
  if (!store.ok()) return store.status();
  store_ = std::move(*store);

  auto last = store_->last_run();
  if (!last.ok()) return last.status();
  const std::string mode = o_.temporal_mode ? "temporal" : "general";
  if (o_.resume && !*last)
    return Status::Error("database '" + o_.db + "' holds no crawl to resume (drop --resume to start one)");
  if (!o_.resume && *last)
    return Status::Error("database '" + o_.db + "' already holds a crawl; use --resume to continue it or another --db");
  if (o_.resume && ((*last)->mode != mode || (*last)->from != o_.from || (*last)->to != o_.to))
    return Status::Error("database '" + o_.db + "' holds a " + (*last)->mode + " crawl of " + (*last)->from + ".." +
                         (*last)->to + "; resume it with the same --mode, --from and --to");

  // User agent: "cronista/0.1 (+contact)"; robots.txt groups match its product token.
  std::string ua = o_.user_agent;
  if (ua.empty()) {
    ua = "cronista/" CRONISTA_VERSION;
    if (!o_.contact.empty()) ua += " (+" + o_.contact + ")";
  }
  ua_token_ = ua.substr(0, ua.find_first_of("/ "));
  RobotsPolicy::Options robots_options;
  robots_options.user_agent_token = ua_token_;
  robots_policy_ = RobotsPolicy(robots_options);

  // Only a temporal crawl looks for dated archives of the period; the
  // general baseline keeps the plain flood bound.
  CalendarTrapDetector::Limits calendar_limits;
  if (!o_.temporal_mode) calendar_limits.urls_per_in_scope_page = 0;
  calendar_ = CalendarTrapDetector(calendar_limits);
  scope_.set_same_host(o_.same_host);
  for (const std::string& h : o_.allow_hosts)
    if (Status s = scope_.allow_host(h); !s.ok()) return s;

  FrontierOptions fo;
  fo.max_depth = o_.max_depth;
  fo.priority_slack = o_.temporal_mode ? o_.priority_slack : -1;
  if (o_.fill_free_slots) fo.worth_a_slot = [this](int priority) { return worth_a_slot(priority); };
  if (o_.shared) {
    // The shared frontier orders the crawl; the local one holds what was claimed.
    shared_ = std::make_unique<SharedCrawl>(o_.shared, o_.shared_patience);
    shared_->set_slot_rule([this] {
      SharedSlotRule rule;
      if (o_.temporal_mode && o_.fill_free_slots) {
        // The lone crawl's free-slot rule, applied by the shared frontier.
        rule.slack = o_.priority_slack;
        rule.lookahead = std::chrono::duration_cast<std::chrono::milliseconds>(frontier_->options().lookahead);
        rule.band = yield_.band();
        rule.learnt = yield_.counts();
      }
      // Work-conserving revisits (revisit_schedule.h): a worker with a
      // connection free, nothing claimed waiting for it and a slot of the
      // crawl's rate may take a revisit early (one at a time).
      rule.spare = schedule_ && claimed_revisits_.empty() && frontier_->empty() &&
                   fetcher_->in_flight() < static_cast<std::size_t>(std::max(1, o_.connections)) &&
                   std::chrono::steady_clock::now() >= shared_->pace_after();
      return rule;
    });
    fo.priority_slack = -1;
    if (topic_signal()) shared_->share_titles();
    fo.divert = [this](std::string_view url, std::uint32_t host, bool backlink, std::uint8_t penalty,
                       std::uint32_t at_seq) {
      shared_->offer(std::string(url), hosts_[host].authority, backlink, penalty, announcing_, at_seq);
    };
    // A download counts its page (pages_) just before its entry is
    // finished; a redirect, an error or a robots.txt refusal gives its page
    // of the shared budget back, as a lone crawl does not count them.
    fo.on_finish = [this](const FrontierEntry& e, UrlState) {
      const bool downloaded = pages_ > pages_at_finish_;
      pages_at_finish_ = pages_;
      shared_->finished(e.url, downloaded, jobs_submitted_ + 1);
    };
  }
  frontier_ = std::make_unique<Frontier>(hosts_, store_->spill(), fo);
  if (o_.revisit) {
    revisit::RevisitOptions ro;
    ro.policy = o_.revisit_policy;
    ro.budget = o_.fetch_rate;  // without a rate: set from the hosts' caps at each resolve
    ro.discovery_wait_s = o_.discovery_wait_s;
    schedule_ = std::make_unique<revisit::RevisitSchedule>(ro);
  }

  FetcherOptions fetch;
  fetch.user_agent = ua;
  fetch.max_connections = std::max(1, o_.connections);
  fetch.connect_timeout = std::chrono::milliseconds(o_.connect_timeout_ms);
  fetch.total_timeout = std::chrono::milliseconds(o_.timeout_ms);
  fetch.max_body_bytes = o_.max_body_bytes;
  fetch.ca_file = o_.ca_file;
  fetch.resolve = o_.resolve;
  fetcher_ = std::make_unique<Fetcher>(fetch);

  temporal::TaggerOptions topts;
  topts.home = o_.home.empty() ? temporal::default_home() : o_.home;
  topts.pattern_files = o_.pattern_files;
  topts.genre = o_.genre;
  auto tagger = temporal::Tagger::load(topts);
  if (!tagger.ok()) return tagger.status();
  tagger_ = std::move(*tagger);
  if (o_.revisit) {
    // The words the features of the learned rate prior read (its update
    // lines, "hoje"/"ontem"), from the tagger's resources.
    auto lexicon = temporal::Lexicon::load(topts.home + "/resources/pt");
    if (!lexicon.ok()) return lexicon.status();
    auto cues = revisit::FeatureCues::from(*lexicon);
    if (!cues.ok()) return Status::Error(topts.home + "/resources/pt: " + cues.status().message());
    cues_ = std::move(*cues);
  }

  // Seeds: their authorities bound --same-host, on a resume too.
  std::vector<CanonicalUrl> seeds;
  for (const std::string& s : o_.seeds) {
    auto u = CanonicalUrl::parse(s);
    if (!u.ok()) return Status::Error("seed '" + s + "': " + u.status().message());
    scope_.add_seed(*u);
    seed_keys_.insert(url_key(u->str()));
    seeds.push_back(*u);
  }

  RunInfo run{0, mode, o_.from, o_.to, o_.args, o_.threshold};
  if (o_.resume) {
    // Hosts first (URLs refer to them), then every URL into the seen-set,
    // then the downloads in their order: what the pages taught the crawl
    // (title words, the calendar-trap counters) is learnt again as it was
    // learnt when they were downloaded.
    // The calendar counters rebuilt are those check() and record_scope()
    // left, but for: seeds and redirect targets, stored without a check,
    // now count against their pattern (a few URLs more against a bound of
    // hundreds); a URL skipped as a trap was never stored, but was never
    // counted either; past Limits::max_patterns, the patterns tracked are
    // the first in the table's order rather than in discovery order; and a
    // worker of a shared crawl counts the URLs of its shard (those it
    // claimed), not those it discovered and offered to the shared frontier,
    // which its shard does not hold. Each errs by a few URLs per pattern or
    // only on crawls of more patterns than the detector tracks anyway.
    Status bad;
    std::size_t host_count = 0;
    auto state = store_->load(o_.temporal_mode, [&](const ResumeState::Url& u) {
      if (u.host >= host_count) {
        bad = Status::Error("database '" + o_.db + "': a URL refers to unknown host " + std::to_string(u.host));
        return;
      }
      calendar_.count_again(u.url);
      // A worker of a shared crawl held its queued URLs as claims: they went back.
      if (shared_ && u.state != UrlState::Done && u.state != UrlState::Dropped) return;
      frontier_->restore(u.key, u.state, u.host, u.seq, u.backlinks, u.depth, u.penalty);
    }, [&](const HostRow& h) {
      hosts_.intern(h.authority, h.origin);
      ++host_count;
    }, [&](const ResumeState::Download& d) {
      if (!d.relevant) return;  // not judged: nothing was learnt from it
      if (auto u = CanonicalUrl::parse(d.url); u.ok()) calendar_.record_scope(*u, *d.relevant);
      if (titles_from_log()) return;  // read again from the log (pump_shared)
      title_words_.learn(d.title, *d.relevant);
      ++titles_learnt_;
    });
    if (!state.ok()) return state.status();
    if (!bad.ok()) return bad;
    pages_before_ = state->pages;
    relevant_before_ = state->relevant;
    // What the links taught before the stop (the free-slot rule's evidence).
    for (const auto& y : state->link_yields)
      yield_.add(static_cast<int>(std::clamp<std::int64_t>(y.priority, 0, 1 << 20)), y.pages, y.relevant);
    auto id = store_->begin_run(run, (*last)->id);
    if (!id.ok()) return id.status();
    if (o_.revisit)
      if (Status s = restore_schedule(); !s.ok()) return s;
  } else {
    auto id = store_->begin_run(run, 0);
    if (!id.ok()) return id.status();
  }
  if (o_.replicas_detect) {
    replicas_ = std::make_unique<ReplicaWatch>();
    replicas_->set_known([this](const std::string& url) {
      const UrlState s = frontier_->state(url);
      return s == UrlState::InFlight || s == UrlState::Done;
    });
    auto decisions = store_->replica_decisions();
    if (!decisions.ok()) return decisions.status();
    for (const ReplicaDecisionRow& d : *decisions) replicas_->restore(d);
    auto moves = store_->replica_moves();
    if (!moves.ok()) return moves.status();
    for (const ReplicaMoveRow& m : *moves) replicas_->restore(m);
  }
  if (shared_) {
    Status s = o_.shared->join(o_.max_pages, [this](const std::string& url) -> std::optional<bool> {
      const UrlState state = frontier_->state(url);
      // A page downloaded but not yet scheduled for its revisit goes back:
      // claimed again here, it is scheduled then.
      if (state == UrlState::Done && schedule_) return std::nullopt;
      if (state == UrlState::Done) return true;
      if (state == UrlState::Dropped) return false;
      return std::nullopt;
    });
    if (!s.ok()) return s;
    // The new URLs claimed by the crawl so far, counted from here.
    if (schedule_) read_shared_view(wall_seconds());
  }
  if (Status s = store_->start([this](std::uint64_t) { fetcher_->wake(); }); !s.ok()) return s;

  if (!o_.resume) {
    StoreJob job;
    for (const CanonicalUrl& u : seeds) {
      const std::uint32_t host = host_for(u, job);
      frontier_->add(u.str(), host, 0, 0, false, jobs_submitted_ + 1, &job.ops);
    }
    submit(std::move(job));
  }
  frontier_->restart(Clock::now());
  pool_ = std::make_unique<AnalysisPool>(
      o_.threads > 0 ? o_.threads : std::max(1u, std::thread::hardware_concurrency()), tagger_.get(), o_,
      fetcher_.get(), cues_ ? &*cues_ : nullptr);
  return Status::Ok();
}

void Crawl::on_robots(std::uint32_t host, const FetchResponse& r, bool from_shared,
                      std::optional<std::chrono::milliseconds> shared_ttl) {
  const auto now = Clock::now();
  const auto wall = std::chrono::system_clock::now();
  if (!from_shared) hosts_.on_finish(host, answered_at(r, now));
  RobotsFetchOutcome outcome;
  outcome.status = static_cast<int>(r.status);
  outcome.network_error = r.error != FetchError::None && !(r.status >= 300 && r.status < 400);
  outcome.too_many_redirects = r.status >= 300 && r.status < 400;
  outcome.body = r.body;
  outcome.max_age = cache_max_age(r.raw_head);
  outcome.shared_ttl = shared_ttl;
  HostState& h = hosts_[host];
  RobotsEntry entry = robots_policy_.on_fetch(outcome, wall, h.robots_entry ? &*h.robots_entry : nullptr);
  if (entry.source == RobotsSource::kUnreachable && h.robots_failures < o_.retries) {
    // Unreachable or 5xx: no page of this host for now (RFC 9309 §2.3.1.4).
    // Ask again with back-off; after the last retry the host's URLs are
    // dropped rather than holding the crawl for the policy's retry time.
    ++h.robots_failures;
    h.robots = RobotsState::Unknown;
    auto wait = retry_after(r.retry_after)
                    .value_or(std::chrono::milliseconds(static_cast<std::int64_t>(o_.retry_base_ms)
                                                        << (h.robots_failures - 1)));
    hosts_.defer(host, now + std::min(wait, std::chrono::milliseconds(o_.max_retry_wait_ms)));
    count_error("robots-retry");
    frontier_->host_changed(host, now);
    return;
  }
  h.robots_failures = 0;
  if (entry.source == RobotsSource::kUnreachable) count_error("host-unreachable");
  const auto ttl = std::chrono::duration_cast<std::chrono::milliseconds>(entry.expires - wall);
  // An answer from the host itself (not from the shared frontier) is shared.
  if (shared_ && !r.raw_head.empty() && entry.source != RobotsSource::kUnreachable)
    shared_->share_robots(h.authority, SharedRobots{outcome.status, r.body, std::nullopt}, ttl);
  std::string reason = entry.reason;
  if (outcome.network_error && !r.error_message.empty()) reason += " (" + r.error_message + ")";
  hosts_.set_robots(host, entry.rules, reason, std::max(ttl, std::chrono::milliseconds(1)), now);
  h.robots_entry = std::move(entry);
  StoreJob job;
  job.hosts.push_back(HostRow{host, h.authority, h.origin, reason, static_cast<std::int64_t>(h.crawl_delay.count())});
  if (!o_.warc.empty() && r.error == FetchError::None && !r.raw_head.empty()) {
    // Heritrix keeps robots.txt responses in the archive: what the crawl
    // obeyed can be replayed.
    job.robots = std::make_unique<RobotsRecord>(RobotsRecord{
        r.effective_url.empty() ? r.url : r.effective_url, iso_time(r.started), r.raw_request, r.raw_head, r.body, r.ip});
  }
  if (schedule_) queue_sitemaps(host, hosts_[host].rules, job);
  submit(std::move(job));
  frontier_->host_changed(host, now);
}

// An HTML response goes to the analysis pool (its body moved out of `r`).
void Crawl::analyse_later(FrontierEntry e, std::unique_ptr<PageRecord> page, FetchResponse& r,
                          std::int64_t revisit_page) {
  AnalysisTask task;
  task.entry = std::move(e);
  task.revisit_page = revisit_page;
  task.page = std::move(page);
  task.content_type = r.content_type;
  task.last_modified = r.last_modified;
  task.body = std::move(r.body);
  if (!o_.warc.empty()) task.page->body = task.body;
  pool_->submit(std::move(task));
}

// The page row of a response (its analysis comes later), errors counted.
std::unique_ptr<PageRecord> Crawl::page_record(const FrontierEntry& e, const FetchResponse& r) {
  auto page = std::make_unique<PageRecord>();
  PageRecord& p = *page;
  p.url = e.url;
  p.final_url = r.effective_url.empty() ? e.url : r.effective_url;
  p.status = r.status;
  p.fetched_at = iso_time(r.started);
  p.duration_ms = r.seconds * 1000.0;
  p.http_version = r.http_version;
  p.headers = r.raw_head;
  p.size = static_cast<std::int64_t>(r.body.size());
  p.content_type = r.content_type;
  p.last_modified = r.last_modified;
  p.etag = r.etag;
  p.depth = e.depth;
  p.backlinks = e.backlinks;
  p.attempts = e.attempts;
  if (r.error != FetchError::None) {
    p.error_kind = std::string(to_string(r.error));
    p.error = r.error_message;
    count_error(p.error_kind);
  } else if (r.status >= 400) {
    p.error_kind = "http-" + std::to_string(r.status);
    p.error = "HTTP " + std::to_string(r.status);
    count_error(r.status >= 500 ? "http-5xx" : "http-4xx");
  }
  if (!r.body.empty()) p.content_hash = sha1_hex(r.body);
  if (r.error == FetchError::None && !r.raw_head.empty()) {
    p.warc_request = r.raw_request;
    p.warc_response_head = r.raw_head;
    p.ip = r.ip;
  }
  return page;
}

void Crawl::on_response(FetchResponse&& r) {
  auto it = in_flight_.find(r.token);
  if (it == in_flight_.end()) return;
  InFlight f = std::move(it->second);
  in_flight_.erase(it);
  if (f.robots) {
    on_robots(f.host, r);
    return;
  }
  if (!f.probe.url.empty()) {
    on_probe_response(std::move(f.probe), f.host, std::move(r));
    return;
  }
  ++answered_;
  if (f.revisit_page >= 0) {
    on_revisit_response(static_cast<PageId>(f.revisit_page), f.host, std::move(r));
    return;
  }
  const auto now = Clock::now();
  FrontierEntry e = std::move(f.entry);
  hosts_.on_finish(e.host, answered_at(r, now));
  ++hosts_[e.host].fetched;

  const bool retryable = (r.error == FetchError::Timeout || r.error == FetchError::Connect ||
                          r.error == FetchError::Protocol) ||
                         (r.error == FetchError::None && (r.status == 429 || r.status == 500 || r.status == 502 ||
                                                          r.status == 503 || r.status == 504));
  if (retryable && e.attempts < o_.retries) {
    ++e.attempts;
    auto wait = retry_after(r.retry_after)
                    .value_or(std::chrono::milliseconds(static_cast<std::int64_t>(o_.retry_base_ms) << (e.attempts - 1)));
    wait = std::min(wait, std::chrono::milliseconds(o_.max_retry_wait_ms));
    hosts_.defer(e.host, now + wait);
    count_error("retry");
    --page_transfers_;
    frontier_->retry(std::move(e));
    frontier_->host_changed(f.host, now);
    return;
  }
  if (shared_) shared_->transfer_ended(e.url, r.ip);

  auto page = page_record(e, r);
  PageRecord& p = *page;

  StoreJob job;
  if (replicas_ && replicas_->rewritten(e.url))
    replicas_->on_rewritten(e.url, r.error != FetchError::None || (r.status != 404 && r.status != 410),
                            &job.replica_decisions);
  if (replicas_ && !(r.error == FetchError::None && r.status >= 200 && r.status < 300 &&
                     looks_like_html(r.content_type, r.body)))
    answer_probe(e.url, r.error == FetchError::None ? r.status : 0, p.fetched_at, nullptr, {}, job);
  const bool redirect = r.error == FetchError::None && r.status >= 300 && r.status < 400 && !r.location.empty();
  if (redirect) {
    // Each hop is a page row and a redirects row; the target is a new
    // frontier entry, checked against scope and robots.txt like any link.
    auto base = CanonicalUrl::parse(e.url);
    auto target = base.ok() ? CanonicalUrl::resolve(*base, r.location) : Result<CanonicalUrl>(base.status());
    if (target.ok()) {
      p.redirect_to = target->str();
      if (replicas_) replicas_->note_redirect(e.url, p.redirect_to);
      if (e.redirects >= o_.max_redirects) {
        count_error("redirect-limit");
        aliases_.on_end(e.url);
      } else if (scope_.allows(*target)) {
        const std::uint32_t host = host_for(*target, job);
        const bool known = frontier_->add(target->str(), host, e.depth, static_cast<std::uint8_t>(e.redirects + 1),
                                          true, jobs_submitted_ + 1, &job.ops, 0, false, e.seq) ==
                           Frontier::Added::Known;
        if (known) ++skipped_["redirect-seen"];
        if (base.ok()) aliases_.on_redirect(*base, target->str(), known);
      } else {
        aliases_.on_end(e.url);
      }
    } else {
      aliases_.on_end(e.url);
      p.error_kind = "bad-redirect";
      p.error = "Location '" + r.location + "': " + target.status().message();
      count_error("bad-redirect");
    }
    p.body = std::move(r.body);
    frontier_->finish(e, UrlState::Done, &job.ops);
    --page_transfers_;
    job.page = std::move(page);
    submit(std::move(job));
    frontier_->host_changed(e.host, now);
    return;
  }

  // A download: any HTTP response that is not a redirect.
  aliases_.on_end(e.url);
  p.history = r.error == FetchError::None;
  const bool analyse = r.error == FetchError::None && r.status >= 200 && r.status < 300 &&
                       looks_like_html(r.content_type, r.body);
  frontier_->host_changed(e.host, now);
  if (analyse) {
    analyse_later(std::move(e), std::move(page), r, -1);
    return;
  }
  if (p.history) {
    ++pages_;
    yield_.learn(e.priority(), false);  // a page of the budget that could not be relevant
    p.link_priority = e.priority();
  }
  if (schedule_ && p.history && r.status >= 200 && r.status < 300) {
    if (auto feed = parse_feed(r.body)) {
      p.body = std::move(r.body);
      on_feed(std::move(e), std::move(page), *feed, -1);
      return;
    }
  }
  p.body = std::move(r.body);
  frontier_->finish(e, UrlState::Done, &job.ops);
  --page_transfers_;
  job.page = std::move(page);
  submit(std::move(job));
}

void Crawl::on_analysed(AnalysisResult&& r) {
  if (r.revisit_page == kProbePage) {
    on_probe_analysed(std::move(r));
    return;
  }
  if (r.revisit_page >= 0) {
    on_revisit_analysed(std::move(r));
    return;
  }
  PageRecord& p = *r.page;
  StoreJob job;
  const std::uint64_t job_id = jobs_submitted_ + 1;
  std::unordered_set<std::string_view> counted;
  std::int64_t kept = 0, fresh = 0;
  std::vector<std::string> link_urls;
  for (FoundLink& link : r.links) {
    if (replicas_) {
      link_urls.push_back(link.url.str());
      const std::string to = rewrite_link(link.url.str());
      if (to != link.url.str())
        if (auto u = CanonicalUrl::parse(to); u.ok()) {
          // A move is stored to be given back if the decision is undone; a
          // URL already downloaded (or being downloaded, as a page or a
          // probe) on the replica needs nothing given back.
          if (!downloaded_or_under_way(link.url.str()))
            replicas_->note_moved(link.url.str(), static_cast<std::uint16_t>(std::min<int>(r.entry.depth + 1, 65535)),
                                  static_cast<std::uint8_t>(std::min<int>(link.penalty, kMaxLinkPenalty)),
                                  &job.replica_moves);
          link.url = *u;
        }
    }
    if (!admit(link.url, link.hub)) continue;
    const bool first = link.counts && counted.insert(link.url.str()).second;
    const std::uint32_t host = host_for(link.url, job);
    int penalty = link.penalty;
    if (topic_signal()) penalty += topic_penalty(title_words_, link.anchor);
    if (frontier_->add(link.url.str(), host, static_cast<std::uint16_t>(std::min<int>(r.entry.depth + 1, 65535)), 0,
                       first, job_id, &job.ops, static_cast<std::uint8_t>(std::min<int>(penalty, kMaxLinkPenalty))) ==
        Frontier::Added::Queued)
      ++fresh;
    ++kept;
  }
  p.links_kept = kept;
  p.new_urls = fresh;
  if (schedule_) {
    schedule_copy(visit_of(p, r.entry.host, r.entry.depth), iso_seconds(p.fetched_at).value_or(wall_seconds()));
    ++visits_since_resolve_;
    share_visit(p.url, p.relevant, false);
  }
  if (auto u = CanonicalUrl::parse(p.url); u.ok() && p.relevant) calendar_.record_scope(*u, *p.relevant);
  if (p.relevant) learn_title(p.info.title, *p.relevant);
  yield_.learn(r.entry.priority(), p.relevant.value_or(false));
  p.link_priority = r.entry.priority();
  ++pages_;
  if (p.relevant && *p.relevant) ++relevant_;
  segments_ += p.segments;
  segments_in_scope_ += p.segments_in_scope;
  if (replicas_) {
    replicas_->note_page(p.url, p.ip, p.main_signature ? &*p.main_signature : nullptr, p.main_sketch, link_urls);
    replicas_->after_page(pages_before_ + pages_, &job.replica_decisions);
    answer_probe(p.url, p.status, p.fetched_at, p.main_signature ? &*p.main_signature : nullptr, p.main_sketch, job);
  }
  frontier_->finish(r.entry, UrlState::Done, &job.ops);
  --page_transfers_;
  job.page = std::move(r.page);
  submit(std::move(job));
}

// ---- replicas ----

std::string Crawl::rewrite_link(const std::string& url) {
  auto to = replicas_->rewrite(url);
  return to ? *to : url;
}

// Probes go out before new URLs, each when its host's politeness allows;
// one that robots.txt forbids is answered at once as not served.
void Crawl::dispatch_probes(Clock::time_point now) {
  for (std::size_t i = 0; i < replicas_->probes().size();) {
    auto u = CanonicalUrl::parse(replicas_->probes()[i].url);
    StoreJob job;
    const std::uint32_t host = u.ok() ? host_for(*u, job) : 0;
    if (!job.hosts.empty()) submit(std::move(job));
    if (!u.ok()) {
      StoreJob answer;
      replicas_->on_probe(replicas_->take_probe(i), 0, iso_time(std::chrono::system_clock::now()), nullptr, {},
                          pages_before_ + pages_, &answer.replica_decisions, &answer.replica_probes);
      submit(std::move(answer));
      continue;
    }
    if (hosts_.needs_robots(host, now)) {
      if (hosts_[host].robots != RobotsState::Fetching) fetch_robots(host, now);
      ++i;
      continue;
    }
    // Queued for a probe, then popped from the frontier: the page answers
    // the probe when it arrives (answer_probe).
    if (frontier_->state(u->str()) == UrlState::InFlight) {
      ++i;
      continue;
    }
    if (!hosts_.may_fetch(host, now)) {
      ++i;
      continue;
    }
    ReplicaProbe probe = replicas_->take_probe(i);
    if (!hosts_[host].rules.allowed(u->path_and_query())) {
      StoreJob answer;
      replicas_->on_probe(probe, 0, iso_time(std::chrono::system_clock::now()), nullptr, {}, pages_before_ + pages_,
                          &answer.replica_decisions, &answer.replica_probes);
      submit(std::move(answer));
      continue;
    }
    hosts_.on_dispatch(host, now);
    const std::uint64_t token = next_token_++;
    FetchRequest req{token, probe.url, false, {}};
    InFlight f{false, host, {}, -1, {}};
    probes_out_.insert(probe.url);
    f.probe = std::move(probe);
    in_flight_[token] = std::move(f);
    take_slot(now);
    fetcher_->start(std::move(req));
    frontier_->host_changed(host, now);
  }
}

void Crawl::on_probe_response(ReplicaProbe probe, std::uint32_t host, FetchResponse&& r) {
  const auto now = Clock::now();
  probes_out_.erase(probe.url);
  hosts_.on_finish(host, answered_at(r, now));
  frontier_->host_changed(host, now);
  const bool html = r.error == FetchError::None && r.status >= 200 && r.status < 300 &&
                    looks_like_html(r.content_type, r.body);
  if (html) {
    FrontierEntry e;
    e.url = probe.url;
    e.host = host;
    // Kept as a page (on_probe_analysed): as deep as its counterpart.
    e.depth = frontier_->depth(probe.counterpart).value_or(0);
    auto page = page_record(e, r);
    probes_in_analysis_[probe.url] = std::move(probe);
    analyse_later(std::move(e), std::move(page), r, kProbePage);
    return;
  }
  StoreJob job;
  replicas_->on_probe(probe, r.error == FetchError::None ? r.status : 0, iso_time(r.started), nullptr, {},
                      pages_before_ + pages_, &job.replica_decisions, &job.replica_probes);
  submit(std::move(job));
}

void Crawl::on_probe_analysed(AnalysisResult&& r) {
  auto it = probes_in_analysis_.find(r.entry.url);
  if (it == probes_in_analysis_.end()) return;
  const ReplicaProbe probe = std::move(it->second);
  probes_in_analysis_.erase(it);
  const PageRecord& p = *r.page;
  const long status = p.status;
  const std::string fetched_at = p.fetched_at;
  const std::optional<revisit::ContentSignature> signature = p.main_signature;
  const std::vector<std::uint64_t> sketch = p.main_sketch;
  // The answer was downloaded: it is kept as a page like any other (its
  // text, its links, its place in the replicas' profiles), and the URL is
  // not fetched again. Then it answers the probe.
  StoreJob known;
  frontier_->add_done(r.entry.url, r.entry.host, r.entry.depth, &known.ops);
  probe_pages_.insert(r.entry.url);
  submit(std::move(known));
  r.revisit_page = -1;
  ++page_transfers_;
  on_analysed(std::move(r));
  StoreJob job;
  replicas_->on_probe(probe, status, fetched_at, signature ? &*signature : nullptr, sketch, pages_before_ + pages_,
                      &job.replica_decisions, &job.replica_probes);
  submit(std::move(job));
}

bool Crawl::divert_replica(FrontierEntry& e, Clock::time_point now, std::vector<FrontierEntry>* held) {
  // Queued, and asked by a probe meanwhile: the probe's answer will be the page.
  if (probe_under_way(e.url)) {
    held->push_back(std::move(e));
    return true;
  }
  if (probe_pages_.count(e.url)) {  // queued before a probe downloaded it
    StoreJob job;
    frontier_->finish(e, UrlState::Done, &job.ops);
    submit(std::move(job));
    ++skipped_["probed"];
    frontier_->host_changed(e.host, now);
    return true;
  }
  if (replicas_->held(hosts_[e.host].authority)) {
    held->push_back(std::move(e));
    return true;
  }
  const auto to = replicas_->rewrite(e.url);
  if (!to) return false;
  auto u = CanonicalUrl::parse(*to);
  if (!u.ok()) return false;
  // The entry leaves the replica host; its URL on the canonical host takes
  // its backlinks (each a page linking it) and its depth.
  StoreJob job;
  frontier_->finish(e, UrlState::Dropped, &job.ops);
  replicas_->note_moved(e.url, e.depth, e.penalty, &job.replica_moves);
  ++skipped_["replica"];
  if (admit(*u)) {
    const std::uint32_t host = host_for(*u, job);
    const std::uint32_t moved = std::max<std::uint32_t>(1, e.backlinks);
    for (std::uint32_t i = 0; i < moved; ++i)
      frontier_->add(u->str(), host, e.depth, 0, e.backlinks > 0, jobs_submitted_ + 1, &job.ops, e.penalty);
  }
  submit(std::move(job));
  frontier_->host_changed(e.host, now);
  return true;
}

void Crawl::answer_probe(const std::string& url, long status, const std::string& fetched_at,
                         const revisit::ContentSignature* signature, const std::vector<std::uint64_t>& sketch,
                         StoreJob& job) {
  for (std::size_t i = 0; i < replicas_->probes().size(); ++i) {
    if (replicas_->probes()[i].url != url) continue;
    std::vector<ReplicaProbeRow> own;
    replicas_->on_probe(replicas_->take_probe(i), status, fetched_at, signature, sketch, pages_before_ + pages_,
                        &job.replica_decisions, &own);
    return;
  }
}

bool Crawl::downloaded_or_under_way(const std::string& url) {
  const UrlState state = frontier_->state(url);
  return state == UrlState::Done || state == UrlState::InFlight || probe_under_way(url) ||
         probe_pages_.count(url) != 0;
}

bool Crawl::probe_under_way(const std::string& url) const {
  return probes_out_.count(url) != 0 || probes_in_analysis_.count(url) != 0;
}

void Crawl::bring_back(StoreJob& job) {
  for (const ReplicaMoveRow& m : replicas_->take_returned()) {
    auto u = CanonicalUrl::parse(m.url);
    if (!u.ok()) continue;
    const std::uint32_t host = host_for(*u, job);
    // Dropped when it was moved from the frontier; unknown when a link to
    // it was rewritten before it got there.
    if (frontier_->requeue(m.url, jobs_submitted_ + 1, &job.ops) != Frontier::Added::Queued &&
        frontier_->state(m.url) == UrlState::None)
      frontier_->add(m.url, host, m.depth, 0, true, jobs_submitted_ + 1, &job.ops, m.penalty);
    frontier_->host_changed(host, Clock::now());
  }
}

// ---- revisits ----

// A page's importance in the freshness objective: every page alike in a
// general crawl; in a temporal crawl the relevant ones only, the others
// being revisited as hubs (by the new URLs they announce) or not at all;
// feeds and sitemaps, and the pages of a pattern the calendar-trap detector
// has come to flag since they were queued, only as hubs.
double Crawl::page_weight(const std::string& url, std::optional<bool> relevant) const {
  if (!relevant) return 0;  // not an analysed page (a feed, a sitemap): a hub only
  if (auto u = CanonicalUrl::parse(url); u.ok() && calendar_.flagged(*u)) return 0;  // a calendar trap's page
  return !o_.temporal_mode || *relevant ? 1 : 0;
}

// A page downloaded for the first time joins the schedule (a page
// downloaded again after a resume keeps its place and history).
void Crawl::schedule_copy(const StoredVisit& v, double at) {
  const std::uint64_t key = url_key(v.url);
  auto it = copy_of_.find(key);
  if (it != copy_of_.end()) {
    Copy& c = copies_[it->second];
    std::optional<bool> changed;
    if (c.signature && v.signature) changed = revisit::is_change(*c.signature, *v.signature);
    note_visit(it->second, at, changed, v.new_urls, v.last_modified);
    c = Copy{v.url, v.etag, v.last_modified, v.content_hash, v.fetched_at,
             changed && !*changed ? c.signature : v.signature, v.host, v.depth, c.in_flight};
    return;
  }
  const double weight = page_weight(v.url, v.relevant);
  const PageId id = schedule_->add_page(v.host, weight, prior_rate(), at,
                                        weight > 0 ? 0.0 : static_cast<double>(v.new_urls));
  if (v.features) {
    rate_prior_.set_features(id, *v.features);
    schedule_->set_prior_rate(id, page_prior(id, prior_rate()));
  }
  copy_of_.emplace(key, id);
  copies_.push_back(Copy{v.url, v.etag, v.last_modified, v.content_hash, v.fetched_at, v.signature, v.host, v.depth,
                         false});
}

// What the schedule keeps of a page's visit.
StoredVisit Crawl::visit_of(const PageRecord& p, std::uint32_t host, std::uint16_t depth) {
  StoredVisit v;
  v.url = p.url;
  v.host = host;
  v.depth = depth;
  v.fetched_at = p.fetched_at;
  v.status = p.status;
  v.revisit = p.revisit;
  v.changed = p.changed;
  v.signature = p.main_signature;
  v.etag = p.etag;
  v.last_modified = p.last_modified;
  v.content_hash = p.content_hash;
  v.relevant = p.relevant;
  v.new_urls = p.new_urls.value_or(0);
  v.features = p.features;
  return v;
}

// What a visit teaches: a change or not (the rate), the new URLs (the
// yield), and whether the host's Last-Modified can be believed. A
// Last-Modified is proven wrong when the main text changed while it stayed
// the same, or when it moved to the time of the fetch while the text did
// not change (a server that sends its clock): the host's If-Modified-Since
// would then confirm stale copies, so it is not sent there again.
void Crawl::note_visit(PageId id, double at, std::optional<bool> changed, std::int64_t new_urls,
                       const std::string& last_modified) {
  Copy& c = copies_[id];
  if (changed) {
    if (!last_modified.empty() && !c.last_modified.empty()) {
      const auto lm = http_seconds(last_modified);
      const bool stayed = last_modified == c.last_modified;
      const bool is_now = lm && !stayed && std::abs(*lm - at) <= kLastModifiedIsNowS;
      if ((*changed && stayed) || (!*changed && is_now)) {
        if (c.host >= last_modified_distrusted_.size()) last_modified_distrusted_.resize(c.host + 1, 0);
        last_modified_distrusted_[c.host] = 1;
      }
    }
    const double interval = at - schedule_->last_visit(id);
    if (interval > 0) {
      pooled_seconds_ += interval;
      pooled_changes_ += *changed ? 1 : 0;
      if (id >= observations_.size()) observations_.resize(id + 1, 0);
      if (observations_[id] == 0) ++pooled_pages_;
      if (observations_[id] < std::numeric_limits<std::uint16_t>::max()) ++observations_[id];
      rate_prior_.add_observation(id, interval, *changed);
      if (o_.learned_rate_prior) train_rate_prior();
    }
    schedule_->record_visit(id, at, *changed, static_cast<std::size_t>(std::max<std::int64_t>(0, new_urls)));
  } else {
    schedule_->rebase(id, at);
  }
}

bool Crawl::dispatch_revisit(Clock::time_point now, double wall) {
  if (shared_) return dispatch_claimed_revisit(now, wall);
  // A due page whose host must wait is postponed to when it may be ready,
  // which lets the pages of other hosts through; a bounded number per call.
  for (int tries = 0; tries < 256; ++tries) {
    const auto due = schedule_->next_due(wall);
    if (!due) return false;
    Copy& c = copies_[*due];
    if (c.in_flight) {
      schedule_->postpone(*due, wall + o_.timeout_ms / 1000.0);
      continue;
    }
    const std::uint32_t host = c.host;
    if (hosts_.needs_robots(host, now)) {
      if (hosts_[host].robots != RobotsState::Fetching) fetch_robots(host, now);
      schedule_->postpone(*due, wall + 1);
      continue;
    }
    if (!hosts_.may_fetch(host, now)) {
      const auto next = hosts_[host].next_allowed;
      const double wait = next > now ? std::chrono::duration<double>(next - now).count() : 0.05;
      schedule_->postpone(*due, wall + std::max(wait, 0.01));
      continue;
    }
    if (!robots_allow_revisit(*due)) continue;
    start_revisit(*due, now, wall);
    return true;
  }
  return false;
}

// Whether robots.txt still lets the page be fetched; when it forbids it,
// the page is visited no more.
bool Crawl::robots_allow_revisit(PageId id) {
  const Copy& c = copies_[id];
  auto u = CanonicalUrl::parse(c.url);
  if (u.ok() && hosts_[c.host].rules.allowed(u->path_and_query())) return true;
  schedule_->set_weight(id, 0);
  schedule_->postpone(id, std::numeric_limits<double>::infinity());
  ++skipped_["robots"];
  return false;
}

bool Crawl::dispatch_spare_revisit(Clock::time_point now, double wall) {
  spare_retry_ = Clock::time_point::max();
  for (int tries = 0; tries < 8; ++tries) {
    const auto page = schedule_->earliest_ready([&](PageId id) {
      const Copy& c = copies_[id];
      if (c.in_flight || hosts_.needs_robots(c.host, now)) return false;
      if (hosts_.may_fetch(c.host, now)) return true;
      const auto next = hosts_[c.host].next_allowed;
      if (next > now) spare_retry_ = std::min(spare_retry_, next);
      return false;
    }, wall);
    if (!page) return false;
    if (!robots_allow_revisit(*page)) continue;
    spare_retry_ = Clock::time_point::max();
    ++spare_revisits_;
    start_revisit(*page, now, wall);
    return true;
  }
  return false;
}

// A conditional request with the copy's validators (a host's Last-Modified
// only while it is trusted).
void Crawl::start_revisit(PageId id, Clock::time_point now, double wall) {
  Copy& c = copies_[id];
  const std::uint32_t host = c.host;
  FetchRequest req{next_token_++, c.url, false, {}};
  if (!c.etag.empty()) req.headers.push_back("If-None-Match: " + c.etag);
  const bool trusted = host >= last_modified_distrusted_.size() || !last_modified_distrusted_[host];
  if (!c.last_modified.empty() && trusted) req.headers.push_back("If-Modified-Since: " + c.last_modified);
  FrontierEntry e;
  e.url = c.url;
  e.key = url_key(c.url);
  e.host = host;
  e.depth = c.depth;
  hosts_.on_dispatch(host, now);
  c.in_flight = true;
  schedule_->postpone(id, wall + o_.timeout_ms / 1000.0);
  in_flight_[req.token] = InFlight{false, host, std::move(e), static_cast<std::int64_t>(id), {}};
  take_slot(now);
  fetcher_->start(std::move(req));
  frontier_->host_changed(host, now);
}

// A revisit claimed from the shared frontier joins the schedule (a page
// this worker never fetched comes in with the copy the claim carries; one
// it knows takes the claim's copy, newer when another worker revisited it
// since, and its clock restarts at the last visit by any worker) and waits
// for its host here.
bool Crawl::claim_revisit(const SharedClaim& claim, StoreJob& job) {
  auto u = CanonicalUrl::parse(claim.url);
  if (!u.ok() || !schedule_) return false;
  const SharedCopy& s = *claim.revisit;
  StoredVisit v;
  v.url = u->str();
  v.host = host_for(*u, job);
  v.depth = s.depth;
  v.fetched_at = s.captured_at;
  v.signature = s.signature;
  v.etag = s.etag;
  v.last_modified = s.last_modified;
  v.content_hash = s.content_hash;
  if (s.relevant >= 0) v.relevant = s.relevant > 0;
  const double last = s.last_visit > 0 ? s.last_visit : wall_seconds();
  auto it = copy_of_.find(url_key(v.url));
  if (it == copy_of_.end()) {
    schedule_copy(v, last);
    it = copy_of_.find(url_key(v.url));
  } else {
    Copy& c = copies_[it->second];
    c = Copy{v.url, v.etag, v.last_modified, v.content_hash, v.fetched_at, v.signature, v.host, v.depth, false};
    if (last > schedule_->last_visit(it->second)) schedule_->rebase(it->second, last);
  }
  const PageId id = it->second;
  // Its visits by every worker: the page's estimate is the crawl's.
  if (s.history) schedule_->set_history(id, *s.history);
  if (id < shared_due_.size()) shared_due_[id] = 0;
  if (id >= shared_relevance_.size()) shared_relevance_.resize(id + 1, -1);
  shared_relevance_[id] = s.relevant;
  claimed_revisits_.push_back(id);
  return true;
}

// The first claimed revisit whose host may be fetched now goes.
bool Crawl::dispatch_claimed_revisit(Clock::time_point now, double wall) {
  for (auto it = claimed_revisits_.begin(); it != claimed_revisits_.end();) {
    const PageId id = *it;
    Copy& c = copies_[id];
    const std::uint32_t host = c.host;
    if (hosts_.needs_robots(host, now)) {
      if (hosts_[host].robots != RobotsState::Fetching) fetch_robots(host, now);
      ++it;
      continue;
    }
    if (!hosts_.may_fetch(host, now)) {
      ++it;
      continue;
    }
    const bool allowed = [&] {
      auto u = CanonicalUrl::parse(c.url);
      return u.ok() && hosts_[host].rules.allowed(u->path_and_query());
    }();
    if (allowed && !shared_slot()) return false;  // the crawl's rate: it waits for a slot
    it = claimed_revisits_.erase(it);
    if (!allowed) {
      // robots.txt now forbids it: no more visits (completed unscheduled).
      schedule_->set_weight(id, 0);
      shared_->finished(c.url, false, jobs_submitted_);
      ++skipped_["robots"];
      continue;
    }
    start_revisit(id, now, wall);
    return true;
  }
  return false;
}

// A shared crawl: the page's next revisit (the schedule's due time) goes to
// the shared frontier with what any worker needs to make it; a revisit is
// completed with it, once its store job is committed.
void Crawl::share_visit(const std::string& url, std::optional<bool> relevant, bool revisited) {
  if (!shared_) return;
  auto it = copy_of_.find(url_key(url));
  if (it == copy_of_.end()) return;
  const PageId id = it->second;
  const Copy& c = copies_[id];
  if (revisited) shared_->finished(c.url, true, jobs_submitted_ + 1);
  if (id >= shared_relevance_.size()) shared_relevance_.resize(id + 1, -1);
  if (relevant) shared_relevance_[id] = *relevant ? 1 : 0;
  // Before the first solve a page has no frequency yet: solve now.
  if (!std::isfinite(schedule_->due(id)) && resolved_size_ == 0) maybe_resolve(wall_seconds(), true);
  const double due = schedule_->due(id);
  if (!std::isfinite(due)) return;  // not worth a revisit: it leaves the schedule
  if (id >= shared_due_.size()) shared_due_.resize(id + 1, 0);
  shared_due_[id] = due;
  shared_->schedule(c.url, SharedCopy{c.etag, c.last_modified, c.content_hash, c.captured_at, c.signature, c.depth,
                                      due, schedule_->last_visit(id), shared_relevance_[id], schedule_->history(id),
                                      schedule_->spare_from(id)});
}

void Crawl::on_revisit_response(PageId id, std::uint32_t host, FetchResponse&& r) {
  const auto now = Clock::now();
  const double wall = wall_seconds(r.started);
  hosts_.on_finish(host, answered_at(r, now));
  ++hosts_[host].fetched;
  Copy& c = copies_[id];
  FrontierEntry e;
  e.url = c.url;
  e.host = host;
  e.depth = c.depth;
  auto page = page_record(e, r);
  PageRecord& p = *page;
  p.revisit = true;
  frontier_->host_changed(host, now);
  if (shared_) shared_->transfer_ended(c.url, r.ip);

  const bool html = r.error == FetchError::None && r.status >= 200 && r.status < 300 &&
                    looks_like_html(r.content_type, r.body);
  if (html) {
    analyse_later(std::move(e), std::move(page), r, static_cast<std::int64_t>(id));
    return;
  }
  if (r.error == FetchError::None && r.status >= 200 && r.status < 300) {
    if (auto feed = parse_feed(r.body)) {
      p.body = std::move(r.body);
      on_feed(std::move(e), std::move(page), *feed, static_cast<std::int64_t>(id));
      return;
    }
  }
  c.in_flight = false;
  StoreJob job;
  if (r.error == FetchError::None && r.status == 304) {
    // Not Modified: the copy is confirmed for the price of a header.
    ++revisits_;
    ++not_modified_;
    p.changed = false;
    p.new_urls = 0;
    p.warc_revisit = WarcRevisit::kServerNotModified;
    p.warc_refers_to_uri = c.url;
    p.warc_refers_to_date = warc_date(c.captured_at);
    note_visit(id, wall, false, 0, r.last_modified);
    ++visits_since_resolve_;
  } else if (r.error == FetchError::None) {
    // An answer without a document (a redirect, a 4xx or 5xx, a body that
    // is neither HTML nor a feed): no freshness weight under the optimum
    // until a document comes back (revisit_schedule.h), no observation.
    schedule_->set_document(id, false, wall);
    ++lost_documents_;
    p.body = std::move(r.body);
  } else {
    // No answer (a transport failure): tried again later, nothing learnt.
    schedule_->postpone(id, wall + std::max(kFailedRevisitWaitS,
                                            schedule_->frequency(id) > 0 ? 1 / schedule_->frequency(id) : 0.0));
    p.body = std::move(r.body);
  }
  share_visit(c.url, std::nullopt, true);
  job.page = std::move(page);
  submit(std::move(job));
}

void Crawl::on_revisit_analysed(AnalysisResult&& r) {
  const PageId id = static_cast<PageId>(r.revisit_page);
  Copy& c = copies_[id];
  c.in_flight = false;
  PageRecord& p = *r.page;
  StoreJob job;
  const std::uint64_t job_id = jobs_submitted_ + 1;
  std::int64_t kept = 0, fresh = 0;
  if (shared_) announcing_ = id + 1;
  for (const FoundLink& link : r.links) {
    if (!admit(link.url, link.hub)) continue;
    // A link seen on an earlier visit is no new backlink; a URL never seen
    // is, and the page announces it: it goes to the head of the queue.
    const bool unseen = frontier_->state(link.url.str()) == UrlState::None;
    const std::uint32_t host = host_for(link.url, job);
    if (frontier_->add(link.url.str(), host, static_cast<std::uint16_t>(std::min<int>(r.entry.depth + 1, 65535)), 0,
                       link.counts && unseen, job_id, &job.ops, link.penalty, unseen) == Frontier::Added::Queued)
      ++fresh;
    ++kept;
  }
  announcing_ = 0;
  p.links_kept = kept;
  p.new_urls = fresh;
  std::optional<bool> changed;
  if (c.signature && p.main_signature) changed = revisit::is_change(*c.signature, *p.main_signature);
  const double wall = iso_seconds(p.fetched_at).value_or(wall_seconds());
  // A document again after answers without one: the gap is no observation.
  if (!schedule_->has_document(id)) {
    schedule_->set_document(id, true, wall);
    changed.reset();
  }
  if (auto u = CanonicalUrl::parse(c.url); u.ok() && calendar_.flagged(*u)) schedule_->set_weight(id, 0);
  p.changed = changed;
  ++revisits_;
  if (changed && *changed) ++changed_;
  note_visit(id, wall, changed, announced_here(fresh), p.last_modified);
  ++visits_since_resolve_;
  // An unchanged copy stands: its analysis stays as stored.
  if (changed && !*changed) p.analysed = false;
  keep_copy(c, p, changed);
  share_visit(c.url, p.relevant, true);
  job.page = std::move(r.page);
  submit(std::move(job));
}

// After a revisit answered 200: an unchanged copy stands, and the WARC gets
// a revisit record when the payload is byte for byte the stored one; a
// changed one (or the first with a signature) replaces it.
void Crawl::keep_copy(Copy& c, PageRecord& p, std::optional<bool> changed) {
  if (changed && !*changed) {
    if (!p.content_hash.empty() && p.content_hash == c.content_hash) {
      p.warc_revisit = WarcRevisit::kIdenticalPayloadDigest;
      p.warc_refers_to_uri = c.url;
      p.warc_refers_to_date = warc_date(c.captured_at);
    }
  } else {
    c.signature = p.main_signature;
  }
  c.etag = p.etag;
  c.last_modified = p.last_modified;
  if (p.warc_revisit == WarcRevisit::kNone) {
    c.content_hash = p.content_hash;
    c.captured_at = p.fetched_at;
  }
}

void Crawl::on_feed(FrontierEntry e, std::unique_ptr<PageRecord> page, const Feed& feed, std::int64_t revisit_page) {
  PageRecord& p = *page;
  StoreJob job;
  const std::uint64_t job_id = jobs_submitted_ + 1;
  auto base = CanonicalUrl::parse(e.url);
  // The entries of a sitemap index are sitemaps; those of a feed or a
  // sitemap are pages.
  const bool index = feed.kind == FeedKind::kSitemapIndex;
  std::string listed;
  std::int64_t kept = 0, fresh = 0;
  if (shared_ && revisit_page >= 0) announcing_ = static_cast<std::uint64_t>(revisit_page) + 1;
  for (const std::string& href : feed.urls) {
    if (!base.ok()) break;
    auto target = CanonicalUrl::resolve(*base, href);
    if (!target.ok()) continue;
    listed += target->str();
    listed += '\n';
    if (!admit(*target, index)) continue;
    const bool unseen = frontier_->state(target->str()) == UrlState::None;
    const std::uint32_t host = host_for(*target, job);
    // On a revisit, a URL the feed lists for the first time is announced.
    if (frontier_->add(target->str(), host, static_cast<std::uint16_t>(std::min<int>(e.depth + 1, 65535)), 0, unseen,
                       job_id, &job.ops, 0, unseen && revisit_page >= 0) == Frontier::Added::Queued)
      ++fresh;
    ++kept;
  }
  announcing_ = 0;
  p.links = static_cast<std::int64_t>(feed.urls.size());
  p.links_kept = kept;
  p.new_urls = fresh;
  // A feed changes when the list of what it announces does: any difference
  // counts (a new item among fifty is a change, not a near-duplicate).
  p.main_signature = revisit::content_signature(listed);
  const double at = iso_seconds(p.fetched_at).value_or(wall_seconds());
  if (revisit_page < 0) {
    frontier_->finish(e, UrlState::Done, &job.ops);
    --page_transfers_;
    schedule_copy(visit_of(p, e.host, e.depth), at);
    share_visit(p.url, std::nullopt, false);
  } else {
    const PageId id = static_cast<PageId>(revisit_page);
    Copy& c = copies_[id];
    c.in_flight = false;
    std::optional<bool> changed;
    if (c.signature) changed = c.signature->exact != p.main_signature->exact;
    if (!schedule_->has_document(id)) {
      schedule_->set_document(id, true, at);
      changed.reset();
    }
    p.changed = changed;
    ++revisits_;
    if (changed && *changed) ++changed_;
    note_visit(id, at, changed, announced_here(fresh), p.last_modified);
    keep_copy(c, p, changed);
    share_visit(c.url, std::nullopt, true);
  }
  ++visits_since_resolve_;
  job.page = std::move(page);
  submit(std::move(job));
}

// The sitemaps robots.txt names; the conventional /sitemap.xml only when it
// names none. Each is asked once per crawl: the frontier knows it from then
// on (a 404 too, and across --resume), however often robots.txt is read again.
void Crawl::queue_sitemaps(std::uint32_t host, const RobotsRules& rules, StoreJob& job) {
  std::vector<std::string> urls = rules.sitemaps();
  if (urls.empty()) urls.push_back(hosts_[host].origin + "/sitemap.xml");
  for (const std::string& url : urls) {
    auto u = CanonicalUrl::parse(url);
    if (!u.ok() || !admit(*u, true)) continue;
    frontier_->add(u->str(), host_for(*u, job), 0, 0, false, jobs_submitted_ + 1, &job.ops);
  }
}

// Solves the schedule again when it may have moved: at most every
// kResolveEveryS seconds (or twenty times what the last solve cost, so that
// a large collection does not hold the loop), when visits came in or the
// revisit budget moved by a tenth (new URLs ran dry, or started to come);
// and at once when the collection has grown by half since the last time.
// The budget is --fetch-rate, or the sum of the hosts' politeness caps.
void Crawl::maybe_resolve(double wall, bool force) {
  if (!schedule_ || schedule_->size() == 0) return;
  const bool grown = schedule_->size() >= resolved_size_ + resolved_size_ / 2 + 1;
  if (shared_ && (force || wall - shared_view_read_ >= kSharedViewEveryS)) read_shared_view(wall);
  // New URLs ran dry (or came back): the budget they held moves at once,
  // not as the trailing window forgets them.
  const bool dry = shared_ ? shared_view_.queued_hosts == 0 : frontier_->empty();
  const bool dried = dry != resolved_dry_;
  const double every = dried ? 20 * resolve_cost_s_ : std::max(kResolveEveryS, 20 * resolve_cost_s_);
  if (!force && !grown && wall - last_resolve_check_ < every) return;
  last_resolve_check_ = wall;
  std::vector<std::uint8_t> has_copy(hosts_.size(), 0);
  for (const Copy& c : copies_)
    if (c.host < has_copy.size()) has_copy[c.host] = 1;
  // caps: what the hosts of the collection allow; queued_caps: the fastest
  // the queued new URLs can be fetched (their hosts' caps).
  double caps = 0, queued_caps = 0;
  for (std::uint32_t h = 0; h < hosts_.size(); ++h) {
    const double gap = std::max(1.0, static_cast<double>(hosts_.gap(h).count())) / 1000.0;
    schedule_->set_host_gap(h, gap);
    if (has_copy[h]) caps += 1 / gap;
    if (frontier_->has_queued(h)) queued_caps += 1 / gap;
  }
  double crawl_budget = o_.fetch_rate > 0 ? o_.fetch_rate : caps;
  while (!new_fetch_times_.empty() && new_fetch_times_.front() < wall - kNewUrlRateWindowS) new_fetch_times_.pop_front();
  const double window = std::clamp(wall - started_wall_, 1.0, kNewUrlRateWindowS);
  double new_rate = static_cast<double>(new_fetch_times_.size()) / window;
  if (shared_) {
    // The due times a worker sends are the crawl's, kept whichever worker
    // makes the next visit: its schedule is solved for the crawl's budget
    // (--fetch-rate, the crawl's: every worker paces at it together), new URLs (every worker's claims, their
    // hosts) and pages, scaled by its share of the crawl's scheduled pages,
    // so that the workers' schedules together spend the crawl's budget once.
    const double share =
        std::min(1.0, static_cast<double>(schedule_->size()) / static_cast<double>(std::max<std::int64_t>(1, shared_view_.scheduled)));
    if (o_.fetch_rate > 0) crawl_budget = o_.fetch_rate * share;
    queued_caps = shared_queued_caps() * share;
    new_rate = shared_new_url_rate() * share;
  }
  schedule_->set_budget(crawl_budget);
  // New URLs hold what they were fetched at over the last minute, but no
  // more than their hosts allow now: when only a slow host has URLs left
  // (or none does), the rest goes to revisits at once.
  schedule_->set_new_url_rate(std::min(queued_caps, new_rate));
  schedule_->set_new_url_capacity(queued_caps);
  const double budget = schedule_->revisit_budget();
  const bool moved = std::abs(budget - resolved_budget_) > 0.1 * resolved_budget_;
  if (!force && !grown && !dried && visits_since_resolve_ == 0 && !moved) return;
  const auto t0 = Clock::now();
  const double prior = prior_rate();
  for (PageId id = 0; id < schedule_->size(); ++id) schedule_->set_prior_rate(id, page_prior(id, prior));
  schedule_->resolve();
  if (shared_) move_shared_due();
  resolve_cost_s_ = std::chrono::duration<double>(Clock::now() - t0).count();
  resolved_size_ = schedule_->size();
  resolved_budget_ = budget;
  resolved_dry_ = dry;
  visits_since_resolve_ = 0;
}

// A shared crawl's figures (SharedView); the new URLs claimed by then are
// kept for a minute, for their rate.
void Crawl::read_shared_view(double wall) {
  shared_view_read_ = wall;
  const auto v = shared_->view();
  if (!v) return;
  shared_view_ = *v;
  if (shared_new_claims_.empty() || v->at > shared_new_claims_.back().first)
    shared_new_claims_.emplace_back(v->at, v->new_claims);
  while (shared_new_claims_.size() > 1 && shared_new_claims_.front().first < v->at - kNewUrlRateWindowS)
    shared_new_claims_.pop_front();
}

// A solve changed the pages' frequencies: the due times this worker's
// visits set in the shared frontier move with them when they moved by more
// than a tenth of the interval (a lone crawl's schedule moves them all), but
// only those not revisited since by another worker nor fallen due. A due
// time not sent yet (its visit's store job not committed, or its completion
// not yet through) changes where it waits: Redis does not know it yet. A
// hub's yield, credited once Redis has said which of its links were new,
// so reaches its next due time at the first solve after the visit.
void Crawl::move_shared_due() {
  std::vector<SharedMove> moves;
  std::vector<PageId> ids;
  for (PageId id = 0; id < shared_due_.size(); ++id) {
    const double sent = shared_due_[id];
    if (sent <= 0 || copies_[id].in_flight) continue;
    const double due = schedule_->due(id);
    if (!std::isfinite(due)) continue;
    if (std::abs(due - sent) <= 0.1 * std::max(sent - schedule_->last_visit(id), 1e-3)) continue;
    if (SharedCopy* next = shared_->pending(copies_[id].url)) {
      next->due = shared_due_[id] = due;
      continue;
    }
    moves.push_back(SharedMove{copies_[id].url, sent, due});
    ids.push_back(id);
  }
  const auto moved = shared_->move_due(moves);
  if (!moved) return;
  for (PageId id : ids) shared_due_[id] = 0;  // revisited since by another, or due: no longer this worker's
  for (std::size_t i : *moved)
    if (i < ids.size()) shared_due_[ids[i]] = moves[i].to;
}

// The fastest the crawl's queued new URLs could be fetched: the hosts with
// new URLs queued, each at what it allows (its gap: --delay-ms or its
// robots.txt Crawl-delay, as this worker knows the host; --delay-ms for a
// host it has not met), estimated from the sample the shared frontier draws.
double Crawl::shared_queued_caps() const {
  const auto& sample = shared_view_.queued_host_sample;
  if (shared_view_.queued_hosts <= 0 || sample.empty()) return 0;
  const double delay = std::max(1, o_.delay_ms) / 1000.0;
  double sum = 0;
  for (const std::string& authority : sample) {
    const auto h = hosts_.find(authority);
    sum += 1 / (h ? std::max(1.0, static_cast<double>(hosts_.gap(*h).count())) / 1000.0 : delay);
  }
  return sum / static_cast<double>(sample.size()) * static_cast<double>(shared_view_.queued_hosts);
}

// New URLs claimed per second over the last minute, by all workers. While
// the crawl's first claim is less than a minute old, over the time since
// it (none were claimed before), as a lone crawl counts its new fetches
// from its start: so the rate is known from the first readings on, and the
// first pages downloaded are not solved for as if new URLs took nothing.
double Crawl::shared_new_url_rate() const {
  if (shared_new_claims_.empty()) return 0;
  auto [t0, n0] = shared_new_claims_.front();
  const auto& [t1, n1] = shared_new_claims_.back();
  const double first = shared_view_.first_claim;
  if (first > 0 && first > t1 - kNewUrlRateWindowS && first < t0) {
    t0 = first;
    n0 = 0;
  }
  if (t1 <= t0) return 0;
  return static_cast<double>(n1 - n0) / std::max(1.0, t1 - t0);
}

// The prior change rate of a page without a history: the crawl's own
// changes per second of observation over every page so far (an empirical
// prior: pages of the same crawl change more alike than a fixed guess
// says), with the default prior worth one page (revisit::pooled_prior_rate).
double Crawl::prior_rate() const {
  return revisit::pooled_prior_rate(pooled_changes_, pooled_seconds_, pooled_pages_);
}

// The model learns from every visit so far (revisit/rate_prior.h), not
// from its own predictions: a page's prior enters the schedule's estimate
// only, never the examples. It trains as soon as the visits allow, then
// each time they have grown by a tenth, and gives every page its
// prediction at once (the schedule uses it from the next resolve on).
void Crawl::train_rate_prior() {
  const std::size_t seen = rate_prior_.observations();
  if (seen < trained_seen_ + trained_seen_ / 10 + 1) return;
  if (!rate_prior_.train()) return;
  trained_seen_ = seen;
  const double constant = prior_rate();
  for (PageId id = 0; id < schedule_->size(); ++id) schedule_->set_prior_rate(id, page_prior(id, constant));
}

double Crawl::page_prior(PageId id, double constant) const {
  if (!o_.learned_rate_prior) return constant;
  return rate_prior_.predict(id).value_or(constant);
}

// A resumed revisit crawl: the schedule rebuilt from every stored visit
// (history, estimates and due times follow from it), and the validators
// and signatures of each page's newest copy.
Status Crawl::restore_schedule() {
  return store_->visits([&](const StoredVisit& v) {
    const double at = iso_seconds(v.fetched_at).value_or(0);
    const std::uint64_t key = url_key(v.url);
    auto it = copy_of_.find(key);
    if (it == copy_of_.end()) {
      if (!v.revisit) schedule_copy(v, at);
      return;
    }
    Copy& c = copies_[it->second];
    if (v.status == 304) {
      note_visit(it->second, at, false, 0, v.last_modified);
      return;
    }
    std::optional<bool> changed = v.changed;
    if (!v.revisit && c.signature && v.signature) changed = revisit::is_change(*c.signature, *v.signature);
    note_visit(it->second, at, changed, v.new_urls, v.last_modified);
    if (!changed || *changed) c.signature = v.signature;
    c.etag = v.etag;
    c.last_modified = v.last_modified;
    if (!changed || *changed || v.content_hash != c.content_hash) {
      c.content_hash = v.content_hash;
      c.captured_at = v.fetched_at;
    }
  });
}

// The free-slot rule (crawl.h): a link that the priority slack holds back
// for a better one waiting on politeness is fetched now when it is worth a
// page of the budget. With no page budget, time is the budget and every free
// slot is worth filling. With one, the pages left go, at best, to the best
// links queued: the link is worth a page when it ranks among them, or when
// what the crawl has learned of links like it (LinkYield) is at least what
// it learned of the last link the budget reaches.
bool Crawl::worth_a_slot(int priority) const {
  if (o_.max_pages <= 0) return true;
  const std::int64_t left = o_.max_pages - (pages_before_ + pages_ + page_transfers_);
  if (left <= 0) return false;
  const std::optional<int> marginal = frontier_->nth_best_priority(static_cast<std::size_t>(left));
  if (!marginal || priority <= *marginal) return true;
  return yield_.estimate(priority) >= yield_.estimate(*marginal);
}

void Crawl::fetch_robots(std::uint32_t host, Clock::time_point now) {
  hosts_.robots_fetching(host);
  if (shared_) {
    if (auto known = shared_->robots(hosts_[host].authority)) {
      // Fetched by a worker of the crawl: its answer, without a request, so
      // without a gap before the host's next request (the shared frontier
      // keeps the host's gaps across workers).
      FetchResponse r;
      r.status = known->status;
      r.body = std::move(known->body);
      on_robots(host, r, true, known->ttl);
      return;
    }
  }
  hosts_.on_dispatch(host, now);
  const std::uint64_t token = next_token_++;
  in_flight_[token] = InFlight{true, host, {}, -1, {}};
  fetcher_->start(FetchRequest{token, hosts_[host].origin + "/robots.txt", true, {}});
}

// --fetch-rate is a token bucket (as the generic cell rate algorithm
// keeps it: a virtual schedule of slots 1/rate apart) that holds at most
// one second of the rate, and never more than two requests: a slot taken
// late, by up to an interval, does not move the next one, so a loop that
// wakes late loses nothing, and an idle spell saves up at most one request,
// so no burst follows it.
bool Crawl::rate_allows(Clock::time_point now) const {
  if (o_.fetch_rate <= 0) return true;
  if (shared_) return now >= shared_->pace_after();
  return now + fetch_rate_tolerance() >= next_slot_;
}

Clock::time_point Crawl::next_rate_slot() const {
  return shared_ ? shared_->pace_after() : next_slot_ - fetch_rate_tolerance();
}

// The same bucket as a lone crawl's (its capacity the burst), one for the
// whole crawl.
bool Crawl::shared_slot() {
  if (!shared_ || o_.fetch_rate <= 0) return true;
  return shared_->take_slot(o_.fetch_rate, std::clamp(o_.fetch_rate, 1.0, 2.0));
}

Clock::duration Crawl::fetch_rate_interval() const {
  return std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(1 / o_.fetch_rate));
}

// The bucket's capacity less one request, in time: (clamp(rate·1 s, 1, 2) - 1) intervals.
Clock::duration Crawl::fetch_rate_tolerance() const {
  const double spare = std::clamp(o_.fetch_rate, 1.0, 2.0) - 1.0;
  return std::chrono::duration_cast<Clock::duration>(fetch_rate_interval() * spare);
}

void Crawl::take_slot(Clock::time_point now) {
  ++fetches_;
  if (o_.fetch_rate <= 0 || shared_) return;
  next_slot_ = std::max(next_slot_, now) + fetch_rate_interval();
}

void Crawl::pump_shared() {
  const std::size_t want = static_cast<std::size_t>(std::max(1, o_.connections));
  StoreJob job;
  shared_->pump(want, [&](const SharedClaim& c) {
    if (c.revisit) return claim_revisit(c, job);
    auto u = CanonicalUrl::parse(c.url);
    if (!u.ok()) return false;
    const std::string url = u->str();
    if (frontier_->add_claimed(url, host_for(*u, job), jobs_submitted_ + 1, &job.ops,
                               static_cast<int>(std::clamp<std::int64_t>(c.priority, -1, 1 << 20)),
                               seed_keys_.count(url_key(url)) ? 0 : 1, c.order) == Frontier::Added::Queued)
      return true;
    share_visit(url, std::nullopt, false);  // downloaded here before: scheduled for its revisit now
    return false;
  });
  if (!job.ops.empty() || !job.hosts.empty()) submit(std::move(job));
  credit_announced();
  for (const SharedTitle& t : shared_->take_titles()) {
    title_words_.learn(t.title, t.relevant);
    ++titles_learnt_;
  }
}

// The title words of one crawl are learnt from every worker's pages: in a
// shared crawl a title is learnt here at once, as a lone crawl learns it
// (the links of the next page analysed are judged with it), and goes to
// the crawl's log of them (SharedCrawl), from which the others' come.
// Every worker reads every title, so a page's title reaches the log cut
// to its first kMaxSharedTitle bytes (at a character boundary): a hostile
// page's megabyte title does not go to Redis and to each worker.
void Crawl::learn_title(const std::string& title, bool relevant) {
  constexpr std::size_t kMaxSharedTitle = 1024;
  if (!titles_from_log()) {
    title_words_.learn(title, relevant);
    ++titles_learnt_;
    return;
  }
  std::size_t n = std::min(title.size(), kMaxSharedTitle);
  if (n < title.size())
    n = temporal::char_start_at_or_before(title, n);  // not inside a character
  std::string logged = title.substr(0, n);
  title_words_.learn(logged, relevant);  // what the others learn of it
  ++titles_learnt_;
  shared_->learn_title(std::move(logged), relevant);
}

void Crawl::credit_announced() {
  if (!schedule_) return;
  for (std::uint64_t from : shared_->take_announced()) {
    if (from - 1 >= schedule_->size()) continue;
    const auto id = static_cast<PageId>(from - 1);
    schedule_->add_announced(id, 1);
    // Its next visit not sent yet: it carries the yield.
    if (SharedCopy* next = shared_->pending(copies_[id].url); next && next->history)
      next->history->yield = schedule_->yield(id);
  }
}

void Crawl::dispatch() {
  const auto now = Clock::now();
  for (std::uint32_t host : frontier_->take_robots_requests()) fetch_robots(host, now);
  // Back-pressure: what waits for the writer, and the uncommitted frontier
  // entries that cannot leave memory before it commits, stay bounded.
  const std::size_t backlog_limit = 512;
  const std::size_t backlog_bytes_limit = 12u << 20;
  const std::size_t analysis_limit = static_cast<std::size_t>(std::max(8, o_.connections * 2));
  std::vector<FrontierEntry> held;  // entries of hosts under replica verification, put back below
  while (fetcher_->in_flight() < static_cast<std::size_t>(std::max(1, o_.connections))) {
    if (store_->backlog() > backlog_limit || store_->backlog_bytes() > backlog_bytes_limit ||
        pool_->pending() > analysis_limit)
      break;
    if (o_.max_fetches > 0 && fetches_ >= o_.max_fetches) break;
    if (!rate_allows(now)) break;
    // Due revisits first, then new URLs (the budget rule of revisit_schedule.h). While
    // no new URL is queued but new pages are still fetched or analysed,
    // their links are not known yet: revisits wait for them rather than
    // spend the budget as if discovery were over (on a slow machine a
    // page's analysis can outlast many revisits of the pages before it).
    //
    // The schedule's frequencies leave new URLs their share only on
    // average: a page added between two solves, or revisits running late
    // behind slow analysis, can make every slot a due revisit. So while new
    // URLs are queued the slots themselves are counted: once they are owed
    // a whole slot of their share, the next goes to a new URL if one may be
    // fetched now, and to a due revisit otherwise.
    const bool links_pending = frontier_->empty() && page_transfers_ > 0;
    const bool may_revisit = schedule_ && !links_pending;
    const bool new_turn = may_revisit && !frontier_->empty() && new_url_owed_ + kNewUrlSlotShare >= 1;
    if (may_revisit && !new_turn && dispatch_revisit(now, wall_seconds())) {
      if (!frontier_->empty()) new_url_owed_ += kNewUrlSlotShare;
      continue;
    }
    if (!rate_allows(now)) break;  // a shared crawl's revisit found no slot free
    if (replicas_) dispatch_probes(now);
    if (!shared_ && o_.max_pages > 0 && pages_before_ + pages_ + page_transfers_ >= o_.max_pages) break;
    if (shared_) {
      pump_shared();
      // A host claimed for the first time asks for its robots.txt, which
      // another worker has usually fetched: read now, its URL goes now.
      for (std::uint32_t host : frontier_->take_robots_requests()) fetch_robots(host, now);
    }
    auto e = frontier_->pop(now);
    if (!e) {
      // No new URL may go now: the slot is a revisit's after all, and when
      // nothing is due, a revisit brought forward (work-conserving).
      if (new_turn && dispatch_revisit(now, wall_seconds())) continue;
      if (may_revisit && !shared_ && dispatch_spare_revisit(now, wall_seconds())) continue;
      break;
    }
    if (replicas_ && divert_replica(*e, now, &held)) continue;
    auto u = CanonicalUrl::parse(e->url);
    if (!u.ok() || !hosts_[e->host].rules.allowed(u->path_and_query())) {
      StoreJob job;
      frontier_->finish(*e, UrlState::Dropped, &job.ops);
      submit(std::move(job));
      const auto& robots = hosts_[e->host].robots_entry;
      ++skipped_[robots && robots->source == RobotsSource::kUnreachable ? "host-unreachable" : "robots"];
      frontier_->host_changed(e->host, now);
      continue;
    }
    if (e->redirects == 0 && aliases_.drop(*u)) {
      // A click-through hop of a template that leads only to known pages.
      StoreJob job;
      frontier_->finish(*e, UrlState::Dropped, &job.ops);
      submit(std::move(job));
      ++skipped_["redirect-alias"];
      frontier_->host_changed(e->host, now);
      continue;
    }
    if (!shared_slot()) {
      // No slot of the crawl's rate free: the URL waits for one.
      const std::uint32_t host = e->host;
      frontier_->retry(std::move(*e));
      frontier_->host_changed(host, now);
      break;
    }
    hosts_.on_dispatch(e->host, now);
    const std::uint32_t host = e->host;
    const std::uint64_t token = next_token_++;
    FetchRequest req{token, e->url, false, {}};
    in_flight_[token] = InFlight{false, host, std::move(*e), -1, {}};
    ++page_transfers_;
    take_slot(now);
    if (schedule_) {
      new_fetch_times_.push_back(wall_seconds());
      new_url_owed_ = std::max(0.0, new_url_owed_ + kNewUrlSlotShare - 1);
    }
    fetcher_->start(std::move(req));
    frontier_->host_changed(host, now);
  }
  held_ = !held.empty();
  for (FrontierEntry& e : held) {
    const std::uint32_t host = e.host;
    frontier_->retry(std::move(e));
    frontier_->host_changed(host, now);
  }
}

void Crawl::progress(bool final_line) {
  const auto now = Clock::now();
  if (!o_.progress) return;
  if (!final_line && now - last_progress_ < o_.progress_interval) return;
  last_progress_ = now;
  const double secs = std::chrono::duration<double>(now - started_).count();
  std::string errs;
  for (const auto& [kind, n] : errors_) errs += " " + kind + "=" + std::to_string(n);
  std::string skips;
  for (const auto& [kind, n] : skipped_) skips += " " + kind + "=" + std::to_string(n);
  const std::int64_t total = pages_before_ + pages_;
  std::string budget;  // "12% of 5000, ETA 3m10s"
  if (o_.max_pages > 0) {
    char b[96];
    const double rate = secs > 0 ? pages_ / secs : 0.0;
    const double left = rate > 0 ? std::max<double>(0, o_.max_pages - total) / rate : -1;
    std::snprintf(b, sizeof b, " (%.0f%% of %lld, ETA %s)", 100.0 * total / o_.max_pages,
                  static_cast<long long>(o_.max_pages), left < 0 ? "unknown" : clock_time(left).c_str());
    budget = b;
  }
  std::string revisits;  // ", revisits 120 (31 changed, 40 not modified)"
  if (schedule_) {
    char b[128];
    std::snprintf(b, sizeof b, ", revisits %lld (%lld changed, %lld not modified), %zu scheduled",
                  static_cast<long long>(revisits_), static_cast<long long>(changed_),
                  static_cast<long long>(not_modified_), schedule_->size());
    revisits = b;
  }
  std::fprintf(stderr,
               "crawl: %s elapsed, %lld pages%s%s, %.1f pages/s, relevant %.1f%%, queue %zu, in flight %zu, "
               "errors:%s%s%s\n",
               clock_time(secs).c_str(), static_cast<long long>(total), budget.c_str(), revisits.c_str(),
               secs > 0 ? pages_ / secs : 0.0,
               pages_ ? 100.0 * relevant_ / pages_ : 0.0, frontier_->queued(), in_flight_.size(),
               errs.empty() ? " none" : errs.c_str(), skips.empty() ? "" : ", skipped:", skips.c_str());
}

Result<CrawlSummary> Crawl::run(const std::atomic<bool>* stop) {
  if (Status s = setup(); !s.ok()) {
    if (store_) store_->finish("error");
    return s;
  }
  if (o_.on_started) o_.on_started();
  started_ = last_progress_ = Clock::now();
  started_wall_ = wall_seconds();
  maybe_resolve(started_wall_, true);
  std::string end_reason;
  for (;;) {
    if (stop && stop->load()) {
      end_reason = "interrupted";
      break;
    }
    if (o_.run_for_s > 0 && std::chrono::duration<double>(Clock::now() - started_).count() >= o_.run_for_s) {
      end_reason = "run-for";
      break;
    }
    if (Status s = store_->error(); !s.ok()) {
      end_reason = "error";
      break;
    }
    if (shared_) {
      if (auto why = shared_->ended(in_flight_.empty() && pool_->pending() == 0)) {
        end_reason = *why;
        break;
      }
    }
    frontier_->committed(store_->committed());
    if (shared_) {
      shared_->committed(store_->committed());
      shared_->beat();
    }
    for (AnalysisResult& r : pool_->take()) on_analysed(std::move(r));
    maybe_resolve(wall_seconds(), false);
    dispatch();
    if (shared_) pump_shared();  // what this turn buffered, when dispatch() did not send it
    // Nothing to fetch or analyse, with claims whose pages are not committed
    // yet: the shared frontier learns they are done only once they are
    // (and the crawl ends only then), so they are committed now rather
    // than when the writer's batch fills or times out.
    if (shared_ && in_flight_.empty() && pool_->pending() == 0 && frontier_->empty() && shared_->held() > 0)
      store_->commit_soon();
    if (in_flight_.empty() && pool_->pending() == 0) {
      if (o_.max_fetches > 0 && fetches_ >= o_.max_fetches) {
        end_reason = "max-fetches";
        break;
      }
      // A revisit crawl goes on while any page is scheduled.
      if (!schedule_ && !shared_ && o_.max_pages > 0 && pages_before_ + pages_ >= o_.max_pages) {
        end_reason = "max-pages";
        break;
      }
      if (!shared_ && frontier_->empty() && (!schedule_ || schedule_->size() == 0)) {
        // Replicas found in the last pages are still verified and decided.
        bool probing = false;
        if (replicas_) {
          StoreJob job;
          probing = replicas_->last_round(pages_before_ + pages_, &job.replica_decisions);
          if (!job.replica_decisions.empty()) submit(std::move(job));
        }
        // A decision undone in the last round brings URLs back.
        if (!probing && frontier_->empty()) {
          end_reason = "frontier-empty";
          break;
        }
      }
    }
    auto wait = std::chrono::milliseconds(100);
    auto next = frontier_->next_ready();
    if (schedule_ && !shared_) {
      const double due = schedule_->next_due_time();
      if (std::isfinite(due)) {
        const double in_s = std::clamp(due - wall_seconds(), 0.0, 1.0);
        next = std::min(next, Clock::now() + std::chrono::microseconds(static_cast<std::int64_t>(in_s * 1e6)));
      }
    }
    // A spare slot waits for the first host it found busy.
    if (schedule_ && !shared_ && spare_retry_ > Clock::now()) next = std::min(next, spare_retry_);
    // Nothing is fetched before the budget's next request slot: a page due
    // or a host ready before it waits for it (waking for them at once made
    // the loop spin, a millisecond at a time, until the slot), and the slot
    // itself wakes the loop (a spare slot may take a revisit then).
    if (!rate_allows(Clock::now())) next = next_rate_slot();
    if (shared_ && shared_->next_try() > Clock::now()) next = std::min(next, shared_->next_try());
    // A round trip to the shared frontier under way: its reply is looked for soon.
    if (shared_ && shared_->awaiting()) next = std::min(next, Clock::now() + std::chrono::milliseconds(1));
    if (next != Clock::time_point::max()) {
      auto until = std::chrono::duration_cast<std::chrono::milliseconds>(next - Clock::now()) + std::chrono::milliseconds(1);
      wait = std::clamp(until, std::chrono::milliseconds(0), wait);
    }
    // A host under replica verification stays ready in the frontier: its
    // entries are looked at again after a short pause, not at every turn.
    if (held_) wait = std::max(wait, kHeldPause);
    if (pool_->has_results() || frontier_->robots_requested()) wait = std::chrono::milliseconds(0);
    fetcher_->run_once(wait, [this](FetchResponse&& r) { on_response(std::move(r)); });
    progress(false);
  }
  // Transfers in flight are abandoned: still queued in the database, they
  // are fetched again on --resume. Analyses under way are finished and kept.
  fetcher_->abort_all();
  in_flight_.clear();
  while (pool_->pending() > 0 && store_->error().ok()) {
    for (AnalysisResult& r : pool_->take()) on_analysed(std::move(r));
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }

  pool_.reset();
  progress(true);
  Status s = store_->finish(end_reason);
  if (shared_) {
    // Written: what this run finished is complete; the rest goes back.
    if (s.ok()) shared_->committed(jobs_submitted_);
    shared_->stop();
  }
  if (!s.ok()) return s;

  CrawlSummary sum;
  sum.pages = pages_;
  sum.total_pages = pages_before_ + pages_;
  sum.relevant = relevant_;
  sum.total_relevant = relevant_before_ + relevant_;
  sum.segments = segments_;
  sum.segments_in_scope = segments_in_scope_;
  sum.seconds = std::chrono::duration<double>(Clock::now() - started_).count();
  sum.queued = static_cast<std::int64_t>(frontier_->queued());
  sum.errors = errors_;
  sum.skipped = skipped_;
  sum.end_reason = end_reason;
  sum.fetches = answered_;
  sum.revisits = revisits_;
  sum.spare_revisits = spare_revisits_;
  sum.lost_documents = lost_documents_;
  if (topic_signal()) {
    sum.titles_learnt = titles_learnt_;
    sum.title_words = static_cast<std::int64_t>(title_words_.size());
  }
  sum.changed = changed_;
  sum.not_modified = not_modified_;
  if (schedule_) {
    sum.scheduled = static_cast<std::int64_t>(schedule_->size());
    for (PageId id = 0; id < schedule_->size(); ++id) sum.scheduled_rate += schedule_->frequency(id);
    sum.revisit_budget = resolved_budget_;
    sum.prior_trained_on = static_cast<std::int64_t>(rate_prior_.trained_on());
    double n = 0, mean = 0, m2 = 0;
    // The pages whose prior in the schedule is the model's prediction.
    for (PageId id = 0; id < schedule_->size(); ++id) {
      const auto predicted = o_.learned_rate_prior ? rate_prior_.predict(id) : std::nullopt;
      if (!predicted || std::abs(schedule_->prior_rate(id) - *predicted) > 1e-9 * *predicted) continue;
      ++sum.prior_predicted;
      const double x = std::log(schedule_->prior_rate(id));
      n += 1;
      const double d = x - mean;
      mean += d / n;
      m2 += d * (x - mean);
    }
    sum.prior_log_rate_sd = n > 1 ? std::sqrt(m2 / n) : 0;
  }
  return sum;
}

}  // namespace

Result<CrawlSummary> run_crawl(const CrawlOptions& options, const std::atomic<bool>* stop) {
  // Pages are parsed on several threads, each allocating and freeing a few
  // hundred KB per page. glibc's defaults hand that memory back to the
  // kernel after every page (per-thread heap trimming, mmap for large
  // blocks), and the page faults that follow cost more than the parsing:
  // measured, the crawl ran about 1.8 times faster with these two settings.
  mallopt(M_MMAP_THRESHOLD, 64 * 1024 * 1024);
  mallopt(M_TRIM_THRESHOLD, 256 * 1024 * 1024);
  Crawl crawl(options);
  return crawl.run(stop);
}

}  // namespace cronista::crawler
