// Frontier: seen-set, per-host windows over the database frontier, and the
// ready/waiting/parked schedule of hosts. See frontier.h for the design.
#include "crawler/frontier.h"

#include <algorithm>
#include <functional>
#include <limits>

namespace cronista::crawler {

int priority_for_backlinks(std::uint32_t backlinks) {
  return static_cast<int>(100 / (static_cast<std::uint64_t>(backlinks) + 1));
}

std::uint64_t url_key(std::string_view canonical_url) {
  std::uint64_t h = std::hash<std::string_view>{}(canonical_url);
  return h == 0 ? 1 : h;
}

// ---- SeenSet ----

SeenSet::SeenSet() : slots_(1 << 12) {}

SeenSet::Slot* SeenSet::find(std::uint64_t key) {
  const std::size_t mask = slots_.size() - 1;
  for (std::size_t i = key & mask;; i = (i + 1) & mask) {
    if (slots_[i].key == key) return &slots_[i];
    if (slots_[i].key == 0) return nullptr;
  }
}

SeenSet::Slot* SeenSet::insert(std::uint64_t key) {
  if ((size_ + 1) * 10 > slots_.size() * 7) grow();
  const std::size_t mask = slots_.size() - 1;
  for (std::size_t i = key & mask;; i = (i + 1) & mask) {
    if (slots_[i].key == key) return &slots_[i];
    if (slots_[i].key == 0) {
      slots_[i].key = key;
      ++size_;
      return &slots_[i];
    }
  }
}

void SeenSet::grow() {
  std::vector<Slot> old(slots_.size() * 2);
  old.swap(slots_);
  const std::size_t mask = slots_.size() - 1;
  for (const Slot& s : old) {
    if (s.key == 0) continue;
    std::size_t i = s.key & mask;
    while (slots_[i].key != 0) i = (i + 1) & mask;
    slots_[i] = s;
  }
}

// ---- Frontier ----

Frontier::Frontier(HostQueue& hosts, FrontierSpill* spill, const FrontierOptions& options)
    : hosts_(hosts), spill_(spill), options_(options) {}

Frontier::HostWork& Frontier::work(std::uint32_t host) {
  if (host >= work_.size()) work_.resize(host + 1);
  return work_[host];
}

bool Frontier::has_queued(std::uint32_t host) const {
  if (host >= work_.size()) return false;
  const HostWork& w = work_[host];
  return !w.window.empty() || !w.pending.empty() || w.spilled > 0;
}

std::size_t Frontier::window_limit() const {
  const std::size_t hosts = std::max<std::size_t>(1, work_.size());
  return std::clamp<std::size_t>(options_.window_budget / hosts, 4, std::max<std::size_t>(4, options_.window_per_host));
}

void Frontier::place(std::uint32_t host, FrontierEntry e) {
  HostWork& w = work(host);
  const Key k{e.priority(), e.seq};
  const bool outside_is_worse = (w.spilled == 0 && w.pending.empty()) || k < w.floor;
  if (outside_is_worse && (w.window.size() < window_limit() || k < w.window.rbegin()->first)) {
    if (SeenSet::Slot* slot = seen_.find(e.key)) slot->state = UrlState::Queued;
    w.window.emplace(k, std::move(e));
    ++window_entries_;
    while (w.window.size() > window_limit()) {
      auto node = w.window.extract(std::prev(w.window.end()));
      --window_entries_;
      demote(host, std::move(node.mapped()));
    }
  } else {
    demote(host, std::move(e));
  }
  note_best(host);
}

void Frontier::note_best(std::uint32_t host) {
  HostWork& w = work_[host];
  const std::optional<Key> best = w.window.empty() ? std::nullopt : std::optional<Key>(w.window.begin()->first);
  if (best == w.listed_best) return;
  if (w.listed_best) best_.erase({*w.listed_best, host});
  if (best) best_.insert({*best, host});
  w.listed_best = best;
}

std::optional<int> Frontier::best_soon(Clock::time_point now) const {
  for (const auto& [key, host] : best_) {
    const HostWork& w = work_[host];
    const HostState& h = hosts_[host];
    const bool soon = w.where == Where::Ready || (w.where == Where::Waiting && w.wait_until <= now + options_.lookahead) ||
                      (w.where == Where::Parked && h.robots == RobotsState::Ready && h.in_flight > 0 &&
                       h.last_dispatch + options_.lookahead >= now);
    if (soon) return key.first;
  }
  return std::nullopt;
}

void Frontier::demote(std::uint32_t host, FrontierEntry e) {
  HostWork& w = work_[host];
  w.floor = std::min(w.floor, Key{e.priority(), e.seq});
  SeenSet::Slot* slot = seen_.find(e.key);
  if (e.job <= committed_job_) {
    if (slot) slot->state = UrlState::Spilled;
    ++w.spilled;
    return;
  }
  if (slot) slot->state = UrlState::Pending;
  const Key k{e.priority(), e.seq};
  w.pending.emplace(k, std::move(e));
  ++pending_entries_;
  if (!w.listed_pending) {
    w.listed_pending = true;
    pending_hosts_.push_back(host);
  }
}

void Frontier::touch(std::uint32_t host) {
  HostWork& w = work(host);
  if (w.where == Where::Ready) {
    if (w.window.empty() || w.window.begin()->first != w.ready_key) {
      unschedule(host);
      schedule(host, Clock::now());
    }
  } else if (w.where == Where::None) {
    schedule(host, Clock::now());
  }
}

Frontier::Added Frontier::add(std::string_view url, std::uint32_t host, std::uint16_t depth, std::uint8_t redirects,
                              bool count_backlink, std::uint64_t job, std::vector<FrontierOp>* ops,
                              std::uint8_t penalty, bool announced, std::uint32_t at_seq) {
  penalty = announced ? kAnnouncedPenalty : std::min(penalty, kMaxLinkPenalty);
  const std::uint64_t key = url_key(url);
  SeenSet::Slot* slot = seen_.find(key);
  if (slot == nullptr) {
    if (options_.max_depth >= 0 && depth > options_.max_depth) return Added::Refused;
    if (options_.divert && !claiming_) {
      options_.divert(url, host, count_backlink, penalty, at_seq);
      return Added::Queued;
    }
    work(host);
    if (!hosts_.admits_url(host)) return Added::Refused;
    slot = seen_.insert(key);
    slot->state = UrlState::Queued;
    slot->backlinks = claiming_ ? claimed_backlinks_ : (count_backlink ? 1 : 0);
    slot->host = host;
    slot->seq = at_seq != 0 ? at_seq : next_seq_++;
    slot->depth = depth;
    slot->penalty = penalty;
    ++hosts_[host].urls;
    FrontierEntry e;
    e.url = std::string(url);
    e.key = key;
    e.host = host;
    e.seq = slot->seq;
    e.backlinks = slot->backlinks;
    e.depth = depth;
    e.redirects = redirects;
    e.penalty = penalty;
    e.job = job;
    FrontierOp op;
    op.kind = FrontierOp::Insert;
    op.url = e.url;
    op.host = host;
    op.seq = e.seq;
    op.backlinks = e.backlinks;
    op.depth = depth;
    op.redirects = redirects;
    op.penalty = penalty;
    ops->push_back(std::move(op));
    count_queued(e.priority(), 1);
    place(host, std::move(e));
    ++queued_;
    touch(host);
    return Added::Queued;
  }
  const int old_priority = priority_for(slot->backlinks, slot->penalty);
  if (!count_backlink && priority_for(slot->backlinks, penalty) >= old_priority) return Added::Known;
  if (count_backlink && slot->backlinks < std::numeric_limits<std::uint32_t>::max()) ++slot->backlinks;
  if ((slot->state == UrlState::Queued || slot->state == UrlState::Pending || slot->state == UrlState::Spilled) &&
      slot->penalty != kAnnouncedPenalty)
    slot->penalty = announced ? kAnnouncedPenalty : std::min(slot->penalty, penalty);
  const int new_priority = priority_for(slot->backlinks, slot->penalty);
  if (new_priority == old_priority) return Added::Known;
  if (slot->state != UrlState::Queued && slot->state != UrlState::Pending && slot->state != UrlState::Spilled)
    return Added::Known;

  count_queued(old_priority, -1);
  count_queued(new_priority, 1);
  FrontierOp op;
  op.kind = FrontierOp::Reprioritize;
  op.url = std::string(url);
  op.backlinks = slot->backlinks;
  op.penalty = slot->penalty;
  ops->push_back(std::move(op));

  const std::uint32_t h = slot->host;
  HostWork& w = work(h);
  const Key old_key{old_priority, slot->seq};
  const Key new_key{new_priority, slot->seq};
  if (slot->state == UrlState::Queued || slot->state == UrlState::Pending) {
    auto& from = slot->state == UrlState::Queued ? w.window : w.pending;
    auto node = from.extract(old_key);
    if (!node.empty()) {
      if (slot->state == UrlState::Queued) --window_entries_; else --pending_entries_;
      note_best(h);
      node.mapped().backlinks = slot->backlinks;
      node.mapped().penalty = slot->penalty;
      place(h, std::move(node.mapped()));
    }
  } else if (w.window.size() < window_limit() || (!w.window.empty() && new_key < w.window.rbegin()->first)) {
    // A spilled URL that now beats the window comes back into memory.
    FrontierEntry e;
    e.url = std::string(url);
    e.key = key;
    e.host = h;
    e.seq = slot->seq;
    e.backlinks = slot->backlinks;
    e.penalty = slot->penalty;
    e.depth = slot->depth;
    --w.spilled;
    place(h, std::move(e));
  }
  touch(h);
  return Added::Known;
}

void Frontier::unschedule(std::uint32_t host) {
  HostWork& w = work_[host];
  if (w.where == Where::Ready) ready_.erase({w.ready_key, host});
  else if (w.where == Where::Waiting) waiting_.erase({w.wait_until, host});
  w.where = Where::None;
}

void Frontier::schedule(std::uint32_t host, Clock::time_point now) {
  HostWork& w = work_[host];
  if (w.where != Where::None) return;
  if (w.window.empty() && (w.spilled > 0 || !w.pending.empty())) refill(host);
  if (w.window.empty()) return;
  if (hosts_[host].robots == RobotsState::Fetching) {
    w.where = Where::Parked;
  } else if (hosts_.needs_robots(host, now) && now < hosts_[host].next_allowed) {
    w.where = Where::Waiting;  // robots.txt too waits for the gap (and for back-off)
    w.wait_until = hosts_[host].next_allowed;
    waiting_.insert({w.wait_until, host});
  } else if (hosts_.needs_robots(host, now)) {
    if (!w.robots_requested) {
      w.robots_requested = true;
      robots_requests_.push_back(host);
    }
    w.where = Where::Parked;
  } else if (hosts_.may_fetch(host, now)) {
    w.where = Where::Ready;
    w.ready_key = w.window.begin()->first;
    ready_.insert({w.ready_key, host});
  } else if (hosts_.waiting_for_time(host, now)) {
    w.where = Where::Waiting;
    w.wait_until = hosts_[host].next_allowed;
    waiting_.insert({w.wait_until, host});
  } else {
    w.where = Where::Parked;  // every connection busy: host_changed() on finish
  }
}

void Frontier::refill(std::uint32_t host) {
  HostWork& w = work_[host];
  const std::size_t limit = window_limit();
  // Pending entries are in memory already: they compete first.
  while (!w.pending.empty()) {
    auto node = w.pending.extract(w.pending.begin());
    --pending_entries_;
    if (SeenSet::Slot* slot = seen_.find(node.mapped().key)) slot->state = UrlState::Queued;
    w.window.insert(std::move(node));
    ++window_entries_;
  }
  // Then at least a window's worth from the database, which may hold
  // better entries than any pending one. What stays there is no better than
  // the last row read (up to priorities whose update is not committed yet).
  w.floor = Key{std::numeric_limits<int>::max(), std::numeric_limits<std::uint32_t>::max()};
  std::size_t offset = 0, loaded = 0;
  while (spill_ != nullptr && w.spilled > 0 && loaded < limit) {
    const std::size_t batch_size = limit * 2;
    std::vector<FrontierEntry> batch = spill_->load(host, batch_size, offset);
    offset += batch.size();
    if (!batch.empty()) w.floor = Key{batch.back().priority(), batch.back().seq};
    for (FrontierEntry& e : batch) {
      e.key = url_key(e.url);
      SeenSet::Slot* slot = seen_.find(e.key);
      if (slot == nullptr || slot->state != UrlState::Spilled) continue;
      slot->state = UrlState::Queued;
      e.host = host;
      e.seq = slot->seq;
      e.backlinks = slot->backlinks;
      e.penalty = slot->penalty;
      e.depth = slot->depth;
      e.job = 0;
      --w.spilled;
      ++loaded;
      const Key k{e.priority(), e.seq};
      w.window.emplace(k, std::move(e));
      ++window_entries_;
    }
    if (batch.size() < batch_size) {
      if (w.window.empty() && w.spilled > 0) {
        // The database holds none of what the count promises (it cannot
        // happen: only committed entries are counted as spilled): forget them.
        queued_ -= std::min(queued_, w.spilled);
        w.spilled = 0;
      }
      break;
    }
  }
  while (w.window.size() > limit) {
    auto node = w.window.extract(std::prev(w.window.end()));
    --window_entries_;
    demote(host, std::move(node.mapped()));
  }
  note_best(host);
}

void Frontier::committed(std::uint64_t job) {
  if (job <= committed_job_) return;
  committed_job_ = job;
  std::vector<std::uint32_t> still;
  for (std::uint32_t host : pending_hosts_) {
    HostWork& w = work_[host];
    for (auto it = w.pending.begin(); it != w.pending.end();) {
      if (it->second.job > committed_job_) {
        ++it;
        continue;
      }
      if (SeenSet::Slot* slot = seen_.find(it->second.key)) slot->state = UrlState::Spilled;
      ++w.spilled;
      --pending_entries_;
      it = w.pending.erase(it);
    }
    w.listed_pending = !w.pending.empty();
    if (w.listed_pending) still.push_back(host);
  }
  pending_hosts_.swap(still);
}

std::optional<FrontierEntry> Frontier::pop(Clock::time_point now) {
  while (!waiting_.empty() && waiting_.begin()->first <= now) {
    const std::uint32_t host = waiting_.begin()->second;
    unschedule(host);
    schedule(host, now);
  }
  while (!ready_.empty()) {
    const std::uint32_t host = ready_.begin()->second;
    HostWork& w = work_[host];
    if (!hosts_.may_fetch(host, now) || w.window.empty()) {
      unschedule(host);
      schedule(host, now);  // never Ready again while may_fetch() is false
      continue;
    }
    if (options_.priority_slack >= 0) {
      const std::optional<int> best = best_soon(now);
      const int priority = w.window.begin()->first.first;
      if (best && priority > *best + options_.priority_slack &&
          !(options_.worth_a_slot && options_.worth_a_slot(priority)))
        return std::nullopt;
    }
    auto node = w.window.extract(w.window.begin());
    FrontierEntry e = std::move(node.mapped());
    --window_entries_;
    note_best(host);
    --queued_;
    if (SeenSet::Slot* slot = seen_.find(e.key)) {
      slot->state = UrlState::InFlight;
      e.backlinks = slot->backlinks;
      e.penalty = slot->penalty;
    }
    count_queued(e.priority(), -1);
    unschedule(host);
    schedule(host, now);
    return e;
  }
  return std::nullopt;
}

Clock::time_point Frontier::next_ready() const {
  return waiting_.empty() ? Clock::time_point::max() : waiting_.begin()->first;
}

std::vector<std::uint32_t> Frontier::take_robots_requests() {
  std::vector<std::uint32_t> out;
  out.swap(robots_requests_);
  for (std::uint32_t h : out) work_[h].robots_requested = false;
  return out;
}

Frontier::Added Frontier::add_claimed(std::string_view url, std::uint32_t host, std::uint64_t job,
                                      std::vector<FrontierOp>* ops, int priority, std::uint16_t depth,
                                      std::uint32_t order) {
  // The fewest backlinks whose priority is at most `priority`; the rest is penalty.
  std::uint32_t backlinks = 0;
  while (priority >= 0 && priority_for_backlinks(backlinks) > priority) ++backlinks;
  const int penalty = priority < 0 ? 0 : std::min<int>(priority - priority_for_backlinks(backlinks), kMaxLinkPenalty);
  claiming_ = true;
  claimed_backlinks_ = backlinks;
  const Added added =
      add(url, host, depth, 0, false, job, ops, static_cast<std::uint8_t>(penalty), priority < 0, order);
  claiming_ = false;
  claimed_backlinks_ = 0;
  return added;
}

void Frontier::finish(const FrontierEntry& e, UrlState final_state, std::vector<FrontierOp>* ops) {
  if (SeenSet::Slot* slot = seen_.find(e.key)) slot->state = final_state;
  if (options_.on_finish) options_.on_finish(e, final_state);
  FrontierOp op;
  op.kind = FrontierOp::Remove;
  op.url = e.url;
  op.final_state = final_state;
  ops->push_back(std::move(op));
}

Frontier::Added Frontier::requeue(std::string_view url, std::uint64_t job, std::vector<FrontierOp>* ops) {
  const std::uint64_t key = url_key(url);
  SeenSet::Slot* slot = seen_.find(key);
  if (slot == nullptr || slot->state != UrlState::Dropped) return Added::Known;
  slot->state = UrlState::Queued;
  FrontierEntry e;
  e.url = std::string(url);
  e.key = key;
  e.host = slot->host;
  e.seq = slot->seq;
  e.backlinks = slot->backlinks;
  e.depth = slot->depth;
  e.penalty = slot->penalty;
  e.job = job;
  FrontierOp op;
  op.kind = FrontierOp::Requeue;
  op.url = e.url;
  op.host = e.host;
  op.seq = e.seq;
  op.backlinks = e.backlinks;
  op.depth = e.depth;
  op.penalty = e.penalty;
  ops->push_back(std::move(op));
  const std::uint32_t host = e.host;
  work(host);
  count_queued(e.priority(), 1);
  place(host, std::move(e));
  ++queued_;
  touch(host);
  return Added::Queued;
}

void Frontier::add_done(std::string_view url, std::uint32_t host, std::uint16_t depth,
                        std::vector<FrontierOp>* ops) {
  const std::uint64_t key = url_key(url);
  if (seen_.find(key) != nullptr) return;
  work(host);
  SeenSet::Slot* slot = seen_.insert(key);
  slot->state = UrlState::Done;
  slot->host = host;
  slot->seq = next_seq_++;
  slot->depth = depth;
  ++hosts_[host].urls;
  FrontierOp op;
  op.kind = FrontierOp::Insert;
  op.url = std::string(url);
  op.host = host;
  op.seq = slot->seq;
  op.depth = depth;
  ops->push_back(op);
  op.kind = FrontierOp::Remove;
  op.final_state = UrlState::Done;
  ops->push_back(std::move(op));
}

std::optional<std::uint16_t> Frontier::depth(std::string_view url) {
  const SeenSet::Slot* slot = seen_.find(url_key(url));
  return slot ? std::optional<std::uint16_t>(slot->depth) : std::nullopt;
}

void Frontier::retry(FrontierEntry e) {
  if (SeenSet::Slot* slot = seen_.find(e.key)) {
    slot->state = UrlState::Queued;
    e.backlinks = slot->backlinks;
    e.penalty = slot->penalty;
  }
  const std::uint32_t host = e.host;
  count_queued(e.priority(), 1);
  place(host, std::move(e));
  ++queued_;
  touch(host);
}

void Frontier::host_changed(std::uint32_t host, Clock::time_point now) {
  work(host);
  unschedule(host);
  schedule(host, now);
}

void Frontier::restore(std::uint64_t key, UrlState state, std::uint32_t host, std::uint32_t seq,
                       std::uint32_t backlinks, std::uint16_t depth, std::uint8_t penalty) {
  SeenSet::Slot* slot = seen_.insert(key);
  slot->host = host;
  slot->seq = seq;
  slot->backlinks = backlinks;
  slot->depth = depth;
  slot->penalty = penalty;
  HostWork& w = work(host);
  ++hosts_[host].urls;
  if (state != UrlState::Done && state != UrlState::Dropped) {
    slot->state = UrlState::Spilled;
    ++w.spilled;
    w.floor = std::min(w.floor, Key{priority_for(backlinks, penalty), seq});
    ++queued_;
    count_queued(priority_for(backlinks, penalty), 1);
  } else {
    slot->state = state;
  }
  next_seq_ = std::max(next_seq_, seq + 1);
}

void Frontier::restart(Clock::time_point now) {
  for (std::uint32_t h = 0; h < work_.size(); ++h) {
    if (work_[h].spilled > 0 || !work_[h].window.empty() || !work_[h].pending.empty()) {
      unschedule(h);
      schedule(h, now);
    }
  }
}

void Frontier::count_queued(int priority, int delta) {
  const auto p = static_cast<std::size_t>(std::max(0, priority));
  if (p >= queued_by_priority_.size()) queued_by_priority_.resize(p + 1, 0);
  std::size_t& n = queued_by_priority_[p];
  n = delta < 0 ? n - std::min<std::size_t>(n, static_cast<std::size_t>(-delta)) : n + static_cast<std::size_t>(delta);
}

std::optional<int> Frontier::nth_best_priority(std::size_t n) const {
  std::size_t seen = 0;
  for (std::size_t p = 0; p < queued_by_priority_.size(); ++p) {
    seen += queued_by_priority_[p];
    if (seen >= n && n > 0) return static_cast<int>(p);
  }
  return std::nullopt;
}

std::uint32_t Frontier::backlinks(std::string_view url) {
  SeenSet::Slot* slot = seen_.find(url_key(url));
  return slot ? slot->backlinks : 0;
}

UrlState Frontier::state(std::string_view url) {
  SeenSet::Slot* slot = seen_.find(url_key(url));
  return slot ? slot->state : UrlState::None;
}

}  // namespace cronista::crawler
