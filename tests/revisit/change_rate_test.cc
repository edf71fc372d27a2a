// The change-rate estimator against synthetic visit histories whose true
// rate is known: Poisson changes observed at irregular intervals.
#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <vector>

#include "revisit/change_rate.h"

namespace cronista::revisit {
namespace {

// Visits at random intervals (uniform in [lo, hi] seconds) to a page whose
// changes are a Poisson process of `rate`: a visit sees a change with
// probability 1 - e^{-rate·t}.
std::vector<ChangeObservation> poisson_history(double rate, double lo, double hi, int visits, unsigned seed) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> interval(lo, hi);
  std::uniform_real_distribution<double> u(0, 1);
  std::vector<ChangeObservation> out;
  for (int i = 0; i < visits; ++i) {
    const double t = interval(rng);
    out.push_back({t, u(rng) < -std::expm1(-rate * t)});
  }
  return out;
}

TEST(ChangeRate, AnEmptyHistoryEstimatesThePriorRate) {
  const RatePrior prior{1.0 / 3600, 1.0};
  EXPECT_NEAR(estimate_change_rate({}, prior) * 3600, 1.0, 1e-6);
}

TEST(ChangeRate, IrregularPoissonHistoriesRecoverTheTrueRate) {
  const RatePrior prior{1.0 / 86400, 1.0};  // a day: far from every true rate below
  for (double rate : {1.0 / 30, 1.0 / 300, 1.0 / 3600}) {
    // Visits from a tenth of the mean change interval to three times it.
    const auto h = poisson_history(rate, 0.1 / rate, 3.0 / rate, 3000, 7);
    const double est = estimate_change_rate(h, prior);
    EXPECT_NEAR(est / rate, 1.0, 0.1) << "true rate " << rate;
  }
}

TEST(ChangeRate, AShortHistoryStaysNearItsPrior) {
  const double rate = 1.0 / 60;
  const auto h = poisson_history(rate, 30, 90, 2, 3);
  const RatePrior prior{1.0 / 600, 5.0};
  const double est = estimate_change_rate(h, prior);
  // Between the prior and the truth, nearer the prior with 5 pseudo-visits.
  EXPECT_GT(est, prior.rate * 0.5);
  EXPECT_LT(est, rate);
}

TEST(ChangeRate, EveryVisitSeeingAChangeGivesAFiniteRateAboveOnePerInterval) {
  std::vector<ChangeObservation> h(20, ChangeObservation{100.0, true});
  const double est = estimate_change_rate(h, RatePrior{1.0 / 3600, 1.0});
  EXPECT_TRUE(std::isfinite(est));
  EXPECT_GT(est, 1.0 / 100);
  EXPECT_LE(est, kMaxRate);
}

TEST(ChangeRate, ALongUnchangedHistoryFallsFarBelowThePrior) {
  std::vector<ChangeObservation> h(100, ChangeObservation{3600.0, false});
  const double est = estimate_change_rate(h, RatePrior{1.0 / 3600, 1.0});
  EXPECT_LT(est, 1.0 / 3600 / 20);
  EXPECT_GE(est, kMinRate);
}

TEST(ChangeRate, BrokenIntervalsAreIgnored) {
  std::vector<ChangeObservation> h = {{-5, true}, {0, true}, {std::nan(""), true}, {INFINITY, false}};
  const RatePrior prior{1.0 / 600, 1.0};
  EXPECT_NEAR(estimate_change_rate(h, prior) * 600, 1.0, 1e-6);
}

TEST(ChangeRate, PooledPriorIsTheDefaultBeforeAnyObservation) {
  EXPECT_DOUBLE_EQ(pooled_prior_rate(0, 0, 0), RatePrior{}.rate);
  EXPECT_DOUBLE_EQ(pooled_prior_rate(3, 0, 2), RatePrior{}.rate);
  EXPECT_DOUBLE_EQ(pooled_prior_rate(3, std::nan(""), 2), RatePrior{}.rate);
  EXPECT_DOUBLE_EQ(pooled_prior_rate(-1, 100, 2), RatePrior{}.rate);
}

TEST(ChangeRate, PooledPriorCountsTheDefaultAsOnePage) {
  // One page watched for 600 s with 6 changes: the default weighs as a
  // second page watched for as long.
  const double r0 = RatePrior{}.rate;
  EXPECT_NEAR(pooled_prior_rate(6, 600, 1), (6 + r0 * 600) / 1200, 1e-15);
  // Four pages, 2400 s in all: the default is worth 600 s of them.
  EXPECT_NEAR(pooled_prior_rate(6, 2400, 4), (6 + r0 * 600) / 3000, 1e-15);
}

// A crawl of a few minutes: 200 pages, each watched for about a minute by
// visits a few seconds apart, half of them changing every 20 s and half
// every 200 s. The prior is the mean rate of the pages, not pulled to a day
// by a fixed pseudo-observation that outweighs the whole crawl.
TEST(ChangeRate, PooledPriorOfAShortCrawlIsThePagesMeanRate) {
  double changes = 0, seconds = 0;
  const std::size_t pages = 200;
  for (std::size_t i = 0; i < pages; ++i) {
    const double rate = i % 2 ? 1.0 / 20 : 1.0 / 200;
    for (const ChangeObservation& o : poisson_history(rate, 0.5, 1.5, 60, static_cast<unsigned>(i + 1))) {
      seconds += o.interval_s;
      changes += o.changed ? 1 : 0;
    }
  }
  const double mean_rate = (1.0 / 20 + 1.0 / 200) / 2;
  EXPECT_NEAR(pooled_prior_rate(changes, seconds, pages) / mean_rate, 1.0, 0.1);
}

TEST(ChangeRate, ChoRegularEstimatorIsFiniteWhenEveryVisitChanged) {
  // n = 10, X = 10: r = -ln(0.5 / 10.5) = ln 21.
  EXPECT_NEAR(regular_interval_rate(10, 10, 60.0), std::log(21.0) / 60.0, 1e-12);
  // X = 0: the smallest rate.
  EXPECT_DOUBLE_EQ(regular_interval_rate(10, 0, 60.0), kMinRate);
}

TEST(ChangeRate, ChoRegularEstimatorRecoversAPoissonRate) {
  const double rate = 1.0 / 200, interval = 100;
  const auto h = poisson_history(rate, interval, interval, 5000, 11);
  int changes = 0;
  for (const auto& o : h) changes += o.changed;
  EXPECT_NEAR(regular_interval_rate(5000, changes, interval) / rate, 1.0, 0.06);
}

}  // namespace
}  // namespace cronista::revisit
