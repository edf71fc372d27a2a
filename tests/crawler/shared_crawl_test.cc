// One crawl, many processes: `cronista crawl --frontier … --crawl-id …`
// workers against a real redis-server (unix socket, append-only file) and
// loopback sites; real kills of real processes.
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <functional>
#include <iostream>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <thread>

#include <nlohmann/json.hpp>

#include "crawler/crawl_support.h"
#include "crawler/stamping_server.h"
#include "redis_server.h"
#include "crawler/crawl_shards.h"
#include "shared_frontier/shared_frontier.h"

namespace cronista::crawler {
namespace {

using std::chrono::milliseconds;
using testing::Child;
using testing::count;
using testing::html;
using testing::rows;
using testing::Site;
using testing::spawn_cronista;
using testing::TempDir;
using testing::titles_learnt;

constexpr int kSites = 3;
constexpr int kArticles = 40;
constexpr int kPages = kSites * (kArticles + 1);
constexpr int kDelayMs = 20;

// Three sites on loopback; each index links its articles and the other
// sites' indexes, each article its index, its neighbours and the same
// article of the next site.
struct Web {
  std::vector<std::unique_ptr<Site>> sites;
  Web() {
    for (int s = 0; s < kSites; ++s) {
      sites.push_back(std::make_unique<Site>());
      sites.back()->start();  // the port is known once started; pages are read per request
    }
    for (int s = 0; s < kSites; ++s) {
      Site& site = *sites[s];
      const Site& next = *sites[(s + 1) % kSites];
      std::string index;
      for (int a = 0; a < kArticles; ++a) {
        const std::string path = "/artigo/" + std::to_string(a);
        index += "<a href=\"" + path + "\">Notícia de 1942</a> ";
        site.page(path, html("<p>Em março de 1942 o porto reabriu. <a href=\"/\">início</a> <a href=\"/artigo/" +
                             std::to_string((a + 1) % kArticles) + "\">seguinte</a> <a href=\"" +
                             next.url(path) + "\">noutro sítio</a></p>"));
      }
      for (int o = 0; o < kSites; ++o)
        if (o != s) index += "<a href=\"" + sites[o]->url("/") + "\">outro sítio</a> ";
      site.page("/", html("<p>" + index + "</p>"));
    }
  }
  std::vector<std::string> seeds() const {
    std::vector<std::string> out;
    for (const auto& s : sites) out.push_back(s->url("/"));
    return out;
  }
};

std::vector<std::string> worker_args(const TempDir& tmp, const Web& web, const testing::RedisServer& redis,
                                     const std::string& name, const std::string& crawl_id, int budget) {
  std::vector<std::string> args = {"crawl", "--from", "1939", "--to", "1945", "--mode", "general",
                                   "--db", (tmp / (name + ".db")).string(), "--delay-ms", std::to_string(kDelayMs),
                                   "--connections", "4", "--quiet", "--frontier", redis.uri(),
                                   "--crawl-id", crawl_id, "--lease-ms", "1000",
                                   "--max-pages", std::to_string(budget)};
  for (const auto& s : web.seeds()) args.push_back(s);
  return args;
}

// Starts one worker per name, each with its shard NAME.db and NAME.err.
std::vector<Child> spawn_workers(const TempDir& tmp, const Web& web, const testing::RedisServer& redis,
                                 const std::vector<std::string>& names, const std::string& crawl_id, int budget) {
  std::vector<Child> workers;
  for (const auto& n : names)
    workers.push_back(spawn_cronista(worker_args(tmp, web, redis, n, crawl_id, budget), (tmp / (n + ".err")).string()));
  return workers;
}

void expect_clean_exits(const TempDir& tmp, std::vector<Child>& workers, const std::vector<std::string>& names) {
  for (std::size_t i = 0; i < workers.size(); ++i)
    EXPECT_EQ(workers[i].wait(), 0) << testing::read_file(tmp / (names[i] + ".err"));
}

// The URLs downloaded, shard after shard. A worker that downloaded nothing
// (the others held every host while it had a URL to claim) keeps no shard
// and says so; a shard that cannot be read fails the test.
std::vector<std::string> history(const TempDir& tmp, const std::vector<std::string>& names) {
  std::vector<std::string> all;
  for (const auto& n : names) {
    const auto db = tmp / (n + ".db");
    if (!std::filesystem::exists(db)) {
      EXPECT_NE(testing::read_file(tmp / (n + ".err")).find("nothing was kept"), std::string::npos)
          << n << " left no shard and did not say why";
      continue;
    }
    const auto h = rows(db.string(), "SELECT url FROM history");
    for (const auto& url : h)
      if (url.rfind("ERROR ", 0) == 0) ADD_FAILURE() << n << ": " << url;
    all.insert(all.end(), h.begin(), h.end());
  }
  return all;
}

// Requests of every page (robots.txt aside) at all sites, by URL.
std::map<std::string, int> requests(const Web& web) {
  std::map<std::string, int> out;
  for (const auto& s : web.sites)
    for (const auto& p : s->server().paths())
      if (p != "/robots.txt") ++out[s->url(p)];
  return out;
}

// The smallest gap between two requests to one site, robots.txt included.
milliseconds smallest_gap(const Web& web) {
  milliseconds least = milliseconds::max();
  for (const auto& s : web.sites) {
    const auto log = s->server().log();
    for (std::size_t i = 1; i < log.size(); ++i)
      least = std::min(least, std::chrono::duration_cast<milliseconds>(log[i].at - log[i - 1].at));
  }
  return least;
}

// Waits until a worker's shard holds n pages (it may not exist yet).
void wait_for_pages(const std::string& db, std::int64_t n) {
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(30);
  while (std::chrono::steady_clock::now() < deadline) {
    try {
      if (std::filesystem::exists(db) && count(db, "SELECT COUNT(*) FROM history") >= n) return;
    } catch (const std::exception&) {  // the schema is being created
    }
    std::this_thread::sleep_for(milliseconds(5));
  }
}

// A Redis, the three sites and a folder for the shards, per test.
class SharedCrawlWorkers : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!redis.available() || !redis.running()) GTEST_SKIP() << "redis-server is not installed";
  }
  testing::RedisServer redis;
  Web web;
  TempDir tmp;
};

TEST_F(SharedCrawlWorkers, ThreeWorkersSpendTheBudgetExactlyFetchNothingTwiceAndKeepEachHostsGap) {
  const int budget = 60;
  const std::vector<std::string> names = {"w1", "w2", "w3"};
  auto workers = spawn_workers(tmp, web, redis, names, "um", budget);
  expect_clean_exits(tmp, workers, names);

  const auto all = history(tmp, names);
  EXPECT_EQ(all.size(), static_cast<std::size_t>(budget));
  EXPECT_EQ(std::set<std::string>(all.begin(), all.end()).size(), all.size()) << "a page is in two shards";
  for (const auto& [url, n] : requests(web)) EXPECT_EQ(n, 1) << url << " requested " << n << " times";
  // Every worker took part, and each ended on the shared budget.
  for (const auto& n : names) {
    EXPECT_GT(count((tmp / (n + ".db")).string(), "SELECT COUNT(*) FROM history"), 0) << n;
    EXPECT_EQ(rows((tmp / (n + ".db")).string(), "SELECT end_reason FROM runs"),
              std::vector<std::string>{"max-pages"});
  }
  EXPECT_GE(smallest_gap(web), milliseconds(kDelayMs));
}

// A site that counts the requests for its articles being answered at once
// (each answer takes a while, so that the requests of several connections
// overlap).
struct CountingSite {
  Site site;
  std::atomic<int> now{0}, most{0};
  int articles;
  explicit CountingSite(int n) : articles(n) {
    site.http().Get("/artigo/.*", [this](const httplib::Request& req, httplib::Response& res) {
      const int n = ++now;
      int seen = most.load();
      while (n > seen && !most.compare_exchange_weak(seen, n)) {
      }
      std::this_thread::sleep_for(milliseconds(40));
      res.set_content(html("<p>Em março de 1942 o porto reabriu (" + req.path + ").</p>"), "text/html; charset=utf-8");
      --now;
    });
    site.start();
    link("");
  }
  // The index: every article, and `more` (links to other sites).
  void link(const std::string& more) {
    std::string index;
    for (int a = 0; a < articles; ++a) index += "<a href=\"/artigo/" + std::to_string(a) + "\">Notícia de 1942</a> ";
    site.page("/", html("<p>" + index + more + "</p>"));
  }
};

TEST(SharedCrawlHostConnections, TheWorkersNeverHaveMoreThanTheHostsConnectionsOnAHostAndSpendTheBudget) {
  testing::RedisServer redis;
  if (!redis.available() || !redis.running()) GTEST_SKIP() << "redis-server is not installed";
  constexpr int kConnections = 3, kBudget = 40;
  CountingSite a(30), b(30);
  a.link("<a href=\"" + b.site.url("/") + "\">outro sítio</a>");
  TempDir tmp;
  const std::vector<std::string> names = {"w1", "w2"};
  std::vector<Child> workers;
  for (const auto& n : names) {
    std::vector<std::string> args = {"crawl", "--from", "1939", "--to", "1945", "--mode", "general",
                                     "--db", (tmp / (n + ".db")).string(), "--delay-ms", "0",
                                     "--host-connections", std::to_string(kConnections), "--connections", "8",
                                     "--quiet", "--frontier", redis.uri(), "--crawl-id", "ligacoes",
                                     "--lease-ms", "1000", "--max-pages", std::to_string(kBudget),
                                     a.site.url("/"), b.site.url("/")};
    workers.push_back(spawn_cronista(args, (tmp / (n + ".err")).string()));
  }
  expect_clean_exits(tmp, workers, names);
  for (CountingSite* s : {&a, &b}) {
    EXPECT_LE(s->most.load(), kConnections) << s->site.origin();
    EXPECT_GT(s->most.load(), 1) << s->site.origin() << ": one request at a time";
  }
  const auto all = history(tmp, names);
  EXPECT_EQ(all.size(), static_cast<std::size_t>(kBudget));
  EXPECT_EQ(std::set<std::string>(all.begin(), all.end()).size(), all.size()) << "a page is in two shards";
}

// With several connections per host, a host's requests still start
// --delay-ms apart at the server's clock, with two workers sharing the
// crawl (the holder paces its own; a next holder waits the gap after the
// last release).
TEST(SharedCrawlHostConnections, AHostsRequestsStartTheDelayApartWithSeveralConnectionsAndTwoWorkers) {
  testing::RedisServer redis;
  if (!redis.available() || !redis.running()) GTEST_SKIP() << "redis-server is not installed";
  constexpr int kDelay = 60, kArticles = 10;
  std::map<std::string, std::string> pages;
  std::string links;
  for (int i = 0; i < kArticles; ++i) {
    links += "<a href=\"/artigo/" + std::to_string(i) + "\">Notícia de 1942</a> ";
    pages["/artigo/" + std::to_string(i)] = html("<p>Em março de 1942 o porto reabriu.</p>");
  }
  pages["/"] = html("<p>" + links + "</p>");
  testing::StampingServer server(pages);
  TempDir tmp;
  const std::vector<std::string> names = {"w1", "w2"};
  std::vector<Child> workers;
  for (const auto& n : names)
    workers.push_back(spawn_cronista({"crawl", "--from", "1939", "--to", "1945", "--mode", "general", "--db",
                                      (tmp / (n + ".db")).string(), "--delay-ms", std::to_string(kDelay),
                                      "--host-connections", "4", "--connections", "8", "--quiet", "--frontier",
                                      redis.uri(), "--crawl-id", "pausa", "--lease-ms", "1000", server.url("/")},
                                     (tmp / (n + ".err")).string()));
  expect_clean_exits(tmp, workers, names);
  const auto arrivals = server.arrivals();
  EXPECT_EQ(server.unstamped(), 0);
  ASSERT_EQ(arrivals.size(), static_cast<std::size_t>(kArticles + 2));  // robots.txt and the index too
  for (std::size_t i = 1; i < arrivals.size(); ++i) {
    const auto gap = std::chrono::duration_cast<std::chrono::microseconds>(arrivals[i].at - arrivals[i - 1].at);
    EXPECT_GE(gap.count(), (kDelay - 1) * 1000) << arrivals[i - 1].path << " → " << arrivals[i].path;
  }
  // A worker that downloaded nothing keeps no shard (the holder of the one
  // host may keep it to the end: its lease ends only with its last URL).
  std::vector<std::string> shards;
  for (const auto& n : names)
    if (std::filesystem::exists(tmp / (n + ".db"))) shards.push_back(n);
  EXPECT_EQ(history(tmp, shards).size(), static_cast<std::size_t>(kArticles + 1));
}

TEST_F(SharedCrawlWorkers, WithoutABudgetTheWorkersCrawlEverythingOnceAndEndOnAnEmptyFrontier) {
  const std::vector<std::string> names = {"w1", "w2"};
  auto workers = spawn_workers(tmp, web, redis, names, "tudo", 0);
  expect_clean_exits(tmp, workers, names);
  const auto all = history(tmp, names);
  EXPECT_EQ(all.size(), static_cast<std::size_t>(kPages));
  EXPECT_EQ(std::set<std::string>(all.begin(), all.end()).size(), all.size());
  for (const auto& n : names)
    EXPECT_EQ(rows((tmp / (n + ".db")).string(), "SELECT end_reason FROM runs"),
              std::vector<std::string>{"frontier-empty"});
  // A worker's shard knows its seeds from what it claimed: the sites' home
  // pages at depth 0 (they are the seeds every worker was given), every
  // article it claimed at depth 1 — not every claimed URL as a seed.
  const auto seeds = web.seeds();
  std::size_t claimed_articles = 0;
  for (const auto& n : names) {
    const std::string db = (tmp / (n + ".db")).string();
    for (const auto& url : rows(db, "SELECT url FROM urls WHERE depth = 0"))
      EXPECT_NE(std::find(seeds.begin(), seeds.end(), url), seeds.end()) << n << ": " << url << " stored as a seed";
    claimed_articles += static_cast<std::size_t>(count(db, "SELECT COUNT(*) FROM urls WHERE depth = 1 AND url LIKE '%/artigo/%'"));
  }
  EXPECT_EQ(claimed_articles, static_cast<std::size_t>(kSites * kArticles));
}

TEST_F(SharedCrawlWorkers, EachSitesRobotsTxtIsFetchedOnceForAllWorkersAndObeyedByAll) {
  // The second site forbids its articles 2, 3 and 20 to 39 (prefixes).
  web.sites[1]->page("/robots.txt", "User-agent: *\nDisallow: /artigo/2\nDisallow: /artigo/3\n");
  const std::vector<std::string> names = {"w1", "w2", "w3"};
  auto workers = spawn_workers(tmp, web, redis, names, "regras", 0);
  expect_clean_exits(tmp, workers, names);
  for (const auto& site : web.sites) {
    const auto paths = site->server().paths();
    EXPECT_EQ(std::count(paths.begin(), paths.end(), "/robots.txt"), 1) << site->origin();
  }
  // Every worker obeyed the rules it did not fetch: no forbidden article was asked for.
  for (const auto& p : web.sites[1]->server().paths())
    EXPECT_FALSE(p.rfind("/artigo/2", 0) == 0 || p.rfind("/artigo/3", 0) == 0) << p;
  const auto all = history(tmp, names);
  EXPECT_EQ(all.size(), static_cast<std::size_t>(kPages - 22));
  std::set<std::string> fetched_by;
  for (const auto& n : names)
    if (count((tmp / (n + ".db")).string(), "SELECT COUNT(*) FROM history") > 0) fetched_by.insert(n);
  EXPECT_GE(fetched_by.size(), 2u) << "the crawl was not shared";
}

TEST_F(SharedCrawlWorkers, WithAnAddressDelayTheSitesOnOneAddressArePacedTogetherAcrossWorkers) {
  // The three sites listen on 127.0.0.1; a site's address is known once
  // its first page was answered (its robots.txt and first page go before).
  constexpr int kAddressDelayMs = 60;
  const std::vector<std::string> names = {"w1", "w2"};
  std::vector<Child> workers;
  for (const auto& n : names) {
    auto args = worker_args(tmp, web, redis, n, "morada", 30);
    args.insert(args.end(), {"--address-delay-ms", std::to_string(kAddressDelayMs)});
    workers.push_back(spawn_cronista(args, (tmp / (n + ".err")).string()));
  }
  expect_clean_exits(tmp, workers, names);
  std::vector<std::chrono::steady_clock::time_point> paced;
  for (const auto& site : web.sites) {
    const auto log = site->server().log();
    for (std::size_t i = 2; i < log.size(); ++i) paced.push_back(log[i].at);
  }
  std::sort(paced.begin(), paced.end());
  ASSERT_GE(paced.size(), 20u);
  milliseconds least = milliseconds::max();
  for (std::size_t i = 1; i < paced.size(); ++i)
    least = std::min(least, std::chrono::duration_cast<milliseconds>(paced[i] - paced[i - 1]));
  EXPECT_GE(least, milliseconds(kAddressDelayMs));
  EXPECT_EQ(history(tmp, names).size(), 30u);
}

TEST_F(SharedCrawlWorkers, AWorkerKilledWithMinus9LosesNothingAndRejoinsWithResume) {
  const int budget = kPages - 3;
  const std::vector<std::string> names = {"w1", "w2", "w3"};
  std::vector<std::vector<std::string>> args;
  std::vector<Child> workers;
  for (const auto& n : names) {
    args.push_back(worker_args(tmp, web, redis, n, "morte", budget));
    workers.push_back(spawn_cronista(args.back(), (tmp / (n + ".err")).string()));
  }
  // w1 dies once it has written pages of its own, while it holds URLs.
  const std::string db1 = (tmp / "w1.db").string();
  wait_for_pages(db1, 5);
  auto addr = shared_frontier::parse_redis_address(redis.uri());
  ASSERT_TRUE(addr.ok());
  auto conn = shared_frontier::RedisConnection::open(*addr);
  ASSERT_TRUE(conn.ok());
  // Its worker id by default: the machine's name and its --db.
  char machine[256] = {0};
  ::gethostname(machine, sizeof machine - 1);
  const std::string w1 = std::string(machine) + ":" + std::filesystem::absolute(db1).string();
  auto in_flight = [&] {
    auto r = (*conn)->command({"HLEN", "cronista:morte:inflight:" + w1});
    return r.ok() ? r->integer : 0;
  };
  const auto hold_deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
  while (in_flight() == 0 && std::chrono::steady_clock::now() < hold_deadline)
    std::this_thread::sleep_for(milliseconds(1));
  ::kill(workers[0].pid, SIGKILL);
  EXPECT_EQ(workers[0].wait(), 128 + SIGKILL);
  const auto killed_at = std::chrono::steady_clock::now();
  // The sites w1 held at its death: hosts it leased and hosts of its URLs in flight.
  std::set<std::string> held;
  std::size_t held_urls = 0;
  if (auto r = (*conn)->command({"HVALS", "cronista:morte:inflight:" + w1}); r.ok()) {
    for (const auto& v : r->elements) held.insert(v.str.substr(0, v.str.find('\t')));
    held_urls = r->elements.size();
  }
  for (const auto& site : web.sites) {
    const std::string host = site->origin().substr(std::string("http://").size());
    auto lease = (*conn)->command({"GET", "cronista:morte:lease:" + host});
    if (lease.ok() && lease->str == w1) held.insert(host);
  }
  // It may have settled its last claim between the check above and the
  // kill: then it held nothing, and the bounds below allow no repeat.
  if (held.empty()) std::cerr << "w1 held nothing when it was killed\n";
  // Its leases expire (1 s) and its URLs return when it is declared dead
  // (five leases): before it comes back, the other two serve each of its
  // sites again, or spend the budget without it (they end at max-pages
  // only once no worker holds a URL: its URLs were taken back).
  const auto takeover_deadline = killed_at + std::chrono::seconds(30);
  auto others_finished = [&] {
    for (const std::string n : {"w2", "w3"}) {
      try {
        if (count((tmp / (n + ".db")).string(), "SELECT COUNT(*) FROM runs WHERE end_reason = 'max-pages'") < 1)
          return false;
      } catch (const std::exception&) {  // being written
        return false;
      }
    }
    return true;
  };
  auto held_sites_served_since_kill = [&] {
    for (const auto& site : web.sites) {
      if (!held.count(site->origin().substr(std::string("http://").size()))) continue;
      const auto log = site->server().log();
      if (log.empty() || log.back().at < killed_at + milliseconds(1000)) return false;
    }
    return true;
  };
  while (!held_sites_served_since_kill() && !others_finished() && std::chrono::steady_clock::now() < takeover_deadline)
    std::this_thread::sleep_for(milliseconds(20));
  EXPECT_TRUE(held_sites_served_since_kill() || others_finished()) << "the others did not take the dead worker's hosts";
  // It rejoins under its own name (its --db) while the others still crawl.
  args[0].push_back("--resume");
  workers[0] = spawn_cronista(args[0], (tmp / "w1-again.err").string());
  for (std::size_t i = 0; i < workers.size(); ++i)
    EXPECT_EQ(workers[i].wait(), 0) << testing::read_file(tmp / (i == 0 ? "w1-again.err" : names[i] + ".err"));

  // Nothing lost: the budget is spent on distinct pages. Downloaded twice:
  // only what w1 held unsettled at the kill (its claims in flight, and pages
  // it had stored but not yet reported as done), which went back to the
  // queues with their pages of the budget. Each of those is at most one page
  // more: fetched again by another worker, or, if not, beyond the budget.
  const auto all = history(tmp, names);
  const std::size_t distinct = std::set<std::string>(all.begin(), all.end()).size();
  EXPECT_GE(distinct, static_cast<std::size_t>(budget));
  EXPECT_LE(distinct, static_cast<std::size_t>(budget) + held_urls);
  EXPECT_LE(all.size(), static_cast<std::size_t>(budget) + held_urls);
  std::size_t repeats = 0;
  for (const auto& [url, n] : requests(web)) repeats += static_cast<std::size_t>(n - 1);
  EXPECT_LE(repeats, held_urls);
  EXPECT_EQ(rows(db1, "SELECT end_reason FROM runs ORDER BY id"), (std::vector<std::string>{"NULL", "max-pages"}));
  EXPECT_GE(smallest_gap(web), milliseconds(kDelayMs));
}

// The workers pace at the crawl's --fetch-rate in Redis too: no request
// goes while it is down, and they go on when it is back.
TEST_F(SharedCrawlWorkers, RedisRestartedFromItsAppendOnlyFileMidCrawlAndTheCrawlContinues) {
  const int budget = 90;
  const std::vector<std::string> names = {"w1", "w2"};
  std::vector<Child> workers;
  for (const auto& n : names) {
    auto args = worker_args(tmp, web, redis, n, "volta", budget);
    args.insert(args.end() - kSites, {"--fetch-rate", "60"});
    workers.push_back(spawn_cronista(args, (tmp / (n + ".err")).string()));
  }
  const std::string db1 = (tmp / "w1.db").string();
  wait_for_pages(db1, 5);
  redis.stop(SIGKILL);
  std::this_thread::sleep_for(milliseconds(1500));
  redis.start();
  ASSERT_TRUE(redis.running());
  expect_clean_exits(tmp, workers, names);
  const auto all = history(tmp, names);
  EXPECT_EQ(all.size(), static_cast<std::size_t>(budget));
  EXPECT_EQ(std::set<std::string>(all.begin(), all.end()).size(), all.size());
  EXPECT_NE(testing::read_file(tmp / "w1.err").find("pausing and retrying"), std::string::npos);
}

TEST_F(SharedCrawlWorkers, RedisLostForGoodStopsTheWorkersCleanlyWithTheirPagesKept) {
  auto args = worker_args(tmp, web, redis, "w1", "perdido", 0);
  args.insert(args.end() - kSites, {"--frontier-patience", "2", "--fetch-rate", "60"});
  Child w = spawn_cronista(args, (tmp / "w1.err").string());
  const std::string db = (tmp / "w1.db").string();
  wait_for_pages(db, 5);
  redis.stop(SIGKILL);
  EXPECT_EQ(w.wait(), 1);
  const std::string err = testing::read_file(tmp / "w1.err");
  EXPECT_NE(err.find("pausing and retrying"), std::string::npos) << err;
  EXPECT_NE(err.find("--resume"), std::string::npos) << err;
  EXPECT_EQ(rows(db, "SELECT end_reason FROM runs"), std::vector<std::string>{"frontier-lost"});
  // Every page it downloaded is in its shard, once.
  const auto h = rows(db, "SELECT url FROM history");
  EXPECT_GE(h.size(), 5u);
  EXPECT_EQ(std::set<std::string>(h.begin(), h.end()).size(), h.size());
}

TEST_F(SharedCrawlWorkers, AWorkerStoppedWithSigtermGivesItsClaimsBackAndTheOtherSpendsTheBudget) {
  const int budget = 90;
  const std::vector<std::string> names = {"w1", "w2"};
  auto workers = spawn_workers(tmp, web, redis, names, "parar", budget);
  wait_for_pages((tmp / "w1.db").string(), 5);
  ::kill(workers[0].pid, SIGTERM);
  EXPECT_EQ(workers[0].wait(), 128 + SIGTERM) << testing::read_file(tmp / "w1.err");
  // Nothing is left in flight under w1's name (by default its host name
  // and the absolute path of its --db): its claims went back at once.
  char host[256] = {0};
  ::gethostname(host, sizeof host - 1);
  shared_frontier::SharedFrontierOptions o;
  o.crawl_id = "parar";
  o.worker_id = std::string(host) + ":" + std::filesystem::absolute(tmp / "w1.db").string();
  auto f = shared_frontier::SharedFrontier::connect(redis.uri(), o);
  ASSERT_TRUE(f.ok()) << f.status().message();
  auto own = (*f)->own_claims();
  ASSERT_TRUE(own.ok());
  EXPECT_TRUE(own->empty()) << own->size() << " claims left, the first " << own->front().url;
  EXPECT_EQ(workers[1].wait(), 0) << testing::read_file(tmp / "w2.err");
  const auto all = history(tmp, names);
  EXPECT_EQ(all.size(), static_cast<std::size_t>(budget));
  EXPECT_EQ(std::set<std::string>(all.begin(), all.end()).size(), all.size());
  // Asked twice: at most the transfers w1 abandoned (--connections).
  int repeats = 0;
  for (const auto& [url, n] : requests(web)) repeats += n - 1;
  EXPECT_LE(repeats, 4);
  EXPECT_EQ(rows((tmp / "w1.db").string(), "SELECT end_reason FROM runs"), std::vector<std::string>{"interrupted"});
}

// The number in a worker's summary line "title words: W, learnt from N
// page titles of every worker" (-1 when the line is missing).
// A temporal worker stopped and resumed keeps what its links taught it:
// each page records the priority it was fetched at, and the resumed worker
// starts from those counts, so its claims tell Redis ('yield:WORKER', the
// evidence of the free-slot rule) at least every page it downloaded before
// the stop. Without them it starts from zero and, with fewer pages left in
// the budget than it had, never gets back there.
TEST_F(SharedCrawlWorkers, AResumedTemporalWorkerKeepsWhatItsLinksTaughtIt) {
  constexpr int kBudget = 12;
  auto args = worker_args(tmp, web, redis, "w1", "rever", kBudget);
  for (std::size_t i = 0; i + 1 < args.size(); ++i) {
    if (args[i] == "--mode") args[i + 1] = "temporal";
    if (args[i] == "--delay-ms") args[i + 1] = "200";
  }
  const std::string db = (tmp / "w1.db").string();
  Child first = spawn_cronista(args, (tmp / "w1.err").string());
  wait_for_pages(db, kBudget / 2 + 1);
  ::kill(first.pid, SIGTERM);
  ASSERT_EQ(first.wait(), 128 + SIGTERM) << testing::read_file(tmp / "w1.err");
  const std::int64_t before = count(db, "SELECT COUNT(*) FROM history");
  ASSERT_LT(before, kBudget) << "the stop came too late for the test";
  EXPECT_EQ(count(db, "SELECT COUNT(*) FROM history h JOIN pages p ON p.id = h.page_id WHERE p.link_priority IS NULL"),
            0);

  // What the stopped worker told Redis is removed: what is there after the
  // resumed run comes from the resumed worker alone.
  char host[256] = {0};
  ::gethostname(host, sizeof host - 1);
  const std::string key = "cronista:rever:yield:" + std::string(host) + ":" + std::filesystem::absolute(db).string();
  auto addr = shared_frontier::parse_redis_address(redis.uri());
  ASSERT_TRUE(addr.ok());
  auto c = shared_frontier::RedisConnection::open(*addr, 2000);
  ASSERT_TRUE(c.ok()) << c.status().message();
  auto removed = (*c)->command({"DEL", key});
  ASSERT_TRUE(removed.ok() && removed->integer == 1) << "no link yields were stored before the stop";

  args.push_back("--resume");
  Child again = spawn_cronista(args, (tmp / "w1-again.err").string());
  EXPECT_EQ(again.wait(), 0) << testing::read_file(tmp / "w1-again.err");
  EXPECT_EQ(count(db, "SELECT COUNT(*) FROM history"), kBudget);
  // The resumed worker's counts as its last claim stored them, summed over bands.
  auto h = (*c)->command({"HGETALL", key});
  ASSERT_TRUE(h.ok()) << h.status().message();
  std::int64_t fetched = 0;
  for (std::size_t i = 1; i < h->elements.size(); i += 2) fetched += std::stoll(h->elements[i].str);
  EXPECT_GE(fetched, before) << "the resumed worker's link yields started from zero";
  // Its record of title words, too: the resumed run learnt the titles of
  // every page judged, those before the stop among them.
  EXPECT_EQ(titles_learnt((tmp / "w1-again.err").string()),
            count(db, "SELECT COUNT(*) FROM pages WHERE relevant IS NOT NULL"));
}

// The topic signal of a temporal crawl is learnt from every worker's pages:
// each worker's record of title words learns the title of every page whose
// relevance any worker judged, its own and the others' (a worker ends only
// once no URL is in flight, so every title has been told by then). Alone,
// each would learn only from its own pages.
TEST_F(SharedCrawlWorkers, TemporalWorkersLearnTheTitleWordsOfEveryWorkersPages) {
  const std::vector<std::string> names = {"w1", "w2"};
  std::vector<Child> workers;
  for (const auto& n : names) {
    auto args = worker_args(tmp, web, redis, n, "titulos", 0);
    for (std::size_t i = 0; i + 1 < args.size(); ++i)
      if (args[i] == "--mode") args[i + 1] = "temporal";
    workers.push_back(spawn_cronista(args, (tmp / (n + ".err")).string()));
  }
  expect_clean_exits(tmp, workers, names);
  std::int64_t judged = 0, own_most = 0;
  for (const auto& n : names) {
    const std::int64_t own = count((tmp / (n + ".db")).string(), "SELECT COUNT(*) FROM pages WHERE relevant IS NOT NULL");
    judged += own;
    own_most = std::max(own_most, own);
  }
  ASSERT_GT(judged, own_most) << "one worker judged every page: nothing to share";
  for (const auto& n : names) EXPECT_EQ(titles_learnt((tmp / (n + ".err")).string()), judged) << n;
}

// A page's title goes to the crawl's log of titles cut to its first 1,024
// bytes, at a character boundary: a page with a 300 kB title (Portuguese,
// two-byte characters) does not put 300 kB in Redis for every worker.
TEST_F(SharedCrawlWorkers, AHugeTitleReachesTheLogOfTitlesCutAtACharacterBoundary) {
  std::string huge;
  while (huge.size() < 300000) huge += "Ação em 1942 — ";
  web.sites[0]->page("/titulo-enorme", html("<p>Em março de 1942 o porto reabriu.</p>", huge));
  auto args = worker_args(tmp, web, redis, "w1", "enorme", 0);
  for (std::size_t i = 0; i + 1 < args.size(); ++i)
    if (args[i] == "--mode") args[i + 1] = "temporal";
  args.push_back(web.sites[0]->url("/titulo-enorme"));
  Child w = spawn_cronista(args, (tmp / "w1.err").string());
  ASSERT_EQ(w.wait(), 0) << testing::read_file(tmp / "w1.err");
  auto addr = shared_frontier::parse_redis_address(redis.uri());
  ASSERT_TRUE(addr.ok());
  auto c = shared_frontier::RedisConnection::open(*addr, 2000);
  ASSERT_TRUE(c.ok()) << c.status().message();
  auto log = (*c)->command({"LRANGE", "cronista:enorme:titles", "0", "-1"});
  ASSERT_TRUE(log.ok()) << log.status().message();
  EXPECT_EQ(static_cast<std::int64_t>(log->elements.size()),
            count((tmp / "w1.db").string(), "SELECT COUNT(*) FROM pages WHERE relevant IS NOT NULL"));
  std::size_t cut = 0;
  for (const auto& e : log->elements) {
    ASSERT_FALSE(e.str.empty());
    const std::string title = e.str.substr(1);
    EXPECT_LE(title.size(), 1024u);
    if (title.size() < 1000) continue;
    ++cut;
    EXPECT_EQ(huge.compare(0, title.size(), title), 0) << "not the title's beginning";
    EXPECT_NE(static_cast<unsigned char>(huge[title.size()]) & 0xC0, 0x80) << "cut inside a character";
  }
  EXPECT_EQ(cut, 1u);
}

TEST_F(SharedCrawlWorkers, AWorkerJoiningASpentCrawlEndsCleanlyWithNothingKept) {
  auto first = spawn_workers(tmp, web, redis, {"w1"}, "gasta", 5);
  expect_clean_exits(tmp, first, {"w1"});
  EXPECT_EQ(count((tmp / "w1.db").string(), "SELECT COUNT(*) FROM history"), 5);
  auto late = spawn_workers(tmp, web, redis, {"w2"}, "gasta", 5);
  expect_clean_exits(tmp, late, {"w2"});
  const std::string err = testing::read_file(tmp / "w2.err");
  EXPECT_NE(err.find("crawl 'gasta' ended (max-pages) with nothing left for this worker to download"),
            std::string::npos) << err;
  EXPECT_FALSE(std::filesystem::exists(tmp / "w2.db"));
}

TEST_F(SharedCrawlWorkers, AWorkerGivenAnotherRateGapOrPeriodThanTheCrawlsIsRefusedWithNothingKept) {
  auto with = [&](const std::string& name, std::vector<std::string> extra) {
    auto args = worker_args(tmp, web, redis, name, "acordo", 6);
    args.insert(args.end(), extra.begin(), extra.end());
    return args;
  };
  auto first = testing::run_cronista(with("w1", {"--fetch-rate", "50"}));
  ASSERT_EQ(first.exit_code, 0) << first.err;

  // Another rate: refused before anything is fetched or created.
  auto rate = testing::run_cronista(with("w2", {"--fetch-rate", "80"}));
  EXPECT_EQ(rate.exit_code, 2) << rate.err;
  EXPECT_NE(rate.err.find("--fetch-rate 80 (the crawl's: 50)"), std::string::npos) << rate.err;
  EXPECT_EQ(std::count(rate.err.begin(), rate.err.end(), '\n'), 1) << rate.err;
  EXPECT_FALSE(std::filesystem::exists(tmp / "w2.db"));

  // Another gap and period at once: both named.
  auto args = with("w3", {"--fetch-rate", "50"});
  args[2] = "1940";  // --from
  for (std::size_t i = 0; i + 1 < args.size(); ++i)
    if (args[i] == "--delay-ms") args[i + 1] = std::to_string(kDelayMs + 5);
  auto gap = testing::run_cronista(args);
  EXPECT_EQ(gap.exit_code, 2) << gap.err;
  EXPECT_NE(gap.err.find("--delay-ms " + std::to_string(kDelayMs + 5) + " (the crawl's: " + std::to_string(kDelayMs) + ")"),
            std::string::npos) << gap.err;
  EXPECT_NE(gap.err.find("--from/--to 1940-01-01..1945-12-31 (the crawl's: 1939-01-01..1945-12-31)"),
            std::string::npos) << gap.err;
  EXPECT_FALSE(std::filesystem::exists(tmp / "w3.db"));

  // The same settings join (the budget was spent: nothing left to do).
  auto same = testing::run_cronista(with("w4", {"--fetch-rate", "50"}));
  EXPECT_EQ(same.exit_code, 0) << same.err;
  EXPECT_EQ(count((tmp / "w1.db").string(), "SELECT COUNT(*) FROM history"), 6);
}

TEST_F(SharedCrawlWorkers, ASecondCrawlIdInTheSameRedisDoesNotInterfere) {
  auto a = testing::run_cronista(worker_args(tmp, web, redis, "a", "primeiro", 20));
  ASSERT_EQ(a.exit_code, 0) << a.err;
  auto b = testing::run_cronista(worker_args(tmp, web, redis, "b", "segundo", 30));
  ASSERT_EQ(b.exit_code, 0) << b.err;
  // The second crawl saw nothing of the first: its own budget, the same seeds again.
  EXPECT_EQ(count((tmp / "a.db").string(), "SELECT COUNT(*) FROM history"), 20);
  EXPECT_EQ(count((tmp / "b.db").string(), "SELECT COUNT(*) FROM history"), 30);
  const auto hb = rows((tmp / "b.db").string(), "SELECT url FROM history");
  for (const auto& seed : web.seeds()) EXPECT_NE(std::find(hb.begin(), hb.end(), seed), hb.end()) << seed;
}

// The integer a merged query answers.
std::int64_t merged_count(store::Database& db, const std::string& sql) {
  auto st = db.prepare(sql);
  EXPECT_TRUE(st.ok()) << sql;
  if (!st.ok() || !st->step()) return -1;
  return st->column_int(0);
}

TEST_F(SharedCrawlWorkers, TheShardsOfOneCrawlReadAsOneInDownloadOrderAcrossShards) {
  const int budget = 50;
  const std::vector<std::string> names = {"w1", "w2"};
  auto workers = spawn_workers(tmp, web, redis, names, "um", budget);
  expect_clean_exits(tmp, workers, names);
  const std::string a = (tmp / "w1.db").string(), b = (tmp / "w2.db").string();
  ASSERT_GT(count(a, "SELECT COUNT(*) FROM history"), 0);
  ASSERT_GT(count(b, "SELECT COUNT(*) FROM history"), 0);

  auto db = crawler::open_shards({a, b});
  ASSERT_TRUE(db.ok()) << db.status().message();
  // Every row of both shards, hosts once per authority.
  for (const std::string table : {"pages", "history", "documents", "segments", "expressions", "chronons", "links", "runs"})
    EXPECT_EQ(merged_count(*db, "SELECT COUNT(*) FROM " + table),
              count(a, "SELECT COUNT(*) FROM " + table) + count(b, "SELECT COUNT(*) FROM " + table))
        << table;
  EXPECT_EQ(merged_count(*db, "SELECT COUNT(*) FROM history"), budget);
  EXPECT_EQ(merged_count(*db, "SELECT COUNT(*) FROM hosts"), kSites);
  EXPECT_EQ(merged_count(*db, "SELECT COUNT(DISTINCT authority) FROM hosts"), kSites);
  // The downloads in the order of their fetch times, whichever shard holds them.
  for (const std::string next : {"history h JOIN history g ON g.seq = h.seq + 1", "pages h JOIN pages g ON g.id = h.id + 1"})
    EXPECT_EQ(merged_count(*db, "SELECT COUNT(*) FROM " + next + " WHERE g.fetched_at < h.fetched_at"), 0) << next;
  // References followed across the renumbering: each download's page, each page's document and host.
  EXPECT_EQ(merged_count(*db, "SELECT COUNT(*) FROM history h JOIN pages p ON p.id = h.page_id AND p.url = h.url"),
            budget);
  EXPECT_EQ(merged_count(*db, "SELECT COUNT(*) FROM pages p JOIN documents d ON d.id = p.document_id"),
            count(a, "SELECT COUNT(*) FROM pages WHERE document_id IS NOT NULL") +
                count(b, "SELECT COUNT(*) FROM pages WHERE document_id IS NOT NULL"));
  EXPECT_EQ(merged_count(*db, "SELECT COUNT(*) FROM pages p JOIN urls u ON u.id = p.url_id JOIN hosts h ON h.id = "
                              "u.host_id WHERE p.url LIKE h.origin || '%'"),
            count(a, "SELECT COUNT(*) FROM pages WHERE url_id IS NOT NULL") +
                count(b, "SELECT COUNT(*) FROM pages WHERE url_id IS NOT NULL"));

  // More shards than SQLite attaches at once (10): eleven copies of one.
  std::vector<std::string> copies;
  for (int i = 0; i < 11; ++i) {
    copies.push_back((tmp / ("copia" + std::to_string(i) + ".db")).string());
    std::filesystem::copy_file(a, copies.back());
  }
  auto eleven = crawler::open_shards(copies);
  ASSERT_TRUE(eleven.ok()) << eleven.status().message();
  EXPECT_EQ(merged_count(*eleven, "SELECT COUNT(*) FROM history"), 11 * count(a, "SELECT COUNT(*) FROM history"));
  EXPECT_EQ(merged_count(*eleven, "SELECT COUNT(*) FROM hosts"), count(a, "SELECT COUNT(*) FROM hosts"));

  // `report` over both shards: the crawl's counts are the sums of the shards'.
  auto json_report = [&](const std::vector<std::string>& dbs) {
    std::vector<std::string> args = {"report", "--format", "json"};
    for (const auto& d : dbs) args.insert(args.end(), {"--db", d});
    auto r = testing::run_cronista(args);
    EXPECT_EQ(r.exit_code, 0) << r.err;
    return nlohmann::json::parse(r.out, nullptr, false);
  };
  const auto both = json_report({a, b}), ja = json_report({a}), jb = json_report({b});
  ASSERT_FALSE(both.is_discarded());
  auto figure = [](const nlohmann::json& j, const std::string& row) {
    const auto& cells = j.at("8.2").at(row);
    return cells.begin()->get<double>();
  };
  for (const std::string row : {"pages downloaded", "relevant pages", "segments", "segments in scope", "links"})
    EXPECT_EQ(figure(both, row), figure(ja, row) + figure(jb, row)) << row;
  EXPECT_EQ(figure(both, "pages downloaded"), budget);

  // Shards of another crawl are refused with one line, and so is another period.
  auto other = testing::run_cronista(worker_args(tmp, web, redis, "outro", "dois", 5));
  ASSERT_EQ(other.exit_code, 0) << other.err;
  auto refused = testing::run_cronista({"report", "--db", a, "--db", (tmp / "outro.db").string()});
  EXPECT_EQ(refused.exit_code, 1);
  EXPECT_TRUE(refused.out.empty());
  EXPECT_NE(refused.err.find("shards of different crawls"), std::string::npos) << refused.err;
  EXPECT_EQ(std::count(refused.err.begin(), refused.err.end(), '\n'), 1) << refused.err;
  std::filesystem::copy_file(b, tmp / "later.db");
  {
    auto w = store::Database::open((tmp / "later.db").string());
    ASSERT_TRUE(w.ok());
    ASSERT_TRUE(w->exec("UPDATE runs SET period_from = '1950'").ok());
  }
  auto period = crawler::open_shards({a, (tmp / "later.db").string()});
  ASSERT_FALSE(period.ok());
  EXPECT_NE(period.status().message().find("shards of different crawls"), std::string::npos)
      << period.status().message();
}

TEST(SharedCrawlStart, AnUnreachableRedisIsAOneLineErrorAndExit1WithNothingCreated) {
  Web web;
  TempDir tmp;
  std::vector<std::string> args = {"crawl", "--from", "1939", "--to", "1945", "--db", (tmp / "w.db").string(),
                                   "--frontier", "unix://" + (tmp / "nenhum.sock").string(), "--crawl-id", "x",
                                   web.sites[0]->url("/")};
  auto r = testing::run_cronista(args);
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_EQ(testing::count_lines(r.err), 1) << r.err;
  EXPECT_NE(r.err.find("nenhum.sock"), std::string::npos) << r.err;
  EXPECT_FALSE(std::filesystem::exists(tmp / "w.db"));
  // --frontier without --crawl-id is a usage error.
  args.resize(args.size() - 3);
  args.push_back(web.sites[0]->url("/"));
  EXPECT_EQ(testing::run_cronista(args).exit_code, 2);
}

// Replica detection moves URLs between hosts from what one crawl has seen; a
// worker sees only its shard, so a shared crawl does not detect, and asking
// for it is a usage error (before Redis is reached).
TEST(SharedCrawlStart, ReplicaDetectionIsRefusedWithASharedFrontier) {
  Web web;
  TempDir tmp;
  const std::vector<std::string> args = {"crawl", "--from", "1939", "--to", "1945", "--db", (tmp / "w.db").string(),
                                         "--frontier", "unix://" + (tmp / "nenhum.sock").string(), "--crawl-id", "x",
                                         "--replicas", "detect", web.sites[0]->url("/")};
  auto r = testing::run_cronista(args);
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_EQ(testing::count_lines(r.err), 1) << r.err;
  EXPECT_NE(r.err.find("--replicas detect"), std::string::npos) << r.err;
  EXPECT_FALSE(std::filesystem::exists(tmp / "w.db"));
}

// ---- revisits in a shared crawl ----

constexpr int kRevisitDelayMs = 100;

// Two sites whose pages are revisited: on each, an index linking its pages
// and the other site, "/muda/N" pages whose main text changes at every
// request, and "/fixa/N" pages with an ETag that answer 304 to it. Every
// request is noted with its If-None-Match.
struct ChangingWeb {
  static constexpr int kEach = 2;  // pages of each kind per site
  struct Seen {
    std::string url, if_none_match;
  };
  std::vector<std::unique_ptr<Site>> sites;
  std::mutex mu;
  std::vector<Seen> seen;
  int edition = 0;

  ChangingWeb() {
    for (int s = 0; s < 2; ++s) {
      sites.push_back(std::make_unique<Site>());
      Site& site = *sites.back();
      site.http().Get(R"(/muda/(\d+))", [this, &site](const httplib::Request& req, httplib::Response& res) {
        int n = 0;
        {
          std::lock_guard lk(mu);
          seen.push_back({site.url(req.path), req.get_header_value("If-None-Match")});
          n = ++edition;
        }
        res.set_content(html("<p>Edição " + std::to_string(n) + ": em março de 1942 o porto do Funchal reabriu.</p>"),
                        "text/html; charset=utf-8");
      });
      site.http().Get(R"(/fixa/(\d+))", [this, &site](const httplib::Request& req, httplib::Response& res) {
        const std::string etag = "\"fixa-" + req.matches[1].str() + "\"";
        {
          std::lock_guard lk(mu);
          seen.push_back({site.url(req.path), req.get_header_value("If-None-Match")});
        }
        res.set_header("ETag", etag);
        if (req.get_header_value("If-None-Match") == etag) {
          res.status = 304;
          return;
        }
        res.set_content(html("<p>Em 1942 a fábrica de conservas fechou. Página " + req.matches[1].str() + ".</p>"),
                        "text/html; charset=utf-8");
      });
      site.start();
    }
    for (int s = 0; s < 2; ++s) {
      std::string index = "<a href=\"" + sites[1 - s]->url("/") + "\">outro sítio</a> ";
      for (int i = 0; i < kEach; ++i)
        index += "<a href=\"/muda/" + std::to_string(i) + "\">Notícia de 1942</a> <a href=\"/fixa/" +
                 std::to_string(i) + "\">Arquivo de 1942</a> ";
      sites[s]->page("/", html("<p>" + index + "</p>"));
    }
  }
  std::vector<std::string> urls() const {
    std::vector<std::string> out;
    for (const auto& s : sites) {
      out.push_back(s->url("/"));
      for (int i = 0; i < kEach; ++i) {
        out.push_back(s->url("/muda/" + std::to_string(i)));
        out.push_back(s->url("/fixa/" + std::to_string(i)));
      }
    }
    return out;
  }
  // Requests of `url` without If-None-Match.
  std::size_t unconditional(const std::string& url) {
    std::lock_guard lk(mu);
    return static_cast<std::size_t>(
        std::count_if(seen.begin(), seen.end(), [&](const Seen& x) { return x.url == url && x.if_none_match.empty(); }));
  }
  // The smallest gap between two requests at one site, and which two they were.
  milliseconds smallest_gap(std::string* which = nullptr) const {
    milliseconds least = milliseconds::max();
    for (const auto& s : sites) {
      const auto log = s->server().log();
      for (std::size_t i = 1; i < log.size(); ++i) {
        const auto gap = std::chrono::duration_cast<milliseconds>(log[i].at - log[i - 1].at);
        if (gap >= least) continue;
        least = gap;
        if (which) *which = s->url(log[i - 1].path) + " then " + log[i].path;
      }
    }
    return least;
  }
};

std::vector<std::string> revisit_worker_args(const TempDir& tmp, const ChangingWeb& web,
                                             const testing::RedisServer& redis, const std::string& name,
                                             const std::string& run_for, const std::string& lease_ms = "400") {
  return {"crawl", "--from", "1939", "--to", "1945", "--mode", "general", "--db", (tmp / (name + ".db")).string(),
          "--delay-ms", std::to_string(kRevisitDelayMs), "--connections", "2", "--quiet", "--frontier", redis.uri(),
          "--crawl-id", "frescura", "--lease-ms", lease_ms, "--revisit", "--run-for", run_for,
          web.sites[0]->url("/")};
}

// Revisits of each URL in one shard.
std::map<std::string, std::int64_t> revisits_in(const std::string& db) {
  std::map<std::string, std::int64_t> out;
  try {
    for (const auto& url : rows(db, "SELECT url FROM pages WHERE revisit = 1")) ++out[url];
  } catch (const std::exception&) {  // not created yet
  }
  return out;
}

class SharedRevisitWorkers : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!redis.available() || !redis.running()) GTEST_SKIP() << "redis-server is not installed";
  }
  testing::RedisServer redis;
  ChangingWeb web;
  TempDir tmp;
};

// Two workers keep one collection fresh: each page is downloaded once and
// then revisited by whichever worker claims it, with the validators the
// last visit left (a page with an ETag is asked unconditionally once in
// the whole crawl), changes are found, and no host sees two requests closer
// than the delay (so no page is revisited twice at once).
TEST_F(SharedRevisitWorkers, TwoWorkersRevisitEveryPageConditionallyAndKeepEachHostsGap) {
  const std::vector<std::string> names = {"w1", "w2"};
  std::vector<Child> workers;
  for (const auto& n : names)
    // No worker dies here: leases long enough that no stall of a slow
    // machine (a sanitizer build) outlasts one, which would free a host
    // held by a worker still fetching it.
    workers.push_back(
        spawn_cronista(revisit_worker_args(tmp, web, redis, n, "8s", "5000"), (tmp / (n + ".err")).string()));
  expect_clean_exits(tmp, workers, names);

  // Each page downloaded once (the conventional /sitemap.xml of each site is asked too).
  const auto all = history(tmp, names);
  EXPECT_EQ(std::set<std::string>(all.begin(), all.end()).size(), all.size()) << "a URL downloaded twice";
  for (const auto& url : web.urls()) EXPECT_EQ(std::count(all.begin(), all.end(), url), 1) << url;
  auto r1 = revisits_in((tmp / "w1.db").string()), r2 = revisits_in((tmp / "w2.db").string());
  EXPECT_FALSE(r1.empty());
  EXPECT_FALSE(r2.empty());
  std::size_t by_the_other = 0;  // revisits of a page the other worker downloaded
  const auto h1 = rows((tmp / "w1.db").string(), "SELECT url FROM history");
  for (const auto& url : web.urls()) {
    EXPECT_GE(r1[url] + r2[url], 2) << url << " not revisited";
    by_the_other += std::count(h1.begin(), h1.end(), url) ? r2[url] : r1[url];
  }
  EXPECT_GT(by_the_other, 0u);
  for (const auto& s : web.sites)
    for (int i = 0; i < ChangingWeb::kEach; ++i)
      EXPECT_EQ(web.unconditional(s->url("/fixa/" + std::to_string(i))), 1u) << "the ETag did not travel";
  for (const auto& n : names) {
    const std::string db = (tmp / (n + ".db")).string();
    EXPECT_EQ(count(db, "SELECT COUNT(*) FROM pages WHERE revisit = 1 AND url LIKE '%/fixa/%' AND status <> 304"), 0);
    EXPECT_EQ(rows(db, "SELECT end_reason FROM runs"), std::vector<std::string>{"run-for"});
  }
  EXPECT_GT(count((tmp / "w1.db").string(), "SELECT COUNT(*) FROM pages WHERE changed = 1") +
                count((tmp / "w2.db").string(), "SELECT COUNT(*) FROM pages WHERE changed = 1"),
            0);
  std::string which;
  EXPECT_GE(web.smallest_gap(&which), milliseconds(kRevisitDelayMs)) << which;
}

// A worker killed with -9 loses no revisit: its pages' due times live in
// Redis, and once it is declared dead the other revisits every page of the
// collection, its own and the dead one's (those it held come back); the
// killed worker rejoins with --resume and revisits again. Each worker runs
// until its database shows what is awaited (or a deadline), then is stopped
// with SIGTERM, however slow the machine.
TEST_F(SharedRevisitWorkers, AWorkerKilledWithMinus9LeavesItsRevisitsToTheOtherAndRejoins) {
  auto args1 = revisit_worker_args(tmp, web, redis, "w1", "300s");
  const std::string db1 = (tmp / "w1.db").string(), db2 = (tmp / "w2.db").string();
  auto revisited = [](const std::map<std::string, std::int64_t>& m) {
    std::int64_t n = 0;
    for (const auto& [url, k] : m) n += k;
    return n;
  };
  // Polls until `done` or the deadline.
  auto await = [](const std::function<bool()>& done, std::chrono::seconds limit) {
    const auto deadline = std::chrono::steady_clock::now() + limit;
    while (!done() && std::chrono::steady_clock::now() < deadline) std::this_thread::sleep_for(milliseconds(50));
  };
  Child w1 = spawn_cronista(args1, (tmp / "w1.err").string());
  // The second worker starts once the first has downloaded a page, so that
  // the first has pages of its own to leave behind however slowly it starts.
  await([&] { return std::filesystem::exists(db1) && !rows(db1, "SELECT url FROM history").empty(); },
        std::chrono::seconds(60));
  Child w2 = spawn_cronista(revisit_worker_args(tmp, web, redis, "w2", "300s"), (tmp / "w2.err").string());
  await([&] { return revisited(revisits_in(db1)) >= 3; }, std::chrono::seconds(60));
  ::kill(w1.pid, SIGKILL);
  EXPECT_EQ(w1.wait(), 128 + SIGKILL);
  const auto before = revisits_in(db2);
  const auto downloaded_by_w1 = rows(db1, "SELECT url FROM history");
  ASSERT_FALSE(downloaded_by_w1.empty());
  auto revisited_since = [&](const std::string& url, const std::map<std::string, std::int64_t>& now) {
    const auto b = before.count(url) ? before.at(url) : 0;
    const auto a = now.count(url) ? now.at(url) : 0;
    return a > b;
  };
  await(
      [&] {
        const auto now = revisits_in(db2);
        const auto urls = web.urls();
        return std::all_of(urls.begin(), urls.end(), [&](const std::string& u) { return revisited_since(u, now); });
      },
      std::chrono::seconds(120));
  ::kill(w2.pid, SIGTERM);
  EXPECT_EQ(w2.wait(), 128 + SIGTERM) << testing::read_file(tmp / "w2.err");
  const auto after = revisits_in(db2);
  for (const auto& url : web.urls()) EXPECT_TRUE(revisited_since(url, after)) << url << " not revisited after the kill";
  const auto all = history(tmp, {"w1", "w2"});
  for (const auto& url : web.urls()) EXPECT_GE(std::count(all.begin(), all.end(), url), 1) << url;
  // It rejoins under its own name and revisits again.
  const auto own_before = revisited(revisits_in(db1));
  args1.push_back("--resume");
  Child again = spawn_cronista(args1, (tmp / "w1-again.err").string());
  await([&] { return revisited(revisits_in(db1)) > own_before; }, std::chrono::seconds(120));
  ::kill(again.pid, SIGTERM);
  EXPECT_EQ(again.wait(), 128 + SIGTERM) << testing::read_file(tmp / "w1-again.err");
  EXPECT_GT(revisited(revisits_in(db1)), own_before);
  std::string which;
  EXPECT_GE(web.smallest_gap(&which), milliseconds(kRevisitDelayMs)) << which;
}

// --fetch-rate is the crawl's: two workers given the same rate R share one
// pacer in Redis, so that together they send no more than R·t + burst page
// requests in t seconds (counted at the sites; t the time the workers ran,
// which holds every slot taken), and more than one worker paced alone at
// R/2 could (R/2·t + its burst): the rate is neither doubled by two workers
// nor halved by one that has nothing due. The uniform policy spends the
// whole budget on the collection, so that requests wait for the rate.
TEST_F(SharedRevisitWorkers, TwoWorkersGivenOneRateSendNoMoreThanItTogetherAndMoreThanHalfOfIt) {
  constexpr double kRate = 6;
  constexpr double kBurst = 2;  // the bucket holds a second of the rate, at most two requests
  const std::vector<std::string> names = {"w1", "w2"};
  const auto started = std::chrono::steady_clock::now();
  std::vector<Child> workers;
  for (const auto& n : names) {
    auto args = revisit_worker_args(tmp, web, redis, n, "10s", "5000");
    for (const char* a : {"--fetch-rate", "6", "--revisit-policy", "uniform"}) args.push_back(a);
    workers.push_back(spawn_cronista(args, (tmp / (n + ".err")).string()));
  }
  expect_clean_exits(tmp, workers, names);
  const double t = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  std::size_t sent = 0;
  for (const auto& s : web.sites)
    for (const auto& p : s->server().paths())
      if (p != "/robots.txt") ++sent;
  EXPECT_LE(static_cast<double>(sent), kRate * t + kBurst) << sent << " requests in " << t << " s";
  EXPECT_GT(static_cast<double>(sent), kRate / 2 * t + kBurst) << sent << " requests in " << t << " s";
  // Both took part, and each host's gap held.
  EXPECT_FALSE(revisits_in((tmp / "w1.db").string()).empty());
  EXPECT_FALSE(revisits_in((tmp / "w2.db").string()).empty());
  std::string which;
  EXPECT_GE(web.smallest_gap(&which), milliseconds(kRevisitDelayMs)) << which;
}

// A site whose robots.txt, kept a second (Cache-Control: max-age=1),
// forbids /fechado once it has served it; it links to `other`'s pages.
struct ClosingSite {
  Site site;
  std::mutex mu;
  std::vector<std::string> order;  // paths as served; "robots:forbids" for the new rules
  bool closed = false;
  int edition = 0;
  void start() {
    site.http().Get("/robots.txt", [this](const httplib::Request&, httplib::Response& res) {
      std::lock_guard lk(mu);
      order.push_back(closed ? "robots:forbids" : "robots:allows");
      res.set_header("Cache-Control", "max-age=1");
      res.set_content(closed ? "User-agent: *\nDisallow: /fechado\n" : "User-agent: *\nAllow: /\n", "text/plain");
    });
    site.http().Get("/(|aberto|fechado)", [this](const httplib::Request& req, httplib::Response& res) {
      std::lock_guard lk(mu);
      order.push_back(req.path);
      if (req.path == "/fechado") closed = true;
      res.set_content(html("<p>Edição " + std::to_string(++edition) + ": em março de 1942 o porto reabriu. " + links +
                           "</p>"),
                      "text/html; charset=utf-8");
    });
    site.start();
  }
  std::string links;
};

// The same across two workers of a shared crawl, one robots.txt read by a
// worker kept by the other only as long as it is left of its second: at
// each site, after the first robots.txt that forbids /fechado, at most one
// request for it per worker (sent while the old rules still held).
TEST(SharedCrawlRobots, APageRobotsTxtForbidsAfterItsFirstVisitIsNotRevisitedByAnyWorker) {
  testing::RedisServer redis;
  if (!redis.available() || !redis.running()) GTEST_SKIP() << "redis-server is not installed";
  ClosingSite a, b;
  a.links = "<a href=\"/aberto\">aberto</a> <a href=\"/fechado\">fechado</a>";
  b.links = a.links;
  a.start();
  b.start();
  for (auto [s, other] : {std::pair{&a, &b}, std::pair{&b, &a}}) {
    std::lock_guard lk(s->mu);
    s->links += " <a href=\"" + other->site.url("/") + "\">outro</a>";
  }
  TempDir tmp;
  const std::vector<std::string> names = {"w1", "w2"};
  std::vector<Child> workers;
  for (const auto& n : names)
    workers.push_back(spawn_cronista(
        {"crawl", "--from", "1939", "--to", "1945", "--mode", "general", "--db", (tmp / (n + ".db")).string(),
         "--delay-ms", "20", "--connections", "2", "--quiet", "--frontier", redis.uri(), "--crawl-id", "regras",
         "--lease-ms", "400", "--revisit", "--revisit-policy", "uniform", "--run-for", "5s", "--fetch-rate", "20",
         a.site.url("/")},
        (tmp / (n + ".err")).string()));
  expect_clean_exits(tmp, workers, names);
  for (ClosingSite* s : {&a, &b}) {
    std::lock_guard lk(s->mu);
    const auto forbids = std::find(s->order.begin(), s->order.end(), "robots:forbids");
    ASSERT_NE(forbids, s->order.end()) << s->site.url("/") << ": robots.txt was not read again";
    EXPECT_GE(std::count(s->order.begin(), forbids, "/fechado"), 1);
    EXPECT_LE(std::count(forbids, s->order.end(), "/fechado"), 2) << s->site.url("/");
    EXPECT_GE(std::count(forbids, s->order.end(), "/aberto"), 2) << s->site.url("/");
  }
}

// A worker that reads a host's robots.txt from the shared frontier (another
// worker fetched it) sent no request for it: its first request to the host
// goes as soon as the shared frontier leases it the host, not one more gap
// later. Here the first worker fetches robots.txt and the index and leaves;
// the second fetches the article. At the server's clock the article follows
// the index by the gap, not by two (a bound with half a gap of room each way,
// the gap being long).
TEST(SharedCrawlRobots, AWorkerWhoseRobotsTxtCameFromTheCrawlTakesTheHostsGapOnce) {
  testing::RedisServer redis;
  if (!redis.available() || !redis.running()) GTEST_SKIP() << "redis-server is not installed";
  constexpr int kDelay = 4000;
  testing::StampingServer server({{"/", html("<p><a href=\"/artigo/0\">Notícia de 1942</a></p>")},
                                  {"/artigo/0", html("<p>Em março de 1942 o porto reabriu.</p>")}});
  TempDir tmp;
  auto args = [&](const std::string& name) {
    return std::vector<std::string>{"crawl", "--from", "1939", "--to", "1945", "--mode", "general", "--db",
                                    (tmp / (name + ".db")).string(), "--delay-ms", std::to_string(kDelay),
                                    "--quiet", "--frontier", redis.uri(), "--crawl-id", "leitura",
                                    "--lease-ms", "10000", server.url("/")};
  };
  auto first_args = args("w1");
  first_args.insert(first_args.end(), {"--max-fetches", "1"});
  Child first = spawn_cronista(first_args, (tmp / "w1.err").string());
  ASSERT_EQ(first.wait(), 0) << testing::read_file(tmp / "w1.err");
  Child second = spawn_cronista(args("w2"), (tmp / "w2.err").string());
  ASSERT_EQ(second.wait(), 0) << testing::read_file(tmp / "w2.err");
  EXPECT_EQ(rows((tmp / "w1.db").string(), "SELECT url FROM history"), std::vector<std::string>{server.url("/")});
  EXPECT_EQ(rows((tmp / "w2.db").string(), "SELECT url FROM history"),
            std::vector<std::string>{server.url("/artigo/0")});
  const auto arrivals = server.arrivals();
  EXPECT_EQ(server.unstamped(), 0);
  ASSERT_EQ(arrivals.size(), 3u);  // robots.txt once, for both workers
  EXPECT_EQ(arrivals[0].path, "/robots.txt");
  EXPECT_EQ(arrivals[2].path, "/artigo/0");
  const auto gap = std::chrono::duration_cast<milliseconds>(arrivals[2].at - arrivals[1].at);
  EXPECT_GE(gap.count(), kDelay - 1);
  EXPECT_LT(gap.count(), kDelay * 3 / 2) << "the host's gap was taken twice";
}

}  // namespace
}  // namespace cronista::crawler
