// The passages a crawl or a collection found, for reading rather than
// counting (`cronista export`): one record per dated segment of main text
// (page furniture left out) — or, with in_scope_only, per segment the crawl
// judged inside its period — with the page's URL, title and publication
// date, the segment's text, its temporal expressions (text, TIMEX3 type and
// value, offsets into the segment's text) and its chronons.
//
// Formats: CSV (RFC 4180, one row per passage, expressions and values joined
// by " | "), JSON Lines (one object per passage) and a self-contained HTML
// page grouped by the year the passage speaks of (its earliest placeable
// chronon), each date highlighted in its sentence, with a list of years and,
// per year, a concordance of the dates in context (keyword in context).
// Output is streamed: memory stays small whatever the database's size.
#pragma once

#include <cstdint>
#include <ostream>
#include <string>
#include <string_view>

#include "store/database.h"
#include "temporal/status.h"

namespace cronista::corpus {

enum class ExportFormat { Csv, Jsonl, Html };

Result<ExportFormat> parse_export_format(std::string_view name);

struct ExportOptions {
  ExportFormat format = ExportFormat::Jsonl;
  bool in_scope_only = false;  // segments the crawl judged in its period only
  std::string title;           // the HTML page's heading context (the database's name)
};

struct ExportStats {
  std::int64_t passages = 0;
  std::int64_t documents = 0;     // distinct documents with at least one passage
  std::int64_t without_text = 0;  // passages of a database that kept no segment text
};

// Writes the passages of `db` (analysis schema) to `out`. Errors: the
// database is not an analysis database; in_scope_only on a database whose
// segments no period applies to (a collection); a failed query or write.
Result<ExportStats> export_passages(store::Database& db, const ExportOptions& options, std::ostream& out);

}  // namespace cronista::corpus
