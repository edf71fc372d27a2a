#include "crawler/crawl_record.h"

#include <nlohmann/json.hpp>

#include <cstdio>
#include <filesystem>

#include "store/database.h"

namespace cronista::crawler {

namespace {

Result<std::optional<store::Database>> open_crawl(const std::string& db_path) {
  std::error_code ec;
  if (!std::filesystem::is_regular_file(db_path, ec)) return std::optional<store::Database>();
  auto db = store::Database::open(db_path, /*read_only=*/true);
  if (!db.ok()) return db.status();
  auto runs = db->has_table("runs");
  if (!runs.ok()) return runs.status();
  if (!*runs) return std::optional<store::Database>();
  return std::optional<store::Database>(std::move(*db));
}

// A query about one URL, prepared once per database (a crawl may have
// thousands of seeds), bound to `url` and ready to step.
Result<store::Statement*> lookup(store::Database& db, const std::string& sql, const std::string& url) {
  auto st = db.cached(sql);
  if (!st.ok()) return st.status();
  (*st)->reset();
  (*st)->bind(1, url);
  return *st;
}

// The fate of one URL of the crawl, following its redirects.
Result<SeedFate> fate_of(store::Database& db, const std::string& seed) {
  SeedFate f;
  f.url = seed;
  std::string url = seed, prefix;
  for (int hop = 0; hop < 32; ++hop) {
    auto us = lookup(db,
        "SELECT u.state, h.robots_outcome, h.authority FROM urls u JOIN hosts h ON h.id = u.host_id WHERE u.url = ?",
        url);
    if (!us.ok()) return us.status();
    store::Statement& u = **us;
    if (!u.step()) {
      if (!u.status().ok()) return u.status();
      f.fate = prefix + "not queued (outside the hosts allowed)";
      return f;
    }
    const std::string state = u.column_text(0), robots = u.column_text(1), authority = u.column_text(2);
    if (state == "queued") {
      f.fate = prefix + "not fetched yet (still queued)";
      return f;
    }
    if (state == "dropped") {
      if (robots.find("unreachable") != std::string::npos)
        f.fate = prefix + "not fetched: " + authority + " did not answer (robots.txt: " + robots + ")";
      else
        f.fate = prefix + "not fetched: disallowed by the robots.txt of " + authority +
                 (robots.empty() ? std::string() : " (" + robots + ")");
      return f;
    }
    auto ps = lookup(db,
        "SELECT p.status, p.error_kind, p.error, p.relevant, r.to_url FROM pages p "
        "LEFT JOIN redirects r ON r.page_id = p.id WHERE p.url = ? ORDER BY p.id DESC LIMIT 1",
        url);
    if (!ps.ok()) return ps.status();
    store::Statement& p = **ps;
    if (!p.step()) {
      if (!p.status().ok()) return p.status();
      f.fate = prefix + "not fetched";
      return f;
    }
    const long status = static_cast<long>(p.column_int(0));
    const std::string kind = p.column_text(1), error = p.column_text(2);
    if (!p.column_is_null(4)) {
      url = p.column_text(4);
      prefix += "redirected (HTTP " + std::to_string(status) + ") to " + url + ", then ";
      continue;
    }
    if (status == 0) {
      f.fate = prefix + "failed: " + (kind.empty() ? std::string("error") : kind) + (error.empty() ? "" : " (" + error + ")");
      return f;
    }
    f.downloaded = true;
    if (status >= 400) {
      f.fate = prefix + "downloaded an error page (HTTP " + std::to_string(status) + ")";
    } else {
      const std::string verdict = p.column_is_null(3) ? "not analysed" : p.column_int(3) ? "relevant" : "not relevant";
      f.fate = prefix + "downloaded (HTTP " + std::to_string(status) + ", " + verdict + ")";
    }
    return f;
  }
  f.fate = prefix + "too many redirects";
  return f;
}

}  // namespace

std::string clock_time(double seconds) {
  const long s = static_cast<long>(seconds + 0.5);
  char b[32];
  if (s >= 3600)
    std::snprintf(b, sizeof b, "%ldh%02ldm%02lds", s / 3600, s / 60 % 60, s % 60);
  else if (s >= 60)
    std::snprintf(b, sizeof b, "%ldm%02lds", s / 60, s % 60);
  else
    std::snprintf(b, sizeof b, "%lds", s);
  return b;
}

std::string encode_args(const std::vector<std::string>& args) { return nlohmann::json(args).dump(); }

Result<std::vector<std::string>> decode_args(const std::string& text) {
  auto j = nlohmann::json::parse(text, nullptr, /*allow_exceptions=*/false);
  if (!j.is_array()) return Result<std::vector<std::string>>::Error("not a JSON array of arguments");
  std::vector<std::string> out;
  for (const auto& a : j) {
    if (!a.is_string()) return Result<std::vector<std::string>>::Error("not a JSON array of arguments");
    out.push_back(a.get<std::string>());
  }
  return out;
}

Result<std::optional<StoredCrawl>> read_stored_crawl(const std::string& db_path) {
  auto db = open_crawl(db_path);
  if (!db.ok()) return db.status();
  if (!*db) return std::optional<StoredCrawl>();
  StoredCrawl c;
  {
    auto st = (*db)->prepare("SELECT args FROM runs ORDER BY id");
    if (!st.ok()) return st.status();
    while (st->step()) {
      auto args = decode_args(st->column_text(0));
      if (args.ok())
        c.run_args.push_back(std::move(*args));
      else
        c.unrecorded_args = true;
    }
    if (!st->status().ok()) return st->status();
  }
  if (c.run_args.empty() && !c.unrecorded_args) return std::optional<StoredCrawl>();
  auto st = (*db)->prepare("SELECT url FROM urls WHERE depth = 0 AND redirects = 0 ORDER BY seq");
  if (!st.ok()) return st.status();
  while (st->step()) c.seeds.push_back(st->column_text(0));
  if (!st->status().ok()) return st->status();
  return std::optional<StoredCrawl>(std::move(c));
}

Result<CrawlOutcome> crawl_outcome(const std::string& db_path) {
  auto db = open_crawl(db_path);
  if (!db.ok()) return db.status();
  CrawlOutcome out;
  if (!*db) return out;
  store::Database& d = **db;
  std::vector<std::string> seeds;
  {
    auto st = d.prepare("SELECT url FROM urls WHERE depth = 0 AND redirects = 0 ORDER BY seq");
    if (!st.ok()) return st.status();
    while (st->step()) seeds.push_back(st->column_text(0));
    if (!st->status().ok()) return st->status();
  }
  for (const std::string& s : seeds) {
    auto f = fate_of(d, s);
    if (!f.ok()) return f.status();
    out.seeds.push_back(std::move(*f));
  }
  {
    auto st = d.prepare("SELECT authority, robots_outcome FROM hosts WHERE robots_outcome LIKE '%unreachable%' ORDER BY id");
    if (!st.ok()) return st.status();
    while (st->step()) out.unreachable.push_back({st->column_text(0), "robots.txt: " + st->column_text(1)});
    if (!st->status().ok()) return st->status();
  }
  {
    // Hosts that answered no page fetch at all.
    auto st = d.prepare(
        "SELECT h.authority, group_concat(DISTINCT p.error_kind), max(p.error), "
        "sum(CASE WHEN p.error_kind IN ('dns','connect','timeout','tls') THEN 0 ELSE 1 END) "
        "FROM pages p JOIN urls u ON u.id = p.url_id JOIN hosts h ON h.id = u.host_id "
        "GROUP BY h.id ORDER BY h.id");
    if (!st.ok()) return st.status();
    while (st->step()) {
      if (st->column_int(3) != 0) continue;
      std::string authority = st->column_text(0);
      bool known = false;
      for (const auto& h : out.unreachable) known = known || h.authority == authority;
      if (!known) out.unreachable.push_back({authority, st->column_text(1) + ": " + st->column_text(2)});
    }
    if (!st->status().ok()) return st->status();
  }
  auto n = d.prepare("SELECT (SELECT count(*) FROM history), (SELECT coalesce(sum(size), 0) FROM pages)");
  if (!n.ok()) return n.status();
  if (n->step()) {
    out.pages = n->column_int(0);
    out.bytes = n->column_int(1);
  }
  return out;
}

}  // namespace cronista::crawler
