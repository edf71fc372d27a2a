// The whole loop on a small sample web: generate it, serve it on loopback,
// run a temporal and a general crawl with the real binary from the same
// seeds, score both against the truth.
//
// What is guaranteed, and why. The web is fixed (seed 1, 400 content
// pages), so the truth alone fixes two numbers before any crawl runs:
//   - no crawl of 200 pages, in any order, finds more relevant pages than
//     are reachable from the seeds: general precision at 200 ≤ R / 200;
//   - the oracle (in-scope links only, breadth-first) exhausts its closure
//     in fewer than 200 pages, so a temporal crawler with a perfect tagger
//     downloads exactly that closure, whatever its order: its precision at
//     the end equals the oracle's.
// The test checks that gap (oracle − R/200) is at least 10 points — a
// property of the generator, deterministic.
//
// The temporal crawl, like the oracle, runs out of links before 200 pages:
// which links it keeps depends on the pages and the tagger only, not on
// timing (the order does), so it downloads the same closure in every run
// and its precision at the end is fixed: 61 relevant of 140, 43.6%. It keeps
// more than the oracle (links named by a date in the period, links of
// undated paragraphs after a dated one, at a lower priority), hence below
// the oracle's 52%. The test asserts at least 42% for it. The general
// crawl's order depends on timing (several hosts at once): 18-27% in
// repeated runs, and never above R/200 = 37%. So the margins asserted,
// at least the general crawl's precision plus 12 points and 1.4 times it,
// hold whenever the general crawl stays at or below 30%, with room beyond
// what was observed; what holds whatever the timing is 43.6% against at
// most 37%.
#include <gtest/gtest.h>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>

#include <filesystem>

#include "eval/crawl_eval.h"
#include "served_sample_web.h"
#include "test_support.h"

namespace cronista::eval {
namespace {

namespace fs = std::filesystem;
using cronista::testing::run_cronista;
using cronista::testing::TempDir;

double precision_at(const RunCurve& r, std::size_t n) {
  const std::size_t m = std::min(n, r.pages());
  return m == 0 ? 0.0 : static_cast<double>(r.relevant_at[m - 1]) / static_cast<double>(m);
}

TEST(SampleCrawlEndToEnd, TemporalCrawlIsFarMorePreciseThanTheGeneralOneAt200Pages) {
  TempDir dir;
  auto server = cronista::testing::serve_sample_web(dir.path(), 400, 1);
  ASSERT_NE(server, nullptr);

  const std::string seeds = (dir / "web" / "seeds-1939-1945.txt").string();
  for (const std::string mode : {"temporal", "general"}) {
    auto r = run_cronista({"crawl", "--mode", mode, "--from", "1939", "--to", "1945", "--seeds", seeds, "--db",
                           (dir / (mode + ".db")).string(), "--order-out", (dir / (mode + ".txt")).string(),
                           "--max-pages", "300", "--delay-ms", "20"});
    ASSERT_EQ(r.exit_code, 0) << mode << " crawl: " << r.err;
  }
  server->stop();

  EvalCrawlOptions o;
  o.truth_path = (dir / "web" / "truth.jsonl").string();
  o.scope = "1939-1945";
  o.order_paths = {(dir / "temporal.txt").string(), (dir / "general.txt").string()};
  auto e = evaluate_crawls(o);
  ASSERT_TRUE(e.ok()) << e.status().message();
  ASSERT_EQ(e->runs.size(), 3u);
  const RunCurve &temporal = e->runs[0], &general = e->runs[1], &oracle = e->runs[2];

  // The deterministic part: properties of the fixed web.
  ASSERT_LT(oracle.pages(), 200u) << "the oracle's closure should be smaller than 200 pages";
  const double oracle_precision = precision_at(oracle, 200);
  const double general_bound = std::min(1.0, e->reachable_relevant / 200.0);
  EXPECT_GE(oracle_precision - general_bound, 0.10)
      << "oracle " << oracle_precision << ", bound of any 200-page crawl " << general_bound;

  // The crawls.
  ASSERT_GE(general.pages(), 200u);
  ASSERT_GT(temporal.pages(), 20u);
  const double pt = precision_at(temporal, 200), pg = precision_at(general, 200);
  std::cerr << "temporal " << pt << " (" << temporal.pages() << " pages), general " << pg << ", oracle "
            << oracle_precision << " (" << oracle.pages() << " pages), reachable relevant " << e->reachable_relevant
            << "\n";
  EXPECT_LT(temporal.pages(), 200u) << "the temporal crawl should exhaust its in-scope links before 200 pages";
  EXPECT_GE(pt, 0.42);
  EXPECT_GE(pt, pg + 0.12);
  EXPECT_GE(pt, 1.4 * pg);
}

}  // namespace
}  // namespace cronista::eval
