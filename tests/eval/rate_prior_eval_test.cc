// eval-rate-prior's answers to bad input: one line, the usage or error exit
// code, and nothing written into a file that is not a crawl database.
#include <gtest/gtest.h>

#include <filesystem>

#include "sampleweb/living_web.h"
#include "sampleweb/sample_web.h"
#include "test_support.h"

namespace cronista::eval {
namespace {

using cronista::testing::TempDir;

TEST(EvalRatePrior, BadInputIsAOneLineErrorAndTouchesNothing) {
  TempDir dir;
  sampleweb::SampleWebOptions o;
  o.corpora_dir = cronista::testing::source_dir() + "/corpora/sample-web";
  o.out_dir = dir.path().string();
  o.pages = 120;
  o.port = 18080;
  o.living = true;
  o.living_horizon_s = 300;
  ASSERT_TRUE(sampleweb::generate_sample_web(o).ok());
  const std::string truth = (dir / sampleweb::kLivingTruthFile).string();

  auto missing = cronista::testing::run_cronista(
      {"eval-rate-prior", "--truth", truth, "--db", (dir / "none.db").string()});
  EXPECT_EQ(missing.exit_code, 1) << missing.err;
  EXPECT_NE(missing.err.find("no crawl database"), std::string::npos) << missing.err;
  EXPECT_EQ(cronista::testing::count_lines(missing.err), 1) << missing.err;
  EXPECT_FALSE(std::filesystem::exists(dir / "none.db"));

  // A file that is not a crawl (the truth itself) is refused as it is.
  const std::string before = cronista::testing::read_file(truth);
  auto not_crawl = cronista::testing::run_cronista({"eval-rate-prior", "--truth", truth, "--db", truth});
  EXPECT_EQ(not_crawl.exit_code, 1) << not_crawl.err;
  EXPECT_EQ(cronista::testing::count_lines(not_crawl.err), 1) << not_crawl.err;
  EXPECT_EQ(cronista::testing::read_file(truth), before);

  auto floor = cronista::testing::run_cronista(
      {"eval-rate-prior", "--truth", truth, "--db", truth, "--floor-rate", "0"});
  EXPECT_EQ(floor.exit_code, 2) << floor.err;
  auto folds = cronista::testing::run_cronista({"eval-rate-prior", "--truth", truth, "--db", truth, "--folds", "1"});
  EXPECT_EQ(folds.exit_code, 2) << folds.err;
  auto no_truth = cronista::testing::run_cronista(
      {"eval-rate-prior", "--truth", (dir / "none.jsonl").string(), "--db", truth});
  EXPECT_EQ(no_truth.exit_code, 1) << no_truth.err;
  EXPECT_EQ(cronista::testing::count_lines(no_truth.err), 1) << no_truth.err;
}

}  // namespace
}  // namespace cronista::eval
