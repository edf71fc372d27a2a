// Crawl tables and the single writer thread; see crawl_store.h.
#include "crawler/crawl_store.h"

#include <algorithm>
#include <cstdio>
#include <ctime>
#include <filesystem>
#include <iostream>
#include <map>
#include <unordered_map>

#include "revisit/page_features.h"

namespace cronista::crawler {

namespace {

// Version 2 added the revisit columns of `pages` (main_hash, simhash,
// main_words, revisit, changed, new_urls); a version-1 database gains them
// when opened (NULL, or 0 for `revisit`, on the rows there).
constexpr const char* kCrawlSchemaVersion = "2";
constexpr const char* kPagesV2Columns[] = {"main_hash INTEGER", "simhash INTEGER", "main_words INTEGER",
                                           "revisit INTEGER NOT NULL DEFAULT 0", "changed INTEGER", "new_urls INTEGER"};

constexpr const char* kCrawlSchema = R"sql(
CREATE TABLE IF NOT EXISTS crawl_meta (
  key TEXT PRIMARY KEY,
  value TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS runs (
  id INTEGER PRIMARY KEY,
  resumed_from INTEGER,
  started_at TEXT NOT NULL,
  ended_at TEXT,
  end_reason TEXT,
  mode TEXT NOT NULL,
  period_from TEXT NOT NULL,
  period_to TEXT NOT NULL,
  threshold REAL NOT NULL,
  args TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS hosts (
  id INTEGER PRIMARY KEY,
  authority TEXT NOT NULL UNIQUE,
  origin TEXT NOT NULL,
  robots_outcome TEXT,
  robots_fetched_at TEXT,
  crawl_delay_ms INTEGER,
  address TEXT
);
CREATE TABLE IF NOT EXISTS urls (
  id INTEGER PRIMARY KEY,
  url TEXT NOT NULL UNIQUE,
  host_id INTEGER NOT NULL REFERENCES hosts(id),
  seq INTEGER NOT NULL,
  depth INTEGER NOT NULL,
  redirects INTEGER NOT NULL DEFAULT 0,
  backlinks INTEGER NOT NULL DEFAULT 0,
  state TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS frontier (
  url_id INTEGER PRIMARY KEY REFERENCES urls(id),
  host_id INTEGER NOT NULL,
  priority INTEGER NOT NULL,
  seq INTEGER NOT NULL
);
CREATE INDEX IF NOT EXISTS frontier_order ON frontier(priority, seq);
CREATE INDEX IF NOT EXISTS frontier_host ON frontier(host_id, priority, seq);
CREATE TABLE IF NOT EXISTS pages (
  id INTEGER PRIMARY KEY,
  run_id INTEGER NOT NULL REFERENCES runs(id),
  url_id INTEGER REFERENCES urls(id),
  url TEXT NOT NULL,
  final_url TEXT NOT NULL,
  status INTEGER NOT NULL,
  error_kind TEXT,
  error TEXT,
  fetched_at TEXT NOT NULL,
  duration_ms REAL NOT NULL,
  http_version TEXT,
  headers TEXT,
  size INTEGER NOT NULL,
  content_hash TEXT,
  content_type TEXT,
  charset TEXT,
  charset_from TEXT,
  replaced_bytes INTEGER NOT NULL DEFAULT 0,
  last_modified TEXT,
  etag TEXT,
  relevant INTEGER,
  segments INTEGER NOT NULL DEFAULT 0,
  segments_in_scope INTEGER NOT NULL DEFAULT 0,
  chronons INTEGER NOT NULL DEFAULT 0,
  links INTEGER NOT NULL DEFAULT 0,
  links_kept INTEGER NOT NULL DEFAULT 0,
  depth INTEGER NOT NULL,
  backlinks INTEGER NOT NULL,
  attempts INTEGER NOT NULL,
  document_id INTEGER REFERENCES documents(id) ON DELETE SET NULL,
  main_hash INTEGER,
  simhash INTEGER,
  main_words INTEGER,
  main_links INTEGER,
  revisit INTEGER NOT NULL DEFAULT 0,
  changed INTEGER,
  new_urls INTEGER
);
CREATE INDEX IF NOT EXISTS pages_url ON pages(url);
CREATE TABLE IF NOT EXISTS redirects (
  id INTEGER PRIMARY KEY,
  page_id INTEGER NOT NULL REFERENCES pages(id),
  from_url TEXT NOT NULL,
  to_url TEXT NOT NULL,
  status INTEGER NOT NULL
);
CREATE INDEX IF NOT EXISTS redirects_page ON redirects(page_id);
CREATE TABLE IF NOT EXISTS replica_decisions (
  id INTEGER PRIMARY KEY,
  replica TEXT NOT NULL UNIQUE,
  canonical TEXT NOT NULL,
  canonical_origin TEXT NOT NULL,
  prefix TEXT NOT NULL DEFAULT '',
  kind TEXT NOT NULL,
  score REAL NOT NULL,
  probes INTEGER NOT NULL,
  probes_agreed INTEGER NOT NULL,
  pages_before INTEGER NOT NULL,
  evidence TEXT NOT NULL,
  decided_at TEXT NOT NULL,
  undone_at TEXT,
  undo_reason TEXT
);
CREATE TABLE IF NOT EXISTS replica_moves (
  id INTEGER PRIMARY KEY,
  replica TEXT NOT NULL,
  url TEXT NOT NULL UNIQUE,
  depth INTEGER NOT NULL,
  penalty INTEGER NOT NULL DEFAULT 0
);
CREATE TABLE IF NOT EXISTS replica_probes (
  id INTEGER PRIMARY KEY,
  replica TEXT NOT NULL,
  canonical TEXT NOT NULL,
  url TEXT NOT NULL,
  status INTEGER NOT NULL,
  agreed INTEGER NOT NULL,
  fetched_at TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS page_features (
  page_id INTEGER PRIMARY KEY REFERENCES pages(id),
  features TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS history (
  seq INTEGER PRIMARY KEY,
  page_id INTEGER NOT NULL REFERENCES pages(id),
  run_id INTEGER NOT NULL REFERENCES runs(id),
  url TEXT NOT NULL,
  fetched_at TEXT NOT NULL
);
)sql";

std::string_view state_name(UrlState s) {
  switch (s) {
    case UrlState::Done: return "done";
    case UrlState::Dropped: return "dropped";
    default: return "queued";
  }
}

UrlState state_from(std::string_view s) {
  if (s == "done") return UrlState::Done;
  if (s == "dropped") return UrlState::Dropped;
  return UrlState::Queued;
}

std::string now_iso() { return iso_time(std::chrono::system_clock::now()); }


}  // namespace

std::string iso_time(std::chrono::system_clock::time_point t) {
  const auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(t.time_since_epoch()).count();
  std::time_t secs = static_cast<std::time_t>(ms / 1000);
  std::tm tm{};
  gmtime_r(&secs, &tm);
  char buf[64];
  std::snprintf(buf, sizeof buf, "%04d-%02d-%02dT%02d:%02d:%02d.%03dZ", tm.tm_year + 1900, tm.tm_mon + 1, tm.tm_mday,
                tm.tm_hour, tm.tm_min, tm.tm_sec, static_cast<int>(ms % 1000));
  return buf;
}

Result<std::unique_ptr<CrawlStore>> open_existing_crawl(const std::string& db_path) {
  using R = Result<std::unique_ptr<CrawlStore>>;
  if (!std::filesystem::exists(db_path)) return R::Error("no crawl database '" + db_path + "'");
  {
    auto peek = store::Database::open(db_path, true);
    if (!peek.ok()) return peek.status();
    auto crawl = peek->has_table("crawl_meta");
    if (!crawl.ok()) return R::Error("'" + db_path + "': " + crawl.status().message());
    if (!*crawl) return R::Error("'" + db_path + "' is not a crawl database");
  }
  return CrawlStore::open(db_path, CrawlStoreOptions{});
}

std::optional<std::int64_t> iso_ms(const std::string& s) {
  int year = 0, month = 0, day = 0, hour = 0, minute = 0, second = 0, ms = 0;
  if (std::sscanf(s.c_str(), "%4d-%2d-%2dT%2d:%2d:%2d.%3dZ", &year, &month, &day, &hour, &minute, &second, &ms) < 6)
    return std::nullopt;
  std::tm tm{};
  tm.tm_year = year - 1900;
  tm.tm_mon = month - 1;
  tm.tm_mday = day;
  tm.tm_hour = hour;
  tm.tm_min = minute;
  tm.tm_sec = second;
  return static_cast<std::int64_t>(timegm(&tm)) * 1000 + ms;
}

std::string warc_date(std::string_view fetched_at) { return std::string(fetched_at.substr(0, 19)) + "Z"; }

// The read-only connection used for frontier refills.
class CrawlStore::Spill : public FrontierSpill {
 public:
  explicit Spill(store::Database db) : db_(std::move(db)) {}
  std::vector<FrontierEntry> load(std::uint32_t host, std::size_t limit, std::size_t offset) override {
    std::vector<FrontierEntry> out;
    if (!stmt_) {
      auto st = db_.prepare(
          "SELECT u.url, f.seq, u.depth, u.redirects, u.backlinks FROM frontier f JOIN urls u ON u.id = f.url_id "
          "WHERE f.host_id = ? ORDER BY f.priority, f.seq LIMIT ? OFFSET ?");
      if (!st.ok()) return out;
      stmt_ = std::make_unique<store::Statement>(std::move(*st));
    }
    stmt_->bind(1, static_cast<std::int64_t>(host))
        .bind(2, static_cast<std::int64_t>(limit))
        .bind(3, static_cast<std::int64_t>(offset));
    while (stmt_->step()) {
      FrontierEntry e;
      e.url = stmt_->column_text(0);
      e.seq = static_cast<std::uint32_t>(stmt_->column_int(1));
      e.depth = static_cast<std::uint16_t>(stmt_->column_int(2));
      e.redirects = static_cast<std::uint8_t>(stmt_->column_int(3));
      e.backlinks = static_cast<std::uint32_t>(stmt_->column_int(4));
      e.host = host;
      out.push_back(std::move(e));
    }
    stmt_->reset();
    return out;
  }

 private:
  store::Database db_;
  std::unique_ptr<store::Statement> stmt_;
};

struct CrawlStore::Statements {
  store::Statement insert_host, update_host, insert_url, insert_frontier, update_backlinks, update_priority,
      remove_frontier, update_state, insert_page, insert_redirect, insert_history, url_id, update_address,
      insert_features;
};

Result<std::unique_ptr<CrawlStore>> CrawlStore::open(const std::string& db_path, const CrawlStoreOptions& options) {
  std::unique_ptr<CrawlStore> s(new CrawlStore(options));
  s->path_ = db_path;
  auto db = store::Database::open(db_path);
  if (!db.ok()) return db.status();
  s->db_ = std::move(*db);
  // A collection built by `cronista build` has documents but no crawl tables;
  // crawling into it would mix a crawl with a collection.
  auto built = s->db_.has_table("documents");
  if (!built.ok()) return Status::Error("database '" + db_path + "': " + built.status().message());
  auto crawled = s->db_.has_table("crawl_meta");
  if (!crawled.ok()) return Status::Error("database '" + db_path + "': " + crawled.status().message());
  if (*built && !*crawled)
    return Status::Error("database '" + db_path +
                         "' holds a collection built by `cronista build`, not a crawl: give the crawl its own --db");
  if (Status st = store::AnalysisStore::ensure_schema(s->db_); !st.ok()) return st;
  if (Status st = store::AnalysisStore::record_genre(s->db_, options.genre); !st.ok()) return st;
  if (Status st = s->db_.exec(kCrawlSchema); !st.ok())
    return Status::Error("database '" + db_path + "': " + st.message());
  {
    // A crawl written before hosts.address existed gains it (NULL until the
    // host answers again).
    auto link_priority = s->db_.has_column("pages", "link_priority");
    if (!link_priority.ok())
      return Status::Error("database '" + db_path + "': " + link_priority.status().message());
    if (!*link_priority)
      if (Status st = s->db_.exec("ALTER TABLE pages ADD COLUMN link_priority INTEGER"); !st.ok())
        return Status::Error("database '" + db_path + "': " + st.message());
    // And before pages.main_links (NULL on the rows there: links not known).
    auto main_links = s->db_.has_column("pages", "main_links");
    if (!main_links.ok()) return Status::Error("database '" + db_path + "': " + main_links.status().message());
    if (!*main_links)
      if (Status st = s->db_.exec("ALTER TABLE pages ADD COLUMN main_links INTEGER"); !st.ok())
        return Status::Error("database '" + db_path + "': " + st.message());
    auto address = s->db_.has_column("hosts", "address");
    if (!address.ok()) return Status::Error("database '" + db_path + "': " + address.status().message());
    if (!*address)
      if (Status st = s->db_.exec("ALTER TABLE hosts ADD COLUMN address TEXT"); !st.ok())
        return Status::Error("database '" + db_path + "': " + st.message());
  }
  {
    auto get = s->db_.prepare("SELECT value FROM crawl_meta WHERE key = 'schema_version'");
    if (!get.ok()) return get.status();
    if (get->step()) {
      const std::string version = get->column_text(0);
      get->reset();
      if (version == "1") {
        for (const char* column : kPagesV2Columns)
          if (Status st = s->db_.exec(std::string("ALTER TABLE pages ADD COLUMN ") + column); !st.ok())
            return Status::Error("database '" + db_path + "': " + st.message());
        if (Status st = s->db_.exec(std::string("UPDATE crawl_meta SET value = '") + kCrawlSchemaVersion +
                                    "' WHERE key = 'schema_version'");
            !st.ok())
          return Status::Error("database '" + db_path + "': " + st.message());
      } else if (version != kCrawlSchemaVersion)
        return Status::Error("database '" + db_path + "' has crawl schema version " + get->column_text(0) +
                             ", this cronista understands " + kCrawlSchemaVersion);
    } else {
      if (Status st = s->db_.exec(std::string("INSERT INTO crawl_meta(key, value) VALUES ('schema_version', '") +
                                  kCrawlSchemaVersion + "')");
          !st.ok())
        return st;
    }
  }
  // WAL with synchronous=NORMAL survives a killed process (what --resume
  // needs), not a power cut; a bigger page cache keeps the URL indexes of a
  // million-URL frontier in memory.
  // Checkpoints copy the pages of the write-ahead log into the database; at
  // SQLite's default (every 1,000 pages, 4 MB) the right-hand pages of every
  // table and index are copied again at each one. A checkpoint every 16,384
  // pages (64 MB of log at most) copies each far fewer times; finish()
  // empties the log.
  s->db_.exec("PRAGMA synchronous=NORMAL");
  s->db_.exec("PRAGMA cache_size=-16384");
  s->db_.exec("PRAGMA wal_autocheckpoint=16384");
  auto reader = store::Database::open(db_path, /*read_only=*/true);
  if (!reader.ok()) return reader.status();
  s->spill_ = std::make_unique<Spill>(std::move(*reader));
  return s;
}

CrawlStore::CrawlStore(const CrawlStoreOptions& options) : options_(options) {}

FrontierSpill* CrawlStore::spill() { return spill_.get(); }

CrawlStore::~CrawlStore() {
  if (writer_.joinable()) finish("aborted");
}

Result<std::optional<RunInfo>> CrawlStore::last_run() {
  auto st = db_.prepare("SELECT id, mode, period_from, period_to, threshold, args FROM runs ORDER BY id DESC LIMIT 1");
  if (!st.ok()) return st.status();
  if (!st->step()) {
    if (!st->status().ok()) return st->status();
    return std::optional<RunInfo>();
  }
  RunInfo r;
  r.id = st->column_int(0);
  r.mode = st->column_text(1);
  r.from = st->column_text(2);
  r.to = st->column_text(3);
  r.threshold = st->column_double(4);
  r.args = st->column_text(5);
  return std::optional<RunInfo>(r);
}

Result<std::int64_t> CrawlStore::begin_run(const RunInfo& run, std::int64_t resumed_from) {
  auto st = db_.prepare(
      "INSERT INTO runs(resumed_from, started_at, mode, period_from, period_to, threshold, args) VALUES (?,?,?,?,?,?,?)");
  if (!st.ok()) return st.status();
  if (resumed_from > 0) st->bind(1, resumed_from); else st->bind_null(1);
  st->bind(2, now_iso()).bind(3, run.mode).bind(4, run.from).bind(5, run.to).bind(6, run.threshold).bind(7, run.args);
  if (Status s = st->run(); !s.ok()) return s;
  run_id_ = db_.last_insert_id();
  return run_id_;
}

Result<ResumeState> CrawlStore::load(bool kept_only, const std::function<void(const ResumeState::Url&)>& on_url,
                                     const std::function<void(const HostRow&)>& on_host,
                                     const std::function<void(const ResumeState::Download&)>& on_download) {
  ResumeState r;
  {
    auto st = db_.prepare("SELECT id, authority, origin, robots_outcome, crawl_delay_ms FROM hosts ORDER BY id");
    if (!st.ok()) return st.status();
    while (st->step()) {
      HostRow h;
      h.id = static_cast<std::uint32_t>(st->column_int(0));
      h.authority = st->column_text(1);
      h.origin = st->column_text(2);
      h.robots_outcome = st->column_text(3);
      h.crawl_delay_ms = st->column_int(4);
      if (h.id != r.hosts.size())
        return Status::Error("database '" + path_ + "': host ids are not dense (" + std::to_string(h.id) + ")");
      on_host(h);
      r.hosts.push_back(std::move(h));
    }
    if (!st->status().ok()) return st->status();
  }
  std::unordered_map<std::uint64_t, std::uint32_t> backlinks;
  {
    // Temporal mode counts the in-scope links of main text only (links of
    // dated page furniture are followed without counting, crawl.h).
    auto st = db_.prepare(std::string("SELECT l.target, COUNT(DISTINCT l.doc_id) FROM links l ") +
                          (kept_only ? "LEFT JOIN segments s ON s.id = l.segment_id "
                                       "WHERE l.in_scope = 1 AND COALESCE(s.boilerplate, 0) = 0 "
                                     : "") +
                          "GROUP BY l.target");
    if (!st.ok()) return st.status();
    while (st->step()) backlinks.emplace(url_key(st->column_text(0)), static_cast<std::uint32_t>(st->column_int(1)));
    if (!st->status().ok()) return st->status();
  }
  {
    // A queued URL's link penalty is what its frontier priority holds
    // beyond the backlink priority it was written with; a priority below 0
    // is an announced URL's.
    auto st = db_.prepare(
        "SELECT u.url, u.host_id, u.seq, u.depth, u.state, f.priority, u.backlinks FROM urls u "
        "LEFT JOIN frontier f ON f.url_id = u.id");
    if (!st.ok()) return st.status();
    while (st->step()) {
      ResumeState::Url u;
      const std::string url = st->column_text(0);
      u.url = url;
      u.key = url_key(url);
      u.host = static_cast<std::uint32_t>(st->column_int(1));
      u.seq = static_cast<std::uint32_t>(st->column_int(2));
      u.depth = static_cast<std::uint16_t>(st->column_int(3));
      u.state = state_from(st->column_text(4));
      if (!st->column_is_null(5)) {
        const std::int64_t extra = st->column_int(5) -
                                   priority_for_backlinks(static_cast<std::uint32_t>(st->column_int(6)));
        u.penalty = st->column_int(5) < 0
                        ? kAnnouncedPenalty
                        : static_cast<std::uint8_t>(std::clamp<std::int64_t>(extra, 0, kMaxLinkPenalty));
      }
      if (auto it = backlinks.find(u.key); it != backlinks.end()) u.backlinks = it->second;
      on_url(u);
    }
    if (!st->status().ok()) return st->status();
  }
  {
    auto st = db_.prepare(
        "SELECT COUNT(*), COALESCE(SUM(p.relevant = 1), 0) FROM history h JOIN pages p ON p.id = h.page_id");
    if (!st.ok()) return st.status();
    if (st->step()) {
      r.pages = st->column_int(0);
      r.relevant = st->column_int(1);
    }
  }
  {
    auto st = db_.prepare(
        "SELECT p.link_priority, COUNT(*), COALESCE(SUM(p.relevant = 1), 0) FROM history h "
        "JOIN pages p ON p.id = h.page_id WHERE p.link_priority IS NOT NULL GROUP BY p.link_priority");
    if (!st.ok()) return st.status();
    while (st->step()) r.link_yields.push_back({st->column_int(0), st->column_int(1), st->column_int(2)});
    if (!st->status().ok()) return st->status();
  }
  {
    // A page's analysis is the document of its URL (documents.key).
    auto st = db_.prepare(
        "SELECT h.url, p.relevant, d.title FROM history h JOIN pages p ON p.id = h.page_id "
        "LEFT JOIN documents d ON d.key = h.url ORDER BY h.seq");
    if (!st.ok()) return st.status();
    while (st->step()) {
      const std::string url = st->column_text(0), title = st->column_text(2);
      ResumeState::Download d;
      d.url = url;
      if (!st->column_is_null(1)) d.relevant = st->column_int(1) != 0;
      d.title = title;
      on_download(d);
    }
    if (!st->status().ok()) return st->status();
  }
  return r;
}

Result<std::vector<ReplicaMoveRow>> CrawlStore::replica_moves() {
  auto st = db_.prepare("SELECT replica, url, depth, penalty FROM replica_moves ORDER BY id");
  if (!st.ok()) return st.status();
  std::vector<ReplicaMoveRow> out;
  while (st->step()) {
    ReplicaMoveRow m;
    m.replica = st->column_text(0);
    m.url = st->column_text(1);
    m.depth = static_cast<std::uint16_t>(st->column_int(2));
    m.penalty = static_cast<std::uint8_t>(st->column_int(3));
    out.push_back(std::move(m));
  }
  if (!st->status().ok()) return st->status();
  return out;
}

Result<std::vector<ReplicaDecisionRow>> CrawlStore::replica_decisions() {
  auto st = db_.prepare(
      "SELECT replica, canonical, canonical_origin, prefix, kind, score, probes, probes_agreed, pages_before, evidence, "
      "decided_at FROM replica_decisions WHERE undone_at IS NULL ORDER BY id");
  if (!st.ok()) return st.status();
  std::vector<ReplicaDecisionRow> out;
  while (st->step()) {
    ReplicaDecisionRow d;
    d.replica = st->column_text(0);
    d.canonical = st->column_text(1);
    d.canonical_origin = st->column_text(2);
    d.prefix = st->column_text(3);
    d.kind = st->column_text(4);
    d.score = st->column_double(5);
    d.probes = st->column_int(6);
    d.probes_agreed = st->column_int(7);
    d.pages_before = st->column_int(8);
    d.evidence = st->column_text(9);
    d.decided_at = st->column_text(10);
    out.push_back(std::move(d));
  }
  if (!st->status().ok()) return st->status();
  return out;
}

Status CrawlStore::visits(const std::function<void(const StoredVisit&)>& on_visit) {
  auto st = db_.prepare(
      "SELECT p.url, u.host_id, p.depth, p.fetched_at, p.status, p.revisit, p.changed, p.main_hash, p.simhash, "
      "p.main_words, p.etag, p.last_modified, p.content_hash, p.relevant, p.new_urls, f.features, p.main_links "
      "FROM pages p "
      "JOIN urls u ON u.id = p.url_id LEFT JOIN page_features f ON f.page_id = p.id "
      "WHERE (p.revisit = 1 AND p.status = 304) OR "
      "(p.status BETWEEN 200 AND 299 AND (p.relevant IS NOT NULL OR p.main_hash IS NOT NULL)) "
      "ORDER BY p.id");
  if (!st.ok()) return st.status();
  while (st->step()) {
    StoredVisit v;
    v.url = st->column_text(0);
    v.host = static_cast<std::uint32_t>(st->column_int(1));
    v.depth = static_cast<std::uint16_t>(std::clamp<std::int64_t>(st->column_int(2), 0, 65535));
    v.fetched_at = st->column_text(3);
    v.status = static_cast<long>(st->column_int(4));
    v.revisit = st->column_int(5) != 0;
    if (!st->column_is_null(6)) v.changed = st->column_int(6) != 0;
    if (!st->column_is_null(7))
      v.signature = revisit::ContentSignature{static_cast<std::uint64_t>(st->column_int(7)),
                                              static_cast<std::uint64_t>(st->column_int(8)),
                                              static_cast<std::uint32_t>(st->column_int(9))};
    if (v.signature && !st->column_is_null(16)) v.signature->links = static_cast<std::uint64_t>(st->column_int(16));
    v.etag = st->column_text(10);
    v.last_modified = st->column_text(11);
    v.content_hash = st->column_text(12);
    if (!st->column_is_null(13)) v.relevant = st->column_int(13) != 0;
    v.new_urls = st->column_int(14);
    if (!st->column_is_null(15)) v.features = revisit::parse_features(st->column_text(15));
    on_visit(v);
  }
  return st->status();
}

Status CrawlStore::prepare_statements() {
  st_ = std::make_unique<Statements>();
  struct Item {
    store::Statement* target;
    const char* sql;
  } items[] = {
      {&st_->insert_host, "INSERT OR IGNORE INTO hosts(id, authority, origin) VALUES (?,?,?)"},
      {&st_->update_host, "UPDATE hosts SET robots_outcome = ?, robots_fetched_at = ?, crawl_delay_ms = ? WHERE id = ?"},
      {&st_->insert_url,
       "INSERT OR IGNORE INTO urls(url, host_id, seq, depth, redirects, backlinks, state) VALUES (?,?,?,?,?,?,'queued')"},
      {&st_->insert_frontier, "INSERT OR IGNORE INTO frontier(url_id, host_id, priority, seq) VALUES (?,?,?,?)"},
      {&st_->update_backlinks, "UPDATE urls SET backlinks = ? WHERE id = ?"},
      {&st_->update_priority, "UPDATE frontier SET priority = ? WHERE url_id = ?"},
      {&st_->remove_frontier, "DELETE FROM frontier WHERE url_id = ?"},
      {&st_->update_state, "UPDATE urls SET state = ? WHERE id = ?"},
      {&st_->insert_page,
       "INSERT INTO pages(run_id, url_id, url, final_url, status, error_kind, error, fetched_at, duration_ms, "
       "http_version, headers, size, content_hash, content_type, charset, charset_from, replaced_bytes, "
       "last_modified, etag, relevant, segments, segments_in_scope, chronons, links, links_kept, depth, backlinks, "
       "attempts, document_id, main_hash, simhash, main_words, revisit, changed, new_urls, link_priority, "
       "main_links) "
       "VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)"},
      {&st_->insert_redirect, "INSERT INTO redirects(page_id, from_url, to_url, status) VALUES (?,?,?,?)"},
      {&st_->insert_history, "INSERT INTO history(page_id, run_id, url, fetched_at) VALUES (?,?,?,?)"},
      {&st_->url_id, "SELECT id FROM urls WHERE url = ?"},
      {&st_->insert_features, "INSERT INTO page_features(page_id, features) VALUES (?,?)"},
      {&st_->update_address,
       "UPDATE hosts SET address = ?1 WHERE id = (SELECT host_id FROM urls WHERE id = ?2) AND address IS NOT ?1"},
  };
  for (Item& it : items) {
    auto st = db_.prepare(it.sql);
    if (!st.ok()) return Status::Error("database '" + path_ + "': " + st.status().message());
    *it.target = std::move(*st);
  }
  return Status::Ok();
}

std::string CrawlStore::order_line(const std::string& url, const std::string& fetched_at, std::int64_t run_start_ms,
                                   double run_offset) {
  const std::optional<std::int64_t> at = iso_ms(fetched_at);
  const double elapsed = run_offset + (at ? static_cast<double>(*at - run_start_ms) / 1000.0 : 0.0);
  char buf[32];
  std::snprintf(buf, sizeof buf, "\t%.3f", std::max(0.0, elapsed));
  return url + buf;
}

Status CrawlStore::rewrite_order_file() {
  order_ = std::fopen(options_.order_out.c_str(), "w");
  if (order_ == nullptr) return Status::Error("cannot write --order-out file '" + options_.order_out + "'");
  // Each run's crawling time: from its start to its end, or to its last
  // download when it was killed; a run starts where the earlier ones end.
  struct Run {
    std::int64_t start_ms = 0;
    double offset = 0;
  };
  std::map<std::int64_t, Run> runs;
  {
    auto st = db_.prepare(
        "SELECT r.id, r.started_at, coalesce(r.ended_at, (SELECT max(fetched_at) FROM history h WHERE h.run_id = r.id), "
        "r.started_at) FROM runs r ORDER BY r.id");
    if (!st.ok()) return st.status();
    double offset = 0;
    while (st->step()) {
      const std::int64_t start = iso_ms(st->column_text(1)).value_or(0);
      const std::int64_t end = iso_ms(st->column_text(2)).value_or(start);
      runs[st->column_int(0)] = Run{start, offset};
      if (st->column_int(0) != run_id_) offset += static_cast<double>(std::max<std::int64_t>(0, end - start)) / 1000.0;
    }
    if (!st->status().ok()) return st->status();
  }
  if (auto it = runs.find(run_id_); it != runs.end()) {
    run_start_ms_ = it->second.start_ms;
    run_offset_ = it->second.offset;
  }
  auto st = db_.prepare("SELECT url, fetched_at, run_id FROM history ORDER BY seq");
  if (!st.ok()) return st.status();
  while (st->step()) {
    const Run run = runs[st->column_int(2)];
    std::string line = order_line(st->column_text(0), st->column_text(1), run.start_ms, run.offset);
    line += '\n';
    std::fwrite(line.data(), 1, line.size(), order_);
  }
  std::fflush(order_);
  return st->status();
}

Status CrawlStore::start(std::function<void(std::uint64_t)> on_commit) {
  on_commit_ = std::move(on_commit);
  if (Status s = prepare_statements(); !s.ok()) return s;
  if (!options_.order_out.empty())
    if (Status s = rewrite_order_file(); !s.ok()) return s;
  if (!options_.warc.empty()) {
    WarcWriter::Options warc_options;
    warc_options.on_repair = [](const std::string& message) { std::cerr << "cronista crawl: " << message << "\n"; };
    auto w = WarcWriter::open(options_.warc, options_.software, warc_options);
    if (!w.ok()) return w.status();
    warc_ = std::move(*w);
  }
  writer_ = std::thread([this] { writer_loop(); });
  return Status::Ok();
}

namespace {

std::size_t estimate_bytes(const StoreJob& job) {
  std::size_t n = sizeof(StoreJob) + job.ops.size() * sizeof(FrontierOp) + job.hosts.size() * sizeof(HostRow);
  for (const FrontierOp& op : job.ops) n += op.url.capacity();
  if (const PageRecord* p = job.page.get()) {
    n += sizeof(PageRecord) + p->headers.size() + p->body.capacity() + p->doc.text.capacity() +
         p->warc_request.size() + p->warc_response_head.size();
    n += p->expressions.size() * (sizeof(temporal::TemporalExpression) + 16);
    n += p->segments_found.size() * (sizeof(temporal::Segment) + 64);
    for (const store::LinkInfo& l : p->link_rows) n += sizeof(store::LinkInfo) + l.target.capacity() + l.anchor.capacity();
  }
  if (const RobotsRecord* r = job.robots.get()) n += sizeof(RobotsRecord) + r->body.size() + r->response_head.size();
  return n;
}

}  // namespace

std::uint64_t CrawlStore::submit(StoreJob job) {
  job.bytes = estimate_bytes(job);
  std::lock_guard lk(mu_);
  queue_bytes_ += job.bytes;
  job.id = next_job_++;
  const std::uint64_t id = job.id;
  queue_.push_back(std::move(job));
  cv_.notify_one();
  return id;
}

std::size_t CrawlStore::backlog() const {
  std::lock_guard lk(mu_);
  return queue_.size();
}

std::size_t CrawlStore::backlog_bytes() const {
  std::lock_guard lk(mu_);
  return queue_bytes_;
}

Status CrawlStore::error() const {
  std::lock_guard lk(mu_);
  return error_;
}

namespace {

// The id of a URL's row, or 0.
std::int64_t lookup_url(store::Statement& st, const std::string& url) {
  st.bind(1, url);
  std::int64_t id = st.step() ? st.column_int(0) : 0;
  st.reset();
  return id;
}

}  // namespace

Status CrawlStore::write_warc(std::string_view url, std::string_view fetched_at, std::string_view ip,
                              std::string_view request, std::string_view response_head, std::string_view body,
                              const PageRecord* revisit) {
  const std::string date = warc_date(fetched_at);
  WarcExchange x;
  x.target_uri = url;
  x.date = date;
  x.ip_address = ip;
  x.http_request = request;
  x.http_response_head = response_head;
  x.body = body;
  x.body_coding = BodyCoding::kDecoded;  // libcurl decoded any Content-Encoding
  if (revisit && revisit->warc_revisit != WarcRevisit::kNone) {
    x.revisit = revisit->warc_revisit;
    x.refers_to_uri = revisit->warc_refers_to_uri;
    x.refers_to_date = revisit->warc_refers_to_date;
  }
  if (Status r = warc_->write(x); !r.ok()) return Status::Error("WARC '" + options_.warc + "': " + r.message());
  return Status::Ok();
}

Status CrawlStore::apply(StoreJob& job, std::vector<std::string>* order_lines) {
  Statements& s = *st_;
  for (const HostRow& h : job.hosts) {
    if (Status r = s.insert_host.bind(1, static_cast<std::int64_t>(h.id)).bind(2, h.authority).bind(3, h.origin).run();
        !r.ok())
      return r;
    if (!h.robots_outcome.empty()) {
      if (Status r = s.update_host.bind(1, h.robots_outcome).bind(2, now_iso()).bind(3, h.crawl_delay_ms)
                         .bind(4, static_cast<std::int64_t>(h.id)).run();
          !r.ok())
        return r;
    }
  }
  // Moves before decisions: a decision undone in the same job takes its
  // moves back with it.
  for (const ReplicaMoveRow& m : job.replica_moves) {
    auto st = db_.prepare("INSERT OR IGNORE INTO replica_moves(replica, url, depth, penalty) VALUES (?,?,?,?)");
    if (!st.ok()) return st.status();
    st->bind(1, m.replica).bind(2, m.url).bind(3, static_cast<std::int64_t>(m.depth))
        .bind(4, static_cast<std::int64_t>(m.penalty));
    if (Status r = st->run(); !r.ok()) return r;
  }
  for (const ReplicaDecisionRow& d : job.replica_decisions) {
    if (!d.undone_at.empty()) {
      auto del = db_.prepare("DELETE FROM replica_moves WHERE replica = ?");
      if (!del.ok()) return del.status();
      del->bind(1, d.replica);
      if (Status r = del->run(); !r.ok()) return r;
    }
    auto st = db_.prepare(
        "INSERT OR REPLACE INTO replica_decisions(replica, canonical, canonical_origin, prefix, kind, score, probes, "
        "probes_agreed, pages_before, evidence, decided_at, undone_at, undo_reason) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?)");
    if (!st.ok()) return st.status();
    st->bind(1, d.replica).bind(2, d.canonical).bind(3, d.canonical_origin).bind(4, d.prefix).bind(5, d.kind)
        .bind(6, d.score).bind(7, d.probes).bind(8, d.probes_agreed).bind(9, d.pages_before).bind(10, d.evidence)
        .bind(11, d.decided_at);
    if (d.undone_at.empty()) st->bind_null(12).bind_null(13);
    else st->bind(12, d.undone_at).bind(13, d.undo_reason);
    if (Status r = st->run(); !r.ok()) return r;
  }
  for (const ReplicaProbeRow& p : job.replica_probes) {
    auto st = db_.prepare(
        "INSERT INTO replica_probes(replica, canonical, url, status, agreed, fetched_at) VALUES (?,?,?,?,?,?)");
    if (!st.ok()) return st.status();
    st->bind(1, p.replica).bind(2, p.canonical).bind(3, p.url).bind(4, static_cast<std::int64_t>(p.status))
        .bind(5, p.agreed ? 1 : 0).bind(6, p.fetched_at);
    if (Status r = st->run(); !r.ok()) return r;
  }
  std::int64_t page_url_id = 0;
  for (const FrontierOp& op : job.ops) {
    switch (op.kind) {
      case FrontierOp::Insert: {
        s.insert_url.bind(1, op.url).bind(2, static_cast<std::int64_t>(op.host)).bind(3, static_cast<std::int64_t>(op.seq))
            .bind(4, static_cast<std::int64_t>(op.depth)).bind(5, static_cast<std::int64_t>(op.redirects))
            .bind(6, static_cast<std::int64_t>(op.backlinks));
        if (Status r = s.insert_url.run(); !r.ok()) return r;
        if (sqlite3_changes(db_.handle()) == 0) break;
        const std::int64_t id = db_.last_insert_id();
        s.insert_frontier.bind(1, id).bind(2, static_cast<std::int64_t>(op.host))
            .bind(3, static_cast<std::int64_t>(op.priority()))
            .bind(4, static_cast<std::int64_t>(op.seq));
        if (Status r = s.insert_frontier.run(); !r.ok()) return r;
        break;
      }
      case FrontierOp::Reprioritize: {
        const std::int64_t id = lookup_url(s.url_id, op.url);
        if (id == 0) break;
        if (Status r = s.update_backlinks.bind(1, static_cast<std::int64_t>(op.backlinks)).bind(2, id).run(); !r.ok())
          return r;
        if (Status r = s.update_priority.bind(1, static_cast<std::int64_t>(op.priority()))
                           .bind(2, id).run();
            !r.ok())
          return r;
        break;
      }
      case FrontierOp::Requeue: {
        const std::int64_t id = lookup_url(s.url_id, op.url);
        if (id == 0) break;
        if (Status r = s.update_state.bind(1, state_name(UrlState::Queued)).bind(2, id).run(); !r.ok()) return r;
        s.insert_frontier.bind(1, id).bind(2, static_cast<std::int64_t>(op.host))
            .bind(3, static_cast<std::int64_t>(op.priority()))
            .bind(4, static_cast<std::int64_t>(op.seq));
        if (Status r = s.insert_frontier.run(); !r.ok()) return r;
        break;
      }
      case FrontierOp::Remove: {
        const std::int64_t id = lookup_url(s.url_id, op.url);
        if (id == 0) break;
        if (job.page && op.url == job.page->url) page_url_id = id;
        if (Status r = s.remove_frontier.bind(1, id).run(); !r.ok()) return r;
        if (Status r = s.update_state.bind(1, state_name(op.final_state)).bind(2, id).run(); !r.ok()) return r;
        break;
      }
    }
  }
  if (warc_ && job.robots && !job.robots->response_head.empty()) {
    const RobotsRecord& r = *job.robots;
    if (Status w = write_warc(r.url, r.fetched_at, r.ip, r.request, r.response_head, r.body); !w.ok()) return w;
  }
  if (!job.page) return Status::Ok();
  PageRecord& p = *job.page;

  std::optional<std::int64_t> doc_id;
  if (p.analysed) {
    store::StoredAnalysis a;
    a.doc = &p.doc;
    a.expressions = &p.expressions;
    a.segments = &p.segments_found;
    a.links = std::move(p.link_rows);
    a.segment_in_scope = std::move(p.segment_in_scope);
    auto id = store::AnalysisStore::put(db_, p.info, a);
    if (!id.ok()) return id.status();
    doc_id = *id;
  }
  if (page_url_id == 0) page_url_id = lookup_url(s.url_id, p.url);
  store::Statement& ip = s.insert_page;
  ip.bind(1, run_id_);
  if (page_url_id) ip.bind(2, page_url_id); else ip.bind_null(2);
  ip.bind(3, p.url).bind(4, p.final_url).bind(5, static_cast<std::int64_t>(p.status));
  if (p.error_kind.empty()) ip.bind_null(6).bind_null(7); else ip.bind(6, p.error_kind).bind(7, p.error);
  ip.bind(8, p.fetched_at).bind(9, p.duration_ms).bind(10, p.http_version).bind(11, p.headers).bind(12, p.size);
  if (p.content_hash.empty()) ip.bind_null(13); else ip.bind(13, p.content_hash);
  ip.bind(14, p.content_type).bind(15, p.charset).bind(16, p.charset_from).bind(17, p.replaced_bytes);
  if (p.last_modified.empty()) ip.bind_null(18); else ip.bind(18, p.last_modified);
  if (p.etag.empty()) ip.bind_null(19); else ip.bind(19, p.etag);
  if (p.relevant) ip.bind(20, *p.relevant ? 1 : 0); else ip.bind_null(20);
  ip.bind(21, p.segments).bind(22, p.segments_in_scope).bind(23, p.chronons).bind(24, p.links).bind(25, p.links_kept)
      .bind(26, p.depth).bind(27, p.backlinks).bind(28, p.attempts);
  if (doc_id) ip.bind(29, *doc_id); else ip.bind_null(29);
  if (p.main_signature) {
    ip.bind(30, static_cast<std::int64_t>(p.main_signature->exact))
        .bind(31, static_cast<std::int64_t>(p.main_signature->simhash))
        .bind(32, static_cast<std::int64_t>(p.main_signature->words));
  } else {
    ip.bind_null(30).bind_null(31).bind_null(32);
  }
  ip.bind(33, static_cast<std::int64_t>(p.revisit ? 1 : 0));
  if (p.changed) ip.bind(34, static_cast<std::int64_t>(*p.changed ? 1 : 0)); else ip.bind_null(34);
  if (p.new_urls) ip.bind(35, *p.new_urls); else ip.bind_null(35);
  if (p.link_priority) ip.bind(36, *p.link_priority); else ip.bind_null(36);
  if (p.main_signature && p.main_signature->links != 0)
    ip.bind(37, static_cast<std::int64_t>(p.main_signature->links));
  else
    ip.bind_null(37);
  if (Status r = ip.run(); !r.ok()) return r;
  const std::int64_t page_id = db_.last_insert_id();
  if (p.features)
    if (Status r = s.insert_features.bind(1, page_id).bind(2, revisit::features_json(*p.features)).run(); !r.ok())
      return r;
  if (!p.ip.empty() && page_url_id)
    if (Status r = s.update_address.bind(1, p.ip).bind(2, page_url_id).run(); !r.ok()) return r;
  if (!p.redirect_to.empty()) {
    if (Status r = s.insert_redirect.bind(1, page_id).bind(2, p.url).bind(3, p.redirect_to)
                       .bind(4, static_cast<std::int64_t>(p.status)).run();
        !r.ok())
      return r;
  }
  if (p.history) {
    if (Status r = s.insert_history.bind(1, page_id).bind(2, run_id_).bind(3, p.url).bind(4, p.fetched_at).run();
        !r.ok())
      return r;
    if (order_) order_lines->push_back(order_line(p.url, p.fetched_at, run_start_ms_, run_offset_));
  }
  if (warc_ && !p.warc_response_head.empty())
    if (Status r = write_warc(p.final_url, p.fetched_at, p.ip, p.warc_request, p.warc_response_head, p.body, &p);
        !r.ok())
      return r;
  return Status::Ok();
}

void CrawlStore::writer_loop() {
  std::unique_lock lk(mu_);
  for (;;) {
    cv_.wait(lk, [&] { return !queue_.empty() || stopping_; });
    if (queue_.empty() && stopping_) break;
    lk.unlock();

    Status status;
    store::Transaction tx(db_);
    status = tx.begin_status();
    std::vector<std::string> order_lines;
    std::uint64_t last = 0;
    std::size_t n = 0;
    const auto deadline = std::chrono::steady_clock::now() + options_.batch_time;
    lk.lock();
    while (n < options_.batch_jobs) {
      if (queue_.empty()) {
        if (stopping_ || hurry_) break;
        if (cv_.wait_until(lk, deadline, [&] { return !queue_.empty() || stopping_ || hurry_; }) == false) break;
        if (queue_.empty()) break;
      }
      StoreJob job = std::move(queue_.front());
      queue_.pop_front();
      lk.unlock();
      if (status.ok() && !failed_) status = apply(job, &order_lines);
      last = job.id;
      ++n;
      const std::size_t bytes = job.bytes;
      job = StoreJob{};  // free it before taking the lock
      lk.lock();
      queue_bytes_ -= bytes;
      if (std::chrono::steady_clock::now() >= deadline) break;
    }
    hurry_ = false;
    lk.unlock();
    // The batch's WARC records are made durable before the pages that refer
    // to them are committed: a power cut cannot leave a stored page whose
    // record is lost (a killed process loses nothing written either way).
    if (status.ok() && !failed_ && warc_) status = warc_->flush();
    if (status.ok() && !failed_) status = tx.commit();
    if (status.ok() && !failed_) {
      if (order_ && !order_lines.empty()) {
        for (const std::string& url : order_lines) {
          std::fwrite(url.data(), 1, url.size(), order_);
          std::fputc('\n', order_);
        }
        std::fflush(order_);
      }
    }
    lk.lock();
    if (!status.ok() && !failed_) {
      error_ = status;
      failed_ = true;
    }
    committed_ = last;
    lk.unlock();
    if (on_commit_) on_commit_(last);
    lk.lock();
  }
}

void CrawlStore::commit_soon() {
  std::lock_guard lk(mu_);
  hurry_ = true;
  cv_.notify_all();
}

Status CrawlStore::finish(const std::string& end_reason) {
  {
    std::lock_guard lk(mu_);
    stopping_ = true;
    cv_.notify_all();
  }
  if (writer_.joinable()) writer_.join();
  Status result = error();
  if (run_id_) {
    auto st = db_.prepare("UPDATE runs SET ended_at = ?, end_reason = ? WHERE id = ?");
    if (st.ok()) {
      Status s = st->bind(1, now_iso()).bind(2, end_reason).bind(3, run_id_).run();
      if (result.ok() && !s.ok()) result = s;
    }
  }
  if (warc_) {
    Status s = warc_->flush();
    if (result.ok() && !s.ok()) result = s;
    warc_.reset();
  }
  if (order_) {
    std::fclose(order_);
    order_ = nullptr;
  }
  db_.exec("PRAGMA wal_checkpoint(TRUNCATE)");
  return result;
}

}  // namespace cronista::crawler
