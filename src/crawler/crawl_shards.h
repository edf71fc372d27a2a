// The shards of one shared crawl read as one database. Each worker of a
// `crawl --frontier … --crawl-id NAME` writes its own crawl database (its
// shard); merge_shards copies them into one in-memory database with the
// crawl schema's tables, so that anything reading a crawl database (the
// report, eval-crawl) reads the whole crawl:
//   - downloads (pages, history) are renumbered across shards in the order of
//     their wall-clock fetch time (pages.fetched_at / history.fetched_at, in
//     milliseconds), ties broken by shard then by the shard's own order;
//   - hosts are one row per authority (the first shard's robots fields);
//   - every other row keeps its shard's identity: ids are offset per shard
//     and the references to them (doc_id, segment_id, url_id, run_id…)
//     follow.
// Shards of different crawls are refused: every shard must record the same
// --crawl-id, and the same mode and period in its runs.
#pragma once

#include <string>
#include <vector>

#include "store/database.h"
#include "temporal/status.h"

namespace cronista::crawler {

// One path: that database opened read-only, as it is. Several: the merged
// in-memory database, or a one-line error naming the shard that differs.
Result<store::Database> open_shards(const std::vector<std::string>& paths);

}  // namespace cronista::crawler
