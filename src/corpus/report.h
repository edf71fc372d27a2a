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

// What the HTML page shows besides the tables (report_reading.cc): a
// summary card, the crawl's hosts and seeds, the most frequent dates and
// expressions, and a timeline of the years the content speaks of.
struct ReportReading {
  std::string generated_at;  // ISO 8601 UTC
  std::string version;       // cronista's
  std::int64_t documents = 0, expressions = 0, segments = 0, dated_segments = 0;
  // Crawl only.
  bool crawl = false;
  std::string mode, period_from, period_to;
  double threshold = 0;
  std::int64_t pages = 0, relevant = 0;
  double elapsed_seconds = 0;
  struct Host {
    std::string authority;
    std::int64_t pages = 0, relevant = 0, errors = 0;
    std::string robots;
  };
  std::vector<Host> hosts;        // most pages first, at most 25
  std::int64_t more_hosts = 0;    // hosts left out of `hosts`
  struct Seed {
    std::string url, fate;
    bool downloaded = false;
  };
  std::vector<Seed> seeds;
  // Both collections and crawls.
  std::vector<std::pair<std::string, std::int64_t>> top_dates;        // chronon value (day or month) → segments
  std::vector<std::pair<std::string, std::int64_t>> top_expressions;  // expression text → occurrences
  std::map<int, std::int64_t> year_mentions;  // year → segments speaking of it (dates of a year or finer)
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
  ReportReading reading;

  const ReportTable* table(std::string_view id) const;
};

// Whether a dct_source names a creation/publication date ("http-last-modified",
// "meta", "wpt03-last-modified", "jsonl"…) rather than a retrieval date
// ("warc-date", "wpt03-dataRec", "fetch-time"): retrieval dates anchor
// deictic expressions but are not creation dates (table 6.2).
bool is_creation_date_source(std::string_view dct_source);

// Computes every table. The database must carry the analysis schema.
Result<CollectionReport> compute_report(store::Database& db);
// Fills report.reading (report_reading.cc); compute_report calls it.
Status compute_reading(store::Database& db, CollectionReport& report);

// A cell as the Markdown and HTML tables print it ("12", "3.50", "41.20%").
std::string format_report_value(const ReportValue& v, bool percent);

std::string render_markdown(const CollectionReport& report);
// {"6.1": {"<row>": {"<column>": value, …}, …}, …, "notes": […]}
std::string render_json(const CollectionReport& report);
// One self-contained page for reading (report_html.cc): a summary card, a
// contents list, the crawl's own figures, the timeline and frequent dates,
// then each table beside its chart (responsive SVG); no script, no network.
std::string render_html(const CollectionReport& report);

}  // namespace cronista::corpus
