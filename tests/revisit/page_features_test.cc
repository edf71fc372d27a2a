// The features of the learned rate prior read from real pages: the living
// sample web served on loopback (a news page after a change, a new article
// written about "today" and edited, a static page) and Portuguese HTML
// written here; their stored form; and the crawl's trainer, which learns
// from the visits of a crawl.
#include <gtest/gtest.h>
#include <httplib.h>

#include <chrono>
#include <iostream>
#include <cmath>
#include <random>
#include <thread>

#include "revisit/page_features.h"
#include "revisit/rate_prior.h"
#include "sampleweb/living_web.h"
#include "sampleweb/sample_web.h"
#include "sampleweb/sample_web_server.h"
#include "temporal/html_text.h"
#include "temporal/tagger.h"
#include "living_web_support.h"
#include "test_support.h"

namespace cronista::revisit {
namespace {

using cronista::testing::TempDir;

// The tagger and the cues, loaded once from the source tree's resources.
struct Reader {
  std::unique_ptr<temporal::Tagger> tagger;
  std::optional<FeatureCues> cues;
  Reader() {
    temporal::TaggerOptions o;
    o.home = cronista::testing::source_dir();
    auto t = temporal::Tagger::load(o);
    EXPECT_TRUE(t.ok()) << t.status().message();
    if (t.ok()) tagger = std::move(*t);
    auto lexicon = temporal::Lexicon::load(o.home + "/resources/pt");
    EXPECT_TRUE(lexicon.ok());
    if (!lexicon.ok()) return;
    auto c = FeatureCues::from(*lexicon);
    EXPECT_TRUE(c.ok()) << c.status().message();
    if (c.ok()) cues = std::move(*c);
  }
  PageFeatures read(const std::string& url, const std::string& html, temporal::Date fetched, bool lm = false,
                    bool etag = false) const {
    const temporal::TextDocument doc = temporal::html_document(html);
    const auto expressions = tagger->tag(doc.text, fetched);
    FirstFetch f;
    f.url = url;
    f.doc = &doc;
    f.expressions = expressions;
    f.last_modified = lm;
    f.etag = etag;
    f.fetched = fetched;
    return page_features(f, *cues);
  }
};

const Reader& reader() {
  static const Reader r;
  return r;
}

temporal::Date today() {
  const std::time_t now = std::time(nullptr);
  std::tm tm{};
  gmtime_r(&now, &tm);
  return temporal::Date{tm.tm_year + 1900, tm.tm_mon + 1, tm.tm_mday};
}

TEST(PageFeatures, AnUpdateLineAndTodayAreReadInTheMainTextNotInTheFurniture) {
  const temporal::Date day{2025, 3, 14};
  const std::string news =
      "<html><body><header>Diário do Sul</header><main><h1>Chuvas no litoral</h1>"
      "<p>Atualizado em 14 de março de 2025, às 10:20.</p>"
      "<p>Hoje o litoral amanheceu alagado depois de uma noite de chuva forte. Ontem a defesa civil tinha "
      "avisado os moradores das zonas baixas. <a href=\"/cidades/\">Cidades</a> "
      "<a href=\"mailto:redacao@diario.example\">redação</a> <img src=\"/f/chuva.jpg\"></p></main>"
      "<footer>Última atualização do sítio: 2 de janeiro de 2025</footer></body></html>";
  const PageFeatures f = reader().read("http://diario.example/2025/03/14/chuvas.html", news, day, true, true);
  EXPECT_EQ(f.update_line, 1);
  EXPECT_EQ(f.speaks_of_today, 1);
  EXPECT_EQ(f.has_dates, 1);
  EXPECT_EQ(f.newest_date_days, 0);
  EXPECT_EQ(f.dated_path, 1);
  EXPECT_EQ(f.url_depth, 4);
  EXPECT_EQ(f.links, 1);
  EXPECT_EQ(f.mailto, 1);
  EXPECT_EQ(f.images, 1);
  EXPECT_EQ(f.last_modified, 1);
  EXPECT_EQ(f.etag, 1);

  // The same words in page furniture only: no update line, no "today".
  const std::string about =
      "<html><body><main><h1>Quem somos</h1><p>O Diário do Sul foi fundado em 1931 por um grupo de "
      "tipógrafos da cidade e publica notícias da região desde então.</p></main>"
      "<footer><p>Atualizado em 2 de janeiro de 2025. Hoje é dia de festa na redação.</p></footer></body></html>";
  const PageFeatures g = reader().read("http://diario.example/sobre?x=1", about, day);
  EXPECT_EQ(g.update_line, 0);
  EXPECT_EQ(g.speaks_of_today, 0);
  EXPECT_EQ(g.has_dates, 1);  // 1931
  const temporal::Date end_of_1931{1931, 12, 31};
  EXPECT_EQ(g.newest_date_days, day.day_number() - end_of_1931.day_number());
  EXPECT_EQ(g.query, 1);
  EXPECT_EQ(g.dated_path, 0);
  EXPECT_EQ(g.last_modified, 0);
}

TEST(PageFeatures, TheDayBeforeYesterdayIsNotYesterday) {
  const temporal::Date day{2025, 3, 14};
  const PageFeatures f = reader().read(
      "http://diario.example/a", "<main><p>Antes de ontem a ponte foi fechada ao trânsito pesado.</p></main>", day);
  EXPECT_EQ(f.speaks_of_today, 0);
  const PageFeatures g = reader().read(
      "http://diario.example/a", "<main><p>Ontem a ponte foi fechada ao trânsito pesado.</p></main>", day);
  EXPECT_EQ(g.speaks_of_today, 1);
}

TEST(PageFeatures, StoredFormReadsBackAndMalformedTextIsRefused) {
  PageFeatures f;
  f.url_depth = 3, f.links = 41, f.newest_date_days = 12, f.update_line = 1, f.link_density = 0.25;
  const auto back = parse_features(features_json(f));
  ASSERT_TRUE(back);
  EXPECT_EQ(back->values(), f.values());
  // A row of an older feature set: the missing names read as 0.
  const auto older = parse_features(R"({"links": 7})");
  ASSERT_TRUE(older);
  EXPECT_EQ(older->links, 7);
  EXPECT_EQ(older->update_line, 0);
  EXPECT_FALSE(parse_features("{\"links\": \"muitos\"}"));
  EXPECT_FALSE(parse_features("não é json"));
}

// The living sample web on loopback: a news page of the newspaper changes
// at 0.3 s, two articles (one of each opening, "Hoje, …" and "Neste dia
// …") are published at 0.3 s and edited at 0.4 s; a static page never
// changes.
TEST(PageFeatures, ReadFromTheLivingSampleWeb) {
  TempDir dir;
  const int port = cronista::testing::free_loopback_port();
  auto loaded = cronista::testing::generate_living_web(dir.path(), port, 120, 1, 900);
  ASSERT_TRUE(loaded.ok()) << loaded.status().message();
  sampleweb::LivingTruth truth = std::move(*loaded);
  int news = -1, fixed = -1;
  std::vector<int> articles;  // one of each parity: both openings of an article
  for (int i = 0; i < static_cast<int>(truth.pages.size()); ++i) {
    sampleweb::LivingPage& p = truth.pages[static_cast<std::size_t>(i)];
    const std::string& host = truth.hosts[static_cast<std::size_t>(p.host)].name;
    if (host != "jornal") continue;
    if (news < 0 && p.change_class == "news" && p.path != "/") news = i;
    if (fixed < 0 && p.change_class == "static") fixed = i;
    if (p.is_new() && (articles.empty() || (articles.size() == 1 && (articles[0] - i) % 2 != 0))) articles.push_back(i);
  }
  ASSERT_GE(news, 0);
  ASSERT_GE(fixed, 0);
  ASSERT_EQ(articles.size(), 2u);
  truth.pages[static_cast<std::size_t>(news)].changes = {300};
  for (int a : articles) {
    sampleweb::LivingPage& p = truth.pages[static_cast<std::size_t>(a)];
    const std::int64_t was = p.published;
    p.published = 300;
    p.changes = {400};
    for (int hub : p.listed_on) {
      auto& ch = truth.pages[static_cast<std::size_t>(hub)].changes;
      ch.erase(std::find(ch.begin(), ch.end(), was));
      ch.push_back(300);
      std::sort(ch.begin(), ch.end());
    }
  }
  truth.index();
  cronista::testing::write_file(dir / sampleweb::kLivingTruthFile, truth.to_jsonl());
  sampleweb::SampleWebServerOptions so;
  so.root = dir.path().string();
  so.living = true;
  auto server = sampleweb::SampleWebServer::load(so);
  ASSERT_TRUE(server.ok()) << server.status().message();
  ASSERT_TRUE((*server)->start().ok());
  // The server's clock starts at the last whole second before start().
  std::this_thread::sleep_for(std::chrono::milliseconds(500));
  const auto features_of = [&](int page) {
    const sampleweb::LivingPage& p = truth.pages[static_cast<std::size_t>(page)];
    const std::string& authority = truth.hosts[static_cast<std::size_t>(p.host)].authority;
    httplib::Client c(authority.substr(0, authority.find(':')), port);
    c.set_connection_timeout(5, 0);
    c.set_read_timeout(10, 0);
    auto r = c.Get(p.path);
    EXPECT_TRUE(r && r->status == 200) << p.url;
    const std::string body = r ? r->body : "";
    return std::make_pair(reader().read(p.url, body, today(), r && r->has_header("Last-Modified"),
                                        r && r->has_header("ETag")),
                          body);
  };
  const auto [changed, changed_body] = features_of(news);
  EXPECT_NE(changed_body.find("Atualizado em"), std::string::npos);
  EXPECT_EQ(changed.update_line, 1) << changed_body;
  EXPECT_EQ(changed.newest_date_days, 0);
  EXPECT_EQ(changed.last_modified, 1);  // the newspaper's validators are honest
  int today_seen = 0;
  for (int a : articles) {
    const auto [article, body] = features_of(a);
    EXPECT_EQ(article.update_line, 1) << body;  // "Atualização das 10:20: …"
    EXPECT_EQ(article.newest_date_days, 0);
    const bool hoje = body.find("Hoje, ") != std::string::npos;
    EXPECT_EQ(article.speaks_of_today, hoje ? 1 : 0) << body;
    today_seen += hoje;
  }
  EXPECT_EQ(today_seen, 1);
  const auto [still, still_body] = features_of(fixed);
  EXPECT_EQ(still.update_line, 0) << still_body;
  EXPECT_EQ(still.speaks_of_today, 0) << still_body;
  (*server)->stop();
}

// Pages whose rate follows one feature (links), visited as a schedule
// visits them — fast pages far more often than slow ones — each visit
// after a random interval seeing a change with probability 1 - e^{-λt}.
// The trainer learns from the visits, and its prediction for pages it never
// saw beats the constant prior (the changes per second pooled over the
// visits) on the error of ln λ.
TEST(CrawlRatePrior, LearnsFromTheVisitsAndBeatsTheConstantOnPagesItNeverSaw) {
  std::mt19937_64 rng(3);
  std::uniform_real_distribution<double> u(0, 1);
  const auto rate_of = [](const PageFeatures& f) { return 1e-5 * std::pow(1 + f.links, 0.8); };
  const auto page = [&] {
    PageFeatures f;
    f.links = std::floor(200 * u(rng));
    f.text_bytes = 1000 + 3000 * u(rng);
    return f;
  };
  CrawlRatePrior prior;
  double changes = 0, seconds = 0;
  const CrawlRatePrior::PageId n = 400;
  for (CrawlRatePrior::PageId id = 0; id < n; ++id) {
    const PageFeatures f = page();
    prior.set_features(id, f);
    const double rate = rate_of(f) * std::exp(0.3 * (u(rng) - 0.5));
    const int visits = 1 + static_cast<int>(rate * 30000);
    for (int k = 0; k < visits; ++k) {
      const double t = 30 + 570 * u(rng);
      const bool changed = u(rng) < 1 - std::exp(-rate * t);
      prior.add_observation(id, t, changed);
      seconds += t;
      changes += changed;
    }
  }
  prior.add_observation(n + 5, 100, true);  // a page without features: ignored
  EXPECT_FALSE(prior.predict(0));
  ASSERT_TRUE(prior.train());
  EXPECT_EQ(prior.trained_on(), prior.observations());
  const double constant = changes / seconds;
  double model_error = 0, constant_error = 0;
  const int held_out = 300;
  for (int i = 0; i < held_out; ++i) {
    const PageFeatures f = page();
    const auto id = static_cast<CrawlRatePrior::PageId>(n + 10 + i);
    prior.set_features(id, f);
    ASSERT_TRUE(prior.predict(id));
    model_error += std::abs(std::log(*prior.predict(id)) - std::log(rate_of(f))) / held_out;
    constant_error += std::abs(std::log(constant) - std::log(rate_of(f))) / held_out;
  }
  std::cerr << "error of ln rate: model " << model_error << ", constant " << constant_error << "\n";
  EXPECT_LT(model_error, 0.5 * constant_error);
  EXPECT_LT(model_error, 0.5);
}

TEST(CrawlRatePrior, KeepsABoundedSampleAndNeedsChangesAndNonChangesToTrain) {
  CrawlRatePrior prior;
  PageFeatures f;
  f.links = 10;
  prior.set_features(0, f);
  for (int i = 0; i < 50; ++i) prior.add_observation(0, 60, false);
  EXPECT_FALSE(prior.train());  // nothing ever changed
  for (std::size_t i = 0; i < CrawlRatePrior::kMaxExamples; ++i) prior.add_observation(0, 60, i % 3 == 0);
  EXPECT_EQ(prior.observations(), CrawlRatePrior::kMaxExamples + 50);
  ASSERT_TRUE(prior.train());
  EXPECT_EQ(prior.trained_on(), CrawlRatePrior::kMaxExamples);
  // One page changing in about a third of its 60 s intervals: λ ≈ -ln(2/3)/60.
  EXPECT_NEAR(std::log(*prior.predict(0)), std::log(-std::log(1 - 1.0 / 3) / 60), 0.15);
}

}  // namespace
}  // namespace cronista::revisit
