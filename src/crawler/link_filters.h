// Link filters: the cheap decisions the crawl loop makes about a discovered
// URL before it enters the frontier. All pure functions of the URL (and, for
// CalendarTrapDetector, of what was seen before); nothing here fetches.
//
// Rules, each with the reason name the crawl loop logs:
//
// * "off-host" (HostScope): with --same-host or --allow-host, a URL must
//   have the authority (host and non-default port, CanonicalUrl::authority())
//   of one of the seeds; every --allow-host pattern adds hosts to these: "example.pt" matches that
//   host on any port, "example.pt:8080" only that port, "*.example.pt" the
//   host and all its subdomains. IDN patterns are converted to punycode. With
//   neither option every host is in scope. Seeds are fetched regardless.
// * "not-html" (surely_not_html): the last path segment ends in an extension
//   that is never an HTML page (images, audio, video, archives, office
//   documents, PDF, fonts, scripts, style sheets, executables); compared
//   without case. No extension, or .html/.php/.asp and friends, pass.
// * "long-url": the canonical URL is longer than TrapLimits::max_url_length
//   (2048 bytes by default): generated URLs that keep growing.
// * "deep-path": more than TrapLimits::max_path_depth (16) path segments.
// * "repeated-segments": a run of 1-4 segments repeated
//   TrapLimits::max_consecutive_repeats (3) times in a row (/a/a/a,
//   /a/b/a/b/a/b: relative links that resolve against themselves), or one
//   segment occurring more than max_segment_occurrences (3) times anywhere.
// * "calendar-future", "calendar-flood", "calendar-out-of-scope"
//   (CalendarTrapDetector): a URL is calendar-like when its path or query
//   has a year (1900-2199) together with a month/day number (1-31), or a
//   compact date (YYYYMMDD, YYYYMM); its pattern is the authority, path and
//   query with every digit run replaced by "#". Skipped: a year beyond
//   Limits::latest_year (a calendar running into the future); more than
//   Limits::max_urls_per_pattern new URLs of one pattern (numbers that keep
//   changing), a bound that grows by Limits::urls_per_in_scope_page for each
//   fetched page of the pattern found in scope (a dated archive of the
//   period, such as a newspaper's pages by date, is what a temporal crawl
//   looks for, not a trap); and, once the crawl loop reports scope
//   decisions, a pattern whose last Limits::max_out_of_scope_run fetched
//   pages were all out of the period (a calendar walking away from it).
// * "redirect-alias" (RedirectAliases): a queued URL, when its turn comes,
//   whose template (the scheme, authority, path and query with every digit
//   run replaced by "#" and every query value by "*") has led through
//   redirects only to pages the crawl already had: at least
//   Limits::min_chains redirect chains started by or passing through URLs
//   of the template, at least Limits::known_share of them ending on a URL
//   the crawl knew. A portal's click-through hops (/ir/123 -> /saida/123 ->
//   a site already crawled) are new URLs that bring nothing new, and
//   politeness makes each cost a slot of its host. The scheme is part of
//   the template: a site whose http links redirect to its https pages does
//   not make its https URLs aliases. Every Limits::explore_every-th URL of
//   such a template is still fetched, so a template whose hops start
//   leading to new pages is let through again; a URL reached by a redirect
//   is always followed, so the chains of the URLs explored end and are
//   counted.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "crawler/url.h"
#include "temporal/status.h"

namespace cronista::crawler {

class HostScope {
 public:
  // --same-host: restrict to the seeds' authorities.
  void set_same_host(bool on) { same_host_ = on; }
  void add_seed(const CanonicalUrl& seed);
  // --allow-host PATTERN; an error names a pattern that is not a host.
  Status allow_host(std::string_view pattern);

  // Whether any restriction is active.
  bool restricted() const { return same_host_ || !patterns_.empty(); }
  bool allows(const CanonicalUrl& url) const;

 private:
  struct Pattern {
    std::string host;  // canonical (punycode, lower case)
    int port = 0;      // 0: any port
    bool subdomains = false;
  };
  bool same_host_ = false;
  std::vector<std::string> seed_authorities_;
  std::vector<Pattern> patterns_;
};

// True when `path` (CanonicalUrl::path()) names a file that is surely not HTML.
bool surely_not_html(std::string_view path);

struct TrapLimits {
  std::size_t max_url_length = 2048;
  int max_path_depth = 16;
  int max_consecutive_repeats = 3;
  int max_segment_occurrences = 3;
};

// The static spider-trap rules ("long-url", "deep-path",
// "repeated-segments"); nullopt when none applies.
std::optional<std::string_view> static_trap_reason(const CanonicalUrl& url, const TrapLimits& limits = {});

// Stateful calendar-trap detection for one crawl. Not thread-safe. Memory is
// bounded: at most Limits::max_patterns patterns are tracked (a 64-bit hash
// and three counters each); URLs of untracked patterns are let through.
class CalendarTrapDetector {
 public:
  struct Limits {
    int latest_year;  // default: this year + 1
    int max_urls_per_pattern = 500;
    int urls_per_in_scope_page = 10;
    int max_out_of_scope_run = 20;
    std::size_t max_patterns = 200000;
    Limits();
  };

  CalendarTrapDetector() = default;
  explicit CalendarTrapDetector(Limits limits) : limits_(limits) {}

  // The pattern of a calendar-like URL (see above), or nullopt.
  static std::optional<std::string> pattern_of(const CanonicalUrl& url, int* max_year = nullptr);

  // Call once per newly discovered URL, before queueing it: the reason to
  // skip it, or nullopt (then the URL is counted against its pattern).
  std::optional<std::string_view> check(const CanonicalUrl& url);
  // The reason `check` would now give to skip a URL of the pattern, without
  // counting it: whether the pattern has been judged a trap since (the
  // pages of it fetched before are a trap's pages too).
  std::optional<std::string_view> flagged(const CanonicalUrl& url) const;
  // After a fetched calendar-like page was scoped: whether it was in scope.
  void record_scope(const CanonicalUrl& url, bool in_scope);
  // A resumed crawl: a URL `check` let through before the stop (one the
  // crawl stored), counted against its pattern again without being judged.
  // Takes the canonical URL's text; URLs that cannot be calendar-like are
  // passed over without being parsed.
  void count_again(std::string_view url);

  std::size_t tracked_patterns() const { return patterns_.size(); }

 private:
  struct Counters {
    std::uint32_t urls = 0;
    std::uint32_t out_of_scope_run = 0;  // consecutive fetched pages out of scope
    std::uint32_t in_scope = 0;          // fetched pages in scope
  };
  // The counters of a pattern, tracked from now if there is room; null
  // when Limits::max_patterns are tracked already.
  Counters* tracked(std::string_view pattern);
  // The reason a URL of a pattern with counters `c` is skipped, or nullopt.
  std::optional<std::string_view> trap_reason(const Counters& c) const;
  Limits limits_;
  std::unordered_map<std::uint64_t, Counters> patterns_;
};

// Redirect aliases of one crawl (see "redirect-alias" above). Not
// thread-safe. Memory is bounded: at most Limits::max_templates templates
// and Limits::max_pending chains under way are tracked; URLs of untracked
// templates are let through.
class RedirectAliases {
 public:
  struct Limits {
    int min_chains = 10;
    double known_share = 0.9;
    int explore_every = 8;
    std::size_t max_templates = 100000;
    std::size_t max_pending = 100000;
  };

  RedirectAliases() = default;
  explicit RedirectAliases(Limits limits) : limits_(limits) {}

  // The template of a URL: its scheme, authority, path and query with every
  // digit run replaced by "#" and every query value by "*".
  static std::string template_of(const CanonicalUrl& url);

  // A download of `url` answered by a redirect to `target`: `target_known`
  // when the crawl had the target already (the chain ends on a known page),
  // else the chain goes on through `target`.
  void on_redirect(const CanonicalUrl& url, const std::string& target, bool target_known);
  // An answer to `url` that does not lead on to a page the crawl knew: a
  // download (a page new to the crawl, or an error), or a redirect the crawl
  // does not follow (out of scope, too many hops). A chain that reached
  // `url` ends there as one that did not end on a known page.
  void on_end(const std::string& url);

  // Whether a queued URL that no redirect led to is to be dropped without a
  // request: its template is judged a redirect alias and this is not one of
  // the URLs explored (counts the URLs of the template asked about).
  bool drop(const CanonicalUrl& url);

  std::size_t judged_templates() const;

 private:
  struct Counters {
    std::uint32_t chains = 0;  // chains ended that URLs of the template started or passed
    std::uint32_t known = 0;   // of them, on a URL the crawl had
    std::uint32_t asked = 0;   // queued URLs of the template since it was judged
  };
  bool judged(const Counters& c) const;
  void end_chain(const std::vector<std::uint64_t>& templates, bool known);
  Limits limits_;
  std::unordered_map<std::uint64_t, Counters> templates_;
  std::int64_t judged_count_ = 0;  // templates_ judged now: drop() looks a URL up only when some are
  // A chain under way: the URL its last redirect named, and the templates
  // of the URLs that started it.
  std::unordered_map<std::string, std::vector<std::uint64_t>> pending_;
};

}  // namespace cronista::crawler
