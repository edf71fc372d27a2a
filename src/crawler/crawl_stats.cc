// Crawl statistics from the crawl tables; see crawl_stats.h.
#include "crawler/crawl_stats.h"

namespace cronista::crawler {

namespace {

Result<store::Statement> query(store::Database& db, const char* sql) {
  auto st = db.prepare(sql);
  if (!st.ok()) return Status::Error("database '" + db.path() + "': " + st.status().message());
  return st;
}

}  // namespace

bool is_crawl_database(store::Database& db) {
  auto st = db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'history'");
  return st.ok() && st->step();
}

Result<CrawlStats> compute_crawl_stats(store::Database& db) {
  if (!is_crawl_database(db)) return Status::Error("database '" + db.path() + "' holds no crawl");
  CrawlStats s;
  {
    auto st = query(db,
                    "SELECT COUNT(*), COALESCE(SUM((julianday(COALESCE(ended_at, started_at)) - julianday(started_at)) "
                    "* 86400.0), 0) FROM runs");
    if (!st.ok()) return st.status();
    if (st->step()) {
      s.runs = st->column_int(0);
      s.total_seconds = st->column_double(1);
    }
  }
  {
    auto st = query(db, "SELECT mode, period_from, period_to FROM runs ORDER BY id DESC LIMIT 1");
    if (!st.ok()) return st.status();
    if (st->step()) {
      s.mode = st->column_text(0);
      s.period_from = st->column_text(1);
      s.period_to = st->column_text(2);
    }
  }
  {
    auto st = query(db,
                    "SELECT COUNT(*), COALESCE(SUM(p.size), 0), COALESCE(AVG(p.duration_ms), 0), "
                    "COALESCE(SUM(p.relevant = 1), 0), COALESCE(SUM(p.document_id IS NOT NULL), 0), "
                    "COALESCE(SUM(CASE WHEN p.document_id IS NOT NULL THEN p.segments END), 0), "
                    "COALESCE(SUM(CASE WHEN p.document_id IS NOT NULL THEN p.segments_in_scope END), 0), "
                    "COALESCE(SUM(CASE WHEN p.document_id IS NOT NULL THEN p.chronons END), 0), "
                    "COALESCE(SUM(p.links), 0), COALESCE(SUM(p.links_kept), 0) "
                    "FROM history h JOIN pages p ON p.id = h.page_id");
    if (!st.ok()) return st.status();
    if (st->step()) {
      s.pages = st->column_int(0);
      s.collection_bytes = st->column_int(1);
      s.mean_fetch_ms = st->column_double(2);
      s.relevant_pages = st->column_int(3);
      s.analysed_pages = st->column_int(4);
      s.segments = st->column_int(5);
      s.segments_in_scope = st->column_int(6);
      const std::int64_t chronons = st->column_int(7);
      s.links = st->column_int(8);
      s.links_kept = st->column_int(9);
      if (s.pages > 0) {
        s.precision = static_cast<double>(s.relevant_pages) / s.pages;
        s.mean_seconds_per_page = s.total_seconds / s.pages;
        s.mean_page_bytes = static_cast<double>(s.collection_bytes) / s.pages;
      }
      if (s.analysed_pages > 0) {
        s.mean_segments_per_page = static_cast<double>(s.segments) / s.analysed_pages;
        s.mean_chronons_per_page = static_cast<double>(chronons) / s.analysed_pages;
      }
      if (s.segments > 0) s.in_scope_share = static_cast<double>(s.segments_in_scope) / s.segments;
    }
  }
  {
    auto st = query(db, "SELECT status, COUNT(*) FROM pages GROUP BY status");
    if (!st.ok()) return st.status();
    while (st->step()) {
      s.status_codes[static_cast<int>(st->column_int(0))] = st->column_int(1);
      s.fetches += st->column_int(1);
    }
  }
  {
    auto st = query(db, "SELECT error_kind, COUNT(*) FROM pages WHERE error_kind IS NOT NULL GROUP BY error_kind");
    if (!st.ok()) return st.status();
    while (st->step()) s.errors[st->column_text(0)] = st->column_int(1);
    if (auto it = s.errors.find("timeout"); it != s.errors.end()) s.timeouts = it->second;
  }
  {
    auto st = query(db,
                    "SELECT (SELECT COUNT(*) FROM redirects), (SELECT COUNT(*) FROM frontier), (SELECT COUNT(*) FROM urls)");
    if (!st.ok()) return st.status();
    if (st->step()) {
      s.redirects = st->column_int(0);
      s.queued = st->column_int(1);
      s.discovered = st->column_int(2);
    }
  }
  return s;
}

}  // namespace cronista::crawler
