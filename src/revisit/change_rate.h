// Estimating how often a page changes from what its visits saw.
//
// A page's changes are modelled as a Poisson process of rate λ (changes per
// second). A crawler never sees the changes themselves: at each visit it sees
// only whether the page changed since the visit before, after an interval t
// that varies from visit to visit. The probability that a visit after t sees
// a change is 1 - e^{-λt}, so the log-likelihood of a history is
//
//   L(λ) = Σ_changed ln(1 - e^{-λ t_i}) - λ Σ_unchanged t_j
//
// and its maximum solves  Σ_changed t_i / (e^{λ t_i} - 1) = Σ_unchanged t_j
// (Cho & Garcia-Molina 2003). The left side falls monotonically in λ, so the
// root is found by bisection on log λ. With no unchanged visit the maximum
// is at infinity, with no change at zero: a prior of pseudo-observations
// keeps the estimate finite and pulls a short history towards the prior,
// which can come from a classifier of the page's features. They are visits
// like the real ones (the history's mean interval τ) with the outcomes the
// prior rate λ0 expects (changed with weight 1 - e^{-λ0 τ}), so an empty
// history estimates λ0 and they weigh as much as `weight` real visits
// whatever the page's pace (a pseudo-interval of 1/λ0 would outweigh a
// whole history of short visits to a fast page).
//
// Cost: O(visits) per bisection step, 100 steps at most.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

namespace cronista::revisit {

// One visit after the first: the seconds since the previous visit and
// whether the content had changed in between.
struct ChangeObservation {
  double interval_s = 0;
  bool changed = false;
};

// Pseudo-observations added to every history, worth `weight` visits of each
// kind, so that an empty history estimates `rate` and a long one forgets
// the prior.
struct RatePrior {
  double rate = 1.0 / 86400;  // changes per second
  double weight = 1.0;        // pseudo-observations of each kind (> 0)
};

// The maximum-likelihood rate of a history of irregular intervals, with the
// prior's pseudo-observations (see the header comment). Intervals of zero or
// less, or not finite, are ignored. The result lies in
// [kMinRate, kMaxRate].
double estimate_change_rate(std::span<const ChangeObservation> history, const RatePrior& prior);

// Older visits folded into sums, so a long history costs fixed memory: the
// unchanged intervals only enter the likelihood as their total; changed
// ones are approximated by their count and mean interval.
struct FoldedVisits {
  double unchanged_time = 0;
  std::uint32_t changed = 0;
  double changed_mean_interval = 0;
  std::uint32_t visits = 0;  // all folded visits, changed or not
  double interval_sum = 0;   // their intervals' total
};

// A page's visits as a schedule keeps them (revisit_schedule.h), to hand
// to another process of the same crawl: the newest visits, oldest first,
// the older ones folded, and the page's yield of new URLs per fetch.
struct VisitHistory {
  std::vector<ChangeObservation> recent;
  FoldedVisits folded;
  double yield = 0;
};

// The same estimate over `history` and the folded older visits.
double estimate_change_rate(std::span<const ChangeObservation> history, const FoldedVisits& folded,
                            const RatePrior& prior);

// The prior rate of a page without a history, from what a crawl's pages have
// shown so far: `changes` seen over `seconds` observed in all, on `pages`
// pages with at least one observation. The default prior (RatePrior{}.rate)
// counts as one more page observed for the mean time of the others, so it
// decides an empty crawl and fades as pages are observed, whatever the
// length of the crawl (a fixed day of pseudo-observation would outweigh
// every visit of a crawl of a few minutes).
double pooled_prior_rate(double changes, double seconds, std::size_t pages);

// Cho's bias-reduced estimator for n visits at a regular interval, x of
// which saw a change: r = -ln((n - x + 0.5) / (n + 0.5)), λ = r / interval.
double regular_interval_rate(int visits, int changes, double interval_s);

// Bounds of every estimate: once a year to ten times a second.
inline constexpr double kMinRate = 1.0 / (365.0 * 86400.0);
inline constexpr double kMaxRate = 10.0;

}  // namespace cronista::revisit
