// robots.txt per RFC 9309: groups by user agent (most specific product-token
// match, else "*"), Allow/Disallow with the longest match winning (Allow on a
// tie), "*" and "$" in paths, Crawl-delay (non-standard but common). Parsing
// never fails: unknown lines are ignored, a size cap of 500 KiB applies.
#pragma once

#include <chrono>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace cronista::crawler {

class RobotsRules {
 public:
  // Rules from a robots.txt body, for the given crawler product token
  // (e.g. "cronista").
  static RobotsRules parse(std::string_view body, std::string_view user_agent_token);
  // What the status of the robots.txt fetch implies (RFC 9309 §2.3.1):
  // 4xx → allow everything; 5xx or unreachable → disallow everything.
  static RobotsRules allow_all();
  static RobotsRules disallow_all();

  // path_and_query as in CanonicalUrl::path_and_query().
  bool allowed(std::string_view path_and_query) const;
  std::optional<std::chrono::milliseconds> crawl_delay() const { return crawl_delay_; }

 private:
  struct Rule {
    std::string pattern;
    bool allow;
  };
  std::vector<Rule> rules_;
  std::optional<std::chrono::milliseconds> crawl_delay_;
  bool disallow_all_ = false;
};

}  // namespace cronista::crawler
