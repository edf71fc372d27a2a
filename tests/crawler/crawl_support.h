// Shared by the crawl integration tests: a small web site served on
// loopback, crawl options suited to tests (tiny delays, quick retries), SQL
// helpers over the crawl database, and spawning the real binary.
#pragma once

#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <map>
#include <string>
#include <thread>
#include <vector>

#include "crawler/crawl.h"
#include "crawler/test_server.h"
#include "store/database.h"
#include "test_support.h"

namespace cronista::testing {

struct SitePage {
  int status = 200;
  std::string content_type = "text/html; charset=utf-8";
  std::string body;
  std::vector<std::pair<std::string, std::string>> headers;
};

// A TestServer whose paths are served from a map (filled before start()).
// Handlers registered on http() before start() take precedence.
class Site {
 public:
  explicit Site(std::string address = "127.0.0.1") : server_(std::move(address)) {}
  void page(const std::string& path, const std::string& body, int status = 200) {
    SitePage p;
    p.body = body;
    p.status = status;
    pages_[path] = p;
  }
  void page(const std::string& path, SitePage p) { pages_[path] = std::move(p); }
  TestServer& server() { return server_; }
  httplib::Server& http() { return server_.http(); }
  void start() {
    server_.http().Get(".*", [this](const httplib::Request& req, httplib::Response& res) {
      std::string target = req.path;
      if (!req.params.empty()) {
        std::string q;
        for (const auto& [k, v] : req.params) q += (q.empty() ? "" : "&") + k + "=" + v;
        target += "?" + q;
      }
      auto it = pages_.find(target);
      if (it == pages_.end()) {
        res.status = 404;
        res.set_content("<html><body>Não encontrado</body></html>", "text/html; charset=utf-8");
        return;
      }
      res.status = it->second.status;
      for (const auto& [k, v] : it->second.headers) res.set_header(k, v);
      res.set_content(it->second.body, it->second.content_type.c_str());
    });
    server_.start();
  }
  std::string url(const std::string& path) const { return server_.url(path); }
  std::string origin() const { return server_.origin(); }

 private:
  TestServer server_;
  std::map<std::string, SitePage> pages_;
};

inline std::string html(const std::string& body, const std::string& title = "Página") {
  return "<!DOCTYPE html><html lang=\"pt\"><head><meta charset=\"utf-8\"><title>" + title + "</title></head><body>" +
         body + "</body></html>";
}

inline crawler::CrawlOptions test_options(const TempDir& tmp, std::vector<std::string> seeds) {
  crawler::CrawlOptions o;
  o.seeds = std::move(seeds);
  o.db = (tmp / "crawl.db").string();
  o.from = "1939";
  o.to = "1945";
  o.period = *temporal::Period::parse("1939", "1945");
  o.temporal_mode = false;
  o.delay_ms = 20;
  o.host_connections = 2;
  o.connections = 8;
  o.threads = 2;
  o.retries = 2;
  o.retry_base_ms = 50;
  o.timeout_ms = 5000;
  o.progress = false;
  return o;
}

// Rows of a query as strings (NULL → "NULL"), columns joined by '|'.
inline std::vector<std::string> rows(const std::string& db_path, const std::string& sql) {
  std::vector<std::string> out;
  auto db = store::Database::open(db_path, true);
  if (!db.ok()) return {"ERROR " + db.status().message()};
  sqlite3_stmt* st = nullptr;
  if (sqlite3_prepare_v2(db->handle(), sql.c_str(), -1, &st, nullptr) != SQLITE_OK)
    return {std::string("ERROR ") + sqlite3_errmsg(db->handle())};
  while (sqlite3_step(st) == SQLITE_ROW) {
    std::string row;
    for (int i = 0; i < sqlite3_column_count(st); ++i) {
      if (i > 0) row += "|";
      const unsigned char* t = sqlite3_column_text(st, i);
      row += t ? std::string(reinterpret_cast<const char*>(t), sqlite3_column_bytes(st, i)) : "NULL";
    }
    out.push_back(row);
  }
  sqlite3_finalize(st);
  return out;
}

inline std::string scalar(const std::string& db_path, const std::string& sql) {
  auto r = rows(db_path, sql);
  return r.empty() ? "" : r[0];
}

inline std::int64_t count(const std::string& db_path, const std::string& sql) {
  const std::string s = scalar(db_path, sql);
  return s.empty() ? -1 : std::stoll(s);
}

// A running `cronista` process.
struct Child {
  pid_t pid = -1;
  int wait() {
    int status = 0;
    ::waitpid(pid, &status, 0);
    return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  }
};

// Waits until `sql` counts at least n in the database at `db_path` (it may
// not exist yet), or `limit` passes; what is awaited is then asserted.
inline void wait_for_count(const std::string& db_path, const std::string& sql, std::int64_t n,
                           std::chrono::seconds limit = std::chrono::seconds(60)) {
  const auto deadline = std::chrono::steady_clock::now() + limit;
  for (;;) {
    const std::string v = scalar(db_path, sql);
    if (!v.empty() && v.find_first_not_of("0123456789") == std::string::npos && std::stoll(v) >= n) return;
    if (std::chrono::steady_clock::now() >= deadline) return;
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
}

// The page titles a temporal crawl's summary (in the stderr file `err`)
// says its record of title words learnt from, or -1 without the line.
inline std::int64_t titles_learnt(const std::string& err) {
  const std::string text = read_file(err);
  const std::string key = ", learnt from ";
  const auto at = text.find(key);
  if (at == std::string::npos) return -1;
  return std::stoll(text.substr(at + key.size()));
}

inline Child spawn_cronista(const std::vector<std::string>& args, const std::string& stderr_path) {
  return Child{start_cronista(args, "/dev/null", "/dev/null", stderr_path)};
}

}  // namespace cronista::testing
