// RobotsPolicy: the RFC 9309 status-code table, see robots_policy.h.
#include "crawler/robots_policy.h"

#include <algorithm>
#include <cstdint>

#include "crawler/ascii.h"
#include "crawler/warc_format.h"

namespace cronista::crawler {

std::optional<std::chrono::seconds> cache_max_age(std::string_view raw_head) {
  const auto eol = raw_head.find('\n');
  if (eol == std::string_view::npos) return std::nullopt;
  warc_format::HeaderFields fields;
  warc_format::parse_header_lines(raw_head.substr(eol + 1), &fields);
  std::optional<std::chrono::seconds> out;
  for (const auto& [name, value] : fields) {
    if (!iequals(name, "cache-control")) continue;
    const std::string v = ascii_lowered(value);
    std::size_t at = 0;
    while (at < v.size()) {
      std::size_t end = v.find(',', at);
      if (end == std::string::npos) end = v.size();
      std::string_view d(v.data() + at, end - at);
      while (!d.empty() && (d.front() == ' ' || d.front() == '\t')) d.remove_prefix(1);
      while (!d.empty() && (d.back() == ' ' || d.back() == '\t')) d.remove_suffix(1);
      at = end + 1;
      std::optional<std::int64_t> secs;
      if (d == "no-cache" || d == "no-store") {
        secs = 0;
      } else if (d.substr(0, 8) == "max-age=") {
        std::string_view n = d.substr(8);
        if (n.size() >= 2 && n.front() == '"' && n.back() == '"') n = n.substr(1, n.size() - 2);
        if (n.empty() || n.size() > 12 || !std::all_of(n.begin(), n.end(), [](char c) { return c >= '0' && c <= '9'; }))
          continue;  // malformed: ignored
        secs = std::stoll(std::string(n));
      }
      if (secs && (!out || *secs < out->count())) out = std::chrono::seconds(*secs);
    }
  }
  return out;
}

RobotsEntry RobotsPolicy::on_fetch(const RobotsFetchOutcome& outcome, std::chrono::system_clock::time_point now,
                                   const RobotsEntry* previous) const {
  RobotsEntry e;
  e.fetched = now;
  const int status = outcome.status;
  const bool unreachable = outcome.network_error || status == 0 || status == 429 || status >= 500;

  if (!unreachable && status >= 200 && status < 300) {
    e.rules = RobotsRules::parse(outcome.body, options_.user_agent_token);
    e.source = RobotsSource::kParsed;
    e.expires = now + kept_for(outcome);
    e.parsed_at = now;
    e.reason = std::to_string(status) + ": parsed";
    return e;
  }
  if (!unreachable && (outcome.too_many_redirects || (status >= 300 && status < 500))) {
    e.rules = RobotsRules::allow_all();
    e.source = RobotsSource::kUnavailable;
    e.expires = now + kept_for(outcome);
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
