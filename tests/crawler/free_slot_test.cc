// The free-slot rule of the temporal crawl: what the crawl learns of its
// links (LinkYield), the frontier's count of queued links by priority, and
// the hook that lets a ready host be served although a better link waits
// for politeness elsewhere.
#include <gtest/gtest.h>

#include <optional>
#include <string>
#include <vector>

#include "crawler/frontier.h"
#include "crawler/host_queue.h"
#include "crawler/link_yield.h"

namespace cronista::crawler {
namespace {

TEST(LinkYield, ABandNeverFetchedIsEvenOdds) {
  LinkYield y;
  EXPECT_DOUBLE_EQ(y.estimate(50), 0.5);
  EXPECT_EQ(y.fetched(50), 0);
}

TEST(LinkYield, PrioritiesOfOneBandShareWhatTheyLearn) {
  LinkYield y(10);
  for (int i = 0; i < 8; ++i) y.learn(50, true);
  y.learn(58, false);
  y.learn(60, false);
  y.learn(61, false);
  // Band 50-59: 8 relevant of 9, plus one of each assumed.
  EXPECT_DOUBLE_EQ(y.estimate(55), 9.0 / 11.0);
  EXPECT_EQ(y.fetched(59), 9);
  // Band 60-69: none of 2.
  EXPECT_DOUBLE_EQ(y.estimate(69), 1.0 / 4.0);
  EXPECT_GT(y.estimate(50), y.estimate(60));
}

// Two hosts at 100 ms per request: bom.pt's links have two backlinks each
// (priority 33), fraco.pt's one (50).
struct Hosts {
  explicit Hosts(std::function<bool(int)> worth) : hosts(polite()), frontier(hosts, nullptr, options(std::move(worth))) {
    good = add_host("bom.pt");
    poor = add_host("fraco.pt");
    for (const char* u : {"http://bom.pt/1", "http://bom.pt/2"}) {
      frontier.add(u, good, 1, 0, true, 1, &ops);
      frontier.add(u, good, 1, 0, true, 1, &ops);
    }
    frontier.add("http://fraco.pt/1", poor, 1, 0, true, 1, &ops);
    frontier.add("http://fraco.pt/2", poor, 1, 0, true, 1, &ops);
  }
  static PolitenessOptions polite() {
    PolitenessOptions p;
    p.delay = std::chrono::milliseconds(100);
    p.host_connections = 1;
    return p;
  }
  static FrontierOptions options(std::function<bool(int)> worth) {
    FrontierOptions o;
    o.priority_slack = 0;
    o.worth_a_slot = std::move(worth);
    return o;
  }
  std::uint32_t add_host(const std::string& authority) {
    const auto id = hosts.intern(authority, "http://" + authority);
    hosts.set_robots(id, RobotsRules::allow_all(), "test", std::chrono::hours(1), Clock::now());
    frontier.host_changed(id, Clock::now());
    return id;
  }
  std::optional<std::string> pop(Clock::time_point at) {
    auto e = frontier.pop(at);
    if (!e) return std::nullopt;
    hosts.on_dispatch(e->host, at);
    frontier.host_changed(e->host, at);
    hosts.on_finish(e->host, at);
    frontier.finish(*e, UrlState::Done, &ops);
    frontier.host_changed(e->host, at);
    return e->url;
  }
  HostQueue hosts;
  Frontier frontier;
  std::vector<FrontierOp> ops;
  std::uint32_t good = 0, poor = 0;
};

TEST(FreeSlot, ALinkWorthASlotIsFetchedWhileABetterOneWaitsForPoliteness) {
  std::vector<int> asked;
  Hosts h([&](int priority) {
    asked.push_back(priority);
    return true;
  });
  const auto t0 = Clock::now();
  EXPECT_EQ(h.pop(t0), "http://bom.pt/1");
  EXPECT_EQ(h.pop(t0), "http://fraco.pt/1");
  EXPECT_EQ(asked, std::vector<int>{50});
}

TEST(FreeSlot, ALinkNotWorthASlotWaitsForTheBetterOne) {
  Hosts h([](int) { return false; });
  const auto t0 = Clock::now();
  const auto gap = std::chrono::milliseconds(100);
  EXPECT_EQ(h.pop(t0), "http://bom.pt/1");
  EXPECT_EQ(h.pop(t0), std::nullopt);
  EXPECT_EQ(h.pop(t0 + gap), "http://bom.pt/2");
  EXPECT_EQ(h.pop(t0 + gap), "http://fraco.pt/1");  // bom.pt is spent: the best left
}

TEST(FreeSlot, TheFrontierCountsQueuedLinksByPriority) {
  Hosts h(nullptr);
  // Queued: 33, 33, 50, 50.
  EXPECT_EQ(h.frontier.nth_best_priority(1), 33);
  EXPECT_EQ(h.frontier.nth_best_priority(2), 33);
  EXPECT_EQ(h.frontier.nth_best_priority(3), 50);
  EXPECT_EQ(h.frontier.nth_best_priority(4), 50);
  EXPECT_EQ(h.frontier.nth_best_priority(5), std::nullopt);
  // A third backlink moves fraco.pt/1 to 33; a fetched link leaves the count.
  h.frontier.add("http://fraco.pt/1", h.poor, 1, 0, true, 1, &h.ops);
  EXPECT_EQ(h.frontier.nth_best_priority(3), 33);
  EXPECT_EQ(h.pop(Clock::now()), "http://bom.pt/1");
  EXPECT_EQ(h.frontier.nth_best_priority(2), 33);
  EXPECT_EQ(h.frontier.nth_best_priority(3), 50);
  EXPECT_EQ(h.frontier.nth_best_priority(4), std::nullopt);
}

}  // namespace
}  // namespace cronista::crawler
