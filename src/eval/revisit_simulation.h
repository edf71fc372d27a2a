// Reference revisit policies replayed on the living web's change processes
// (freshness.md §2, §4, §5): the same truth and time axis as a measured run,
// the same budget (requests per second) and per-host gap, starting from every
// page of the collection fetched once at t = 0. The result is a request
// sequence, scored by revisit_figures() like a real crawler's log.
//
// The scheduler: a request slot every 1/budget seconds; each slot goes to
// the page whose revisit is most overdue on a host whose last request is at
// least the gap ago; a slot with nothing due stays unused. A new article is
// known once a fetched hub lists it and is fetched at the next free slot of
// its host (every policy alike), once.
//
// Uniform, proportional and optimal are the allocations of src/revisit/
// (allocation.h) under the same per-host caps, given the true rates.
// `estimated` is the crawler's own schedule (revisit::RevisitSchedule with
// the optimal policy and the crawl's pooled prior) fed with what its visits
// see — a change of the main content or not, the new articles a hub
// announces — and solved again every 10 s as the crawl does, and spending a
// slot with nothing due on a free host as the crawl does (the page due
// earliest on a free host, ahead of time by at most half its interval;
// revisit_schedule.h): the optimum
// with estimated rates, without the crawl's network and analysis, so the
// cost of estimating can be told from the cost of crawling.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "eval/revisit_eval.h"
#include "sampleweb/living_web.h"
#include "temporal/status.h"

namespace cronista::eval {

enum class RevisitPolicy {
  Uniform,       // every page alike (N/budget seconds apart), under the host caps
  Proportional,  // frequencies proportional to the true λ, under the host caps
  Optimal,       // the freshness optimum with the true λ under the host caps
  NutchBody,     // Nutch AdaptiveFetchSchedule, change = whole-body hash differs
  NutchMain,     // the same, change = main-content hash differs
  StormBody,     // StormCrawler AdaptiveScheduler, whole-body hash
  StormMain,     // the same, main-content hash
  Barbosa,       // four classes moved by the history heuristic (whole-text hash, as in the study)
  TwoTiers,      // hubs at a fixed short period, the rest uniform
  Estimated,     // the crawler's own schedule (revisit_schedule.h, policy optimal) on its estimated rates
};

// The names used on the command line, in enum order.
const std::vector<std::string>& revisit_policy_names();
Result<RevisitPolicy> parse_revisit_policy(const std::string& name);

struct SimulationOptions {
  double budget_per_s = 10;
  std::int64_t delay_ms = 100;  // minimum gap between two requests to one host
  std::int64_t end_ms = 0;      // simulate [0, end_ms)
};

// The requests a policy makes (the fetches at t = 0 come first, at t = -1).
std::vector<ServedRequest> simulate_policy(const sampleweb::LivingTruth& truth, RevisitPolicy policy,
                                           const SimulationOptions& options);

}  // namespace cronista::eval
