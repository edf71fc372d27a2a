// Computing the report: a few aggregate queries and two streamed passes
// (documents with their counts; chronons ordered by document). Quartiles,
// granularities and content-time bins are decided in C++ so that every rule
// sits in one place and matches docs/report.md.
#include "corpus/report.h"

#include <algorithm>
#include <array>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <limits>
#include <map>
#include <set>
#include <nlohmann/json.hpp>

#include "crawler/crawl_stats.h"
#include "crawler/crawl_store.h"
#include "revisit/change_rate.h"
#include "temporal/chronon.h"
#include "temporal/scope.h"
#include "temporal/xml_escape.h"

namespace cronista::corpus {

using store::Database;
using store::Statement;
using temporal::Chronon;
using temporal::Date;

const ReportTable* CollectionReport::table(std::string_view id) const {
  for (const ReportTable& t : tables)
    if (t.id == id) return &t;
  return nullptr;
}

bool is_creation_date_source(std::string_view src) {
  static constexpr std::array<std::string_view, 6> kRetrieval = {
      "warc-date", "wpt03-dataRec", "fetch-time", "crawl-time", "retrieved", "file-mtime"};
  if (src.empty()) return true;  // a date of unknown provenance counts as given by the collection
  return std::find(kRetrieval.begin(), kRetrieval.end(), src) == kRetrieval.end();
}

namespace {

double share(std::int64_t part, std::int64_t whole) {
  return whole > 0 ? 100.0 * static_cast<double>(part) / static_cast<double>(whole) : 0.0;
}
ReportValue mean(double sum, std::int64_t n) {
  if (n <= 0) return std::monostate{};
  return sum / static_cast<double>(n);
}
ReportRow count_row(std::string name, std::int64_t n, std::int64_t total) {
  return ReportRow{std::move(name), {n, share(n, total)}};
}
int quartile(std::int64_t pos, std::int64_t size) {
  if (size <= 0) return 0;
  auto q = static_cast<int>((4 * std::max<std::int64_t>(pos, 0)) / size);
  return std::clamp(q, 0, 3);
}

// Counts of positions by quartile of their document, for the position tables.
struct QuartileCounts {
  std::array<std::int64_t, 4> counts{};
  std::int64_t total = 0;

  void add(std::int64_t pos, std::int64_t size) {
    ++counts[static_cast<std::size_t>(quartile(pos, size))];
    ++total;
  }
  std::vector<ReportRow> rows() const {
    static constexpr std::array<const char*, 4> kNames = {"1st quartile", "2nd quartile", "3rd quartile",
                                                          "4th quartile"};
    std::vector<ReportRow> out;
    for (std::size_t i = 0; i < 4; ++i) out.push_back(count_row(kNames[i], counts[i], total));
    return out;
  }
};

Status query_error(const Database& db, const Status& s) {
  return Status::Error("database '" + db.path() + "': " + s.message());
}

Result<std::int64_t> scalar(Database& db, std::string_view sql) {
  auto st = db.prepare(sql);
  if (!st.ok()) return query_error(db, st.status());
  std::int64_t v = 0;
  if (st->step()) v = st->column_int(0);
  if (!st->status().ok()) return query_error(db, st->status());
  return v;
}

// Runs `sql` and hands every row to `fn`.
template <typename Fn>
Status each_row(Database& db, std::string_view sql, Fn&& fn) {
  auto st = db.prepare(sql);
  if (!st.ok()) return query_error(db, st.status());
  while (st->step()) fn(*st);
  if (!st->status().ok()) return query_error(db, st->status());
  return Status::Ok();
}

int year_of_day(std::int64_t day) { return Date::from_day_number(static_cast<temporal::DayNumber>(day)).year; }

// The 6.15 bins: before 1900, decades up to the reference year's decade,
// recent years (that decade up to the reference year), future.
struct ContentBins {
  int reference_year;
  int recent_from() const { return reference_year - ((reference_year % 10) + 10) % 10; }
  std::size_t decades() const { return recent_from() > 1900 ? static_cast<std::size_t>((recent_from() - 1900) / 10) : 0; }
  std::size_t count() const { return decades() + 3; }  // before 1900, decades…, recent, future
  std::size_t bin(int year) const {
    if (year < 1900) return 0;
    if (year > reference_year) return decades() + 2;
    if (year >= recent_from()) return decades() + 1;
    return 1 + static_cast<std::size_t>((year - 1900) / 10);
  }
  std::string name(std::size_t i) const {
    if (i == 0) return "before 1900";
    if (i == decades() + 1) return "recent years";
    if (i == decades() + 2) return "future";
    return std::to_string(1900 + 10 * static_cast<int>(i - 1)) + "s";
  }
  std::pair<ReportValue, ReportValue> range(std::size_t i) const {
    if (i == 0) return {std::monostate{}, std::int64_t{1899}};
    if (i == decades() + 1) return {std::int64_t{recent_from()}, std::int64_t{reference_year}};
    if (i == decades() + 2) return {std::int64_t{reference_year + 1}, std::monostate{}};
    std::int64_t from = 1900 + 10 * static_cast<std::int64_t>(i - 1);
    return {from, from + 9};
  }
};

class ReportBuilder {
 public:
  explicit ReportBuilder(Database& db) : db_(db) {}

  Result<CollectionReport> run() {
    report_.database = db_.path();
    for (const char* table : {"documents", "expressions", "segments", "chronons", "links"}) {
      auto present = db_.has_table(table);
      if (!present.ok()) return query_error(db_, present.status());
      if (*present) continue;
      return Result<CollectionReport>::Error("database '" + db_.path() +
                                             "' has no analysis tables (not built by cronista build or crawl)");
    }
    for (Status (ReportBuilder::*step)() :
         {&ReportBuilder::documents_pass, &ReportBuilder::expression_tables, &ReportBuilder::granularity_table,
          &ReportBuilder::segment_tables, &ReportBuilder::link_tables, &ReportBuilder::content_time_table,
          &ReportBuilder::creation_date_table}) {
      if (Status s = (this->*step)(); !s.ok()) return s;
    }
    std::sort(report_.tables.begin(), report_.tables.end(), [](const ReportTable& a, const ReportTable& b) {
      auto key = [](const std::string& id) {
        auto dot = id.find('.');
        return std::pair(std::stoi(id.substr(0, dot)), std::stoi(id.substr(dot + 1)));
      };
      return key(a.id) < key(b.id);
    });
    if (Status s = compute_reading(db_, report_); !s.ok()) return s;
    if (crawler::is_crawl_database(db_)) {
      if (Status s = crawl_table(); !s.ok()) return s;
      if (Status s = freshness_tables(); !s.ok()) return s;
    } else {
      report_.notes.push_back("Crawl statistics (8.2) are not reported: this database has no crawl tables.");
    }
    return std::move(report_);
  }

 private:
  // One pass over documents: 6.1, 6.2, 6.3, 6.5, 6.6, 6.13.
  Status documents_pass() {
    std::int64_t docs = 0, temporal_docs = 0, exprs = 0, exprs_in_temporal = 0, resolved_in_temporal = 0;
    std::int64_t creation = 0, retrieval_only = 0;
    std::array<std::int64_t, 10> by_exprs{};
    std::array<std::int64_t, 6> by_links{};
    Status s = each_row(db_,
                        "SELECT d.dct, d.dct_source, "
                        "(SELECT count(*) FROM expressions e WHERE e.doc_id = d.id), "
                        "(SELECT count(*) FROM expressions e WHERE e.doc_id = d.id AND e.resolved = 1), "
                        "(SELECT count(*) FROM links l WHERE l.doc_id = d.id) "
                        "FROM documents d",
                        [&](Statement& r) {
                          ++docs;
                          if (!r.column_is_null(0)) {
                            auto date = Date::parse(r.column_text(0));
                            if (date && is_creation_date_source(r.column_is_null(1) ? "" : r.column_text(1))) {
                              ++creation;
                              ++report_.creation_years[date->year];
                            } else if (date) {
                              ++retrieval_only;
                            }
                          }
                          const std::int64_t n = r.column_int(2), resolved = r.column_int(3), links = r.column_int(4);
                          exprs += n;
                          if (n > 0) {
                            ++temporal_docs;
                            exprs_in_temporal += n;
                            resolved_in_temporal += resolved;
                          }
                          ++by_exprs[static_cast<std::size_t>(std::min<std::int64_t>(n, 9))];
                          std::size_t lb = links == 0 ? 0 : links <= 10 ? 1 : links <= 20 ? 2 : links <= 50 ? 3
                                                        : links <= 100 ? 4 : 5;
                          ++by_links[lb];
                        });
    if (!s.ok()) return s;
    docs_ = docs;
    docs_with_creation_ = creation;

    add({"6.1", "Documents with temporal information", {"documents", "share"},
         {count_row("with temporal information", temporal_docs, docs),
          count_row("without temporal information", docs - temporal_docs, docs), count_row("all documents", docs, docs)},
         "A document has temporal information when the tagger found at least one temporal expression in it."});
    add({"6.2", "Documents with and without a creation date", {"documents", "share"},
         {count_row("with creation date", creation, docs), count_row("without creation date", docs - creation, docs),
          count_row("with a retrieval date only", retrieval_only, docs)},
         "Creation dates come from the collection's metadata or the page (Last-Modified, <meta>, <time>, a date "
         "field); retrieval dates (WARC-Date, dataRec) anchor the tagger but are not creation dates."});
    add({"6.3", "Mean temporal expressions per document", {"expressions", "documents", "mean"},
         {ReportRow{"per document", {exprs, docs, mean(static_cast<double>(exprs), docs)}},
          ReportRow{"per document with temporal information",
                    {exprs_in_temporal, temporal_docs, mean(static_cast<double>(exprs_in_temporal), temporal_docs)}}},
         ""});
    add({"6.5", "Mean resolved expressions per document with temporal information",
         {"resolved expressions", "documents", "mean"},
         {ReportRow{"per document with temporal information",
                    {resolved_in_temporal, temporal_docs,
                     mean(static_cast<double>(resolved_in_temporal), temporal_docs)}}},
         ""});
    ReportTable t66{"6.6", "Documents by number of temporal expressions", {"documents", "share"}, {}, ""};
    for (std::size_t i = 0; i < by_exprs.size(); ++i)
      t66.rows.push_back(count_row(i == 9 ? "9 or more" : std::to_string(i), by_exprs[i], docs));
    add(std::move(t66));
    static constexpr std::array<const char*, 6> kLinkBins = {"0", "1-10", "11-20", "21-50", "51-100", "more than 100"};
    ReportTable t613{"6.13", "Documents by number of links", {"documents", "share"}, {}, ""};
    for (std::size_t i = 0; i < by_links.size(); ++i) t613.rows.push_back(count_row(kLinkBins[i], by_links[i], docs));
    add(std::move(t613));
    return Status::Ok();
  }

  // 6.4 and 6.7.
  Status expression_tables() {
    auto total = scalar(db_, "SELECT count(*) FROM expressions");
    auto resolved = scalar(db_, "SELECT count(*) FROM expressions WHERE resolved = 1");
    if (!total.ok()) return total.status();
    if (!resolved.ok()) return resolved.status();
    add({"6.4", "Temporal expressions resolved and unresolved", {"expressions", "share"},
         {count_row("resolved", *resolved, *total), count_row("unresolved", *total - *resolved, *total),
          count_row("all expressions", *total, *total)},
         "An expression is resolved when the resolver could place it fully on the timeline (or give its full "
         "value, for durations and sets)."});
    QuartileCounts q;
    Status s = each_row(db_,
                        "SELECT e.start, d.text_size FROM expressions e JOIN documents d ON d.id = e.doc_id "
                        "WHERE d.text_size > 0",
                        [&](Statement& r) { q.add(r.column_int(0), r.column_int(1)); });
    if (!s.ok()) return s;
    add({"6.7", "Position of temporal expressions in the document", {"expressions", "share"}, q.rows(),
         "Position = start offset / text length; quartile k holds positions in [(k-1)/4, k/4)."});
    return Status::Ok();
  }

  // 6.8: granularity of the dates (chronons) of segments.
  Status granularity_table() {
    static constexpr std::array<const char*, 7> kNames = {"complete", "year",      "year+month", "month",
                                                          "month+day", "day",      "other"};
    std::array<std::int64_t, 7> counts{};
    std::int64_t n = 0;
    Status s = each_row(db_, "SELECT value, count(*) FROM chronons GROUP BY value", [&](Statement& r) {
      const std::int64_t c = r.column_int(1);
      n += c;
      auto ch = Chronon::parse(r.column_text(0));
      std::size_t k = 6;
      if (ch) {
        const bool y = ch->year != Chronon::kUnknown, m = ch->month != Chronon::kUnknown,
                   d = ch->day != Chronon::kUnknown;
        if (y && m && d) k = 0;
        else if (y && !m && !d) k = 1;
        else if (y && m && !d) k = 2;
        else if (!y && m && !d) k = 3;
        else if (!y && m && d) k = 4;
        else if (!y && !m && d) k = 5;
      }
      counts[k] += c;
    });
    if (!s.ok()) return s;
    ReportTable t{"6.8", "Granularity of segment dates", {"chronons", "share"}, {},
                  "Known parts of each chronon: complete = year, month and day (with or without a time)."};
    for (std::size_t i = 0; i < counts.size(); ++i) t.rows.push_back(count_row(kNames[i], counts[i], n));
    add(std::move(t));
    return Status::Ok();
  }

  // 6.9 and 6.10.
  Status segment_tables() {
    std::int64_t segments = 0, dated = 0, dates = 0, spanned = 0;
    double span_sum = 0, position_sum = 0;
    QuartileCounts q;
    Status s = each_row(
        db_,
        "SELECT s.start, s.end, d.text_size, count(c.id), min(c.first_day), max(c.first_day) "
        "FROM segments s JOIN documents d ON d.id = s.doc_id LEFT JOIN chronons c ON c.segment_id = s.id "
        "GROUP BY s.id",
        [&](Statement& r) {
          ++segments;
          const std::int64_t n = r.column_int(3);
          if (n == 0) return;
          ++dated;
          dates += n;
          if (!r.column_is_null(4)) {
            ++spanned;
            span_sum += static_cast<double>(r.column_int(5) - r.column_int(4));
          }
          const std::int64_t size = r.column_int(2);
          if (size > 0) {
            const std::int64_t mid = (r.column_int(0) + r.column_int(1)) / 2;
            position_sum += std::min(1.0, static_cast<double>(mid) / static_cast<double>(size));
            q.add(mid, size);
          }
        });
    if (!s.ok()) return s;
    add({"6.9", "Dates, span and position of segments", {"value"},
         {ReportRow{"segments", {segments}}, ReportRow{"dated segments", {dated}},
          ReportRow{"mean dates per segment", {mean(static_cast<double>(dates), dated)}},
          ReportRow{"mean span in days", {mean(span_sum, spanned)}},
          ReportRow{"mean relative position", {mean(position_sum, q.total)}}},
         "Over dated segments (at least one chronon). Span = days between the earliest and the latest date of "
         "the segment (each date at its first day); relative position = segment midpoint / text length."});
    add({"6.10", "Segments by quartile of the document", {"segments", "share"}, q.rows(),
         "Dated segments, placed by their midpoint."});
    return Status::Ok();
  }

  // 6.11, 6.12 and 6.14.
  Status link_tables() {
    // The documents' URLs with their creation day (NULL when the document
    // has none), for matching link targets.
    std::string creation_sources_excluded =
        "('warc-date','wpt03-dataRec','fetch-time','crawl-time','retrieved','file-mtime')";
    if (Status s = db_.exec("DROP TABLE IF EXISTS temp.report_doc_urls;"
                            "CREATE TEMP TABLE report_doc_urls AS SELECT url, "
                            "max(CASE WHEN dct_source IN " + creation_sources_excluded +
                            " THEN NULL ELSE dct END) AS dct FROM documents WHERE url IS NOT NULL GROUP BY url;"
                            "CREATE UNIQUE INDEX temp.report_doc_urls_url ON report_doc_urls(url);");
        !s.ok())
      return query_error(db_, s);
    auto total = scalar(db_, "SELECT count(*) FROM links");
    auto inside = scalar(db_, "SELECT count(*) FROM links l JOIN temp.report_doc_urls u ON u.url = l.target");
    if (!total.ok()) return total.status();
    if (!inside.ok()) return inside.status();
    add({"6.11", "Links pointing inside and outside the collection", {"links", "share"},
         {count_row("inside the collection", *inside, *total),
          count_row("outside the collection", *total - *inside, *total), count_row("all links", *total, *total)},
         "A link points inside when its (canonical) target is the URL of a document of the collection."});

    std::int64_t n = 0, min_diff = 0, max_diff = 0;
    double sum = 0, abs_sum = 0;
    Status s = each_row(
        db_,
        "SELECT u.dct, sc.lo, sc.hi FROM links l "
        "JOIN temp.report_doc_urls u ON u.url = l.target "
        "JOIN (SELECT segment_id, min(first_day) AS lo, max(last_day) AS hi FROM chronons "
        "      WHERE first_day IS NOT NULL GROUP BY segment_id) sc ON sc.segment_id = l.segment_id "
        "WHERE u.dct IS NOT NULL",
        [&](Statement& r) {
          auto date = Date::parse(r.column_text(0));
          if (!date) return;
          const std::int64_t day = date->day_number(), lo = r.column_int(1), hi = r.column_int(2);
          const std::int64_t diff = day < lo ? day - lo : day > hi ? day - hi : 0;
          if (n == 0 || diff < min_diff) min_diff = diff;
          if (n == 0 || diff > max_diff) max_diff = diff;
          sum += static_cast<double>(diff);
          abs_sum += static_cast<double>(diff < 0 ? -diff : diff);
          ++n;
        });
    if (!s.ok()) return s;
    ReportValue none = std::monostate{};
    add({"6.12", "Difference in days between linked documents' dates and the links' temporal scopes", {"value"},
         {ReportRow{"links considered", {n}}, ReportRow{"mean difference in days", {mean(sum, n)}},
          ReportRow{"mean absolute difference in days", {mean(abs_sum, n)}},
          ReportRow{"minimum difference in days", {n ? ReportValue{min_diff} : none}},
          ReportRow{"maximum difference in days", {n ? ReportValue{max_diff} : none}}},
         "For each link inside the collection whose segment has dates and whose target has a creation date: "
         "target creation day minus the segment's scope [earliest first day, latest last day]; 0 inside it, "
         "negative before it."});

    QuartileCounts q;
    s = each_row(db_,
                 "SELECT l.position, d.text_size FROM links l JOIN documents d ON d.id = l.doc_id "
                 "WHERE l.position IS NOT NULL AND d.text_size > 0",
                 [&](Statement& r) { q.add(r.column_int(0), r.column_int(1)); });
    if (!s.ok()) return s;
    ReportTable t{"6.14", "Links by quartile of the document", {"links", "share"}, q.rows(),
                  "Position of the link's anchor text / text length."};
    if (q.total < *total) t.rows.push_back(count_row("no position", *total - q.total, *total));
    add(std::move(t));
    return Status::Ok();
  }

  // 6.15: documents by the time their content speaks of.
  Status content_time_table() {
    auto creation_max = scalar(
        db_, "SELECT coalesce(max(CAST(substr(dct, 1, 4) AS INTEGER)), 0) FROM documents WHERE dct IS NOT NULL AND "
             "(dct_source IS NULL OR dct_source NOT IN "
             "('warc-date','wpt03-dataRec','fetch-time','crawl-time','retrieved','file-mtime'))");
    auto analysed_max =
        scalar(db_, "SELECT coalesce(max(CAST(substr(analysed_at, 1, 4) AS INTEGER)), 0) FROM documents");
    if (!creation_max.ok()) return creation_max.status();
    if (!analysed_max.ok()) return analysed_max.status();
    int reference = static_cast<int>(*creation_max);
    if (reference == 0 || (*analysed_max > 0 && reference > *analysed_max)) reference = static_cast<int>(*analysed_max);
    if (reference < 1900) reference = 1900;
    ContentBins bins{reference};

    std::vector<std::int64_t> docs(bins.count(), 0), mentioning(bins.count(), 0);
    std::int64_t with_time = 0;
    std::int64_t current = -1;
    std::vector<int> years;
    auto flush = [&] {
      if (years.empty()) return;
      std::sort(years.begin(), years.end());
      const int median = years[(years.size() - 1) / 2];
      ++docs[bins.bin(median)];
      ++report_.content_years[median];
      ++with_time;
      std::set<std::size_t> seen;
      for (int y : years) seen.insert(bins.bin(y));
      for (std::size_t b : seen) ++mentioning[b];
      years.clear();
    };
    Status s = each_row(db_, "SELECT doc_id, first_day FROM chronons WHERE first_day IS NOT NULL ORDER BY doc_id",
                        [&](Statement& r) {
                          const std::int64_t doc = r.column_int(0);
                          if (doc != current) {
                            flush();
                            current = doc;
                          }
                          years.push_back(year_of_day(r.column_int(1)));
                        });
    if (!s.ok()) return s;
    flush();
    ReportTable t{"6.15", "Documents by the time their content speaks of",
                  {"documents", "share", "mentioning", "from", "to"}, {},
                  "Content time = median year of the document's placeable dates. 'mentioning' counts documents with "
                  "at least one date in the bin. Recent years run from the start of the reference year's decade to "
                  "the reference year " + std::to_string(reference) +
                      " (latest creation date, or the build year when there is none)."};
    for (std::size_t i = 0; i < bins.count(); ++i) {
      auto [from, to] = bins.range(i);
      t.rows.push_back(ReportRow{bins.name(i), {docs[i], share(docs[i], docs_), mentioning[i], from, to}});
    }
    t.rows.push_back(ReportRow{"no content time",
                               {docs_ - with_time, share(docs_ - with_time, docs_), std::monostate{},
                                std::monostate{}, std::monostate{}}});
    add(std::move(t));
    return Status::Ok();
  }

  // 6.16: documents by creation date (year).
  Status creation_date_table() {
    ReportTable t{"6.16", "Documents by creation date", {"documents", "share"}, {}, "By year of the creation date."};
    for (const auto& [year, n] : report_.creation_years) t.rows.push_back(count_row(std::to_string(year), n, docs_));
    t.rows.push_back(count_row("without creation date", docs_ - docs_with_creation_, docs_));
    add(std::move(t));
    return Status::Ok();
  }

  void add(ReportTable t) { report_.tables.push_back(std::move(t)); }

  // 8.2: the crawl statistics of method.md §4 and the precision curve.
  Status crawl_table() {
    auto stats = crawler::compute_crawl_stats(db_);
    if (!stats.ok()) return stats.status();
    const crawler::CrawlStats& c = *stats;
    ReportTable t{"8.2", "Crawl statistics", {"value"}, {},
                  "Times summed over the crawl's runs; means per analysed page; a page is relevant when a segment "
                  "of its main text is in the period (page furniture never makes it so); precision = relevant "
                  "pages / pages downloaded, also after every checkpoint of the download order (the precision "
                  "curve)."};
    auto row = [&](std::string name, ReportValue v) { t.rows.push_back(ReportRow{std::move(name), {std::move(v)}}); };
    row("mode", c.mode);
    row("period", temporal::period_end_name(c.period_from) + " to " + temporal::period_end_name(c.period_to));
    row("runs", c.runs);
    row("total processing time in minutes", c.total_seconds / 60.0);
    row("mean time per page in seconds", c.mean_seconds_per_page);
    row("mean fetch time in milliseconds", c.mean_fetch_ms);
    row("pages downloaded", c.pages);
    row("pages analysed", c.analysed_pages);
    row("relevant pages", c.relevant_pages);
    row("precision", c.precision);
    row("collection size in MB", static_cast<double>(c.collection_bytes) / 1e6);
    row("mean page size in KB", c.mean_page_bytes / 1e3);
    row("mean segments per page", c.mean_segments_per_page);
    row("segments", c.segments);
    row("segments in scope", c.segments_in_scope);
    row("share of segments in scope", c.in_scope_share);
    row("mean chronons per page", c.mean_chronons_per_page);
    row("links", c.links);
    row("links kept", c.links_kept);
    row("fetches", c.fetches);
    row("time-outs", c.timeouts);
    row("redirects", c.redirects);
    row("URLs discovered", c.discovered);
    row("URLs queued", c.queued);
    for (const auto& [code, n] : c.status_codes) row("status " + std::to_string(code), n);
    for (const auto& [kind, n] : c.errors) row("error " + kind, n);
    // Precision after every `step` pages of the download order, and at the end.
    std::vector<bool> relevant;
    Status s = each_row(db_,
                        "SELECT coalesce(p.relevant, 0) FROM history h JOIN pages p ON p.id = h.page_id ORDER BY h.seq",
                        [&](Statement& r) { relevant.push_back(r.column_int(0) != 0); });
    if (!s.ok()) return s;
    const std::size_t n = relevant.size();
    const std::size_t step = n <= 100 ? 10 : n <= 5000 ? 100 : (n / 50 + 99) / 100 * 100;
    std::int64_t hits = 0;
    for (std::size_t i = 0; i < n; ++i) {
      hits += relevant[i];
      if ((i + 1) % step == 0 || i + 1 == n) {
        const double p = static_cast<double>(hits) / static_cast<double>(i + 1);
        row("precision at " + std::to_string(i + 1) + " pages", p);
        report_.precision_curve.emplace_back(static_cast<std::int64_t>(i + 1), p);
      }
    }
    add(std::move(t));
    return Status::Ok();
  }


  // 8.3-8.5: the freshness of a crawl's collection (crawl --revisit), from
  // every visit of its HTML pages: each page's change rate estimated as the
  // crawl estimates it (the maximum-likelihood rate over its revisits, a 304
  // an unchanged one, with the default prior), its estimated freshness and
  // age at the crawl's last fetch, and the pages that announced new URLs.
  Status freshness_tables() {
    bool has_columns = false;
    Status s = each_row(db_, "SELECT COUNT(*) FROM pragma_table_info('pages') WHERE name = 'revisit'",
                        [&](Statement& r) { has_columns = r.column_int(0) > 0; });
    if (!s.ok() || !has_columns) return s;
    struct Page {
      double last = 0;
      std::vector<revisit::ChangeObservation> visits;
      std::int64_t revisits = 0, changes = 0, not_modified = 0, new_urls = 0;
    };
    std::map<std::string, Page> pages;
    double now = 0;
    s = each_row(db_,
                 "SELECT url, fetched_at, revisit, changed, status, coalesce(new_urls, 0) FROM pages "
                 "WHERE (revisit = 1 AND status = 304) OR "
                 "(status BETWEEN 200 AND 299 AND (relevant IS NOT NULL OR main_hash IS NOT NULL)) "
                 "ORDER BY id",
                 [&](Statement& r) {
                   const auto ms = crawler::iso_ms(r.column_text(1));
                   if (!ms) return;
                   const double at = static_cast<double>(*ms) / 1000.0;
                   now = std::max(now, at);
                   Page& p = pages[r.column_text(0)];
                   if (r.column_int(2) != 0 && p.last > 0) {
                     ++p.revisits;
                     p.new_urls += r.column_int(5);
                     if (r.column_int(4) == 304) ++p.not_modified;
                     if (!r.column_is_null(3)) {
                       const bool changed = r.column_int(3) != 0;
                       p.changes += changed ? 1 : 0;
                       p.visits.push_back({at - p.last, changed});
                     }
                   }
                   p.last = at;
                 });
    if (!s.ok()) return s;
    std::int64_t revisits = 0, changes = 0, not_modified = 0;
    for (const auto& [url, p] : pages) {
      revisits += p.revisits;
      changes += p.changes;
      not_modified += p.not_modified;
    }
    if (revisits == 0) return Status::Ok();  // a crawl that never revisited

    // Mean interval between changes, in bins.
    static const std::pair<double, const char*> kBins[] = {{600, "changes within 10 minutes"},
                                                            {3600, "within an hour"},
                                                            {86400, "within a day"},
                                                            {7 * 86400, "within a week"},
                                                            {std::numeric_limits<double>::infinity(), "less often"}};
    std::array<std::int64_t, std::size(kBins)> bins{};
    double freshness = 0, age = 0;
    std::vector<std::pair<double, const std::string*>> hubs;
    // The prior the crawl uses: its changes per second observed, pooled over
    // every page, with the default prior worth one page.
    double pooled_changes = 0, pooled_seconds = 0;
    std::size_t pooled_pages = 0;
    for (const auto& [url, p] : pages) {
      bool observed = false;
      for (const revisit::ChangeObservation& o : p.visits) {
        if (!(o.interval_s > 0)) continue;
        pooled_seconds += o.interval_s;
        pooled_changes += o.changed ? 1 : 0;
        observed = true;
      }
      pooled_pages += observed ? 1 : 0;
    }
    const revisit::RatePrior prior{revisit::pooled_prior_rate(pooled_changes, pooled_seconds, pooled_pages), 1.0};
    for (const auto& [url, p] : pages) {
      const double rate = revisit::estimate_change_rate(p.visits, prior);
      const double since = std::max(0.0, now - p.last);
      freshness += std::exp(-rate * since);
      age += since - (-std::expm1(-rate * since)) / rate;
      std::size_t b = 0;
      while (b + 1 < std::size(kBins) && 1 / rate > kBins[b].first) ++b;
      ++bins[b];
      if (p.revisits > 0 && p.new_urls > 0)
        hubs.emplace_back(static_cast<double>(p.new_urls) / static_cast<double>(p.revisits), &url);
    }
    const auto n = static_cast<std::int64_t>(pages.size());
    ReportTable t{"8.3", "Freshness of the collection", {"value"}, {},
                  "Each page's change rate is the maximum-likelihood estimate over its revisits at irregular "
                  "intervals (a 304 is a visit without a change), with a prior of one pseudo-visit each way at the "
                  "crawl's pooled rate (changes over seconds observed, all pages, with the default of one change a day worth one more page); its freshness at the crawl's last fetch is e^(-rate x time since its last visit), "
                  "its age the expected time since the first change missed; both averaged over the pages, all "
                  "alike. A change is a change of the main text (page furniture left out; words altered in place "
                  "within 3 simhash bits not counted, words added or taken away counted)."};
    auto row = [&](ReportTable& table, std::string name, ReportValue v) {
      table.rows.push_back(ReportRow{std::move(name), {std::move(v)}});
    };
    row(t, "pages revisited or scheduled", n);
    row(t, "revisits", revisits);
    row(t, "revisits that found a change", changes);
    row(t, "percent of revisits that found a change", share(changes, revisits));
    row(t, "revisits answered 304", not_modified);
    row(t, "percent of revisits answered 304", share(not_modified, revisits));
    row(t, "estimated freshness now", freshness / static_cast<double>(n));
    row(t, "estimated age now in seconds", age / static_cast<double>(n));
    add(std::move(t));

    ReportTable r{"8.4", "Estimated change rates", {"pages", "share"}, {},
                  "Pages by the mean interval between changes their estimated rate gives."};
    for (std::size_t b = 0; b < bins.size(); ++b) r.rows.push_back(count_row(kBins[b].second, bins[b], n));
    add(std::move(r));

    ReportTable h{"8.5", "Best hubs", {"new URLs per revisit"}, {},
                  "The pages whose revisits announced the most URLs never seen before, per revisit (at most 20)."};
    std::sort(hubs.begin(), hubs.end(), [](const auto& a, const auto& b) {
      return a.first != b.first ? a.first > b.first : *a.second < *b.second;
    });
    for (std::size_t i = 0; i < hubs.size() && i < 20; ++i) row(h, *hubs[i].second, hubs[i].first);
    add(std::move(h));
    return Status::Ok();
  }

  Database& db_;
  CollectionReport report_;
  std::int64_t docs_ = 0;
  std::int64_t docs_with_creation_ = 0;
};

// ---- rendering ----

}  // namespace

std::string format_report_value(const ReportValue& v, bool percent) {
  if (std::holds_alternative<std::monostate>(v)) return "";
  if (const auto* i = std::get_if<std::int64_t>(&v)) return std::to_string(*i);
  if (const auto* s = std::get_if<std::string>(&v)) return *s;
  char buf[64];
  std::snprintf(buf, sizeof buf, percent ? "%.2f%%" : "%.2f", std::get<double>(v));
  return buf;
}

namespace {

std::string escape_md(std::string_view s) {
  std::string out;
  for (char c : s) {
    if (c == '|') out += '\\';
    out += c;
  }
  return out;
}

}  // namespace

Result<CollectionReport> compute_report(Database& db) { return ReportBuilder(db).run(); }

std::string render_markdown(const CollectionReport& r) {
  std::string out = "# Temporal analysis of ";
  out += r.database;
  out += "\n\n";
  for (const ReportTable& t : r.tables) {
    out += "## " + t.id + " " + t.title + "\n\n|  |";
    for (const std::string& c : t.columns) out += " " + c + " |";
    out += "\n|---|";
    for (std::size_t i = 0; i < t.columns.size(); ++i) out += "---:|";
    out += "\n";
    for (const ReportRow& row : t.rows) {
      out += "| " + escape_md(row.name) + " |";
      for (std::size_t i = 0; i < row.values.size(); ++i) {
        out += ' ';
        out += format_report_value(row.values[i], t.columns[i] == "share");
        out += " |";
      }
      out += "\n";
    }
    if (!t.note.empty()) out += "\n" + t.note + "\n";
    out += "\n";
  }
  for (const std::string& n : r.notes) out += "_" + n + "_\n";
  return out;
}

std::string render_json(const CollectionReport& r) {
  nlohmann::ordered_json j = nlohmann::ordered_json::object();
  for (const ReportTable& t : r.tables) {
    nlohmann::ordered_json table = nlohmann::ordered_json::object();
    for (const ReportRow& row : t.rows) {
      nlohmann::ordered_json cells = nlohmann::ordered_json::object();
      for (std::size_t i = 0; i < row.values.size() && i < t.columns.size(); ++i) {
        const ReportValue& v = row.values[i];
        if (const auto* n = std::get_if<std::int64_t>(&v)) cells[t.columns[i]] = *n;
        else if (const auto* d = std::get_if<double>(&v)) cells[t.columns[i]] = std::round(*d * 10000.0) / 10000.0;
        else if (const auto* s = std::get_if<std::string>(&v)) cells[t.columns[i]] = *s;
        else cells[t.columns[i]] = nullptr;
      }
      table[row.name] = std::move(cells);
    }
    j[t.id] = std::move(table);
  }
  j["notes"] = r.notes;
  return j.dump(2) + "\n";
}

}  // namespace cronista::corpus
