// eval-crawl on hand-made truth and order files whose precision and recall
// were worked out by hand (the figures are in the comments), and the files
// the command writes.
#include <gtest/gtest.h>

#include <filesystem>

#include "eval/crawl_eval.h"
#include "test_support.h"

namespace cronista::eval {
namespace {

namespace fs = std::filesystem;
using cronista::testing::read_file;
using cronista::testing::run_cronista;
using cronista::testing::TempDir;
using cronista::testing::write_file;

// A tiny web, scope 1939-1945, seed S:
//   S (1940, relevant)  content → A, B; furniture → N
//   A (1942-06-06, rel) content → C, X
//   B (1950)            content → D
//   C (1944, rel)
//   D (1943, rel)       reachable only through B's out-of-scope paragraph
//   N (no dates)        → R;  R: 301 → C
//   X (1941, rel)       disallowed by robots.txt
//   E (1945, rel)       linked from nowhere
// Relevant and fetchable: S A C D E = 5; reachable from S: S A C D = 4.
// Oracle (in-scope links only, breadth-first): S A B C → 3 relevant of 4.
const char* kTruth = R"({"url":"http://a.example/s","status":200,"sections":[{"periods":[["1940-01-01","1940-12-31"]],"links":["http://a.example/a","http://a.example/b"]},{"periods":[],"boilerplate":true,"links":["http://a.example/n"]}]}
{"url":"http://a.example/a","status":200,"sections":[{"periods":[["1942-06-06","1942-06-06"]],"links":["http://a.example/c","http://a.example/x"]}]}
{"url":"http://a.example/b","status":200,"sections":[{"periods":[["1950-01-01","1950-12-31"]],"links":["http://a.example/d"]}]}
{"url":"http://a.example/c","status":200,"sections":[{"periods":[["1944-01-01","1944-12-31"]],"links":[]}]}
{"url":"http://a.example/d","status":200,"sections":[{"periods":[["1943-01-01","1943-12-31"]],"links":[]}]}
{"url":"http://a.example/n","status":200,"sections":[{"periods":[],"links":["http://a.example/r"]}]}
{"url":"http://a.example/r","status":301,"location":"http://a.example/c"}
{"url":"http://a.example/x","status":200,"disallowed":true,"sections":[{"periods":[["1941-01-01","1941-12-31"]],"links":[]}]}
{"url":"http://a.example/e","status":200,"sections":[{"periods":[["1945-01-01","1945-12-31"]],"links":[]}]}
)";

class CrawlEvalTest : public ::testing::Test {
 protected:
  void SetUp() override {
    write_file(dir_ / "truth.jsonl", kTruth);
    write_file(dir_ / "seeds.txt", "http://a.example/s\n");
    // run1: S N R(→C) A B D C(again) → relevant after each line 1 1 2 3 3 4 4.
    write_file(dir_ / "run1.txt", "http://a.example/s\nhttp://a.example/n\nhttp://a.example/r\nHTTP://A.EXAMPLE/a\n"
                                  "http://a.example/b\nhttp://a.example/d#notas\nhttp://a.example/c\n");
    // run2: S B D ? A → 1 1 2 2 3.
    write_file(dir_ / "run2.txt", "http://a.example/s\nhttp://a.example/b\nhttp://a.example/d\n"
                                  "http://a.example/unknown\nhttp://a.example/a\n");
  }
  EvalCrawlOptions options() {
    EvalCrawlOptions o;
    o.truth_path = (dir_ / "truth.jsonl").string();
    o.scope = "1939-1945";
    o.order_paths = {(dir_ / "run1.txt").string(), (dir_ / "run2.txt").string()};
    o.seeds_path = (dir_ / "seeds.txt").string();
    return o;
  }
  TempDir dir_;
};

TEST_F(CrawlEvalTest, CountsRelevantPagesAfterRedirectsAndCanonicalization) {
  auto e = evaluate_crawls(options());
  ASSERT_TRUE(e.ok()) << e.status().message();
  EXPECT_EQ(e->truth_relevant, 5);
  EXPECT_EQ(e->reachable_relevant, 4);
  EXPECT_EQ(e->union_relevant, 4);  // S C A D
  ASSERT_EQ(e->runs.size(), 3u);
  EXPECT_EQ(e->runs[0].name, "run1");
  EXPECT_EQ(e->runs[0].relevant_at, (std::vector<int>{1, 1, 2, 3, 3, 4, 4}));
  EXPECT_EQ(e->runs[1].relevant_at, (std::vector<int>{1, 1, 2, 2, 3}));
}

TEST_F(CrawlEvalTest, OracleFollowsOnlyInScopeParagraphsBreadthFirst) {
  auto e = evaluate_crawls(options());
  ASSERT_TRUE(e.ok()) << e.status().message();
  const RunCurve& oracle = e->runs.back();
  EXPECT_TRUE(oracle.oracle);
  EXPECT_EQ(oracle.lines, (std::vector<std::string>{"http://a.example/s", "http://a.example/a", "http://a.example/b",
                                                    "http://a.example/c"}));
  EXPECT_EQ(oracle.relevant(), 3);
}

TEST_F(CrawlEvalTest, TellsWhereIrrelevantDownloadsCameFrom) {
  auto e = evaluate_crawls(options());
  ASSERT_TRUE(e.ok()) << e.status().message();
  // run1: N only through S's navigation, B through S's in-scope paragraph.
  const IrrelevantSources& one = e->runs[0].sources;
  EXPECT_EQ(one.total, 2);
  EXPECT_EQ(one.in_scope, 1);
  EXPECT_EQ(one.furniture, 1);
  EXPECT_EQ(one.undated + one.out_of_scope + one.several + one.unlinked, 0);
  // run2: B again, and an URL no page links to.
  const IrrelevantSources& two = e->runs[1].sources;
  EXPECT_EQ(two.total, 2);
  EXPECT_EQ(two.in_scope, 1);
  EXPECT_EQ(two.unlinked, 1);
  EXPECT_NE(summary_markdown(*e).find("| run1 | 2 | 1 | 1 | 0 | 0 | 0 | 0 |"), std::string::npos)
      << summary_markdown(*e);
}

TEST_F(CrawlEvalTest, CutoffCsvHasHandComputedFigures) {
  auto e = evaluate_crawls(options());
  ASSERT_TRUE(e.ok()) << e.status().message();
  EXPECT_TRUE(e->cutoffs.empty()) << "no run reaches 100 pages";
  EXPECT_EQ(cutoffs_csv(*e),
            "run,pages,relevant,precision,recall_reachable,recall_union\n"
            "run1,7,4,0.5714,1.0000,1.0000\n"
            "run2,5,3,0.6000,0.7500,0.7500\n"
            "oracle,4,3,0.7500,0.7500,0.7500\n");
}

TEST(CrawlEvalCutoffs, PrecisionAtTheStandardCutoffs) {
  // 300 pages, every third one (0, 3, 6…) about 1944: 34 relevant in the
  // first 100, 67 in the first 200, 84 in the first 250, 100 in all 300.
  TempDir dir;
  std::string truth, order;
  for (int i = 0; i < 300; ++i) {
    const std::string url = "http://b.example/p" + std::to_string(i);
    const std::string year = i % 3 == 0 ? "1944" : "1990";
    truth += R"({"url":")" + url + R"(","status":200,"sections":[{"periods":[[")" + year + R"(-01-01",")" + year +
             R"(-12-31"]],"links":[]}]})" + "\n";
    order += url + "\n";
  }
  write_file(dir / "truth.jsonl", truth);
  write_file(dir / "order.txt", order);
  EvalCrawlOptions o;
  o.truth_path = (dir / "truth.jsonl").string();
  o.scope = "1939-1945";
  o.order_paths = {(dir / "order.txt").string()};
  auto e = evaluate_crawls(o);
  ASSERT_TRUE(e.ok()) << e.status().message();
  EXPECT_EQ(e->cutoffs, (std::vector<std::size_t>{100, 200, 250}));
  EXPECT_EQ(e->runs.size(), 1u) << "no seeds, no oracle";
  EXPECT_EQ(e->reachable_relevant, 100) << "without seeds, every relevant page counts";
  EXPECT_EQ(cutoffs_csv(*e),
            "run,pages,relevant,precision,recall_reachable,recall_union\n"
            "order,100,34,0.3400,0.3400,0.3400\n"
            "order,200,67,0.3350,0.6700,0.6700\n"
            "order,250,84,0.3360,0.8400,0.8400\n"
            "order,300,100,0.3333,1.0000,1.0000\n");
}

TEST(CrawlEvalScope, ScopesWidenLikeFromAndTo) {
  auto war = parse_scope("1939-1945");
  ASSERT_TRUE(war.ok());
  EXPECT_EQ(war->first, (temporal::Date{1939, 1, 1}.day_number()));
  EXPECT_EQ(war->last, (temporal::Date{1945, 12, 31}.day_number()));
  auto y = parse_scope("2001");
  ASSERT_TRUE(y.ok());
  EXPECT_EQ(y->last - y->first, 364);
  auto months = parse_scope("1939-09..1945-05");
  ASSERT_TRUE(months.ok());
  EXPECT_EQ(months->last, (temporal::Date{1945, 5, 31}.day_number()));
  EXPECT_FALSE(parse_scope("a guerra").ok());
  // Before the year 1, as --from and --to take it (no year 0: 1 BC is followed by AD 1).
  auto rome = parse_scope("BC0100..0100");
  ASSERT_TRUE(rome.ok()) << rome.status().message();
  EXPECT_EQ(rome->first, (temporal::Date{-99, 1, 1}.day_number()));
  EXPECT_EQ(rome->last, (temporal::Date{100, 12, 31}.day_number()));
  auto bc1 = parse_scope("BC0001");
  ASSERT_TRUE(bc1.ok());
  EXPECT_EQ(bc1->last + 1, (temporal::Date{1, 1, 1}.day_number()));
  EXPECT_NE(parse_scope("44a.C.").status().message().find("BC0044"), std::string::npos);
}

TEST_F(CrawlEvalTest, CommandWritesSummaryCsvAndSvg) {
  auto r = run_cronista({"eval-crawl", "--truth", (dir_ / "truth.jsonl").string(), "--scope", "1939-1945", "--order",
                         (dir_ / "run1.txt").string(), "--order", (dir_ / "run2.txt").string(), "--name", "temporal",
                         "--name", "general", "--seeds", (dir_ / "seeds.txt").string(), "--out", (dir_ / "out").string()});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("# Crawl evaluation, scope 1939-1945"), std::string::npos);
  EXPECT_NE(r.out.find("| end | 57.1% (7) | 60.0% (5) | 75.0% (4) |"), std::string::npos) << r.out;
  EXPECT_EQ(read_file(dir_ / "out" / "summary.md"), r.out);
  const std::string svg = read_file(dir_ / "out" / "chart.svg");
  EXPECT_EQ(svg.rfind("<svg xmlns=\"http://www.w3.org/2000/svg\"", 0), 0u);
  EXPECT_NE(svg.find(">temporal (7 pages)</text>"), std::string::npos);
  EXPECT_NE(svg.find(">oracle (4 pages)</text>"), std::string::npos);
  EXPECT_NE(svg.find("<polyline"), std::string::npos);
  EXPECT_NE(svg.find("</svg>"), std::string::npos);
  const std::string curves = read_file(dir_ / "out" / "curves.csv");
  EXPECT_EQ(cronista::testing::count_lines(curves), 1 + 7 + 5 + 4);
  EXPECT_NE(curves.find("general,4,2,0.5000,0.5000,0.5000\n"), std::string::npos) << curves;
  EXPECT_TRUE(fs::exists(dir_ / "out" / "cutoffs.csv"));
}

// Without a seeds file (none given, none beside the truth) the summary and a
// warning say so and what to give, instead of "seeds: 0".
TEST_F(CrawlEvalTest, MissingSeedsFileIsAWarningThatSaysWhatToGive) {
  auto r = run_cronista({"eval-crawl", "--truth", (dir_ / "truth.jsonl").string(), "--scope", "1939-1945", "--order",
                         (dir_ / "run1.txt").string()});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.err.find("warning: no seeds file (looked for " + (dir_ / "seeds-1939-1945.txt").string() + ")"),
            std::string::npos)
      << r.err;
  EXPECT_NE(r.err.find("--oracle-seeds FILE"), std::string::npos) << r.err;
  EXPECT_NE(r.out.find("- seeds: none (no seeds file; give --oracle-seeds FILE)"), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find("- seeds: 0"), std::string::npos) << r.out;
}

TEST_F(CrawlEvalTest, BadInputsAreOneLineErrors) {
  auto missing = run_cronista({"eval-crawl", "--truth", (dir_ / "nope.jsonl").string(), "--scope", "1939-1945",
                               "--order", (dir_ / "run1.txt").string()});
  EXPECT_EQ(missing.exit_code, 1);
  EXPECT_NE(missing.err.find("nope.jsonl"), std::string::npos);
  EXPECT_EQ(cronista::testing::count_lines(missing.err), 1);
  auto scope = run_cronista({"eval-crawl", "--truth", (dir_ / "truth.jsonl").string(), "--scope", "ontem", "--order",
                             (dir_ / "run1.txt").string()});
  EXPECT_EQ(scope.exit_code, 2);  // bad usage (contract.md), as a malformed --from is
  EXPECT_NE(scope.err.find("--scope 'ontem'"), std::string::npos) << scope.err;
  auto usage = run_cronista({"eval-crawl", "--truth", (dir_ / "truth.jsonl").string()});
  EXPECT_EQ(usage.exit_code, 2);
}

}  // namespace
}  // namespace cronista::eval
