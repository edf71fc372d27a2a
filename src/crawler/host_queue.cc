// Politeness bookkeeping per authority; see host_queue.h.
#include "crawler/host_queue.h"

#include <algorithm>

namespace cronista::crawler {

std::uint32_t HostQueue::intern(std::string_view authority, std::string_view origin, bool* created) {
  auto it = ids_.find(std::string(authority));
  if (it != ids_.end()) {
    if (created) *created = false;
    return it->second;
  }
  const auto id = static_cast<std::uint32_t>(hosts_.size());
  HostState h;
  h.authority = std::string(authority);
  h.origin = std::string(origin);
  hosts_.push_back(std::move(h));
  ids_.emplace(std::string(authority), id);
  if (created) *created = true;
  return id;
}

std::optional<std::uint32_t> HostQueue::find(std::string_view authority) const {
  auto it = ids_.find(std::string(authority));
  if (it == ids_.end()) return std::nullopt;
  return it->second;
}

std::chrono::milliseconds HostQueue::gap(std::uint32_t id) const {
  return std::max(options_.delay, hosts_[id].crawl_delay);
}

bool HostQueue::needs_robots(std::uint32_t id, Clock::time_point now) const {
  const HostState& h = hosts_[id];
  return h.robots == RobotsState::Unknown || (h.robots == RobotsState::Ready && now >= h.robots_expires);
}

bool HostQueue::may_fetch(std::uint32_t id, Clock::time_point now) const {
  const HostState& h = hosts_[id];
  return h.robots == RobotsState::Ready && now < h.robots_expires && h.in_flight < options_.host_connections &&
         now >= h.next_allowed;
}

bool HostQueue::waiting_for_time(std::uint32_t id, Clock::time_point now) const {
  const HostState& h = hosts_[id];
  return h.robots == RobotsState::Ready && now < h.robots_expires && h.in_flight < options_.host_connections &&
         now < h.next_allowed;
}

bool HostQueue::admits_url(std::uint32_t id) const {
  return options_.max_urls_per_host <= 0 || hosts_[id].urls < options_.max_urls_per_host;
}

void HostQueue::on_dispatch(std::uint32_t id, Clock::time_point now) {
  HostState& h = hosts_[id];
  ++h.in_flight;
  h.last_dispatch = now;
  h.next_allowed = std::max(h.next_allowed, now + gap(id));
}

void HostQueue::on_finish(std::uint32_t id, Clock::time_point answered) {
  HostState& h = hosts_[id];
  if (h.in_flight > 0) --h.in_flight;
  h.last_answered = std::max(h.last_answered, answered);
  h.next_allowed = std::max(h.next_allowed, answered + gap(id));
}

void HostQueue::defer(std::uint32_t id, Clock::time_point until) {
  HostState& h = hosts_[id];
  h.next_allowed = std::max(h.next_allowed, until);
}

void HostQueue::set_robots(std::uint32_t id, RobotsRules rules, std::string outcome, std::chrono::milliseconds ttl,
                           Clock::time_point now) {
  HostState& h = hosts_[id];
  h.rules = std::move(rules);
  h.robots_outcome = std::move(outcome);
  h.robots = RobotsState::Ready;
  h.robots_expires = now + ttl;
  auto delay = h.rules.crawl_delay().value_or(std::chrono::milliseconds(0));
  h.crawl_delay = std::min(delay, options_.max_crawl_delay);
  // The gap may have grown (a Crawl-delay): the next request waits for it,
  // from the last dispatch and from the last answer (the robots.txt fetch
  // itself has just been answered).
  h.next_allowed = std::max(h.next_allowed, std::max(h.last_dispatch, h.last_answered) + gap(id));
}

}  // namespace cronista::crawler
