#include "revisit/change_rate.h"

#include <algorithm>
#include <cmath>

namespace cronista::revisit {
namespace {

// t / (e^{λt} - 1), the expected-change term of one changed interval,
// computed without overflow or cancellation at both ends.
double changed_term(double rate, double t) {
  const double x = rate * t;
  if (x > 700) return 0.0;
  if (x < 1e-8) return 1.0 / rate;  // t / (λt) as λt → 0
  return t / std::expm1(x);
}

}  // namespace

double estimate_change_rate(std::span<const ChangeObservation> history, const RatePrior& prior) {
  return estimate_change_rate(history, FoldedVisits{}, prior);
}

double estimate_change_rate(std::span<const ChangeObservation> history, const FoldedVisits& folded,
                            const RatePrior& prior) {
  const double prior_rate = std::clamp(prior.rate, kMinRate, kMaxRate);
  const double pseudo = prior.weight > 0 ? prior.weight : 1.0;

  // The pseudo-observations are `pseudo` visits like the real ones (their
  // mean interval τ, or 1/prior_rate before any), with the outcomes the
  // prior expects: a change with weight p = 1 - e^{-λ0 τ}, none with 1 - p.
  // Alone they put the maximum exactly at λ0; beside n real visits they
  // count as `pseudo` of them, whatever the page's pace.
  double interval_sum = folded.interval_sum;
  std::size_t intervals = folded.visits;
  for (const auto& o : history)
    if (std::isfinite(o.interval_s) && o.interval_s > 0) {
      interval_sum += o.interval_s;
      ++intervals;
    }
  const double tau = intervals ? interval_sum / static_cast<double>(intervals) : 1.0 / prior_rate;
  const double p = -std::expm1(-prior_rate * tau);

  double unchanged_time = pseudo * (1 - p) * tau + std::max(0.0, folded.unchanged_time);
  for (const auto& o : history)
    if (!o.changed && std::isfinite(o.interval_s) && o.interval_s > 0) unchanged_time += o.interval_s;

  // g(λ) = Σ_changed t/(e^{λt}-1) - Σ_unchanged t falls from +∞ (λ → 0) to
  // -Σ_unchanged t < 0 (λ → ∞): one root.
  auto g = [&](double rate) {
    double s = pseudo * p * changed_term(rate, tau);
    if (folded.changed > 0 && folded.changed_mean_interval > 0)
      s += folded.changed * changed_term(rate, folded.changed_mean_interval);
    for (const auto& o : history)
      if (o.changed && std::isfinite(o.interval_s) && o.interval_s > 0) s += changed_term(rate, o.interval_s);
    return s - unchanged_time;
  };
  double lo = std::log(kMinRate), hi = std::log(kMaxRate);
  if (g(std::exp(lo)) <= 0) return kMinRate;
  if (g(std::exp(hi)) >= 0) return kMaxRate;
  for (int i = 0; i < 100 && hi - lo > 1e-10; ++i) {
    const double mid = 0.5 * (lo + hi);
    if (g(std::exp(mid)) > 0) lo = mid;
    else hi = mid;
  }
  return std::exp(0.5 * (lo + hi));
}

double regular_interval_rate(int visits, int changes, double interval_s) {
  if (visits <= 0 || interval_s <= 0) return kMinRate;
  const double n = visits;
  const double x = std::clamp(changes, 0, visits);
  const double r = -std::log((n - x + 0.5) / (n + 0.5));
  return std::clamp(r / interval_s, kMinRate, kMaxRate);
}

double pooled_prior_rate(double changes, double seconds, std::size_t pages) {
  const double fallback = RatePrior{}.rate;
  if (pages == 0 || !(seconds > 0) || !std::isfinite(seconds) || !(changes >= 0)) return fallback;
  const double mean_seconds = seconds / static_cast<double>(pages);
  return std::clamp((changes + fallback * mean_seconds) / (seconds + mean_seconds), kMinRate, kMaxRate);
}

}  // namespace cronista::revisit
