// The features of the learned rate prior read from real pages: the living
// sample web served on loopback (a news page after a change, a new article
// written about "today" and edited, a static page) and Portuguese HTML
// written here; their stored form; and the crawl's trainer, which learns
// only from pages whose histories can be trusted.
#include <gtest/gtest.h>
#include <httplib.h>

#include <chrono>
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
  sampleweb::SampleWebOptions o;
  o.corpora_dir = cronista::testing::source_dir() + "/corpora/sample-web";
  o.out_dir = dir.path().string();
  o.pages = 120;
  o.port = port;
  o.seed = 1;
  o.living = true;
  o.living_horizon_s = 900;
  ASSERT_TRUE(sampleweb::generate_sample_web(o).ok());
  auto loaded = sampleweb::LivingTruth::load((dir / sampleweb::kLivingTruthFile).string());
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

// Pages whose rate follows one feature (links), with histories of varied
// length: the trainer learns from those with enough observations only.
TEST(CrawlRatePrior, LearnsOnlyFromTrustedHistoriesAndPredictsTheOthers) {
  std::mt19937_64 rng(3);
  std::uniform_real_distribution<double> u(0, 1);
  CrawlRatePrior prior;
  std::vector<double> rate;
  std::vector<std::uint32_t> seen;
  const CrawlRatePrior::PageId n = 400;
  for (CrawlRatePrior::PageId id = 0; id < n; ++id) {
    PageFeatures f;
    f.links = std::floor(200 * u(rng));
    f.text_bytes = 1000 + 3000 * u(rng);
    prior.set_features(id, f);
    // Hubs (many links) change often, leaves seldom: λ ∝ (1 + links)^0.8.
    const double truth = 1e-5 * std::pow(1 + f.links, 0.8) * std::exp(0.3 * (u(rng) - 0.5));
    seen.push_back(static_cast<std::uint32_t>(id % 8));
    // A short history's estimate is wrong: the trainer must not use it.
    rate.push_back(seen.back() >= CrawlRatePrior::kTrustedObservations ? truth : 1e-8 / truth);
  }
  EXPECT_FALSE(prior.predict(0));
  ASSERT_TRUE(prior.train(n, [&](CrawlRatePrior::PageId id) { return seen[id]; },
                          [&](CrawlRatePrior::PageId id) { return rate[id]; }));
  EXPECT_EQ(prior.trained_on(), n / 2);
  PageFeatures hub, leaf;
  hub.links = 190, hub.text_bytes = 2500;
  leaf.links = 5, leaf.text_bytes = 2500;
  prior.set_features(n, hub);
  prior.set_features(n + 1, leaf);
  ASSERT_TRUE(prior.predict(n) && prior.predict(n + 1));
  EXPECT_GT(*prior.predict(n), 10 * *prior.predict(n + 1));
  EXPECT_NEAR(std::log(*prior.predict(n)), std::log(1e-5 * std::pow(191, 0.8)), 0.5);
  // Too few trusted pages: no model.
  CrawlRatePrior few;
  for (CrawlRatePrior::PageId id = 0; id < 10; ++id) few.set_features(id, PageFeatures{});
  EXPECT_FALSE(few.train(10, [](CrawlRatePrior::PageId) { return 10u; }, [](CrawlRatePrior::PageId) { return 1e-3; }));
  EXPECT_FALSE(few.trained());
}

}  // namespace
}  // namespace cronista::revisit
