// RobotsPolicy: what the outcome of fetching a host's robots.txt means for
// crawling it, and for how long (RFC 9309 §2.3.1 and §2.4). Pure logic: the
// crawl loop fetches /robots.txt (following up to kMaxRedirects redirects
// itself), hands the outcome here, and re-fetches when the entry expires.
//
//   2xx                       → the body's rules, kept for `cache_ttl` (24 h)
//   3xx left after 5 hops     → "unavailable": allow everything (like 4xx)
//   4xx (incl. 401/403)       → "unavailable": allow everything, `cache_ttl`
// A 2xx or 4xx response whose Cache-Control gives a shorter max-age (or
// no-cache, no-store: 0) is kept that long instead, but at least
// `min_ttl` (1 s), as RFC 9309 §2.4 lets HTTP caching (RFC 9111) decide
// within the 24 hours.
//   429, 5xx, network failure → "unreachable": disallow everything, retried
//                               after `unreachable_retry` (1 h); if an
//                               earlier 2xx copy exists and is younger than
//                               `max_stale` (30 days), its rules are kept
//                               instead (RFC 9309 §2.4 allows it).
#pragma once

#include <algorithm>
#include <chrono>
#include <optional>
#include <string>
#include <string_view>
#include <utility>

#include "crawler/robots.h"

namespace cronista::crawler {

// What happened when the crawl loop fetched robots.txt.
struct RobotsFetchOutcome {
  int status = 0;               // final HTTP status; 0 when the fetch failed
  bool network_error = false;   // DNS, connect, TLS, time-out…
  bool too_many_redirects = false;
  std::string_view body;        // for 2xx
  // How long the server lets the answer be kept (cache_max_age()), if it says.
  std::optional<std::chrono::seconds> max_age;
  // An answer a worker of a shared crawl fetched: the time left of its
  // keeping there, kept exactly (the fetching worker applied the rules).
  std::optional<std::chrono::milliseconds> shared_ttl;
};

// What the Cache-Control header lines of a response head ("HTTP/1.1 200
// OK\r\nName: value\r\n…") say of how long it may be kept: max-age=N as
// N seconds, no-cache or no-store as 0; nullopt when they say neither.
std::optional<std::chrono::seconds> cache_max_age(std::string_view raw_head);

enum class RobotsSource { kParsed, kUnavailable, kUnreachable, kStale };

struct RobotsEntry {
  RobotsRules rules;
  RobotsSource source = RobotsSource::kUnavailable;
  std::chrono::system_clock::time_point fetched;  // when this outcome was seen
  std::chrono::system_clock::time_point expires;  // fetch robots.txt again from then on
  // When the rules last came from a 2xx body (kept across unreachable spells).
  std::optional<std::chrono::system_clock::time_point> parsed_at;
  std::string reason;  // one line for logs: "200 parsed", "404: allow all"…
};

class RobotsPolicy {
 public:
  static constexpr int kMaxRedirects = 5;

  struct Options {
    std::string user_agent_token = "cronista";
    std::chrono::seconds cache_ttl = std::chrono::hours(24);
    std::chrono::seconds unreachable_retry = std::chrono::hours(1);
    std::chrono::seconds max_stale = std::chrono::hours(24 * 30);
    std::chrono::seconds min_ttl = std::chrono::seconds(1);
  };

  RobotsPolicy() = default;
  explicit RobotsPolicy(Options options) : options_(std::move(options)) {}

  // The entry for a new fetch outcome; `previous` is the host's current
  // entry, if any (its parsed rules may outlive a server failure).
  RobotsEntry on_fetch(const RobotsFetchOutcome& outcome, std::chrono::system_clock::time_point now,
                       const RobotsEntry* previous = nullptr) const;

  bool expired(const RobotsEntry& entry, std::chrono::system_clock::time_point now) const {
    return now >= entry.expires;
  }

  const Options& options() const { return options_; }

 private:
  // How long a 2xx or 4xx answer is kept: cache_ttl, or the server's
  // shorter max-age (at least min_ttl), or what is left of a shared copy's.
  std::chrono::milliseconds kept_for(const RobotsFetchOutcome& outcome) const {
    if (outcome.shared_ttl)
      return std::clamp<std::chrono::milliseconds>(*outcome.shared_ttl, std::chrono::milliseconds(1), options_.cache_ttl);
    if (!outcome.max_age) return options_.cache_ttl;
    return std::clamp<std::chrono::milliseconds>(*outcome.max_age, options_.min_ttl, options_.cache_ttl);
  }

  Options options_;
};

}  // namespace cronista::crawler
