// The shards of one shared crawl read as one database; see crawl_shards.h.
#include "crawler/crawl_shards.h"

#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <map>
#include <set>

#include "crawler/crawl_record.h"

namespace cronista::crawler {

namespace {

using R = Result<store::Database>;

// What makes two shards parts of one crawl.
struct Identity {
  std::string crawl_id, mode, period;
  bool operator==(const Identity&) const = default;
};

std::string in_quotes(const std::string& s) { return "'" + s + "'"; }

// SQLite's string literal for s.
std::string literal(const std::string& s) {
  std::string out = "'";
  for (char c : s) out += c == '\'' ? std::string("''") : std::string(1, c);
  return out + "'";
}

Result<Identity> identity_of(const std::string& path) {
  using RI = Result<Identity>;
  std::error_code ec;
  if (!std::filesystem::is_regular_file(path, ec)) return RI::Error("no database at '" + path + "'");
  auto db = store::Database::open(path, /*read_only=*/true);
  if (!db.ok()) return RI::Error(db.status().message());
  auto runs = db->has_table("runs");
  if (!runs.ok()) return RI::Error(runs.status().message());
  if (!*runs) return RI::Error("'" + path + "' is not a crawl database (no runs table): only crawl shards merge");
  auto st = db->prepare("SELECT mode, period_from || '..' || period_to, args FROM runs ORDER BY id");
  if (!st.ok()) return RI::Error(st.status().message());
  Identity id;
  bool first = true;
  while (st->step()) {
    Identity run{"", st->column_text(0), st->column_text(1)};
    if (auto args = decode_args(st->column_text(2)); args.ok()) {
      for (std::size_t i = 0; i < args->size(); ++i) {
        const std::string& a = (*args)[i];
        if (a == "--crawl-id" && i + 1 < args->size()) run.crawl_id = (*args)[i + 1];
        if (a.rfind("--crawl-id=", 0) == 0) run.crawl_id = a.substr(11);
      }
    }
    if (first) id = run;
    else if (!(run == id))
      return RI::Error("'" + path + "' holds runs of different crawls");
    first = false;
  }
  if (!st->status().ok()) return RI::Error("reading '" + path + "': " + st->status().message());
  if (first) return RI::Error("'" + path + "' holds no crawl run");
  return id;
}

// Columns naming a row of a shard: offset per shard so that shards never share one.
const std::set<std::string> kIdColumns = {"id", "doc_id", "segment_id", "run_id", "url_id", "document_id",
                                          "resumed_from"};

}  // namespace

R open_shards(const std::vector<std::string>& paths) {
  if (paths.empty()) return R::Error("no database given");
  if (paths.size() == 1) {  // any database (a collection too), as it is
    std::error_code ec;
    if (!std::filesystem::is_regular_file(paths[0], ec)) return R::Error("no database at '" + paths[0] + "'");
    return store::Database::open(paths[0], /*read_only=*/true);
  }
  std::vector<Identity> ids;
  for (const auto& p : paths) {
    auto id = identity_of(p);
    if (!id.ok()) return R::Error(id.status().message());
    ids.push_back(*id);
  }
  for (std::size_t i = 0; i < paths.size(); ++i) {
    if (ids[i].crawl_id.empty())
      return R::Error("'" + paths[i] + "' is not a shard of a shared crawl (it has no --crawl-id): only shards of one crawl merge");
    if (ids[i].crawl_id != ids[0].crawl_id)
      return R::Error("shards of different crawls: '" + paths[i] + "' has crawl id " + in_quotes(ids[i].crawl_id) + ", '" +
                      paths[0] + "' has " + in_quotes(ids[0].crawl_id));
    if (ids[i].mode != ids[0].mode || ids[i].period != ids[0].period)
      return R::Error("shards of different crawls: '" + paths[i] + "' crawls " + ids[i].period + " (" + ids[i].mode +
                      "), '" + paths[0] + "' " + ids[0].period + " (" + ids[0].mode + ")");
  }

  auto db = store::Database::open(":memory:");
  if (!db.ok()) return db;
  auto exec = [&](const std::string& sql) { return db->exec(sql); };
  const std::size_t n = paths.size();
  // One shard attached at a time (SQLite attaches at most 10 at once).
  auto attach = [&](std::size_t i) -> Status {
    if (Status s = exec("ATTACH DATABASE " + literal(paths[i]) + " AS shard"); !s.ok())
      return Status::Error("'" + paths[i] + "': " + s.message());
    return Status::Ok();
  };
  auto detach = [&] { return exec("DETACH DATABASE shard"); };
  auto has = [&](const std::string& table) {
    auto st = db->prepare("SELECT count(*) FROM shard.sqlite_master WHERE type = 'table' AND name = ?");
    if (!st.ok()) return false;
    st->bind(1, table);
    return st->step() && st->column_int(0) > 0;
  };

  // The tables (the first shard's, with its columns), and each shard's
  // downloads with their fetch times and its hosts.
  std::vector<std::string> tables;
  if (Status s = exec("CREATE TEMP TABLE page_times(shard INTEGER, old INTEGER, fetched_at TEXT);"
                      "CREATE TEMP TABLE history_times(shard INTEGER, old INTEGER, fetched_at TEXT);"
                      "CREATE TEMP TABLE allhosts(shard INTEGER, old INTEGER, authority TEXT);");
      !s.ok())
    return R::Error("merging shards: " + s.message());
  for (std::size_t i = 0; i < n; ++i) {
    if (Status s = attach(i); !s.ok()) return R::Error(s.message());
    const std::string shard = std::to_string(i);
    if (i == 0) {
      auto st = db->prepare("SELECT name FROM shard.sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name");
      if (!st.ok()) return R::Error(st.status().message());
      while (st->step()) tables.push_back(st->column_text(0));
      if (!st->status().ok()) return R::Error(st->status().message());
      for (const auto& table : tables)
        if (Status s = exec("CREATE TABLE main.\"" + table + "\" AS SELECT * FROM shard.\"" + table + "\" WHERE 0");
            !s.ok())
          return R::Error("merging shards: " + s.message());
    }
    for (const auto& [table, sql] : std::vector<std::pair<std::string, std::string>>{
             {"pages", "INSERT INTO temp.page_times SELECT " + shard + ", id, fetched_at FROM shard.pages"},
             {"history", "INSERT INTO temp.history_times SELECT " + shard + ", seq, fetched_at FROM shard.history"},
             {"hosts", "INSERT INTO temp.allhosts SELECT " + shard + ", id, authority FROM shard.hosts"}})
      if (has(table))
        if (Status s = exec(sql); !s.ok()) return R::Error("merging '" + paths[i] + "': " + s.message());
    if (Status s = detach(); !s.ok()) return R::Error(s.message());
  }

  // Downloads in the order of their fetch time across shards; hosts by authority.
  if (Status s = exec(
          "CREATE TEMP TABLE pagemap AS SELECT shard, old, row_number() OVER (ORDER BY fetched_at, shard, old) AS new "
          "FROM temp.page_times;"
          "CREATE UNIQUE INDEX temp.pagemap_old ON pagemap(shard, old);"
          "CREATE TEMP TABLE historymap AS SELECT shard, old, row_number() OVER (ORDER BY fetched_at, shard, old) AS new "
          "FROM temp.history_times;"
          "CREATE UNIQUE INDEX temp.historymap_old ON historymap(shard, old);"
          "CREATE INDEX temp.allhosts_authority ON allhosts(authority);"
          "CREATE TEMP TABLE hostmap AS SELECT a.shard, a.old, "
          "(SELECT min((b.shard << 40) + b.old) FROM allhosts b WHERE b.authority = a.authority) AS new FROM allhosts a;"
          "CREATE UNIQUE INDEX temp.hostmap_old ON hostmap(shard, old);");
      !s.ok())
    return R::Error("merging shards: " + s.message());

  std::map<std::string, std::vector<std::string>> columns;
  for (const auto& table : tables) {
    auto st = db->prepare("SELECT name FROM pragma_table_info(?, 'main')");
    if (!st.ok()) return R::Error(st.status().message());
    st->bind(1, table);
    while (st->step()) columns[table].push_back(st->column_text(0));
  }
  for (std::size_t i = 0; i < n; ++i) {
    if (Status s = attach(i); !s.ok()) return R::Error(s.message());
    const std::string shard = std::to_string(i);
    auto mapped = [&](const std::string& map, const std::string& col) {
      return "(SELECT new FROM temp." + map + " m WHERE m.shard = " + shard + " AND m.old = t." + col + ")";
    };
    for (const auto& table : tables) {
      const bool settings = table == "crawl_meta" || table == "analysis_settings";
      if (!has(table) || (settings && i > 0)) continue;
      std::string list, where;
      for (const auto& c : columns[table]) {
        std::string e;
        if (settings) e = "t.\"" + c + "\"";
        else if (table == "pages" && c == "id") e = mapped("pagemap", "id");
        else if (table == "history" && c == "seq") e = mapped("historymap", "seq");
        else if (c == "page_id") e = mapped("pagemap", "page_id");
        else if (c == "host_id" || (table == "hosts" && c == "id")) e = mapped("hostmap", c);
        else if (kIdColumns.count(c)) e = "(t.\"" + c + "\" + (" + shard + " << 40))";
        else e = "t.\"" + c + "\"";
        list += (list.empty() ? "" : ", ") + e;
      }
      // One row per authority: the shard whose row the host's new id names.
      if (table == "hosts") where = " WHERE " + mapped("hostmap", "id") + " = (" + shard + " << 40) + t.id";
      if (Status s = exec("INSERT INTO main.\"" + table + "\" SELECT " + list + " FROM shard.\"" + table + "\" t" + where);
          !s.ok())
        return R::Error("merging '" + paths[i] + "' (" + table + "): " + s.message());
    }
    if (Status s = detach(); !s.ok()) return R::Error(s.message());
  }
  // The indexes the readers' joins rely on.
  for (const auto& [table, cols] : std::vector<std::pair<std::string, std::string>>{
           {"pages", "id"}, {"pages", "url_id"}, {"pages", "url"}, {"history", "page_id"}, {"urls", "id"},
           {"urls", "host_id"}, {"documents", "id"}, {"expressions", "doc_id"}, {"segments", "id"},
           {"segments", "doc_id"}, {"chronons", "segment_id"}, {"chronons", "doc_id"}, {"links", "doc_id"},
           {"links", "target"}, {"hosts", "id"}})
    if (std::find(tables.begin(), tables.end(), table) != tables.end())
      if (Status s = exec("CREATE INDEX main.\"" + table + "_" + cols + "\" ON \"" + table + "\"(" + cols + ")"); !s.ok())
        return R::Error("merging shards: " + s.message());
  return db;
}

}  // namespace cronista::crawler
