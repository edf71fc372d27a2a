// One crawl's frontier shared by any number of worker processes through
// Redis: the seen-set, per-host queues by priority, politeness per host and
// per address with leases, revisit due times, the page budget and one clock.
//
// Keys live under "cronista:{CRAWL_ID}:", so crawls with other ids share a
// server without meeting:
//   seen            SET    every URL ever queued
//   q:HOST          ZSET   a host's queue; score = priority·2^32 + discovery order
//   hosts           ZSET   host → the time (ms, Redis clock) it may next be fetched
//   links           HASH   queued URL → pages linking to it, summed over workers (absent: 1)
//   robots:HOST     STRING "STATUS\n" + the host's robots.txt, expiring with its rules
//   host_addr       HASH   host → its address (hosts sharing one are paced together)
//   addr:ADDRESS    STRING the time the address may next be fetched
//   lease:HOST      STRING the worker that holds the host, with an expiry
//   conns:HOST      STRING the holder's URLs of the host claimed and not released
//                          (at most its host_connections), expiring with the lease
//   holds:WORKER    SET    the hosts the worker leases (an entry whose lease ended
//                          is dropped at its next claim)
//   inflight:WORKER HASH   URL → "HOST\tSCORE" for what the worker fetches now
//   workers         ZSET   worker → its last heartbeat
//   due             ZSET   URL → the time its revisit falls due; due_host HASH URL → HOST
//   r:HOST          ZSET   a host's revisits that fell due, by due time
//   spare_from      HASH   scheduled URL → the time (ms) before which no spare slot
//                          takes it ahead of its time (absent: any time)
//   copy            HASH   URL → what a revisit needs of its last visit (validators,
//                          signature), opaque here; a URL with a copy is a revisit
//   owed            STRING claims owed to new URLs under the one-budget rule
//   qhosts          SET    the hosts with new URLs queued
//   qbest           ZSET   host → its queue's best score (hosts with new URLs queued)
//   qprio           HASH   priority → new URLs queued with it
//   yield:WORKER    HASH   band of priorities → "fetched:relevant", the worker's pages by the link they came through
//   yielders        SET    the workers with a yield:WORKER
//   titles          LIST   "1" or "0" (relevant or not) + the title of each page
//                          whose relevance a worker judged, in the order told
//   new_claims      STRING new URLs claimed so far (revisits not counted)
//   first_claim     STRING when the first was (ms, Redis clock)
//   budget          STRING pages left to claim (absent: no budget)
//   pace            STRING the crawl's next request slot (µs, Redis clock), for --fetch-rate
//   settings        HASH   name → value of the settings every worker is given alike (agree())
//   seq, done       STRING counters
// Scripts run atomically on the server (Lua) and build their keys from the
// prefix, so Redis Cluster is not supported (one server, optionally with
// replicas or an append-only file). What each guarantees is said at
// each method. Times come from the server's clock (TIME), so the order of
// downloads across workers and machines is one order.
//
// Not thread-safe: one SharedFrontier (one connection) per worker thread.
#pragma once

#include <cstdint>
#include <limits>
#include <memory>
#include <optional>
#include <variant>
#include <string>
#include <utility>
#include <vector>

#include "shared_frontier/redis_connection.h"
#include "temporal/status.h"

namespace cronista::shared_frontier {

struct SharedFrontierOptions {
  std::string crawl_id = "default";
  std::string worker_id;        // unique per worker; a restarted worker reuses its own
  int lease_ms = 30000;         // a host stays with its worker this long without renewal
  int host_gap_ms = 1000;       // politeness: from the end of one response to the next request
  int address_gap_ms = 0;       // the same for every host on one address (0: none)
  int host_connections = 1;     // URLs of one host this worker may have claimed and not released
  int dead_after_ms = 60000;    // a worker silent this long is dead: its in-flight URLs return
  int scan = 32;                // ready hosts compared to find the best URL
  int timeout_ms = 2000;        // per Redis command
  // Revisits and new URLs share one budget: while a new URL is ready, each
  // revisit claimed owes new URLs this share of a claim (the lone crawl's
  // rule, revisit::RevisitOptions::min_new_share).
  double new_share = 0.2;
};

struct QueuedUrl {
  std::string url;      // canonical
  std::string host;     // the politeness key (authority)
  std::string address;  // "" when unknown
  std::int64_t priority = 0;  // smaller first
  std::uint32_t backlinks = 0;  // pages linking to it that this offer adds to the crawl's count
  // Its place among the URLs of its priority when new: 0 behind every URL
  // queued so far; else that place (a redirect target takes its source's,
  // so that a chain is followed before the links found after it).
  std::uint32_t order = 0;
  // The penalty of the offering link's context, when `priority` is a
  // crawler's link priority (crawler::priority_for: 100 / (links + 1),
  // rounded down, plus the lowest penalty of the URL's links): then a URL
  // seen before and still queued takes the priority of its links counted
  // over all workers and of the lowest penalty of them all, in the same
  // call (its queued priority tells its lowest penalty so far). -1: the
  // priority is the caller's own, and a better one moves the URL up.
  int penalty = -1;
};

struct Claim {
  std::string url, host;
  std::int64_t priority = 0;
  std::uint32_t order = 0;  // its place among the URLs of its priority (QueuedUrl::order)
  std::int64_t claimed_at_ms = 0;  // the server's clock
  // The server's: when the next host not ready at the claim will be (0: no
  // such host), so that a worker that took every ready host asks again then.
  std::int64_t next_ready_ms = 0;
  // A revisit: the copy its last visit left (NextVisit::copy); nullopt
  // for a URL never downloaded.
  std::optional<std::string> copy;
};

// When a downloaded URL is next due for a revisit (ms, the servers' Unix
// clock), and what the revisiting worker needs of this visit (validators,
// signature: opaque here), handed to whichever worker claims it then.
struct NextVisit {
  std::int64_t due_ms = 0;
  std::string copy;
  // No spare slot (SlotRule::spare) claims it ahead of its time before
  // this time (ms, the same clock; 0: at any time, kNever: never).
  std::int64_t spare_from_ms = 0;
  static constexpr std::int64_t kNever = std::numeric_limits<std::int64_t>::max();
};

// A claimed URL done with: `refund` when it downloaded no page (its page
// returns to the budget; a revisit costs none); with `next`, scheduled
// for a revisit.
// A claimed URL's host released (release()): with the server address the
// transfer reached ("" if unknown), and whether a request went to the host
// (`contacted`; false: the URL went without one, robots.txt forbade it, say).
struct HostRelease {
  Claim claim;
  std::string address;
  bool contacted = true;
};

struct Settle {
  Claim claim;
  bool refund = false;
  std::optional<NextVisit> next;
};

// The free-slot rule of a lone temporal crawl (crawler/crawl.h), for
// claims: a ready host's best new URL waits while a URL better by more than
// `slack` is queued on a host leased or ready within `lookahead_ms`, unless
// it is worth a page of the budget (no budget; among the best queued URLs
// the pages left reach; or its band's relevant share, over all workers'
// pages, at least that of the last of those). `learnt`: this worker's
// pages fetched and relevant per band of `band` priorities, from priority
// 0, shared with the others by the claim. A slack of -1 serves every ready host.
struct SlotRule {
  int slack = -1;
  int lookahead_ms = 0;
  int band = 10;
  std::vector<std::pair<std::int64_t, std::int64_t>> learnt;
  // With nothing else to claim: the scheduled revisit due earliest (of the
  // first 64; of those whose NextVisit::spare_from_ms has passed) on a host no one holds whose gaps have passed, ahead of its
  // time, as a lone crawl fills a budget slot that nothing due takes; only
  // for a worker holding fewer hosts than its share of them (or none).
  bool spare = false;
};

// What claim() says when it hands out nothing.
struct NoClaim {
  enum class Why { kBudgetSpent, kEmpty, kWait } why = Why::kEmpty;
  std::int64_t next_ready_ms = 0;  // with kWait: when the earliest host becomes ready
  std::int64_t now_ms = 0;         // with kWait: the server's clock when it said so
};

// A revisit's due time moved by the worker whose visit set it (move_due()).
struct DueMove {
  std::string url;
  std::int64_t from_ms = 0, to_ms = 0;
};

// What a worker's revisit schedule needs of the whole crawl (view()).
struct CrawlView {
  std::int64_t workers = 0;        // alive: seen within a lease
  std::int64_t new_claims = 0;     // new URLs claimed since the crawl began
  std::int64_t queued_hosts = 0;   // hosts with new URLs queued
  std::int64_t scheduled = 0;      // pages downloaded and scheduled for revisits
  std::int64_t now_ms = 0;         // the server's clock
  std::int64_t first_claim_ms = 0;  // the crawl's first new URL claimed (0: none yet)
  std::vector<std::string> queued_host_sample;  // up to 64 of the hosts with new URLs queued, at random
};

struct FrontierCounts {
  std::int64_t seen = 0, queued = 0, inflight = 0, done = 0, due = 0;
  std::optional<std::int64_t> budget_left;
  std::int64_t redis_memory_bytes = 0;
};

class SharedFrontier {
 public:
  // Connects and checks the server answers; a clear error when it does not.
  static Result<std::unique_ptr<SharedFrontier>> connect(const std::string& uri, const SharedFrontierOptions& options);

  // Sets the page budget once for the crawl (the first worker's value wins).
  Status set_budget(std::int64_t pages);

  // Settings that every worker of the crawl must be given alike (name,
  // value as text): a setting the crawl has no value for yet takes the one
  // given, and each that the crawl has with another value is returned with
  // it. Atomic, so of workers joining at once the first one's values win.
  struct Clash {
    std::string name, given, crawl;
  };
  Result<std::vector<Clash>> agree(const std::vector<std::pair<std::string, std::string>>& settings);

  // Queues the URLs never seen before; a URL seen and still queued moves up
  // when the new priority is better (with a `penalty`: the priority of its
  // links and penalties so far, QueuedUrl). Each URL's `backlinks` are added to
  // the crawl's count of its links while it is queued.
  // Atomic per call of 256 URLs: a URL enters the queues at
  // most once in the crawl's life. Returns how many were new; with
  // `fresh`, their indices in `urls`.
  Result<std::size_t> add(const std::vector<QueuedUrl>& urls,
                          std::vector<std::size_t>* fresh = nullptr);

  // The best URL of the best ready host not leased by anyone, whose address
  // is ready too; leases the host to this worker. Atomic: no two workers
  // ever hold one host, nothing is claimed past the budget, and no URL is
  // claimed twice at once. Due revisits come first, but new URLs keep
  // their share of the claims (options().new_share) while one is ready;
  // a revisit costs no page of the budget and is claimed when it is spent.
  // Either a Claim or why there is none.
  Result<std::variant<Claim, NoClaim>> claim();
  // Up to `n` claims at once, best first: as `n` claim() calls in a row,
  // in one atomic script (none when it says why). A host is leased to one
  // worker at a time; its holder gets up to options().host_connections of
  // its URLs claimed and not released at once (the hosts it holds with
  // room first compete with the ready ones, URL by URL), and the lease
  // ends when the last of them is released. So at every moment, for every
  // host: one worker holds it, with at most host_connections of its URLs
  // between claim and release; between two holders, the host_gap_ms after
  // the last release passes. A worker holding `held` hosts (distinct hosts
  // with URLs claimed, not released) leases new hosts only up to its share
  // of the hosts with queues, their number over the workers that claimed
  // within a lease (a 'wait' when it holds its share and has no room).
  // New URLs follow `rule` (a 'wait' when it holds back every ready one).
  Result<std::variant<std::vector<Claim>, NoClaim>> claim_up_to(int n, int held = 0, const SlotRule& rule = {});

  // The transfer of a claimed URL has ended (whatever its outcome): when it
  // was the last of its host's URLs this worker had claimed and not
  // released, the lease is released and the host and its address are ready
  // again after their gaps from now. `refund`: the claim downloaded no page (robots.txt
  // forbade it, say), so the budget gets its page back. Returns the server
  // time of the completion.
  Result<std::int64_t> complete(const Claim& claim, bool refund = false);

  // complete() in two steps, for a worker that stores a page after its
  // transfer: release() frees the host (gaps from now, lease released:
  // when no other URL of the host this worker claimed is unreleased) as
  // soon as the transfer has ended, and records the server address the
  // transfer reached (when given) as the host's; settle() takes the URL out of
  // flight once its page is stored (until then a dead worker's URL
  // returns to the queue), and schedules its revisit with `next` in the
  // same step. Atomic each.
  // `contacted` false: no request went to the host for this URL; unless
  // another of the lease's URLs made one, the host is ready again at once
  // (its gap had passed when it was leased) and its address is free.
  Result<std::int64_t> release(const Claim& claim, const std::string& address = "", bool contacted = true);
  Status settle(const Settle& settle);
  Status settle(const Claim& claim, bool refund) { return settle(Settle{claim, refund, std::nullopt}); }

  // Gives a claimed URL back unfetched (shutdown): it returns to its queue
  // with its priority and the budget gets its page back; it counts as
  // released (a URL released before is counted twice: give back only
  // unreleased URLs while the host's other transfers go on).
  Status give_back(const Claim& claim);

  // A clean stop: this worker leaves the crawl's workers at once, when it
  // has nothing in flight (else it stays listed until reaped, so that its
  // URLs return). Returns whether it left. Atomic.
  Result<bool> leave();

  // Keeps the lease on a host during a long transfer. Atomic: a lease
  // another worker holds now is left alone.
  Status renew(const Claim& claim);

  // Heartbeat; and returns to the queues the in-flight URLs of workers
  // silent for dead_after_ms (their hosts' leases expire by themselves).
  // Returns how many URLs came back.
  Result<std::size_t> heartbeat_and_reap();

  // For a restarted worker with the same id: its own in-flight URLs go back
  // to the queues (it died with them).
  Result<std::size_t> recover_own();

  // This worker's in-flight URLs (a restarted worker sorts out which it
  // finished before it died: those are completed, the rest given back).
  // Their priority is the queue score they had.
  Result<std::vector<Claim>> own_claims();

  // A host's robots.txt as a worker fetched it ("STATUS\nBODY"), shared
  // until `ttl_ms` from now; read back with the ms left of that (nullopt
  // when none is stored or it expired).
  Status put_robots(const std::string& host, const std::string& value, std::int64_t ttl_ms);
  struct StoredRobots {
    std::string value;
    std::int64_t ttl_ms = 0;
  };
  Result<std::optional<StoredRobots>> robots(const std::string& host);

  // A revisit of a URL not in flight: it joins its host's revisits when
  // due, and its claim carries `next.copy`.
  Status schedule_revisit(const std::string& url, const std::string& host, const NextVisit& next);
  // Due times moved (a later solve of the schedule changed the pages'
  // frequencies): each only while the URL is still scheduled at `from_ms`
  // (not revisited since by anyone, not fallen due). Atomic per 256 URLs.
  // Returns the indices of those moved.
  Result<std::vector<std::size_t>> move_due(const std::vector<DueMove>& moves);

  // What one round trip to the server carries, run in this order: the
  // URLs to queue (add()), the releases (release(), with the address; all
  // in one script), the settles (settle(), with refund; all in one script),
  // then claim_up_to(claims) when claims > 0. Each script is atomic by
  // itself, as the methods it stands for; the server runs them in order, but another worker's scripts may
  // run between two. After a lost connection, those not answered fail
  // (and may have run: each is safe to send again, except that the links
  // of URLs queued again are counted again).
  struct Exchange {
    std::vector<QueuedUrl> add;
    std::vector<HostRelease> releases;
    std::vector<Settle> settles;
    int claims = 0;
    int held = 0;  // hosts this worker holds, for claim_up_to()
    SlotRule slot_rule;  // for claim_up_to()
    // Last, entries for the crawl's log of page titles ('titles'), appended
    // in their order; then, with titles_from >= 0, up to kTitlesPerRead
    // entries of the log from that index are read back (this worker's own
    // among them). Atomic by itself; sent again after a lost reply, its
    // entries are logged twice. The log's length once they are appended
    // comes back (titles_end): this exchange's entries end there.
    std::vector<std::string> titles;
    std::int64_t titles_from = -1;
  };
  static constexpr int kTitlesPerRead = 4096;
  struct ExchangeResult {
    Status added;                  // the first failure of the add scripts
    std::vector<std::size_t> fresh;  // the URLs of `add` never seen before (indices)
    std::vector<Status> released, settled;  // one per release and settle
    Result<std::variant<std::vector<Claim>, NoClaim>> claimed = std::variant<std::vector<Claim>, NoClaim>(NoClaim{});
    Result<std::vector<std::string>> titles = std::vector<std::string>{};  // the log's entries read
    std::int64_t titles_end = 0;  // the log's length after this exchange's entries (with titles)
  };
  ExchangeResult exchange(const Exchange& x);

  // The crawl's request rate (--fetch-rate, requests/s), paced for all its
  // workers at once on the server's clock: takes a slot for one request
  // and returns 0, or returns the µs until a slot may be taken. Atomic:
  // over any window of t seconds all workers together take at most
  // rate·t + burst slots (burst ≥ 1: what an idle spell saves up). The
  // server's clock, not the workers', so that workers on several machines
  // share one schedule of slots whatever their clocks say; every worker of
  // a crawl is to pace at the same rate.
  Result<std::int64_t> pace(double rate, double burst);

  Result<std::int64_t> now_ms();
  // The crawl's figures a revisit schedule needs (CrawlView), in one atomic
  // read; records this worker alive.
  Result<CrawlView> view();
  Result<FrontierCounts> counts();

  const SharedFrontierOptions& options() const { return options_; }

 private:
  SharedFrontier(std::unique_ptr<RedisConnection> redis, SharedFrontierOptions options);
  std::string prefix() const { return "cronista:" + options_.crawl_id + ":"; }
  static constexpr std::size_t kAddBatch = 256;  // URLs per add script
  std::vector<std::string> add_args(const std::vector<QueuedUrl>& urls, std::size_t from, std::size_t n) const;
  std::vector<std::string> claim_args(int n, int held, const SlotRule& rule) const;
  std::vector<std::string> release_args(const std::vector<HostRelease>& ended) const;
  std::vector<std::string> settle_args(const std::vector<Settle>& settles) const;

  std::unique_ptr<RedisConnection> redis_;
  SharedFrontierOptions options_;
};

}  // namespace cronista::shared_frontier
