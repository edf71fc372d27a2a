// How well a revisiting crawl tells a changed page from an unchanged one,
// on the living sample web: the crawl's own verdicts (crawl --revisit
// databases: pages.changed, one per full download of a page it had
// downloaded before) against the truth, the main-content versions the
// server's request log says it served.
//
// A verdict is matched to the log page by page: a page's full downloads
// (status 200) in the databases, in fetch order, are its 200 responses in
// the log, in time order. The truth of the i-th download's verdict is
// whether the version served then differs from the version served at the
// download before it (the copy the crawl compared it with). A page whose
// downloads and 200s differ in number (a transfer cut after the server
// logged it, a database of another crawl) is left out and counted.
#pragma once

#include <string>
#include <vector>

#include "eval/revisit_eval.h"
#include "sampleweb/living_web.h"
#include "temporal/status.h"

namespace cronista::eval {

struct ChangeCounts {
  std::string change_class;  // "all" or a page class of the truth
  long judged = 0;           // downloads with a verdict, matched to the log
  long changed = 0;          // of them, a version other than the download before's
  long called_changed = 0;   // changed ones the crawl called changes
  long unchanged = 0;        // the others
  long called_unchanged_changed = 0;  // unchanged ones the crawl called changes
  double recall() const { return changed ? static_cast<double>(called_changed) / static_cast<double>(changed) : 0; }
  double false_rate() const {
    return unchanged ? static_cast<double>(called_unchanged_changed) / static_cast<double>(unchanged) : 0;
  }
};

struct ChangeDetection {
  std::vector<ChangeCounts> classes;  // "all" first, then by class name
  long pages = 0;            // pages of the truth the databases downloaded
  long unmatched_pages = 0;  // left out: downloads and the log's 200s differ in number
};

// `dbs`: the crawl's databases (one, or a shared crawl's shards, merged by
// fetch time); `log`: read_request_log() of the same run's server.
Result<ChangeDetection> change_detection(const sampleweb::LivingTruth& truth, const std::vector<ServedRequest>& log,
                                         const std::vector<std::string>& dbs);

// A Markdown section and a CSV (one row per class).
std::string change_detection_markdown(const ChangeDetection& d);
std::string change_detection_csv(const ChangeDetection& d);

}  // namespace cronista::eval
