// robots.txt per RFC 9309: groups by user agent (most specific product-token
// match, else "*"), Allow/Disallow with the longest match winning (Allow on a
// tie), "*" and "$" in paths, Crawl-delay (non-standard but common). Parsing
// never fails: unknown lines are ignored, a size cap of 500 KiB applies.
//
// Details: a UTF-8 BOM is skipped; lines end in LF, CR or CRLF; "#" starts a
// comment; a group is one or more user-agent lines followed by rules, and a
// user-agent line after a rule starts a new group; rules before any
// user-agent line are ignored. The product token of a user-agent line (and
// of the crawler) is its leading run of letters, "_" and "-", compared
// without case ("Cronista/1.0" names "cronista"); all groups naming us are
// combined, else all "*" groups, else everything is allowed. Patterns are
// percent-encoding-normalised like CanonicalUrl paths, so "/%7ejoao",
// "/~joao" and "/%7Ejoao" are the same rule, and non-ASCII is matched as
// UTF-8 escapes. The most specific rule is the longest pattern that matches
// (in octets, as written after normalisation); Allow wins a tie;
// "/robots.txt" is always allowed. Matching is O(pattern × path) at worst.
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
  // Sitemap URLs listed anywhere in the file (not group-specific).
  const std::vector<std::string>& sitemaps() const { return sitemaps_; }
  // Number of rules that apply to us (for logs and tests).
  std::size_t rule_count() const { return rules_.size(); }

 private:
  struct Rule {
    std::string pattern;  // normalised, without a trailing "$"
    bool allow;
    bool anchored = false;  // pattern ended in "$"
    std::size_t specificity = 0;
  };
  static bool matches(const Rule& rule, std::string_view path);
  std::vector<Rule> rules_;  // most specific first, Allow before Disallow on a tie
  std::vector<std::string> sitemaps_;
  std::optional<std::chrono::milliseconds> crawl_delay_;
  bool disallow_all_ = false;
};

}  // namespace cronista::crawler
