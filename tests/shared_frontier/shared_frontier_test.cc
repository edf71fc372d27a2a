// The shared frontier against a real redis-server on a unix socket: leases,
// politeness across workers, the budget, takeover after a worker dies,
// Redis restarts, and crawls that share a server.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <map>
#include <mutex>
#include <set>
#include <thread>
#include <variant>

#include "redis_server.h"
#include "crawler/frontier.h"
#include "shared_frontier/crawl_work.h"
#include "shared_frontier/shared_frontier.h"

namespace cronista::shared_frontier {
namespace {

using cronista::testing::RedisServer;
using Clock = std::chrono::steady_clock;

SharedFrontierOptions worker(const std::string& id, int gap_ms = 0) {
  SharedFrontierOptions o;
  o.crawl_id = "teste";
  o.worker_id = id;
  o.host_gap_ms = gap_ms;
  o.lease_ms = 10000;
  return o;
}

std::vector<QueuedUrl> pages(const std::string& host, int n, std::int64_t priority = 10, const std::string& address = "") {
  std::vector<QueuedUrl> out;
  for (int i = 0; i < n; ++i)
    out.push_back({"http://" + host + "/artigo/" + std::to_string(i), host, address, priority});
  return out;
}

// Claims until a URL comes or `limit` passes; nothing on timeout.
std::optional<Claim> claim_within(SharedFrontier& f, std::chrono::milliseconds limit) {
  const auto end = Clock::now() + limit;
  while (Clock::now() < end) {
    auto r = f.claim();
    if (!r.ok()) return std::nullopt;
    if (auto* c = std::get_if<Claim>(&*r)) return *c;
    if (std::get<NoClaim>(*r).why != NoClaim::Why::kWait) return std::nullopt;
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  return std::nullopt;
}

// Waits past a worker's dead_after_ms (300 ms in these tests), then reaps.
void expect_reaped_after_silence(SharedFrontier& f, std::size_t n) {
  std::this_thread::sleep_for(std::chrono::milliseconds(400));
  auto reaped = f.heartbeat_and_reap();
  ASSERT_TRUE(reaped.ok());
  EXPECT_EQ(*reaped, n);
}

class SharedFrontierTest : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!redis_.available()) GTEST_SKIP() << "redis-server is not installed (scripts/setup installs it)";
    ASSERT_TRUE(redis_.running());
  }
  std::unique_ptr<SharedFrontier> open(const SharedFrontierOptions& o) {
    auto f = SharedFrontier::connect(redis_.uri(), o);
    EXPECT_TRUE(f.ok()) << f.status().message();
    return f.ok() ? std::move(*f) : nullptr;
  }
  // A worker that sets the budget and queues n URLs of a.pt.
  std::unique_ptr<SharedFrontier> open_queued(const SharedFrontierOptions& o, int budget, int n) {
    auto w = open(o);
    if (!w) return w;
    EXPECT_TRUE(w->set_budget(budget).ok());
    EXPECT_TRUE(w->add(pages("a.pt", n)).ok());
    return w;
  }
  RedisServer redis_;
};

TEST(RedisAddress, BothFormsAreReadAndBadOnesNamed) {
  auto tcp = parse_redis_address("redis://127.0.0.1:6380/2");
  ASSERT_TRUE(tcp.ok());
  EXPECT_EQ(tcp->host, "127.0.0.1");
  EXPECT_EQ(tcp->port, 6380);
  EXPECT_EQ(tcp->db, 2);
  auto unix = parse_redis_address("unix:///tmp/r.sock?db=3");
  ASSERT_TRUE(unix.ok());
  EXPECT_EQ(unix->socket_path, "/tmp/r.sock");
  EXPECT_EQ(unix->db, 3);
  for (const char* bad : {"http://x", "redis://:80", "redis://h:99999", "unix://relative.sock", "redis://h:1/x"}) {
    auto r = parse_redis_address(bad);
    EXPECT_FALSE(r.ok()) << bad;
    if (!r.ok()) {
      EXPECT_NE(r.status().message().find(bad), std::string::npos);
    }
  }
}

// Through the crawler's interface: the page titles of every worker make
// one log, which each worker reads on from where its last read ended,
// its own titles among the others', in the one order all read it; a worker
// that does not read only logs; a worker started again reads it from the
// beginning.
TEST_F(SharedFrontierTest, PageTitlesMakeOneLogThatEveryWorkerReadsInOneOrder) {
  auto one = open_crawl_work(redis_.uri(), worker("w1"));
  auto two = open_crawl_work(redis_.uri(), worker("w2"));
  ASSERT_TRUE(one.ok() && two.ok());
  std::uint64_t end = 0;  // the log's length after the last trip's titles
  auto trip = [&end](crawler::SharedWork& w, std::vector<crawler::SharedTitle> titles, bool read, std::uint64_t from) {
    crawler::SharedExchange x;
    x.titles = std::move(titles);
    x.read_titles = read;
    x.titles_from = from;
    auto r = w.exchange(x);
    end = r.titles_end;
    std::vector<std::string> out;
    if (!r.titles.ok()) return std::vector<std::string>{"error: " + r.titles.status().message()};
    for (const auto& t : *r.titles) out.push_back((t.relevant ? "+" : "-") + t.title);
    return out;
  };
  using V = std::vector<std::string>;
  EXPECT_EQ(trip(**one, {{"Racionamento em Lisboa, 1942", true}, {"Futebol: o campeonato de hoje", false}}, true, 0),
            (V{"+Racionamento em Lisboa, 1942", "-Futebol: o campeonato de hoje"}));
  EXPECT_EQ(end, 2u);
  EXPECT_EQ(trip(**two, {{"O desembarque na Normandia", true}}, true, 0),
            (V{"+Racionamento em Lisboa, 1942", "-Futebol: o campeonato de hoje", "+O desembarque na Normandia"}));
  EXPECT_EQ(end, 3u);  // its title is the log's third
  EXPECT_EQ(trip(**two, {{"Receitas de bacalhau", false}}, false, 0), V{});  // logged, not read
  EXPECT_EQ(end, 4u);
  EXPECT_EQ(trip(**one, {}, true, 2), (V{"+O desembarque na Normandia", "-Receitas de bacalhau"}));
  EXPECT_EQ(end, 4u);
  EXPECT_EQ(trip(**one, {}, true, 4), V{});
  // A title with any bytes (no separator is assumed) comes back whole.
  const std::string odd = std::string("0\t1\n\xc3\xa9") + '\0' + "fim";
  EXPECT_EQ(trip(**two, {{odd, false}}, true, 4), V{"-" + odd});
  // Another crawl id has a log of its own.
  SharedFrontierOptions other = worker("w1");
  other.crawl_id = "outra";
  auto three = open_crawl_work(redis_.uri(), other);
  ASSERT_TRUE(three.ok());
  EXPECT_EQ(trip(**three, {}, true, 0), V{});
}

TEST(SharedFrontierConnect, AnUnreachableRedisIsAClearError) {
  cronista::testing::TempDir dir;
  auto f = SharedFrontier::connect("unix://" + (dir / "nenhum.sock").string(), worker("w1"));
  ASSERT_FALSE(f.ok());
  EXPECT_NE(f.status().message().find("cannot reach Redis at unix://"), std::string::npos) << f.status().message();
}

TEST_F(SharedFrontierTest, AUrlIsQueuedOnceAndABetterPriorityMovesItUp) {
  auto f = open(worker("w1"));
  ASSERT_TRUE(f);
  EXPECT_EQ(*f->add(pages("a.pt", 2, 20)), 2u);
  EXPECT_EQ(*f->add({{"http://a.pt/artigo/1", "a.pt", "", 3}}), 0u);  // seen: not queued again
  auto c = claim_within(*f, std::chrono::seconds(2));
  ASSERT_TRUE(c);
  EXPECT_EQ(c->url, "http://a.pt/artigo/1");
  EXPECT_EQ(c->priority, 3);
}

// A crawler's links (with their context's penalty) rank a queued URL as a
// lone crawl's frontier does: the links counted over every worker and the
// lowest penalty of them all, whichever link brought which and in whatever
// order they came, in the call that offers them; a URL a hub announced
// stays first.
TEST_F(SharedFrontierTest, AUrlRanksByItsLinksAcrossWorkersAndTheLowestPenaltyOfThemAll) {
  auto w1 = open(worker("w1")), w2 = open(worker("w2"));
  ASSERT_TRUE(w1 && w2);
  // One link from one worker's page: links counts 0 (page furniture) or 1.
  auto link = [](const std::string& path, std::uint32_t links, std::uint8_t penalty) {
    return QueuedUrl{"http://a.pt/" + path, "a.pt", "", crawler::priority_for(links, penalty), links, 0, penalty};
  };
  // The furniture's link has the better context; the counted one, the worse.
  ASSERT_TRUE(w1->add({link("mobilia-e-texto", 0, 0), link("mobilia-e-texto", 1, 20)}).ok());
  // Two pages, each of another worker: the better context first, then last.
  ASSERT_TRUE(w1->add({link("melhor-primeiro", 1, 0), link("melhor-ultimo", 1, 20)}).ok());
  ASSERT_TRUE(w2->add({link("melhor-primeiro", 1, 20), link("melhor-ultimo", 1, 0)}).ok());
  // Three pages; and one link alone.
  ASSERT_TRUE(w2->add({link("tres", 1, 30), link("tres", 1, 10), link("um", 1, 20)}).ok());
  ASSERT_TRUE(w1->add({link("tres", 1, 40)}).ok());
  // Announced by a hub, then linked again: first all the same.
  ASSERT_TRUE(w1->add({link("anunciada", 1, 20),
                       QueuedUrl{"http://a.pt/anunciada", "a.pt", "", crawler::priority_for(1, crawler::kAnnouncedPenalty),
                                 1, 0, -1}}).ok());
  ASSERT_TRUE(w2->add({link("anunciada", 1, 0)}).ok());
  std::map<std::string, std::int64_t> got;
  while (auto c = claim_within(*w1, std::chrono::milliseconds(500))) {
    got[c->url.substr(std::string("http://a.pt/").size())] = c->priority;
    ASSERT_TRUE(w1->release(*c).ok());
    ASSERT_TRUE(w1->complete(*c, false).ok());
  }
  EXPECT_EQ(got, (std::map<std::string, std::int64_t>{{"mobilia-e-texto", crawler::priority_for(1, 0)},
                                                       {"melhor-primeiro", crawler::priority_for(2, 0)},
                                                       {"melhor-ultimo", crawler::priority_for(2, 0)},
                                                       {"tres", crawler::priority_for(3, 10)},
                                                       {"um", crawler::priority_for(1, 20)},
                                                       {"anunciada", -1}}));
}

// A redirect target offered with its source's place goes before the URLs
// of its priority queued after the source, whichever worker claims it; a
// claim tells its place.
TEST_F(SharedFrontierTest, ARedirectTargetOfferedAtItsSourcesPlaceGoesBeforeTheUrlsQueuedAfterIt) {
  auto w1 = open(worker("w1")), w2 = open(worker("w2"));
  ASSERT_TRUE(w1 && w2);
  ASSERT_TRUE(w1->add(pages("a.pt", 3, 20)).ok());
  auto hop = claim_within(*w1, std::chrono::seconds(2));
  ASSERT_TRUE(hop);
  ASSERT_EQ(hop->url, "http://a.pt/artigo/0");
  EXPECT_EQ(hop->priority, 20);
  ASSERT_GT(hop->order, 0u);
  QueuedUrl target{"http://a.pt/destino", "a.pt", "", 20, 1, hop->order};
  QueuedUrl later{"http://a.pt/outra", "a.pt", "", 20, 1};
  ASSERT_EQ(*w1->add({target, later}), 2u);
  ASSERT_TRUE(w1->release(*hop).ok());
  ASSERT_TRUE(w1->complete(*hop, false).ok());
  std::vector<std::string> order;
  while (auto c = claim_within(*w2, std::chrono::milliseconds(500))) {
    order.push_back(c->url);
    if (c->url == "http://a.pt/destino") {
      EXPECT_EQ(c->order, hop->order);
    }
    ASSERT_TRUE(w2->release(*c).ok());
    ASSERT_TRUE(w2->complete(*c, false).ok());
  }
  EXPECT_EQ(order, (std::vector<std::string>{"http://a.pt/destino", "http://a.pt/artigo/1", "http://a.pt/artigo/2",
                                             "http://a.pt/outra"}));
}

// Through the crawler's interface: a URL linked from pages of two workers
// counts both links, and goes before one linked once that was found first.
TEST_F(SharedFrontierTest, BacklinksAreCountedAcrossWorkers) {
  auto one = open_crawl_work(redis_.uri(), worker("w1"));
  auto two = open_crawl_work(redis_.uri(), worker("w2"));
  ASSERT_TRUE(one.ok() && two.ok());
  auto offer = [](crawler::SharedWork& w, std::vector<crawler::SharedUrl> urls) {
    crawler::SharedExchange x;
    x.offers = std::move(urls);
    return w.exchange(x).offered;
  };
  auto claim_one = [](crawler::SharedWork& w) {
    crawler::SharedExchange x;
    x.claims = 1;
    return w.exchange(x).pull;
  };
  const std::string first = "http://a.pt/artigo/primeiro", second = "http://a.pt/artigo/segundo";
  // w1 finds both, linked once each; the first found goes first.
  ASSERT_TRUE(offer(**one, {{first, "a.pt", 1, 0}, {second, "a.pt", 1, 0}}).ok());
  // w2 finds the second once more, from one of its pages: two links now.
  ASSERT_TRUE(offer(**two, {{second, "a.pt", 1, 0}}).ok());
  // A mention that is not a link (a seed, a redirect) counts nothing.
  ASSERT_TRUE(offer(**two, {{first, "a.pt", 0, 0}}).ok());
  auto pull = claim_one(**one);
  ASSERT_TRUE(pull.ok());
  ASSERT_EQ(pull->why, crawler::SharedPull::Why::kClaimed);
  ASSERT_EQ(pull->claims.size(), 1u);
  EXPECT_EQ(pull->claims[0].url, second);
  EXPECT_EQ(pull->claims[0].priority, crawler::priority_for(2, 0));
  // Its count left with it: offered again (claimed, seen), it is not queued
  // again; and its host released in the same exchange, the next claim of
  // that exchange (after the release) takes the first.
  crawler::SharedExchange x;
  x.offers = {{second, "a.pt", 1, 0}};
  x.releases = {{pull->claims[0], ""}};
  x.claims = 2;
  auto r = (*one)->exchange(x);
  ASSERT_TRUE(r.offered.ok());
  ASSERT_EQ(r.released.size(), 1u);
  EXPECT_TRUE(r.released[0].ok());
  ASSERT_TRUE(r.pull.ok());
  ASSERT_EQ(r.pull->why, crawler::SharedPull::Why::kClaimed);
  ASSERT_EQ(r.pull->claims.size(), 1u);  // one host: one claim
  EXPECT_EQ(r.pull->claims[0].url, first);
  EXPECT_EQ(r.pull->claims[0].priority, crawler::priority_for(1, 0));
}

// A worker that stops cleanly with nothing in flight no longer counts
// among the workers; one that still holds a URL stays until reaped.
TEST_F(SharedFrontierTest, AWorkerLeavesTheCrawlAtOnceOnlyWithNothingInFlight) {
  SharedFrontierOptions reaper = worker("w3");
  reaper.dead_after_ms = 300;
  auto w1 = open(worker("w1")), w2 = open(worker("w2")), w3 = open(reaper);
  ASSERT_TRUE(w1 && w2 && w3);
  ASSERT_TRUE(w1->add(pages("a.pt", 2)).ok());
  for (auto* w : {w1.get(), w2.get(), w3.get()}) ASSERT_TRUE(w->view().ok());
  auto held = claim_within(*w2, std::chrono::seconds(2));
  ASSERT_TRUE(held);
  auto gone = w1->leave();
  ASSERT_TRUE(gone.ok());
  EXPECT_TRUE(*gone);
  auto stays = w2->leave();
  ASSERT_TRUE(stays.ok());
  EXPECT_FALSE(*stays);
  auto v = w3->view();
  ASSERT_TRUE(v.ok());
  EXPECT_EQ(v->workers, 2);  // w2 and w3
  // w2's URL still returns when it falls silent.
  expect_reaped_after_silence(*w3, 1);
}

TEST_F(SharedFrontierTest, NoTwoWorkersHoldOneHost) {
  auto w1 = open(worker("w1")), w2 = open(worker("w2"));
  ASSERT_TRUE(w1 && w2);
  ASSERT_TRUE(w1->add(pages("a.pt", 3)).ok());
  auto c = claim_within(*w1, std::chrono::seconds(2));
  ASSERT_TRUE(c);
  auto r = w2->claim();
  ASSERT_TRUE(r.ok());
  EXPECT_TRUE(std::holds_alternative<NoClaim>(*r));
  ASSERT_TRUE(w1->complete(*c).ok());
  EXPECT_TRUE(claim_within(*w2, std::chrono::seconds(2)));
}

// Several claims in one call: one URL per host, the best first, as many
// claims of one in a row; hosts sharing a paced address give one claim
// between them; the budget caps the count.
TEST_F(SharedFrontierTest, ClaimsOfSeveralHostsAtOnceKeepTheOrderTheAddressAndTheBudget) {
  SharedFrontierOptions o = worker("w1");
  o.address_gap_ms = 300;
  auto w1 = open(o), w2 = open(worker("w2"));
  ASSERT_TRUE(w1 && w2);
  ASSERT_TRUE(w1->set_budget(4).ok());
  ASSERT_TRUE(w1->add(pages("a.pt", 3, 30)).ok());
  ASSERT_TRUE(w1->add(pages("b.pt", 3, 10)).ok());
  ASSERT_TRUE(w1->add(pages("c.pt", 3, 20, "10.3.3.3")).ok());
  ASSERT_TRUE(w1->add(pages("d.pt", 3, 40, "10.3.3.3")).ok());
  auto r = w1->claim_up_to(10);
  ASSERT_TRUE(r.ok());
  auto* claims = std::get_if<std::vector<Claim>>(&*r);
  ASSERT_TRUE(claims);
  std::vector<std::string> hosts;
  for (const Claim& c : *claims) hosts.push_back(c.host);
  // d.pt shares c.pt's address, held by c.pt's claim now.
  EXPECT_EQ(hosts, (std::vector<std::string>{"b.pt", "c.pt", "a.pt"}));
  for (const Claim& c : *claims) EXPECT_EQ(c.url, "http://" + c.host + "/artigo/0");
  // Every ready host is held: nothing for the other worker.
  auto none = w2->claim();
  ASSERT_TRUE(none.ok());
  EXPECT_TRUE(std::holds_alternative<NoClaim>(*none));
  // Released, the three hosts have two URLs each, but the budget has one page left.
  for (const Claim& c : *claims) ASSERT_TRUE(w1->release(c).ok());
  auto more = w2->claim_up_to(10);
  ASSERT_TRUE(more.ok());
  auto* last = std::get_if<std::vector<Claim>>(&*more);
  ASSERT_TRUE(last);
  ASSERT_EQ(last->size(), 1u);
  EXPECT_EQ(last->front().url, "http://b.pt/artigo/1");
}

// With host_connections, the worker holding a host gets up to that many of
// its URLs claimed and not released, best first; no other worker gets the
// host until the last is released; a worker killed holding several URLs
// loses none and the budget is spent exactly.
SharedFrontierOptions connected(const std::string& id, int connections) {
  SharedFrontierOptions o = worker(id);
  o.host_connections = connections;
  return o;
}

std::vector<Claim> claims_of(const Result<std::variant<std::vector<Claim>, NoClaim>>& r) {
  if (!r.ok()) return {};
  if (const auto* c = std::get_if<std::vector<Claim>>(&*r)) return *c;
  return {};
}

TEST_F(SharedFrontierTest, TheHostsHolderGetsUpToItsConnectionsOfUrlsAndTheLeaseEndsWithTheLast) {
  auto w1 = open(connected("w1", 3)), w2 = open(connected("w2", 3));
  ASSERT_TRUE(w1 && w2);
  ASSERT_TRUE(w1->add(pages("a.pt", 8)).ok());
  auto first = claims_of(w1->claim_up_to(10));
  ASSERT_EQ(first.size(), 3u);
  for (int i = 0; i < 3; ++i) EXPECT_EQ(first[i].url, "http://a.pt/artigo/" + std::to_string(i));
  // Its room is used up, and the host is not the other worker's.
  EXPECT_TRUE(claims_of(w1->claim_up_to(10, 1)).empty());
  EXPECT_TRUE(claims_of(w2->claim_up_to(10)).empty());
  // One released: one more for its holder, still none for the other.
  ASSERT_TRUE(w1->release(first[0]).ok());
  ASSERT_TRUE(w1->settle(first[0], false).ok());
  EXPECT_TRUE(claims_of(w2->claim_up_to(10)).empty());
  auto second = claims_of(w1->claim_up_to(10, 1));
  ASSERT_EQ(second.size(), 1u);
  EXPECT_EQ(second[0].url, "http://a.pt/artigo/3");
  // The lease holds while any of its URLs is unreleased.
  std::vector<Claim> held = {first[1], first[2], second[0]};
  for (std::size_t i = 0; i < held.size(); ++i) {
    EXPECT_TRUE(claims_of(w2->claim_up_to(10)).empty()) << "with " << held.size() - i << " unreleased";
    ASSERT_TRUE(w1->complete(held[i]).ok());
  }
  auto other = claims_of(w2->claim_up_to(10));
  ASSERT_EQ(other.size(), 3u);
  EXPECT_EQ(other[0].url, "http://a.pt/artigo/4");
  EXPECT_TRUE(claims_of(w1->claim_up_to(10)).empty());
}

TEST_F(SharedFrontierTest, ClaimsOfAHeldHostTakeNoShareOfTheHostsAndAWorkerOfOneConnectionGetsOne) {
  auto w1 = open(connected("w1", 2)), w2 = open(connected("w2", 1));
  ASSERT_TRUE(w1 && w2);
  ASSERT_TRUE(w1->add(pages("a.pt", 4, 10)).ok());
  ASSERT_TRUE(w1->add(pages("b.pt", 4, 20)).ok());
  // Two workers, two hosts: a share of one host each, two URLs of it for w1.
  ASSERT_TRUE(w2->heartbeat_and_reap().ok());
  auto mine = claims_of(w1->claim_up_to(10));
  ASSERT_EQ(mine.size(), 2u);
  EXPECT_EQ(mine[0].host, "a.pt");
  EXPECT_EQ(mine[1].host, "a.pt");
  auto theirs = claims_of(w2->claim_up_to(10));
  ASSERT_EQ(theirs.size(), 1u);
  EXPECT_EQ(theirs[0].host, "b.pt");
}

TEST_F(SharedFrontierTest, AWorkerKilledHoldingSeveralUrlsOfAHostLosesNoneAndTheBudgetIsExact) {
  SharedFrontierOptions dying = connected("w-dying", 3);
  dying.lease_ms = 300;
  SharedFrontierOptions alive = connected("w-alive", 3);
  alive.dead_after_ms = 300;
  std::set<std::string> lost;
  {
    auto w1 = open_queued(dying, 6, 10);
    ASSERT_TRUE(w1);
    for (const Claim& c : claims_of(w1->claim_up_to(10))) lost.insert(c.url);
    ASSERT_EQ(lost.size(), 3u);
  }  // gone without releasing, as after kill -9
  auto w2 = open(alive);
  ASSERT_TRUE(w2);
  expect_reaped_after_silence(*w2, 3);  // and its lease has expired
  std::set<std::string> done;
  for (int turn = 0; turn < 100; ++turn) {
    auto r = w2->claim_up_to(10, 0);
    ASSERT_TRUE(r.ok());
    if (const auto* none = std::get_if<NoClaim>(&*r)) {
      if (none->why == NoClaim::Why::kBudgetSpent) break;
      std::this_thread::sleep_for(std::chrono::milliseconds(5));
      continue;
    }
    for (const Claim& c : std::get<std::vector<Claim>>(*r)) {
      EXPECT_TRUE(done.insert(c.url).second) << c.url << " claimed twice";
      ASSERT_TRUE(w2->complete(c).ok());
    }
  }
  EXPECT_EQ(done.size(), 6u);
  for (const auto& url : lost) EXPECT_TRUE(done.count(url)) << url << " lost";
  auto counts = w2->counts();
  ASSERT_TRUE(counts.ok());
  EXPECT_EQ(counts->done, 6);
  EXPECT_EQ(counts->budget_left, 0);
}

// The lone temporal crawl's free-slot rule, kept by the claims: while a
// worker fetches from the host with the best links, another worker's
// ready host with worse links waits, unless its link is worth a page of the
// budget (the pages left reach it, or links like it have proved as relevant
// in the pages of all workers).
TEST_F(SharedFrontierTest, AWorseUrlWaitsForABetterOneOnABusyHostUnlessItIsWorthAPageOfTheBudget) {
  // Bands of 10 priorities: links of priority 10-19 led to relevant pages
  // 9 times in 10, links of priority 100-109 once in 10.
  SlotRule rule;
  rule.slack = 0;
  rule.lookahead_ms = 2000;
  rule.band = 10;
  rule.learnt.assign(11, {0, 0});
  rule.learnt[1] = {10, 9};
  rule.learnt[10] = {10, 1};
  SlotRule as_good = rule;
  as_good.learnt[10] = {10, 9};  // links like the blog's proved as relevant
  SlotRule unlearnt = rule;      // a worker that has learnt nothing yet
  unlearnt.learnt.clear();
  const SlotRule every_host;  // slack -1: the general crawl keeps every host busy
  auto claim_host = [](SharedFrontier& f, const SlotRule& r) -> std::string {
    auto got = f.claim_up_to(1, 0, r);
    if (!got.ok()) return "error: " + got.status().message();
    if (auto* claims = std::get_if<std::vector<Claim>>(&*got); claims && !claims->empty()) return claims->front().host;
    return std::get<NoClaim>(*got).why == NoClaim::Why::kWait ? "wait" : "other";
  };
  struct Case {
    int budget;
    const SlotRule* first;   // the rule of the worker that claims the best link
    const SlotRule* second;  // the rule of the other worker
    const char* expected;    // what the other worker's claim gets
  };
  // With a budget of 3, two pages are left and two better links are queued
  // on the busy host, so the blog's link is not among those the budget
  // reaches; with 20, nineteen pages reach every queued link.
  const Case cases[] = {
      {3, &every_host, &rule, "wait"},
      {3, &every_host, &as_good, "blogue.pt"},
      {3, &every_host, &every_host, "blogue.pt"},
      {20, &every_host, &rule, "blogue.pt"},
      // What the first worker learnt counts for the second: without it,
      // bands never fetched look alike and the blog's link would be taken.
      {3, &rule, &unlearnt, "wait"},
      {3, &every_host, &unlearnt, "blogue.pt"},
  };
  int n = 0;
  for (const Case& c : cases) {
    SharedFrontierOptions o1 = worker("w1"), o2 = worker("w2");
    o1.crawl_id = o2.crawl_id = "vaga-" + std::to_string(++n);
    auto w1 = open(o1), w2 = open(o2);
    ASSERT_TRUE(w1 && w2);
    ASSERT_TRUE(w1->set_budget(c.budget).ok());
    ASSERT_TRUE(w1->add(pages("arquivo.pt", 3, 10)).ok());
    ASSERT_TRUE(w1->add(pages("blogue.pt", 3, 100)).ok());
    ASSERT_EQ(claim_host(*w1, *c.first), "arquivo.pt");  // the best link; its host is now busy
    EXPECT_EQ(claim_host(*w2, *c.second), c.expected) << "case " << n;
  }
}

TEST_F(SharedFrontierTest, AHostsGapHoldsAcrossWorkersOnTheServersClock) {
  auto w1 = open(worker("w1", 300)), w2 = open(worker("w2", 300));
  ASSERT_TRUE(w1 && w2);
  ASSERT_TRUE(w1->add(pages("a.pt", 4)).ok());
  std::int64_t last_end = 0;
  for (int i = 0; i < 4; ++i) {
    SharedFrontier& w = i % 2 ? *w2 : *w1;
    auto c = claim_within(w, std::chrono::seconds(5));
    ASSERT_TRUE(c) << "claim " << i;
    if (last_end) {
      EXPECT_GE(c->claimed_at_ms, last_end + 300);
    }
    auto end = w.complete(*c);
    ASSERT_TRUE(end.ok());
    last_end = *end;
  }
}

TEST_F(SharedFrontierTest, HostsOnOneAddressArePacedTogether) {
  SharedFrontierOptions o1 = worker("w1"), o2 = worker("w2");
  o1.address_gap_ms = o2.address_gap_ms = 300;
  auto w1 = open(o1), w2 = open(o2);
  ASSERT_TRUE(w1 && w2);
  ASSERT_TRUE(w1->add(pages("a.pt", 1, 10, "10.1.1.1")).ok());
  ASSERT_TRUE(w1->add(pages("b.pt", 1, 10, "10.1.1.1")).ok());
  auto first = claim_within(*w1, std::chrono::seconds(2));
  ASSERT_TRUE(first);
  auto end = w1->complete(*first);
  ASSERT_TRUE(end.ok());
  auto second = claim_within(*w2, std::chrono::seconds(5));
  ASSERT_TRUE(second);
  EXPECT_NE(second->host, first->host);
  EXPECT_GE(second->claimed_at_ms, *end + 300);
}

// Addresses learnt from the transfers: once two hosts are known to share
// one, a claim of either holds the address until its release, and the
// next waits for the address's gap after it.
TEST_F(SharedFrontierTest, AnAddressLearntAtReleaseIsHeldWhileClaimedAndPacedAcrossWorkers) {
  SharedFrontierOptions o1 = worker("w1"), o2 = worker("w2");
  o1.address_gap_ms = o2.address_gap_ms = 300;
  auto w1 = open(o1), w2 = open(o2);
  ASSERT_TRUE(w1 && w2);
  ASSERT_TRUE(w1->add(pages("a.pt", 2)).ok());
  ASSERT_TRUE(w1->add(pages("b.pt", 2)).ok());
  auto first = claim_within(*w1, std::chrono::seconds(2));
  ASSERT_TRUE(first);
  ASSERT_TRUE(w1->release(*first, "10.2.2.2").ok());
  // The other host's address is not known yet: it is served at once.
  auto second = claim_within(*w2, std::chrono::seconds(2));
  ASSERT_TRUE(second);
  EXPECT_NE(second->host, first->host);
  auto end = w2->release(*second, "10.2.2.2");
  ASSERT_TRUE(end.ok());
  auto third = claim_within(*w1, std::chrono::seconds(5));
  ASSERT_TRUE(third);
  EXPECT_GE(third->claimed_at_ms, *end + 300);
  // Held by w1: the address is busy for every host on it.
  EXPECT_FALSE(claim_within(*w2, std::chrono::milliseconds(600)));
  auto freed = w1->release(*third, "10.2.2.2");
  ASSERT_TRUE(freed.ok());
  auto fourth = claim_within(*w2, std::chrono::seconds(5));
  ASSERT_TRUE(fourth);
  EXPECT_GE(fourth->claimed_at_ms, *freed + 300);
}

// A claim that sent no request to its host (robots.txt forbade its URL,
// say) costs the host no gap: released, the host is ready at once for any
// worker, and its address is free. A lease of which any URL made a request
// keeps the gap, whichever of its URLs is released last.
TEST_F(SharedFrontierTest, AHostReleasedWithoutARequestIsReadyAtOnceUnlessItsLeaseMadeOne) {
  constexpr int kGap = 60000;  // never passed within the test
  SharedFrontierOptions o1 = connected("w1", 2), o2 = connected("w2", 2);
  o1.host_gap_ms = o2.host_gap_ms = o1.address_gap_ms = o2.address_gap_ms = kGap;
  auto w1 = open(o1), w2 = open(o2);
  ASSERT_TRUE(w1 && w2);
  ASSERT_TRUE(w1->add(pages("a.pt", 4, 10, "10.4.4.4")).ok());
  // One URL, no request: the other worker has the host (and its address) at once.
  auto forbidden = claims_of(w1->claim_up_to(1));
  ASSERT_EQ(forbidden.size(), 1u);
  ASSERT_TRUE(w1->release(forbidden[0], "", false).ok());
  ASSERT_TRUE(w1->settle(forbidden[0], true).ok());
  auto next = claims_of(w2->claim_up_to(1));
  ASSERT_EQ(next.size(), 1u) << "the host waits a gap that no request started";
  EXPECT_EQ(next[0].url, "http://a.pt/artigo/1");
  // Two URLs in one lease, the first fetched, the last released without a
  // request: the gap of the first holds.
  auto pair = claims_of(w2->claim_up_to(1, 1));
  ASSERT_EQ(pair.size(), 1u);
  ASSERT_TRUE(w2->release(next[0], "10.4.4.4", true).ok());
  ASSERT_TRUE(w2->release(pair[0], "", false).ok());
  auto held = w1->claim();
  ASSERT_TRUE(held.ok());
  ASSERT_TRUE(std::holds_alternative<NoClaim>(*held));
  EXPECT_EQ(std::get<NoClaim>(*held).why, NoClaim::Why::kWait);
  // A lease whose one URL made a request keeps the gap, as before.
  ASSERT_TRUE(w1->add(pages("b.pt", 2, 10, "10.5.5.5")).ok());
  auto fetched = claims_of(w1->claim_up_to(1));
  ASSERT_EQ(fetched.size(), 1u);
  EXPECT_EQ(fetched[0].host, "b.pt");
  ASSERT_TRUE(w1->release(fetched[0], "10.5.5.5", true).ok());
  EXPECT_TRUE(claims_of(w2->claim_up_to(2)).empty());
}

// A claim that takes every ready host says when the next host will be
// ready (the one in its gap, not the one just leased), so that the worker
// asks again then.
TEST_F(SharedFrontierTest, AClaimThatTakesEveryReadyHostSaysWhenTheNextOneWillBeReady) {
  SharedFrontierOptions o1 = worker("w1", 5000), o2 = worker("w2", 5000);
  auto w1 = open(o1), w2 = open(o2);
  ASSERT_TRUE(w1 && w2);
  ASSERT_TRUE(w1->add(pages("a.pt", 2)).ok());
  auto first = claims_of(w1->claim_up_to(1));
  ASSERT_EQ(first.size(), 1u);
  auto released = w1->release(first[0], "", true);
  ASSERT_TRUE(released.ok());
  ASSERT_TRUE(w1->add(pages("b.pt", 2)).ok());
  auto got = claims_of(w2->claim_up_to(4));
  ASSERT_EQ(got.size(), 1u);
  EXPECT_EQ(got[0].host, "b.pt");
  EXPECT_EQ(got[0].next_ready_ms, *released + 5000);
}

TEST_F(SharedFrontierTest, TheBudgetIsSpentExactlyAcrossWorkersAndNoUrlTwice) {
  {
    auto setup = open(worker("setup"));
    ASSERT_TRUE(setup);
    for (int h = 0; h < 20; ++h) ASSERT_TRUE(setup->add(pages("h" + std::to_string(h) + ".pt", 10)).ok());
    ASSERT_TRUE(setup->set_budget(57).ok());
    ASSERT_TRUE(setup->set_budget(1000).ok());  // the first value stays
  }
  std::mutex m;
  std::multiset<std::string> fetched;
  std::vector<std::thread> threads;
  for (int t = 0; t < 3; ++t)
    threads.emplace_back([&, t] {
      auto f = SharedFrontier::connect(redis_.uri(), worker("w" + std::to_string(t)));
      if (!f.ok()) return;
      while (true) {
        auto r = (*f)->claim();
        if (!r.ok()) return;
        if (auto* c = std::get_if<Claim>(&*r)) {
          (*f)->complete(*c);
          std::lock_guard lock(m);
          fetched.insert(c->url);
        } else if (std::get<NoClaim>(*r).why != NoClaim::Why::kWait) {
          return;
        }
      }
    });
  for (auto& t : threads) t.join();
  EXPECT_EQ(fetched.size(), 57u);
  EXPECT_EQ(std::set<std::string>(fetched.begin(), fetched.end()).size(), fetched.size());
}

TEST_F(SharedFrontierTest, ADeadWorkersUrlReturnsAndAnotherWorkerTakesItsHost) {
  SharedFrontierOptions dying = worker("w-dying");
  dying.lease_ms = 300;
  SharedFrontierOptions alive = worker("w-alive");
  alive.dead_after_ms = 300;
  std::string lost;
  {
    auto w1 = open(dying);
    ASSERT_TRUE(w1);
    ASSERT_TRUE(w1->add(pages("a.pt", 1)).ok());
    ASSERT_TRUE(w1->set_budget(1).ok());
    auto c = claim_within(*w1, std::chrono::seconds(2));
    ASSERT_TRUE(c);
    lost = c->url;
  }  // gone without completing, as after kill -9
  auto w2 = open(alive);
  ASSERT_TRUE(w2);
  expect_reaped_after_silence(*w2, 1);
  auto c = claim_within(*w2, std::chrono::seconds(2));
  ASSERT_TRUE(c);
  EXPECT_EQ(c->url, lost);  // and the budget had its page back
}

// release() frees the host for another worker while the URL stays in
// flight; settle() takes it out for good; a dead worker's released but
// unsettled URL returns, a settled one does not; a refund gives the page back.
TEST_F(SharedFrontierTest, AReleasedHostServesOthersAndOnlyUnsettledUrlsOfADeadWorkerReturn) {
  SharedFrontierOptions dying = worker("w-dying");
  SharedFrontierOptions alive = worker("w-alive");
  alive.dead_after_ms = 300;
  std::string settled, unsettled;
  {
    auto w1 = open_queued(dying, 3, 3);
    ASSERT_TRUE(w1);
    auto first = claim_within(*w1, std::chrono::seconds(2));
    ASSERT_TRUE(first);
    // Leased: nobody else gets the host.
    auto w2 = open(alive);
    ASSERT_TRUE(w2);
    EXPECT_FALSE(claim_within(*w2, std::chrono::milliseconds(100)));
    ASSERT_TRUE(w1->release(*first).ok());
    ASSERT_TRUE(w1->settle(*first, false).ok());
    settled = first->url;
    auto second = claim_within(*w1, std::chrono::seconds(2));
    ASSERT_TRUE(second);
    ASSERT_TRUE(w1->release(*second).ok());  // released, never settled: it dies storing it
    unsettled = second->url;
    auto counts = w1->counts();
    ASSERT_TRUE(counts.ok());
    EXPECT_EQ(counts->inflight, 1);
    EXPECT_EQ(counts->done, 1);
  }  // gone, as after kill -9
  auto w2 = open(alive);
  ASSERT_TRUE(w2);
  expect_reaped_after_silence(*w2, 1);
  std::set<std::string> claimed;
  while (auto c = claim_within(*w2, std::chrono::seconds(2))) {
    claimed.insert(c->url);
    ASSERT_TRUE(w2->release(*c).ok());
    ASSERT_TRUE(w2->settle(*c, c->url == unsettled).ok());  // the returned one gives no page: refunded
  }
  EXPECT_EQ(claimed.size(), 2u);
  EXPECT_TRUE(claimed.count(unsettled));
  EXPECT_FALSE(claimed.count(settled));
  auto counts = w2->counts();
  ASSERT_TRUE(counts.ok());
  EXPECT_EQ(counts->done, 2);
  ASSERT_TRUE(counts->budget_left);
  EXPECT_EQ(*counts->budget_left, 1);
}

TEST_F(SharedFrontierTest, ARestartedWorkerGivesBackWhatItHeld) {
  {
    auto w = open(worker("w1"));
    ASSERT_TRUE(w);
    ASSERT_TRUE(w->add(pages("a.pt", 2)).ok());
    ASSERT_TRUE(claim_within(*w, std::chrono::seconds(2)));
  }
  auto again = open(worker("w1"));
  ASSERT_TRUE(again);
  auto n = again->recover_own();
  ASSERT_TRUE(n.ok());
  EXPECT_EQ(*n, 1u);
  auto counts = again->counts();
  ASSERT_TRUE(counts.ok());
  EXPECT_EQ(counts->queued, 2);
  EXPECT_EQ(counts->inflight, 0);
}

TEST_F(SharedFrontierTest, RedisRestartedFromItsAppendOnlyFileKeepsTheCrawl) {
  auto w = open(worker("w1"));
  ASSERT_TRUE(w);
  ASSERT_TRUE(w->add(pages("a.pt", 5)).ok());
  auto c = claim_within(*w, std::chrono::seconds(2));
  ASSERT_TRUE(c);
  ASSERT_TRUE(w->complete(*c).ok());
  redis_.stop(SIGKILL);
  auto lost = w->claim();
  EXPECT_FALSE(lost.ok());
  redis_.start();
  ASSERT_TRUE(redis_.running());
  auto after = claim_within(*w, std::chrono::seconds(2));  // reconnects, scripts sent again
  ASSERT_TRUE(after);
  EXPECT_NE(after->url, c->url);
  auto counts = w->counts();
  ASSERT_TRUE(counts.ok());
  EXPECT_EQ(counts->seen, 5);
  EXPECT_EQ(counts->done, 1);
}

TEST_F(SharedFrontierTest, AnotherCrawlIdOnTheSameServerSeesNothingOfThisOne) {
  auto a = open(worker("w1"));
  SharedFrontierOptions other = worker("w1");
  other.crawl_id = "outra";
  auto b = open(other);
  ASSERT_TRUE(a && b);
  ASSERT_TRUE(a->add(pages("a.pt", 3)).ok());
  auto r = b->claim();
  ASSERT_TRUE(r.ok());
  ASSERT_TRUE(std::holds_alternative<NoClaim>(*r));
  EXPECT_EQ(std::get<NoClaim>(*r).why, NoClaim::Why::kEmpty);
  EXPECT_EQ(*b->add(pages("a.pt", 3)), 3u);  // its own seen-set
}

TEST_F(SharedFrontierTest, ARevisitJoinsItsHostsQueueWhenDueAndItsClaimCarriesTheCopy) {
  auto w = open(worker("w1"));
  ASSERT_TRUE(w);
  auto now = w->now_ms();
  ASSERT_TRUE(now.ok());
  ASSERT_TRUE(w->schedule_revisit("http://a.pt/", "a.pt", NextVisit{*now + 300, R"({"etag":"\"v1\""})"}).ok());
  auto early = w->claim();
  ASSERT_TRUE(early.ok());
  ASSERT_TRUE(std::holds_alternative<NoClaim>(*early));
  EXPECT_EQ(std::get<NoClaim>(*early).why, NoClaim::Why::kWait);  // not empty: a revisit is scheduled
  std::this_thread::sleep_for(std::chrono::milliseconds(350));
  auto c = claim_within(*w, std::chrono::seconds(2));
  ASSERT_TRUE(c);
  EXPECT_EQ(c->url, "http://a.pt/");
  ASSERT_TRUE(c->copy);
  EXPECT_EQ(*c->copy, R"({"etag":"\"v1\""})");
}

// A worker with a slot and nothing else to claim takes the scheduled
// revisit due earliest, ahead of its time, on a host no one holds; never
// one of a held host, never beyond the worker's share of the hosts, never
// a hub only (scheduled without a freshness weight), and only when asked
// (the work-conserving rule).
TEST_F(SharedFrontierTest, ASpareSlotTakesTheRevisitDueEarliestOnAFreeHostAheadOfItsTime) {
  auto w1 = open(worker("w1")), w2 = open(worker("w2"));
  ASSERT_TRUE(w1 && w2);
  auto now = w1->now_ms();
  ASSERT_TRUE(now.ok());
  ASSERT_TRUE(w1->schedule_revisit("http://c.pt/capa", "c.pt", NextVisit{*now + 10000, "c"}).ok());
  ASSERT_TRUE(w1->schedule_revisit("http://b.pt/", "b.pt", NextVisit{*now + 30000, "b"}).ok());
  ASSERT_TRUE(w1->schedule_revisit("http://a.pt/", "a.pt", NextVisit{*now + 60000, "a"}).ok());
  ASSERT_TRUE(w1->add(pages("c.pt", 1)).ok());
  auto busy = w1->claim();  // c.pt's new page: c.pt is held now
  ASSERT_TRUE(busy.ok());
  ASSERT_TRUE(std::holds_alternative<Claim>(*busy));
  EXPECT_EQ(std::get<Claim>(*busy).url, "http://c.pt/artigo/0");
  SlotRule spare;
  spare.spare = true;
  auto take = [&](const SlotRule& rule, int held = 0) -> std::string {
    auto r = w2->claim_up_to(4, held, rule);
    if (!r.ok()) return "error: " + r.status().message();
    if (auto* claims = std::get_if<std::vector<Claim>>(&*r); claims && !claims->empty())
      return claims->front().url + " " + claims->front().copy.value_or("(no copy)");
    return "none";
  };
  EXPECT_EQ(take(SlotRule{}), "none");  // not asked: nothing is due
  EXPECT_EQ(take(spare), "http://b.pt/ b");  // c.pt's is earlier, but its host is held
  EXPECT_EQ(take(spare, 2), "none");           // two workers, three hosts: a worker holding two has its share
  EXPECT_EQ(take(spare), "http://a.pt/ a");
  EXPECT_EQ(take(spare), "none");
  // A page scheduled as a hub only (no freshness weight) waits for its
  // time, and so does one before its spare_from time (half its interval
  // after its last visit), though each is due before one whose time has
  // passed, on a free host.
  ASSERT_TRUE(w1->schedule_revisit("http://d.pt/", "d.pt", NextVisit{*now + 20000, "d", NextVisit::kNever}).ok());
  ASSERT_TRUE(w1->schedule_revisit("http://f.pt/", "f.pt", NextVisit{*now + 25000, "f", *now + 10000}).ok());
  ASSERT_TRUE(w1->schedule_revisit("http://e.pt/", "e.pt", NextVisit{*now + 40000, "e", *now - 10000}).ok());
  EXPECT_EQ(take(spare), "http://e.pt/ e");
  EXPECT_EQ(take(spare), "none");
}

// Through the crawler's interface: when a page scheduled with its
// completion may take a spare slot travels with it (SharedCopy::spare_from).
TEST_F(SharedFrontierTest, ACompletionSaysWhetherItsNextVisitMayTakeASpareSlot) {
  auto one = open_crawl_work(redis_.uri(), worker("w1"));
  ASSERT_TRUE(one.ok());
  crawler::SharedExchange offer;
  offer.offers = {{"http://a.pt/capa", "a.pt", 0, 0}, {"http://b.pt/capa", "b.pt", 0, 0}};
  offer.claims = 2;
  auto claimed = (*one)->exchange(offer);
  ASSERT_TRUE(claimed.pull.ok()) << claimed.pull.status().message();
  ASSERT_EQ(claimed.pull->claims.size(), 2u);
  // Both due in an hour (the shared frontier's clock is the wall clock);
  // b.pt's capa, due first, is a hub only; a.pt's may be taken early from now.
  const double in_an_hour = std::chrono::duration<double>(std::chrono::system_clock::now().time_since_epoch()).count() + 3600;
  crawler::SharedExchange done;
  for (const auto& c : claimed.pull->claims) {
    done.releases.emplace_back(c, "");
    crawler::SharedCopy next;
    next.due = in_an_hour + (c.host == "b.pt" ? 0 : 60);
    next.spare_from = c.host == "b.pt" ? std::numeric_limits<double>::infinity() : in_an_hour - 3600;
    done.completions.push_back(crawler::SharedCompletion{c, true, next});
  }
  auto r = (*one)->exchange(done);
  ASSERT_EQ(r.completed.size(), 2u);
  ASSERT_TRUE(r.completed[0].ok() && r.completed[1].ok());
  auto spare = [&] {
    crawler::SharedExchange x;
    x.claims = 1;
    x.slot_rule.spare = true;
    auto p = (*one)->exchange(x).pull;
    if (!p.ok()) return "error: " + p.status().message();
    return p->claims.empty() ? std::string("none") : p->claims[0].url;
  };
  std::this_thread::sleep_for(std::chrono::milliseconds(5));  // both hosts' gaps (0 ms) have passed
  EXPECT_EQ(spare(), "http://a.pt/capa");
}

// A page settled with its next visit is revisited by whichever worker
// claims it then, with the copy the last visit left; a revisit takes no
// page of the budget (it is served when the budget is spent) and is held
// by one worker at a time; a worker killed holding one gives it back to
// the other when reaped, due at once; a revisit settled without a next
// visit leaves the schedule.
TEST_F(SharedFrontierTest, ARevisitGoesToAnyWorkerWithItsCopyOnceAtATimeAndOutsideTheBudget) {
  SharedFrontierOptions dying = worker("w-dying");
  dying.lease_ms = 300;
  SharedFrontierOptions alive = worker("w-alive");
  alive.dead_after_ms = 300;
  auto w2 = open(alive);
  ASSERT_TRUE(w2);
  {
    auto w1 = open_queued(dying, 1, 2);
    ASSERT_TRUE(w1);
    auto c = claim_within(*w1, std::chrono::seconds(2));
    ASSERT_TRUE(c);
    EXPECT_FALSE(c->copy);
    ASSERT_TRUE(w1->release(*c).ok());
    auto now = w1->now_ms();
    ASSERT_TRUE(now.ok());
    ASSERT_TRUE(w1->settle(Settle{*c, false, NextVisit{*now, "copy-1"}}).ok());
    // The budget is spent: the other page stays queued, the revisit goes.
    auto r = claim_within(*w2, std::chrono::seconds(2));
    ASSERT_TRUE(r);
    EXPECT_EQ(r->url, c->url);
    ASSERT_TRUE(r->copy);
    EXPECT_EQ(*r->copy, "copy-1");
    ASSERT_TRUE(w2->release(*r).ok());
    // Revisited and due again at once: the first worker claims it and dies with it.
    ASSERT_TRUE(w2->settle(Settle{*r, false, NextVisit{*now, "copy-2"}}).ok());
    auto again = claim_within(*w1, std::chrono::seconds(2));
    ASSERT_TRUE(again);
    EXPECT_EQ(again->url, c->url);
    EXPECT_EQ(*again->copy, "copy-2");
    auto none = w2->claim();  // held by the dying worker: not claimed twice
    ASSERT_TRUE(none.ok());
    ASSERT_TRUE(std::holds_alternative<NoClaim>(*none));
    EXPECT_EQ(std::get<NoClaim>(*none).why, NoClaim::Why::kWait);
  }  // gone without settling, as after kill -9
  expect_reaped_after_silence(*w2, 1);
  auto back = claim_within(*w2, std::chrono::seconds(2));
  ASSERT_TRUE(back);
  EXPECT_EQ(*back->copy, "copy-2");
  auto counts = w2->counts();
  ASSERT_TRUE(counts.ok());
  EXPECT_EQ(counts->done, 1);  // revisits are not pages of the budget
  EXPECT_EQ(*counts->budget_left, 0);
  ASSERT_TRUE(w2->release(*back).ok());
  ASSERT_TRUE(w2->settle(*back, false).ok());  // no next visit: it leaves the schedule
  auto end = w2->claim();
  ASSERT_TRUE(end.ok());
  ASSERT_TRUE(std::holds_alternative<NoClaim>(*end));
}

// Due revisits come first, but new URLs keep their share of the claims
// while any is ready (a fifth: one claim in five), as in a lone crawl.
TEST_F(SharedFrontierTest, NewUrlsKeepAFifthOfTheClaimsWhileRevisitsAreDue) {
  auto w = open(worker("w1"));
  ASSERT_TRUE(w);
  std::vector<QueuedUrl> fresh;
  for (int h = 0; h < 20; ++h) fresh.push_back(pages("novo" + std::to_string(h) + ".pt", 1).front());
  ASSERT_TRUE(w->add(fresh).ok());
  auto now = w->now_ms();
  ASSERT_TRUE(now.ok());
  for (int h = 0; h < 20; ++h)
    ASSERT_TRUE(w->schedule_revisit("http://velho" + std::to_string(h) + ".pt/", "velho" + std::to_string(h) + ".pt",
                                    NextVisit{*now - 1000 + h, "copy"})
                    .ok());
  std::string order;
  for (int i = 0; i < 20; ++i) {
    auto c = claim_within(*w, std::chrono::seconds(2));
    ASSERT_TRUE(c);
    order += c->copy ? 'r' : 'n';
    ASSERT_TRUE(w->release(*c).ok());
    ASSERT_TRUE(w->settle(*c, false).ok());
  }
  EXPECT_EQ(order, "rrrrnrrrrnrrrrnrrrrn");
}

}  // namespace
}  // namespace cronista::shared_frontier

namespace cronista::shared_frontier {
namespace {

// What a revisit schedule reads of the whole crawl: the workers alive and
// their rates summed (one silent past a lease no more), the new URLs
// claimed (revisits not), the hosts with new URLs queued (a host leaves
// when its queue empties, and comes back with a URL given back), the pages
// scheduled for revisits; and add() names the URLs new to the crawl.
TEST_F(SharedFrontierTest, TheCrawlsFiguresForARevisitScheduleAndWhichOfferedUrlsWereNew) {
  SharedFrontierOptions reader = worker("w-leitor");
  reader.lease_ms = 300;
  auto w1 = open(worker("w1"));
  auto w2 = open(reader);
  auto gone = open(worker("w-parado"));
  ASSERT_TRUE(w1 && w2 && gone);
  ASSERT_TRUE(gone->view().ok());
  std::this_thread::sleep_for(std::chrono::milliseconds(400));
  ASSERT_TRUE(w1->view().ok());
  auto v = w2->view();
  ASSERT_TRUE(v.ok()) << v.status().message();
  EXPECT_EQ(v->workers, 2);
  EXPECT_EQ(v->queued_hosts, 0);

  std::vector<QueuedUrl> first = pages("a.pt", 2);
  for (const QueuedUrl& u : pages("b.pt", 1)) first.push_back(u);
  std::vector<std::size_t> fresh;
  ASSERT_TRUE(w1->add(first, &fresh).ok());
  EXPECT_EQ(fresh, (std::vector<std::size_t>{0, 1, 2}));
  fresh.clear();
  ASSERT_TRUE(w1->add({first[1], {"http://c.pt/novo", "c.pt", "", 10}, first[0]}, &fresh).ok());
  EXPECT_EQ(fresh, (std::vector<std::size_t>{1}));
  v = w2->view();
  ASSERT_TRUE(v.ok());
  EXPECT_EQ(v->queued_hosts, 3);
  EXPECT_EQ(std::set<std::string>(v->queued_host_sample.begin(), v->queued_host_sample.end()),
            (std::set<std::string>{"a.pt", "b.pt", "c.pt"}));
  EXPECT_EQ(v->queued_host_sample.size(), 3u);
  EXPECT_EQ(v->new_claims, 0);
  EXPECT_EQ(v->first_claim_ms, 0);  // no URL claimed yet

  // a.pt's and b.pt's URLs claimed (best first): their hosts have none
  // queued; b.pt's page downloaded and scheduled for a revisit, which is
  // claimed (no new URL); a.pt's first URL given back is queued again.
  std::vector<Claim> claims;
  for (int i = 0; i < 3; ++i) {
    auto c = claim_within(*w1, std::chrono::seconds(2));
    ASSERT_TRUE(c);
    ASSERT_TRUE(w1->release(*c).ok());
    claims.push_back(*c);
  }
  ASSERT_EQ(claims[2].url, "http://b.pt/artigo/0");
  v = w2->view();
  ASSERT_TRUE(v.ok());
  EXPECT_EQ(v->queued_hosts, 1);
  EXPECT_EQ(v->new_claims, 3);
  // The first claim's time, on the server's clock: the new-URL rate counts from it.
  EXPECT_EQ(v->first_claim_ms, claims[0].claimed_at_ms);
  ASSERT_TRUE(w1->settle(Settle{claims[2], false, NextVisit{v->now_ms, "copy"}}).ok());
  auto revisit = claim_within(*w1, std::chrono::seconds(2));
  ASSERT_TRUE(revisit);
  EXPECT_TRUE(revisit->copy);
  ASSERT_TRUE(w1->give_back(claims[0]).ok());
  v = w2->view();
  ASSERT_TRUE(v.ok());
  EXPECT_EQ(v->scheduled, 1);
  EXPECT_EQ(v->new_claims, 3);
  EXPECT_EQ(v->queued_hosts, 2);
}

// A due time is moved by the worker whose visit set it, only while it
// stands: one set since by another visit is left alone.
TEST_F(SharedFrontierTest, ADueTimeMovesOnlyWhileItIsTheOneItsWorkerSet) {
  auto w = open(worker("w1"));
  ASSERT_TRUE(w);
  auto now = w->now_ms();
  ASSERT_TRUE(now.ok());
  const std::int64_t later = *now + 600000;
  ASSERT_TRUE(w->schedule_revisit("http://a.pt/", "a.pt", NextVisit{later, "copy-a"}).ok());
  ASSERT_TRUE(w->schedule_revisit("http://b.pt/", "b.pt", NextVisit{later, "copy-b"}).ok());
  // b.pt's page revisited since by another worker: due at another time.
  ASSERT_TRUE(w->schedule_revisit("http://b.pt/", "b.pt", NextVisit{later + 5, "copy-b2"}).ok());
  auto moved = w->move_due({{"http://a.pt/", later, *now}, {"http://b.pt/", later, *now}, {"http://c.pt/", later, *now}});
  ASSERT_TRUE(moved.ok()) << moved.status().message();
  EXPECT_EQ(*moved, (std::vector<std::size_t>{0}));
  auto c = claim_within(*w, std::chrono::seconds(2));
  ASSERT_TRUE(c);
  EXPECT_EQ(c->url, "http://a.pt/");
  ASSERT_TRUE(w->release(*c).ok());
  auto none = w->claim();  // b.pt's stays due ten minutes from now
  ASSERT_TRUE(none.ok());
  ASSERT_TRUE(std::holds_alternative<NoClaim>(*none));
  EXPECT_EQ(std::get<NoClaim>(*none).why, NoClaim::Why::kWait);
  // A due time fallen due (in its host's revisits) or claimed is not moved.
  moved = w->move_due({{"http://a.pt/", *now, later}});
  ASSERT_TRUE(moved.ok());
  EXPECT_TRUE(moved->empty());
}

// The crawl's request rate is one pacer for all its workers: at 0.5
// requests/s (a slot every 2 s, no burst) the first worker's request takes
// the slot, the other worker's next one is refused with the wait until the
// next slot, and so is the first's; another crawl paces on its own.
TEST_F(SharedFrontierTest, OneRequestRateIsPacedForAllWorkersOfACrawl) {
  auto w1 = open(worker("w1"));
  auto w2 = open(worker("w2"));
  SharedFrontierOptions other = worker("w3");
  other.crawl_id = "outra";
  auto w3 = open(other);
  ASSERT_TRUE(w1 && w2 && w3);
  auto first = w1->pace(0.5, 1);
  ASSERT_TRUE(first.ok()) << first.status().message();
  EXPECT_EQ(*first, 0);
  for (SharedFrontier* w : {w2.get(), w1.get()}) {
    auto wait = w->pace(0.5, 1);
    ASSERT_TRUE(wait.ok());
    EXPECT_GT(*wait, 0);
    EXPECT_LE(*wait, 2000000);
  }
  auto elsewhere = w3->pace(0.5, 1);
  ASSERT_TRUE(elsewhere.ok());
  EXPECT_EQ(*elsewhere, 0);
  // A burst of 2 lets a second request through at once, not a third.
  auto b1 = w3->pace(0.5, 2);
  ASSERT_TRUE(b1.ok());
  EXPECT_EQ(*b1, 0);
  auto b2 = w3->pace(0.5, 2);
  ASSERT_TRUE(b2.ok());
  EXPECT_GT(*b2, 0);
}

// Over a run of workers taking slots as fast as they can, the slots taken
// in t seconds stay within rate·t + burst (counted, with t the time they ran).
TEST_F(SharedFrontierTest, WorkersTakingSlotsAsFastAsTheyCanTakeNoMoreThanTheRateAllows) {
  constexpr double kRate = 40, kBurst = 2;
  std::atomic<int> taken{0};
  const auto start = Clock::now();
  std::vector<std::thread> threads;
  for (int i = 0; i < 3; ++i)
    threads.emplace_back([&, i] {
      auto w = SharedFrontier::connect(redis_.uri(), worker("w" + std::to_string(i)));
      if (!w.ok()) return;
      const auto end = Clock::now() + std::chrono::milliseconds(800);
      while (Clock::now() < end) {
        auto r = (*w)->pace(kRate, kBurst);
        if (!r.ok()) return;
        if (*r == 0) ++taken;
        else std::this_thread::sleep_for(std::chrono::microseconds(std::min<std::int64_t>(*r, 5000)));
      }
    });
  for (auto& t : threads) t.join();
  const double t = std::chrono::duration<double>(Clock::now() - start).count();
  EXPECT_LE(taken.load(), kRate * t + kBurst) << taken.load() << " slots in " << t << " s";
  EXPECT_GT(taken.load(), 0);
}

}  // namespace
}  // namespace cronista::shared_frontier
