// The frontier: which URL to download next (method.md §3).
//
// Priority = floor(100 / (backlinks + 1)) plus the link penalty (0 unless
// the crawl scores link contexts), 0 highest; ties go to the URL discovered
// first, so with no backlinks the crawl is breadth-first-like.
// Backlink counts keep growing for the whole crawl and a queued URL moves up
// as soon as its priority improves (the original fixed it at first sight).
//
// Memory is bounded. Every URL ever seen lives in a compact open-addressing
// table (SeenSet: 24 bytes per URL, keyed by a 64-bit hash of the canonical
// URL, no strings). Queued URLs live in the database (table frontier, written
// through the store's single writer); only a small window of the best entries
// of each host is kept in memory with their strings. Invariant: a host's
// window holds its best entries; every other queued entry is either
// "pending" (its insert is not committed yet: kept in memory, not served) or
// "spilled" (in the database only). Pending entries become spilled when the
// store reports the commit. When a window runs dry it takes the pending
// entries back and is refilled from the database in (priority, seq) order.
//
// Scheduling: hosts with work are either ready (politeness allows a request
// now), waiting (until a known time) or parked (robots.txt pending, or all
// their connections busy). pop() takes the best entry among ready hosts, so
// a host that must wait never stalls the others; with a priority slack
// (FrontierOptions) it first checks that entry against the best entry of
// every host that will be ready soon, and leaves a slot empty rather than
// fetch a link far worse than one that only waits for politeness.
//
// Single-threaded: owned by the crawl loop.
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <limits>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "crawler/host_queue.h"

namespace cronista::crawler {

// floor(100 / (backlinks + 1)).
int priority_for_backlinks(std::uint32_t backlinks);
// A link penalty stops at kMaxLinkPenalty; kAnnouncedPenalty marks a URL
// announced by a hub on a revisit (a page that was not there before), which
// goes to the head of the queue: priority -1, before every other URL.
inline constexpr std::uint8_t kMaxLinkPenalty = 254;
inline constexpr std::uint8_t kAnnouncedPenalty = 255;
// A URL's priority: its backlink priority plus the penalty of the best link
// context seen for it (0 = none; the temporal crawl's link score, crawl.h),
// or -1 for an announced URL.
inline int priority_for(std::uint32_t backlinks, std::uint8_t penalty) {
  return penalty == kAnnouncedPenalty ? -1 : priority_for_backlinks(backlinks) + penalty;
}
// The 64-bit key of a canonical URL in the seen-set (never 0).
std::uint64_t url_key(std::string_view canonical_url);

enum class UrlState : std::uint8_t {
  None = 0,
  Queued,    // in a host window (memory and database)
  Pending,   // queued, outside the window, insert not yet committed (memory)
  Spilled,   // queued, in the database only
  InFlight,  // being fetched or analysed
  Done,      // fetched (whatever the outcome)
  Dropped,   // never to be fetched (robots.txt, bounds)
};

// Open addressing with linear probing over 24-byte slots.
class SeenSet {
 public:
  struct Slot {
    std::uint64_t key = 0;
    std::uint32_t backlinks = 0;
    std::uint32_t host = 0;
    std::uint32_t seq = 0;
    std::uint16_t depth = 0;
    UrlState state = UrlState::None;
    std::uint8_t penalty = 0;  // the lowest link penalty seen
  };
  SeenSet();
  Slot* find(std::uint64_t key);
  // The slot for key, inserting an empty one (state None) when absent.
  Slot* insert(std::uint64_t key);
  std::size_t size() const { return size_; }
  std::size_t memory_bytes() const { return slots_.size() * sizeof(Slot); }

 private:
  void grow();
  std::vector<Slot> slots_;
  std::size_t size_ = 0;
};

struct FrontierEntry {
  std::string url;  // canonical
  std::uint64_t key = 0;
  std::uint32_t host = 0;
  std::uint32_t seq = 0;  // discovery order
  std::uint32_t backlinks = 0;
  std::uint16_t depth = 0;
  std::uint8_t redirects = 0;  // redirect hops that led here
  std::uint8_t attempts = 0;   // failed attempts so far (retries)
  std::uint8_t penalty = 0;    // the lowest link penalty seen
  std::uint64_t job = 0;       // store job carrying its insert
  int priority() const { return priority_for(backlinks, penalty); }
};

// What the store must persist, in the order given.
struct FrontierOp {
  enum Kind : std::uint8_t { Insert, Reprioritize, Remove, Requeue };
  Kind kind = Insert;
  std::string url;
  std::uint32_t host = 0;
  std::uint32_t seq = 0;
  std::uint32_t backlinks = 0;
  std::uint16_t depth = 0;
  std::uint8_t redirects = 0;
  std::uint8_t penalty = 0;
  UrlState final_state = UrlState::Done;  // Remove only
  int priority() const { return priority_for(backlinks, penalty); }
};

// Reads queued entries of one host back from the database, best first
// (ORDER BY priority, seq), skipping `offset`.
class FrontierSpill {
 public:
  virtual ~FrontierSpill() = default;
  virtual std::vector<FrontierEntry> load(std::uint32_t host, std::size_t limit, std::size_t offset) = 0;
};

struct FrontierOptions {
  std::size_t window_per_host = 32;        // entries kept in memory per host (at most)
  std::size_t window_budget = 64 * 1024;   // entries kept in memory overall (soft)
  int max_depth = -1;                      // links deeper than this are refused; -1 = unbounded
  // Global order before busy hosts: a ready host is served only when its
  // best entry's priority is at most priority_slack worse than the best
  // priority of every host that may be served within `lookahead` (ready,
  // waiting for its politeness gap, or with a transfer under way). Otherwise
  // pop() returns nothing and the crawl waits for the better host, so a host
  // whose queue holds only poor links is not served just to keep it busy.
  // -1: every ready host is served (throughput first).
  int priority_slack = -1;
  std::chrono::milliseconds lookahead{2000};
  // With a priority slack: asked about a ready host's best entry (its
  // priority) that the slack would hold back; true serves it now anyway (a
  // free politeness slot filled with a link worth a page of the budget,
  // crawl.cc). Empty: the slack alone decides.
  std::function<bool(int priority)> worth_a_slot;
  // A shared frontier (shared_work.h): a URL the worker has not seen goes
  // there instead of the local queues (add() says Queued), unless it comes
  // through add_claimed(); and every finished entry is reported. `at_seq`
  // is add()'s: the shared frontier's place of the claim that redirected
  // to it (add_claimed() gives a claimed entry that place as its seq).
  std::function<void(std::string_view url, std::uint32_t host, bool count_backlink, std::uint8_t penalty,
                     std::uint32_t at_seq)>
      divert;
  std::function<void(const FrontierEntry& e, UrlState final_state)> on_finish;
};

class Frontier {
 public:
  Frontier(HostQueue& hosts, FrontierSpill* spill, const FrontierOptions& options);

  enum class Added { Queued, Known, Refused };
  // Offers a URL found on a page (or a seed, or a redirect target).
  // count_backlink: one more page links to it. `penalty`: how poor the
  // link's context is (added to the priority; a URL keeps the lowest
  // penalty offered, at most kMaxLinkPenalty). `announced`: a URL a hub
  // announced on a revisit, queued at the head (it keeps that place). `job`
  // is the store job that will carry the ops appended to *ops. `at_seq`: the
  // discovery sequence a new entry takes, 0 for the next; a redirect target
  // takes the place of the URL that redirected to it, so that a chain, once
  // started, goes on before the URLs found after its first hop.
  Added add(std::string_view url, std::uint32_t host, std::uint16_t depth, std::uint8_t redirects,
            bool count_backlink, std::uint64_t job, std::vector<FrontierOp>* ops, std::uint8_t penalty = 0,
            bool announced = false, std::uint32_t at_seq = 0);

  // A URL claimed from the shared frontier: queued here like a seed, with
  // the priority the shared frontier ranked it by (as backlinks and a
  // penalty that give it back: priority_for), so that what the crawl learns
  // of its links (LinkYield) is filed under the priority it was claimed at.
  // The shared frontier does not carry depths: `depth` is 0 for a seed
  // this worker was given, 1 for any other URL. `order`: its place in the
  // shared frontier (SharedClaim::order), its seq here (0: the next).
  Added add_claimed(std::string_view url, std::uint32_t host, std::uint64_t job, std::vector<FrontierOp>* ops,
                    int priority = priority_for(0, 0), std::uint16_t depth = 1, std::uint32_t order = 0);

  // The best entry among the hosts politeness allows now. The entry is
  // InFlight until finish() or retry().
  std::optional<FrontierEntry> pop(Clock::time_point now);
  // The earliest time a waiting host becomes ready (max() if none).
  Clock::time_point next_ready() const;
  // Hosts whose robots.txt must be fetched before their queue can move.
  std::vector<std::uint32_t> take_robots_requests();
  bool robots_requested() const { return !robots_requests_.empty(); }

  // A Dropped URL queued again (its state, seq, backlinks and depth as
  // they were): a replica's URL whose decision was undone. Known for a URL
  // in any other state.
  Added requeue(std::string_view url, std::uint64_t job, std::vector<FrontierOp>* ops);
  // A URL downloaded outside the queues (a replica verification probe):
  // Done from now on, so that the crawl does not fetch it again. A URL
  // already queued stays queued (the crawl finishes it when it pops it).
  void add_done(std::string_view url, std::uint32_t host, std::uint16_t depth, std::vector<FrontierOp>* ops);
  // The depth of a known URL.
  std::optional<std::uint16_t> depth(std::string_view url);

  // The entry is finished for good: Done (fetched) or Dropped.
  void finish(const FrontierEntry& e, UrlState final_state, std::vector<FrontierOp>* ops);
  // The entry goes back to its host's queue (a retry after an error).
  void retry(FrontierEntry e);
  // Something about the host changed (robots known, a transfer finished, a
  // delay imposed): re-evaluates where it stands.
  void host_changed(std::uint32_t host, Clock::time_point now);
  // The store committed every job up to `job`: pending entries it carried
  // leave memory.
  void committed(std::uint64_t job);

  // Resume: a URL as stored.
  void restore(std::uint64_t key, UrlState state, std::uint32_t host, std::uint32_t seq, std::uint32_t backlinks,
               std::uint16_t depth, std::uint8_t penalty = 0);
  void set_next_seq(std::uint32_t seq) { next_seq_ = seq; }
  // After restore(): schedules every host with queued work.
  void restart(Clock::time_point now);

  std::size_t queued() const { return queued_; }
  const FrontierOptions& options() const { return options_; }
  // The priority of the n-th best queued entry (n >= 1), or nullopt when
  // fewer than n are queued.
  std::optional<int> nth_best_priority(std::size_t n) const;
  std::size_t seen() const { return seen_.size(); }
  std::size_t in_memory() const { return window_entries_ + pending_entries_; }
  bool empty() const { return queued_ == 0; }
  // Whether the host has URLs queued (in memory or in the database).
  bool has_queued(std::uint32_t host) const;
  std::uint32_t backlinks(std::string_view url);
  UrlState state(std::string_view url);

 private:
  using Key = std::pair<int, std::uint32_t>;  // (priority, seq)
  enum class Where : std::uint8_t { None, Ready, Waiting, Parked };
  struct HostWork {
    std::map<Key, FrontierEntry> window;
    std::map<Key, FrontierEntry> pending;
    std::size_t spilled = 0;
    // No pending or spilled entry has a better key than this (a lower
    // bound): an entry may enter the window only when it beats it.
    Key floor{std::numeric_limits<int>::max(), std::numeric_limits<std::uint32_t>::max()};
    Where where = Where::None;
    Key ready_key{};
    Clock::time_point wait_until{};
    bool robots_requested = false;
    bool listed_pending = false;
    std::optional<Key> listed_best;  // the window's best key as listed in best_
  };

  HostWork& work(std::uint32_t host);
  void unschedule(std::uint32_t host);
  void schedule(std::uint32_t host, Clock::time_point now);
  void refill(std::uint32_t host);
  std::size_t window_limit() const;
  // Puts an entry (in no container) where it belongs: window or outside.
  void place(std::uint32_t host, FrontierEntry e);
  // An entry leaving the window: pending until committed, then spilled.
  void demote(std::uint32_t host, FrontierEntry e);
  void touch(std::uint32_t host);
  // Lists the host's window best in best_ (after any change of its window).
  void note_best(std::uint32_t host);
  // The best priority among hosts that may be served within the lookahead.
  std::optional<int> best_soon(Clock::time_point now) const;

  HostQueue& hosts_;
  FrontierSpill* spill_;
  FrontierOptions options_;
  SeenSet seen_;
  std::vector<HostWork> work_;
  std::set<std::pair<Key, std::uint32_t>> ready_;
  std::set<std::pair<Key, std::uint32_t>> best_;  // every non-empty window's best
  std::set<std::pair<Clock::time_point, std::uint32_t>> waiting_;
  std::vector<std::uint32_t> robots_requests_;
  std::vector<std::uint32_t> pending_hosts_;
  std::uint32_t next_seq_ = 1;
  std::uint64_t committed_job_ = 0;
  std::size_t queued_ = 0;
  std::vector<std::size_t> queued_by_priority_;  // queued entries per priority value
  void count_queued(int priority, int delta);
  std::size_t window_entries_ = 0;
  std::size_t pending_entries_ = 0;
  bool claiming_ = false;  // inside add_claimed()
  std::uint32_t claimed_backlinks_ = 0;  // add_claimed(): the new entry's backlinks
};

}  // namespace cronista::crawler
