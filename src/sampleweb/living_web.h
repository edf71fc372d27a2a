// The living sample web: the static sample web (sample_web.h) whose pages
// change at known times, with noise that is not a change, honest, missing and
// bogus HTTP validators per host, and news sites that publish new articles at
// known times. It is the instrument that measures revisit policies
// (docs/living-web.md): the truth says when every page's main content
// changed, the server's request log says what a crawler fetched and when,
// and eval-revisit (src/eval/revisit_eval.h) turns the two into freshness,
// age and discovery latency.
//
// Time is milliseconds since the server started: the content of a page at t
// is a function of the seed and t alone. The truth covers [0, horizon]; after
// the horizon nothing changes any more.
//
// Same options -> byte-identical truth (own PRNG, no clock).
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "temporal/status.h"

namespace cronista::sampleweb {

// How a host answers conditional requests.
enum class Validators {
  Honest,  // ETag of the main-content version and Last-Modified of its last change; 304 when unchanged
  Absent,  // neither header; never 304
  Bogus,   // Last-Modified is always the time of the request; no ETag; never 304
};
const char* validators_name(Validators v);

struct LivingHost {
  std::string name;       // "jornal"
  std::string authority;  // "127.0.0.3:18080"
  Validators validators = Validators::Honest;
  bool clock = false;      // a clock in the footer, to the second
  bool most_read = false;  // a "most read" box that rotates on every request
  bool counter = false;    // a visit counter
  bool latin1 = false;     // its pages are ISO-8859-1
  bool noisy() const { return clock || most_read || counter; }
};

struct LivingPage {
  std::string url;   // absolute
  std::string path;
  int host = 0;      // index into LivingTruth::hosts
  std::string change_class;  // "hub", "news", "blog", "encyclopedia", "static", "new-article"
  std::string process;       // "publishing", "poisson", "periodic", "weibull", "edits", "never"
  double rate = 0;           // the true λ: the process's mean changes per second
  std::vector<std::int64_t> changes;  // times the main content changed, sorted
  // New articles only: publication time and the hubs that list them.
  std::int64_t published = 0;
  std::vector<int> listed_on;
  std::string title;
  bool is_new() const { return change_class == "new-article"; }
};

struct LivingTruth {
  std::uint64_t seed = 1;
  std::int64_t horizon_ms = 0;
  int hub_list_size = 0;  // how many of the latest articles a hub lists
  std::vector<LivingHost> hosts;
  // The templates the server fills at request time (sites.txt's living-*
  // lists) and the month names, so that serving needs no corpus.
  std::map<std::string, std::vector<std::string>> texts;
  std::vector<std::string> months;
  // The collection there from the start (published == 0), then the new
  // articles by publication time.
  std::vector<LivingPage> pages;
  std::map<std::string, int> by_url;  // absolute URL -> page

  // The main-content version at t: the number of changes at or before t.
  int version_at(int page, std::int64_t t) const;
  // The articles a hub lists at t, newest first (at most hub_list_size).
  std::vector<int> hub_items(int hub, std::int64_t t) const;

  std::string to_jsonl() const;
  static Result<LivingTruth> parse(const std::string& jsonl, const std::string& name);
  static Result<LivingTruth> load(const std::string& path);

  // Builds the lookup tables (by_url, hubs' articles) after pages change.
  void index();

 private:
  std::map<int, std::vector<int>> hub_articles_;  // hub -> its articles by publication time
};

// The truth file inside a generated web (sample-web generate --living).
inline constexpr const char* kLivingTruthFile = "living.jsonl";

}  // namespace cronista::sampleweb
