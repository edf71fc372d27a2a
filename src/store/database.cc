#include "store/database.h"

#include <utility>

namespace cronista::store {

Statement& Statement::operator=(Statement&& o) noexcept {
  if (this != &o) {
    if (stmt_) sqlite3_finalize(stmt_);
    db_ = o.db_;
    stmt_ = std::exchange(o.stmt_, nullptr);
    status_ = o.status_;
  }
  return *this;
}

Statement::~Statement() {
  if (stmt_) sqlite3_finalize(stmt_);
}

Statement& Statement::bind(int i, std::int64_t v) {
  sqlite3_bind_int64(stmt_, i, v);
  return *this;
}
Statement& Statement::bind(int i, double v) {
  sqlite3_bind_double(stmt_, i, v);
  return *this;
}
Statement& Statement::bind(int i, std::string_view v) {
  sqlite3_bind_text64(stmt_, i, v.data(), v.size(), SQLITE_TRANSIENT, SQLITE_UTF8);
  return *this;
}
Statement& Statement::bind_view(int i, std::string_view v) {
  sqlite3_bind_text64(stmt_, i, v.data(), v.size(), SQLITE_STATIC, SQLITE_UTF8);
  return *this;
}
Statement& Statement::bind_blob(int i, std::string_view v) {
  sqlite3_bind_blob64(stmt_, i, v.data(), v.size(), SQLITE_TRANSIENT);
  return *this;
}
Statement& Statement::bind_null(int i) {
  sqlite3_bind_null(stmt_, i);
  return *this;
}

bool Statement::step() {
  int rc = sqlite3_step(stmt_);
  if (rc == SQLITE_ROW) return true;
  if (rc != SQLITE_DONE) status_ = Status::Error(std::string("sqlite: ") + sqlite3_errmsg(db_));
  return false;
}

Status Statement::run() {
  while (step()) {
  }
  Status s = status_;
  reset();
  return s;
}

void Statement::reset() {
  sqlite3_reset(stmt_);
  sqlite3_clear_bindings(stmt_);
  status_ = Status::Ok();
}

std::int64_t Statement::column_int(int i) const { return sqlite3_column_int64(stmt_, i); }
double Statement::column_double(int i) const { return sqlite3_column_double(stmt_, i); }
std::string Statement::column_text(int i) const {
  const unsigned char* p = sqlite3_column_text(stmt_, i);
  return p ? std::string(reinterpret_cast<const char*>(p), sqlite3_column_bytes(stmt_, i)) : std::string();
}
bool Statement::column_is_null(int i) const { return sqlite3_column_type(stmt_, i) == SQLITE_NULL; }

Result<Database> Database::open(const std::string& path, bool read_only) {
  sqlite3* db = nullptr;
  int flags = read_only ? SQLITE_OPEN_READONLY : (SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE);
  int rc = sqlite3_open_v2(path.c_str(), &db, flags | SQLITE_OPEN_NOMUTEX, nullptr);
  if (rc != SQLITE_OK) {
    std::string msg = "cannot open database '" + path + "': " + (db ? sqlite3_errmsg(db) : sqlite3_errstr(rc));
    sqlite3_close(db);
    return Result<Database>::Error(msg);
  }
  Database d;
  d.db_ = db;
  d.path_ = path;
  sqlite3_busy_timeout(db, 10000);
  // Reading the schema catches "file is not a database" early, with the path.
  if (Status s = d.exec("SELECT count(*) FROM sqlite_master"); !s.ok())
    return Result<Database>::Error("'" + path + "' is not a usable SQLite database (" + s.message() + ")");
  if (!read_only) {
    if (Status s = d.exec("PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL; PRAGMA foreign_keys=ON;"); !s.ok())
      return Result<Database>::Error("database '" + path + "': " + s.message());
  }
  return d;
}

Database& Database::operator=(Database&& o) noexcept {
  if (this != &o) {
    cache_.clear();  // finalize before closing
    if (db_) sqlite3_close_v2(db_);
    db_ = std::exchange(o.db_, nullptr);
    path_ = std::move(o.path_);
    cache_ = std::move(o.cache_);
  }
  return *this;
}

Database::~Database() {
  cache_.clear();
  if (db_) sqlite3_close_v2(db_);
}

Result<Statement*> Database::cached(const std::string& sql) {
  if (auto it = cache_.find(sql); it != cache_.end()) return it->second.get();
  auto st = prepare(sql);
  if (!st.ok()) return st.status();
  auto owned = std::make_unique<Statement>(std::move(st).value());
  Statement* raw = owned.get();
  cache_.emplace(sql, std::move(owned));
  return raw;
}

Status Database::exec(std::string_view sql) {
  std::string s(sql);
  char* err = nullptr;
  if (sqlite3_exec(db_, s.c_str(), nullptr, nullptr, &err) != SQLITE_OK) {
    std::string msg = std::string("sqlite: ") + (err ? err : sqlite3_errmsg(db_));
    sqlite3_free(err);
    return Status::Error(msg);
  }
  return Status::Ok();
}

Result<Statement> Database::prepare(std::string_view sql) {
  sqlite3_stmt* stmt = nullptr;
  if (sqlite3_prepare_v2(db_, sql.data(), static_cast<int>(sql.size()), &stmt, nullptr) != SQLITE_OK)
    return Result<Statement>::Error(std::string("sqlite: ") + sqlite3_errmsg(db_));
  return Statement(db_, stmt);
}

std::int64_t Database::last_insert_id() const { return sqlite3_last_insert_rowid(db_); }

int Database::user_version() {
  auto st = prepare("PRAGMA user_version");
  if (!st.ok() || !st->step()) return 0;
  return static_cast<int>(st->column_int(0));
}

Result<bool> Database::has_table(std::string_view name) {
  auto st = prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?1");
  if (!st.ok()) return st.status();
  st->bind(1, std::string(name));
  const bool found = st->step();
  if (!st->status().ok()) return st->status();
  return found;
}

Result<bool> Database::has_column(std::string_view table, std::string_view column) {
  auto st = prepare("SELECT 1 FROM pragma_table_info(?1) WHERE name = ?2");
  if (!st.ok()) return st.status();
  st->bind(1, std::string(table)).bind(2, std::string(column));
  const bool found = st->step();
  if (!st->status().ok()) return st->status();
  return found;
}

Status Database::set_user_version(int v) { return exec("PRAGMA user_version=" + std::to_string(v)); }

Transaction::Transaction(Database& db) : db_(db), begin_(db.exec("BEGIN IMMEDIATE")) {}

Transaction::~Transaction() {
  if (!done_ && begin_.ok()) db_.exec("ROLLBACK");
}

Status Transaction::commit() {
  if (!begin_.ok()) return begin_;
  done_ = true;
  return db_.exec("COMMIT");
}

}  // namespace cronista::store
