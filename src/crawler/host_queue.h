// Politeness: one HostState per authority ("host" or "host:port"), holding
// what decides when that host may be asked for the next page: its robots.txt
// rules (fetched before any page, cached and refreshed), the minimum gap
// between two requests (the larger of --delay-ms and the robots Crawl-delay),
// the earliest time of the next request (pushed further by Retry-After), and
// the number of transfers in flight (at most --host-connections).
//
// HostQueue only keeps and answers; the frontier (frontier.h) asks it which
// hosts may be served now, so a host that must wait never stalls the others.
// Single-threaded: owned by the crawl loop.
#pragma once

#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "crawler/robots.h"
#include "crawler/robots_policy.h"

namespace cronista::crawler {

using Clock = std::chrono::steady_clock;

struct PolitenessOptions {
  std::chrono::milliseconds delay{1000};          // --delay-ms
  int host_connections = 1;                       // --host-connections
  std::chrono::milliseconds max_crawl_delay{60000};  // Crawl-delay values above this are capped
  std::int64_t max_urls_per_host = 0;             // 0 = unlimited (spider-trap bound)
};

enum class RobotsState { Unknown, Fetching, Ready };

struct HostState {
  std::string authority;  // politeness key: "example.org", "127.0.0.2:18080"
  std::string origin;     // "http://127.0.0.2:18080": where robots.txt lives
  RobotsState robots = RobotsState::Unknown;
  RobotsRules rules = RobotsRules::allow_all();
  std::optional<RobotsEntry> robots_entry;  // the last robots.txt outcome
  std::string robots_outcome;  // one line: "200 parsed", "404: allow all"…
  Clock::time_point robots_expires{};
  Clock::time_point next_allowed{};
  Clock::time_point last_dispatch{};
  Clock::time_point last_answered{};  // when the server last answered (its status line)
  std::chrono::milliseconds crawl_delay{0};
  int in_flight = 0;
  int robots_failures = 0;  // consecutive failed robots.txt fetches
  std::int64_t urls = 0;     // URLs ever queued for this host
  std::int64_t fetched = 0;  // responses received
};

class HostQueue {
 public:
  explicit HostQueue(const PolitenessOptions& options) : options_(options) {}

  // The id of the host for this authority, creating it when new
  // (*created tells which).
  std::uint32_t intern(std::string_view authority, std::string_view origin, bool* created = nullptr);
  std::optional<std::uint32_t> find(std::string_view authority) const;
  HostState& operator[](std::uint32_t id) { return hosts_[id]; }
  const HostState& operator[](std::uint32_t id) const { return hosts_[id]; }
  std::size_t size() const { return hosts_.size(); }

  // The minimum gap between two requests to this host.
  std::chrono::milliseconds gap(std::uint32_t id) const;
  // Whether robots.txt must be (re)fetched before any page of this host.
  bool needs_robots(std::uint32_t id, Clock::time_point now) const;
  // Robots known, a connection free and the gap elapsed.
  bool may_fetch(std::uint32_t id, Clock::time_point now) const;
  // Whether only time stands between this host and its next request.
  bool waiting_for_time(std::uint32_t id, Clock::time_point now) const;
  // Whether the per-host URL bound still admits a new URL.
  bool admits_url(std::uint32_t id) const;

  // Politeness holds at the server's clock: the next request to a host
  // waits the gap after the previous one was dispatched AND after the
  // server answered it (`answered` in on_finish: when its status line
  // arrived, or when the transfer ended without a response). The first
  // alone leaves the server a shorter gap whenever a request leaves late (a
  // connection set up, a busy event loop) or the server reads it late; the
  // second cannot: the server had read the request before it answered.
  void on_dispatch(std::uint32_t id, Clock::time_point now);
  void on_finish(std::uint32_t id, Clock::time_point answered);
  // No request before `until` (Retry-After, back-off).
  void defer(std::uint32_t id, Clock::time_point until);
  void robots_fetching(std::uint32_t id) { hosts_[id].robots = RobotsState::Fetching; }
  // Robots outcome: the rules and how long to trust them.
  void set_robots(std::uint32_t id, RobotsRules rules, std::string outcome, std::chrono::milliseconds ttl,
                  Clock::time_point now);

  const PolitenessOptions& options() const { return options_; }

 private:
  PolitenessOptions options_;
  std::vector<HostState> hosts_;
  std::unordered_map<std::string, std::uint32_t> ids_;
};

}  // namespace cronista::crawler
