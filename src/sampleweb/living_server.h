// Answering a request to the living web (living_web.h) at time t: the page's
// main content at its version at t, the noise of its host (footer clock,
// rotating "most read" box, visit counter), the host's validators with real
// 304s, the new articles of the news sites once published and the hubs that
// list them. Used by SampleWebServer with --living; a pure function of the
// truth, the static pages, t and the wall-clock time the server started,
// except the visit counter and the rotation of the box (request counters).
//
// Cost per request: a binary search for the version, one copy of the page's
// bytes held in memory with a few insertions; no disk access.
//
// Thread-safety: respond() may be called from many threads at once.
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "sampleweb/living_web.h"
#include "temporal/status.h"

namespace cronista::sampleweb {

struct LivingRequest {
  std::string host;               // the host's name ("jornal")
  std::string path;               // without the query
  std::string if_none_match;      // empty when absent
  std::string if_modified_since;  // empty when absent
  std::int64_t t_ms = 0;          // since the start
};

struct LivingResponse {
  int status = 200;
  std::string content_type;
  std::string body;
  std::vector<std::pair<std::string, std::string>> headers;
  int version = 0;  // the main-content version served (for a 304, the one confirmed)
};

class LivingSite {
 public:
  // The static page of a host at a path: (bytes, content type), or nothing.
  using StaticPage = std::function<std::optional<std::pair<std::string, std::string>>(const std::string& host,
                                                                                     const std::string& path)>;
  // Loads living.jsonl of the web in root and the static bytes of its pages.
  static Result<std::unique_ptr<LivingSite>> load(const std::string& root, const StaticPage& static_page);

  // The answer, or nothing when the path is not a page of the living web
  // (robots.txt, redirects, the calendar: served as in the static web).
  std::optional<LivingResponse> respond(const LivingRequest& req);

  const LivingTruth& truth() const { return truth_; }
  std::int64_t start_unix_ms() const { return start_unix_ms_; }
  // The wall-clock time of t = 0 (a whole second); set before serving.
  void set_start_unix_ms(std::int64_t unix_ms) { start_unix_ms_ = unix_ms; }

 private:
  struct Served {
    std::string body;            // the static bytes (new articles: the home page's)
    std::string content_type;
    std::size_t main_at = 0;     // where the living main content goes (after the <h1>)
    std::size_t footer_at = 0;   // before </footer>, or npos
    std::size_t body_end = 0;    // before </body>, or npos
  };
  LivingTruth truth_;
  std::int64_t start_unix_ms_ = 0;
  std::vector<Served> served_;                            // by living page; new articles share the home's
  std::vector<std::map<std::string, int>> page_of_path_;  // by host
  std::vector<std::vector<int>> pages_of_host_;
  std::unique_ptr<std::atomic<long>[]> visits_;
  std::atomic<long> requests_{0};

  std::string text(const std::string& list, std::size_t pick) const;
  std::string main_content(int page, int version, std::int64_t t) const;
  std::string new_article(int page, int version) const;
  std::string noise_footer(int page, std::int64_t now_unix_ms);
  std::string most_read_box(int page);
};

// "Sun, 06 Nov 1994 08:49:37 GMT" of a Unix time in milliseconds (seconds kept).
std::string http_date(std::int64_t unix_ms);
// The Unix time in milliseconds of an IMF-fixdate, or nothing.
std::optional<std::int64_t> parse_http_date(const std::string& s);

}  // namespace cronista::sampleweb
