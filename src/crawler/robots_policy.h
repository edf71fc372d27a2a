// RobotsPolicy: what the outcome of fetching a host's robots.txt means for
// crawling it, and for how long (RFC 9309 §2.3.1 and §2.4). Pure logic: the
// crawl loop fetches /robots.txt (following up to kMaxRedirects redirects
// itself), hands the outcome here, and re-fetches when the entry expires.
//
//   2xx                       → the body's rules, kept for `cache_ttl` (24 h)
//   3xx left after 5 hops     → "unavailable": allow everything (like 4xx)
//   4xx (incl. 401/403)       → "unavailable": allow everything, `cache_ttl`
//   429, 5xx, network failure → "unreachable": disallow everything, retried
//                               after `unreachable_retry` (1 h); if an
//                               earlier 2xx copy exists and is younger than
//                               `max_stale` (30 days), its rules are kept
//                               instead (RFC 9309 §2.4 allows it).
#pragma once

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
};

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
  Options options_;
};

}  // namespace cronista::crawler
