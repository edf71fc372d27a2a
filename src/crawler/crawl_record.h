// What a crawl database records about its own crawl, read apart from a
// running crawl (a read-only connection):
//   - the arguments each run was started with (runs.args, a JSON array), so
//     that `cronista crawl --resume --db DB` needs nothing else;
//   - after a run, the fate of each seed and the hosts that could not be
//     reached, for the summary;
//   - whether a database holds any fetched page (a crawl that failed before
//     fetching anything leaves no database behind).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "temporal/status.h"

namespace cronista::crawler {

// The runs of a crawl, oldest first: each run's arguments as given on its
// command line (without the program and command names), and the crawl's
// seeds (the URLs queued at depth 0 without a redirect).
struct StoredCrawl {
  std::vector<std::vector<std::string>> run_args;
  std::vector<std::string> seeds;
  // Some run recorded its command line as plain text (an older cronista):
  // its arguments are unknown and must be given again.
  bool unrecorded_args = false;
};

// The crawl recorded in `db_path`; nullopt when there is no such file or it
// holds no crawl.
Result<std::optional<StoredCrawl>> read_stored_crawl(const std::string& db_path);

// A duration as people read it: "42s", "3m05s", "1h02m40s".
std::string clock_time(double seconds);

// The arguments as runs.args stores them, and back.
std::string encode_args(const std::vector<std::string>& args);
Result<std::vector<std::string>> decode_args(const std::string& text);

struct SeedFate {
  std::string url;
  std::string fate;  // "downloaded (HTTP 200, relevant)", "not fetched: robots.txt unreachable (…)"…
  bool downloaded = false;  // an HTTP response that is not a redirect, at the end of its redirects
};

struct UnreachableHost {
  std::string authority;
  std::string reason;  // "robots.txt: 0: unreachable (…)", "connect: Connection refused"
};

struct CrawlOutcome {
  std::vector<SeedFate> seeds;
  std::vector<UnreachableHost> unreachable;
  std::int64_t pages = 0;  // downloads over every run
  std::int64_t bytes = 0;  // bodies fetched over every run
};

// What became of each seed of the crawl in `db_path`, and which hosts could
// not be reached (a network error on robots.txt or on every page fetched
// from it).
Result<CrawlOutcome> crawl_outcome(const std::string& db_path);

}  // namespace cronista::crawler
