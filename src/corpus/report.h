// The temporal analysis report of a collection or crawl database: the tables
// of method.md §5 (6.1–6.16) computed from the analysis tables (documents,
// expressions, segments, chronons, links), plus the crawl statistics ("8.2")
// when the database holds a crawl. docs/report.md defines every table and
// row precisely, where the method leaves room.
//
// The report is computed once into a format-neutral CollectionReport (a list
// of tables of named rows) and then rendered as Markdown, JSON (one top-level
// key per table number, rows named as in the table) or a self-contained HTML
// page with inline SVG charts. Computation streams over the tables with a
// handful of aggregate queries, so memory stays small for large collections
// (the per-document state it keeps is a few counters per table row).
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

#include "store/database.h"
#include "temporal/status.h"

namespace cronista::corpus {

// One cell: empty, a count, a measure (mean, share in %) or a label.
using ReportValue = std::variant<std::monostate, std::int64_t, double, std::string>;

struct ReportRow {
  std::string name;                 // as named in the table ("9 or more", "1st quartile"…)
  std::vector<ReportValue> values;  // one per column
};

struct ReportTable {
  std::string id;     // "6.1" … "6.16", "8.2"
  std::string title;
  std::vector<std::string> columns;  // column names, used as JSON keys of each row
  std::vector<ReportRow> rows;
  std::string note;  // how the figures were computed, one or two sentences
};

struct CollectionReport {
  std::string database;  // path of the database reported on
  std::vector<ReportTable> tables;
  std::vector<std::string> notes;  // report-wide remarks (e.g. no crawl tables)
  // For the timeline chart: documents per year of content time (the median
  // year of the dates they mention) and per year of creation date.
  std::map<int, std::int64_t> content_years;
  std::map<int, std::int64_t> creation_years;
  // For a crawl: (pages downloaded, precision so far) at each checkpoint.
  std::vector<std::pair<std::int64_t, double>> precision_curve;

  const ReportTable* table(std::string_view id) const;
};

// Whether a dct_source names a creation/publication date ("http-last-modified",
// "meta", "wpt03-last-modified", "jsonl"…) rather than a retrieval date
// ("warc-date", "wpt03-dataRec", "fetch-time"): retrieval dates anchor
// deictic expressions but are not creation dates (table 6.2).
bool is_creation_date_source(std::string_view dct_source);

// Computes every table. The database must carry the analysis schema.
Result<CollectionReport> compute_report(store::Database& db);

std::string render_markdown(const CollectionReport& report);
// {"6.1": {"<row>": {"<column>": value, …}, …}, …, "notes": […]}
std::string render_json(const CollectionReport& report);
// One self-contained page: tables plus inline SVG bar charts; no network.
std::string render_html(const CollectionReport& report);

}  // namespace cronista::corpus
