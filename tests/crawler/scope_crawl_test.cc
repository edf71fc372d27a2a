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

}  // namespace
}  // namespace cronista::crawler
