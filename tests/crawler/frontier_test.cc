// The frontier's order (priority by backlinks, FIFO ties), its per-host
// scheduling under politeness, and its bounds.
#include "crawler/frontier.h"

#include <algorithm>
#include <atomic>
#include <optional>
#include <thread>

#include "crawler/crawl_store.h"
#include "test_support.h"

#include <gtest/gtest.h>

namespace cronista::crawler {
namespace {

struct Fixture {
  explicit Fixture(PolitenessOptions p = zero_delay(), FrontierOptions f = {}) : hosts(p), frontier(hosts, nullptr, f) {}
  static PolitenessOptions zero_delay() {
    PolitenessOptions p;
    p.delay = std::chrono::milliseconds(0);
    p.host_connections = 4;
    return p;
  }
  std::uint32_t host(const std::string& authority) {
    const auto id = hosts.intern(authority, "http://" + authority);
    hosts.set_robots(id, RobotsRules::allow_all(), "test", std::chrono::hours(1), Clock::now());
    frontier.host_changed(id, Clock::now());
    return id;
  }
  Frontier::Added add(const std::string& url, std::uint32_t h, bool backlink = true, std::uint16_t depth = 1) {
    return frontier.add(url, h, depth, 0, backlink, 1, &ops);
  }
  std::vector<std::string> drain() {
    std::vector<std::string> out;
    while (auto e = frontier.pop(Clock::now())) {
      out.push_back(e->url);
      frontier.finish(*e, UrlState::Done, &ops);
    }
    return out;
  }
  HostQueue hosts;
  Frontier frontier;
  std::vector<FrontierOp> ops;
};

TEST(Frontier, PriorityIsAHundredOverBacklinksPlusOne) {
  EXPECT_EQ(priority_for_backlinks(0), 100);
  EXPECT_EQ(priority_for_backlinks(1), 50);
  EXPECT_EQ(priority_for_backlinks(2), 33);
  EXPECT_EQ(priority_for_backlinks(3), 25);
  EXPECT_EQ(priority_for_backlinks(99), 1);
  EXPECT_EQ(priority_for_backlinks(100), 0);
  EXPECT_EQ(priority_for_backlinks(4000000000u), 0);
}

// A URL claimed from a shared frontier keeps the priority it was claimed at
// (what the crawl learns of its links is filed under it), an announced one included.
TEST(Frontier, AClaimedUrlKeepsThePriorityItWasClaimedAt) {
  FrontierOptions fo;
  fo.divert = [](std::string_view, std::uint32_t, bool, std::uint8_t, std::uint32_t) {};
  Fixture f(Fixture::zero_delay(), fo);
  auto h = f.host("jornal.pt");
  const std::vector<int> priorities = {100, 140, 354, 50, 37, 34, 33, 1, 0, -1};
  for (std::size_t i = 0; i < priorities.size(); ++i)
    ASSERT_EQ(f.frontier.add_claimed("http://jornal.pt/" + std::to_string(i), h, 1, &f.ops, priorities[i]),
              Frontier::Added::Queued);
  std::vector<int> got;
  while (auto e = f.frontier.pop(Clock::now())) {
    got.push_back(e->priority());
    f.frontier.finish(*e, UrlState::Done, &f.ops);
  }
  EXPECT_EQ(got, (std::vector<int>{-1, 0, 1, 33, 34, 37, 50, 100, 140, 354}));
}

TEST(Frontier, EqualPrioritiesComeOutInDiscoveryOrder) {
  Fixture f;
  auto h = f.host("pt.wikipedia.org");
  for (const char* p : {"/wiki/Lisboa", "/wiki/Porto", "/wiki/Braga", "/wiki/Faro"})
    f.add(std::string("https://pt.wikipedia.org") + p, h);
  EXPECT_EQ(f.drain(), (std::vector<std::string>{"https://pt.wikipedia.org/wiki/Lisboa", "https://pt.wikipedia.org/wiki/Porto",
                                                 "https://pt.wikipedia.org/wiki/Braga", "https://pt.wikipedia.org/wiki/Faro"}));
}

// A redirect target queued at its source's place (at_seq) goes before the
// URLs of its priority found after the source, not behind them.
TEST(Frontier, ARedirectTargetTakesThePlaceOfTheUrlThatRedirectedToIt) {
  Fixture f;
  auto h = f.host("jornal.pt");
  for (const char* p : {"/ir/1", "/ir/2", "/ir/3"}) f.add(std::string("http://jornal.pt") + p, h);
  auto first = f.frontier.pop(Clock::now());
  ASSERT_TRUE(first);
  ASSERT_EQ(first->url, "http://jornal.pt/ir/1");
  f.frontier.finish(*first, UrlState::Done, &f.ops);
  ASSERT_EQ(f.frontier.add("http://jornal.pt/artigo/1", h, 1, 1, true, 1, &f.ops, 0, false, first->seq),
            Frontier::Added::Queued);
  EXPECT_EQ(f.drain(), (std::vector<std::string>{"http://jornal.pt/artigo/1", "http://jornal.pt/ir/2",
                                                 "http://jornal.pt/ir/3"}));
}

// In a shared crawl a claimed URL's seq is its place in the shared
// frontier, and the redirect target it leads to is offered with that place.
TEST(Frontier, AClaimedUrlsSharedPlaceGoesWithTheRedirectTargetItOffers) {
  std::vector<std::pair<std::string, std::uint32_t>> offered;
  FrontierOptions fo;
  fo.divert = [&](std::string_view url, std::uint32_t, bool, std::uint8_t, std::uint32_t at_seq) {
    offered.emplace_back(std::string(url), at_seq);
  };
  Fixture f(Fixture::zero_delay(), fo);
  auto h = f.host("jornal.pt");
  ASSERT_EQ(f.frontier.add_claimed("http://jornal.pt/ir/7", h, 1, &f.ops, 50, 1, 40007), Frontier::Added::Queued);
  ASSERT_EQ(f.frontier.add_claimed("http://jornal.pt/ir/2", h, 1, &f.ops, 50, 1, 40002), Frontier::Added::Queued);
  auto e = f.frontier.pop(Clock::now());
  ASSERT_TRUE(e);
  EXPECT_EQ(e->url, "http://jornal.pt/ir/2");  // the earlier place first
  EXPECT_EQ(e->seq, 40002u);
  EXPECT_EQ(f.frontier.add("http://jornal.pt/artigo/2", h, 1, 1, true, 1, &f.ops, 0, false, e->seq),
            Frontier::Added::Queued);
  f.frontier.add("http://jornal.pt/artigo/9", h, 2, 0, true, 1, &f.ops);
  EXPECT_EQ(offered, (std::vector<std::pair<std::string, std::uint32_t>>{{"http://jornal.pt/artigo/2", 40002},
                                                                         {"http://jornal.pt/artigo/9", 0}}));
}

TEST(Frontier, AQueuedUrlMovesUpWhenBacklinksArrive) {
  Fixture f;
  auto h = f.host("a.pt");
  f.add("http://a.pt/1", h);
  f.add("http://a.pt/2", h);
  f.add("http://a.pt/3", h);
  EXPECT_EQ(f.add("http://a.pt/3", h), Frontier::Added::Known);
  f.add("http://a.pt/3", h);
  f.add("http://a.pt/2", h);
  EXPECT_EQ(f.frontier.backlinks("http://a.pt/3"), 3u);
  EXPECT_EQ(f.drain(), (std::vector<std::string>{"http://a.pt/3", "http://a.pt/2", "http://a.pt/1"}));
  // The store was told to move them up.
  int reprioritized = 0;
  for (const auto& op : f.ops) reprioritized += op.kind == FrontierOp::Reprioritize;
  EXPECT_EQ(reprioritized, 3);
}

TEST(Frontier, ALinkPenaltyRanksAUrlLowerAndTheBestContextOfferedCounts) {
  Fixture f;
  auto h = f.host("a.pt");
  EXPECT_EQ(priority_for(1, 20), 70);
  f.frontier.add("http://a.pt/margem", h, 1, 0, true, 1, &f.ops, 20);
  f.frontier.add("http://a.pt/centro", h, 1, 0, true, 1, &f.ops, 0);
  f.frontier.add("http://a.pt/meio", h, 1, 0, true, 1, &f.ops, 10);
  f.frontier.add("http://a.pt/outro", h, 1, 0, true, 1, &f.ops, 5);
  // A second page links /margem from a better context: no new backlink
  // counted, but the lower penalty is kept and the URL moves up.
  f.frontier.add("http://a.pt/margem", h, 1, 0, false, 1, &f.ops, 0);
  // A worse context never lowers a URL.
  f.frontier.add("http://a.pt/outro", h, 1, 0, false, 1, &f.ops, 40);
  EXPECT_EQ(f.ops.back().kind, FrontierOp::Reprioritize);
  EXPECT_EQ(f.ops.back().url, "http://a.pt/margem");
  EXPECT_EQ(f.ops.back().priority(), 50);
  EXPECT_EQ(f.drain(), (std::vector<std::string>{"http://a.pt/margem", "http://a.pt/centro", "http://a.pt/outro",
                                                 "http://a.pt/meio"}));
}

TEST(Frontier, AUrlAnnouncedOnARevisitGoesToTheHeadAndKeepsItsPlace) {
  Fixture f;
  auto a = f.host("a.pt");
  auto b = f.host("b.pt");
  // URLs of the first crawl, well linked.
  for (int i = 0; i < 3; ++i) {
    f.add("http://a.pt/arquivo/" + std::to_string(i), a);
    f.add("http://a.pt/arquivo/" + std::to_string(i), a);
  }
  f.add("http://b.pt/sobre", b);
  // A hub revisited announces an article that was not there before.
  f.frontier.add("http://a.pt/noticias/nova", a, 1, 0, true, 1, &f.ops, 30, true);
  EXPECT_EQ(f.ops.back().priority(), -1);
  // A worse context offered later does not move it back.
  EXPECT_EQ(f.frontier.add("http://a.pt/noticias/nova", a, 1, 0, false, 1, &f.ops, 0), Frontier::Added::Known);
  // An ordinary penalty stops below the announced mark.
  f.frontier.add("http://b.pt/margem", b, 1, 0, true, 1, &f.ops, 255);
  EXPECT_EQ(f.ops.back().priority(), 50 + kMaxLinkPenalty);
  const auto order = f.drain();
  ASSERT_EQ(order.size(), 6u);
  EXPECT_EQ(order.front(), "http://a.pt/noticias/nova");
  EXPECT_EQ(order.back(), "http://b.pt/margem");
}

TEST(Frontier, ADownloadedUrlIsNeverQueuedAgain) {
  Fixture f;
  auto h = f.host("a.pt");
  f.add("http://a.pt/", h);
  EXPECT_EQ(f.drain().size(), 1u);
  EXPECT_EQ(f.add("http://a.pt/", h), Frontier::Added::Known);
  EXPECT_TRUE(f.drain().empty());
  EXPECT_EQ(f.frontier.state("http://a.pt/"), UrlState::Done);
}

TEST(Frontier, AHostThatMustWaitDoesNotStallTheOthers) {
  PolitenessOptions p;
  p.delay = std::chrono::milliseconds(60000);
  Fixture f(p);
  auto slow = f.host("lento.pt");
  auto fast = f.host("rapido.pt");
  f.add("http://lento.pt/1", slow);
  f.add("http://lento.pt/2", slow);
  f.add("http://lento.pt/2", slow);  // best priority of all
  f.add("http://rapido.pt/1", fast);
  const auto now = Clock::now();
  auto first = f.frontier.pop(now);
  ASSERT_TRUE(first);
  EXPECT_EQ(first->url, "http://lento.pt/2");
  f.hosts.on_dispatch(first->host, now);
  f.frontier.host_changed(first->host, now);
  auto second = f.frontier.pop(now);
  ASSERT_TRUE(second);
  EXPECT_EQ(second->url, "http://rapido.pt/1");
  f.hosts.on_dispatch(second->host, now);
  f.frontier.host_changed(second->host, now);
  EXPECT_FALSE(f.frontier.pop(now));  // lento.pt must wait a minute
  f.hosts.on_finish(first->host, now);
  f.frontier.host_changed(first->host, now);
  EXPECT_FALSE(f.frontier.pop(now));
  EXPECT_GT(f.frontier.next_ready(), now + std::chrono::seconds(59));
  auto later = f.frontier.pop(now + std::chrono::seconds(61));
  ASSERT_TRUE(later);
  EXPECT_EQ(later->url, "http://lento.pt/1");
}

// Two hosts at 100 ms per request: bom.pt holds links two pages point at
// (priority 33), fraco.pt one link one page points at (50) and one no
// counted backlink reached (100).
struct TwoHosts {
  explicit TwoHosts(int slack) : f(polite(), options(slack)) {
    good = f.host("bom.pt");
    poor = f.host("fraco.pt");
    for (const char* u : {"http://bom.pt/1", "http://bom.pt/2", "http://bom.pt/3"}) {
      f.add(u, good);
      f.add(u, good);
    }
    f.add("http://fraco.pt/1", poor);
    f.add("http://fraco.pt/2", poor, false);
  }
  static PolitenessOptions polite() {
    PolitenessOptions p;
    p.delay = std::chrono::milliseconds(100);
    p.host_connections = 1;
    return p;
  }
  static FrontierOptions options(int slack) {
    FrontierOptions o;
    o.priority_slack = slack;
    return o;
  }
  // Pops at `at`; a popped entry is fetched and finished at once.
  std::optional<std::string> pop(Clock::time_point at) {
    auto e = f.frontier.pop(at);
    if (!e) return std::nullopt;
    f.hosts.on_dispatch(e->host, at);
    f.frontier.host_changed(e->host, at);
    f.hosts.on_finish(e->host, at);
    f.frontier.finish(*e, UrlState::Done, &f.ops);
    f.frontier.host_changed(e->host, at);
    return e->url;
  }
  Fixture f;
  std::uint32_t good = 0, poor = 0;
};

TEST(Frontier, WithoutSlackThePoorHostWaitsWhileABetterLinkWaitsForPoliteness) {
  TwoHosts t(0);
  const auto t0 = Clock::now();
  const auto gap = std::chrono::milliseconds(100);
  EXPECT_EQ(t.pop(t0), "http://bom.pt/1");
  // bom.pt must wait 100 ms; fraco.pt is ready but its best link (50) is
  // worse than bom.pt's (33): nothing now.
  EXPECT_EQ(t.pop(t0), std::nullopt);
  EXPECT_EQ(t.f.frontier.next_ready(), t0 + gap);
  EXPECT_EQ(t.pop(t0 + gap), "http://bom.pt/2");
  EXPECT_EQ(t.pop(t0 + gap), std::nullopt);
  EXPECT_EQ(t.pop(t0 + 2 * gap), "http://bom.pt/3");
  // bom.pt is done: fraco.pt's links now are the best there are.
  EXPECT_EQ(t.pop(t0 + 2 * gap), "http://fraco.pt/1");
  EXPECT_EQ(t.pop(t0 + 2 * gap), std::nullopt);  // fraco.pt's own gap
  EXPECT_EQ(t.pop(t0 + 3 * gap), "http://fraco.pt/2");
  EXPECT_TRUE(t.f.frontier.empty());
}

TEST(Frontier, WithSlackEveryReadyHostIsKeptBusy) {
  TwoHosts keep_busy(-1);
  const auto t0 = Clock::now();
  EXPECT_EQ(keep_busy.pop(t0), "http://bom.pt/1");
  EXPECT_EQ(keep_busy.pop(t0), "http://fraco.pt/1");
  // A slack of 17 lets priority 50 go along with 33, not 100.
  TwoHosts some(17);
  const auto gap = std::chrono::milliseconds(100);
  EXPECT_EQ(some.pop(t0), "http://bom.pt/1");
  EXPECT_EQ(some.pop(t0), "http://fraco.pt/1");
  EXPECT_EQ(some.pop(t0 + gap), "http://bom.pt/2");
  EXPECT_EQ(some.pop(t0 + gap), std::nullopt);  // fraco.pt/2 (100) waits for bom.pt/3 (33)
  EXPECT_EQ(some.pop(t0 + 2 * gap), "http://bom.pt/3");
  EXPECT_EQ(some.pop(t0 + 2 * gap), "http://fraco.pt/2");
}

TEST(Frontier, AHostHeldBackLongerThanTheLookaheadDoesNotStallTheOthers) {
  TwoHosts t(0);
  const auto t0 = Clock::now();
  // bom.pt answered "come back in a minute" (Retry-After): its better links
  // wait, fraco.pt's are fetched meanwhile.
  t.f.hosts.defer(t.good, t0 + std::chrono::seconds(60));
  t.f.frontier.host_changed(t.good, t0);
  EXPECT_EQ(t.pop(t0), "http://fraco.pt/1");
  EXPECT_EQ(t.pop(t0 + std::chrono::milliseconds(100)), "http://fraco.pt/2");
  EXPECT_EQ(t.pop(t0 + std::chrono::milliseconds(200)), std::nullopt);  // fraco.pt is empty
  EXPECT_EQ(t.pop(t0 + std::chrono::seconds(61)), "http://bom.pt/1");
}

TEST(Frontier, AHostWaitsForItsRobotsTxt) {
  Fixture f;
  const auto h = f.hosts.intern("novo.pt", "http://novo.pt");
  f.add("http://novo.pt/a", h);
  EXPECT_FALSE(f.frontier.pop(Clock::now()));
  EXPECT_EQ(f.frontier.take_robots_requests(), std::vector<std::uint32_t>{h});
  f.hosts.robots_fetching(h);
  f.hosts.set_robots(h, RobotsRules::allow_all(), "404", std::chrono::hours(1), Clock::now());
  f.frontier.host_changed(h, Clock::now());
  auto e = f.frontier.pop(Clock::now());
  ASSERT_TRUE(e);
  EXPECT_EQ(e->url, "http://novo.pt/a");
}

TEST(Frontier, AnExpiredRobotsTxtIsFetchedAgainBeforeTheNextPage) {
  Fixture f;
  const auto h = f.hosts.intern("velho.pt", "http://velho.pt");
  f.hosts.set_robots(h, RobotsRules::allow_all(), "200 parsed", std::chrono::seconds(30), Clock::now());
  f.add("http://velho.pt/a", h);
  f.add("http://velho.pt/b", h);
  auto a = f.frontier.pop(Clock::now());
  ASSERT_TRUE(a);
  f.frontier.finish(*a, UrlState::Done, &f.ops);
  // Half a minute later the rules have expired: robots.txt first.
  const auto later = Clock::now() + std::chrono::seconds(31);
  f.frontier.host_changed(h, later);
  EXPECT_FALSE(f.frontier.pop(later));
  EXPECT_EQ(f.frontier.take_robots_requests(), std::vector<std::uint32_t>{h});
  f.hosts.robots_fetching(h);
  f.hosts.set_robots(h, RobotsRules::parse("User-agent: *\nDisallow: /b\n", "cronista"), "200 parsed",
                     std::chrono::hours(24), later);
  f.frontier.host_changed(h, later);
  auto b = f.frontier.pop(later);
  ASSERT_TRUE(b);
  EXPECT_FALSE(f.hosts[h].rules.allowed("/b"));
}

TEST(Frontier, DepthAndPerHostBoundsRefuseNewUrls) {
  PolitenessOptions p = Fixture::zero_delay();
  p.max_urls_per_host = 3;
  FrontierOptions fo;
  fo.max_depth = 2;
  Fixture f(p, fo);
  auto h = f.host("armadilha.pt");
  EXPECT_EQ(f.add("http://armadilha.pt/d3", h, true, 3), Frontier::Added::Refused);
  for (int i = 0; i < 3; ++i) EXPECT_EQ(f.add("http://armadilha.pt/" + std::to_string(i), h), Frontier::Added::Queued);
  EXPECT_EQ(f.add("http://armadilha.pt/mais", h), Frontier::Added::Refused);
  EXPECT_EQ(f.frontier.queued(), 3u);
}

TEST(Frontier, ARetriedEntryComesBack) {
  Fixture f;
  auto h = f.host("a.pt");
  f.add("http://a.pt/x", h);
  auto e = f.frontier.pop(Clock::now());
  ASSERT_TRUE(e);
  EXPECT_EQ(f.frontier.queued(), 0u);
  e->attempts = 1;
  f.frontier.retry(*e);
  auto again = f.frontier.pop(Clock::now());
  ASSERT_TRUE(again);
  EXPECT_EQ(again->url, "http://a.pt/x");
  EXPECT_EQ(again->attempts, 1);
}

TEST(SeenSet, HoldsManyKeysCompactly) {
  SeenSet s;
  for (std::uint64_t k = 1; k <= 200000; ++k) s.insert(k * 0x9E3779B97F4A7C15ull)->backlinks = static_cast<std::uint32_t>(k);
  EXPECT_EQ(s.size(), 200000u);
  for (std::uint64_t k = 1; k <= 200000; k += 997) {
    auto* slot = s.find(k * 0x9E3779B97F4A7C15ull);
    ASSERT_NE(slot, nullptr);
    EXPECT_EQ(slot->backlinks, k);
  }
  EXPECT_EQ(s.find(12345), nullptr);
  EXPECT_LE(s.memory_bytes(), 200000u * 24 * 3);
}

}  // namespace
}  // namespace cronista::crawler

namespace cronista::crawler {
namespace {

// With a window of four entries per host, most of the queue lives in the
// database; the order must still be exactly (priority, discovery).
void check_order_with_spill(bool commit_between_rounds) {
  testing::TempDir tmp;
  auto store = CrawlStore::open((tmp / "f.db").string(), CrawlStoreOptions{});
  ASSERT_TRUE(store.ok()) << store.status().message();
  ASSERT_TRUE((*store)->begin_run(RunInfo{0, "general", "1939", "1945", "", 0.99}, 0).ok());
  std::atomic<std::uint64_t> committed{0};
  ASSERT_TRUE((*store)->start([&](std::uint64_t j) { committed = j; }).ok());

  PolitenessOptions p = Fixture::zero_delay();
  HostQueue hosts(p);
  FrontierOptions fo;
  fo.window_per_host = 4;
  fo.window_budget = 4;
  Frontier frontier(hosts, (*store)->spill(), fo);
  const auto h = hosts.intern("arquivo.pt", "http://arquivo.pt");
  hosts.set_robots(h, RobotsRules::allow_all(), "test", std::chrono::hours(1), Clock::now());

  std::uint64_t job = 1;
  StoreJob first;
  first.hosts.push_back(HostRow{h, "arquivo.pt", "http://arquivo.pt", "", 0});
  // 60 URLs; URL i gets i % 7 extra backlinks, spread over several jobs.
  for (int i = 0; i < 60; ++i)
    frontier.add("http://arquivo.pt/" + std::to_string(i), h, 1, 0, true, job, &first.ops);
  (*store)->submit(std::move(first));
  for (int round = 1; round < 7; ++round) {
    StoreJob more;
    ++job;
    for (int i = 0; i < 60; ++i)
      if (i % 7 >= round) frontier.add("http://arquivo.pt/" + std::to_string(i), h, 1, 0, true, job, &more.ops);
    (*store)->submit(std::move(more));
    if (commit_between_rounds) {
      // Spilled entries are then bumped in the database, not in memory.
      while (committed.load() < job) std::this_thread::sleep_for(std::chrono::milliseconds(5));
      frontier.committed(committed.load());
    }
  }
  while (committed.load() < job) std::this_thread::sleep_for(std::chrono::milliseconds(5));
  frontier.committed(committed.load());
  EXPECT_LE(frontier.in_memory(), 4u);

  std::vector<int> got;
  while (auto e = frontier.pop(Clock::now())) {
    got.push_back(std::stoi(e->url.substr(std::string("http://arquivo.pt/").size())));
    StoreJob done;
    frontier.finish(*e, UrlState::Done, &done.ops);
    (*store)->submit(std::move(done));
  }
  std::vector<int> expected(60);
  for (int i = 0; i < 60; ++i) expected[i] = i;
  std::stable_sort(expected.begin(), expected.end(), [](int a, int b) {
    return priority_for_backlinks(1 + a % 7) < priority_for_backlinks(1 + b % 7);
  });
  EXPECT_EQ(got, expected);
  EXPECT_TRUE((*store)->finish("test").ok());
}

TEST(Frontier, KeepsItsOrderWhenMostOfTheQueueLivesInTheDatabase) { check_order_with_spill(false); }
TEST(Frontier, KeepsItsOrderWhenSpilledEntriesGainBacklinks) { check_order_with_spill(true); }

}  // namespace
}  // namespace cronista::crawler
