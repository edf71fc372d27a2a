// The crawl statistics of method.md §4 (table "8.2" of `cronista report`),
// computed from a crawl database: total processing time, mean time per page,
// collection size, mean page size, mean segments per page, share of segments
// in scope, mean chronons per page; and the fetch statistics the method asks
// to keep: status codes, time-outs and other errors by kind.
#pragma once

#include <cstdint>
#include <map>
#include <string>

#include "store/database.h"
#include "temporal/status.h"

namespace cronista::crawler {

struct CrawlStats {
  std::string mode;             // "temporal" or "general" (of the last run)
  std::string period_from, period_to;
  std::int64_t runs = 0;        // 1 + number of resumptions
  double total_seconds = 0;     // summed over runs (start to end)
  std::int64_t pages = 0;       // downloads (history)
  std::int64_t analysed_pages = 0;  // HTML pages analysed
  std::int64_t relevant_pages = 0;
  double precision = 0;         // relevant / pages
  double mean_seconds_per_page = 0;  // total_seconds / pages
  double mean_fetch_ms = 0;     // mean transfer time of the downloads
  std::int64_t collection_bytes = 0;  // sum of the downloaded bodies
  double mean_page_bytes = 0;
  double mean_segments_per_page = 0;     // over analysed pages
  std::int64_t segments = 0, segments_in_scope = 0;
  double in_scope_share = 0;             // segments_in_scope / segments
  double mean_chronons_per_page = 0;     // over analysed pages
  std::int64_t links = 0, links_kept = 0;
  std::int64_t fetches = 0;              // every transfer recorded (downloads, redirects, errors)
  std::int64_t timeouts = 0;
  std::int64_t redirects = 0;
  std::map<int, std::int64_t> status_codes;          // HTTP status → fetches (0 = no response)
  std::map<std::string, std::int64_t> errors;        // error kind → fetches
  std::int64_t queued = 0;                           // URLs left in the frontier
  std::int64_t discovered = 0;                       // URLs ever seen
};

// Whether the database holds crawl tables (a crawl database, not a collection).
bool is_crawl_database(store::Database& db);

Result<CrawlStats> compute_crawl_stats(store::Database& db);

}  // namespace cronista::crawler
