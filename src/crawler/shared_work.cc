#include "crawler/shared_work.h"

#include <algorithm>
#include <cstdio>
#include <future>
#include <string_view>
#include <unordered_set>


namespace cronista::crawler {

namespace {
using SteadyClock = std::chrono::steady_clock;
// While the shared frontier does not answer, it is tried again this often.
constexpr auto kRetryEvery = std::chrono::milliseconds(500);
// What a turn of the crawl loop has for the shared frontier waits at most
// this long for more free slots to claim with it (SharedCrawl::pump).
constexpr auto kBatchFor = std::chrono::milliseconds(10);
}  // namespace

void SharedCrawl::offer(const std::string& url, const std::string& host, bool count_backlink,
                        std::uint8_t penalty, std::uint64_t from, std::uint32_t order) {
  offers_.push_back(SharedUrl{url, host, count_backlink ? 1u : 0u, penalty, from, order});
}

std::optional<std::vector<std::size_t>> SharedCrawl::move_due(const std::vector<SharedMove>& moves) {
  quiet();
  if (failing_since_) return std::nullopt;
  if (moves.empty()) return std::vector<std::size_t>{};
  auto r = work_->move_due(moves);
  if (!r.ok()) return failed(r.status()), std::nullopt;
  return std::move(*r);
}

bool SharedCrawl::take_slot(double rate, double burst) {
  const auto now = SteadyClock::now();
  if (now < pace_after_) return false;
  if (failing_since_ && now < next_try_) {
    pace_after_ = next_try_;
    return false;
  }
  quiet();
  auto wait = work_->pace(rate, burst);
  if (!wait.ok()) {
    failed(wait.status());
    pace_after_ = next_try_;
    return false;
  }
  succeeded();
  if (wait->count() <= 0) return true;
  pace_after_ = now + *wait;
  return false;
}

std::optional<SharedView> SharedCrawl::view() {
  quiet();
  if (failing_since_) return view_;
  auto v = work_->view();
  if (!v.ok()) return failed(v.status()), view_;
  return view_ = *v;
}

void SharedCrawl::failed(const Status& s) {
  if (!failing_since_) {
    failing_since_ = SteadyClock::now();
    std::fprintf(stderr, "crawl: shared frontier unreachable (%s); pausing and retrying\n", s.message().c_str());
  }
  last_error_ = s.message();
  next_try_ = SteadyClock::now() + kRetryEvery;
}

bool SharedCrawl::send(std::size_t claims, const std::function<bool(const SharedClaim&)>& accept) {
  if (!take(accept)) return false;
  return start(claims) && take(accept);
}

bool SharedCrawl::start(std::size_t claims) {
  if (unsure_claims_ && !reconcile()) return false;
  if (offers_.empty() && releases_.empty() && completions_.empty() && titles_.empty() && claims == 0) return true;
  // Links first: the server queues what a page offered before it frees
  // the page's host or settles its URL, so that no worker finds the crawl
  // empty meanwhile.
  SharedExchange x;
  x.offers = offers_;
  x.releases = releases_;
  for (const Finished& f : completions_) x.completions.push_back(SharedCompletion{f.claim, f.downloaded, f.next});
  x.claims = claims;
  x.held = hosts_fetching();
  if (claims > 0 && slot_rule_) x.slot_rule = slot_rule_();
  if (claims > 0) unsure_claims_ = true;  // until the reply says what was claimed
  x.titles = titles_;
  x.read_titles = share_titles_;
  x.titles_from = titles_from_;
  Trip t;
  t.offers = offers_.size();
  t.releases = releases_.size();
  t.completions = completions_.size();
  t.claims = claims;
  t.titles = titles_.size();
  // The round trip runs on its own thread: the loop goes on with its
  // transfers meanwhile, and nothing else uses the connection until the
  // reply is in (quiet()).
  t.reply = std::async(std::launch::async, [work = work_, x = std::move(x)] { return work->exchange(x); });
  trip_ = std::move(t);
  return true;
}

void SharedCrawl::quiet() {
  if (trip_) trip_->reply.wait();
}

bool SharedCrawl::take(const std::function<bool(const SharedClaim&)>& accept) {
  if (!trip_) return true;
  Trip t = std::move(*trip_);
  trip_.reset();
  SharedReply reply = t.reply.get();
  Status first = reply.offered;
  for (std::size_t i : reply.fresh)
    if (i < t.offers && offers_[i].from != 0) announced_.push_back(offers_[i].from);
  if (reply.offered.ok()) offers_.erase(offers_.begin(), offers_.begin() + static_cast<std::ptrdiff_t>(t.offers));
  // What was not taken stays buffered and goes again (each is safe to
  // repeat); what was buffered after the trip left waits for the next.
  auto keep_failed = [&](auto* buffer, const std::vector<Status>& done, std::size_t sent) {
    std::size_t i = 0;
    std::erase_if(*buffer, [&](const auto&) {
      if (i >= sent) return false;
      const Status s = i < done.size() ? done[i] : Status::Error("no reply from the shared frontier");
      ++i;
      if (!s.ok() && first.ok()) first = s;
      return s.ok();
    });
  };
  keep_failed(&releases_, reply.released, t.releases);
  keep_failed(&completions_, reply.completed, t.completions);
  if (reply.titles.ok()) {
    titles_.erase(titles_.begin(), titles_.begin() + static_cast<std::ptrdiff_t>(t.titles));
    if (t.titles > 0 && reply.titles_end >= t.titles)
      own_titles_.emplace_back(reply.titles_end - t.titles, reply.titles_end);
    for (SharedTitle& title : *reply.titles) {
      const std::uint64_t at = titles_from_++;
      while (!own_titles_.empty() && own_titles_.front().second <= at) own_titles_.pop_front();
      if (own_titles_.empty() || at < own_titles_.front().first) titles_read_.push_back(std::move(title));
    }
  } else if (first.ok()) {
    first = reply.titles.status();
  }
  if (t.claims > 0) {
    if (!reply.pull.ok()) {
      if (first.ok()) first = reply.pull.status();
    } else {
      unsure_claims_ = false;
      last_ = reply.pull->why;
      const auto now = SteadyClock::now();
      if (reply.pull->why != SharedPull::Why::kClaimed) {
        // Nothing to take: ask again when the earliest host may be ready (a
        // leased host's time is its lease's end, so at least every 50 ms: a
        // release comes earlier), or a little later when the queues are empty.
        next_try_ = now + (reply.pull->why == SharedPull::Why::kWait
                               ? std::clamp(reply.pull->wait, std::chrono::milliseconds(1), std::chrono::milliseconds(50))
                               : std::chrono::milliseconds(20));
      } else if (reply.pull->claims.size() < t.claims) {
        // Every ready host was taken: ask again when the next host becomes
        // ready, as Redis says, and at least every 20 ms (a host another
        // worker releases meanwhile is ready a gap after); a release by this
        // worker ends the pause at once.
        const auto wait = reply.pull->wait;
        next_try_ = now + (wait > std::chrono::milliseconds(0) ? std::clamp(wait, std::chrono::milliseconds(1), std::chrono::milliseconds(20))
                                                               : std::chrono::milliseconds(20));
      }
      for (const SharedClaim& c : reply.pull->claims) {
        held_.emplace(c.url, c);
        if (!accept(c)) {
          // Known here already (this worker fetched it before a restart of the
          // shared frontier's view of it): nothing to download.
          held_.erase(c.url);
          completions_.push_back(Finished{c, false, 0, take_next(c.url)});
        }
      }
    }
  }
  if (!first.ok()) return failed(first), false;
  return true;
}

bool SharedCrawl::reconcile() {
  auto own = work_->own_claims();
  if (!own.ok()) return failed(own.status()), false;
  auto known = [&](const std::string& url) {
    auto same = [&](const Finished& f) { return f.claim.url == url; };
    return held_.count(url) || std::any_of(uncommitted_.begin(), uncommitted_.end(), same) ||
           std::any_of(completions_.begin(), completions_.end(), same);
  };
  for (const SharedClaim& c : *own)
    if (!known(c.url))
      if (Status s = work_->give_back(c); !s.ok()) return failed(s), false;
  unsure_claims_ = false;
  return true;
}

SharedCopy* SharedCrawl::pending(const std::string& url) {
  if (auto it = next_.find(url); it != next_.end()) return &it->second;
  for (Finished& f : completions_)
    if (f.next && f.claim.url == url) return &*f.next;
  return nullptr;
}

std::optional<SharedCopy> SharedCrawl::take_next(const std::string& url) {
  auto it = next_.find(url);
  if (it == next_.end()) return std::nullopt;
  std::optional<SharedCopy> next = std::move(it->second);
  next_.erase(it);
  return next;
}

void SharedCrawl::pump(std::size_t want, const std::function<bool(const SharedClaim&)>& accept) {
  if (trip_) {
    if (trip_->reply.wait_for(std::chrono::seconds(0)) != std::future_status::ready) return;
    if (take(accept)) succeeded();
  }
  const auto now = SteadyClock::now();
  std::size_t claims = 0;
  if (now < next_try_) {
    // No claim before then, but the links found meanwhile go at once (a
    // worker whose host comes free sooner may claim them), as a lone
    // crawl's frontier has a page's links the moment it is analysed.
    if (failing_since_ || offers_.empty()) return;
  } else {
    const std::size_t free = want > fetching() ? want - fetching() : 0;
    // Free slots are claimed a quarter of `want` at a time, so that one round
    // trip serves several (each waits for the server); sooner when the last
    // went a while ago or nothing is being fetched.
    if (free < std::max<std::size_t>(1, want / 4) && fetching() > 0 && now - last_sent_ < kBatchFor) return;
    last_sent_ = now;
    claims = free;
  }
  if (!start(claims)) return;
  // A reply already in (a fast server) is taken at once.
  if (trip_ && trip_->reply.wait_for(std::chrono::seconds(0)) == std::future_status::ready && take(accept)) succeeded();
}

std::optional<SharedRobots> SharedCrawl::robots(const std::string& host) {
  quiet();
  if (failing_since_) return std::nullopt;
  auto r = work_->robots(host);
  if (!r.ok()) return failed(r.status()), std::nullopt;
  return std::move(*r);
}

void SharedCrawl::share_robots(const std::string& host, const SharedRobots& robots, std::chrono::milliseconds ttl) {
  quiet();
  if (failing_since_) return;
  if (Status s = work_->share_robots(host, robots, ttl); !s.ok()) failed(s);
}

void SharedCrawl::beat() {
  const auto now = SteadyClock::now();
  if (now < next_beat_ || now < next_try_) return;
  quiet();
  // Claims being fetched hold their hosts; finished ones released theirs
  // (the heartbeat keeps their URLs this worker's until they are stored).
  // One renewal per host, however many of its URLs are being fetched.
  std::vector<SharedClaim> claims;
  std::unordered_set<std::string> hosts;
  for (const auto& [url, c] : held_)
    if (!released_.count(url) && hosts.insert(c.host).second) claims.push_back(c);
  if (Status s = work_->heartbeat(claims); !s.ok()) return failed(s);
  next_beat_ = now + work_->heartbeat_every();
}

std::size_t SharedCrawl::hosts_fetching() const {
  std::unordered_set<std::string_view> hosts;
  for (const auto& [url, c] : held_)
    if (!released_.count(url)) hosts.insert(c.host);
  return hosts.size();
}

void SharedCrawl::transfer_ended(const std::string& url, const std::string& address) {
  auto it = held_.find(url);
  if (it == held_.end() || !released_.insert(url).second) return;
  releases_.push_back(SharedRelease{it->second, address, true});
  // A wait for a host may end with this release: claim again at once.
  if (!failing_since_) next_try_ = SteadyClock::now();
}

void SharedCrawl::finished(const std::string& url, bool downloaded, std::uint64_t job) {
  auto it = held_.find(url);
  if (it == held_.end()) return;
  // No transfer: no request went to the host.
  if (!released_.erase(url)) releases_.push_back(SharedRelease{it->second, "", false});
  uncommitted_.push_back(Finished{std::move(it->second), downloaded, job, std::nullopt});
  held_.erase(it);
}

void SharedCrawl::committed(std::uint64_t job) {
  for (auto it = uncommitted_.begin(); it != uncommitted_.end();) {
    if (it->job > job) {
      ++it;
      continue;
    }
    it->next = take_next(it->claim.url);
    completions_.push_back(std::move(*it));
    it = uncommitted_.erase(it);
  }
}

std::optional<std::string> SharedCrawl::ended(bool idle) const {
  if (failing_since_ && SteadyClock::now() - *failing_since_ >= patience_) return "frontier-lost";
  if (!idle || trip_ || held() > 0 || !offers_.empty() || !releases_.empty() || !completions_.empty() ||
      failing_since_)
    return std::nullopt;
  if (last_ == SharedPull::Why::kBudgetSpent) return "max-pages";
  if (last_ == SharedPull::Why::kEmpty) return "frontier-empty";
  return std::nullopt;
}

std::size_t SharedCrawl::stop() {
  const auto keep = [](const SharedClaim&) { return true; };
  take(keep);  // its claims are held, and go back below
  if (unsure_claims_) reconcile();
  for (auto it = held_.begin(); it != held_.end();) {
    if (!work_->give_back(it->second).ok()) {
      ++it;
      continue;
    }
    released_.erase(it->first);
    it = held_.erase(it);
  }
  send(0, keep);
  const std::size_t left = held() + offers_.size() + releases_.size() + completions_.size();
  if (left == 0) work_->leave();  // best effort: unheard, the worker is reaped after its silence
  if (left > 0)
    std::fprintf(stderr,
                 "crawl: the shared frontier did not take back %zu claimed URLs, %zu found URLs and %zu "
                 "completions (%s); claimed URLs return when this worker resumes or is declared dead\n",
                 held(), offers_.size(), completions_.size(), last_error_.c_str());
  return left;
}

}  // namespace cronista::crawler
