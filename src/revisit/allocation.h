// How often to revisit each page: a budget of fetches per second shared out
// among pages whose change rates are known (or estimated), under per-host
// politeness caps.
//
// A page that changes at rate λ and is revisited at a fixed interval 1/f is
// fresh, averaged over time, F̄(λ, f) = (1 - e^{-r}) / r with r = λ/f
// (Cho & Garcia-Molina). The optimal policy maximises Σ w_i F̄(λ_i, f_i)
// subject to Σ f_i = B and, for every host h, Σ_{i∈h} f_i ≤ c_h (one fetch
// per politeness gap). The problem is concave and separable, so the KKT
// conditions characterise the optimum: with one multiplier m for the budget
// and one m_h ≥ 0 per host,
//
//   ∂F̄/∂f · w_i = (w_i/λ_i)·[1 - (1 + r_i) e^{-r_i}] = m + m_h      (f_i > 0)
//   f_i = 0   where  w_i/λ_i ≤ m + m_h.
//
// Solving for r gives r_i = -1 - W_{-1}(-(1 - y)/e), y = (m + m_h)λ_i/w_i,
// where W_{-1} is the lower branch of Lambert's W (Boost.Math). A page that
// changes much faster than it can be followed (w_i/λ_i small) gets nothing.
// A host's sum falls as its multiplier rises, so each host's cap binds from
// one level M_h on: the host's pages use max(m, M_h), M_h found once per host
// by bisection, and m by bisection so that the total is B. Cost: O(N) per
// bisection step, about 60 steps per host and 60 overall.
//
// The reference policies share the same caps: uniform (every page alike)
// and proportional (f_i ∝ λ_i), each filled up to B with capped hosts held
// at their caps. Where every page changes, proportional is worse than
// uniform on freshness (Cho & Garcia-Molina); where many never change it can
// beat uniform on freshness, since uniform spends on pages that stay fresh,
// but it still loses on age. Both are baselines, not choices.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

namespace cronista::revisit {

struct RevisitItem {
  double rate = 0;         // changes per second (λ), estimated or true
  double weight = 1;       // importance (w); pages with weight 0 get nothing
  std::uint32_t host = 0;  // index into the host caps
  // Fetches per second the page gets anyway (another objective's share):
  // the optimum counts them towards its freshness and allocates only what
  // it adds beyond them (the other policies ignore it).
  double floor = 0;
};

struct Allocation {
  std::vector<double> frequency;  // fetches per second, one per item
  double multiplier = 0;          // the budget's multiplier m (0 when the caps bind everywhere)
};

// Time-averaged freshness of a page of rate λ revisited at a fixed interval
// 1/f: (1 - e^{-r})/r, r = λ/f; 1 for a page that never changes, 0 for one
// that changes and is never revisited.
double fixed_interval_freshness(double rate, double frequency);

// Time-averaged age (seconds) under the same policy:
// (1/f)(1/2 - 1/r + (1 - e^{-r})/r²); infinite when never revisited.
double fixed_interval_age(double rate, double frequency);

// The freshness optimum (header comment). `host_caps[h]` is host h's most
// fetches per second (1 / politeness gap; an infinite cap is allowed);
// `budget` the fetches per second of the whole crawl. Where the caps sum to
// less than the budget, every host is held at its cap.
Allocation optimal_allocation(std::span<const RevisitItem> items, std::span<const double> host_caps, double budget);

// Every page with a weight alike, up to its host's cap.
Allocation uniform_allocation(std::span<const RevisitItem> items, std::span<const double> host_caps, double budget);

// f_i ∝ λ_i, up to its host's cap.
Allocation proportional_allocation(std::span<const RevisitItem> items, std::span<const double> host_caps,
                                   double budget);

}  // namespace cronista::revisit
