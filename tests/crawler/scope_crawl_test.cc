// The temporal crawl's scope decisions with the real tagger and segmenter:
// a link inside a sentence about the period is followed, a footer link is
// not; the general crawl follows both.
#include <gtest/gtest.h>

#include "crawler/crawl.h"
#include "crawler/crawl_support.h"

namespace cronista::crawler {
namespace {

using testing::count;
using testing::html;
using testing::rows;
using testing::scalar;
using testing::Site;
using testing::TempDir;
using testing::test_options;

void build_site(Site& site) {
  site.page("/", html("<article><p>A 6 de junho de 1944, as tropas aliadas desembarcaram na Normandia, como conta "
                      "<a href=\"/normandia\">a história do desembarque</a>.</p>"
                      "<p>Em 2015 abriu ao público o novo <a href=\"/museu\">museu</a> em Caen.</p></article>"
                      "<footer><p>© 2024 Arquivo Histórico. <a href=\"/sobre\">Sobre nós</a></p></footer>",
                      "Desembarque"));
  site.page("/normandia", html("<p>Em agosto de 1944 Paris foi libertada.</p>"));
  site.page("/museu", html("<p>O museu abriu em 2015.</p>"));
  site.page("/sobre", html("<p>Quem somos.</p>"));
}

// The pages a site was asked for, robots.txt left out, in order of arrival
// (with one connection per host: dispatch order).
std::vector<std::string> pages_requested(Site& site) {
  std::vector<std::string> pages;
  for (const std::string& p : site.server().paths())
    if (p != "/robots.txt") pages.push_back(p);
  return pages;
}

TEST(ScopeCrawl, FollowsTheLinkInAnInScopeSentenceAndNotTheFooterLink) {
  Site site;
  build_site(site);
  site.start();
  TempDir tmp;
  auto o = test_options(tmp, {site.url("/")});
  o.temporal_mode = true;
  auto s = run_crawl(o, nullptr);
  ASSERT_TRUE(s.ok()) << s.status().message();
  EXPECT_EQ(site.server().count("/normandia"), 1);
  EXPECT_EQ(site.server().count("/museu"), 0);
  EXPECT_EQ(site.server().count("/sobre"), 0);
  EXPECT_EQ(rows(o.db, "SELECT target, in_scope FROM links WHERE doc_id = (SELECT id FROM documents WHERE url = '" +
                           site.url("/") + "') ORDER BY position"),
            (std::vector<std::string>{site.url("/normandia") + "|1", site.url("/museu") + "|0",
                                      site.url("/sobre") + "|0"}));
  EXPECT_EQ(scalar(o.db, "SELECT relevant, links, links_kept FROM pages WHERE url = '" + site.url("/") + "'"), "1|3|1");
  EXPECT_EQ(scalar(o.db, "SELECT relevant FROM pages WHERE url = '" + site.url("/normandia") + "'"), "1");
  EXPECT_GT(count(o.db, "SELECT COUNT(*) FROM chronons"), 0);
  EXPECT_EQ(s->relevant, 2);
}

TEST(ScopeCrawl, TheGeneralCrawlFollowsEveryLinkButStillJudgesRelevance) {
  Site site;
  build_site(site);
  site.start();
  TempDir tmp;
  auto o = test_options(tmp, {site.url("/")});
  auto s = run_crawl(o, nullptr);
  ASSERT_TRUE(s.ok()) << s.status().message();
  EXPECT_EQ(s->pages, 4);
  EXPECT_EQ(s->relevant, 2);
  EXPECT_EQ(scalar(o.db, "SELECT relevant FROM pages WHERE url = '" + site.url("/museu") + "'"), "0");
}

// A newspaper page of 12 May 1942: a dated header, a menu, an article about
// 1942, a sidebar updated in 2023 and a footer with the copyright year and,
// in a second line, the edition's own date.
void build_newspaper(Site& site) {
  site.page("/", html("<header><p>Diário de Lisboa</p><p><time datetime=\"1942-05-12\">12 de maio de 1942</time>"
                      "</p></header>"
                      "<nav><ul><li><a href=\"/desporto\">Desporto</a></li><li><a href=\"/receitas\">Receitas</a>"
                      "</li></ul></nav>"
                      "<article><p>Em 1942 a guerra chegou ao norte de África, como conta "
                      "<a href=\"/africa\">a reportagem do enviado especial</a>.</p>"
                      "<p>Os combates prosseguiram durante o mês de maio de 1942.</p></article>"
                      "<aside><h2>Mais lidas</h2><ul><li><a href=\"/horoscopo\">Horóscopo</a></li></ul>"
                      "<p>Atualizado a 3 de março de 2023.</p></aside>"
                      "<footer><p>© 2024 Diário de Lisboa. <a href=\"/contactos\">Contactos</a></p>"
                      "<p>Edição de 12 de maio de 1942. <a href=\"/edicao-anterior\">Edição anterior</a></p></footer>",
                      "Diário de Lisboa"));
  for (const char* p : {"/africa", "/edicao-anterior"}) site.page(p, html("<p>Em novembro de 1942 os Aliados desembarcaram em Marrocos.</p>"));
  for (const char* p : {"/desporto", "/receitas", "/horoscopo", "/contactos"}) site.page(p, html("<p>Sem data.</p>"));
}

TEST(ScopeCrawl, LinksInPageFurnitureAroundDatedParagraphsAreNotFollowed) {
  Site site;
  build_newspaper(site);
  site.start();
  TempDir tmp;
  auto o = test_options(tmp, {site.url("/")});
  o.temporal_mode = true;
  o.host_connections = 1;
  auto s = run_crawl(o, nullptr);
  ASSERT_TRUE(s.ok()) << s.status().message();
  EXPECT_EQ(site.server().count("/africa"), 1);
  // The menu after the dated header does not take the header's date; the
  // sidebar and the copyright line are about other years.
  for (const char* p : {"/desporto", "/receitas", "/horoscopo", "/contactos"})
    EXPECT_EQ(site.server().count(p), 0) << p;
  EXPECT_EQ(rows(o.db, "SELECT target FROM links WHERE in_scope = 1 ORDER BY position"),
            (std::vector<std::string>{site.url("/africa"), site.url("/edicao-anterior")}));
}

TEST(ScopeCrawl, ATemporalCrawlEndsWhenItsInScopeLinksAreSpent) {
  Site site;
  build_newspaper(site);
  site.start();
  TempDir tmp;
  auto o = test_options(tmp, {site.url("/")});
  o.temporal_mode = true;
  auto s = run_crawl(o, nullptr);
  ASSERT_TRUE(s.ok()) << s.status().message();
  // The dated footer line is in scope, but page furniture: its link is not
  // an in-scope link, and once /africa is fetched nothing is left.
  EXPECT_EQ(s->end_reason, "frontier-empty");
  EXPECT_EQ(s->pages, 2);
  EXPECT_EQ(site.server().count("/edicao-anterior"), 0);
  EXPECT_EQ(scalar(o.db, "SELECT links_kept FROM pages WHERE url = '" + site.url("/") + "'"), "1");
}

TEST(ScopeCrawl, AskedToGoOnTheCrawlFollowsFurnitureLinksLast) {
  Site site;
  build_newspaper(site);
  site.start();
  TempDir tmp;
  auto o = test_options(tmp, {site.url("/")});
  o.temporal_mode = true;
  o.host_connections = 1;
  o.follow_furniture = true;
  auto s = run_crawl(o, nullptr);
  ASSERT_TRUE(s.ok()) << s.status().message();
  // Followed last (one connection: requests in dispatch order), with no
  // backlink counted.
  EXPECT_EQ(pages_requested(site), (std::vector<std::string>{"/", "/africa", "/edicao-anterior"}));
  EXPECT_EQ(rows(o.db, "SELECT url, backlinks FROM pages WHERE url <> '" + site.url("/") + "' ORDER BY url"),
            (std::vector<std::string>{site.url("/africa") + "|1", site.url("/edicao-anterior") + "|0"}));
}

TEST(ScopeCrawl, APageWhoseOnlyInScopeSegmentIsFurnitureIsNotRelevant) {
  Site site;
  // An article about 2015 whose footer carries the paper's address: the
  // postal-code-like number and the edition date read as 1942.
  site.page("/", html("<article><p>Em 2015 abriu ao público o novo museu da cidade, visitado por milhares de "
                      "pessoas no primeiro mês.</p></article>"
                      "<footer><p>Edição de 12 de maio de 1942. Rua do Século, 1942 Lisboa.</p></footer>",
                      "Museu"));
  site.start();
  TempDir tmp;
  auto o = test_options(tmp, {site.url("/")});
  o.temporal_mode = true;
  auto s = run_crawl(o, nullptr);
  ASSERT_TRUE(s.ok()) << s.status().message();
  EXPECT_EQ(s->relevant, 0);
  EXPECT_EQ(scalar(o.db, "SELECT relevant FROM pages WHERE url = '" + site.url("/") + "'"), "0");
  // The footer segment itself is still judged in scope.
  EXPECT_GE(s->segments_in_scope, 1);
}

TEST(ScopeCrawl, OfTwoParagraphsThreeDaysApartOnlyTheInScopeOneIsFollowed) {
  Site site;
  site.page("/", html("<p>A 29 de dezembro de 2000 o parlamento aprovou <a href=\"/orcamento\">o orçamento</a>.</p>"
                      "<p>A 1 de janeiro de 2001 entrou em vigor <a href=\"/lei\">a nova lei das finanças locais</a>.</p>",
                      "Finanças"));
  site.page("/orcamento", html("<p>O orçamento de 2000.</p>"));
  site.page("/lei", html("<p>A lei de 2001.</p>"));
  site.start();
  TempDir tmp;
  auto o = test_options(tmp, {site.url("/")});
  o.temporal_mode = true;
  o.from = o.to = "2001";
  o.period = *temporal::Period::parse("2001", "2001");
  auto s = run_crawl(o, nullptr);
  ASSERT_TRUE(s.ok()) << s.status().message();
  EXPECT_EQ(site.server().count("/lei"), 1);
  EXPECT_EQ(site.server().count("/orcamento"), 0);
  EXPECT_EQ(scalar(o.db, "SELECT relevant, segments, segments_in_scope FROM pages WHERE url = '" + site.url("/") + "'"),
            "1|2|1");
}

void build_war(Site& site) {
  site.page("/", html("<p>A 1 de setembro de 1939 a Alemanha invadiu a Polónia, ver <a href=\"/polonia\">a invasão</a>.</p>"
                      "<p>Em 1942 travou-se a batalha de Estalinegrado, ver <a href=\"/estalinegrado\">a batalha</a>.</p>",
                      "Guerra"));
  site.page("/polonia", html("<p>Em setembro de 1939 começou a guerra.</p>"));
  site.page("/estalinegrado", html("<p>Em fevereiro de 1943 o cerco terminou.</p>"));
}

// The pages requested, in order (one connection: dispatch order).
std::vector<std::string> crawl_order(int max_link_penalty) {
  Site site;
  build_war(site);
  site.start();
  TempDir tmp;
  auto o = test_options(tmp, {site.url("/")});
  o.temporal_mode = true;
  o.host_connections = 1;
  o.max_link_penalty = max_link_penalty;
  auto s = run_crawl(o, nullptr);
  EXPECT_TRUE(s.ok()) << s.status().message();
  return pages_requested(site);
}

TEST(ScopeCrawl, ALinkFromTheMiddleOfThePeriodComesBeforeOneFromItsEdge) {
  // Both links are in scope; the one about 1942 is followed first although
  // it comes second in the page. Without link penalties, page order.
  EXPECT_EQ(crawl_order(40), (std::vector<std::string>{"/", "/estalinegrado", "/polonia"}));
  EXPECT_EQ(crawl_order(0), (std::vector<std::string>{"/", "/polonia", "/estalinegrado"}));
}

TEST(ScopeCrawl, ADateInTheAnchorTextDecidesTheLink) {
  Site site;
  site.page("/", html("<p>Anos: <a href=\"/ano/1936\">1936</a> · <a href=\"/ano/1942\">1942</a> · "
                      "<a href=\"/ano/1950\">1950</a> · <a href=\"/ano/1960\">1960</a>.</p>"
                      "<p>Em 1944 os Aliados libertaram Paris, como se lê na <a href=\"/libertacao\">crónica da "
                      "libertação</a>, e a cidade foi reconstruída em <a href=\"/paris-1950\">1950</a>.</p>",
                      "Cronologia"));
  for (const char* p : {"/ano/1936", "/ano/1942", "/ano/1950", "/ano/1960", "/libertacao", "/paris-1950"})
    site.page(p, html("<p>Sem ligações.</p>"));
  site.start();
  TempDir tmp;
  auto o = test_options(tmp, {site.url("/")});
  o.temporal_mode = true;
  auto s = run_crawl(o, nullptr);
  ASSERT_TRUE(s.ok()) << s.status().message();
  // The list of years is out of scope as a whole (1936 to 1960), but its
  // link named 1942 is followed. The sentence about 1944 and 1950 is out of
  // scope, and so are its links, the one named 1950 included.
  EXPECT_EQ(site.server().count("/ano/1942"), 1);
  for (const char* p : {"/ano/1936", "/ano/1950", "/ano/1960", "/libertacao", "/paris-1950"})
    EXPECT_EQ(site.server().count(p), 0) << p;
  EXPECT_EQ(rows(o.db, "SELECT target FROM links WHERE in_scope = 1"), (std::vector<std::string>{site.url("/ano/1942")}));
  EXPECT_EQ(scalar(o.db, "SELECT relevant FROM pages WHERE url = '" + site.url("/") + "'"), "0");
}

TEST(ScopeCrawl, APagePublishedBeforeThePeriodWaits) {
  Site site;
  site.page("/", html("<p>Em 1942 a imprensa acompanhou a guerra: ver <a href=\"/jornal/1938/05/12/capa.html\">a capa "
                      "de um diário</a> e <a href=\"/2002/05/12/reportagem.html\">uma reportagem</a>.</p>",
                      "Imprensa"));
  for (const char* p : {"/jornal/1938/05/12/capa.html", "/2002/05/12/reportagem.html"})
    site.page(p, html("<p>Sem ligações.</p>"));
  site.start();
  TempDir tmp;
  auto o = test_options(tmp, {site.url("/")});
  o.temporal_mode = true;
  o.host_connections = 1;
  auto s = run_crawl(o, nullptr);
  ASSERT_TRUE(s.ok()) << s.status().message();
  // Both links are in scope; a page of 1938 can only foresee the period, so
  // it comes after the page published in 2002, which may look back on it.
  EXPECT_EQ(pages_requested(site), (std::vector<std::string>{"/", "/2002/05/12/reportagem.html", "/jornal/1938/05/12/capa.html"}));
}

}  // namespace
}  // namespace cronista::crawler
