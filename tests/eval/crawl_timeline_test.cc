// eval-crawl on the time axis: the oracle's timed walk keeping every host
// busy at the politeness gap, the sample web's Crawl-delay, the time curves
// of runs whose order files carry crawling times (worked out by hand).
#include <gtest/gtest.h>

#include <filesystem>
#include <tuple>

#include "eval/crawl_eval.h"
#include "store/database.h"
#include "test_support.h"

namespace cronista::eval {
namespace {

using cronista::testing::TempDir;
using cronista::testing::write_file;

// Scope 1939-1945, seed a/s. s links a/a, a/r, b/1, b/2 from an in-scope
// paragraph and a/n from its footer; a/r redirects to b/3; a/x is
// disallowed. Relevant: s, a, b/1, b/3.
const char* kTruth = R"({"url":"http://a.example/s","status":200,"sections":[{"periods":[["1940-01-01","1940-12-31"]],"links":["http://a.example/a","http://a.example/r","http://b.example/1","http://b.example/2","http://a.example/x"]},{"periods":[["1941-01-01","1941-12-31"]],"boilerplate":true,"links":["http://a.example/n"]}]}
{"url":"http://a.example/a","status":200,"sections":[{"periods":[["1942-06-06","1942-06-06"]],"links":[]}]}
{"url":"http://a.example/r","status":301,"location":"http://b.example/3"}
{"url":"http://a.example/x","status":200,"disallowed":true,"sections":[{"periods":[["1941-01-01","1941-12-31"]],"links":[]}]}
{"url":"http://a.example/n","status":200,"sections":[{"periods":[["1943-01-01","1943-12-31"]],"links":[]}]}
{"url":"http://b.example/1","status":200,"sections":[{"periods":[["1944-01-01","1944-12-31"]],"links":[]}]}
{"url":"http://b.example/2","status":200,"sections":[{"periods":[["1950-01-01","1950-12-31"]],"links":[]}]}
{"url":"http://b.example/3","status":200,"sections":[{"periods":[["1945-01-01","1945-12-31"]],"links":[]}]}
)";

CrawlTruth load_truth(const TempDir& dir) {
  write_file(dir / "truth.jsonl", kTruth);
  auto t = CrawlTruth::load((dir / "truth.jsonl").string());
  EXPECT_TRUE(t.ok()) << t.status().message();
  return std::move(*t);
}

// The oracle's downloads against the expected (URL, seconds).
void expect_timeline(const std::vector<std::pair<std::string, double>>& t,
                     const std::vector<std::pair<std::string, double>>& expected) {
  ASSERT_EQ(t.size(), expected.size());
  for (std::size_t i = 0; i < t.size(); ++i) {
    EXPECT_EQ(t[i].first, expected[i].first) << i;
    EXPECT_NEAR(t[i].second, expected[i].second, 1e-9) << i;
  }
}

TEST(CrawlTimeline, TheOracleKeepsEveryHostBusyAtTheGap) {
  TempDir dir;
  const CrawlTruth truth = load_truth(dir);
  const auto scope = *parse_scope("1939-1945");
  // robots.txt at 0 on each host, then one request per host every 0.1 s:
  // s at 0.1 finds a, r, b/1, b/2 (x is never asked, n is furniture); b/1
  // at 0.1 (b's first slot), a at 0.2, b/2 at 0.2, the hop r at 0.3 finds
  // b/3, b/3 at 0.3.
  const auto t = oracle_timeline(truth, {"http://a.example/s"}, scope, 100, [](const std::string&) { return 0.1; });
  const std::vector<std::pair<std::string, double>> expected{{"http://a.example/s", 0.1},
                                                             {"http://b.example/1", 0.1},
                                                             {"http://a.example/a", 0.2},
                                                             {"http://b.example/2", 0.2},
                                                             {"http://b.example/3", 0.3}};
  expect_timeline(t, expected);
  // The horizon cuts it.
  EXPECT_EQ(oracle_timeline(truth, {"http://a.example/s"}, scope, 0.15, [](const std::string&) { return 0.1; }).size(),
            2u);
}

TEST(CrawlTimeline, TheOraclesGapRunsFromTheEndOfEachResponse) {
  TempDir dir;
  const CrawlTruth truth = load_truth(dir);
  const auto scope = *parse_scope("1939-1945");
  // Responses take 0.05 s, the gap is 0.1 s after each. robots.txt at 0
  // ends at 0.05: s at 0.15, answered at 0.2 with its links; b/1 at 0.2
  // (b's robots.txt ended at 0.05 + 0.1), a at 0.3, b/2 at 0.35, the hop r
  // at 0.45 finds b/3 at 0.5, b/3 at 0.5.
  const auto t = oracle_timeline(
      truth, {"http://a.example/s"}, scope, 100, [](const std::string&) { return 0.1; },
      [](const std::string&) { return 0.05; });
  const std::vector<std::pair<std::string, double>> expected{{"http://a.example/s", 0.15},
                                                             {"http://b.example/1", 0.2},
                                                             {"http://a.example/a", 0.3},
                                                             {"http://b.example/2", 0.35},
                                                             {"http://b.example/3", 0.5}};
  expect_timeline(t, expected);
}

// A crawl database holding pages with their transfer times (the columns
// eval-crawl reads).
void write_crawl_pages(const std::filesystem::path& path,
                       const std::vector<std::tuple<std::string, int, double>>& pages) {
  auto db = store::Database::open(path.string());
  ASSERT_TRUE(db.ok()) << db.status().message();
  ASSERT_TRUE(db->exec("CREATE TABLE pages (id INTEGER PRIMARY KEY, url TEXT NOT NULL, final_url TEXT NOT NULL, "
                       "status INTEGER NOT NULL, duration_ms REAL NOT NULL, relevant INTEGER)")
                  .ok());
  for (const auto& [url, status, ms] : pages) {
    auto st = db->prepare("INSERT INTO pages(url, final_url, status, duration_ms, relevant) VALUES (?, ?, ?, ?, 1)");
    ASSERT_TRUE(st.ok());
    ASSERT_TRUE(st->bind(1, url).bind(2, url).bind(3, status).bind(4, ms).run().ok());
  }
}

TEST(CrawlTimeline, TheCrawlsMeasuredResponseTimesPerHostGoToTheOracle) {
  TempDir dir;
  // Host a answered in 40 and 60 ms, b in 200 ms; a failed transfer
  // (status 0, a timeout) is no response time.
  write_crawl_pages(dir / "crawl.db", {{"http://a.example/s", 200, 40},
                                       {"http://a.example/a", 404, 60},
                                       {"http://b.example/1", 200, 200},
                                       {"http://b.example/2", 0, 30000}});
  double mean = -1;
  auto latency = crawl_latencies({(dir / "crawl.db").string()}, &mean);
  ASSERT_TRUE(latency.ok()) << latency.status().message();
  EXPECT_NEAR(mean, 0.1, 1e-9);
  EXPECT_NEAR((*latency)("http://a.example/x"), 0.05, 1e-9);
  EXPECT_NEAR((*latency)("http://b.example/3"), 0.2, 1e-9);
  EXPECT_NEAR((*latency)("http://c.example/"), 0.1, 1e-9);  // not reached: the mean
  EXPECT_FALSE(crawl_latencies({(dir / "none.db").string()}, &mean).ok());

  // eval-crawl with the database: the oracle's requests take those times.
  write_file(dir / "truth.jsonl", kTruth);
  write_file(dir / "seeds.txt", "http://a.example/s\n");
  write_file(dir / "timed.txt", "http://a.example/s\t10.5\nhttp://b.example/1\t31\nhttp://a.example/a\t64.25\n");
  EvalCrawlOptions o;
  o.truth_path = (dir / "truth.jsonl").string();
  o.scope = "1939-1945";
  o.order_paths = {(dir / "timed.txt").string()};
  o.seeds_path = (dir / "seeds.txt").string();
  o.db_paths = {(dir / "crawl.db").string()};
  o.delay_ms = 20000;
  auto e = evaluate_crawls(o);
  ASSERT_TRUE(e.ok()) << e.status().message();
  EXPECT_NEAR(e->oracle_latency_s, 0.1, 1e-9);
  // a: robots.txt ends at 0.05, s at 20.05; b: robots.txt ends at 0.2, b/1
  // at 20.2; a at 40.1, b/2 at 40.4, the hop r at 60.15 and b/3 at 60.6 —
  // after the 60 s cut-off, where without response times it was at 60.
  ASSERT_EQ(e->runs.size(), 2u);
  EXPECT_EQ(e->runs[1].time.pages_by(60), 4u);
  EXPECT_EQ(e->runs[1].time.relevant_by(60), 3);
  EXPECT_NE(summary_markdown(*e).find("mean 100.0 ms"), std::string::npos) << summary_markdown(*e);
}

TEST(CrawlTimeline, ASampleWebHostsCrawlDelayWidensItsGap) {
  TempDir dir;
  write_file(dir / "truth.jsonl", kTruth);
  write_file(dir / "web.json",
             R"({"hosts":[{"name":"enc","authority":"a.example"},{"name":"portal","authority":"b.example"}]})");
  std::filesystem::create_directories(dir / "sites" / "portal" / "files");
  std::filesystem::create_directories(dir / "sites" / "enc" / "files");
  write_file(dir / "sites" / "portal" / "files" / "robots.txt", "User-agent: *\nCrawl-delay: 1\nDisallow: /admin/\n");
  write_file(dir / "sites" / "enc" / "files" / "robots.txt", "User-agent: *\nCrawl-delay: 0.05\n");
  const HostGap gap = sample_web_gaps((dir / "truth.jsonl").string(), 100);
  EXPECT_DOUBLE_EQ(gap("http://b.example/1"), 1.0);
  EXPECT_DOUBLE_EQ(gap("http://a.example/s"), 0.1);  // the delay is the floor
  EXPECT_DOUBLE_EQ(gap("http://c.example/"), 0.1);   // unknown host
}

TEST(CrawlTimeline, ARunsTimeCurveCountsRelevantPagesByTheTimeTheyWereFetched) {
  TempDir dir;
  const CrawlTruth truth = load_truth(dir);
  const auto scope = *parse_scope("1939-1945");
  // Lines in analysis order; times out of order. In time order: s 0.1
  // (rel), b/2 0.3, r→b/3 0.5 (rel), a 0.9 (rel), s again 1.0.
  const TimeCurve c = time_curve(truth, scope,
                                 {"http://a.example/s", "http://a.example/a", "http://b.example/2",
                                  "http://a.example/r", "http://a.example/s"},
                                 {0.1, 0.9, 0.3, 0.5, 1.0});
  EXPECT_EQ(c.seconds, (std::vector<double>{0.1, 0.3, 0.5, 0.9, 1.0}));
  EXPECT_EQ(c.relevant, (std::vector<int>{1, 1, 2, 3, 3}));
  EXPECT_EQ(c.relevant_by(0.05), 0);
  EXPECT_EQ(c.relevant_by(0.5), 2);
  EXPECT_EQ(c.pages_by(0.5), 3u);
  EXPECT_EQ(c.relevant_by(10), 3);
}

TEST(CrawlTimeline, TimedOrderFilesGetTimeCutoffsAndUntimedOnesNone) {
  TempDir dir;
  write_file(dir / "truth.jsonl", kTruth);
  write_file(dir / "seeds.txt", "http://a.example/s\n");
  write_file(dir / "timed.txt", "http://a.example/s\t10.5\nhttp://b.example/1\t31\nhttp://a.example/a\t64.25\n");
  write_file(dir / "plain.txt", "http://a.example/s\nhttp://b.example/1\n");
  EvalCrawlOptions o;
  o.truth_path = (dir / "truth.jsonl").string();
  o.scope = "1939-1945";
  o.order_paths = {(dir / "timed.txt").string(), (dir / "plain.txt").string()};
  o.seeds_path = (dir / "seeds.txt").string();
  o.delay_ms = 20000;  // one request per host every 20 s
  auto e = evaluate_crawls(o);
  ASSERT_TRUE(e.ok()) << e.status().message();
  EXPECT_EQ(e->time_cutoffs, (std::vector<double>{30, 60}));
  ASSERT_EQ(e->runs.size(), 3u);
  EXPECT_EQ(e->runs[0].time.relevant_by(30), 1);
  EXPECT_EQ(e->runs[0].time.relevant_by(60), 2);
  EXPECT_TRUE(e->runs[1].time.empty());
  // The oracle up to 64.25 s: s and b/1 at 20, a and b/2 at 40, the hop r
  // and b/3 at 60.
  EXPECT_EQ(e->runs[2].time.relevant_by(30), 2);
  EXPECT_EQ(e->runs[2].time.pages_by(60), 5u);
  EXPECT_EQ(time_cutoffs_csv(*e),
            "run,seconds,pages,relevant\n"
            "timed,30,1,1\ntimed,60,2,2\n"
            "oracle,30,2,2\noracle,60,5,4\n");
}

TEST(CrawlTimeline, TheCommandTabulatesAndPlotsRelevantPagesByTime) {
  TempDir dir;
  write_file(dir / "truth.jsonl", kTruth);
  write_file(dir / "seeds.txt", "http://a.example/s\n");
  write_file(dir / "timed.txt", "http://a.example/s\t10.5\nhttp://b.example/1\t31\nhttp://a.example/a\t64.25\n");
  auto r = cronista::testing::run_cronista({"eval-crawl", "--truth", (dir / "truth.jsonl").string(), "--scope",
                                            "1939-1945", "--order", (dir / "timed.txt").string(), "--name", "temporal",
                                            "--seeds", (dir / "seeds.txt").string(), "--delay-ms", "20000", "--out",
                                            (dir / "out").string()});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("## Relevant pages by crawling time"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("| 30 s | 1 (1) | 2 (2) |"), std::string::npos) << r.out;
  EXPECT_EQ(cronista::testing::read_file(dir / "out" / "time-cutoffs.csv"),
            "run,seconds,pages,relevant\ntemporal,30,1,1\ntemporal,60,2,2\noracle,30,2,2\noracle,60,5,4\n");
  const std::string svg = cronista::testing::read_file(dir / "out" / "time-chart.svg");
  EXPECT_EQ(svg.rfind("<svg xmlns=\"http://www.w3.org/2000/svg\"", 0), 0u);
  EXPECT_NE(svg.find(">temporal</text>"), std::string::npos);
  EXPECT_NE(svg.find(">oracle</text>"), std::string::npos);
  EXPECT_NE(svg.find("stroke-dasharray"), std::string::npos);  // the oracle
  EXPECT_NE(svg.find("</svg>"), std::string::npos);
}

}  // namespace
}  // namespace cronista::eval
