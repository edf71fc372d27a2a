// RobotsPolicy: the RFC 9309 status-code table, see robots_policy.h.
#include "crawler/robots_policy.h"

namespace cronista::crawler {

RobotsEntry RobotsPolicy::on_fetch(const RobotsFetchOutcome& outcome, std::chrono::system_clock::time_point now,
                                   const RobotsEntry* previous) const {
  RobotsEntry e;
  e.fetched = now;
  const int status = outcome.status;
  const bool unreachable = outcome.network_error || status == 0 || status == 429 || status >= 500;

  if (!unreachable && status >= 200 && status < 300) {
    e.rules = RobotsRules::parse(outcome.body, options_.user_agent_token);
    e.source = RobotsSource::kParsed;
    e.expires = now + options_.cache_ttl;
    e.parsed_at = now;
    e.reason = std::to_string(status) + ": parsed";
    return e;
  }
  if (!unreachable && (outcome.too_many_redirects || (status >= 300 && status < 500))) {
    e.rules = RobotsRules::allow_all();
    e.source = RobotsSource::kUnavailable;
    e.expires = now + options_.cache_ttl;
    e.reason = outcome.too_many_redirects ? "too many redirects: allow all" : std::to_string(status) + ": allow all";
    return e;
  }
  if (!unreachable) {  // 1xx or nonsense: treat like a server error
    e.reason = std::to_string(status) + ": unexpected status, ";
  }
  e.expires = now + options_.unreachable_retry;
  if (previous != nullptr && previous->parsed_at && now - *previous->parsed_at <= options_.max_stale) {
    e.rules = previous->rules;
    e.source = RobotsSource::kStale;
    e.parsed_at = previous->parsed_at;
    e.reason += (outcome.network_error || status == 0 ? std::string("unreachable")
                                                        : std::to_string(status)) +
                ": keeping the rules fetched earlier";
    return e;
  }
  e.rules = RobotsRules::disallow_all();
  e.source = RobotsSource::kUnreachable;
  e.reason += (outcome.network_error || status == 0 ? std::string("unreachable") : std::to_string(status)) +
              ": disallow all for now";
  return e;
}

}  // namespace cronista::crawler
