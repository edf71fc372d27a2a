// Replica detection during the crawl (`--replicas detect`, replica_watch.h):
// named hosts on loopback (--resolve) where one serves the other's pages, a
// decision verified by probes and stored with its evidence, a decision undone
// by rewritten URLs missing on the canonical host (the URLs it moved queued
// again on the replica), probe answers kept as pages, and decisions and the
// URLs they moved kept across kill -9 and --resume.
#include <gtest/gtest.h>
#include <signal.h>

#include <atomic>
#include <set>
#include <thread>

#include "crawler/crawl_support.h"

namespace cronista::crawler {
namespace {

using testing::html;
using testing::Site;
using testing::TempDir;

// Articles of a small archive, each its own text of more than fifty words.
const std::vector<std::string> kArticles = {
    "A 1 de setembro de 1939 as tropas alemãs atravessaram a fronteira da Polónia ao amanhecer. Varsóvia resistiu "
    "durante semanas aos bombardeamentos, enquanto o governo polaco procurava refúgio na Roménia. Dois dias depois, "
    "a Grã-Bretanha e a França declararam guerra à Alemanha, e os jornais de Lisboa dedicaram edições especiais ao "
    "conflito que acabava de começar na Europa.",
    "Em junho de 1940 chegaram a Lisboa milhares de refugiados vindos de França, à espera de um lugar nos navios "
    "para a América. As pensões da Baixa encheram-se, os cafés do Rossio ouviam todas as línguas da Europa, e o "
    "cônsul Aristides de Sousa Mendes assinou vistos em Bordéus contra as ordens expressas do governo de Salazar.",
    "O volfrâmio das minas da Panasqueira tornou-se em 1942 uma das mercadorias mais disputadas do país. Compradores "
    "ingleses e alemães subiam os preços de semana para semana, os camponeses da Beira largavam as lavouras para "
    "escavar nas encostas, e o contrabando pela fronteira espanhola enriqueceu muita gente em poucos meses.",
    "A batalha de Estalinegrado terminou a 2 de fevereiro de 1943 com a rendição do marechal Paulus e do que restava "
    "do Sexto Exército. Os telegramas que chegavam às redações portuguesas falavam de noventa mil prisioneiros "
    "marchando pela neve, e muitos leitores perceberam então que a sorte da guerra tinha mudado de lado.",
    "Em outubro de 1943 o governo português autorizou os Aliados a usar bases nos Açores, invocando a velha aliança "
    "com Inglaterra. Aviões e navios passaram a escalar na Terceira para proteger os comboios do Atlântico contra os "
    "submarinos, e a neutralidade de Lisboa ganhou uma inclinação que a imprensa descrevia com muita cautela.",
    "O desembarque na Normandia, a 6 de junho de 1944, ocupou as primeiras páginas de todos os diários. Os "
    "correspondentes descreviam praias cobertas de barcaças e soldados, planadores caídos nos campos de macieiras, e "
    "a longa espera das aldeias francesas que ouviam os canhões ao longe sem saber quando chegaria a libertação.",
    "A 8 de maio de 1945 Lisboa encheu-se de gente que festejava o fim da guerra na Europa. Houve bandeiras inglesas "
    "e americanas nas janelas da Avenida da Liberdade, cortejos improvisados de estudantes e operários, e a polícia "
    "deixou passar manifestações que noutros dias teria dispersado sem hesitar diante da multidão.",
    "As senhas de racionamento marcaram os anos de 1941 e 1942 em muitas cidades portuguesas. Faltava o açúcar, o "
    "bacalhau e o azeite, as filas começavam de madrugada à porta das mercearias, e nas aldeias voltou-se a cozer pão "
    "de milho em casa, como as avós faziam antes de haver padarias na vila mais próxima.",
};

std::string article_path(std::size_t i) { return "/artigos/a" + std::to_string(i) + ".html"; }

// The archive's index: a list linking every article.
std::string archive_index() {
  std::string index = "<h1>Arquivo</h1><ul>";
  for (std::size_t i = 0; i < kArticles.size(); ++i)
    index += "<li><a href=\"" + article_path(i) + "\">artigo " + std::to_string(i) + "</a></li>";
  return index + "</ul>";
}

// An article of the archive by the number its path matched (404 past the
// last), under any query: for handlers of their own.
void serve_article(const httplib::Request& req, httplib::Response& res) {
    const std::size_t i = std::stoul(req.matches[1]);
    if (i >= kArticles.size()) {
      res.status = 404;
      return;
    }
    res.set_content(html("<article><p>" + kArticles[i] + "</p></article><a href=\"/\">início</a>"),
                    "text/html; charset=utf-8");
}

// The archive: its index; each article links back.
void archive(Site& site) {
  for (std::size_t i = 0; i < kArticles.size(); ++i)
    site.page(article_path(i), html("<article><p>" + kArticles[i] + "</p></article><a href=\"/\">início</a>"));
  site.page("/", html(archive_index()));
}

// A page of the www. name with `text`; the other names answer 404 unless
// `elsewhere_too`.
void www_page(const httplib::Request& req, httplib::Response& res, bool elsewhere_too, const std::string& text) {
  if (!elsewhere_too && !req.get_header_value("Host").starts_with("www.")) {
    res.status = 404;
    res.set_content(html("<p>Não encontrado</p>"), "text/html; charset=utf-8");
    return;
  }
  res.set_content(html("<p>" + text + "</p>"), "text/html; charset=utf-8");
}

std::string authority(const std::string& name, Site& site) { return name + ":" + std::to_string(site.server().port()); }

// Requests the server saw for one named host (from the `from`-th on),
// robots.txt left out.
std::multiset<std::string> requests_to(Site& site, const std::string& host, std::size_t from = 0) {
  std::multiset<std::string> out;
  const auto log = site.server().log();
  for (std::size_t i = from; i < log.size(); ++i)
    if (log[i].host == host && log[i].path != "/robots.txt") out.insert(log[i].path);
  return out;
}

CrawlOptions options_for(const TempDir& tmp, Site& site, const std::string& address,
                         const std::vector<std::string>& names) {
  std::vector<std::string> seeds;
  std::vector<std::string> resolve;
  for (const std::string& n : names) {
    seeds.push_back("http://" + authority(n, site) + "/");
    resolve.push_back(authority(n, site) + ":" + address);
  }
  auto o = testing::test_options(tmp, seeds);
  o.resolve = resolve;
  return o;
}

void crawl_ok(const CrawlOptions& o) {
  auto r = run_crawl(o, nullptr);
  ASSERT_TRUE(r.ok()) << r.status().message();
}

// Called from a page's handler: the page is answered once `sql` counts a
// row in the crawl database `db` (or after 20 s).
void await_row(const std::string& db, const std::string& sql) {
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(20);
  while (std::chrono::steady_clock::now() < deadline) {
    try {
      if (testing::count(db, sql) > 0) return;
    } catch (const std::exception&) {  // being created
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
}

// So that what the page links is found while a replica decision stands,
// however slow the crawl's analysis.
void await_decision(const std::string& db) {
  await_row(db, "SELECT count(*) FROM replica_decisions WHERE undone_at IS NULL");
}

// Once a page whose URL is LIKE `url` is stored.
void await_page(const std::string& db, const std::string& url) {
  await_row(db, "SELECT count(*) FROM pages WHERE url LIKE '" + url + "'");
}

// One server answering to two names (the www. alias of an archive): the
// pair is verified by probes, decided, and the replica gets no pages beyond
// the probes and what it served before the decision; every article is
// downloaded once, from the canonical host.
TEST(ReplicaCrawl, AnAliasIsVerifiedDecidedAndNotCrawledAgain) {
  Site site("127.0.0.3");
  archive(site);
  site.start();
  TempDir tmp;
  const std::string a = authority("arquivo.exemplo.pt", site), w = authority("www.arquivo.exemplo.pt", site);
  auto o = options_for(tmp, site, "127.0.0.3", {"arquivo.exemplo.pt", "www.arquivo.exemplo.pt"});
  crawl_ok(o);

  const auto decisions =
      testing::rows(o.db, "SELECT replica, canonical, probes_agreed > 0, undone_at FROM replica_decisions");
  ASSERT_EQ(decisions.size(), 1u);
  const std::string replica = decisions[0].substr(0, decisions[0].find('|'));
  const std::string canonical = replica == a ? w : a;
  EXPECT_EQ(decisions[0], replica + "|" + canonical + "|1|NULL");
  EXPECT_NE(testing::scalar(o.db, "SELECT evidence FROM replica_decisions").find("\"name_alias\":1"),
            std::string::npos);
  // Verified: paths both names served, or probes asked of the replica, agreed.
  EXPECT_NE(testing::scalar(o.db, "SELECT evidence FROM replica_decisions").find("\"probes\":{\"agreed\":"),
            std::string::npos);
  EXPECT_EQ(testing::count(o.db, "SELECT count(*) FROM replica_probes WHERE url NOT LIKE 'http://" + replica + "/%'"),
            0);

  // Every article from the canonical host. The replica: no transfer started
  // after the decision. What it served before is the price of learning, and
  // how much that is depends on how soon the deciding pages were analysed.
  const auto on_canonical = requests_to(site, canonical);
  for (std::size_t i = 0; i < kArticles.size(); ++i)
    EXPECT_EQ(on_canonical.count(article_path(i)), 1u) << article_path(i);
  const std::string decided_at = testing::scalar(o.db, "SELECT decided_at FROM replica_decisions");
  EXPECT_EQ(testing::count(o.db, "SELECT count(*) FROM pages WHERE url LIKE 'http://" + replica +
                                     "/%' AND fetched_at > '" + decided_at + "'"),
            0);
  const std::size_t on_replica = requests_to(site, replica).size();

  // Without detection the alias is crawled whole.
  TempDir off_tmp;
  const std::size_t before = site.server().log().size();
  auto off = options_for(off_tmp, site, "127.0.0.3", {"arquivo.exemplo.pt", "www.arquivo.exemplo.pt"});
  off.replicas_detect = false;
  crawl_ok(off);
  EXPECT_EQ(requests_to(site, replica, before).size(), kArticles.size() + 1);
  EXPECT_EQ(testing::count(off.db, "SELECT count(*) FROM replica_decisions"), 0);
  // Probes included, detection never asked the replica more than no detection.
  EXPECT_LE(on_replica, kArticles.size() + 1);
}

// The archive's index links its www. alias, which the crawl reaches from
// there only, and whose index links one article: the other articles are
// known on the alias only by probes. Each probe's answer is a page like any
// other (stored with its main text, its URL done) and no URL is downloaded
// twice.
TEST(ReplicaCrawl, ProbeAnswersAreKeptAsPages) {
  Site site("127.0.0.7");
  for (std::size_t i = 0; i < kArticles.size(); ++i)
    site.page(article_path(i), html("<article><p>" + kArticles[i] + "</p></article><a href=\"/\">início</a>"));
  site.http().Get("/", [](const httplib::Request& req, httplib::Response& res) {
    const std::string host = req.get_header_value("Host"), port = host.substr(host.find(':'));
    if (host.starts_with("www."))
      res.set_content(html("<p>Espelho do arquivo: <a href=\"" + article_path(0) + "\">artigo</a></p>"),
                      "text/html; charset=utf-8");
    else
      res.set_content(html(archive_index() + "<a href=\"http://www.arquivo.exemplo.pt" + port + "/\">espelho</a>"),
                      "text/html; charset=utf-8");
  });
  site.start();
  TempDir tmp;
  const std::string port = std::to_string(site.server().port());
  auto o = options_for(tmp, site, "127.0.0.7", {"arquivo.exemplo.pt"});
  o.resolve.push_back("www.arquivo.exemplo.pt:" + port + ":127.0.0.7");
  crawl_ok(o);

  ASSERT_EQ(testing::rows(o.db, "SELECT replica, canonical, undone_at FROM replica_decisions"),
            std::vector<std::string>{"www.arquivo.exemplo.pt:" + port + "|arquivo.exemplo.pt:" + port + "|NULL"});
  const auto served = testing::rows(o.db, "SELECT url FROM replica_probes WHERE status = 200");
  ASSERT_FALSE(served.empty());
  for (const std::string& url : served) {
    EXPECT_EQ(testing::count(o.db, "SELECT count(*) FROM pages WHERE url = '" + url + "' AND main_words > 0"), 1)
        << url;
    EXPECT_EQ(testing::scalar(o.db, "SELECT state FROM urls WHERE url = '" + url + "'"), "done") << url;
  }
  // Every request the server saw, robots.txt aside, was made once.
  for (const std::string name : {"arquivo.exemplo.pt:", "www.arquivo.exemplo.pt:"}) {
    const auto requests = requests_to(site, name + port);
    for (const std::string& path : requests) EXPECT_EQ(requests.count(path), 1u) << name << path;
  }
  // Every article was downloaded from the archive, and the probes' pages
  // count as pages of the alias.
  const auto on_canonical = requests_to(site, "arquivo.exemplo.pt:" + port);
  for (std::size_t i = 0; i < kArticles.size(); ++i) EXPECT_EQ(on_canonical.count(article_path(i)), 1u);
  EXPECT_EQ(testing::count(o.db, "SELECT count(*) FROM pages WHERE url LIKE 'http://www.arquivo.exemplo.pt:%'"),
            static_cast<std::int64_t>(requests_to(site, "www.arquivo.exemplo.pt:" + port).size()));
}

// A library's own pages, and a copy of the archive under /espelho/arquivo
// whose index links one article only: that page, with an article's text,
// makes the library a candidate at once. No round could find the prefix
// from one twin page; the archive's pages asked of the library under the
// prefix are kept as its pages and give the twins, the prefix copy is
// decided, and the library's own pages are still downloaded (only URLs
// under the prefix move).
TEST(ReplicaCrawl, ACopyUnderAPrefixIsProbedFromItsFirstTwinPage) {
  Site site("127.0.0.9");
  const std::vector<std::string> own = {
      "A biblioteca municipal abriu a nova sala de leitura em março, com mesas de carvalho, candeeiros verdes e "
      "estantes que chegam ao teto. Os leitores mais velhos lembram-se do tempo em que os livros se pediam ao balcão "
      "por escrito e se esperava uma tarde inteira pelo volume certo, trazido da cave pelo contínuo.",
      "O fundo local reúne jornais da região desde o século dezanove, cartas de emigrantes enviadas do Brasil e "
      "fotografias das feiras de gado. Uma equipa de voluntários está a descrever cada documento numa ficha própria, "
      "para que os investigadores saibam o que procurar antes de fazerem a viagem até à vila.",
  };
  archive(site);  // the archive's pages, for every name
  site.http().Get("/(livros/b[0-9]\\.html)?", [&](const httplib::Request& req, httplib::Response& res) {
    if (!req.get_header_value("Host").starts_with("biblioteca.")) {
      res.set_content(html(archive_index()), "text/html; charset=utf-8");
      return;
    }
    if (req.path == "/") {
      std::string index = "<h1>Biblioteca</h1><a href=\"/espelho/arquivo/\">espelho do arquivo</a><ul>";
      for (std::size_t i = 0; i < own.size(); ++i)
        index += "<li><a href=\"/livros/b" + std::to_string(i) + ".html\">livro</a></li>";
      res.set_content(html(index + "</ul>"), "text/html; charset=utf-8");
      return;
    }
    const std::size_t i = static_cast<std::size_t>(req.path[std::string("/livros/b").size()] - '0');
    if (i >= own.size()) {
      res.status = 404;
      return;
    }
    res.set_content(html("<article><p>" + own[i] + "</p></article>"), "text/html; charset=utf-8");
  });
  site.http().Get("/espelho/arquivo/(.*)", [](const httplib::Request& req, httplib::Response& res) {
    const std::string rest = req.matches[1];
    if (rest.empty()) {
      res.set_content(html("<h1>Arquivo</h1><p>Uma seleção: <a href=\"artigos/a0.html\">artigo</a></p>"),
                      "text/html; charset=utf-8");
      return;
    }
    for (std::size_t i = 0; i < kArticles.size(); ++i)
      if ("/" + rest == article_path(i)) {
        res.set_content(html("<article><p>" + kArticles[i] + "</p></article><a href=\"/espelho/arquivo/\">início</a>"),
                        "text/html; charset=utf-8");
        return;
      }
    res.status = 404;
  });
  site.start();
  TempDir tmp;
  const std::string port = std::to_string(site.server().port());
  const std::string lib = "biblioteca.exemplo.pt:" + port;
  auto o = options_for(tmp, site, "127.0.0.9", {"arquivo.exemplo.pt", "biblioteca.exemplo.pt"});
  crawl_ok(o);

  ASSERT_EQ(testing::rows(o.db, "SELECT replica, canonical, prefix, kind, undone_at FROM replica_decisions"),
            std::vector<std::string>{lib + "|arquivo.exemplo.pt:" + port + "|/espelho/arquivo|prefix|NULL"});
  // Probes asked the archive's pages of the copy, and their answers are pages of the library.
  const auto probed = testing::rows(o.db, "SELECT url FROM replica_probes WHERE status = 200 AND url LIKE 'http://" +
                                              lib + "/espelho/arquivo/artigos/%'");
  ASSERT_FALSE(probed.empty());
  for (const std::string& url : probed)
    EXPECT_EQ(testing::count(o.db, "SELECT count(*) FROM pages WHERE url = '" + url + "' AND main_words > 0"), 1);
  // Nothing requested twice; the library's own pages downloaded; every
  // article from the archive.
  const auto on_lib = requests_to(site, lib);
  for (const std::string& path : on_lib) EXPECT_EQ(on_lib.count(path), 1u) << path;
  for (std::size_t i = 0; i < own.size(); ++i) EXPECT_EQ(on_lib.count("/livros/b" + std::to_string(i) + ".html"), 1u);
  const auto on_archive = requests_to(site, "arquivo.exemplo.pt:" + port);
  for (std::size_t i = 0; i < kArticles.size(); ++i) EXPECT_EQ(on_archive.count(article_path(i)), 1u);
  // The copy's pages downloaded outside probes all came before the decision.
  EXPECT_EQ(testing::count(o.db, "SELECT count(*) FROM pages WHERE url LIKE 'http://" + lib +
                                     "/espelho/%' AND url NOT IN (SELECT url FROM replica_probes) AND fetched_at > "
                                     "(SELECT decided_at FROM replica_decisions)"),
            0);
}

// Two hosts with the same articles but different names and one address
// each are candidates only by their texts; a site sharing only /sobre.html
// texts with another is not a replica of it.
TEST(ReplicaCrawl, SitesSharingOnlyAPathAreNotDecidedReplicas) {
  Site site("127.0.0.5");
  site.http().Get("/.*", [&](const httplib::Request& req, httplib::Response& res) {
    const bool first = req.get_header_value("Host").starts_with("jornal-do-norte.");
    const std::size_t offset = first ? 0 : kArticles.size() / 2;
    if (req.path == "/") {
      std::string index = "<ul>";
      for (std::size_t i = 0; i < kArticles.size() / 2; ++i)
        index += "<li><a href=\"" + article_path(i) + "\">artigo</a></li>";
      res.set_content(html(index + "</ul><a href=\"/sobre.html\">sobre</a>"), "text/html; charset=utf-8");
    } else if (req.path == "/sobre.html") {
      res.set_content(html(std::string("<p>") + (first ? "O Jornal do Norte" : "A Gazeta do Sul") +
                           " é um jornal diário fundado há muitos anos e escrito por uma redação pequena.</p>"),
                      "text/html; charset=utf-8");
    } else {
      for (std::size_t i = 0; i < kArticles.size() / 2; ++i)
        if (req.path == article_path(i)) {
          res.set_content(html("<article><p>" + kArticles[i + offset] + "</p></article>"), "text/html; charset=utf-8");
          return;
        }
      res.status = 404;
    }
  });
  site.start();
  TempDir tmp;
  auto o = options_for(tmp, site, "127.0.0.5", {"jornal-do-norte.pt", "gazeta-do-sul.pt"});
  crawl_ok(o);
  EXPECT_EQ(testing::count(o.db, "SELECT count(*) FROM replica_decisions"), 0);
  EXPECT_EQ(requests_to(site, authority("gazeta-do-sul.pt", site)).count(article_path(0)), 1u);
  EXPECT_EQ(requests_to(site, authority("jornal-do-norte.pt", site)).count(article_path(0)), 1u);
}

// The www. alias serves the archive and, besides, pages the bare name
// lacks, linked from a third site once the decision stands: their
// rewritten URLs are missing on the canonical host, which contradicts the
// decision, and it is undone (stored with the reason). Every URL it moved
// comes back to the www. name, which then holds every page of the bare
// name and more: a later round may decide the pair the other way round.
TEST(ReplicaCrawl, RewrittenUrlsMissingOnTheCanonicalHostUndoTheDecision) {
  Site site("127.0.0.4");
  archive(site);
  TempDir tmp;
  const std::string db = (tmp / "crawl.db").string();
  // Pages only the www. name serves.
  site.http().Get("/so-no-www/.*", [](const httplib::Request& req, httplib::Response& res) {
    www_page(req, res, false, "Página própria do endereço www, " + req.path + ", escrita em 1944.");
  });
  // The third site (the first seed): a chain of pages each linking the bare
  // name (the most backlinks: it is the canonical host), the last one linking the
  // www.-only pages. The archive's own index answers "/" for the other names.
  site.http().Get("/(p[0-9]+)?", [db](const httplib::Request& req, httplib::Response& res) {
    const std::string host = req.get_header_value("Host");
    if (!host.starts_with("leitor.")) {
      // The www. name answers once the first reading is stored, so the bare
      // name's backlinks from it count whenever the pair is decided.
      if (host.starts_with("www.")) await_page(db, "http://leitor.exemplo.pt:%/");
      res.set_content(html(archive_index()), "text/html; charset=utf-8");
      return;
    }
    const std::string port = host.substr(host.find(':'));
    const std::string bare = "http://arquivo.exemplo.pt" + port, www = "http://www.arquivo.exemplo.pt" + port;
    const int n = req.path == "/" ? 0 : std::stoi(req.path.substr(2));
    if (n == 12) await_decision(db);
    std::string body =
        "<p>Leitura número " + std::to_string(n) + " do arquivo: <a href=\"" + bare + "/\">arquivo</a></p>";
    // The first reading links every article of the bare name: its backlinks
    // lead from the start, whenever the decision falls.
    if (n == 0)
      for (std::size_t i = 0; i < kArticles.size(); ++i)
        body += "<a href=\"" + bare + article_path(i) + "\">artigo " + std::to_string(i) + "</a> ";
    if (n < 12) body += "<a href=\"/p" + std::to_string(n + 1) + "\">seguinte</a>";
    if (n == 12)
      for (int k = 0; k < 4; ++k) body += "<a href=\"" + www + "/so-no-www/" + std::to_string(k) + "\">própria</a>";
    res.set_content(html(body), "text/html; charset=utf-8");
  });
  site.start();
  const std::string port = std::to_string(site.server().port());
  auto o = options_for(tmp, site, "127.0.0.4", {"leitor.exemplo.pt", "arquivo.exemplo.pt", "www.arquivo.exemplo.pt"});
  ASSERT_EQ(o.db, db);
  o.delay_ms = 60;
  o.timeout_ms = 30000;  // the last reading waits for the decision
  crawl_ok(o);
  const auto decisions =
      testing::rows(o.db, "SELECT replica, canonical, undone_at IS NOT NULL, undo_reason FROM replica_decisions "
                          "WHERE replica LIKE 'www.%'");
  ASSERT_EQ(decisions.size(), 1u);
  EXPECT_EQ(decisions[0].substr(0, decisions[0].find('|')), "www.arquivo.exemplo.pt:" + port);
  EXPECT_NE(decisions[0].find("|1|"), std::string::npos) << decisions[0];
  EXPECT_NE(decisions[0].find("missing on arquivo.exemplo.pt:" + port), std::string::npos) << decisions[0];
  // The misses were real requests answered 404 by the canonical host.
  const auto on_canonical = requests_to(site, "arquivo.exemplo.pt:" + port);
  std::size_t misses = 0;
  for (int k = 0; k < 4; ++k) misses += on_canonical.count("/so-no-www/" + std::to_string(k));
  EXPECT_GE(misses, 2u);
  // The bare name is not a canonical host any more.
  EXPECT_EQ(testing::count(o.db, "SELECT count(*) FROM replica_decisions WHERE undone_at IS NULL AND canonical NOT "
                                 "LIKE 'www.%'"),
            0);
  // Undone completely: every URL the decision moved came back to the www.
  // name and was downloaded there, and no move of it is left stored.
  const auto on_www = requests_to(site, "www.arquivo.exemplo.pt:" + port);
  for (int k = 0; k < 4; ++k) {
    const std::string path = "/so-no-www/" + std::to_string(k);
    EXPECT_EQ(on_www.count(path), 1u) << path;
    EXPECT_EQ(testing::scalar(o.db, "SELECT state FROM urls WHERE url = 'http://www.arquivo.exemplo.pt:" + port +
                                        path + "'"),
              "done")
        << path;
  }
  EXPECT_EQ(testing::count(o.db, "SELECT count(*) FROM replica_moves"), 0);
}

// The URLs a decision moved are stored with it: a run stops (--max-pages)
// while the decision stands, and when the resumed run undoes it (the bare
// name now answers 404 for the www. name's own pages), the URLs the first
// run moved come back to the www. name and are downloaded there.
TEST(ReplicaCrawl, UrlsMovedInAnEarlierRunComeBackWhenTheResumedRunUndoesTheDecision) {
  Site site("127.0.0.8");
  archive(site);
  // The www. name answers the archive's pages slowly, so that the bare
  // name's copy is always the larger when the pair is decided: the bare
  // name is the canonical host whatever the machine's pace (a copy with a
  // tenth fewer pages is the replica, replica_detection.cc).
  const auto www_is_slow = [](const httplib::Request& req) {
    if (req.get_header_value("Host").starts_with("www."))
      std::this_thread::sleep_for(std::chrono::milliseconds(150));
  };
  site.http().Get("/artigos/a([0-9]+)\\.html", [www_is_slow](const httplib::Request& req, httplib::Response& res) {
    www_is_slow(req);
    serve_article(req, res);
  });
  TempDir tmp;
  const std::string db = (tmp / "crawl.db").string();
  std::atomic<bool> bare_lacks_them{false};
  // Pages of the www. name; the bare name serves them too until the flag is set.
  site.http().Get("/proprias/.*", [&](const httplib::Request& req, httplib::Response& res) {
    www_page(req, res, !bare_lacks_them, "Página " + req.path + " do arquivo, escrita em 1944 por um leitor assíduo.");
  });
  // A reader's chain of pages, each linking the bare name's index and, from
  // the fourth on, one page of the www. name. The fourth waits for the
  // decision: every page of the www. name is found while it stands (and
  // none makes the www. name's copy the larger before it).
  site.http().Get("/(l[0-9]+)?", [db, www_is_slow](const httplib::Request& req, httplib::Response& res) {
    const std::string host = req.get_header_value("Host");
    if (!host.starts_with("leitor.")) {
      www_is_slow(req);
      res.set_content(html(archive_index()), "text/html; charset=utf-8");
      return;
    }
    const std::string port = host.substr(host.find(':'));
    const int n = req.path == "/" ? 0 : std::stoi(req.path.substr(2));
    if (n == 3) await_decision(db);
    std::string body = "<p>Leitura " + std::to_string(n) + ": <a href=\"http://arquivo.exemplo.pt" + port +
                       "/\">arquivo</a></p>";
    if (n >= 3)
      body += "<a href=\"http://www.arquivo.exemplo.pt" + port + "/proprias/" + std::to_string(n) + "\">própria</a>";
    if (n < 80) body += "<a href=\"/l" + std::to_string(n + 1) + "\">seguinte</a>";
    res.set_content(html(body), "text/html; charset=utf-8");
  });
  site.start();
  const std::string port = std::to_string(site.server().port());
  const std::string www = "www.arquivo.exemplo.pt:" + port;
  auto o = options_for(tmp, site, "127.0.0.8", {"leitor.exemplo.pt", "arquivo.exemplo.pt", "www.arquivo.exemplo.pt"});
  ASSERT_EQ(o.db, db);
  o.delay_ms = 40;
  o.timeout_ms = 30000;  // the fourth reading waits for the decision
  o.max_pages = 45;
  crawl_ok(o);
  ASSERT_EQ(testing::rows(o.db, "SELECT replica, undone_at FROM replica_decisions"),
            std::vector<std::string>{www + "|NULL"});
  const auto moved = testing::rows(o.db, "SELECT url FROM replica_moves WHERE replica = '" + www + "'");
  ASSERT_FALSE(moved.empty()) << "the first run ended before any URL was moved; raise max_pages";

  bare_lacks_them = true;
  const std::size_t before = site.server().log().size();
  o.resume = true;
  o.max_pages = 0;
  crawl_ok(o);
  EXPECT_NE(testing::scalar(o.db, "SELECT undo_reason FROM replica_decisions WHERE replica = '" + www + "'")
                .find("missing on arquivo.exemplo.pt:" + port),
            std::string::npos);
  const auto on_www = requests_to(site, www, before);
  for (const std::string& url : moved) {
    const std::string path = url.substr(url.find('/', 7));
    EXPECT_EQ(on_www.count(path), 1u) << url;
  }
  EXPECT_EQ(testing::count(o.db, "SELECT count(*) FROM replica_moves WHERE replica = '" + www + "'"), 0);
}

// kill -9 once a decision is committed, then --resume: the decision stands
// (the same row, not undone) and the replica host gets no request in the
// resumed run, while the crawl of the other hosts goes on to the end.
TEST(ReplicaCrawl, DecisionsSurviveKillMinus9AndResume) {
  Site site("127.0.0.6");
  archive(site);
  // Articles under any query (a reader's links carry one).
  site.http().Get("/artigos/a([0-9]+)\\.html", serve_article);
  // A larger third site, so that the crawl is still running at the kill;
  // each of its pages links an article under both names of the archive, so
  // that the resumed run finds new URLs of the replica to move.
  site.http().Get("/longo/([0-9]+)", [](const httplib::Request& req, httplib::Response& res) {
    const int n = std::stoi(req.matches[1]);
    const std::string host = req.get_header_value("Host"), port = host.substr(host.find(':'));
    const std::string article = "/artigos/a" + std::to_string(n % 8) + ".html?leitura=" + std::to_string(n);
    std::string body = "<p>Crónica número " + std::to_string(n) +
                       " sobre o ano de 1944: <a href=\"http://arquivo.exemplo.pt" + port + article +
                       "\">artigo</a> <a href=\"http://www.arquivo.exemplo.pt" + port + article + "\">artigo</a></p>";
    if (n < 150) body += "<a href=\"/longo/" + std::to_string(n + 1) + "\">seguinte</a>";
    res.set_content(html(body), "text/html; charset=utf-8");
  });
  site.start();
  TempDir tmp;
  const std::string port = std::to_string(site.server().port());
  const std::string db = (tmp / "c.db").string();
  std::vector<std::string> args = {"crawl",   "--from", "1939", "--to",       "1945", "--mode",
                                   "general", "--db",   db,     "--delay-ms", "30",   "--quiet"};
  for (const std::string name : {"arquivo.exemplo.pt", "www.arquivo.exemplo.pt", "cronicas.exemplo.pt"}) {
    args.push_back("--resolve");
    args.push_back(name + ":" + port + ":127.0.0.6");
  }
  args.push_back("http://arquivo.exemplo.pt:" + port + "/");
  args.push_back("http://www.arquivo.exemplo.pt:" + port + "/");
  args.push_back("http://cronicas.exemplo.pt:" + port + "/longo/0");
  testing::Child first = testing::spawn_cronista(args, (tmp / "err1").string());
  // A bound for a stuck crawl only: under a sanitizer on a busy machine the
  // first decision has taken more than 30 s.
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(120);
  // Until the database exists and holds a decision.
  auto decided_yet = [&] {
    const auto r = testing::rows(db, "SELECT count(*) FROM replica_decisions");
    return r.size() == 1 && r[0] != "0" && !r[0].starts_with("ERROR");
  };
  while (!decided_yet() && std::chrono::steady_clock::now() < deadline)
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  ::kill(first.pid, SIGKILL);
  EXPECT_EQ(first.wait(), 128 + SIGKILL);
  const auto decided = testing::rows(db, "SELECT replica, canonical, decided_at, undone_at FROM replica_decisions");
  ASSERT_EQ(decided.size(), 1u);
  ASSERT_LT(testing::count(db, "SELECT count(*) FROM history WHERE url LIKE '%/longo/%'"), 150)
      << "the crawl finished before the kill; make the site larger";
  const std::string replica = decided[0].substr(0, decided[0].find('|'));
  // The replica's URLs taken out of the queue were stored as moves with the
  // decision, so that undoing it would bring them back.
  EXPECT_EQ(testing::count(db, "SELECT count(*) FROM urls u JOIN hosts h ON h.id = u.host_id WHERE h.authority = '" +
                                   replica + "' AND u.state = 'dropped' AND u.url NOT IN (SELECT url FROM replica_moves)"),
            0);

  const std::size_t before = site.server().log().size();
  args.push_back("--resume");
  auto r = testing::run_cronista(args);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(testing::rows(db, "SELECT replica, canonical, decided_at, undone_at FROM replica_decisions"), decided);
  EXPECT_TRUE(requests_to(site, replica, before).empty());
  EXPECT_EQ(testing::count(db, "SELECT count(*) FROM history WHERE url LIKE '%/longo/%'"), 151);
  // Each of the replica's article URLs the chronicles link is a stored move
  // (or was downloaded before the decision).
  EXPECT_GE(testing::count(db, "SELECT count(*) FROM replica_moves WHERE replica = '" + replica + "'") +
                testing::count(db, "SELECT count(*) FROM pages WHERE url LIKE 'http://" + replica + "/artigos/%'"),
            151);
}

}  // namespace
}  // namespace cronista::crawler
