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
// optimal_frequencies() is the freshness optimum under a budget and per-host
// caps, usable on estimated rates as well as on true ones.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "eval/revisit_eval.h"
#include "sampleweb/living_web.h"
#include "temporal/status.h"

namespace cronista::eval {

enum class RevisitPolicy {
  Uniform,       // every page every N/budget seconds
  Proportional,  // frequencies proportional to the true λ
  Optimal,       // the freshness optimum with the true λ under per-host caps
  NutchBody,     // Nutch AdaptiveFetchSchedule, change = whole-body hash differs
  NutchMain,     // the same, change = main-content hash differs
  StormBody,     // StormCrawler AdaptiveScheduler, whole-body hash
  StormMain,     // the same, main-content hash
  Barbosa,       // four classes moved by the history heuristic (whole-text hash, as in the study)
  TwoTiers,      // hubs at a fixed short period, the rest uniform
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

// Revisit frequencies (per second) maximising the mean time-averaged
// freshness Σ F̄(λ_i, f_i) under Σ f_i = budget and Σ_{i∈h} f_i <= host_cap[h]
// (Lagrange multipliers solved by bisection, each f_i in closed form by the
// Lambert W function). A page with λ = 0 gets 0; so does one that changes
// too fast to be worth following.
std::vector<double> optimal_frequencies(const std::vector<double>& rates, const std::vector<int>& host_of,
                                        const std::vector<double>& host_cap, double budget);

// Time-averaged freshness of a Poisson page of rate λ revisited at fixed
// intervals of frequency f: (1 − e^{−λ/f}) f/λ (1 when λ = 0, 0 when f = 0).
double poisson_freshness(double rate, double frequency);

}  // namespace cronista::eval
