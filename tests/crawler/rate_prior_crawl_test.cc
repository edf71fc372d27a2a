// The learned rate prior in a revisit crawl against a news site on
// loopback: each page's first fetch leaves its features in the database,
// the crawl trains the model on its visits and gives the pages its
// predictions as their priors in the schedule (the constant prior gives
// them all one rate), and --resume trains again from the stored features
// and visits without fetching the pages again.
#include <gtest/gtest.h>

#include <atomic>
#include <iostream>
#include <string>

#include "crawler/crawl.h"
#include "crawler/crawl_support.h"
#include "revisit/rate_prior.h"

namespace cronista {
namespace {

using testing::count;
using testing::Site;
using testing::TempDir;

const char* const kLeads[] = {
    "A câmara municipal aprovou o projeto que reorganiza as linhas de ônibus do centro da cidade.",
    "Os bombeiros controlaram durante a madrugada um incêndio junto à estrada nacional.",
    "O teatro municipal reabriu as portas ao público depois de dois anos de obras.",
};

// A newspaper: twenty news pages whose main text changes on every request
// (an update line and a new paragraph each time, as a live story does) and
// twenty archive pages that never change, linked from the front page.
struct Newspaper {
  Site site{"127.0.0.1"};
  std::atomic<int> edits{0};
  static constexpr int kEach = 20;
  Newspaper() {
    std::string index = "<main><h1>Jornal da Tarde</h1><ul>";
    for (int i = 0; i < kEach; ++i) {
      index += "<li><a href=\"/noticias/2025/03/" + std::to_string(i) + "\">Notícia " + std::to_string(i) + "</a></li>";
      index += "<li><a href=\"/arquivo/" + std::to_string(i) + "\">Arquivo " + std::to_string(i) + "</a></li>";
    }
    site.page("/", testing::html(index + "</ul></main>"));
    site.http().Get(R"(/noticias/2025/03/(\d+))", [this](const httplib::Request& req, httplib::Response& res) {
      const int n = ++edits;
      const std::string minute = std::to_string(10 + n % 50);
      res.set_content(testing::html("<main><h1>Última hora</h1><p>Atualizado em 14 de março de 2025, às 10:" + minute +
                                    ".</p><p>Hoje, " + std::string(kLeads[n % 3]) + " A redação acompanha o caso e " +
                                    "publicará novos pormenores ao longo do dia (edição " + std::to_string(n) + ", página " +
                                    req.matches[1].str() + ").</p></main>"),
                      "text/html; charset=utf-8");
    });
    for (int i = 0; i < kEach; ++i)
      site.page("/arquivo/" + std::to_string(i),
                testing::html("<main><h1>Arquivo</h1><p>Em 1931 um grupo de tipógrafos fundou o jornal, que publicou a " +
                              std::string("sua primeira edição num sábado de inverno. Página ") + std::to_string(i) +
                              " do arquivo histórico.</p></main>"));
    site.start();
  }
};

crawler::CrawlOptions options(const TempDir& tmp, const Newspaper& paper, bool learned, std::int64_t fetches) {
  auto o = testing::test_options(tmp, {paper.site.url("/")});
  o.revisit = true;
  // Uniform visits every page alike, so both kinds are seen often.
  o.revisit_policy = revisit::RevisitPolicy::kUniform;
  o.learned_rate_prior = learned;
  o.max_fetches = fetches;
  o.delay_ms = 5;
  return o;
}

constexpr std::int64_t kPages = 2 * Newspaper::kEach + 1;

// The newspaper crawled with revisits for eight requests a page.
struct PaperCrawl {
  Newspaper paper;
  TempDir tmp;
  crawler::CrawlOptions o;
  Result<crawler::CrawlSummary> sum;
  explicit PaperCrawl(bool learned) : o(options(tmp, paper, learned, 8 * kPages)), sum(crawler::run_crawl(o, nullptr)) {}
};

TEST(RatePriorCrawl, PagesGetTheModelsPredictionAsPriorAndResumeRetrainsFromStoredFeatures) {
  PaperCrawl run(true);
  const auto& o = run.o;
  const auto& sum = run.sum;
  ASSERT_TRUE(sum.ok()) << sum.status().message();
  std::cerr << "trained on " << sum->prior_trained_on << ", predicted " << sum->prior_predicted << ", sd "
            << sum->prior_log_rate_sd << ", revisits " << sum->revisits << ", changed " << sum->changed << "\n";
  // Every first download of a page left its features, no revisit did.
  EXPECT_EQ(count(o.db, "SELECT COUNT(*) FROM page_features f JOIN pages p ON p.id = f.page_id WHERE p.revisit = 0 "
                        "AND p.url NOT LIKE '%sitemap%'"),
            kPages);
  EXPECT_EQ(count(o.db, "SELECT COUNT(*) FROM page_features f JOIN pages p ON p.id = f.page_id WHERE p.revisit = 1"),
            0);
  EXPECT_EQ(count(o.db, "SELECT COUNT(*) FROM page_features f JOIN pages p ON p.id = f.page_id "
                        "WHERE p.url LIKE '%/noticias/%' AND f.features LIKE '%\"update_line\":1.0%'"),
            Newspaper::kEach);
  // Trained on the visits; the priors in the schedule are its predictions,
  // which tell the live stories from the archive.
  EXPECT_GE(sum->prior_trained_on, static_cast<std::int64_t>(2 * revisit::CrawlRatePrior::kMinChanges));
  EXPECT_GE(sum->prior_predicted, kPages);
  EXPECT_GT(sum->prior_log_rate_sd, 0.5);

  // Resumed for a few requests: the features and visits come back from
  // the database, and the model trains on them again at once.
  auto again = o;
  again.resume = true;
  again.max_fetches = 5;
  auto resumed = crawler::run_crawl(again, nullptr);
  ASSERT_TRUE(resumed.ok()) << resumed.status().message();
  std::cerr << "resumed: trained on " << resumed->prior_trained_on << ", predicted " << resumed->prior_predicted
            << ", sd " << resumed->prior_log_rate_sd << "\n";
  EXPECT_LE(resumed->fetches, 5);
  EXPECT_GE(resumed->prior_trained_on, sum->prior_trained_on);
  EXPECT_GE(resumed->prior_predicted, kPages);
  EXPECT_GT(resumed->prior_log_rate_sd, 0.5);
}

TEST(RatePriorCrawl, TheConstantPriorGivesEveryPageTheSameRate) {
  PaperCrawl run(false);
  const auto& o = run.o;
  const auto& sum = run.sum;
  ASSERT_TRUE(sum.ok()) << sum.status().message();
  EXPECT_GT(sum->changed, 0);
  EXPECT_EQ(sum->prior_trained_on, 0);
  EXPECT_EQ(sum->prior_predicted, 0);
  EXPECT_LT(sum->prior_log_rate_sd, 1e-9);
  // The features are kept all the same: a resume with the learned prior can use them.
  EXPECT_GE(count(o.db, "SELECT COUNT(*) FROM page_features"), kPages);
}

}  // namespace
}  // namespace cronista
