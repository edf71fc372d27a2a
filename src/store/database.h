// A thin RAII adapter over SQLite: one connection, prepared statements,
// transactions, errors as Status. Not thread-safe: one Database per thread
// (the crawler and the builder funnel all writes through a single writer).
#pragma once

#include <sqlite3.h>

#include <cstdint>
#include <optional>
#include <string>
#include <memory>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "temporal/status.h"

namespace cronista::store {

class Statement {
 public:
  Statement() = default;
  Statement(sqlite3* db, sqlite3_stmt* stmt) : db_(db), stmt_(stmt) {}
  Statement(Statement&& o) noexcept : db_(o.db_), stmt_(o.stmt_) { o.stmt_ = nullptr; }
  Statement& operator=(Statement&& o) noexcept;
  Statement(const Statement&) = delete;
  Statement& operator=(const Statement&) = delete;
  ~Statement();

  // Parameters are 1-based, as in SQLite.
  Statement& bind(int i, std::int64_t v);
  Statement& bind(int i, int v) { return bind(i, static_cast<std::int64_t>(v)); }
  Statement& bind(int i, double v);
  Statement& bind(int i, std::string_view v);  // bound as TEXT (copied)
  // Bound as TEXT without a copy: the bytes must stay alive and unchanged
  // until the statement is run, reset or bound again at i.
  Statement& bind_view(int i, std::string_view v);
  Statement& bind(int i, const char* v) { return bind(i, std::string_view(v)); }
  Statement& bind_blob(int i, std::string_view v);
  Statement& bind_null(int i);
  template <typename T>
  Statement& bind(int i, const std::optional<T>& v) { return v ? bind(i, *v) : bind_null(i); }

  // Advances: true when a row is available, false when done. Errors are
  // reported by status() after step() returned false.
  bool step();
  // Runs to completion; the error, if any.
  Status run();
  Status status() const { return status_; }
  void reset();

  std::int64_t column_int(int i) const;
  double column_double(int i) const;
  std::string column_text(int i) const;
  bool column_is_null(int i) const;

 private:
  sqlite3* db_ = nullptr;
  sqlite3_stmt* stmt_ = nullptr;
  Status status_;
};

class Database {
 public:
  // Opens (creating if needed) with WAL, foreign keys on and a busy timeout.
  static Result<Database> open(const std::string& path, bool read_only = false);

  Database() = default;
  Database(Database&& o) noexcept : db_(o.db_), path_(std::move(o.path_)), cache_(std::move(o.cache_)) {
    o.db_ = nullptr;
  }
  Database& operator=(Database&& o) noexcept;
  Database(const Database&) = delete;
  Database& operator=(const Database&) = delete;
  ~Database();

  Status exec(std::string_view sql);
  Result<Statement> prepare(std::string_view sql);
  // A statement prepared once per connection and kept for reuse (for SQL run
  // once per row on hot paths). The pointer lives as long as the Database;
  // the caller resets it after a SELECT (run() resets by itself).
  Result<Statement*> cached(const std::string& sql);
  std::int64_t last_insert_id() const;
  const std::string& path() const { return path_; }
  sqlite3* handle() const { return db_; }

  // Whether the database holds a table of this name.
  Result<bool> has_table(std::string_view name);
  // Whether `table` has a column of this name (false when there is no such table).
  Result<bool> has_column(std::string_view table, std::string_view column);

  // Schema version in PRAGMA user_version.
  int user_version();
  Status set_user_version(int v);

 private:
  sqlite3* db_ = nullptr;
  std::string path_;
  std::unordered_map<std::string, std::unique_ptr<Statement>> cache_;
};

// Commits on commit(), rolls back in the destructor otherwise.
class Transaction {
 public:
  explicit Transaction(Database& db);
  ~Transaction();
  Status begin_status() const { return begin_; }
  Status commit();

 private:
  Database& db_;
  Status begin_;
  bool done_ = false;
};

}  // namespace cronista::store
