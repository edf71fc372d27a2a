// The revisit allocation against hand-solved cases, the politeness caps, and
// what the freshness studies predict of the reference policies.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <random>
#include <vector>

#include "revisit/allocation.h"

namespace cronista::revisit {
namespace {

constexpr double kNoCap = std::numeric_limits<double>::infinity();

// Weighted time-averaged freshness of an allocation.
double freshness(const std::vector<RevisitItem>& items, const Allocation& a) {
  double f = 0, w = 0;
  for (std::size_t i = 0; i < items.size(); ++i) {
    f += items[i].weight * fixed_interval_freshness(items[i].rate, a.frequency[i]);
    w += items[i].weight;
  }
  return f / w;
}

double total(const Allocation& a) {
  double s = 0;
  for (double f : a.frequency) s += f;
  return s;
}

TEST(FixedIntervalMeasures, FreshnessIsTheMeanOfEMinusLambdaXOverTheInterval) {
  const double rate = 0.3, f = 0.5, interval = 1 / f;
  double integral = 0;
  const int steps = 100000;
  for (int i = 0; i < steps; ++i) integral += std::exp(-rate * (i + 0.5) * interval / steps);
  EXPECT_NEAR(fixed_interval_freshness(rate, f), integral / steps, 1e-6);
}

TEST(FixedIntervalMeasures, AgeIsTheMeanOfTheExpectedAgeOverTheInterval) {
  // Expected age x after a fetch: x - (1 - e^{-λx})/λ.
  const double rate = 0.3, f = 0.5, interval = 1 / f;
  double integral = 0;
  const int steps = 100000;
  for (int i = 0; i < steps; ++i) {
    const double x = (i + 0.5) * interval / steps;
    integral += x - (1 - std::exp(-rate * x)) / rate;
  }
  EXPECT_NEAR(fixed_interval_age(rate, f), integral / steps, 1e-6);
}

TEST(FixedIntervalMeasures, PagesThatNeverChangeAreAlwaysFreshAndNeverRevisitedOnesNever) {
  EXPECT_DOUBLE_EQ(fixed_interval_freshness(0, 0), 1.0);
  EXPECT_DOUBLE_EQ(fixed_interval_freshness(0.1, 0), 0.0);
  EXPECT_TRUE(std::isinf(fixed_interval_age(0.1, 0)));
}

TEST(OptimalAllocation, OnePageTakesTheWholeBudget) {
  std::vector<RevisitItem> items = {{0.01, 1, 0}};
  std::vector<double> caps = {kNoCap};
  const auto a = optimal_allocation(items, caps, 0.2);
  EXPECT_NEAR(a.frequency[0], 0.2, 1e-9);
}

TEST(OptimalAllocation, MatchesAHandSolvedTwoPageCase) {
  // λ1 = 1, λ2 = 2, equal weights. At f1 = 1 (r1 = 1) the marginal value is
  // 1 - 2/e; page 2 reaches it at r2 = 1.7710106 (solved apart), f2 = 2/r2
  // = 1.1292987. So a budget of 2.1292987 gives f1 = 1.
  std::vector<RevisitItem> items = {{1, 1, 0}, {2, 1, 1}};
  std::vector<double> caps = {kNoCap, kNoCap};
  const auto a = optimal_allocation(items, caps, 2.1292987);
  EXPECT_NEAR(a.frequency[0], 1.0, 1e-5);
  EXPECT_NEAR(a.frequency[1], 1.1292987, 1e-5);
  EXPECT_NEAR(a.multiplier, 1 - 2 / std::exp(1.0), 1e-6);
}

TEST(OptimalAllocation, APageChangingFarFasterThanTheBudgetFollowsIsAbandoned) {
  std::vector<RevisitItem> items = {{100, 1, 0}, {0.01, 1, 1}};
  std::vector<double> caps = {kNoCap, kNoCap};
  const auto a = optimal_allocation(items, caps, 0.02);
  EXPECT_EQ(a.frequency[0], 0.0);
  EXPECT_NEAR(a.frequency[1], 0.02, 1e-9);
}

TEST(OptimalAllocation, AHostNeverGetsMoreThanItsPolitenessCap) {
  // Two pages on a host capped at one fetch per 10 s, one page elsewhere.
  std::vector<RevisitItem> items = {{0.05, 1, 0}, {0.05, 1, 0}, {0.05, 1, 1}};
  std::vector<double> caps = {0.1, kNoCap};
  const auto a = optimal_allocation(items, caps, 1.0);
  EXPECT_NEAR(a.frequency[0] + a.frequency[1], 0.1, 1e-6);
  EXPECT_NEAR(a.frequency[0], a.frequency[1], 1e-9);
  EXPECT_NEAR(total(a), 1.0, 1e-6);
}

TEST(OptimalAllocation, WhereTheCapsSumBelowTheBudgetEveryHostRunsAtItsCap) {
  std::vector<RevisitItem> items = {{0.05, 1, 0}, {0.5, 1, 0}, {0.01, 1, 1}};
  std::vector<double> caps = {0.2, 0.1};
  const auto a = optimal_allocation(items, caps, 5.0);
  EXPECT_NEAR(a.frequency[0] + a.frequency[1], 0.2, 1e-6);
  EXPECT_NEAR(a.frequency[2], 0.1, 1e-6);
}

TEST(OptimalAllocation, AHeavierPageOfTheSameRateIsVisitedMoreOften) {
  std::vector<RevisitItem> items = {{0.1, 3, 0}, {0.1, 1, 1}};
  std::vector<double> caps = {kNoCap, kNoCap};
  const auto a = optimal_allocation(items, caps, 0.1);
  EXPECT_GT(a.frequency[0], a.frequency[1]);
}

TEST(ReferencePolicies, OptimumBeatsUniformWhichBeatsProportionalOnFreshness) {
  // Rates from once a minute to once a day, twenty hosts, politeness caps.
  std::mt19937_64 rng(5);
  std::uniform_real_distribution<double> log_rate(std::log(1.0 / 86400), std::log(1.0 / 60));
  std::vector<RevisitItem> items;
  for (int i = 0; i < 2000; ++i) items.push_back({std::exp(log_rate(rng)), 1, static_cast<std::uint32_t>(i % 20)});
  std::vector<double> caps(20, 0.5);
  const double budget = 2.0;
  const double opt = freshness(items, optimal_allocation(items, caps, budget));
  const double uni = freshness(items, uniform_allocation(items, caps, budget));
  const double pro = freshness(items, proportional_allocation(items, caps, budget));
  EXPECT_GT(opt, uni);
  EXPECT_GT(uni, pro);
  for (const auto& a : {optimal_allocation(items, caps, budget), uniform_allocation(items, caps, budget),
                        proportional_allocation(items, caps, budget)})
    EXPECT_NEAR(total(a), budget, 1e-6);
}

TEST(ReferencePolicies, UniformFillsCappedHostsToTheirCapAndSharesTheRest) {
  std::vector<RevisitItem> items = {{1, 1, 0}, {1, 1, 0}, {1, 1, 1}, {1, 1, 1}};
  std::vector<double> caps = {0.1, kNoCap};
  const auto a = uniform_allocation(items, caps, 1.0);
  EXPECT_NEAR(a.frequency[0], 0.05, 1e-9);
  EXPECT_NEAR(a.frequency[2], 0.45, 1e-9);
}

TEST(ReferencePolicies, ProportionalFollowsTheRates) {
  std::vector<RevisitItem> items = {{1, 1, 0}, {3, 1, 1}};
  std::vector<double> caps = {kNoCap, kNoCap};
  const auto a = proportional_allocation(items, caps, 2.0);
  EXPECT_NEAR(a.frequency[0], 0.5, 1e-9);
  EXPECT_NEAR(a.frequency[1], 1.5, 1e-9);
}

TEST(OptimalAllocation, AFloorCountsTowardsFreshnessAndOnlyTheRestIsAllocated) {
  // Two alike pages; one already gets 0.3 fetches/s from elsewhere. The
  // optimum without floors gives each 0.5 of a budget of 1: with the floor
  // the budget of 0.7 tops the other page up to the same total.
  const std::vector<RevisitItem> items = {{1.0 / 60, 1, 0, 0.3}, {1.0 / 60, 1, 0, 0}};
  const std::vector<double> caps = {std::numeric_limits<double>::infinity()};
  const Allocation a = optimal_allocation(items, caps, 0.7);
  EXPECT_NEAR(a.frequency[0] + 0.3, 0.5, 1e-6);
  EXPECT_NEAR(a.frequency[1], 0.5, 1e-6);
  // A floor above what the optimum would give gets nothing more.
  const std::vector<RevisitItem> high = {{1.0 / 60, 1, 0, 2.0}, {1.0 / 60, 1, 0, 0}};
  const Allocation b = optimal_allocation(high, caps, 0.5);
  EXPECT_DOUBLE_EQ(b.frequency[0], 0.0);
  EXPECT_NEAR(b.frequency[1], 0.5, 1e-6);
}

}  // namespace
}  // namespace cronista::revisit
