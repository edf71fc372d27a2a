// The crawl loop end to end against real HTTP servers on loopback:
// politeness, robots.txt, redirects, errors and retries, limits, charsets,
// malformed HTML, link resolution, priority order, spider traps, WARC.
#include "crawler/crawl.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <map>
#include <set>

#include "crawler/charset.h"
#include "crawler/crawl_stats.h"
#include "crawler/crawl_store.h"
#include "crawler/crawl_support.h"
#include "crawler/stamping_server.h"
#include "crawler/warc.h"
#include "crawler/warcio_check.h"

namespace cronista::crawler {
namespace {

using testing::count;
using testing::html;
using testing::rows;
using testing::scalar;
using testing::Site;
using testing::SitePage;
using testing::TempDir;
using testing::test_options;

CrawlSummary crawl_ok(const CrawlOptions& o) {
  auto s = run_crawl(o, nullptr);
  EXPECT_TRUE(s.ok()) << s.status().message();
  return s.ok() ? *s : CrawlSummary{};
}

// The server logs a request when a handler thread picks it up, so one log
// time can lag its arrival; a lag shortens the gap after it and lengthens
// the one before. Each gap must be close to the minimum, and the whole span
// at least (n - 1) minimum gaps, which a lag cannot fake.
void expect_gaps(const std::vector<testing::TestServer::Request>& log, int min_gap_ms) {
  using std::chrono::duration_cast;
  using std::chrono::milliseconds;
  for (std::size_t i = 1; i < log.size(); ++i) {
    const auto gap = duration_cast<milliseconds>(log[i].at - log[i - 1].at).count();
    EXPECT_GE(gap, min_gap_ms * 7 / 10) << log[i - 1].path << " → " << log[i].path;
  }
  const auto span = duration_cast<milliseconds>(log.back().at - log.front().at).count();
  EXPECT_GE(span, static_cast<long>(log.size() - 1) * min_gap_ms - 20);
}

std::vector<std::string> lines(const std::string& text) {
  std::vector<std::string> out;
  std::size_t pos = 0;
  while (pos < text.size()) {
    std::size_t nl = text.find('\n', pos);
    if (nl == std::string::npos) nl = text.size();
    out.push_back(text.substr(pos, nl - pos));
    pos = nl + 1;
  }
  return out;
}

TEST(Crawl, AGeneralCrawlFollowsEveryLinkAndRecordsTheDownloadOrder) {
  Site site;
  site.page("/", html("<p>Índice: <a href=\"/a\">a</a> <a href=\"/b\">b</a></p>", "Início"));
  site.page("/a", html("<p>Em 1944 deu-se o desembarque. <a href=\"/c\">c</a></p>"));
  site.page("/b", html("<p>Lisboa é a capital. <a href=\"/\">início</a></p>"));
  site.page("/c", html("<p>Fim.</p>"));
  site.start();
  TempDir tmp;
  auto o = test_options(tmp, {site.url("/")});
  o.order_out = (tmp / "order.txt").string();
  auto s = crawl_ok(o);
  EXPECT_EQ(s.pages, 4);
  EXPECT_EQ(s.end_reason, "frontier-empty");
  const auto history = rows(o.db, "SELECT url FROM history ORDER BY seq");
  ASSERT_EQ(history.size(), 4u);
  EXPECT_EQ(history[0], site.url("/"));
  std::vector<std::string> order;
  for (const std::string& line : lines(testing::read_file(o.order_out))) order.push_back(line.substr(0, line.find('\t')));
  EXPECT_EQ(order, history);
  // Every page once; robots.txt asked before anything else.
  EXPECT_EQ(site.server().paths().front(), "/robots.txt");
  for (const char* p : {"/", "/a", "/b", "/c"}) EXPECT_EQ(site.server().count(p), 1) << p;
  EXPECT_EQ(count(o.db, "SELECT COUNT(*) FROM documents"), 4);
  EXPECT_EQ(scalar(o.db, "SELECT title FROM documents WHERE url = '" + site.url("/") + "'"), "Início");
  EXPECT_EQ(count(o.db, "SELECT COUNT(*) FROM links"), 4);
  EXPECT_EQ(count(o.db, "SELECT COUNT(*) FROM frontier"), 0);
  EXPECT_EQ(scalar(o.db, "SELECT end_reason FROM runs"), "frontier-empty");
  EXPECT_EQ(scalar(o.db, "SELECT robots_outcome IS NOT NULL FROM hosts"), "1");
}

// The arrivals are stamped by the server's network stack (the kernel's
// receive time of each request's first byte), so no lag of the server's
// threads under load can shorten or lengthen a gap: every one is at least
// the delay (1 ms for the kernel's clock against the crawler's).
TEST(Crawl, KeepsTheMinimumGapBetweenRequestsToOneHost) {
  std::map<std::string, std::string> pages;
  std::string links;
  for (int i = 0; i < 6; ++i) links += "<a href=\"/p" + std::to_string(i) + "\">p</a> ";
  pages["/"] = html("<p>" + links + "</p>");
  for (int i = 0; i < 6; ++i) pages["/p" + std::to_string(i)] = html("<p>Página.</p>");
  testing::StampingServer server(pages);
  TempDir tmp;
  auto o = test_options(tmp, {server.url("/")});
  o.delay_ms = 150;
  o.host_connections = 4;  // the gap holds even with several connections
  crawl_ok(o);
  const auto arrivals = server.arrivals();
  EXPECT_EQ(server.unstamped(), 0);
  ASSERT_EQ(arrivals.size(), 8u);
  EXPECT_EQ(arrivals.front().path, "/robots.txt");
  std::set<std::string> paths;
  for (const auto& a : arrivals) paths.insert(a.path);
  EXPECT_EQ(paths.size(), 8u);
  for (std::size_t i = 1; i < arrivals.size(); ++i) {
    const auto gap = std::chrono::duration_cast<std::chrono::microseconds>(arrivals[i].at - arrivals[i - 1].at);
    EXPECT_GE(gap.count(), 149'000) << arrivals[i - 1].path << " → " << arrivals[i].path;
  }
}

TEST(Crawl, TheOrderFileGivesEachDownloadTheCrawlingTimeWhenItWasFetched) {
  Site site;
  std::string links;
  for (int i = 0; i < 4; ++i) links += "<a href=\"/p" + std::to_string(i) + "\">p</a> ";
  site.page("/", html("<p>" + links + "</p>"));
  for (int i = 0; i < 4; ++i) site.page("/p" + std::to_string(i), html("<p>Página.</p>"));
  site.start();
  TempDir tmp;
  auto o = test_options(tmp, {site.url("/")});
  o.order_out = (tmp / "order.txt").string();
  o.delay_ms = 150;
  o.host_connections = 1;
  crawl_ok(o);
  const auto order = lines(testing::read_file(o.order_out));
  ASSERT_EQ(order.size(), 5u);
  // One host, one request every 150 ms at least, robots.txt first: the
  // front page after 0.15 s, the k-th page after (k + 1) × 0.15 s.
  std::vector<double> seconds;
  for (const std::string& line : order) {
    const std::size_t tab = line.find('\t');
    ASSERT_NE(tab, std::string::npos) << line;
    seconds.push_back(std::stod(line.substr(tab + 1)));
  }
  std::sort(seconds.begin(), seconds.end());
  for (std::size_t k = 0; k < seconds.size(); ++k) EXPECT_GE(seconds[k], 0.15 * static_cast<double>(k + 1)) << k;
}

TEST(Crawl, ObeysRobotsTxtIncludingCrawlDelay) {
  Site site;
  site.page("/robots.txt", SitePage{200, "text/plain",
                                    "User-agent: *\nDisallow: /\n\nUser-agent: cronista\nDisallow: /privado\n"
                                    "Allow: /privado/publico\nCrawl-delay: 0.3\n",
                                    {}});
  site.page("/", html("<p><a href=\"/privado/x\">x</a> <a href=\"/privado/publico\">p</a> <a href=\"/livre\">l</a></p>"));
  site.page("/privado/x", html("<p>segredo</p>"));
  site.page("/privado/publico", html("<p>público</p>"));
  site.page("/livre", html("<p>livre</p>"));
  site.start();
  TempDir tmp;
  auto o = test_options(tmp, {site.url("/")});
  o.delay_ms = 10;
  o.user_agent = "cronista/0.1 (+http://example.org/sobre)";
  crawl_ok(o);
  EXPECT_EQ(site.server().count("/privado/x"), 0);
  EXPECT_EQ(site.server().count("/privado/publico"), 1);
  EXPECT_EQ(site.server().count("/livre"), 1);
  const auto log = site.server().log();
  ASSERT_EQ(log.front().path, "/robots.txt");
  expect_gaps(log, 300);
  for (std::size_t i = 1; i < log.size(); ++i) {
    EXPECT_EQ(log[i].user_agent, o.user_agent);
  }
  EXPECT_EQ(scalar(o.db, "SELECT state FROM urls WHERE url = '" + site.url("/privado/x") + "'"), "dropped");
  EXPECT_EQ(scalar(o.db, "SELECT crawl_delay_ms FROM hosts"), "300");
}

// Named virtual hosts crawled on loopback through --resolve: every URL,
// robots.txt included, keeps its name, the server sees it in Host, and each
// host's address is the one it answered from.
TEST(Crawl, CrawlsNamedHostsThroughResolveAndRecordsTheirAddress) {
  Site site("127.0.0.3");
  site.page("/", html("<p>Em 1944 <a href=\"/arquivo\">o arquivo</a>.</p>"));
  site.page("/arquivo", html("<p>A 6 de junho de 1944.</p>"));
  site.start();
  const std::string port = std::to_string(site.server().port());
  const std::string origin = "http://arquivo.exemplo.pt:" + port;
  TempDir tmp;
  auto o = test_options(tmp, {origin + "/", "http://www.arquivo.exemplo.pt:" + port + "/"});
  o.resolve = {"arquivo.exemplo.pt:" + port + ":127.0.0.3", "www.arquivo.exemplo.pt:" + port + ":127.0.0.3"};
  crawl_ok(o);
  std::multiset<std::string> hosts;
  for (const auto& r : site.server().log()) hosts.insert(r.host + " " + r.path);
  EXPECT_EQ(hosts.count("arquivo.exemplo.pt:" + port + " /robots.txt"), 1u);
  EXPECT_EQ(hosts.count("www.arquivo.exemplo.pt:" + port + " /robots.txt"), 1u);
  EXPECT_EQ(hosts.count("arquivo.exemplo.pt:" + port + " /arquivo"), 1u);
  EXPECT_EQ(hosts.count("www.arquivo.exemplo.pt:" + port + " /arquivo"), 1u);
  for (const auto& r : site.server().log()) EXPECT_NE(r.host.find("arquivo.exemplo.pt:"), std::string::npos) << r.host;
  EXPECT_EQ(rows(o.db, "SELECT authority, address FROM hosts ORDER BY authority"),
            (std::vector<std::string>{"arquivo.exemplo.pt:" + port + "|127.0.0.3",
                                      "www.arquivo.exemplo.pt:" + port + "|127.0.0.3"}));
  EXPECT_EQ(scalar(o.db, "SELECT count(*) FROM history"), "4");
}

// A crawl database written before hosts.address existed gains the column
// when it is opened again, its rows kept.
TEST(Crawl, AnOlderDatabaseGainsTheHostAddressColumn) {
  Site site;
  site.page("/", html("<p>Em 1944.</p>"));
  site.start();
  TempDir tmp;
  auto o = test_options(tmp, {site.url("/")});
  crawl_ok(o);
  {
    auto db = store::Database::open(o.db);
    ASSERT_TRUE(db.ok()) << db.status().message();
    ASSERT_TRUE(db->exec("ALTER TABLE hosts DROP COLUMN address").ok());
    ASSERT_FALSE(*db->has_column("hosts", "address"));
  }
  auto store = CrawlStore::open(o.db, CrawlStoreOptions{});
  ASSERT_TRUE(store.ok()) << store.status().message();
  store->reset();
  EXPECT_EQ(rows(o.db, "SELECT authority, coalesce(address, 'NULL') FROM hosts"),
            (std::vector<std::string>{site.origin().substr(7) + "|NULL"}));
}

TEST(Crawl, RecordsEachRedirectHopAndStopsLoops) {
  Site site;
  site.http().Get("/r1", [](const httplib::Request&, httplib::Response& res) { res.set_redirect("/r2", 301); });
  site.http().Get("/r2", [](const httplib::Request&, httplib::Response& res) { res.set_redirect("/final", 302); });
  site.http().Get("/loop1", [](const httplib::Request&, httplib::Response& res) { res.set_redirect("/loop2", 302); });
  site.http().Get("/loop2", [](const httplib::Request&, httplib::Response& res) { res.set_redirect("/loop1", 302); });
  site.page("/", html("<p><a href=\"/r1\">r</a> <a href=\"/loop1\">l</a></p>"));
  site.page("/final", html("<p>chegou</p>"));
  site.start();
  TempDir tmp;
  auto o = test_options(tmp, {site.url("/")});
  auto s = crawl_ok(o);
  EXPECT_EQ(s.end_reason, "frontier-empty");
  EXPECT_EQ(site.server().count("/final"), 1);
  EXPECT_EQ(site.server().count("/loop1"), 1);
  EXPECT_EQ(site.server().count("/loop2"), 1);
  EXPECT_EQ(rows(o.db, "SELECT from_url, to_url, status FROM redirects ORDER BY from_url"),
            (std::vector<std::string>{site.url("/loop1") + "|" + site.url("/loop2") + "|302",
                                      site.url("/loop2") + "|" + site.url("/loop1") + "|302",
                                      site.url("/r1") + "|" + site.url("/r2") + "|301",
                                      site.url("/r2") + "|" + site.url("/final") + "|302"}));
  // Downloads are the non-redirect responses.
  EXPECT_EQ(rows(o.db, "SELECT url FROM history ORDER BY url"),
            (std::vector<std::string>{site.url("/"), site.url("/final")}));
}

// A portal's directory, eight pages of ten click-through links each, every
// one a chain /ir/N (302) -> /saida/N (301) -> a newspaper article the crawl
// already has (the home page links them all), or, with `new_pages`, an
// article linked from nowhere else.
void serve_directory(Site& site, bool new_pages) {
  const auto ir = [&site, new_pages](const httplib::Request& req, httplib::Response& res) {
    res.set_redirect("/saida/" + req.path.substr(4), 302);
  };
  site.http().Get(R"(/ir/\d+)", ir);
  site.http().Get(R"(/saida/\d+)", [new_pages](const httplib::Request& req, httplib::Response& res) {
    res.set_redirect((new_pages ? "/nova/" : "/artigo/") + req.path.substr(7), 301);
  });
  std::string home = "<p>Os jornais do dia.</p>";
  for (int page = 0; page < 8; ++page) {
    std::string links = "<p>Diretório de sítios, página " + std::to_string(page + 1) + ".</p><ul>";
    for (int k = 0; k < 10; ++k) {
      const std::string n = std::to_string(page * 10 + k);
      links += "<li><a href=\"/ir/" + n + "\">Sítio " + n + "</a></li>";
      site.page("/artigo/" + n, html("<p>Artigo " + n + " do jornal, publicado em 12 de maio de 1941.</p>"));
      site.page("/nova/" + n, html("<p>Notícia " + n + ", de 3 de junho de 1942.</p>"));
      if (!new_pages) home += "<a href=\"/artigo/" + n + "\">artigo " + n + "</a> ";
    }
    if (page + 1 < 8) links += "</ul><p><a href=\"/diretorio/" + std::to_string(page + 1) + "\">seguinte</a></p>";
    site.page("/diretorio/" + std::to_string(page), html(links, "Diretório"));
  }
  site.page("/", html(home + "<p><a href=\"/diretorio/0\">diretório</a></p>", "Início"));
}

int requests_under(Site& site, const std::string& prefix) {
  int n = 0;
  for (const auto& path : site.server().paths()) n += path.rfind(prefix, 0) == 0;
  return n;
}

// A general crawl of the directory from its home page.
CrawlSummary crawl_directory(Site& site, bool new_pages, const TempDir& tmp, CrawlOptions* o) {
  serve_directory(site, new_pages);
  site.start();
  *o = test_options(tmp, {site.url("/")});
  return crawl_ok(*o);
}

TEST(Crawl, ClickThroughHopsThatOnlyLeadToPagesItHasAreDroppedUnfetched) {
  Site site;
  TempDir tmp;
  CrawlOptions o;
  auto s = crawl_directory(site, false, tmp, &o);
  EXPECT_EQ(s.end_reason, "frontier-empty");
  for (int n = 0; n < 80; ++n) EXPECT_EQ(site.server().count("/artigo/" + std::to_string(n)), 1) << n;
  const int hops = requests_under(site, "/ir/");
  // The first pages' hops teach the crawl that the template leads only to
  // pages it has; of the rest, every eighth is still fetched.
  EXPECT_GE(hops, 10);
  EXPECT_LT(hops, 50);
  EXPECT_EQ(s.skipped["redirect-alias"] + hops, 80);
  EXPECT_EQ(requests_under(site, "/saida/"), hops) << "a chain once started is followed to its end";
  EXPECT_EQ(count(o.db, "SELECT COUNT(*) FROM pages WHERE url LIKE '%/ir/%'"), hops);
}

TEST(Crawl, ClickThroughHopsThatLeadToNewPagesAreAllFollowed) {
  Site site;
  TempDir tmp;
  CrawlOptions o;
  auto s = crawl_directory(site, true, tmp, &o);
  EXPECT_EQ(requests_under(site, "/ir/"), 80);
  EXPECT_EQ(requests_under(site, "/nova/"), 80);
  EXPECT_EQ(s.skipped.count("redirect-alias"), 0u);
}

TEST(Crawl, RetriesServerErrorsHonouringRetryAfterAndRecordsFailures) {
  Site site;
  std::atomic<int> busy_calls{0};
  site.http().Get("/ocupado", [&](const httplib::Request&, httplib::Response& res) {
    if (busy_calls++ == 0) {
      res.status = 503;
      res.set_header("Retry-After", "1");
      return;
    }
    res.set_content(html("<p>já está</p>"), "text/html; charset=utf-8");
  });
  site.page("/", html("<p><a href=\"/ocupado\">o</a> <a href=\"/falha\">f</a> <a href=\"/nada\">n</a></p>"));
  site.page("/falha", html("<p>erro</p>"), 500);
  site.start();
  TempDir tmp;
  auto o = test_options(tmp, {site.url("/")});
  auto s = crawl_ok(o);
  // 503 then, after at least Retry-After, 200.
  EXPECT_EQ(site.server().count("/ocupado"), 2);
  const auto log = site.server().log();
  std::vector<std::chrono::steady_clock::time_point> busy;
  for (const auto& r : log)
    if (r.path == "/ocupado") busy.push_back(r.at);
  ASSERT_EQ(busy.size(), 2u);
  EXPECT_GE(std::chrono::duration_cast<std::chrono::milliseconds>(busy[1] - busy[0]).count(), 990);
  EXPECT_EQ(scalar(o.db, "SELECT status FROM pages WHERE url = '" + site.url("/ocupado") + "'"), "200");
  // 500 is retried o.retries times, then recorded.
  EXPECT_EQ(site.server().count("/falha"), 1 + o.retries);
  EXPECT_EQ(scalar(o.db, "SELECT status, error_kind, attempts FROM pages WHERE url = '" + site.url("/falha") + "'"),
            "500|http-500|2");
  EXPECT_EQ(scalar(o.db, "SELECT status, error_kind FROM pages WHERE url = '" + site.url("/nada") + "'"),
            "404|http-404");
  EXPECT_EQ(s.pages, 4);
  auto db = store::Database::open(o.db, true);
  ASSERT_TRUE(db.ok());
  auto stats = compute_crawl_stats(*db);
  ASSERT_TRUE(stats.ok()) << stats.status().message();
  EXPECT_EQ(stats->pages, 4);
  EXPECT_EQ(stats->status_codes[404], 1);
  EXPECT_EQ(stats->status_codes[500], 1);
  EXPECT_EQ(stats->errors["http-500"], 1);
}

TEST(Crawl, SlowAndHugeResponsesAreCutOffAndRecorded) {
  Site site;
  site.http().Get("/lento", [](const httplib::Request&, httplib::Response& res) {
    std::this_thread::sleep_for(std::chrono::milliseconds(1200));
    res.set_content(html("<p>tarde</p>"), "text/html");
  });
  site.http().Get("/enorme", [](const httplib::Request&, httplib::Response& res) {
    // Not a text type, so the server sends it uncompressed.
    res.set_chunked_content_provider("application/octet-stream", [](size_t, httplib::DataSink& sink) {
      std::string chunk(64 * 1024, 'x');
      return sink.write(chunk.data(), chunk.size());
    });
  });
  site.page("/", html("<p><a href=\"/lento\">l</a> <a href=\"/enorme\">e</a> <a href=\"/ok\">ok</a></p>"));
  site.page("/ok", html("<p>bem</p>"));
  site.start();
  TempDir tmp;
  auto o = test_options(tmp, {site.url("/")});
  o.timeout_ms = 400;
  o.retries = 0;
  o.max_body_bytes = 256 * 1024;
  auto s = crawl_ok(o);
  EXPECT_EQ(scalar(o.db, "SELECT error_kind FROM pages WHERE url = '" + site.url("/lento") + "'"), "timeout");
  EXPECT_EQ(scalar(o.db, "SELECT error_kind FROM pages WHERE url = '" + site.url("/enorme") + "'"), "too-large");
  EXPECT_EQ(s.errors["timeout"], 1);
  EXPECT_EQ(s.errors["too-large"], 1);
  EXPECT_EQ(scalar(o.db, "SELECT status FROM pages WHERE url = '" + site.url("/ok") + "'"), "200");
  auto db = store::Database::open(o.db, true);
  auto stats = compute_crawl_stats(*db);
  ASSERT_TRUE(stats.ok());
  EXPECT_EQ(stats->timeouts, 1);
}

TEST(Crawl, DecodesDeclaredWrongAndMissingCharsetsToUtf8) {
  Site site;
  // windows-1252 declared in the header.
  site.page("/latin", SitePage{200, "text/html; charset=windows-1252",
                               "<html><head><title>Cora\xe7\xe3o</title></head><body><p>Ver\xe3o de 1944</p></body></html>",
                               {}});
  // Declared only in <meta>.
  site.page("/meta", SitePage{200, "text/html",
                              "<html><head><meta charset=\"iso-8859-1\"><title>Na\xe7\xe3o</title></head>"
                              "<body><p>Mem\xf3rias</p></body></html>",
                              {}});
  // UTF-8 with a few invalid bytes in it.
  site.page("/invalido", SitePage{200, "text/html; charset=utf-8",
                                  "<html><head><title>Inválido \xff Coração</title></head><body><p>Ação, "
                                  "nação, verão, \xc3 canção.</p></body></html>",
                                  {}});
  site.page("/", html("<p><a href=\"/latin\">1</a> <a href=\"/meta\">2</a> <a href=\"/invalido\">3</a></p>"));
  site.start();
  TempDir tmp;
  auto o = test_options(tmp, {site.url("/")});
  crawl_ok(o);
  EXPECT_EQ(scalar(o.db, "SELECT title FROM documents WHERE url = '" + site.url("/latin") + "'"), "Coração");
  EXPECT_EQ(scalar(o.db, "SELECT title FROM documents WHERE url = '" + site.url("/meta") + "'"), "Nação");
  EXPECT_EQ(scalar(o.db, "SELECT charset_from FROM pages WHERE url = '" + site.url("/meta") + "'"), "meta");
  const std::string bad = scalar(o.db, "SELECT title FROM documents WHERE url = '" + site.url("/invalido") + "'");
  EXPECT_TRUE(is_valid_utf8(bad)) << bad;
  EXPECT_EQ(bad, "Inválido \xEF\xBF\xBD Coração");
  EXPECT_EQ(scalar(o.db, "SELECT charset FROM pages WHERE url = '" + site.url("/invalido") + "'"), "UTF-8");
  EXPECT_GT(count(o.db, "SELECT replaced_bytes FROM pages WHERE url = '" + site.url("/invalido") + "'"), 0);
}

TEST(Crawl, ParsesMalformedHtmlAndRecordsNonHtmlWithoutParsingIt) {
  Site site;
  site.page("/", "<html><body><div><p>Texto <b>sem fecho <a href=/a>a</a><table><tr><td><a href='/b'>b</td>"
                 "</div></div></span><a href=\"/documento\">pdf</a>");
  site.page("/a", html("<p>a</p>"));
  site.page("/b", html("<p>b</p>"));
  site.page("/documento", SitePage{200, "application/pdf", "%PDF-1.4 <a href=\"/nunca\">x</a>", {}});
  site.start();
  TempDir tmp;
  auto o = test_options(tmp, {site.url("/")});
  crawl_ok(o);
  EXPECT_EQ(site.server().count("/a"), 1);
  EXPECT_EQ(site.server().count("/b"), 1);
  EXPECT_EQ(site.server().count("/nunca"), 0);
  EXPECT_EQ(scalar(o.db, "SELECT content_type, document_id IS NULL FROM pages WHERE url = '" + site.url("/documento") + "'"),
            "application/pdf|1");
  EXPECT_EQ(count(o.db, "SELECT COUNT(*) FROM history"), 4);
}

TEST(Crawl, ResolvesRelativeLinksAgainstThePageAndBaseHref) {
  Site site;
  site.page("/dir/pagina.html",
            "<html><head><base href=\"/outro/\"></head><body><p><a href=\"x.html\">x</a> <a href=\"../y.html\">y</a> "
            "<a href=\"?q=1\">q</a> <a href=\"#topo\">topo</a> <a href=\"mailto:a@b.pt\">m</a> "
            "<a href=\"/outro/\">o</a></p></body></html>");
  site.start();
  TempDir tmp;
  auto o = test_options(tmp, {site.url("/dir/pagina.html")});
  o.max_pages = 1;
  crawl_ok(o);
  const auto targets = rows(o.db, "SELECT target FROM links ORDER BY position");
  ASSERT_GE(targets.size(), 4u);
  EXPECT_EQ(targets[0], site.url("/outro/x.html"));
  EXPECT_EQ(targets[1], site.url("/y.html"));
  EXPECT_EQ(targets[2], site.url("/outro/?q=1"));
  EXPECT_EQ(targets[3], site.url("/outro/"));  // fragment dropped
  for (const auto& t : targets) EXPECT_EQ(t.find("mailto"), std::string::npos);
}

TEST(Crawl, AUrlWithMoreBacklinksIsFetchedFirst) {
  Site site;
  site.page("/", html("<p><a href=\"/a\">a</a> <a href=\"/b\">b</a> <a href=\"/c\">c</a> <a href=\"/d\">d</a></p>"));
  site.page("/a", html("<p><a href=\"/d\">d</a></p>"));
  site.page("/b", html("<p>b</p>"));
  site.page("/c", html("<p>c</p>"));
  site.page("/d", html("<p>d</p>"));
  site.start();
  TempDir tmp;
  auto o = test_options(tmp, {site.url("/")});
  o.host_connections = 1;
  o.connections = 1;
  o.delay_ms = 300;  // the analysis of /a lands before the next request
  crawl_ok(o);
  // /d was discovered last but has two backlinks after /a: it jumps the queue.
  EXPECT_EQ(rows(o.db, "SELECT url FROM history ORDER BY seq"),
            (std::vector<std::string>{site.url("/"), site.url("/a"), site.url("/d"), site.url("/b"), site.url("/c")}));
}

TEST(Crawl, ASpiderTrapIsBounded) {
  Site site;
  // An endless calendar: every day links to the next one.
  site.http().Get(R"(/calendario/(\d+))", [](const httplib::Request& req, httplib::Response& res) {
    const int n = std::stoi(req.matches[1].str());
    res.set_content(html("<p><a href=\"/calendario/" + std::to_string(n + 1) + "\">seguinte</a> <a href=\"/calendario/" +
                         std::to_string(n + 1) + "/x/" + std::to_string(n) + "\">x</a></p>"),
                    "text/html; charset=utf-8");
  });
  site.start();
  TempDir tmp;
  auto o = test_options(tmp, {site.url("/calendario/1")});
  o.delay_ms = 0;
  o.max_depth = 6;
  auto s = crawl_ok(o);
  EXPECT_EQ(s.end_reason, "frontier-empty");
  EXPECT_LE(count(o.db, "SELECT MAX(depth) FROM pages"), 6);
  EXPECT_LE(s.pages, 20);

  TempDir tmp2;
  auto o2 = test_options(tmp2, {site.url("/calendario/1")});
  o2.delay_ms = 0;
  o2.max_pages_per_host = 10;
  auto s2 = crawl_ok(o2);
  EXPECT_EQ(s2.end_reason, "frontier-empty");
  EXPECT_LE(s2.pages, 10);
}

TEST(Crawl, CrawlsSeveralHostsAndKeepsToTheAllowedOnes) {
  Site a("127.0.0.1"), b("127.0.0.2"), c("127.0.0.3");
  b.page("/", html("<p>b</p>"));
  c.page("/", html("<p>c</p>"));
  b.start();
  c.start();
  a.page("/", html("<p><a href=\"" + b.url("/") + "\">b</a> <a href=\"" + c.url("/") + "\">c</a></p>"));
  a.start();
  TempDir tmp;
  auto o = test_options(tmp, {a.url("/")});
  o.allow_hosts = {"127.0.0.1", "127.0.0.2"};
  crawl_ok(o);
  EXPECT_EQ(b.server().count("/"), 1);
  EXPECT_EQ(c.server().count("/"), 0);
  EXPECT_EQ(c.server().count("/robots.txt"), 0);
  TempDir tmp2;
  auto o2 = test_options(tmp2, {a.url("/")});
  o2.same_host = true;
  crawl_ok(o2);
  EXPECT_EQ(b.server().count("/"), 1);  // not again
}

TEST(Crawl, WritesAWarcThatReadsBack) {
  Site site;
  site.page("/", html("<p>Em 1943 <a href=\"/b\">b</a></p>"));
  site.page("/b", html("<p>Coração de 1944</p>"));
  site.start();
  TempDir tmp;
  auto o = test_options(tmp, {site.url("/")});
  o.warc = (tmp / "crawl.warc.gz").string();
  crawl_ok(o);
  auto reader = WarcReader::open(o.warc);
  ASSERT_TRUE(reader.ok()) << reader.status().message();
  std::map<std::string, std::string> bodies;
  int requests = 0;
  WarcRecord rec;
  while ((*reader)->next(&rec)) {
    if (rec.header("WARC-Target-URI") == site.url("/robots.txt")) continue;  // see KeepsRobotsTxtInTheWarc
    if (rec.type == "request") ++requests;
    if (rec.type != "response") continue;
    auto http = parse_http_response(rec.block);
    ASSERT_TRUE(http.ok()) << http.status().message();
    EXPECT_EQ(http->status, 200);
    EXPECT_FALSE(rec.header("WARC-Payload-Digest").empty());
    bodies[rec.header("WARC-Target-URI")] = http->body;
  }
  EXPECT_EQ(requests, 2);
  ASSERT_EQ(bodies.size(), 2u);
  EXPECT_EQ(bodies[site.url("/b")], html("<p>Coração de 1944</p>"));
  const auto check = testing::run_warcio_check(o.warc, tmp);
  if (!check.missing.empty()) GTEST_SKIP() << check.missing;
  EXPECT_EQ(check.exit_code, 0) << check.output;
  EXPECT_NE(check.output.find("\"response\":3"), std::string::npos) << check.output;  // with robots.txt
}

TEST(Crawl, KeepsRobotsTxtInTheWarc) {
  const std::string robots = "User-agent: *\nDisallow: /privado/\n";
  Site site;
  SitePage rules;
  rules.content_type = "text/plain";
  rules.body = robots;
  site.page("/robots.txt", rules);
  site.page("/", html("<p>Em 1943 <a href=\"/privado/a\">a</a></p>"));
  site.start();
  TempDir tmp;
  auto o = test_options(tmp, {site.url("/")});
  o.warc = (tmp / "crawl.warc.gz").string();
  crawl_ok(o);
  auto reader = WarcReader::open(o.warc);
  ASSERT_TRUE(reader.ok()) << reader.status().message();
  int robots_requests = 0, robots_responses = 0;
  WarcRecord rec;
  while ((*reader)->next(&rec)) {
    if (rec.header("WARC-Target-URI") != site.url("/robots.txt")) continue;
    if (rec.type == "request") ++robots_requests;
    if (rec.type != "response") continue;
    ++robots_responses;
    auto http = parse_http_response(rec.block);
    ASSERT_TRUE(http.ok()) << http.status().message();
    EXPECT_EQ(http->status, 200);
    EXPECT_EQ(http->body, robots);
  }
  EXPECT_EQ(robots_responses, 1);
  EXPECT_EQ(robots_requests, 1);
}

}  // namespace
}  // namespace cronista::crawler
