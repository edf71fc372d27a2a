// `crawl --revisit` against real servers on loopback: change detection on
// the main text of noisy pages, conditional requests and 304s, Last-Modified
// headers proven wrong by the content, WARC revisit records read back by our
// reader and by warcio.js, and a revisit crawl killed with -9 and resumed.
#include <gtest/gtest.h>

#include <atomic>
#include <ctime>
#include <map>
#include <mutex>
#include <nlohmann/json.hpp>
#include <optional>
#include <pthread.h>
#include <set>
#include <thread>

#include "crawler/crawl.h"
#include "crawler/crawl_support.h"
#include "crawler/warc.h"
#include "crawler/warcio_check.h"

namespace cronista {
namespace {

using testing::count;
using testing::rows;
using testing::Site;
using testing::SitePage;
using testing::TempDir;

// Three news texts of about 80 words each, far apart in content: a page
// whose main text moves from one to the next has changed.
const char* const kArticles[] = {
    "O Ministério da Agricultura anunciou ontem um novo programa de apoio aos pequenos produtores de leite do "
    "interior do estado. Segundo o secretário, as cooperativas da região receberão crédito a juros reduzidos "
    "durante os próximos três anos, e os técnicos visitarão cada propriedade para orientar a modernização dos "
    "equipamentos. Os produtores ouvidos pela reportagem disseram que a medida chega tarde, depois de duas "
    "safras ruins, mas reconheceram que o prazo de pagamento é mais longo do que o dos bancos privados.",
    "A câmara municipal aprovou na sessão de terça-feira o projeto que reorganiza as linhas de ônibus do centro "
    "da cidade. A proposta reduz o número de paradas na avenida principal, cria um corredor exclusivo entre a "
    "estação ferroviária e o hospital e amplia o horário noturno nos bairros da zona norte. Os vereadores da "
    "oposição criticaram a falta de audiências públicas, enquanto a associação de moradores pediu que as "
    "mudanças sejam avaliadas depois de seis meses de funcionamento.",
    "O festival de teatro de inverno começa amanhã com vinte e três espetáculos em cinco palcos espalhados pela "
    "cidade velha. A organização espera receber mais de quarenta mil espectadores ao longo de duas semanas, "
    "muitos deles vindos de outros países da América do Sul. Entre as estreias estão uma adaptação de um "
    "romance de Machado de Assis e uma peça escrita por estudantes da universidade federal, que será "
    "apresentada ao ar livre na praça da matriz, com entrada gratuita para todos.",
};

std::string http_date(std::time_t t) {
  std::tm tm{};
  gmtime_r(&t, &tm);
  char b[64];
  std::strftime(b, sizeof b, "%a, %d %b %Y %H:%M:%S GMT", &tm);
  return b;
}

// A page: the main text in <main>, page furniture around it.
std::string news_page(const std::string& main, const std::string& furniture = "") {
  return testing::html("<header>Jornal da Tarde</header><main><p>" + main + "</p></main>" + furniture);
}

// Requests as the servers saw them, with their validators.
struct Seen {
  std::string path, if_none_match, if_modified_since;
};

class RequestLog {
 public:
  void add(const httplib::Request& req) {
    std::lock_guard lk(mu_);
    seen_.push_back({req.path, req.get_header_value("If-None-Match"), req.get_header_value("If-Modified-Since")});
  }
  // How many requests for `path` carried If-Modified-Since.
  std::size_t conditional(const std::string& path) const {
    std::size_t n = 0;
    for (const Seen& s : of(path)) n += s.if_modified_since.empty() ? 0 : 1;
    return n;
  }
  std::vector<Seen> of(const std::string& path) const {
    std::lock_guard lk(mu_);
    std::vector<Seen> out;
    for (const Seen& s : seen_)
      if (s.path == path) out.push_back(s);
    return out;
  }

 private:
  mutable std::mutex mu_;
  std::vector<Seen> seen_;
};

// The test web: one site with an index, a noisy page whose main text never
// changes, a news page whose main text changes on every request, an honest
// page with validators and 304s, and a static page without validators;
// and two hosts whose Last-Modified lies (one keeps it while the text
// changes, one sends the time of the request).
struct Web {
  Site site{"127.0.0.1"};
  Site fixed_liar{"127.0.0.3"};
  Site clock_liar{"127.0.0.4"};
  RequestLog log;
  std::mutex mu;
  int visits = 0, news_version = 0, liar_version = 0;
  const std::string honest_etag = "\"h-1\"";
  const std::string honest_modified = http_date(std::time(nullptr) - 86400);
  const std::string fixed_modified = http_date(std::time(nullptr) - 3 * 86400);

  Web() {
    site.http().Get("/noisy", [this](const httplib::Request& req, httplib::Response& res) {
      log.add(req);
      std::lock_guard lk(mu);
      ++visits;
      const auto now = std::chrono::system_clock::now().time_since_epoch();
      res.set_content(news_page(kArticles[0], "<aside>Mais lidas: " + std::string(kArticles[visits % 3]).substr(0, 60) +
                                                  "</aside><footer>Visitas: " + std::to_string(visits) + ". Hora: " +
                                                  std::to_string(now.count()) + "</footer>"),
                      "text/html; charset=utf-8");
    });
    site.http().Get("/news", [this](const httplib::Request& req, httplib::Response& res) {
      log.add(req);
      std::lock_guard lk(mu);
      res.set_content(news_page(kArticles[news_version++ % 3]), "text/html; charset=utf-8");
    });
    site.http().Get("/honest", [this](const httplib::Request& req, httplib::Response& res) {
      log.add(req);
      res.set_header("ETag", honest_etag);
      res.set_header("Last-Modified", honest_modified);
      if (req.get_header_value("If-None-Match") == honest_etag) {
        res.status = 304;
        return;
      }
      res.set_content(news_page(kArticles[1]), "text/html; charset=utf-8");
    });
    site.http().Get("/static", [this](const httplib::Request& req, httplib::Response& res) {
      log.add(req);
      res.set_content(news_page(kArticles[2]), "text/html; charset=utf-8");
    });
    fixed_liar.http().Get("/fixed", [this](const httplib::Request& req, httplib::Response& res) {
      log.add(req);
      std::lock_guard lk(mu);
      res.set_header("Last-Modified", fixed_modified);
      res.set_content(news_page(kArticles[liar_version++ % 3]), "text/html; charset=utf-8");
    });
    clock_liar.http().Get("/clock", [this](const httplib::Request& req, httplib::Response& res) {
      log.add(req);
      res.set_header("Last-Modified", http_date(std::time(nullptr)));
      res.set_content(news_page(kArticles[0]), "text/html; charset=utf-8");
    });
    fixed_liar.start();
    clock_liar.start();
    site.page("/", news_page("Índice do jornal. <a href=\"/noisy\">noisy</a> <a href=\"/news\">news</a> "
                             "<a href=\"/honest\">honest</a> <a href=\"/static\">static</a> <a href=\"" +
                             fixed_liar.url("/fixed") + "\">fixed</a> <a href=\"" + clock_liar.url("/clock") +
                             "\">clock</a>"));
    site.start();
  }
};

constexpr int kPages = 7;  // the index and the six pages it links
constexpr int kHosts = 3;  // each asked for /sitemap.xml (a 404 here), a download of its own

// Downloads in history that are pages of the test web (not the /sitemap.xml 404s).
std::int64_t pages_downloaded(const std::string& db, bool distinct = false) {
  return count(db, std::string("SELECT COUNT(") + (distinct ? "DISTINCT url" : "*") +
                       ") FROM history WHERE url NOT LIKE '%/sitemap.xml'");
}

// A revisit crawl from `seed` at `rate` requests per second for `fetches` requests.
crawler::CrawlOptions uniform_revisits(const TempDir& tmp, const std::string& seed, double rate,
                                       std::int64_t fetches) {
  auto o = testing::test_options(tmp, {seed});
  o.revisit = true;
  // Uniform spreads the budget evenly, so every page gets its share of the
  // requests whatever the estimates; the policies are the schedule's tests.
  o.revisit_policy = revisit::RevisitPolicy::kUniform;
  o.fetch_rate = rate;
  o.max_fetches = fetches;
  return o;
}

// The same with the optimal policy, at 20 requests per second.
crawler::CrawlOptions optimal_revisits(const TempDir& tmp, const std::string& seed, std::int64_t fetches) {
  auto o = uniform_revisits(tmp, seed, 20, fetches);
  o.revisit_policy = revisit::RevisitPolicy::kOptimal;
  return o;
}

crawler::CrawlOptions revisit_options(const TempDir& tmp, const Web& web, std::int64_t fetches) {
  return uniform_revisits(tmp, web.site.url("/"), 10, fetches);
}

// Revisit rows of one URL, in order: "status|changed".
std::vector<std::string> revisits_of(const std::string& db, const std::string& url) {
  return rows(db, "SELECT status || '|' || coalesce(changed, 'NULL') FROM pages WHERE revisit = 1 AND url = '" + url +
                      "' ORDER BY id");
}

// The revisits of one URL, at least `at_least` of them, each "status|changed" as `each`.
std::vector<std::string> expect_revisits(const std::string& db, const std::string& url, std::size_t at_least,
                                         const std::string& each) {
  const auto got = revisits_of(db, url);
  EXPECT_GE(got.size(), at_least) << url;
  for (const auto& r : got) EXPECT_EQ(r, each) << url;
  return got;
}

// The test web served and crawled with revisits for `fetches` requests (a WARC too when asked).
struct RevisitRun {
  Web web;
  TempDir tmp;
  crawler::CrawlOptions o;
  Result<crawler::CrawlSummary> sum;
  RevisitRun(std::int64_t fetches, bool warc)
      : o(options(tmp, web, fetches, warc)), sum(crawler::run_crawl(o, nullptr)) {}
  static crawler::CrawlOptions options(const TempDir& tmp, const Web& web, std::int64_t fetches, bool warc) {
    auto o = revisit_options(tmp, web, fetches);
    if (warc) o.warc = (tmp / "c.warc.gz").string();
    return o;
  }
};

TEST(RevisitCrawl, ChangesAreFoundInTheMainTextAndValidatorsAreUsedWhileTrusted) {
  RevisitRun run(kPages * 7, false);
  const Web& web = run.web;
  const auto& o = run.o;
  auto& sum = run.sum;
  ASSERT_TRUE(sum.ok()) << sum.status().message();
  EXPECT_EQ(sum->end_reason, "max-fetches");
  EXPECT_EQ(sum->total_pages, kPages + kHosts);
  const std::string db = o.db;
  // Each page downloaded once; the revisits are pages rows outside history.
  EXPECT_EQ(pages_downloaded(db), kPages);
  EXPECT_EQ(pages_downloaded(db, true), kPages);
  EXPECT_EQ(count(db, "SELECT COUNT(*) FROM history WHERE url LIKE '%/sitemap.xml'"), kHosts);

  // Clock, counter and rotating box are furniture: never a change.
  expect_revisits(db, web.site.url("/noisy"), 2, "200|0");
  // New main text on every request: a change every time.
  expect_revisits(db, web.site.url("/news"), 2, "200|1");
  // The honest page: every revisit conditional, every answer a 304.
  const auto honest = expect_revisits(db, web.site.url("/honest"), 2, "304|0");
  const auto honest_seen = web.log.of("/honest");
  ASSERT_EQ(honest_seen.size(), honest.size() + 1);
  EXPECT_EQ(honest_seen[0].if_none_match, "");
  for (std::size_t i = 1; i < honest_seen.size(); ++i) {
    EXPECT_EQ(honest_seen[i].if_none_match, web.honest_etag);
    EXPECT_EQ(honest_seen[i].if_modified_since, web.honest_modified);
  }
  EXPECT_EQ(sum->not_modified, static_cast<std::int64_t>(honest.size()));

  // Last-Modified kept while the text changed: asked once, then no more.
  const auto fixed_seen = web.log.of("/fixed");
  EXPECT_EQ(web.log.conditional("/fixed"), 1u)
      << "If-Modified-Since sent again to a host whose Last-Modified was proven wrong";
  const auto fixed_rows = expect_revisits(db, web.fixed_liar.url("/fixed"), 2, "200|1");
  EXPECT_EQ(fixed_seen.size(), fixed_rows.size() + 1);

  // Last-Modified always the time of the request on a text that stays: once
  // seen moving without a change, it is no longer sent.
  const auto clock_rows = expect_revisits(db, web.clock_liar.url("/clock"), 4, "200|0");
  const auto clock_seen = web.log.of("/clock");
  EXPECT_EQ(clock_seen.size(), clock_rows.size() + 1);
  const std::size_t clock_conditional = web.log.conditional("/clock");
  // Within one second of the first download the header has not moved yet,
  // so a request or two may still carry it; the rest must not.
  EXPECT_LE(clock_conditional, 2u);
  EXPECT_FALSE(clock_seen.back().if_modified_since.size()) << "the last request still trusted the clock";

  // The summary counts what the database holds.
  EXPECT_EQ(sum->revisits, count(db, "SELECT COUNT(*) FROM pages WHERE revisit = 1"));
  EXPECT_EQ(sum->changed, count(db, "SELECT COUNT(*) FROM pages WHERE revisit = 1 AND changed = 1"));
  // Every visit of an analysed page carries its main text's signature.
  EXPECT_EQ(count(db, "SELECT COUNT(*) FROM pages WHERE status = 200 AND main_hash IS NULL"), 0);
  EXPECT_EQ(count(db, "SELECT COUNT(DISTINCT main_hash) FROM pages WHERE url = '" + web.site.url("/noisy") + "'"), 1);
}

// A front page whose list of headlines gets the day's weather bulletin in
// place of yesterday's (as many words, a few bits of simhash: the text alone
// reads an edit in place) has changed, by its links; a page whose sidebar
// links another bulletin on every visit, and whose main text differs by a
// counter, has not: furniture links do not count.
TEST(RevisitCrawl, AHeadlineReplacedInAListIsAChangeAndAFurnitureLinkIsNot) {
  Site site("127.0.0.1");
  std::atomic<int> front{0}, side{0};
  const char* const kDays[] = {"sexta-feira", "sábado"};
  site.http().Get("/capa", [&](const httplib::Request&, httplib::Response& res) {
    const int n = front++;
    res.set_content(news_page(std::string(kArticles[0]) + "</p><p>Últimas: <a href=\"/tempo/" + std::to_string(n) +
                              "\">Boletim do tempo para " + kDays[n % 2] + "</a>. Greve nos comboios da Linha de Sintra."),
                    "text/html; charset=utf-8");
  });
  site.http().Get("/lateral", [&](const httplib::Request&, httplib::Response& res) {
    const int n = side++;
    // A counter in the main text besides: the text differs by a number, as
    // furniture that leaked into it does.
    res.set_content(news_page(std::string(kArticles[1]) + " Lido " + std::to_string(1200 + n) + " vezes.",
                              "<aside>Mais lidas: <a href=\"/tempo/lido-" + std::to_string(n) +
                                                "\">Boletim do tempo para " + kDays[n % 2] + "</a></aside>"),
                    "text/html; charset=utf-8");
  });
  site.http().Get("/tempo/.*", [](const httplib::Request&, httplib::Response& res) {
    res.set_content(news_page("Céu limpo em todo o território, com temperaturas entre os 12 e os 25 graus."),
                    "text/html; charset=utf-8");
  });
  site.page("/", news_page("Índice. <a href=\"/capa\">capa</a> <a href=\"/lateral\">lateral</a>"));
  site.start();
  TempDir tmp;
  const std::string db = (tmp / "c.db").string();
  auto r = testing::run_cronista({"crawl", "--from", "1939", "--to", "1945", "--mode", "general", "--db", db,
                                  "--delay-ms", "20", "--quiet", "--revisit", "--revisit-policy", "uniform",
                                  "--fetch-rate", "20", "--max-fetches", "40", site.url("/")});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  expect_revisits(db, site.url("/capa"), 2, "200|1");
  expect_revisits(db, site.url("/lateral"), 2, "200|0");
  // The links' signature is stored with each download (what --resume reads).
  EXPECT_EQ(count(db, "SELECT COUNT(*) FROM pages WHERE main_hash IS NOT NULL AND main_links IS NULL"), 0);
  EXPECT_EQ(count(db, "SELECT COUNT(DISTINCT main_links) FROM pages WHERE url = '" + site.url("/lateral") + "'"), 1);
  EXPECT_EQ(count(db, "SELECT COUNT(DISTINCT main_links) FROM pages WHERE url = '" + site.url("/capa") + "'"),
            count(db, "SELECT COUNT(*) FROM pages WHERE url = '" + site.url("/capa") + "'"));
}

TEST(RevisitCrawl, UnchangedContentIsWrittenAsWarcRevisitRecords) {
  RevisitRun run(kPages * 5, true);
  const Web& web = run.web;
  const auto& o = run.o;
  const TempDir& tmp = run.tmp;
  ASSERT_TRUE(run.sum.ok()) << run.sum.status().message();

  auto reader = crawler::WarcReader::open(o.warc);
  ASSERT_TRUE(reader.ok()) << reader.status().message();
  std::vector<std::string> errors;
  (*reader)->on_error = [&](const std::string& e) { errors.push_back(e); };
  std::map<std::string, int> responses, not_modified, identical;
  std::string static_digest, static_revisit_digest;
  crawler::WarcRecord rec;
  while ((*reader)->next(&rec)) {
    const std::string uri = rec.header("WARC-Target-URI");
    if (rec.type == "response") {
      ++responses[uri];
      if (uri == web.site.url("/static")) static_digest = rec.header("WARC-Payload-Digest");
    }
    if (rec.type != "revisit") continue;
    EXPECT_EQ(rec.header("WARC-Refers-To-Target-URI"), uri);
    EXPECT_FALSE(rec.header("WARC-Refers-To-Date").empty());
    auto http = crawler::parse_http_response(rec.block);
    ASSERT_TRUE(http.ok()) << http.status().message();
    EXPECT_TRUE(http->body.empty());
    const std::string profile = rec.header("WARC-Profile");
    if (profile == "http://netpreserve.org/warc/1.1/revisit/server-not-modified") {
      ++not_modified[uri];
      EXPECT_EQ(http->status, 304);
    } else {
      EXPECT_EQ(profile, "http://netpreserve.org/warc/1.1/revisit/identical-payload-digest");
      ++identical[uri];
      EXPECT_EQ(http->status, 200);
      if (uri == web.site.url("/static")) static_revisit_digest = rec.header("WARC-Payload-Digest");
    }
  }
  EXPECT_TRUE(errors.empty()) << errors.front();
  const std::string honest = web.site.url("/honest"), stat = web.site.url("/static");
  // One full copy of each unchanged page, revisit records after it.
  EXPECT_EQ(responses[honest], 1);
  EXPECT_EQ(not_modified[honest], static_cast<int>(revisits_of(o.db, honest).size()));
  EXPECT_GE(not_modified[honest], 1);
  EXPECT_EQ(responses[stat], 1);
  EXPECT_GE(identical[stat], 1);
  EXPECT_EQ(static_revisit_digest, static_digest);
  // Pages whose bytes differ each time (a clock in the footer) get full
  // records, changed or not.
  EXPECT_EQ(responses[web.site.url("/noisy")], 1 + static_cast<int>(revisits_of(o.db, web.site.url("/noisy")).size()));
  EXPECT_EQ(identical[web.site.url("/noisy")], 0);

  const auto check = testing::run_warcio_check(o.warc, tmp);
  if (!check.missing.empty()) GTEST_SKIP() << "warcio.js check not run: " << check.missing;
  EXPECT_EQ(check.exit_code, 0) << check.output;
  EXPECT_NE(check.output.find("\"revisit\""), std::string::npos) << check.output;
}

TEST(RevisitCrawl, TheReportHasAFreshnessSectionForARevisitCrawl) {
  RevisitRun run(kPages * 5, false);
  const auto& o = run.o;
  const TempDir& tmp = run.tmp;
  ASSERT_TRUE(run.sum.ok()) << run.sum.status().message();
  auto r = testing::run_cronista({"report", "--db", o.db, "--format", "json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto j = nlohmann::json::parse(r.out);
  ASSERT_TRUE(j.contains("8.3")) << r.out.substr(0, 400);
  const auto& f = j["8.3"];
  EXPECT_EQ(f["pages revisited or scheduled"]["value"], kPages);
  EXPECT_EQ(f["revisits"]["value"], count(o.db, "SELECT COUNT(*) FROM pages WHERE revisit = 1"));
  EXPECT_EQ(f["revisits that found a change"]["value"],
            count(o.db, "SELECT COUNT(*) FROM pages WHERE revisit = 1 AND changed = 1"));
  EXPECT_EQ(f["revisits answered 304"]["value"], count(o.db, "SELECT COUNT(*) FROM pages WHERE status = 304"));
  const double freshness = f["estimated freshness now"]["value"];
  EXPECT_GT(freshness, 0.0);
  EXPECT_LE(freshness, 1.0);
  // The two pages whose main text changed on every visit, a second or so
  // apart, are estimated to change within minutes. The others were watched
  // for a few seconds only, in a crawl whose pages change every few seconds
  // on average (the pooled prior), which does not place them slower.
  const auto& rates = j["8.4"];
  EXPECT_GE(rates["changes within 10 minutes"]["pages"].get<std::int64_t>(), 2);
  std::int64_t binned = 0;
  for (auto& [bin, cells] : rates.items()) binned += cells["pages"].get<std::int64_t>();
  EXPECT_EQ(binned, kPages);
  // No revisit found a URL never seen: no hub.
  EXPECT_TRUE(j["8.5"].empty());

  const std::string html_out = (tmp / "r.html").string();
  r = testing::run_cronista({"report", "--db", o.db, "--format", "html", "--out", html_out});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const std::string page = testing::read_file(html_out);
  EXPECT_NE(page.find("Freshness of the collection"), std::string::npos);
  EXPECT_NE(page.find("mean interval between changes (estimated)"), std::string::npos);
}

// A site that announces its pages in a feed (found by <link rel="alternate">)
// and a sitemap index named by robots.txt: both are hubs. Its /sitemap.xml is
// not asked for, robots.txt having named the site's sitemaps.
TEST(RevisitCrawl, FeedsAndSitemapsAreFoundFollowedAndRevisitedAsHubs) {
  Site site;
  std::mutex mu;
  int feed_visits = 0;
  site.http().Get("/robots.txt", [&](const httplib::Request&, httplib::Response& res) {
    res.set_content("User-agent: *\nAllow: /\nSitemap: " + site.url("/mapa.xml") + "\n", "text/plain");
  });
  // Each fetch of the feed announces one more article.
  site.http().Get("/feed.xml", [&](const httplib::Request&, httplib::Response& res) {
    std::lock_guard lk(mu);
    ++feed_visits;
    std::string items;
    for (int i = feed_visits; i >= 1; --i)
      items += "<item><title>Artigo " + std::to_string(i) + "</title><link>" + site.url("/artigo/" + std::to_string(i)) +
               "</link></item>";
    res.set_content("<?xml version=\"1.0\"?><rss version=\"2.0\"><channel><title>Últimas</title>" + items +
                        "</channel></rss>",
                    "application/rss+xml");
  });
  site.http().Get(R"(/artigo/(\d+))", [&](const httplib::Request& req, httplib::Response& res) {
    res.set_content(news_page(std::string(kArticles[std::stoi(req.matches[1]) % 3])), "text/html; charset=utf-8");
  });
  SitePage home;
  home.body = "<!DOCTYPE html><html lang=\"pt\"><head><meta charset=\"utf-8\"><title>Jornal</title>"
              "<link rel=\"alternate\" type=\"application/rss+xml\" href=\"/feed.xml\"></head><body><main><p>" +
              std::string(kArticles[0]) + "</p></main></body></html>";
  site.page("/", home);
  // Sitemaps name absolute URLs: written when asked, once the port is known.
  auto xml = [&](std::string body) {
    return [body = std::move(body), &site](const httplib::Request&, httplib::Response& res) {
      std::string out = body;
      for (std::size_t at; (at = out.find("ORIGIN")) != std::string::npos;) out.replace(at, 6, site.origin());
      res.set_content(out, "text/xml");
    };
  };
  site.http().Get("/mapa.xml", xml("<sitemapindex xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\"><sitemap>"
                                   "<loc>ORIGIN/mapa-1.xml</loc></sitemap></sitemapindex>"));
  site.http().Get("/mapa-1.xml", xml("<urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\"><url>"
                                     "<loc>ORIGIN/pagina-a</loc></url><url><loc>ORIGIN/pagina-b</loc></url></urlset>"));
  std::atomic<int> sitemap_requests{0};
  site.http().Get("/sitemap.xml", [&, serve = xml("<urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\"><url>"
                                      "<loc>ORIGIN/pagina-c</loc></url></urlset>")](const httplib::Request& req,
                                                                                   httplib::Response& res) {
    ++sitemap_requests;
    serve(req, res);
  });
  for (const char* p : {"/pagina-a", "/pagina-b", "/pagina-c"}) site.page(p, news_page(kArticles[1]));
  site.start();

  TempDir tmp;
  auto o = uniform_revisits(tmp, site.url("/"), 20, 120);
  o.discovery_wait_s = 0.5;  // the 120 requests take a few seconds: the feed is visited every second
  auto sum = crawler::run_crawl(o, nullptr);
  ASSERT_TRUE(sum.ok()) << sum.status().message();
  const std::string db = o.db;
  const auto downloaded = rows(db, "SELECT url FROM history");
  const std::set<std::string> got(downloaded.begin(), downloaded.end());
  for (const char* p : {"/", "/feed.xml", "/mapa.xml", "/mapa-1.xml", "/pagina-a", "/pagina-b", "/artigo/1"})
    EXPECT_TRUE(got.count(site.url(p))) << p;
  for (const char* p : {"/sitemap.xml", "/pagina-c"}) EXPECT_FALSE(got.count(site.url(p))) << p;
  EXPECT_EQ(sitemap_requests.load(), 0);
  // The feed was revisited, and its revisits announced new articles, which were fetched.
  expect_revisits(db, site.url("/feed.xml"), 2, "200|1");
  EXPECT_EQ(count(db, "SELECT MIN(new_urls) FROM pages WHERE revisit = 1 AND url = '" + site.url("/feed.xml") + "'"), 1);
  EXPECT_GE(count(db, "SELECT COUNT(*) FROM history WHERE url LIKE '%/artigo/%'"), 2);
  // Every article the feed announced is in the frontier or downloaded, none lost.
  std::lock_guard lk(mu);
  EXPECT_EQ(count(db, "SELECT COUNT(*) FROM urls WHERE url LIKE '%/artigo/%'"), feed_visits);
}

// New URLs and revisits share the budget: while new URLs are queued they
// keep at least a fifth of the requests, however many revisits fall due.
// Here an index links to forty pages of its host (whose politeness allows
// more than twice the budget), the index changes on every visit and the pages
// join the schedule one by one as they come, each at the frequency the
// last solve gave the fewer pages before it.
TEST(RevisitCrawl, NewUrlsKeepAFifthOfTheRequestsWhileAnyIsQueued) {
  Site site;
  std::mutex mu;
  std::vector<std::string> seen;
  int index_version = 0;
  site.http().set_pre_routing_handler([&](const httplib::Request& req, httplib::Response&) {
    if (req.path != "/robots.txt" && req.path != "/sitemap.xml") {
      std::lock_guard lk(mu);
      seen.push_back(req.path);
    }
    return httplib::Server::HandlerResponse::Unhandled;
  });
  constexpr int kLinked = 40;
  site.http().Get("/", [&](const httplib::Request&, httplib::Response& res) {
    std::string links;
    for (int i = 0; i < kLinked; ++i) links += "<a href=\"/artigo-" + std::to_string(i) + "\">artigo</a> ";
    std::lock_guard lk(mu);
    res.set_content(news_page(kArticles[index_version++ % 3] + std::string(" ") + links), "text/html; charset=utf-8");
  });
  for (int i = 0; i < kLinked; ++i) site.page("/artigo-" + std::to_string(i), news_page(kArticles[i % 3]));
  site.start();

  TempDir tmp;
  const auto o = uniform_revisits(tmp, site.url("/"), 20, 3 * kLinked);
  auto sum = crawler::run_crawl(o, nullptr);
  ASSERT_TRUE(sum.ok()) << sum.status().message();
  std::lock_guard lk(mu);
  // The requests up to the last first download of a page: while it was
  // queued, every fifth slot at least was a new URL's.
  std::set<std::string> downloaded;
  std::size_t last_new = 0;
  for (std::size_t i = 0; i < seen.size(); ++i)
    if (downloaded.insert(seen[i]).second) last_new = i;
  EXPECT_EQ(downloaded.size(), static_cast<std::size_t>(kLinked + 1));
  const double share = static_cast<double>(downloaded.size()) / static_cast<double>(last_new + 1);
  EXPECT_GE(share, 0.2) << downloaded.size() << " new of the first " << last_new + 1 << " requests";
}

// The budget is spent whole. The optimum gives pages different intervals
// (here the index changes on every visit, its articles never), so their due
// times bunch and leave gaps: a slot in a gap, with nothing due and no new
// URL, revisits the page due earliest on a free host ahead of time. No
// more requests are made than --max-fetches, and every article is kept.
// The crawl runs 15 s, past the periodic solve at 10 s: on a slow machine
// the solve when new URLs run dry can come before the last pages' analyses
// have added them to the schedule, and those join at the mean frequency,
// which overcommits the budget (nothing is ever early) until the next solve.
TEST(RevisitCrawl, SlotsWithNothingDueBringTheEarliestRevisitForward) {
  Site site;
  std::mutex mu;
  std::size_t requests = 0;
  int index_version = 0;
  site.http().set_pre_routing_handler([&](const httplib::Request& req, httplib::Response&) {
    if (req.path != "/robots.txt" && req.path != "/sitemap.xml") {
      std::lock_guard lk(mu);
      ++requests;
    }
    return httplib::Server::HandlerResponse::Unhandled;
  });
  constexpr int kLinked = 30;
  std::string links;
  for (int i = 0; i < kLinked; ++i) links += "<a href=\"/artigo-" + std::to_string(i) + "\">artigo</a> ";
  site.http().Get("/", [&](const httplib::Request&, httplib::Response& res) {
    std::lock_guard lk(mu);
    res.set_content(news_page(kArticles[index_version++ % 3] + std::string(" ") + links), "text/html; charset=utf-8");
  });
  for (int i = 0; i < kLinked; ++i) site.page("/artigo-" + std::to_string(i), news_page(kArticles[i % 3]));
  site.start();

  TempDir tmp;
  constexpr std::int64_t kFetches = 300;
  auto o = optimal_revisits(tmp, site.url("/"), kFetches);
  auto sum = crawler::run_crawl(o, nullptr);
  ASSERT_TRUE(sum.ok()) << sum.status().message();
  EXPECT_EQ(count(o.db, "SELECT COUNT(*) FROM history WHERE url LIKE '%/artigo-%'"), kLinked);
  EXPECT_GT(sum->spare_revisits, 0) << "fetches " << sum->fetches << ", revisits " << sum->revisits << ", changed "
                                    << sum->changed << ", scheduled " << sum->scheduled << " at "
                                    << sum->scheduled_rate << "/s of " << sum->revisit_budget << "/s, "
                                    << sum->seconds << " s";
  std::lock_guard lk(mu);
  EXPECT_LE(requests, static_cast<std::size_t>(kFetches));
}

// A page that robots.txt forbids after its first visit is not revisited
// once the crawl has read the new rules: the site keeps its robots.txt a
// second (Cache-Control: max-age=1) and forbids /fechado as soon as it has
// served it. At the server, no request for /fechado follows the first
// robots.txt that forbids it but one sent while the old rules still held
// (a robots.txt fetch does not wait for the host's transfer under way),
// while the other pages go on being revisited; a crawl that kept the rules
// a day revisits it a dozen times.
TEST(RevisitCrawl, APageRobotsTxtForbidsAfterItsFirstVisitIsNotRevisited) {
  Site site;
  std::mutex mu;
  std::vector<std::string> order;  // paths as served; "robots:forbids" for the new rules
  bool closed = false;
  site.http().Get("/robots.txt", [&](const httplib::Request&, httplib::Response& res) {
    std::lock_guard lk(mu);
    order.push_back(closed ? "robots:forbids" : "robots:allows");
    res.set_header("Cache-Control", "max-age=1");
    res.set_content(closed ? "User-agent: *\nDisallow: /fechado\n" : "User-agent: *\nDisallow: /privado\n",
                    "text/plain");
  });
  int edition = 0;
  auto page = [&](const char* path) {
    site.http().Get(path, [&, path](const httplib::Request&, httplib::Response& res) {
      std::lock_guard lk(mu);
      order.push_back(path);
      if (std::string(path) == "/fechado") closed = true;
      res.set_content(news_page(kArticles[edition++ % 3] + std::string(" <a href=\"/aberto\">aberto</a> "
                                                                       "<a href=\"/fechado\">fechado</a>")),
                      "text/html; charset=utf-8");
    });
  };
  page("/");
  page("/aberto");
  page("/fechado");
  site.start();

  TempDir tmp;
  auto o = uniform_revisits(tmp, site.url("/"), 20, 90);
  o.host_connections = 1;
  auto sum = crawler::run_crawl(o, nullptr);
  ASSERT_TRUE(sum.ok()) << sum.status().message();
  std::lock_guard lk(mu);
  const auto forbids = std::find(order.begin(), order.end(), "robots:forbids");
  ASSERT_NE(forbids, order.end()) << "robots.txt was not read again within the crawl";
  EXPECT_GE(std::count(order.begin(), forbids, "/fechado"), 1);
  EXPECT_LE(std::count(forbids, order.end(), "/fechado"), 1);
  EXPECT_GE(std::count(forbids, order.end(), "/aberto"), 2);  // the others are still revisited
}

// Under the optimum a page that stops answering with a document is not
// revisited for its freshness: /muda turns into a redirect to /a after its
// first visit and /some into a 404, while /a and /b change on every visit.
// The crawl's spare slots bring /a and /b forward again and again; /muda
// and /some are asked once more (the answer that shows they have no
// document), then not again within the crawl (the next ask is a minute
// later). A crawl that kept their weight asked them again at every solve.
TEST(RevisitCrawl, TheOptimumDoesNotRevisitARedirectOrA404ForFreshness) {
  Site site;
  std::mutex mu;
  std::map<std::string, int> served;
  int edition = 0;
  site.http().Get(R"(/(a|b|muda|some)?)", [&](const httplib::Request& req, httplib::Response& res) {
    std::lock_guard lk(mu);
    const int n = ++served[req.path];
    if (req.path == "/muda" && n > 1) {
      res.status = 302;
      res.set_header("Location", "/a");
      return;
    }
    if (req.path == "/some" && n > 1) {
      res.status = 404;
      res.set_content(testing::html("<main><p>Página não encontrada.</p></main>"), "text/html; charset=utf-8");
      return;
    }
    const std::string links = req.path == "/" ? " <a href=\"/a\">a</a> <a href=\"/b\">b</a> <a href=\"/muda\">muda</a> "
                                                "<a href=\"/some\">some</a>"
                                              : "";
    res.set_content(news_page(kArticles[edition++ % 3] + links), "text/html; charset=utf-8");
  });
  site.start();

  TempDir tmp;
  auto o = optimal_revisits(tmp, site.url("/"), 240);
  auto sum = crawler::run_crawl(o, nullptr);
  ASSERT_TRUE(sum.ok()) << sum.status().message();
  EXPECT_EQ(sum->lost_documents, 2);
  EXPECT_GT(sum->spare_revisits, 0);
  std::lock_guard lk(mu);
  EXPECT_EQ(served["/muda"], 2);
  EXPECT_EQ(served["/some"], 2);
  EXPECT_GE(served["/a"], 20);
  EXPECT_GE(served["/b"], 20);
  EXPECT_EQ(count(o.db, "SELECT COUNT(*) FROM pages WHERE revisit = 1 AND url LIKE '%/muda' AND status = 302"), 1);
  EXPECT_EQ(count(o.db, "SELECT COUNT(*) FROM pages WHERE revisit = 1 AND url LIKE '%/some' AND status = 404"), 1);
}

// A hub that answers 503 twice and then 200 again: while it has no
// document it is still revisited as a hub (it announced a new page on every
// visit before; the optimum would otherwise ask it again a minute later), and the first 200 after the errors gets its weight back
// with no comparison across the gap (changed NULL: the content before the
// errors says nothing of when it changed); the visits after it are compared
// again.
TEST(RevisitCrawl, AHubThatAnswers503AndThen200AgainIsComparedAfreshFromThen) {
  Site site;
  std::mutex mu;
  int hub_requests = 0;
  std::vector<int> hub_status;
  site.http().Get("/", [&](const httplib::Request&, httplib::Response& res) {
    std::lock_guard lk(mu);
    const int n = ++hub_requests;
    if (n == 4 || n == 5) {
      res.status = 503;
      hub_status.push_back(503);
      return;
    }
    hub_status.push_back(200);
    std::string links;
    for (int i = std::max(1, n - 4); i <= n; ++i) links += " <a href=\"/n-" + std::to_string(i) + "\">notícia</a>";
    res.set_content(news_page(kArticles[n % 3] + links), "text/html; charset=utf-8");
  });
  site.http().Get(R"(/n-(\d+))", [&](const httplib::Request& req, httplib::Response& res) {
    res.set_content(news_page(kArticles[std::stoi(req.matches[1]) % 3]), "text/html; charset=utf-8");
  });
  site.start();

  TempDir tmp;
  auto o = optimal_revisits(tmp, site.url("/"), 300);
  // A lone hub's discovery visits come every 2 × the wait: every half
  // second, so that the crawl sees the hub again after its errors however
  // slowly it runs (the fetch count, not the clock, ends it).
  o.discovery_wait_s = 0.25;
  auto sum = crawler::run_crawl(o, nullptr);
  ASSERT_TRUE(sum.ok()) << sum.status().message();
  const auto hub = rows(o.db, "SELECT status || '|' || coalesce(changed, 'NULL') FROM pages WHERE revisit = 1 AND url = '" +
                                  site.url("/") + "' ORDER BY id");
  // Revisits 1 and 2 (requests 2 and 3) compared; 3 and 4 the 503s; 5 the
  // first 200 again; then compared again.
  ASSERT_GE(hub.size(), 6u) << "the hub was not revisited after its errors";
  EXPECT_NE(hub[0], "200|NULL");
  EXPECT_EQ(hub[2], "503|NULL");
  EXPECT_EQ(hub[3], "503|NULL");
  EXPECT_EQ(hub[4], "200|NULL");
  EXPECT_EQ(hub[5], "200|1");
  EXPECT_EQ(sum->lost_documents, 2);
}

// --fetch-rate after an idle spell: the crawl waits two seconds for a slow
// page that links to thirty more, all on one host whose politeness would
// allow five times the rate. No burst may follow the wait: on the server's
// clock, no second holds more than the rate's requests and the bucket's one
// spare (11 at 10/s), and one more for the loopback's jitter; a crawl that
// saved up its idle slots sent all thirty in one.
TEST(FetchRate, NoBurstFollowsAnIdleSpell) {
  Site site;
  std::mutex mu;
  std::vector<std::chrono::steady_clock::time_point> seen;
  site.http().set_pre_routing_handler([&](const httplib::Request& req, httplib::Response&) {
    if (req.path != "/robots.txt") {
      std::lock_guard lk(mu);
      seen.push_back(std::chrono::steady_clock::now());
    }
    return httplib::Server::HandlerResponse::Unhandled;
  });
  constexpr int kLinked = 30;
  site.http().Get("/lento", [&](const httplib::Request&, httplib::Response& res) {
    std::this_thread::sleep_for(std::chrono::seconds(2));
    std::string links;
    for (int i = 0; i < kLinked; ++i) links += "<a href=\"/artigo-" + std::to_string(i) + "\">artigo</a> ";
    res.set_content(news_page(kArticles[0] + std::string(" ") + links), "text/html; charset=utf-8");
  });
  for (int i = 0; i < kLinked; ++i) site.page("/artigo-" + std::to_string(i), news_page(kArticles[i % 3]));
  site.page("/", news_page("Índice. <a href=\"/lento\">lento</a>"));
  site.start();

  TempDir tmp;
  auto o = testing::test_options(tmp, {site.url("/")});
  o.fetch_rate = 10;
  o.host_connections = 4;
  auto sum = crawler::run_crawl(o, nullptr);
  ASSERT_TRUE(sum.ok()) << sum.status().message();
  EXPECT_EQ(sum->end_reason, "frontier-empty");
  EXPECT_EQ(count(o.db, "SELECT COUNT(*) FROM history WHERE url LIKE '%/artigo-%'"), kLinked);
  std::lock_guard lk(mu);
  ASSERT_GE(seen.size(), static_cast<std::size_t>(kLinked + 2));
  std::size_t most = 0;
  for (std::size_t i = 0, j = 0; i < seen.size(); ++i) {
    while (seen[i] - seen[j] >= std::chrono::seconds(1)) ++j;
    most = std::max(most, i - j + 1);
  }
  EXPECT_LE(most, 12u) << "requests within one second on the server's clock";
}

// A crawl held back by its budget sleeps until the next request slot: the
// event loop's thread spends next to no CPU while a host, its politeness gap
// over, waits with URLs for the slot. (The loop used to go round without
// sleeping from the end of the gap to the slot: some 40% of a core in a
// revisit crawl of the living web at 2 requests/s.)
TEST(FetchRate, ACrawlWaitingForItsNextSlotSleeps) {
  Site site;
  std::atomic<int> served{0};
  site.http().set_pre_routing_handler([&](const httplib::Request& req, httplib::Response&) {
    if (req.path != "/robots.txt") ++served;
    return httplib::Server::HandlerResponse::Unhandled;
  });
  constexpr int kLinked = 40;
  std::string links;
  for (int i = 0; i < kLinked; ++i) {
    links += "<a href=\"/artigo-" + std::to_string(i) + "\">artigo</a> ";
    site.page("/artigo-" + std::to_string(i), news_page(kArticles[i % 3]));
  }
  site.page("/", news_page(kArticles[0] + std::string(" ") + links));
  site.start();

  TempDir tmp;
  auto o = testing::test_options(tmp, {site.url("/")});
  o.fetch_rate = 2;
  o.delay_ms = 100;  // the host's gap ends well before the next slot
  o.max_pages = 14;
  std::optional<Result<crawler::CrawlSummary>> sum;
  std::thread crawl([&] { sum = crawler::run_crawl(o, nullptr); });
  auto cpu = [&] {
    clockid_t id;
    timespec ts{};
    if (pthread_getcpuclockid(crawl.native_handle(), &id) != 0 || clock_gettime(id, &ts) != 0) return -1.0;
    return static_cast<double>(ts.tv_sec) + static_cast<double>(ts.tv_nsec) / 1e9;
  };
  // Once the seed's links are queued (the tagger loaded, the first pages
  // in), the host has a URL ready at every slot: the loop waits on the
  // budget alone.
  const auto give_up = std::chrono::steady_clock::now() + std::chrono::seconds(60);
  while (served < 3 && std::chrono::steady_clock::now() < give_up) std::this_thread::sleep_for(std::chrono::milliseconds(20));
  const double before = cpu();
  const int served_before = served;
  std::this_thread::sleep_for(std::chrono::seconds(3));
  const double after = cpu();
  const int served_after = served;
  crawl.join();
  ASSERT_TRUE(sum && sum->ok()) << (sum ? sum->status().message() : "no result");
  EXPECT_EQ((*sum)->end_reason, "max-pages");
  ASSERT_GE(before, 0.0);
  // The budget was spent meanwhile (about 6 requests in 3 s) ...
  EXPECT_GE(served_after - served_before, 4);
  // ... by a loop that slept between them.
  EXPECT_LT(after - before, 0.5) << "CPU seconds of the crawl loop's thread in 3 s of waiting on the budget";
}

std::vector<std::string> crawl_args(const TempDir& tmp, const Web& web) {
  return {"crawl", "--from", "1939", "--to", "1945", "--mode", "general", "--db", (tmp / "c.db").string(),
          "--delay-ms", "20", "--quiet", web.site.url("/")};
}

TEST(RevisitCrawl, KilledWithMinus9AndResumedKeepsHistoryValidatorsAndSignatures) {
  Web web;
  TempDir tmp;
  const std::string db = (tmp / "c.db").string();
  auto args = crawl_args(tmp, web);
  for (const char* a : {"--revisit", "--revisit-policy", "uniform", "--fetch-rate", "10"}) args.push_back(a);
  testing::Child first = testing::spawn_cronista(args, (tmp / "err1").string());
  // Killed once the collection is crawled and revisited: a page whose first
  // download was not written yet would rightly be fetched again without validators.
  testing::wait_for_count(db, "SELECT COUNT(*) FROM history WHERE url NOT LIKE '%/sitemap.xml'", kPages);
  testing::wait_for_count(db, "SELECT COUNT(*) FROM pages WHERE revisit = 1", 10);
  ::kill(first.pid, SIGKILL);
  EXPECT_EQ(first.wait(), 128 + SIGKILL);
  const std::int64_t before = count(db, "SELECT COUNT(*) FROM pages WHERE revisit = 1");
  ASSERT_GE(before, 10) << testing::read_file(tmp / "err1");
  const std::int64_t max_id = count(db, "SELECT MAX(id) FROM pages");
  const std::size_t honest_before = web.log.of("/honest").size();

  auto r = testing::run_cronista({"crawl", "--resume", "--db", db, "--max-fetches", "30", "--quiet"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.err.find("stopped: max-fetches"), std::string::npos) << r.err;
  // Nothing downloaded twice as new; the revisits went on.
  EXPECT_EQ(pages_downloaded(db), kPages);
  EXPECT_EQ(pages_downloaded(db, true), kPages);
  const std::string after = " AND id > " + std::to_string(max_id);
  EXPECT_GE(count(db, "SELECT COUNT(*) FROM pages WHERE revisit = 1" + after), 20);
  // The signatures came back: every revisit after the resume was compared.
  EXPECT_EQ(count(db, "SELECT COUNT(*) FROM pages WHERE revisit = 1 AND changed IS NULL" + after), 0);
  EXPECT_EQ(count(db, "SELECT COUNT(*) FROM pages WHERE revisit = 1 AND changed = 0 AND url = '" +
                          web.site.url("/news") + "'"),
            0);
  // The validators came back: the honest page is still asked conditionally.
  const auto honest = web.log.of("/honest");
  ASSERT_GT(honest.size(), honest_before);
  for (std::size_t i = honest_before; i < honest.size(); ++i) EXPECT_EQ(honest[i].if_none_match, web.honest_etag);
  // And the Last-Modified found wrong before the kill stays distrusted.
  EXPECT_EQ(web.log.conditional("/fixed"), 1u);
  // Each host's /sitemap.xml (robots.txt names none) was asked once, its 404 remembered.
  EXPECT_EQ(count(db, "SELECT COUNT(*) FROM pages WHERE url LIKE '%/sitemap.xml'"), kHosts);
}

TEST(RevisitCrawl, ACrawlStartedWithoutRevisitsContinuesWithThem) {
  Web web;
  TempDir tmp;
  const std::string db = (tmp / "c.db").string();
  auto r = testing::run_cronista(crawl_args(tmp, web));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.err.find("stopped: frontier-empty"), std::string::npos) << r.err;
  EXPECT_EQ(count(db, "SELECT COUNT(*) FROM pages WHERE revisit = 1"), 0);

  r = testing::run_cronista({"crawl", "--resume", "--db", db, "--revisit", "--max-fetches", "21", "--fetch-rate", "10",
                             "--revisit-policy", "uniform", "--quiet"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.err.find("revisits: "), std::string::npos) << r.err;
  EXPECT_EQ(pages_downloaded(db), kPages);
  // --max-fetches bounds the run's requests: revisits, and the hosts' /sitemap.xml.
  EXPECT_EQ(count(db, "SELECT COUNT(*) FROM pages WHERE run_id = 2"), 21);
  EXPECT_GE(count(db, "SELECT COUNT(*) FROM pages WHERE revisit = 1"), 21 - kHosts);
  EXPECT_EQ(count(db, "SELECT COUNT(*) FROM pages WHERE revisit = 1 AND changed IS NULL"), 0);
  EXPECT_GE(count(db, "SELECT COUNT(*) FROM pages WHERE revisit = 1 AND status = 304"), 1);
}

// A database written before the revisit columns existed (crawl schema 1) is
// migrated when a crawl opens it, and continues with revisits.
TEST(RevisitCrawl, ADatabaseOfCrawlSchema1GainsTheRevisitColumns) {
  Web web;
  TempDir tmp;
  const std::string db = (tmp / "c.db").string();
  auto r = testing::run_cronista(crawl_args(tmp, web));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  {
    // Back to schema 1: the pages table without the six columns.
    auto d = store::Database::open(db);
    ASSERT_TRUE(d.ok()) << d.status().message();
    for (const char* c : {"main_hash", "simhash", "main_words", "revisit", "changed", "new_urls"})
      ASSERT_TRUE(d->exec(std::string("ALTER TABLE pages DROP COLUMN ") + c).ok()) << c;
    ASSERT_TRUE(d->exec("UPDATE crawl_meta SET value = '1' WHERE key = 'schema_version'").ok());
  }
  EXPECT_EQ(count(db, "SELECT COUNT(*) FROM pragma_table_info('pages') WHERE name = 'main_hash'"), 0);

  r = testing::run_cronista({"crawl", "--resume", "--db", db, "--revisit", "--max-fetches", "30", "--fetch-rate", "20",
                             "--revisit-policy", "uniform", "--quiet"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(testing::scalar(db, "SELECT value FROM crawl_meta WHERE key = 'schema_version'"), "2");
  // The rows of schema 1 have no signature: each page's first revisit sets
  // its baseline (changed NULL), the later ones are compared with it.
  EXPECT_EQ(count(db, "SELECT COUNT(*) FROM pages WHERE revisit = 0 AND main_hash IS NOT NULL AND run_id = 1"), 0);
  EXPECT_GE(count(db, "SELECT COUNT(*) FROM pages WHERE revisit = 1"), 20);
  const auto noisy = revisits_of(db, web.site.url("/noisy"));
  ASSERT_GE(noisy.size(), 2u);
  EXPECT_EQ(noisy[0], "200|NULL");
  for (std::size_t i = 1; i < noisy.size(); ++i) EXPECT_EQ(noisy[i], "200|0");
  // The validators of schema 1 rows are used: the honest page answers 304.
  EXPECT_GE(count(db, "SELECT COUNT(*) FROM pages WHERE status = 304"), 1);
  EXPECT_GE(count(db, "SELECT COUNT(*) FROM pages WHERE revisit = 1 AND changed = 1 AND url = '" +
                          web.site.url("/news") + "'"),
            1);
}

TEST(RevisitCrawl, BadValuesAndCombinationsAreOneLineUsageErrors) {
  TempDir tmp;
  const std::string db = (tmp / "c.db").string();
  const std::vector<std::string> base = {"crawl", "--from", "1939", "--to", "1945", "--db", db, "http://127.0.0.1:9/"};
  struct Case {
    std::vector<std::string> extra;
    std::string says;
  } cases[] = {
      {{"--revisit", "--run-for", "10x"}, "--run-for '10x'"},
      {{"--revisit", "--run-for", "0s"}, "--run-for '0s'"},
      {{"--revisit", "--run-for", "1h30"}, "--run-for '1h30'"},
      {{"--revisit", "--revisit-policy", "fastest"}, "--revisit-policy 'fastest'"},
      {{"--revisit-policy", "uniform"}, "--revisit-policy needs --revisit"},
      {{"--revisit", "--discovery-wait", "soon"}, "--discovery-wait 'soon'"},
      {{"--revisit", "--discovery-wait", "0s"}, "--discovery-wait '0s'"},
      {{"--discovery-wait", "5s"}, "--discovery-wait needs --revisit"},
      {{"--revisit", "--rate-prior", "guessed"}, "--rate-prior 'guessed'"},
      {{"--rate-prior", "learned"}, "--rate-prior needs --revisit"},
      {{"--revisit", "--fetch-rate", "-1"}, "--fetch-rate"},
      {{"--revisit", "--max-fetches", "-3"}, "--max-fetches"},
  };
  for (const Case& c : cases) {
    auto args = base;
    args.insert(args.end(), c.extra.begin(), c.extra.end());
    auto r = testing::run_cronista(args);
    EXPECT_EQ(r.exit_code, 2) << c.says << ": " << r.err;
    EXPECT_NE(r.err.find(c.says), std::string::npos) << r.err;
    EXPECT_EQ(testing::count_lines(r.err), 1) << r.err;
    EXPECT_FALSE(std::filesystem::exists(db)) << c.says;
  }
}

}  // namespace
}  // namespace cronista
