// RobotsRules and RobotsPolicy: RFC 9309 group selection, longest-match
// precedence, wildcards, percent-encoding, Crawl-delay, odd files, and the
// status-code table.
#include "crawler/robots.h"

#include <gtest/gtest.h>

#include <string>

#include "crawler/robots_policy.h"
#include "crawler/url.h"

namespace cronista::crawler {
namespace {

using std::chrono::milliseconds;

// The example file of RFC 9309 §5.1.
constexpr std::string_view kRfcExample =
    "User-Agent: *\n"
    "Disallow: *.gif$\n"
    "Disallow: /example/\n"
    "Allow: /publications/\n"
    "\n"
    "User-Agent: foobot\n"
    "Disallow:/\n"
    "Allow:/example/page.html\n"
    "Allow:/example/allowed.gif\n"
    "\n"
    "User-Agent: barbot\n"
    "User-Agent: bazbot\n"
    "Disallow: /example/page.html\n"
    "\n"
    "User-Agent: quxbot\n"
    "\n"
    "EOF\n";

TEST(RobotsRules, RfcExampleWildcardGroup) {
  const auto r = RobotsRules::parse(kRfcExample, "cronista");
  EXPECT_FALSE(r.allowed("/imagens/logo.gif"));
  EXPECT_TRUE(r.allowed("/imagens/logo.gif?v=2"));  // "$" anchors the end
  EXPECT_FALSE(r.allowed("/example/"));
  EXPECT_FALSE(r.allowed("/example/page.html"));
  EXPECT_TRUE(r.allowed("/publications/"));
  EXPECT_TRUE(r.allowed("/noticias"));
}

TEST(RobotsRules, RfcExampleSpecificGroupReplacesTheWildcard) {
  const auto foo = RobotsRules::parse(kRfcExample, "FooBot/2.1 (+https://example.com/bot)");
  EXPECT_FALSE(foo.allowed("/"));
  EXPECT_FALSE(foo.allowed("/publications/"));
  EXPECT_TRUE(foo.allowed("/example/page.html"));
  EXPECT_TRUE(foo.allowed("/example/allowed.gif"));
}

TEST(RobotsRules, RfcExampleGroupWithSeveralUserAgents) {
  for (const char* ua : {"barbot", "bazbot"}) {
    const auto r = RobotsRules::parse(kRfcExample, ua);
    EXPECT_FALSE(r.allowed("/example/page.html")) << ua;
    EXPECT_TRUE(r.allowed("/example/other.html")) << ua;
    EXPECT_TRUE(r.allowed("/a.gif")) << ua;  // the "*" group does not apply
  }
}

TEST(RobotsRules, RfcExampleEmptyGroupAllowsEverything) {
  const auto r = RobotsRules::parse(kRfcExample, "quxbot");
  EXPECT_TRUE(r.allowed("/example/page.html"));
  EXPECT_EQ(r.rule_count(), 0u);
}

TEST(RobotsRules, ProductTokenMatchIsCaseInsensitiveAndExact) {
  const std::string body = "User-agent: CRONISTA\nDisallow: /arquivo/\n\nUser-agent: *\nDisallow: /\n";
  EXPECT_FALSE(RobotsRules::parse(body, "cronista").allowed("/arquivo/2019"));
  EXPECT_TRUE(RobotsRules::parse(body, "cronista").allowed("/noticias"));
  // "cron" is another product: it gets the "*" group.
  EXPECT_FALSE(RobotsRules::parse(body, "cron").allowed("/noticias"));
}

TEST(RobotsRules, GroupsNamingUsAreCombined) {
  const std::string body =
      "User-agent: cronista\nDisallow: /a/\n\nUser-agent: outro\nDisallow: /b/\n\n"
      "User-agent: cronista\nDisallow: /c/\nCrawl-delay: 2.5\n";
  const auto r = RobotsRules::parse(body, "cronista");
  EXPECT_FALSE(r.allowed("/a/x"));
  EXPECT_TRUE(r.allowed("/b/x"));
  EXPECT_FALSE(r.allowed("/c/x"));
  ASSERT_TRUE(r.crawl_delay().has_value());
  EXPECT_EQ(*r.crawl_delay(), milliseconds(2500));
}

TEST(RobotsRules, NoMatchingGroupAllowsEverything) {
  const auto r = RobotsRules::parse("User-agent: googlebot\nDisallow: /\n", "cronista");
  EXPECT_TRUE(r.allowed("/qualquer/coisa"));
}

TEST(RobotsRules, LongestMatchWinsAndAllowWinsTies) {
  EXPECT_TRUE(RobotsRules::parse("User-agent: *\nAllow: /p\nDisallow: /\n", "x").allowed("/pagina"));
  EXPECT_TRUE(RobotsRules::parse("User-agent: *\nDisallow: /pasta\nAllow: /pasta\n", "x").allowed("/pasta/p"));
  EXPECT_FALSE(RobotsRules::parse("User-agent: *\nAllow: /page\nDisallow: /*.htm\n", "x").allowed("/page.htm"));
  EXPECT_TRUE(RobotsRules::parse("User-agent: *\nAllow: /page\nDisallow: /*.ph\n", "x").allowed("/page.php"));
  const auto home_only = RobotsRules::parse("User-agent: *\nAllow: /$\nDisallow: /\n", "x");
  EXPECT_TRUE(home_only.allowed("/"));
  EXPECT_FALSE(home_only.allowed("/page.htm"));
}

TEST(RobotsRules, WildcardsAndEndAnchor) {
  const auto fish = RobotsRules::parse("User-agent: *\nDisallow: /fish\n", "x");
  for (const char* p : {"/fish", "/fish.html", "/fish/salmon.html", "/fishheads", "/fish.php?id=anything"})
    EXPECT_FALSE(fish.allowed(p)) << p;
  for (const char* p : {"/Fish.asp", "/catfish", "/?id=fish", "/"}) EXPECT_TRUE(fish.allowed(p)) << p;

  const auto php = RobotsRules::parse("User-agent: *\nDisallow: /*.php$\n", "x");
  for (const char* p : {"/filename.php", "/folder/filename.php"}) EXPECT_FALSE(php.allowed(p)) << p;
  for (const char* p : {"/filename.php?parameters", "/filename.php/", "/filename.php5", "/windows.PHP"})
    EXPECT_TRUE(php.allowed(p)) << p;

  const auto mid = RobotsRules::parse("User-agent: *\nDisallow: /fish*.php\n", "x");
  EXPECT_FALSE(mid.allowed("/fish.php"));
  EXPECT_FALSE(mid.allowed("/fishheads/catfish.php?parameters"));
  EXPECT_TRUE(mid.allowed("/Fish.PHP"));

  const auto query = RobotsRules::parse("User-agent: *\nDisallow: /*?*sessionid=\nDisallow: /**/x**$\n", "x");
  EXPECT_FALSE(query.allowed("/noticias?a=1&sessionid=9"));
  EXPECT_TRUE(query.allowed("/noticias?a=1"));
  EXPECT_FALSE(query.allowed("/a/b/x/c"));
}

TEST(RobotsRules, PercentEncodingIsNormalisedOnBothSides) {
  const auto r = RobotsRules::parse(
      "User-agent: *\nDisallow: /foo/bar/ツ\nDisallow: /%7ejoao/\nDisallow: /notícias/arquivo\n"
      "Disallow: /a%2fb\n",
      "x");
  EXPECT_FALSE(r.allowed("/foo/bar/%E3%83%84"));
  EXPECT_FALSE(r.allowed("/~joao/x"));
  EXPECT_FALSE(r.allowed("/%7Ejoao/x"));
  EXPECT_FALSE(r.allowed("/not%C3%ADcias/arquivo/2019"));
  EXPECT_FALSE(r.allowed("/notícias/arquivo/2019"));  // raw UTF-8 path, normalised first
  EXPECT_FALSE(r.allowed("/a%2Fb"));
  EXPECT_TRUE(r.allowed("/a/b"));  // an escaped "/" is not a "/"

  const auto unreserved = RobotsRules::parse("User-agent: *\nDisallow: /foo/bar/%62%61%7A\n", "x");
  EXPECT_FALSE(unreserved.allowed("/foo/bar/baz"));
}

TEST(RobotsRules, WorksWithCanonicalUrls) {
  const auto r = RobotsRules::parse("User-agent: *\nDisallow: /pesquisa\nDisallow: /*/comentarios$\n", "cronista");
  auto blocked = CanonicalUrl::parse("https://www.publico.pt/pesquisa?q=orçamento");
  auto anchored = CanonicalUrl::parse("https://www.publico.pt/2020/10/11/artigo/comentarios#fim");
  auto fine = CanonicalUrl::parse("https://www.publico.pt/2020/10/11/artigo");
  ASSERT_TRUE(blocked.ok() && anchored.ok() && fine.ok());
  EXPECT_FALSE(r.allowed(blocked->path_and_query()));
  EXPECT_FALSE(r.allowed(anchored->path_and_query()));
  EXPECT_TRUE(r.allowed(fine->path_and_query()));
}

TEST(RobotsRules, CrawlDelayForms) {
  EXPECT_EQ(RobotsRules::parse("User-agent: *\nCrawl-delay: 10\n", "x").crawl_delay(), milliseconds(10000));
  EXPECT_EQ(RobotsRules::parse("User-agent: *\ncrawl-delay: 0.5\n", "x").crawl_delay(), milliseconds(500));
  EXPECT_FALSE(RobotsRules::parse("User-agent: *\nCrawl-delay: depressa\n", "x").crawl_delay().has_value());
  EXPECT_FALSE(RobotsRules::parse("User-agent: *\nCrawl-delay: -3\n", "x").crawl_delay().has_value());
  EXPECT_FALSE(RobotsRules::parse("User-agent: *\nCrawl-delay: nan\n", "x").crawl_delay().has_value());
  EXPECT_EQ(RobotsRules::parse("User-agent: *\nCrawl-delay: 1e300\n", "x").crawl_delay(), milliseconds(86400000));
  // Only from the group that applies.
  EXPECT_FALSE(RobotsRules::parse("User-agent: outro\nCrawl-delay: 9\n", "cronista").crawl_delay().has_value());
}

TEST(RobotsRules, BomCrlfCommentsAndGarbage) {
  const std::string body =
      "\xEF\xBB\xBF# robots.txt do jornal\r\n"
      "User-agent: * # todos\r\n"
      "isto não é uma regra\r\n"
      "Disallow: /admin/ # área reservada\r\n"
      "Sitemap: https://www.exemplo.pt/sitemap.xml\r\n"
      "Foo: bar\r"
      "Disallow:\r\n"
      "Allow: /admin/publico\n";
  const auto r = RobotsRules::parse(body, "cronista");
  EXPECT_FALSE(r.allowed("/admin/painel"));
  EXPECT_TRUE(r.allowed("/admin/publico/x"));
  EXPECT_TRUE(r.allowed("/"));
  ASSERT_EQ(r.sitemaps().size(), 1u);
  EXPECT_EQ(r.sitemaps()[0], "https://www.exemplo.pt/sitemap.xml");
  EXPECT_EQ(r.rule_count(), 2u);  // the empty Disallow is no rule
}

TEST(RobotsRules, RulesBeforeAnyUserAgentAreIgnored) {
  const auto r = RobotsRules::parse("Disallow: /\nUser-agent: *\nDisallow: /privado\n", "x");
  EXPECT_TRUE(r.allowed("/publico"));
  EXPECT_FALSE(r.allowed("/privado"));
}

TEST(RobotsRules, RobotsTxtItselfIsAlwaysAllowed) {
  EXPECT_TRUE(RobotsRules::parse("User-agent: *\nDisallow: /\n", "x").allowed("/robots.txt"));
  EXPECT_FALSE(RobotsRules::parse("User-agent: *\nDisallow: /\n", "x").allowed("/"));
}

TEST(RobotsRules, ContentAfter500KiBIsIgnored) {
  std::string body = "User-agent: *\nDisallow: /cedo\n";
  while (body.size() < 500 * 1024) body += "# enchimento enchimento enchimento enchimento\n";
  body += "Disallow: /tarde\n";
  const auto r = RobotsRules::parse(body, "x");
  EXPECT_FALSE(r.allowed("/cedo"));
  EXPECT_TRUE(r.allowed("/tarde"));
}

TEST(RobotsRules, BinaryGarbageNeverCrashes) {
  std::string body;
  for (int i = 0; i < 4096; ++i) body.push_back(static_cast<char>((i * 7919) % 256));
  body += "\nUser-agent: *\nDisallow: /x\n";
  const auto r = RobotsRules::parse(body, "x");
  EXPECT_FALSE(r.allowed("/x"));
}

TEST(RobotsRules, HostilePatternsStayCheap) {
  std::string stars = "/";
  for (int i = 0; i < 2000; ++i) stars += "*a";
  std::string body = "User-agent: *\nDisallow: " + stars + "b\nDisallow: /" + std::string(5000, 'x') +
                     "\nDisallow: /seguro/****fim$\n";
  const auto r = RobotsRules::parse(body, "x");
  EXPECT_EQ(r.rule_count(), 2u);  // the 5000-byte pattern is dropped
  EXPECT_TRUE(r.allowed("/" + std::string(8000, 'a')));
  EXPECT_FALSE(r.allowed("/seguro/a/b/fim"));
}

TEST(RobotsRules, AllowAllAndDisallowAll) {
  EXPECT_TRUE(RobotsRules::allow_all().allowed("/qualquer"));
  EXPECT_FALSE(RobotsRules::disallow_all().allowed("/qualquer"));
  EXPECT_FALSE(RobotsRules::disallow_all().allowed("/"));
}

using Clock = std::chrono::system_clock;

TEST(RobotsPolicy, SuccessParsesAndCachesFor24Hours) {
  RobotsPolicy policy;
  const auto now = Clock::now();
  const auto e = policy.on_fetch({200, false, false, "User-agent: *\nDisallow: /privado\n", std::nullopt, std::nullopt}, now);
  EXPECT_EQ(e.source, RobotsSource::kParsed);
  EXPECT_FALSE(e.rules.allowed("/privado"));
  EXPECT_FALSE(policy.expired(e, now + std::chrono::hours(23)));
  EXPECT_TRUE(policy.expired(e, now + std::chrono::hours(24)));
}

// The server may ask for a shorter keeping with Cache-Control (RFC 9309
// §2.4 lets HTTP caching decide within the 24 hours); never longer, never
// below a second, and never for an unreachable server's answer.
TEST(RobotsPolicy, CacheControlShortensTheKeepingWithinTheDay) {
  EXPECT_EQ(cache_max_age("HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nCache-Control: public, max-age=90\r\n\r\n"),
            std::chrono::seconds(90));
  EXPECT_EQ(cache_max_age("HTTP/1.1 200 OK\r\ncache-control: MAX-AGE=\"60\"\r\n\r\n"), std::chrono::seconds(60));
  EXPECT_EQ(cache_max_age("HTTP/1.1 200 OK\r\nCache-Control: no-cache\r\n\r\n"), std::chrono::seconds(0));
  EXPECT_EQ(cache_max_age("HTTP/1.1 200 OK\r\nCache-Control: max-age=600\r\nCache-Control: max-age=30\r\n\r\n"),
            std::chrono::seconds(30));  // the shorter of two
  EXPECT_EQ(cache_max_age("HTTP/1.1 200 OK\r\nCache-Control: max-age=soon, private\r\n\r\n"), std::nullopt);
  EXPECT_EQ(cache_max_age("HTTP/1.1 200 OK\r\nExpires: 0\r\n\r\n"), std::nullopt);
  EXPECT_EQ(cache_max_age(""), std::nullopt);

  RobotsPolicy policy;
  const auto now = Clock::now();
  const auto brief = policy.on_fetch({200, false, false, "User-agent: *\nDisallow: /x\n", std::chrono::seconds(90), std::nullopt}, now);
  EXPECT_FALSE(policy.expired(brief, now + std::chrono::seconds(89)));
  EXPECT_TRUE(policy.expired(brief, now + std::chrono::seconds(90)));
  const auto week = policy.on_fetch({404, false, false, {}, std::chrono::hours(24 * 7), std::nullopt}, now);
  EXPECT_TRUE(policy.expired(week, now + std::chrono::hours(24)));
  const auto none = policy.on_fetch({200, false, false, "", std::chrono::seconds(0), std::nullopt}, now);
  EXPECT_FALSE(policy.expired(none, now));
  EXPECT_TRUE(policy.expired(none, now + std::chrono::seconds(1)));
  const auto down = policy.on_fetch({503, false, false, {}, std::chrono::seconds(5), std::nullopt}, now);
  EXPECT_FALSE(policy.expired(down, now + std::chrono::minutes(59)));
  // A shared crawl's copy keeps exactly what is left of it, below the second too.
  const auto shared = policy.on_fetch({200, false, false, "", std::nullopt, std::chrono::milliseconds(300)}, now);
  EXPECT_FALSE(policy.expired(shared, now + std::chrono::milliseconds(299)));
  EXPECT_TRUE(policy.expired(shared, now + std::chrono::milliseconds(300)));
}

TEST(RobotsPolicy, ClientErrorsAllowEverything) {
  RobotsPolicy policy;
  for (int status : {400, 401, 403, 404, 410}) {
    const auto e = policy.on_fetch({status, false, false, "User-agent: *\nDisallow: /\n", std::nullopt, std::nullopt}, Clock::now());
    EXPECT_EQ(e.source, RobotsSource::kUnavailable) << status;
    EXPECT_TRUE(e.rules.allowed("/qualquer")) << status;
  }
  const auto redirects = policy.on_fetch({301, false, true, {}, std::nullopt, std::nullopt}, Clock::now());
  EXPECT_TRUE(redirects.rules.allowed("/qualquer"));
}

TEST(RobotsPolicy, ServerErrorsAndNetworkFailuresDisallowForAWhile) {
  RobotsPolicy policy;
  const auto now = Clock::now();
  for (RobotsFetchOutcome o : {RobotsFetchOutcome{500, false, false, {}, std::nullopt, std::nullopt}, RobotsFetchOutcome{503, false, false, {}, std::nullopt, std::nullopt},
                               RobotsFetchOutcome{429, false, false, {}, std::nullopt, std::nullopt}, RobotsFetchOutcome{0, true, false, {}, std::nullopt, std::nullopt}}) {
    const auto e = policy.on_fetch(o, now);
    EXPECT_EQ(e.source, RobotsSource::kUnreachable) << o.status;
    EXPECT_FALSE(e.rules.allowed("/")) << o.status;
    EXPECT_TRUE(policy.expired(e, now + std::chrono::hours(1)));
    EXPECT_FALSE(policy.expired(e, now + std::chrono::minutes(59)));
  }
}

TEST(RobotsPolicy, ServerErrorKeepsRecentParsedRules) {
  RobotsPolicy policy;
  const auto t0 = Clock::now();
  const auto ok = policy.on_fetch({200, false, false, "User-agent: *\nDisallow: /privado\n", std::nullopt, std::nullopt}, t0);
  const auto later = policy.on_fetch({503, false, false, {}, std::nullopt, std::nullopt}, t0 + std::chrono::hours(25), &ok);
  EXPECT_EQ(later.source, RobotsSource::kStale);
  EXPECT_TRUE(later.rules.allowed("/publico"));
  EXPECT_FALSE(later.rules.allowed("/privado"));
  const auto much_later = policy.on_fetch({503, false, false, {}, std::nullopt, std::nullopt}, t0 + std::chrono::hours(24 * 31), &later);
  EXPECT_EQ(much_later.source, RobotsSource::kUnreachable);
  EXPECT_FALSE(much_later.rules.allowed("/publico"));
}

TEST(RobotsPolicy, UsesTheConfiguredProductToken) {
  RobotsPolicy::Options options;
  options.user_agent_token = "cronista/0.1 (+https://example.org/cronista)";
  RobotsPolicy policy(options);
  const auto e = policy.on_fetch({200, false, false, "User-agent: cronista\nDisallow: /\n", std::nullopt, std::nullopt}, Clock::now());
  EXPECT_FALSE(e.rules.allowed("/x"));
}

}  // namespace
}  // namespace cronista::crawler
