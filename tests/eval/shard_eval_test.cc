// eval-crawl over the shards of one shared crawl: two real workers against a
// real redis-server crawl a sample web on loopback; their databases, given
// with --order-db, are one run in the order of the fetch times.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <set>

#include <sys/wait.h>

#include "eval/crawl_eval.h"
#include "redis_server.h"
#include "served_sample_web.h"
#include "test_support.h"

namespace cronista::eval {
namespace {

using cronista::testing::run_cronista;
using cronista::testing::TempDir;

TEST(ShardEvaluation, TheShardsOfASharedCrawlAreOneRunInFetchOrder) {
  cronista::testing::RedisServer redis;
  if (!redis.available() || !redis.running()) GTEST_SKIP() << "redis-server is not installed";
  TempDir dir;
  auto server = cronista::testing::serve_sample_web(dir.path(), 200, 7);
  ASSERT_NE(server, nullptr);

  const std::string seeds = (dir / "web" / "seeds-1939-1945.txt").string();
  const int budget = 60;
  std::vector<pid_t> pids;
  for (const std::string w : {"w1", "w2"}) {
    const std::vector<std::string> args = {
        "crawl", "--from", "1939", "--to", "1945", "--seeds", seeds, "--db", (dir / (w + ".db")).string(),
        "--order-out", (dir / (w + ".txt")).string(), "--max-pages", std::to_string(budget), "--delay-ms", "20",
        "--quiet", "--frontier", redis.uri(), "--crawl-id", "avaliar"};
    pids.push_back(cronista::testing::start_cronista(args, "/dev/null", "/dev/null", (dir / (w + ".err")).string()));
  }
  for (std::size_t i = 0; i < pids.size(); ++i) {
    int status = 0;
    ::waitpid(pids[i], &status, 0);
    ASSERT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0)
        << cronista::testing::read_file(dir / ("w" + std::to_string(i + 1) + ".err"));
  }
  server->stop();

  EvalCrawlOptions o;
  o.truth_path = (dir / "web" / "truth.jsonl").string();
  o.scope = "1939-1945";
  o.oracle = false;
  o.order_paths = {(dir / "w1.txt").string(), (dir / "w2.txt").string()};
  o.order_dbs = {(dir / "w1.db").string(), (dir / "w2.db").string()};
  o.db_paths = o.order_dbs;
  auto e = evaluate_crawls(o);
  ASSERT_TRUE(e.ok()) << e.status().message();
  ASSERT_EQ(e->runs.size(), 3u);
  const RunCurve &one = e->runs[0], &two = e->runs[1], &crawl = e->runs[2];
  EXPECT_EQ(crawl.name, "w1-3");  // the first database's name, taken by the order file w1 already
  // Every download of both workers, once, under the shared budget.
  EXPECT_EQ(crawl.pages(), static_cast<std::size_t>(budget));
  EXPECT_EQ(crawl.pages(), one.pages() + two.pages());
  std::multiset<std::string> shards(one.lines.begin(), one.lines.end());
  shards.insert(two.lines.begin(), two.lines.end());
  EXPECT_EQ(std::multiset<std::string>(crawl.lines.begin(), crawl.lines.end()), shards);
  EXPECT_EQ(crawl.relevant(), one.relevant() + two.relevant());
  // On one clock: the seconds never go back, and both workers' downloads interleave.
  ASSERT_EQ(crawl.seconds.size(), crawl.pages());
  EXPECT_TRUE(std::is_sorted(crawl.seconds.begin(), crawl.seconds.end()));
  const std::set<std::string> first(one.lines.begin(), one.lines.end());
  std::size_t switches = 0;
  for (std::size_t i = 1; i < crawl.lines.size(); ++i)
    switches += first.count(crawl.lines[i]) != first.count(crawl.lines[i - 1]);
  EXPECT_GE(switches, 2u) << "one worker's downloads all came before the other's";
  // The crawler's judgement is read from both shards: at least each one's, at most their sum.
  std::vector<int> judged;
  for (const auto& shard : o.order_dbs) {
    EvalCrawlOptions single = o;
    single.order_dbs = {shard};
    single.db_paths = {shard};
    auto s = evaluate_crawls(single);
    ASSERT_TRUE(s.ok()) << s.status().message();
    EXPECT_GT(s->db_pages_judged, 0) << shard;
    judged.push_back(s->db_pages_judged);
  }
  EXPECT_LE(e->db_pages_judged, judged[0] + judged[1]);
  EXPECT_GT(e->db_pages_judged, std::max(judged[0], judged[1]));
}

}  // namespace
}  // namespace cronista::eval
