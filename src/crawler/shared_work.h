// A frontier shared by several crawl processes (one crawl, many workers).
// The crawler declares what it needs here and never learns what serves it
// (the command picks an implementation: shared_frontier/ on Redis). Each
// worker keeps its own database and WARC; URLs reach its local frontier
// only by being claimed, and every new URL it finds is offered to the
// shared frontier instead of being queued locally.
#pragma once

#include <chrono>
#include <cstdint>
#include <deque>
#include <functional>
#include <future>
#include <memory>
#include <optional>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <utility>
#include <vector>

#include "revisit/change_rate.h"
#include "revisit/content_signature.h"
#include "temporal/status.h"

namespace cronista::crawler {

struct SharedUrl {
  std::string url;   // canonical
  std::string host;  // its authority (the politeness key)
  std::uint32_t backlinks = 0;  // pages linking to it that this offer adds (0 or 1: a page counts once)
  std::uint8_t penalty = 0;     // of the link's context (frontier.h: priority_for)
  std::uint64_t from = 0;       // the offering page, as the crawl tags it (0: none), told back when new
  // Its place among the new URLs of its priority: 0 behind all those offered
  // so far, else a claim's `order` (a redirect target takes its source's).
  std::uint32_t order = 0;
};

// What a revisit needs of a page's newest visit, travelling through the
// shared frontier to whichever worker revisits it: the validators for a
// conditional request, the digest and date a WARC revisit record refers
// to, the main text's signature to judge a change.
struct SharedCopy {
  std::string etag, last_modified, content_hash, captured_at;
  std::optional<revisit::ContentSignature> signature;
  std::uint16_t depth = 0;
  double due = 0;         // when it is next due (seconds since the epoch)
  double last_visit = 0;  // its last visit, of any outcome (the same clock)
  std::int8_t relevant = -1;  // the page's relevance (-1: unknown, a hub only)
  // Its visits over the whole crawl and its yield, whichever worker made
  // them, so that its change rate is estimated from all of them.
  std::optional<revisit::VisitHistory> history;
  // No spare slot takes it ahead of its time before then (the same clock;
  // RevisitSchedule::spare_from: half its interval after its last visit,
  // infinity for a hub only, which waits for its time).
  double spare_from = 0;
};

struct SharedClaim {
  std::string url, host;
  std::int64_t priority = 0;  // as the implementation ranks it; handed back unchanged
  std::optional<SharedCopy> revisit;  // a revisit of a page downloaded before
  std::uint32_t order = 0;  // its place among the URLs of its priority (SharedUrl::order); 0: none
};

// A claimed URL done with (stored): `downloaded` false when it gave no page
// (its page of the budget returns); with `next`, due for a revisit then.
struct SharedCompletion {
  SharedClaim claim;
  bool downloaded = false;
  std::optional<SharedCopy> next;
};

// A host's robots.txt as one worker fetched it (an HTTP response; network
// failures are not shared), for the others to obey without a request.
struct SharedRobots {
  int status = 0;
  std::string body;
  std::optional<std::chrono::milliseconds> ttl;  // read back: the time left of its keeping
};

// The free-slot rule of a lone temporal crawl (crawl.h) for the shared
// frontier's claims: a ready host's best new URL waits while a URL better by
// more than `slack` waits on a host busy or ready within `lookahead`,
// unless it is worth a page of the budget, judged from the budget left,
// the URLs queued and what all workers learnt of their links: `learnt`
// gives this worker's share, its pages fetched and relevant through links
// of each band of `band` priorities (LinkYield), from priority 0. A slack
// of -1 serves every ready host.
struct SharedSlotRule {
  int slack = -1;
  std::chrono::milliseconds lookahead{0};
  int band = 10;
  std::vector<std::pair<std::int64_t, std::int64_t>> learnt;
  // With nothing else to claim, the scheduled revisit due earliest on a
  // free host, ahead of its time (a worker with a slot and nothing to send).
  bool spare = false;
};

// A downloaded page's title and whether it was relevant, as the crawl's
// record of title words learns them (title_words.h), told to every worker.
struct SharedTitle {
  std::string title;
  bool relevant = false;
};

// A claimed URL whose host this worker is done with: its transfer ended
// (`contacted`: a request went to the host, so the politeness gap runs from
// now), or it went without one (robots.txt forbade it, say: the host is
// free at once, its gap having passed before the claim).
struct SharedRelease {
  SharedClaim claim;
  std::string address;  // the server's address the transfer reached ("" if none)
  bool contacted = true;
};

// What one round trip to the shared frontier carries, done in this order.
struct SharedExchange {
  std::vector<SharedUrl> offers;  // to queue (a queued one moves up: its backlinks are counted over all workers)
  // Claimed URLs whose transfer has ended, or that went without one: each
  // host is free to the others after the politeness gap (at once when no
  // request went to it); the URL stays claimed until completed. With the
  // server's address the transfer reached ("" if none), so that hosts on
  // one address are paced together.
  std::vector<SharedRelease> releases;
  // Claimed URLs done with (stored), scheduled for a revisit when they say.
  std::vector<SharedCompletion> completions;
  // Then up to this many claims: the best URLs of hosts no other worker
  // holds and politeness allows now, each host up to its connections
  // (--host-connections) of URLs claimed and not released; `held`: the
  // hosts this worker holds (with URLs claimed, not released), as its share
  // of the hosts counts them.
  std::size_t claims = 0, held = 0;
  SharedSlotRule slot_rule;  // which new URLs the claims may take
  // Last, page titles for the crawl's log of them, appended in this order;
  // then, with read_titles, the log's entries from index titles_from (some
  // or all of those not read yet, this worker's own among them).
  std::vector<SharedTitle> titles;
  bool read_titles = false;
  std::uint64_t titles_from = 0;
};

struct SharedPull {
  enum class Why { kClaimed, kBudgetSpent, kEmpty, kWait } why = Why::kEmpty;
  std::vector<SharedClaim> claims;   // with kClaimed
  // With kWait: until the earliest host may be ready. With kClaimed: until
  // the next host not ready at the claim will be (0: none such).
  std::chrono::milliseconds wait{};
};

// A due time a worker set and moves (seconds since the epoch).
struct SharedMove {
  std::string url;
  double from = 0, to = 0;
};

// What a worker's revisit schedule needs of the whole crawl.
struct SharedView {
  std::size_t workers = 1;        // alive (this one included)
  std::int64_t new_claims = 0;    // new URLs claimed since the crawl began, by any worker
  std::int64_t queued_hosts = 0;  // hosts with new URLs queued
  std::int64_t scheduled = 0;     // pages downloaded and scheduled for revisits
  double at = 0;                  // the shared frontier's clock (seconds)
  double first_claim = 0;         // when the crawl claimed its first new URL (the same clock; 0: not yet)
  std::vector<std::string> queued_host_sample;  // some of the hosts with new URLs queued, drawn at random
};

struct SharedReply {
  Status offered;                          // the offers were all queued
  std::vector<std::size_t> fresh;          // the offers never seen before in the crawl (indices)
  std::vector<Status> released, completed;  // one per release and completion
  Result<SharedPull> pull = SharedPull{};  // with claims > 0
  // The titles were logged; with read_titles, the log's entries read from
  // titles_from, in the log's order; and the log's length once this
  // exchange's titles were appended (they are its last ones).
  Result<std::vector<SharedTitle>> titles = std::vector<SharedTitle>{};
  std::uint64_t titles_end = 0;
};

class SharedWork {
 public:
  virtual ~SharedWork() = default;
  // Joins the crawl: sets the page budget when none is set yet (0: none)
  // and settles what this worker held when it last stopped: a URL its
  // shard finished (finished_here says whether it was downloaded) is
  // completed, any other returns to the queues.
  virtual Status join(std::int64_t max_pages,
                      const std::function<std::optional<bool>(const std::string& url)>& finished_here) = 0;
  // Sends what the worker has to say and claims, in one round trip when
  // the implementation can.
  virtual SharedReply exchange(const SharedExchange& x) = 0;
  // The claimed URL goes back to the queues unfetched.
  virtual Status give_back(const SharedClaim& claim) = 0;
  // The URLs the shared frontier has in flight under this worker's name.
  virtual Result<std::vector<SharedClaim>> own_claims() = 0;
  // A clean stop with nothing in flight: this worker no longer counts
  // among the crawl's workers.
  virtual Status leave() = 0;
  // The robots.txt of a host as a worker of the crawl fetched it, if it
  // has not expired.
  virtual Result<std::optional<SharedRobots>> robots(const std::string& host) = 0;
  // Shares a host's robots.txt with the other workers for `ttl`.
  virtual Status share_robots(const std::string& host, const SharedRobots& robots, std::chrono::milliseconds ttl) = 0;
  // Keeps the hosts of `held` leased and returns the URLs of dead workers.
  virtual Status heartbeat(const std::vector<SharedClaim>& held) = 0;
  // How often heartbeat() must run for leases to hold.
  virtual std::chrono::milliseconds heartbeat_every() const = 0;
  // The crawl's figures a revisit schedule needs; says this worker is alive.
  virtual Result<SharedView> view() = 0;
  // The crawl's --fetch-rate, paced for all its workers at once: takes a
  // slot for one request now (zero) or says how long until one may be
  // taken. Over any window of t seconds, all workers together take at most
  // rate·t + burst slots.
  virtual Result<std::chrono::microseconds> pace(double rate, double burst) = 0;
  // Moves the due times this worker set (seconds, as SharedCopy::due) of
  // URLs not revisited since by anyone: (url, from, to). Returns the
  // indices of those moved.
  virtual Result<std::vector<std::size_t>> move_due(const std::vector<SharedMove>& moves) = 0;
};

// The crawl loop's side of a shared frontier (crawl.cc): buffers what must
// reach it, retries while it is unreachable and says when the crawl ends.
// Single-threaded, owned by the crawl loop.
class SharedCrawl {
 public:
  SharedCrawl(std::shared_ptr<SharedWork> work, std::chrono::seconds patience)
      : work_(std::move(work)), patience_(patience) {}

  // A URL found on a page (count_backlink) or a seed or redirect target;
  // `from` tags the page that found it (0: none), told by take_announced()
  // when the URL is new to the crawl; `order` is its place when new
  // (SharedUrl::order: a redirect target's is its source's claim's).
  void offer(const std::string& url, const std::string& host, bool count_backlink, std::uint8_t penalty,
             std::uint64_t from = 0, std::uint32_t order = 0);
  // The tags of the offers found new to the whole crawl since the last
  // call, one per URL (a URL new to this worker only is not).
  std::vector<std::uint64_t> take_announced() { return std::exchange(announced_, {}); }
  // The crawl's figures (SharedView), the last ones read while the shared
  // frontier does not answer (nullopt before any).
  std::optional<SharedView> view();
  // A slot of the crawl's request rate for a request about to be sent
  // (SharedWork::pace()): true when taken; else none is taken and
  // pace_after() says when to ask again (while the shared frontier does not
  // answer, no request goes: the crawl's rate cannot be kept unheard).
  bool take_slot(double rate, double burst);
  std::chrono::steady_clock::time_point pace_after() const { return pace_after_; }
  // SharedWork::move_due(); nullopt while the shared frontier does not answer.
  std::optional<std::vector<std::size_t>> move_due(const std::vector<SharedMove>& moves);
  // A host's robots.txt fetched by a worker of the crawl, or nullopt (none
  // yet, expired, or the shared frontier unreachable: fetch it yourself).
  std::optional<SharedRobots> robots(const std::string& host);
  void share_robots(const std::string& host, const SharedRobots& robots, std::chrono::milliseconds ttl);
  // Beats the heart when it is time (every turn of the crawl loop).
  void beat();
  // Sends what is buffered (found URLs, releases, completions) and claims
  // up to `want` URLs in flight, in one round trip, handing each claim to
  // `accept` (false: the worker has it already; it is completed at once).
  // The crawl loop pumps at every turn, so what a turn buffers leaves
  // together; the trip waits (up to 10 ms after the last) until a quarter
  // of `want` is free, unless nothing is being fetched. The trip runs while
  // the loop goes on: its claims come at the pump that finds its reply in.
  void pump(std::size_t want, const std::function<bool(const SharedClaim&)>& accept);
  // The rule the claims follow, asked for as each round trip with claims starts.
  void set_slot_rule(std::function<SharedSlotRule()> rule) { slot_rule_ = std::move(rule); }
  // Page titles shared by all workers: a title this worker's record of
  // title words has learnt at once goes to the crawl's log of titles with
  // the next round trip (learn_title()), and every round trip reads the
  // log on from where the last read ended; take_titles() hands over what
  // was read, the other workers' titles in the log's one order (this
  // worker's own, learnt already, are left out where the reply placed
  // them; of a title logged twice after a lost reply, the copy whose
  // place that reply held is handed over). A
  // worker started again reads the log from its beginning, its own titles
  // of before among them, so nothing learnt before is lost with a restart.
  void share_titles() { share_titles_ = true; }
  void learn_title(std::string title, bool relevant) { titles_.push_back(SharedTitle{std::move(title), relevant}); }
  std::vector<SharedTitle> take_titles() { return std::exchange(titles_read_, {}); }
  // The transfer of a claimed URL has ended (not to be retried): its host
  // is released at the next pump, politeness counting from then, while its
  // page is analysed and stored.
  void transfer_ended(const std::string& url, const std::string& address = "");
  // A claimed URL left the local frontier for good, in store job `job`: it
  // is completed once that job is committed, so that a worker killed before
  // the commit leaves it claimed (it returns to the queues) and nothing is lost.
  void finished(const std::string& url, bool downloaded, std::uint64_t job);
  // A URL claimed and downloaded (or revisited) falls due for its next
  // revisit, by any worker, once it is completed. Told before the store
  // job in which it is finished is submitted.
  void schedule(const std::string& url, SharedCopy next) { next_[url] = std::move(next); }
  // The next visit of `url` told by schedule() and not yet sent (nullptr:
  // none), for a yield or a due time learnt meanwhile.
  SharedCopy* pending(const std::string& url);
  // The store committed every job up to `job`.
  void committed(std::uint64_t job);
  // Why the crawl ends now ("max-pages", "frontier-empty", "frontier-lost"),
  // or nullopt; `idle`: nothing is in flight or in analysis locally.
  std::optional<std::string> ended(bool idle) const;
  // The end of the run: claims not finished go back, the buffers are sent.
  // The number of URLs that could not be handed back or offered.
  std::size_t stop();

  // Claims not yet completed (the local frontier's share of the crawl),
  // and those of them still being fetched or analysed.
  std::size_t held() const { return held_.size() + uncommitted_.size(); }
  std::size_t fetching() const { return held_.size() - released_.size(); }
  // When pump() asks the shared frontier again (after a wait or a failure).
  std::chrono::steady_clock::time_point next_try() const { return next_try_; }
  // A round trip is under way: the next pump() takes its reply once it is in.
  bool awaiting() const { return trip_.has_value(); }
  // Waits until the round trip under way (if any) has its reply.
  void quiet();

 private:
  // A round trip and its reply, at once.
  bool send(std::size_t claims, const std::function<bool(const SharedClaim&)>& accept);
  // A round trip with what is buffered and `claims`, left under way (none
  // when there is nothing to say); take() reads its reply, hands the
  // claims to `accept` and keeps what failed buffered (false then).
  bool start(std::size_t claims);
  bool take(const std::function<bool(const SharedClaim&)>& accept);
  // The distinct hosts of the claims still being fetched.
  std::size_t hosts_fetching() const;
  // After an exchange whose claims may have been made without the reply
  // arriving (the connection lost on the way back): claims the frontier has
  // under this worker's name and the worker does not know go back.
  bool reconcile();
  void failed(const Status& s);
  void succeeded() { failing_since_.reset(); }
  std::optional<SharedCopy> take_next(const std::string& url);

  std::shared_ptr<SharedWork> work_;
  std::chrono::seconds patience_;
  std::vector<SharedUrl> offers_;
  std::function<SharedSlotRule()> slot_rule_;
  bool share_titles_ = false;
  std::vector<SharedTitle> titles_, titles_read_;  // to log; read, not taken yet
  std::uint64_t titles_from_ = 0;                   // the log's entries read so far
  // Where this worker's own titles were put in the log ([from, to), in
  // order), until read past: not handed over by take_titles().
  std::deque<std::pair<std::uint64_t, std::uint64_t>> own_titles_;
  std::vector<std::uint64_t> announced_;
  std::unordered_map<std::string, SharedClaim> held_;         // claimed, not finished
  std::unordered_set<std::string> released_;                  // of held_, their host released
  struct Finished {
    SharedClaim claim;
    bool downloaded = false;
    std::uint64_t job = 0;
    std::optional<SharedCopy> next;
  };
  std::unordered_map<std::string, SharedCopy> next_;        // by URL: revisits to schedule at completion
  std::vector<Finished> uncommitted_;                       // finished, its job not committed yet
  std::vector<Finished> completions_;                       // committed, not yet told
  std::vector<SharedRelease> releases_;                          // finished, host not yet released
  std::optional<SharedPull::Why> last_;
  bool unsure_claims_ = false;  // an exchange with claims failed: reconcile() before the next
  std::optional<std::chrono::steady_clock::time_point> failing_since_;
  std::chrono::steady_clock::time_point next_try_{}, next_beat_{}, last_sent_{};
  std::chrono::steady_clock::time_point pace_after_{};  // no slot of the crawl's rate before then
  std::string last_error_;
  std::optional<SharedView> view_;
  // The round trip under way: its reply, and how many of each buffer (from
  // the front) and how many claims it carries.
  struct Trip {
    std::future<SharedReply> reply;
    std::size_t offers = 0, releases = 0, completions = 0, claims = 0, titles = 0;
  };
  std::optional<Trip> trip_;
};

}  // namespace cronista::crawler
