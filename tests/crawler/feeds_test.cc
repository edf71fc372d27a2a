// Feeds and sitemaps: the URLs each kind announces, recognised by the root
// element whatever the Content-Type.
#include "crawler/feeds.h"

#include <gtest/gtest.h>

namespace cronista::crawler {
namespace {

TEST(Feeds, Rss2ListsTheLinkOfEachItem) {
  const auto f = parse_feed(R"(<?xml version="1.0" encoding="UTF-8"?>
<rss version="2.0"><channel><title>Últimas notícias</title><link>http://jornal.example/</link>
<item><title>Câmara aprova orçamento</title><link> http://jornal.example/2026/11/orcamento.html </link></item>
<item><title>Festival de teatro</title><link>http://jornal.example/2026/11/teatro.html</link></item>
</channel></rss>)");
  ASSERT_TRUE(f);
  EXPECT_EQ(f->kind, FeedKind::kRss);
  EXPECT_EQ(f->urls, (std::vector<std::string>{"http://jornal.example/2026/11/orcamento.html",
                                               "http://jornal.example/2026/11/teatro.html"}));
}

TEST(Feeds, AtomTakesTheAlternateLinkOfEachEntry) {
  const auto f = parse_feed(R"(<feed xmlns="http://www.w3.org/2005/Atom"><title>Blog</title>
<link rel="self" href="/atom.xml"/>
<entry><title>Comentários</title><link rel="edit" href="/edit/1"/><link href="/posts/1"/></entry>
<entry><title>Outro</title><link rel="alternate" type="text/html" href="http://blog.example/posts/2"/></entry>
</feed>)");
  ASSERT_TRUE(f);
  EXPECT_EQ(f->kind, FeedKind::kAtom);
  EXPECT_EQ(f->urls, (std::vector<std::string>{"/posts/1", "http://blog.example/posts/2"}));
}

TEST(Feeds, Rss1ItemsAreChildrenOfTheRoot) {
  const auto f = parse_feed(R"(<rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#" xmlns="http://purl.org/rss/1.0/">
<channel rdf:about="http://x.example/"><title>X</title></channel>
<item rdf:about="http://x.example/a"><title>A</title><link>http://x.example/a</link></item></rdf:RDF>)");
  ASSERT_TRUE(f);
  EXPECT_EQ(f->kind, FeedKind::kRss);
  EXPECT_EQ(f->urls, (std::vector<std::string>{"http://x.example/a"}));
}

TEST(Feeds, SitemapsAndSitemapIndexes) {
  const auto s = parse_feed(R"(<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
<url><loc>http://x.example/</loc><lastmod>2026-11-20</lastmod></url><url><loc>http://x.example/sobre</loc></url>
</urlset>)");
  ASSERT_TRUE(s);
  EXPECT_EQ(s->kind, FeedKind::kSitemap);
  EXPECT_EQ(s->urls, (std::vector<std::string>{"http://x.example/", "http://x.example/sobre"}));
  const auto i = parse_feed(R"(<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
<sitemap><loc>http://x.example/mapa-1.xml</loc></sitemap></sitemapindex>)");
  ASSERT_TRUE(i);
  EXPECT_EQ(i->kind, FeedKind::kSitemapIndex);
  EXPECT_EQ(i->urls, (std::vector<std::string>{"http://x.example/mapa-1.xml"}));
}

TEST(Feeds, HtmlOtherXmlAndBrokenXmlAreNotFeeds) {
  EXPECT_FALSE(parse_feed("<html><body><p>Olá</p></body></html>"));
  EXPECT_FALSE(parse_feed("<?xml version=\"1.0\"?><svg xmlns=\"http://www.w3.org/2000/svg\"/>"));
  EXPECT_FALSE(parse_feed("<rss><channel><item><link>http://x"));
  EXPECT_FALSE(parse_feed(""));
}

TEST(Feeds, FeedTypesOfAlternateLinks) {
  EXPECT_TRUE(is_feed_type("application/rss+xml"));
  EXPECT_TRUE(is_feed_type(" Application/Atom+XML "));
  EXPECT_FALSE(is_feed_type("text/html"));
  EXPECT_FALSE(is_feed_type(""));
}

}  // namespace
}  // namespace cronista::crawler
