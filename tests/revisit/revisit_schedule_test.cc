// The revisit schedule: estimates from visits, the budget shared out under
// the politeness caps, hubs by their yield, due times evenly spaced.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <random>
#include <vector>

#include "revisit/revisit_schedule.h"

namespace cronista::revisit {
namespace {

// A time long after every visit of a test that is not about how early a
// spare slot may bring a visit forward.
constexpr double kLate = 1e7;

RevisitOptions options(double budget) {
  RevisitOptions o;
  o.budget = budget;
  o.min_revisit_share = 0.2;
  o.hub_share = 0.2;
  return o;
}

// Visits a page `n` times every `every` seconds from `start`, telling the
// schedule whether it changed (Poisson at `rate`).
double visit(RevisitSchedule& s, RevisitSchedule::PageId id, double start, double every, int n, double rate,
             std::mt19937_64& rng, std::size_t new_urls = 0) {
  std::uniform_real_distribution<double> u(0, 1);
  double t = start;
  for (int i = 0; i < n; ++i) {
    t += every;
    s.record_visit(id, t, u(rng) < -std::expm1(-rate * every), new_urls);
  }
  return t;
}

TEST(RevisitSchedule, APageSeenChangingIsRevisitedMoreOftenThanOneSeenStill) {
  RevisitSchedule s(options(1.0));
  std::mt19937_64 rng(1);
  const auto busy = s.add_page(0, 1, 1.0 / 600, 0);
  const auto still = s.add_page(1, 1, 1.0 / 600, 0);
  visit(s, busy, 0, 60, 20, 1.0 / 120, rng);
  visit(s, still, 0, 60, 20, 0.0, rng);
  s.resolve();
  EXPECT_GT(s.estimated_rate(busy), 10 * s.estimated_rate(still));
  EXPECT_GT(s.frequency(busy), s.frequency(still));
}

TEST(RevisitSchedule, VisitsAreEvenlySpacedAtTheAllocatedFrequency) {
  RevisitSchedule s(options(0.5));
  const auto id = s.add_page(0, 1, 1.0 / 60, 100);
  s.resolve();
  ASSERT_GT(s.frequency(id), 0);
  EXPECT_NEAR(s.due(id), 100 + 1 / s.frequency(id), 1e-9);
  s.record_visit(id, 130, true, 0);
  EXPECT_NEAR(s.due(id), 130 + 1 / s.frequency(id), 1e-9);
}

TEST(RevisitSchedule, AHostNeverGetsMoreThanOneFetchPerPolitenessGap) {
  RevisitSchedule s(options(10.0));
  s.set_host_gap(0, 2.0);
  for (int i = 0; i < 50; ++i) s.add_page(0, 1, 1.0 / 30, 0);
  s.resolve();
  double host_total = 0;
  for (RevisitSchedule::PageId i = 0; i < s.size(); ++i) host_total += s.frequency(i);
  EXPECT_LE(host_total, 0.5 + 1e-9);
}

TEST(RevisitSchedule, NewUrlsTakeTheBudgetButRevisitsKeepTheirMinimumShare) {
  RevisitSchedule s(options(4.0));
  s.add_page(0, 1, 1.0 / 60, 0);
  s.set_new_url_rate(1.0);
  EXPECT_DOUBLE_EQ(s.revisit_budget(), 3.0);
  s.set_new_url_rate(4.0);
  EXPECT_DOUBLE_EQ(s.revisit_budget(), 0.8);
}

TEST(RevisitSchedule, QueuedNewUrlsKeepTheirShareWithinWhatTheirHostsAllow) {
  RevisitSchedule s(options(10.0));
  s.add_page(0, 1, 1.0 / 60, 0);
  // New URLs got no slot lately (revisits took them), but some are queued
  // on hosts that allow 5 fetches/s: a fifth of the budget stays theirs.
  s.set_new_url_rate(0.0);
  s.set_new_url_capacity(5.0);
  EXPECT_DOUBLE_EQ(s.revisit_budget(), 8.0);
  // Queued only on a host allowing one fetch a second: revisits take the rest.
  s.set_new_url_capacity(1.0);
  EXPECT_DOUBLE_EQ(s.revisit_budget(), 9.0);
  // Nothing queued: everything to revisits.
  s.set_new_url_capacity(0.0);
  EXPECT_DOUBLE_EQ(s.revisit_budget(), 10.0);
}

TEST(RevisitSchedule, AHubThatAnnouncesNewPagesIsRevisitedThoughItsTextNeverChanges) {
  RevisitSchedule s(options(0.2));
  std::mt19937_64 rng(2);
  const auto hub = s.add_page(0, 1, 1.0 / 3600, 0);
  const auto article = s.add_page(1, 1, 1.0 / 3600, 0);
  // Neither changes; the hub links to three new articles on every visit.
  visit(s, hub, 0, 60, 10, 0.0, rng, 3);
  visit(s, article, 0, 60, 10, 0.0, rng, 0);
  s.resolve();
  EXPECT_GT(s.yield(hub), 2.0);
  // A lone hub is visited at least every 2 × the discovery wait: its new
  // URLs wait half an interval on average. The article, never changing and
  // announcing nothing, gets only what is left.
  EXPECT_GE(s.frequency(hub), 1 / (2 * RevisitOptions{}.discovery_wait_s) - 1e-9);
  EXPECT_GE(s.frequency(hub), s.frequency(article));
}

TEST(RevisitSchedule, DiscoverySpendsWhatTheMeanWaitAsksByTheRootOfEachHubsAnnouncements) {
  // Two hubs on uncapped hosts announce 4 and 1 new URLs per fetch at the
  // same frequency: the optimum of the mean wait visits them in the ratio
  // √4 : √1 and spends (√a1 + √a2)² / (2 · wait · (a1 + a2)) per second.
  RevisitOptions o = options(20.0);
  o.discovery_wait_s = 4;
  o.hub_share = 1;  // the wait decides, not the cap
  RevisitSchedule s(o);
  std::mt19937_64 rng(6);
  const auto busy = s.add_page(0, 0, 1.0 / 3600, 0, 4);
  const auto quiet = s.add_page(1, 0, 1.0 / 3600, 0, 1);
  s.resolve();  // both at the provisional frequency of 10 per second
  const double f = s.frequency(busy);
  visit(s, busy, 0, 1 / f, 20, 0.0, rng, 4);
  visit(s, quiet, 0, 1 / f, 20, 0.0, rng, 1);
  s.resolve();
  const double a1 = 4 * f, a2 = 1 * f;
  const double spend = std::pow(std::sqrt(a1) + std::sqrt(a2), 2) / (2 * 4 * (a1 + a2));
  EXPECT_NEAR(s.frequency(busy) / s.frequency(quiet), 2.0, 1e-3);
  EXPECT_NEAR(s.frequency(busy) + s.frequency(quiet), spend, 1e-3 * spend);
  // With hub_share the cap, discovery spends no more than its share.
  RevisitOptions capped = o;
  capped.hub_share = 0.001;  // 0.02 per second, below the 1 / (2 · 4) the wait asks
  RevisitSchedule c(capped);
  const auto only = c.add_page(0, 0, 1.0 / 3600, 0, 50);
  c.resolve();
  c.record_visit(only, 1, false, 50);
  c.resolve();
  EXPECT_NEAR(c.frequency(only), 0.001 * 20, 1e-9);
}

TEST(RevisitSchedule, PagesThatChangeAlikeArePulledHardTowardsTheirMeanAndPagesThatDifferAreNot) {
  // Forty pages seen every 30 s for ten minutes. Alike: every one changes
  // at 1/300 per second, so a page's few changes say little beyond the
  // mean and the prior weighs heavily. Different: half change at 1/60, half
  // never, so each page's own history decides.
  auto fitted = [](bool alike, double& quiet_estimate, double& busy_estimate) {
    RevisitSchedule s(options(2.0));
    std::mt19937_64 rng(8);
    std::vector<RevisitSchedule::PageId> ids;
    for (int i = 0; i < 40; ++i) ids.push_back(s.add_page(0, 1, 1.0 / 300, 0));
    for (int i = 0; i < 40; ++i) visit(s, ids[i], 0, 30, 20, alike ? 1.0 / 300 : (i % 2 ? 1.0 / 60 : 0.0), rng);
    s.resolve();
    quiet_estimate = s.estimated_rate(ids[0]);
    busy_estimate = s.estimated_rate(ids[1]);
    return s.prior_shape();
  };
  double alike_a = 0, alike_b = 0, diff_quiet = 0, diff_busy = 0;
  const double alike_shape = fitted(true, alike_a, alike_b);
  const double different_shape = fitted(false, diff_quiet, diff_busy);
  EXPECT_GT(alike_shape, 10 * different_shape);
  // Alike: both estimates within a factor 2 of the common rate, whatever each page happened to show.
  for (double e : {alike_a, alike_b}) {
    EXPECT_GT(e, 1.0 / 600);
    EXPECT_LT(e, 1.0 / 150);
  }
  // Different: the still page far below the busy one, the busy one near 1/60.
  EXPECT_LT(diff_quiet, diff_busy / 10);
  EXPECT_GT(diff_busy, 1.0 / 120);
}

TEST(RevisitSchedule, AHostWhosePagesChangeLiftsThePriorOfItsPagesWithoutHistory) {
  // Host 0's pages change every minute, host 1's never; one new page joins
  // each host with the same given prior and no history.
  RevisitSchedule s(options(4.0));
  std::mt19937_64 rng(10);
  for (int i = 0; i < 20; ++i) visit(s, s.add_page(0, 1, 1.0 / 600, 0), 0, 20, 15, 1.0 / 60, rng);
  for (int i = 0; i < 20; ++i) visit(s, s.add_page(1, 1, 1.0 / 600, 0), 0, 20, 15, 0.0, rng);
  const auto busy_host = s.add_page(0, 1, 1.0 / 600, 300);
  const auto still_host = s.add_page(1, 1, 1.0 / 600, 300);
  s.resolve();
  EXPECT_GT(s.estimated_rate(busy_host), 1.0 / 120);
  EXPECT_LT(s.estimated_rate(still_host), 1.0 / 3000);
}

// New URLs told after the visit (a shared crawl learns which links were
// new to the crawl one round trip later) make the same yield and the same
// share of the budget as when told with it.
TEST(RevisitSchedule, NewUrlsAnnouncedAfterTheVisitCountAsIfToldWithIt) {
  RevisitSchedule now(options(0.2)), later(options(0.2));
  for (RevisitSchedule* s : {&now, &later}) {
    s->add_page(0, 1, 1.0 / 3600, 0);
    s->add_page(1, 1, 1.0 / 3600, 0);
  }
  for (int k = 1; k <= 4; ++k) {
    now.record_visit(0, 60.0 * k, false, static_cast<std::size_t>(k));
    later.record_visit(0, 60.0 * k, false, 0);
    for (int i = 0; i < k; ++i) later.add_announced(0, 1);
  }
  EXPECT_GT(now.yield(0), 1.0);
  EXPECT_NEAR(later.yield(0), now.yield(0), 1e-12);
  now.resolve();
  later.resolve();
  EXPECT_NEAR(later.frequency(0), now.frequency(0), 1e-12);
  EXPECT_GE(later.frequency(0), 0.2 * 0.2 - 1e-9);  // at least the discovery share
}

// A page's history handed to another schedule (another process of a
// shared crawl) gives the same estimate and yield there, folded visits
// included, and replaces what that schedule knew of the page.
TEST(RevisitSchedule, AHistoryHandedToAnotherScheduleEstimatesTheSameThere) {
  RevisitSchedule a(options(0.2)), b(options(0.2));
  a.add_page(0, 1, 1.0 / 3600, 0);
  b.add_page(0, 1, 1.0 / 3600, 0);
  b.record_visit(0, 30, true, 0);  // what b knew: replaced
  for (int k = 1; k <= 40; ++k) a.record_visit(0, 45.0 * k, k % 3 == 0, k == 40 ? 2 : 0);
  b.set_history(0, a.history(0));
  EXPECT_EQ(a.history(0).recent.size(), kKeptObservations);
  EXPECT_NEAR(b.estimated_rate(0), a.estimated_rate(0), 1e-12);
  EXPECT_NEAR(b.yield(0), a.yield(0), 1e-12);
  // And back again, after one more visit there.
  b.rebase(0, 40 * 45.0);
  b.record_visit(0, 41 * 45.0, true, 0);
  a.record_visit(0, 41 * 45.0, true, 0);
  EXPECT_NEAR(b.estimated_rate(0), a.estimated_rate(0), 1e-12);
}

TEST(RevisitSchedule, WhatDiscoveryCannotSpendOnACappedHubGoesToFreshness) {
  // The only hub sits on a host allowed one fetch in 20 s, far below the
  // discovery share (0.2 of 2 fetches/s); the pages of an uncapped host
  // take the rest, so the whole budget is shared out.
  RevisitSchedule s(options(2.0));
  std::mt19937_64 rng(4);
  s.set_host_gap(0, 20.0);
  const auto hub = s.add_page(0, 1, 1.0 / 600, 0);
  std::vector<RevisitSchedule::PageId> pages;
  for (int i = 0; i < 10; ++i) pages.push_back(s.add_page(1, 1, 1.0 / 60, 0));
  visit(s, hub, 0, 20, 10, 0.0, rng, 4);
  for (auto id : pages) visit(s, id, 0, 30, 10, 1.0 / 60, rng);
  s.resolve();
  EXPECT_LE(s.frequency(hub), 1.0 / 20 + 1e-9);
  double total = 0;
  for (RevisitSchedule::PageId i = 0; i < s.size(); ++i) total += s.frequency(i);
  EXPECT_NEAR(total, 2.0, 1e-6);
}

TEST(RevisitSchedule, ALongHistoryKeepsAnAccurateEstimateInFixedMemory) {
  RevisitSchedule s(options(1.0));
  std::mt19937_64 rng(3);
  const double rate = 1.0 / 90;
  const auto id = s.add_page(0, 1, 1.0 / 3600, 0);
  visit(s, id, 0, 45, 4000, rate, rng);
  EXPECT_NEAR(s.estimated_rate(id) / rate, 1.0, 0.1);
}

TEST(RevisitSchedule, APageIsDueOnlyFromItsDueTimeAndPostponingMovesIt) {
  RevisitSchedule s(options(0.1));
  const auto id = s.add_page(0, 1, 1.0 / 60, 0);
  s.resolve();
  const double due = s.due(id);
  EXPECT_FALSE(s.next_due(due - 1).has_value());
  ASSERT_TRUE(s.next_due(due).has_value());
  EXPECT_EQ(*s.next_due(due), id);
  s.postpone(id, due + 50);
  EXPECT_FALSE(s.next_due(due + 49).has_value());
  EXPECT_DOUBLE_EQ(s.next_due_time(), due + 50);
}

TEST(RevisitSchedule, TheOptimumAbandonsAPageChangingFarFasterThanTheBudgetFollows) {
  RevisitOptions o = options(0.02);
  o.hub_share = 0;
  RevisitSchedule s(o);
  std::mt19937_64 rng(4);
  const auto frantic = s.add_page(0, 1, 1.0, 0);
  const auto calm = s.add_page(1, 1, 1.0 / 600, 0);
  visit(s, frantic, 0, 30, 30, 5.0, rng);
  visit(s, calm, 0, 30, 30, 1.0 / 600, rng);
  s.resolve();
  EXPECT_EQ(s.frequency(frantic), 0.0);
  EXPECT_GT(s.frequency(calm), 0.0);
}

// Two pages on two hosts under `policy`, the schedule solved once.
struct TwoPages {
  RevisitSchedule s;
  RevisitSchedule::PageId a, b;
};
TwoPages two_pages(RevisitPolicy policy, double budget) {
  RevisitOptions o = options(budget);
  o.policy = policy;
  TwoPages t{RevisitSchedule(o), 0, 0};
  t.a = t.s.add_page(0, 1, 1.0 / 600, 0);
  t.b = t.s.add_page(1, 1, 1.0 / 600, 0);
  t.s.resolve();
  return t;
}

TEST(RevisitSchedule, TheNutchLikeScheduleStretchesAStillPageAndShrinksAChangingOne) {
  TwoPages t = two_pages(RevisitPolicy::kAdaptive, 0.1);
  RevisitSchedule& s = t.s;
  const auto still = t.a, busy = t.b;
  // Two pages at 0.1 fetches/s: the uniform interval, 20 s, raised to the 60 s floor.
  EXPECT_NEAR(1 / s.frequency(still), 60, 1e-3);
  s.record_visit(still, 60, false, 0);
  s.record_visit(busy, 60, true, 0);
  EXPECT_NEAR(1 / s.frequency(still), 60 * 1.4, 1e-3);
  EXPECT_NEAR(1 / s.frequency(busy), 60, 1e-3);  // 48 s is below the floor
  s.record_visit(still, 144, false, 0);
  EXPECT_NEAR(1 / s.frequency(still), 60 * 1.4 * 1.4, 1e-3);
  EXPECT_NEAR(s.due(still), 144 + 60 * 1.4 * 1.4, 1e-3);
}

TEST(RevisitSchedule, TheFourClassesSpendTheBudgetAndMoveAPageByItsRecentChanges) {
  TwoPages t = two_pages(RevisitPolicy::kClasses, 1.0);
  RevisitSchedule& s = t.s;
  const auto a = t.a, b = t.b;
  // Both in the second class: together they spend the whole revisit budget.
  EXPECT_NEAR(s.frequency(a) + s.frequency(b), s.revisit_budget(), 1e-9);
  const double second = s.frequency(a);
  // Two visits that both saw a change (n = 2 in the second class): one class faster, 3×.
  s.record_visit(a, 10, true, 0);
  EXPECT_NEAR(s.frequency(a), second, 1e-9);
  s.record_visit(a, 20, true, 0);
  EXPECT_NEAR(s.frequency(a), 3 * second, 1e-9);
  // Two that saw none: one class slower, 30 : 3.
  s.record_visit(b, 10, false, 0);
  s.record_visit(b, 20, false, 0);
  EXPECT_NEAR(s.frequency(b), second / 10, 1e-9);
}

TEST(RevisitSchedule, APageThatCountsOnlyAsAHubIsRevisitedByTheYieldOfItsFirstFetch) {
  RevisitSchedule s(options(1.0));
  const auto page = s.add_page(0, 1, 1.0 / 600, 0);
  const auto feed = s.add_page(1, 0, 1.0 / 600, 0, 12);   // a feed that listed 12 new URLs
  const auto other = s.add_page(2, 0, 1.0 / 600, 0, 0);   // out of scope, announcing nothing
  s.resolve();
  EXPECT_GT(s.frequency(page), 0);
  EXPECT_GT(s.frequency(feed), 0);
  EXPECT_EQ(s.frequency(other), 0);
  // Two hubs alike at first; the one whose revisits find nothing new loses
  // its share to the one that keeps announcing.
  const auto live = s.add_page(3, 0, 1.0 / 600, 0, 12);
  for (int i = 1; i <= 5; ++i) {
    s.record_visit(feed, 60.0 * i, false, 0);
    s.record_visit(live, 60.0 * i, false, 12);
  }
  s.resolve();
  EXPECT_LT(s.yield(feed), 12 * 0.2);
  EXPECT_LT(s.frequency(feed), s.frequency(live) / 2);
}

TEST(RevisitSchedule, APageWithoutHistoryIsEstimatedAtItsPriorUntilItsVisitsSaySomething) {
  RevisitSchedule s(options(1.0));
  const auto id = s.add_page(0, 1, 1.0 / 86400, 0);
  EXPECT_NEAR(s.estimated_rate(id), 1.0 / 86400, 1e-9);
  s.set_prior_rate(id, 1.0 / 600);
  EXPECT_NEAR(s.estimated_rate(id), 1.0 / 600, 1e-9);
  // Twenty visits a minute apart that saw nothing pull it well below the prior.
  for (int i = 1; i <= 20; ++i) s.record_visit(id, 60.0 * i, false, 0);
  EXPECT_LT(s.estimated_rate(id), 1.0 / 1200);
}

TEST(RevisitSchedule, ASpareSlotTakesThePageDueEarliestOnAHostThatIsReady) {
  RevisitSchedule s(options(0.05));
  // Two pages on host 0, one on host 1 and one on host 2, changing at
  // different rates: the optimum gives them different intervals.
  const auto slow = s.add_page(0, 1, 1.0 / 3000, 0);
  const auto fast = s.add_page(0, 1, 1.0 / 200, 0);
  const auto middle = s.add_page(1, 1, 1.0 / 600, 0);
  const auto other = s.add_page(2, 1, 1.0 / 1000, 0);
  const auto hub_only = s.add_page(2, 0, 1.0 / 100, 0);  // weight 0, no yield: never scheduled
  s.resolve();
  std::vector<RevisitSchedule::PageId> by_due = {slow, fast, middle, other};
  std::sort(by_due.begin(), by_due.end(), [&](auto a, auto b) { return s.due(a) < s.due(b); });
  ASSERT_LT(s.due(by_due[0]), s.due(by_due[1]));
  EXPECT_FALSE(s.next_due(0).has_value());  // nothing is due yet: the slot is spare

  const auto any = s.earliest_ready([](RevisitSchedule::PageId) { return true; }, kLate);
  ASSERT_TRUE(any.has_value());
  EXPECT_EQ(*any, by_due[0]);
  // Chosen, not removed: it is still scheduled at the same time.
  EXPECT_DOUBLE_EQ(s.next_due_time(), s.due(by_due[0]));
  EXPECT_EQ(s.earliest_ready([](RevisitSchedule::PageId) { return true; }, kLate), any);

  // The first page's host must wait: the earliest of the other hosts' pages.
  const std::uint32_t busy = by_due[0] == middle ? 1u : by_due[0] == other ? 2u : 0u;
  const auto host_of = [&](RevisitSchedule::PageId id) { return id == middle ? 1u : id == other || id == hub_only ? 2u : 0u; };
  const auto elsewhere = s.earliest_ready([&](RevisitSchedule::PageId id) { return host_of(id) != busy; }, kLate);
  ASSERT_TRUE(elsewhere.has_value());
  RevisitSchedule::PageId expected = by_due[0];
  for (auto id : by_due)
    if (host_of(id) != busy) {
      expected = id;
      break;
    }
  EXPECT_EQ(*elsewhere, expected);
  EXPECT_NE(*elsewhere, hub_only);

  // No host ready: no page.
  EXPECT_FALSE(s.earliest_ready([](RevisitSchedule::PageId) { return false; }, kLate).has_value());
  // Only the unscheduled page's host ready: it is not taken.
  const auto only_hub = s.earliest_ready([&](RevisitSchedule::PageId id) { return id == hub_only; }, kLate);
  EXPECT_FALSE(only_hub.has_value());

  // Its visit brought forward restarts its clock: the next one is an interval after it.
  const double early = s.due(*any) / 2;
  s.record_visit(*any, early, false, 0);
  EXPECT_NEAR(s.due(*any), early + 1.0 / s.frequency(*any), 1e-9);
}

// A spare slot brings a visit forward by at most half the page's interval:
// right after a collection is crawled every page was visited a moment ago,
// and the page of shortest interval, visited in a spare slot, would be the
// page due earliest again at once, taken by every spare slot.
TEST(RevisitSchedule, ASpareSlotBringsAVisitForwardByAtMostHalfThePagesInterval) {
  RevisitSchedule s(options(0.05));
  const auto fast = s.add_page(0, 1, 1.0 / 60, 0);
  std::vector<RevisitSchedule::PageId> slow;
  for (std::uint32_t h = 1; h <= 4; ++h) slow.push_back(s.add_page(h, 1, 1.0 / 6000, 0));
  s.resolve();
  const double interval = 1 / s.frequency(fast);
  ASSERT_LT(interval, 1 / s.frequency(slow[0]));
  // Every page visited at 100 (the collection just crawled).
  for (auto id : slow) s.record_visit(id, 100, false, 0);
  s.record_visit(fast, 100, false, 0);
  const auto all = [](RevisitSchedule::PageId) { return true; };
  EXPECT_DOUBLE_EQ(s.spare_from(fast), 100 + 0.5 * interval);  // what a shared crawl's frontier is told
  EXPECT_FALSE(s.earliest_ready(all, 101).has_value());
  EXPECT_FALSE(s.earliest_ready(all, 100 + 0.49 * interval).has_value());
  EXPECT_EQ(s.earliest_ready(all, 100 + 0.51 * interval), fast);
  // A spare slot every second for ten intervals: the fast page is brought
  // forward at most once per half interval, each slow page once its half is past.
  int fast_visits = 0;
  for (double t = 100 + 0.51 * interval; t < 100 + 10 * interval; t += 1) {
    const auto page = s.earliest_ready(all, t);
    if (!page) continue;
    EXPECT_GE(t - s.last_visit(*page), 0.5 / s.frequency(*page) - 1e-9);
    if (*page == fast) ++fast_visits;
    s.record_visit(*page, t, false, 0);
  }
  EXPECT_GE(fast_visits, 10);
  EXPECT_LE(fast_visits, 20);
}

// A page that answers without a document (a redirect, a 404): under the
// optimum it has no freshness weight, takes no spare slot and is asked
// again after a minute, then after waits that double; its budget goes to
// the pages with documents. The first document again gives it back its
// weight. A reference policy keeps revisiting it at its frequency, not
// sooner than a minute after the answer.
TEST(RevisitSchedule, APageWithoutADocumentHasNoWeightUnderTheOptimumUntilOneComesBack) {
  RevisitSchedule s(options(0.1));
  const auto gone = s.add_page(0, 1, 1.0 / 300, 0);
  const auto kept = s.add_page(1, 1, 1.0 / 300, 0);
  s.resolve();
  const double before = s.frequency(kept);
  ASSERT_GT(s.frequency(gone), 0);
  ASSERT_NEAR(s.frequency(gone), before, 1e-12);

  s.set_document(gone, false, 100);
  EXPECT_FALSE(s.has_document(gone));
  s.resolve();
  EXPECT_EQ(s.frequency(gone), 0);
  EXPECT_GT(s.frequency(kept), before);  // its share went to the page with a document
  EXPECT_DOUBLE_EQ(s.due(gone), 160);    // asked again a minute after the answer
  // Not taken by a spare slot, whatever host is ready.
  const auto spare = s.earliest_ready([](RevisitSchedule::PageId) { return true; }, kLate);
  ASSERT_TRUE(spare.has_value());
  EXPECT_EQ(*spare, kept);
  EXPECT_FALSE(s.earliest_ready([&](RevisitSchedule::PageId id) { return id == gone; }, kLate).has_value());
  // Still without one: twice the wait, then twice again.
  s.set_document(gone, false, 160);
  EXPECT_DOUBLE_EQ(s.due(gone), 160 + 120);
  s.set_document(gone, false, 280);
  EXPECT_DOUBLE_EQ(s.due(gone), 280 + 240);

  // A document again: its weight back, a frequency at once, spare slots again.
  s.set_document(gone, true, 520);
  EXPECT_TRUE(s.has_document(gone));
  EXPECT_GT(s.frequency(gone), 0);
  EXPECT_NEAR(s.due(gone), 520 + 1 / s.frequency(gone), 1e-9);
  s.resolve();
  EXPECT_NEAR(s.frequency(gone), s.frequency(kept), 1e-12);
  EXPECT_TRUE(s.earliest_ready([&](RevisitSchedule::PageId id) { return id == gone; }, kLate).has_value());

  // Uniform, a reference policy: the page keeps its frequency; its next
  // visit is at that interval, a minute after the answer at the soonest.
  RevisitOptions uniform = options(0.1);
  uniform.policy = RevisitPolicy::kUniform;
  RevisitSchedule u(uniform);
  const auto ugone = u.add_page(0, 1, 1.0 / 300, 0);
  const auto ukept = u.add_page(1, 1, 1.0 / 300, 0);
  u.resolve();
  u.set_document(ugone, false, 100);
  u.resolve();
  EXPECT_NEAR(u.frequency(ugone), u.frequency(ukept), 1e-12);
  EXPECT_NEAR(u.due(ugone), 100 + std::max(60.0, 1 / u.frequency(ugone)), 1e-9);
}

// A hub of weight 0 (a feed) is revisited by its yield but never brought
// forward into a spare slot: the visit would add no freshness.
TEST(RevisitSchedule, AHubWithoutWeightTakesNoSpareSlot) {
  RevisitSchedule s(options(1.0));
  const auto feed = s.add_page(0, 0, 1.0 / 600, 0, 12);
  s.resolve();
  ASSERT_GT(s.frequency(feed), 0);
  EXPECT_FALSE(s.earliest_ready([](RevisitSchedule::PageId) { return true; }, kLate).has_value());
  const auto page = s.add_page(1, 1, 1.0 / 600, 0);
  s.resolve();
  const auto spare = s.earliest_ready([](RevisitSchedule::PageId) { return true; }, kLate);
  ASSERT_TRUE(spare.has_value());
  EXPECT_EQ(*spare, page);
  // An answer without a document announced nothing: the yield wears down
  // as after a visit that found no new URL.
  const double yield = s.yield(feed);
  s.set_document(feed, false, 10);
  EXPECT_NEAR(s.yield(feed), yield * (1 - RevisitOptions{}.yield_memory), 1e-12);
  EXPECT_GT(s.frequency(feed), 0);  // still a hub until the next resolve says otherwise
}

}  // namespace
}  // namespace cronista::revisit
