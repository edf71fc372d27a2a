// The reading aids of the HTML report (report.h, ReportReading): what a
// person wants first (a summary card, the crawl's hosts and seeds, the most
// frequent dates and expressions, the years the content speaks of), read
// with a few aggregate queries beside the tables of report.cc.
#include <chrono>
#include <ctime>
#include <set>

#include "corpus/report.h"
#include "crawler/crawl_record.h"
#include "crawler/crawl_stats.h"
#include "temporal/calendar.h"

#ifndef CRONISTA_VERSION
#define CRONISTA_VERSION "0.1"
#endif

namespace cronista::corpus {

namespace {

using store::Database;
using store::Statement;

constexpr int kMaxHosts = 25;
constexpr int kTopEntries = 15;

Status failed(const Database& db, const Status& s) {
  return Status::Error("report of '" + db.path() + "': " + s.message());
}

template <typename Fn>
Status rows(Database& db, const std::string& sql, Fn&& fn) {
  auto st = db.prepare(sql);
  if (!st.ok()) return failed(db, st.status());
  while (st->step()) fn(*st);
  return st->status().ok() ? Status::Ok() : failed(db, st->status());
}

std::string now_iso() {
  const std::time_t t = std::chrono::system_clock::to_time_t(std::chrono::system_clock::now());
  std::tm tm{};
  gmtime_r(&t, &tm);
  char b[32];
  std::strftime(b, sizeof b, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return b;
}

Status crawl_reading(Database& db, ReportReading& r) {
  r.crawl = true;
  Status s = rows(db,
                  "SELECT mode, period_from, period_to, threshold FROM runs ORDER BY id DESC LIMIT 1",
                  [&](Statement& st) {
                    r.mode = st.column_text(0);
                    r.period_from = st.column_text(1);
                    r.period_to = st.column_text(2);
                    r.threshold = st.column_double(3);
                  });
  if (!s.ok()) return s;
  s = rows(db,
           "SELECT coalesce(sum((julianday(ended_at) - julianday(started_at)) * 86400), 0) FROM runs "
           "WHERE ended_at IS NOT NULL",
           [&](Statement& st) { r.elapsed_seconds = st.column_double(0); });
  if (!s.ok()) return s;
  s = rows(db,
           "SELECT count(*), coalesce(sum(p.relevant), 0) FROM history h JOIN pages p ON p.id = h.page_id",
           [&](Statement& st) {
             r.pages = st.column_int(0);
             r.relevant = st.column_int(1);
           });
  if (!s.ok()) return s;
  std::int64_t listed = 0;
  s = rows(db,
           "SELECT h.authority, coalesce(h.robots_outcome, ''), count(hi.seq), coalesce(sum(p.relevant), 0), "
           "coalesce(sum(CASE WHEN p.error_kind IS NOT NULL AND p.error_kind != '' THEN 1 ELSE 0 END), 0) "
           "FROM hosts h LEFT JOIN urls u ON u.host_id = h.id LEFT JOIN pages p ON p.url_id = u.id "
           "LEFT JOIN history hi ON hi.page_id = p.id GROUP BY h.id ORDER BY 3 DESC, h.authority",
           [&](Statement& st) {
             if (listed++ >= kMaxHosts) {
               ++r.more_hosts;
               return;
             }
             r.hosts.push_back({st.column_text(0), st.column_int(2), st.column_int(3), st.column_int(4),
                                st.column_text(1)});
           });
  if (!s.ok()) return s;
  auto outcome = crawler::crawl_outcome(db.path());
  if (!outcome.ok()) return failed(db, outcome.status());
  for (const auto& f : outcome->seeds) r.seeds.push_back({f.url, f.fate, f.downloaded});
  return Status::Ok();
}

}  // namespace

Status compute_reading(Database& db, CollectionReport& report) {
  ReportReading& r = report.reading;
  r.generated_at = now_iso();
  r.version = CRONISTA_VERSION;
  Status s = rows(db,
                  "SELECT (SELECT count(*) FROM documents), (SELECT count(*) FROM expressions), "
                  "(SELECT count(*) FROM segments), (SELECT count(DISTINCT segment_id) FROM chronons)",
                  [&](Statement& st) {
                    r.documents = st.column_int(0);
                    r.expressions = st.column_int(1);
                    r.segments = st.column_int(2);
                    r.dated_segments = st.column_int(3);
                  });
  if (!s.ok()) return s;
  s = rows(db,
           "SELECT value, count(DISTINCT segment_id) AS n FROM chronons WHERE granularity IN ('day', 'month') "
           "GROUP BY value ORDER BY n DESC, value LIMIT " + std::to_string(kTopEntries),
           [&](Statement& st) { r.top_dates.emplace_back(st.column_text(0), st.column_int(1)); });
  if (!s.ok()) return s;
  s = rows(db,
           "SELECT min(text), count(*) AS n FROM expressions GROUP BY lower(text) ORDER BY n DESC, 1 LIMIT " +
               std::to_string(kTopEntries),
           [&](Statement& st) { r.top_expressions.emplace_back(st.column_text(0), st.column_int(1)); });
  if (!s.ok()) return s;
  // Years spoken of: per segment, each year of its dates of a year or finer
  // (a century or a decade names no year).
  std::int64_t current = -1;
  std::set<int> years;
  auto flush = [&] {
    for (int y : years) ++r.year_mentions[y];
    years.clear();
  };
  s = rows(db,
           "SELECT segment_id, first_day FROM chronons WHERE first_day IS NOT NULL AND last_day - first_day <= 366 "
           "ORDER BY segment_id",
           [&](Statement& st) {
             if (st.column_int(0) != current) {
               flush();
               current = st.column_int(0);
             }
             years.insert(temporal::Date::from_day_number(static_cast<temporal::DayNumber>(st.column_int(1))).year);
           });
  if (!s.ok()) return s;
  flush();
  if (crawler::is_crawl_database(db)) return crawl_reading(db, r);
  return Status::Ok();
}

}  // namespace cronista::corpus
