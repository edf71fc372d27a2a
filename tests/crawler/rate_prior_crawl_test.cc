// The learned rate prior in a revisit crawl of the living sample web on
// loopback: each page's first fetch leaves its features in the database,
// the crawl trains the model on its pages with long histories and gives the
// others its prediction as their prior in the schedule (the constant prior
// gives them all one rate), and --resume trains again from the stored
// features without fetching the pages again.
#include <gtest/gtest.h>

#include <algorithm>
#include <iostream>
#include <set>

#include "crawler/crawl.h"
#include "crawler/crawl_store.h"
#include "crawler/crawl_support.h"
#include "revisit/rate_prior.h"
#include "sampleweb/living_web.h"
#include "sampleweb/sample_web.h"
#include "sampleweb/sample_web_server.h"

namespace cronista {
namespace {

using testing::count;
using testing::TempDir;

// A living web of `pages` content pages served on a free port until destroyed.
struct LivingWeb {
  TempDir dir;
  int port = testing::free_loopback_port();
  sampleweb::LivingTruth truth;
  std::unique_ptr<sampleweb::SampleWebServer> server;
  explicit LivingWeb(int pages) {
    sampleweb::SampleWebOptions o;
    o.corpora_dir = testing::source_dir() + "/corpora/sample-web";
    o.out_dir = dir.path().string();
    o.pages = pages;
    o.port = port;
    o.seed = 7;
    o.living = true;
    o.living_horizon_s = 900;
    EXPECT_TRUE(sampleweb::generate_sample_web(o).ok());
    auto t = sampleweb::LivingTruth::load((dir / sampleweb::kLivingTruthFile).string());
    EXPECT_TRUE(t.ok());
    if (t.ok()) truth = std::move(*t);
    sampleweb::SampleWebServerOptions so;
    so.root = dir.path().string();
    so.living = true;
    auto s = sampleweb::SampleWebServer::load(so);
    EXPECT_TRUE(s.ok()) << s.status().message();
    if (!s.ok()) return;
    server = std::move(*s);
    EXPECT_TRUE(server->start().ok());
  }
  ~LivingWeb() {
    if (server) server->stop();
  }
  // Every page of the collection (not the articles published later).
  std::vector<std::string> collection() const {
    std::vector<std::string> out;
    for (const auto& p : truth.pages)
      if (!p.is_new()) out.push_back(p.url);
    return out;
  }
};

crawler::CrawlOptions options(const TempDir& tmp, const LivingWeb& web, bool learned, std::int64_t fetches) {
  auto o = testing::test_options(tmp, web.collection());
  o.revisit = true;
  // Proportional gives fast pages many visits and slow ones few: some
  // histories grow long enough to learn from, others stay short.
  o.revisit_policy = revisit::RevisitPolicy::kProportional;
  o.learned_rate_prior = learned;
  o.max_fetches = fetches;
  o.delay_ms = 10;
  return o;
}

TEST(RatePriorCrawl, PagesWithLittleHistoryGetTheModelsPredictionAndResumeRetrainsFromStoredFeatures) {
  LivingWeb web(80);
  ASSERT_TRUE(web.server);
  const auto pages = static_cast<std::int64_t>(web.collection().size());
  TempDir tmp;
  auto o = options(tmp, web, true, 20 * pages);
  auto sum = crawler::run_crawl(o, nullptr);
  ASSERT_TRUE(sum.ok()) << sum.status().message();
  std::cerr << "trained on " << sum->prior_trained_on << ", predicted " << sum->prior_predicted << ", sd "
            << sum->prior_log_rate_sd << ", fetches " << sum->fetches << ", " << sum->seconds << " s\n";
  // Every first download of an HTML page left its features.
  const std::int64_t first = count(o.db, "SELECT COUNT(*) FROM pages WHERE revisit = 0 AND main_hash IS NOT NULL");
  EXPECT_GT(first, pages / 2);
  EXPECT_EQ(count(o.db, "SELECT COUNT(*) FROM page_features"), first);
  EXPECT_EQ(count(o.db, "SELECT COUNT(*) FROM page_features f JOIN pages p ON p.id = f.page_id WHERE p.revisit = 1"),
            0);
  // Trained on the long histories; the others' priors in the schedule are
  // its predictions, which differ from page to page.
  EXPECT_GE(sum->prior_trained_on, static_cast<std::int64_t>(revisit::RatePriorModel::kMinExamples));
  EXPECT_GT(sum->prior_predicted, 0);
  EXPECT_GT(sum->prior_log_rate_sd, 0.05);

  // Resumed for a few requests: the features and histories come back from
  // the database, and the model trains on them again at once.
  auto again = o;
  again.resume = true;
  again.max_fetches = 5;
  auto resumed = crawler::run_crawl(again, nullptr);
  ASSERT_TRUE(resumed.ok()) << resumed.status().message();
  EXPECT_LE(resumed->fetches, 5);
  EXPECT_GE(resumed->prior_trained_on, static_cast<std::int64_t>(revisit::RatePriorModel::kMinExamples));
  EXPECT_GT(resumed->prior_log_rate_sd, 0.05);
}

TEST(RatePriorCrawl, TheConstantPriorGivesEveryPageTheSameRate) {
  LivingWeb web(80);
  ASSERT_TRUE(web.server);
  const auto pages = static_cast<std::int64_t>(web.collection().size());
  TempDir tmp;
  auto o = options(tmp, web, false, 8 * pages);
  auto sum = crawler::run_crawl(o, nullptr);
  ASSERT_TRUE(sum.ok()) << sum.status().message();
  EXPECT_EQ(sum->prior_trained_on, 0);
  EXPECT_EQ(sum->prior_predicted, 0);
  EXPECT_LT(sum->prior_log_rate_sd, 1e-9);
  // The features are kept all the same: a resume with the learned prior can use them.
  EXPECT_GT(count(o.db, "SELECT COUNT(*) FROM page_features"), pages / 2);
}

}  // namespace
}  // namespace cronista
