#include "store/analysis_store.h"

namespace cronista::store {

namespace {

// 2: segments keep their text (segments.text), for `cronista export`.
constexpr int kSchemaVersion = 2;

// Offsets are byte offsets into the analysed text; text_size lets reports
// compute relative positions (quartiles) without the text.
constexpr const char* kSchema = R"sql(
CREATE TABLE IF NOT EXISTS analysis_settings (
  key TEXT PRIMARY KEY,
  value TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS documents (
  id INTEGER PRIMARY KEY,
  key TEXT NOT NULL UNIQUE,
  url TEXT,
  source TEXT,
  dct TEXT,               -- YYYY-MM-DD or NULL
  dct_source TEXT,
  title TEXT,
  size_bytes INTEGER NOT NULL DEFAULT 0,
  text_size INTEGER NOT NULL DEFAULT 0,
  analysed_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%SZ','now'))
);
CREATE TABLE IF NOT EXISTS expressions (
  id INTEGER PRIMARY KEY,
  doc_id INTEGER NOT NULL REFERENCES documents(id) ON DELETE CASCADE,
  ordinal INTEGER NOT NULL,
  start INTEGER NOT NULL,
  end INTEGER NOT NULL,
  text TEXT NOT NULL,
  type TEXT NOT NULL,     -- TIMEX3 type
  value TEXT,             -- TIMEX3 value
  harem_type TEXT NOT NULL,
  harem_subtype TEXT,
  reference TEXT NOT NULL,
  resolved INTEGER NOT NULL
);
CREATE INDEX IF NOT EXISTS expressions_doc ON expressions(doc_id);
CREATE TABLE IF NOT EXISTS segments (
  id INTEGER PRIMARY KEY,
  doc_id INTEGER NOT NULL REFERENCES documents(id) ON DELETE CASCADE,
  ordinal INTEGER NOT NULL,
  start INTEGER NOT NULL,
  end INTEGER NOT NULL,
  boilerplate INTEGER NOT NULL DEFAULT 0,
  in_scope INTEGER,       -- NULL when no period applies
  text TEXT               -- the segment's text; NULL in databases of schema version 1
);
CREATE INDEX IF NOT EXISTS segments_doc ON segments(doc_id);
CREATE TABLE IF NOT EXISTS chronons (
  id INTEGER PRIMARY KEY,
  segment_id INTEGER NOT NULL REFERENCES segments(id) ON DELETE CASCADE,
  doc_id INTEGER NOT NULL REFERENCES documents(id) ON DELETE CASCADE,
  value TEXT NOT NULL,    -- contract form: 1944-06-XX
  granularity TEXT NOT NULL,
  first_day INTEGER,      -- days since 1970-01-01, NULL when unplaceable
  last_day INTEGER
);
CREATE INDEX IF NOT EXISTS chronons_segment ON chronons(segment_id);
CREATE INDEX IF NOT EXISTS chronons_doc ON chronons(doc_id);
CREATE TABLE IF NOT EXISTS links (
  id INTEGER PRIMARY KEY,
  doc_id INTEGER NOT NULL REFERENCES documents(id) ON DELETE CASCADE,
  segment_id INTEGER REFERENCES segments(id) ON DELETE CASCADE,
  target TEXT NOT NULL,
  anchor TEXT,
  position INTEGER,       -- byte offset of the anchor in the text
  in_scope INTEGER
);
CREATE INDEX IF NOT EXISTS links_doc ON links(doc_id);
CREATE INDEX IF NOT EXISTS links_target ON links(target);
)sql";

std::string granularity_name(temporal::Granularity g) {
  using temporal::Granularity;
  switch (g) {
    case Granularity::Second: return "second";
    case Granularity::Minute: return "minute";
    case Granularity::Hour: return "hour";
    case Granularity::Day: return "day";
    case Granularity::Month: return "month";
    case Granularity::Year: return "year";
    default: return "unknown";
  }
}

}  // namespace

Status AnalysisStore::ensure_schema(Database& db) {
  int v = db.user_version();
  if (v > kSchemaVersion)
    return Status::Error("database '" + db.path() + "' has schema version " + std::to_string(v) +
                         ", newer than this cronista understands (" + std::to_string(kSchemaVersion) + ")");
  if (v == 1) {
    // Version 1 kept no segment text: add the column (NULL for the rows there).
    if (Status s = db.exec("ALTER TABLE segments ADD COLUMN text TEXT"); !s.ok())
      return Status::Error("database '" + db.path() + "': " + s.message());
  }
  if (Status s = db.exec(kSchema); !s.ok()) return Status::Error("database '" + db.path() + "': " + s.message());
  if (v < kSchemaVersion) return db.set_user_version(kSchemaVersion);
  return Status::Ok();
}

Result<std::optional<temporal::Genre>> AnalysisStore::genre(Database& db) {
  auto get = db.prepare("SELECT value FROM analysis_settings WHERE key = 'genre'");
  if (!get.ok()) return get.status();
  if (!get->step()) {
    if (!get->status().ok()) return get->status();
    return std::optional<temporal::Genre>();
  }
  const std::string name = get->column_text(0);
  auto g = temporal::parse_genre(name);
  if (!g) return Status::Error("database '" + db.path() + "' records an unknown genre '" + name + "'");
  return std::optional<temporal::Genre>(*g);
}

Status AnalysisStore::record_genre(Database& db, temporal::Genre genre) {
  auto stored = AnalysisStore::genre(db);
  if (!stored.ok()) return stored.status();
  if (*stored) {
    if (**stored == genre) return Status::Ok();
    return Status::Error("database '" + db.path() + "' was tagged with --genre " +
                         std::string(temporal::to_string(**stored)) + ", not " +
                         std::string(temporal::to_string(genre)) + ": give the same genre, or another --db");
  }
  auto put = db.prepare("INSERT INTO analysis_settings(key, value) VALUES ('genre', ?)");
  if (!put.ok()) return put.status();
  put->bind(1, temporal::to_string(genre));
  return put->run();
}

Result<bool> AnalysisStore::has_document(Database& db, const std::string& key) {
  auto st = db.cached("SELECT 1 FROM documents WHERE key = ?");
  if (!st.ok()) return st.status();
  Statement& q = **st;
  q.bind(1, key);
  const bool found = q.step();
  const Status status = q.status();
  q.reset();
  if (!status.ok()) return status;
  return found;
}

Result<std::int64_t> AnalysisStore::put(Database& db, const DocumentInfo& info, const StoredAnalysis& a) {
  using namespace temporal;
  if (Status s = [&] {
        auto del = db.cached("DELETE FROM documents WHERE key = ?");
        if (!del.ok()) return del.status();
        return (*del)->bind(1, info.key).run();
      }();
      !s.ok())
    return s;

  auto ins = db.cached(
      "INSERT INTO documents(key, url, source, dct, dct_source, title, size_bytes, text_size) "
      "VALUES (?,?,?,?,?,?,?,?)");
  if (!ins.ok()) return ins.status();
  (*ins)->bind(1, info.key);
  if (info.url.empty()) (*ins)->bind_null(2); else (*ins)->bind(2, info.url);
  (*ins)->bind(3, info.source);
  if (info.dct) (*ins)->bind(4, info.dct->to_string()); else (*ins)->bind_null(4);
  if (info.dct_source.empty()) (*ins)->bind_null(5); else (*ins)->bind(5, info.dct_source);
  (*ins)->bind(6, info.title);
  (*ins)->bind(7, info.size_bytes);
  (*ins)->bind(8, static_cast<std::int64_t>(a.doc ? a.doc->text.size() : 0));
  if (Status s = (*ins)->run(); !s.ok()) return s;
  const std::int64_t doc_id = db.last_insert_id();

  if (a.expressions) {
    auto st = db.cached(
        "INSERT INTO expressions(doc_id, ordinal, start, end, text, type, value, harem_type, harem_subtype, "
        "reference, resolved) VALUES (?,?,?,?,?,?,?,?,?,?,?)");
    if (!st.ok()) return st.status();
    std::int64_t ordinal = 0;
    for (const TemporalExpression& e : *a.expressions) {
      (*st)->bind(1, doc_id).bind(2, ordinal++).bind(3, static_cast<std::int64_t>(e.start))
          .bind(4, static_cast<std::int64_t>(e.end)).bind_view(5, e.text).bind(6, to_string(e.type))
          .bind_view(7, e.value).bind(8, to_string(e.harem_type)).bind(9, to_string(e.harem_subtype))
          .bind(10, to_string(e.reference)).bind(11, e.resolved ? 1 : 0);
      if (Status s = (*st)->run(); !s.ok()) return s;
    }
  }

  std::vector<std::int64_t> segment_ids;
  if (a.segments) {
    auto seg = db.cached(
        "INSERT INTO segments(doc_id, ordinal, start, end, boilerplate, in_scope, text) VALUES (?,?,?,?,?,?,?)");
    auto chr = db.cached(
        "INSERT INTO chronons(segment_id, doc_id, value, granularity, first_day, last_day) VALUES (?,?,?,?,?,?)");
    if (!seg.ok()) return seg.status();
    if (!chr.ok()) return chr.status();
    for (std::size_t i = 0; i < a.segments->size(); ++i) {
      const Segment& s = (*a.segments)[i];
      (*seg)->bind(1, doc_id).bind(2, static_cast<std::int64_t>(i)).bind(3, static_cast<std::int64_t>(s.start))
          .bind(4, static_cast<std::int64_t>(s.end)).bind(5, s.boilerplate ? 1 : 0);
      if (i < a.segment_in_scope.size()) (*seg)->bind(6, a.segment_in_scope[i] ? 1 : 0); else (*seg)->bind_null(6);
      if (a.doc && s.start <= s.end && s.end <= a.doc->text.size())
        (*seg)->bind_view(7, std::string_view(a.doc->text).substr(s.start, s.end - s.start));
      else
        (*seg)->bind_null(7);
      if (Status st = (*seg)->run(); !st.ok()) return st;
      const std::int64_t seg_id = db.last_insert_id();
      segment_ids.push_back(seg_id);
      for (const Chronon& c : s.chronons) {
        (*chr)->bind(1, seg_id).bind(2, doc_id).bind(3, c.to_string()).bind(4, granularity_name(c.granularity()));
        if (auto r = c.days()) (*chr)->bind(5, static_cast<std::int64_t>(r->first)).bind(6, static_cast<std::int64_t>(r->last));
        else (*chr)->bind_null(5).bind_null(6);
        if (Status st = (*chr)->run(); !st.ok()) return st;
      }
    }
  }

  if (!a.links.empty()) {
    auto st = db.cached(
        "INSERT INTO links(doc_id, segment_id, target, anchor, position, in_scope) VALUES (?,?,?,?,?,?)");
    if (!st.ok()) return st.status();
    for (const LinkInfo& l : a.links) {
      (*st)->bind(1, doc_id);
      if (l.segment && *l.segment < segment_ids.size()) (*st)->bind(2, segment_ids[*l.segment]); else (*st)->bind_null(2);
      (*st)->bind_view(3, l.target).bind_view(4, l.anchor);
      if (l.position) (*st)->bind(5, static_cast<std::int64_t>(*l.position)); else (*st)->bind_null(5);
      if (l.in_scope) (*st)->bind(6, *l.in_scope ? 1 : 0); else (*st)->bind_null(6);
      if (Status s = (*st)->run(); !s.ok()) return s;
    }
  }
  return doc_id;
}

}  // namespace cronista::store
