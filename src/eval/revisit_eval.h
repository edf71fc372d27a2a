// Measuring how fresh a crawler keeps its copy of the living sample web
// (sampleweb/living_web.h) and how soon it finds new articles, from the
// server's request log and the truth (docs/living-web.md defines every
// figure):
//  - time-averaged freshness and age of the collection (the pages there from
//    the start), overall and per change class: the copy of a page at t is
//    the version of its latest 200 or 304 before t; it is fresh when no
//    change happened since, and its age is then 0, else t minus the first
//    change it missed (a page never fetched is stale since 0);
//  - hit rate (revisits that brought a new version), 304 share, requests
//    and smallest gap per host;
//  - discovery latency of the articles published in the window: first 200
//    minus publication — mean, median, p90, share within fixed bounds,
//    never fetched.
// The same figures come from a simulated request sequence
// (revisit_simulation.h), so policies and a real crawl compare in one table.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "sampleweb/living_web.h"
#include "temporal/status.h"

namespace cronista::eval {

// One request as the server saw it.
struct ServedRequest {
  std::int64_t t_ms = 0;
  int host = -1;     // index into LivingTruth::hosts; -1 when the host is not in the truth
  int page = -1;     // index into LivingTruth::pages; -1 outside the living web
  int status = 0;
  int version = -1;  // main-content version served or confirmed (304)
};

// The server's request log (sample-web serve --request-log), matched to the truth.
Result<std::vector<ServedRequest>> read_request_log(const std::string& path, const sampleweb::LivingTruth& truth);

struct RevisitWindow {
  std::int64_t from_ms = 0;
  std::int64_t to_ms = 0;
};
// "A..B" in seconds (decimals allowed), B > A >= 0.
Result<RevisitWindow> parse_window(const std::string& text);

struct ClassFreshness {
  std::string change_class;
  int pages = 0;
  double freshness = 0;  // time average of the share of fresh pages
  double age_s = 0;      // time average of the mean age
};

struct HostRequests {
  std::string host;
  long requests = 0;
  std::int64_t smallest_gap_ms = -1;  // -1: fewer than two requests
};

// Shares of the articles published in the window that were fetched within each bound.
inline constexpr double kLatencyBoundsS[] = {10, 60, 300, 900};

struct DiscoveryLatency {
  int published = 0;
  int never = 0;
  double mean_s = 0, median_s = 0, p90_s = 0;
  std::vector<double> within;       // by kLatencyBoundsS, of the published
  std::vector<double> latencies_s;  // sorted, of the fetched
};

struct RevisitFigures {
  std::string name;  // "measured" or a policy
  RevisitWindow window;
  int pages = 0;
  double freshness = 0;
  double age_s = 0;
  std::vector<ClassFreshness> classes;  // by class name
  long requests = 0;
  long revisits = 0;  // 200s and 304s of pages fetched before
  long hits = 0;      // revisits that brought a new version
  double hit_rate = 0;
  double share_304 = 0;
  std::vector<HostRequests> hosts;
  DiscoveryLatency latency;
  std::vector<std::pair<double, double>> freshness_curve;  // (t in s, freshness)
};

// The figures of a request sequence (sorted by time) over the window.
RevisitFigures revisit_figures(const sampleweb::LivingTruth& truth, const std::vector<ServedRequest>& requests,
                               const RevisitWindow& window, const std::string& name);

// One table (Markdown) and one CSV row per run; an SVG with freshness over
// time and the latency distribution of every run.
std::string revisit_markdown(const std::vector<RevisitFigures>& runs, const std::string& setting);
std::string revisit_csv(const std::vector<RevisitFigures>& runs);
std::string revisit_svg(const std::vector<RevisitFigures>& runs);

}  // namespace cronista::eval
