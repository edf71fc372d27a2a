// RobotsRules: a line-oriented RFC 9309 parser that keeps only the rules of
// the groups that apply to our product token, sorted most specific first so
// that allowed() stops at the first matching rule. Matching is a glob match
// ("*" any run of octets, a final "$" anchors the end) with one backtrack
// point, as in the usual wildcard algorithm.
#include "crawler/robots.h"

#include "crawler/ascii.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>

namespace cronista::crawler {
namespace {

constexpr std::size_t kMaxRobotsBytes = 500 * 1024;
constexpr double kMaxCrawlDelaySeconds = 86400;
constexpr std::size_t kMaxPatternBytes = 4096;

std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
  return s;
}

// The product token: leading letters, "_" and "-" ("Googlebot/2.1" → "Googlebot").
std::string_view product_token(std::string_view value) {
  value = trim(value);
  std::size_t n = 0;
  while (n < value.size()) {
    const char c = value[n];
    if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || c == '-')) break;
    ++n;
  }
  return value.substr(0, n);
}

int hex_value(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

bool is_unreserved(unsigned char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' || c == '.' ||
         c == '_' || c == '~';
}

// Characters that CanonicalUrl leaves literal in a path or query.
bool is_literal(unsigned char c) {
  if (is_unreserved(c)) return true;
  switch (c) {
    case '!': case '$': case '&': case '\'': case '(': case ')': case '*': case '+': case ',': case ';':
    case '=': case ':': case '@': case '/': case '?':
      return true;
    default:
      return false;
  }
}

// The same percent-encoding normalisation as CanonicalUrl (a stray "%" is
// taken literally, i.e. as %25).
std::string normalize_path(std::string_view in) {
  static constexpr char kHex[] = "0123456789ABCDEF";
  std::string out;
  out.reserve(in.size());
  for (std::size_t i = 0; i < in.size(); ++i) {
    const unsigned char c = static_cast<unsigned char>(in[i]);
    if (c == '%' && i + 2 < in.size() && hex_value(in[i + 1]) >= 0 && hex_value(in[i + 2]) >= 0) {
      const unsigned char d = static_cast<unsigned char>(hex_value(in[i + 1]) * 16 + hex_value(in[i + 2]));
      if (is_unreserved(d)) {
        out.push_back(static_cast<char>(d));
      } else {
        out.push_back('%');
        out.push_back(kHex[d >> 4]);
        out.push_back(kHex[d & 15]);
      }
      i += 2;
    } else if (is_literal(c)) {
      out.push_back(static_cast<char>(c));
    } else {
      out.push_back('%');
      out.push_back(kHex[c >> 4]);
      out.push_back(kHex[c & 15]);
    }
  }
  return out;
}

bool needs_normalizing(std::string_view path) {
  for (char ch : path) {
    const unsigned char c = static_cast<unsigned char>(ch);
    if (c == '%' || !is_literal(c)) return true;
  }
  return false;
}

enum class Key { kUserAgent, kAllow, kDisallow, kCrawlDelay, kSitemap, kOther };

Key classify(std::string_view key) {
  std::string k;
  for (char c : key) k.push_back(ascii_lower(c));
  if (k == "user-agent" || k == "useragent" || k == "user agent") return Key::kUserAgent;
  if (k == "allow") return Key::kAllow;
  // Common misspellings that other parsers (Google's among them) accept.
  if (k == "disallow" || k == "dissallow" || k == "dissalow" || k == "disalow" || k == "diasllow" ||
      k == "disallaw")
    return Key::kDisallow;
  if (k == "crawl-delay" || k == "crawldelay" || k == "crawl delay") return Key::kCrawlDelay;
  if (k == "sitemap" || k == "site-map") return Key::kSitemap;
  return Key::kOther;
}

struct ParsedRule {
  std::string pattern;
  bool allow;
};

struct Group {
  std::vector<std::string> agents;  // product tokens, or "*"
  std::vector<ParsedRule> rules;
  std::optional<double> crawl_delay_seconds;
  bool has_members = false;  // a rule or crawl-delay was seen
};

}  // namespace

RobotsRules RobotsRules::parse(std::string_view body, std::string_view user_agent_token) {
  if (body.size() > kMaxRobotsBytes) body = body.substr(0, kMaxRobotsBytes);
  if (body.substr(0, 3) == "\xEF\xBB\xBF") body.remove_prefix(3);
  const std::string_view me = product_token(user_agent_token);

  RobotsRules result;
  std::vector<Group> groups;
  std::size_t pos = 0;
  while (pos < body.size()) {
    std::size_t end = body.find_first_of("\r\n", pos);
    if (end == std::string_view::npos) end = body.size();
    std::string_view line = body.substr(pos, end - pos);
    pos = end;
    if (pos < body.size() && body[pos] == '\r') ++pos;
    if (pos < body.size() && body[pos] == '\n') ++pos;

    if (const std::size_t hash = line.find('#'); hash != std::string_view::npos) line = line.substr(0, hash);
    const std::size_t colon = line.find(':');
    if (colon == std::string_view::npos) continue;  // garbage
    const Key key = classify(trim(line.substr(0, colon)));
    const std::string_view value = trim(line.substr(colon + 1));
    switch (key) {
      case Key::kUserAgent: {
        if (groups.empty() || groups.back().has_members) groups.emplace_back();
        const std::string_view token = value.substr(0, 1) == "*" ? std::string_view("*") : product_token(value);
        if (!token.empty()) groups.back().agents.emplace_back(token);
        break;
      }
      case Key::kAllow:
      case Key::kDisallow:
        if (groups.empty()) break;  // rules before any user-agent line
        groups.back().has_members = true;
        if (!value.empty()) groups.back().rules.push_back({std::string(value), key == Key::kAllow});
        break;
      case Key::kCrawlDelay: {
        if (groups.empty()) break;
        groups.back().has_members = true;
        const std::string text(value);
        char* endp = nullptr;
        const double seconds = std::strtod(text.c_str(), &endp);
        if (endp != text.c_str() && std::isfinite(seconds) && seconds >= 0 && !groups.back().crawl_delay_seconds)
          groups.back().crawl_delay_seconds = std::min(seconds, kMaxCrawlDelaySeconds);
        break;
      }
      case Key::kSitemap:
        if (!value.empty()) result.sitemaps_.emplace_back(value);
        break;
      case Key::kOther:
        break;
    }
  }

  // The groups that name us, else the "*" groups.
  auto select = [&](bool wildcard) {
    std::vector<const Group*> chosen;
    for (const Group& g : groups) {
      for (const std::string& a : g.agents) {
        if (wildcard ? a == "*" : (!me.empty() && iequals(a, me))) {
          chosen.push_back(&g);
          break;
        }
      }
    }
    return chosen;
  };
  std::vector<const Group*> chosen = select(false);
  if (chosen.empty()) chosen = select(true);

  for (const Group* g : chosen) {
    if (g->crawl_delay_seconds && !result.crawl_delay_)
      result.crawl_delay_ = std::chrono::milliseconds(std::llround(*g->crawl_delay_seconds * 1000));
    for (const ParsedRule& r : g->rules) {
      std::string_view p = r.pattern;
      Rule rule;
      rule.allow = r.allow;
      if (p.size() > 0 && p.back() == '$') {
        rule.anchored = true;
        p.remove_suffix(1);
      }
      rule.pattern = normalize_path(p);
      // "**" is "*"; over-long patterns (no URL is that long) are dropped so
      // that matching stays cheap on hostile files.
      rule.pattern.erase(std::unique(rule.pattern.begin(), rule.pattern.end(),
                                     [](char a, char b) { return a == '*' && b == '*'; }),
                         rule.pattern.end());
      if (rule.pattern.size() > kMaxPatternBytes) continue;
      if (rule.pattern.empty() || (rule.pattern[0] != '/' && rule.pattern[0] != '*'))
        rule.pattern.insert(0, 1, '/');
      rule.specificity = rule.pattern.size() + (rule.anchored ? 1 : 0);
      result.rules_.push_back(std::move(rule));
    }
  }
  std::stable_sort(result.rules_.begin(), result.rules_.end(), [](const Rule& a, const Rule& b) {
    if (a.specificity != b.specificity) return a.specificity > b.specificity;
    return a.allow && !b.allow;
  });
  return result;
}

RobotsRules RobotsRules::allow_all() { return RobotsRules(); }

RobotsRules RobotsRules::disallow_all() {
  RobotsRules r;
  r.disallow_all_ = true;
  return r;
}

bool RobotsRules::matches(const Rule& rule, std::string_view path) {
  // Glob match of rule.pattern (+ implicit "*" unless anchored) against path.
  const std::string_view p = rule.pattern;
  std::size_t pi = 0, si = 0;
  std::size_t star = std::string_view::npos, resume = 0;
  while (true) {
    if (pi < p.size() && p[pi] == '*') {
      star = pi++;
      resume = si;
      continue;
    }
    if (pi == p.size()) {
      if (!rule.anchored || si == path.size()) return true;  // prefix match, or exact end
    } else if (si < path.size() && p[pi] == path[si]) {
      ++pi;
      ++si;
      continue;
    }
    if (star == std::string_view::npos || resume >= path.size()) return false;
    pi = star + 1;
    si = ++resume;
  }
}

bool RobotsRules::allowed(std::string_view path_and_query) const {
  if (disallow_all_) return false;
  if (rules_.empty()) return true;
  std::string storage;
  if (needs_normalizing(path_and_query)) {
    storage = normalize_path(path_and_query);
    path_and_query = storage;
  }
  if (path_and_query.empty()) path_and_query = "/";
  if (path_and_query == "/robots.txt") return true;
  for (const Rule& r : rules_)
    if (matches(r, path_and_query)) return r.allow;
  return true;
}

}  // namespace cronista::crawler
