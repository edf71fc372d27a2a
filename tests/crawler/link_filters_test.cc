// Link filters: host scoping, non-HTML extensions, static spider-trap rules
// and the calendar-trap detector.
#include "crawler/link_filters.h"

#include <gtest/gtest.h>

#include <string>
#include <utility>
#include <vector>

namespace cronista::crawler {
namespace {

CanonicalUrl url(std::string_view s) {
  auto r = CanonicalUrl::parse(s);
  EXPECT_TRUE(r.ok()) << s << ": " << r.status().message();
  return r.ok() ? *r : CanonicalUrl();
}

TEST(HostScope, UnrestrictedByDefault) {
  HostScope scope;
  scope.add_seed(url("https://www.publico.pt/"));
  EXPECT_FALSE(scope.restricted());
  EXPECT_TRUE(scope.allows(url("https://g1.globo.com/")));
}

TEST(HostScope, SameHostUsesTheSeedAuthorities) {
  HostScope scope;
  scope.set_same_host(true);
  scope.add_seed(url("https://www.publico.pt/"));
  scope.add_seed(url("http://127.0.0.2:18080/inicio"));
  EXPECT_TRUE(scope.allows(url("https://WWW.publico.pt/politica")));
  EXPECT_TRUE(scope.allows(url("http://www.publico.pt/politica")));  // http and https, default ports
  EXPECT_FALSE(scope.allows(url("https://publico.pt/politica")));
  EXPECT_FALSE(scope.allows(url("https://imagens.publico.pt/a")));
  EXPECT_TRUE(scope.allows(url("http://127.0.0.2:18080/outra")));
  EXPECT_FALSE(scope.allows(url("http://127.0.0.2:18081/outra")));
  EXPECT_FALSE(scope.allows(url("http://127.0.0.3:18080/outra")));
}

TEST(HostScope, AllowHostPatterns) {
  HostScope scope;
  ASSERT_TRUE(scope.allow_host("publico.pt").ok());
  ASSERT_TRUE(scope.allow_host("*.globo.com").ok());
  ASSERT_TRUE(scope.allow_host("127.0.0.2:18081").ok());
  ASSERT_TRUE(scope.allow_host("Açores.pt").ok());
  ASSERT_TRUE(scope.allow_host("[::1]").ok());
  EXPECT_TRUE(scope.restricted());
  EXPECT_TRUE(scope.allows(url("https://publico.pt/")));
  EXPECT_TRUE(scope.allows(url("http://publico.pt:8080/")));  // any port without one in the pattern
  EXPECT_FALSE(scope.allows(url("https://www.publico.pt/")));
  EXPECT_TRUE(scope.allows(url("https://globo.com/")));
  EXPECT_TRUE(scope.allows(url("https://g1.globo.com/economia")));
  EXPECT_FALSE(scope.allows(url("https://naoglobo.com/")));
  EXPECT_TRUE(scope.allows(url("http://127.0.0.2:18081/x")));
  EXPECT_FALSE(scope.allows(url("http://127.0.0.2:18080/x")));
  EXPECT_TRUE(scope.allows(url("http://xn--aores-yra.pt/ilhas")));
  EXPECT_TRUE(scope.allows(url("http://[::1]:9000/")));
}

TEST(HostScope, SameHostPlusAllowHost) {
  HostScope scope;
  scope.set_same_host(true);
  scope.add_seed(url("https://www.publico.pt/"));
  ASSERT_TRUE(scope.allow_host("*.publico.pt").ok());
  EXPECT_TRUE(scope.allows(url("https://imagens.publico.pt/a")));
  EXPECT_FALSE(scope.allows(url("https://www.record.pt/")));
}

// --allow-host says "also crawl this host": the seeds' hosts stay in scope.
TEST(HostScope, AllowHostAddsToTheSeedsHosts) {
  HostScope scope;
  scope.add_seed(url("https://www.publico.pt/"));
  ASSERT_TRUE(scope.allow_host("arquivo.pt").ok());
  EXPECT_TRUE(scope.allows(url("https://www.publico.pt/politica")));
  EXPECT_TRUE(scope.allows(url("https://arquivo.pt/wayback")));
  EXPECT_FALSE(scope.allows(url("https://www.record.pt/")));
}

TEST(HostScope, BadPatternsAreErrors) {
  HostScope scope;
  for (const char* bad : {"", "http://publico.pt", "publico.pt/politica", "exa mple.pt", "publico.pt:99999", "*."}) {
    const Status s = scope.allow_host(bad);
    EXPECT_FALSE(s.ok()) << bad;
    EXPECT_NE(s.message().find("--allow-host"), std::string::npos);
  }
  EXPECT_FALSE(scope.restricted());
}

TEST(SurelyNotHtml, KnownBinaryAndAssetExtensions) {
  for (const char* p : {"/fotos/lisboa.JPG", "/relatorio-2020.pdf", "/a/b.tar.gz", "/video.mp4", "/estilo.css",
                        "/app.js", "/dados.xlsx", "/fonte.woff2", "/feed.xml"})
    EXPECT_TRUE(surely_not_html(p)) << p;
  for (const char* p : {"/", "/noticias", "/noticia.html", "/index.php", "/pagina.aspx", "/v1.2/", "/a.b/c",
                        "/2020/10/11/texto.ghtml", "/x.shtml", "/ficheiro.", "/a.muitolongaextensao"})
    EXPECT_FALSE(surely_not_html(p)) << p;
}

TEST(StaticTraps, LongUrl) {
  const std::string long_url = "http://a.pt/" + std::string(3000, 'x');
  EXPECT_EQ(static_trap_reason(url(long_url)), "long-url");
  EXPECT_EQ(static_trap_reason(url("http://a.pt/" + std::string(1000, 'x'))), std::nullopt);
}

TEST(StaticTraps, DeepPath) {
  std::string deep = "http://a.pt";
  for (int i = 0; i < 17; ++i) deep += "/n" + std::to_string(i);
  EXPECT_EQ(static_trap_reason(url(deep)), "deep-path");
  TrapLimits generous;
  generous.max_path_depth = 20;
  EXPECT_EQ(static_trap_reason(url(deep), generous), std::nullopt);
}

TEST(StaticTraps, RepeatedSegments) {
  EXPECT_EQ(static_trap_reason(url("http://a.pt/x/a/b/a/b/a/b/y")), "repeated-segments");
  EXPECT_EQ(static_trap_reason(url("http://a.pt/img/img/img/foto.jpg")), "repeated-segments");
  EXPECT_EQ(static_trap_reason(url("http://a.pt/a/b/c/a/b/c/a/b/c")), "repeated-segments");
  EXPECT_EQ(static_trap_reason(url("http://a.pt/x/1/x/2/x/3/x/4")), "repeated-segments");
  EXPECT_EQ(static_trap_reason(url("http://a.pt/a/b/a/b/c")), std::nullopt);
  EXPECT_EQ(static_trap_reason(url("http://a.pt/2020/10/10/noticia")), std::nullopt);
  EXPECT_EQ(static_trap_reason(url("http://a.pt/politica/noticia/politica/opiniao")), std::nullopt);
}

TEST(CalendarTraps, WhatIsCalendarLike) {
  EXPECT_EQ(CalendarTrapDetector::pattern_of(url("http://a.pt/agenda/2024/03")), "a.pt/agenda/#/#");
  EXPECT_EQ(CalendarTrapDetector::pattern_of(url("http://a.pt/cal?ano=2024&mes=3")), "a.pt/cal?ano=#&mes=#");
  EXPECT_EQ(CalendarTrapDetector::pattern_of(url("http://a.pt:81/dia/20240315")), "a.pt:81/dia/#");
  EXPECT_EQ(CalendarTrapDetector::pattern_of(url("http://a.pt/artigo/12345")), std::nullopt);
  EXPECT_EQ(CalendarTrapDetector::pattern_of(url("http://a.pt/produto/2024")), std::nullopt);  // a year alone
  EXPECT_EQ(CalendarTrapDetector::pattern_of(url("http://a.pt/p/3000/05")), std::nullopt);     // not a year
}

TEST(CalendarTraps, FutureYearsAreSkipped) {
  CalendarTrapDetector::Limits limits;
  limits.latest_year = 2027;
  CalendarTrapDetector d(limits);
  EXPECT_EQ(d.check(url("http://a.pt/agenda/2027/12")), std::nullopt);
  EXPECT_EQ(d.check(url("http://a.pt/agenda/2028/01")), "calendar-future");
  EXPECT_EQ(d.check(url("http://a.pt/dia/21000101")), "calendar-future");
}

TEST(CalendarTraps, APatternWhoseNumbersKeepChangingIsBounded) {
  CalendarTrapDetector::Limits limits;
  limits.latest_year = 2030;
  limits.max_urls_per_pattern = 50;
  CalendarTrapDetector d(limits);
  int accepted = 0;
  for (int y = 1990; y <= 2020; ++y)
    for (int m = 1; m <= 12; ++m)
      if (!d.check(url("http://a.pt/cal?y=" + std::to_string(y) + "&m=" + std::to_string(m)))) ++accepted;
  EXPECT_EQ(accepted, 50);
  EXPECT_EQ(d.check(url("http://a.pt/cal?y=2021&m=1")), "calendar-flood");
  // Dated articles each have a pattern of their own and are not affected.
  for (int i = 0; i < 200; ++i)
    EXPECT_EQ(d.check(url("http://a.pt/2020/10/11/noticia-sobre-tema-" + std::string(1, 'a' + i % 26) +
                          std::string(1, 'a' + i / 26))),
              std::nullopt);
}

// Whether a URL of a pattern is flagged now, without counting it: the
// pages fetched before the pattern was judged a trap are flagged too.
TEST(CalendarTraps, APatternJudgedATrapFlagsItsEarlierUrlsWithoutCounting) {
  CalendarTrapDetector::Limits limits;
  limits.latest_year = 2030;
  limits.max_urls_per_pattern = 3;
  CalendarTrapDetector d(limits);
  const CanonicalUrl first = url("http://a.pt/agenda/2020/1");
  ASSERT_EQ(d.check(first), std::nullopt);
  for (int i = 0; i < 10; ++i) EXPECT_EQ(d.flagged(first), std::nullopt);  // asking counts nothing
  ASSERT_EQ(d.check(url("http://a.pt/agenda/2020/2")), std::nullopt);
  EXPECT_EQ(d.flagged(first), std::nullopt);
  ASSERT_EQ(d.check(url("http://a.pt/agenda/2020/3")), std::nullopt);
  EXPECT_EQ(d.flagged(first), "calendar-flood");
  EXPECT_EQ(d.check(url("http://a.pt/agenda/2020/4")), "calendar-flood");
  EXPECT_EQ(d.flagged(url("http://a.pt/agenda/2031/1")), "calendar-future");
  EXPECT_EQ(d.flagged(url("http://a.pt/agenda/sobre")), std::nullopt);        // not calendar-like
  EXPECT_EQ(d.flagged(url("http://b.pt/agenda/2020/1")), std::nullopt);       // a pattern never seen
}

TEST(CalendarTraps, PatternsThatKeepGoingOutOfScopeAreCut) {
  CalendarTrapDetector::Limits limits;
  limits.latest_year = 2030;
  limits.max_out_of_scope_run = 5;
  CalendarTrapDetector d(limits);
  // Walking backwards from the period: every page out of scope.
  int y = 2020, m = 12;
  int fetched = 0;
  while (fetched < 100) {
    const CanonicalUrl u = url("http://a.pt/agenda/" + std::to_string(y) + "/" + std::to_string(m));
    if (d.check(u)) break;
    d.record_scope(u, /*in_scope=*/false);
    ++fetched;
    if (--m == 0) {
      m = 12;
      --y;
    }
  }
  EXPECT_EQ(fetched, 5);
  // An in-scope page resets the run.
  CalendarTrapDetector d2(limits);
  for (int i = 1; i <= 12; ++i) {
    const CanonicalUrl u = url("http://a.pt/agenda/2020/" + std::to_string(i));
    ASSERT_EQ(d2.check(u), std::nullopt) << i;
    d2.record_scope(u, i % 4 == 0);
  }
}

// A resumed crawl rebuilds its detector from what it stored: each URL
// counted again (count_again), then the scope of each page fetched, in
// fetch order. It judges new URLs as the detector before the stop did.
TEST(CalendarTraps, CountersRebuiltFromStoredUrlsJudgeAsTheLostOnes) {
  CalendarTrapDetector::Limits limits;
  limits.latest_year = 2030;
  limits.max_urls_per_pattern = 12;
  limits.urls_per_in_scope_page = 2;
  limits.max_out_of_scope_run = 4;
  CalendarTrapDetector lost(limits);
  std::vector<std::string> stored;
  std::vector<std::pair<std::string, bool>> fetched;
  // An agenda walking out of the period (a trap by its out-of-scope run)
  // and a newspaper's pages by date, mostly in scope (a bound earned).
  for (int i = 1; i <= 6; ++i) {
    const std::string a = "http://a.pt/agenda/1950/" + std::to_string(i);
    if (lost.check(url(a))) break;
    stored.push_back(a);
    lost.record_scope(url(a), false);
    fetched.emplace_back(a, false);
  }
  for (int i = 1; i <= 16; ++i) {
    const std::string j = "http://a.pt/jornal/1942/3/" + std::to_string(i);
    ASSERT_EQ(lost.check(url(j)), std::nullopt) << i;
    stored.push_back(j);
    if (i % 2 == 1) {  // every other page fetched, one in four out of scope
      lost.record_scope(url(j), i % 4 != 3);
      fetched.emplace_back(j, i % 4 != 3);
    }
  }
  stored.push_back("http://a.pt/sobre");  // not calendar-like: passed over
  CalendarTrapDetector rebuilt(limits);
  for (const std::string& u : stored) rebuilt.count_again(u);
  for (const auto& [u, in_scope] : fetched) rebuilt.record_scope(url(u), in_scope);
  EXPECT_EQ(rebuilt.tracked_patterns(), lost.tracked_patterns());
  EXPECT_EQ(rebuilt.flagged(url("http://a.pt/agenda/1950/7")), "calendar-out-of-scope");
  for (int i = 17; i <= 40; ++i) {
    const CanonicalUrl j = url("http://a.pt/jornal/1942/4/" + std::to_string(i % 28 + 1));
    EXPECT_EQ(rebuilt.check(j), lost.check(j)) << i;
  }
  // An empty detector would have let the agenda in again.
  EXPECT_EQ(CalendarTrapDetector(limits).check(url("http://a.pt/agenda/1950/7")), std::nullopt);
}

TEST(CalendarTraps, AnArchiveWhosePagesAreInScopeEarnsMoreUrls) {
  CalendarTrapDetector::Limits limits;
  limits.latest_year = 2030;
  limits.max_urls_per_pattern = 20;
  limits.urls_per_in_scope_page = 3;
  CalendarTrapDetector d(limits);
  // A newspaper's pages by date: one pattern, /jornal/#/#/#/pagina-#.html.
  auto page = [](int n) {
    return url("http://a.pt/jornal/1942/" + std::to_string(1 + n / 28 % 12) + "/" + std::to_string(1 + n % 28) +
               "/pagina-" + std::to_string(1 + n / 336) + ".html");
  };
  int n = 0;
  while (n < 20) ASSERT_EQ(d.check(page(n++)), std::nullopt);
  EXPECT_EQ(d.check(page(n)), "calendar-flood");
  // Five of them fetched and found in scope: fifteen more URLs.
  for (int i = 0; i < 5; ++i) d.record_scope(page(i), true);
  for (int i = 0; i < 15; ++i) EXPECT_EQ(d.check(page(n++)), std::nullopt) << n;
  EXPECT_EQ(d.check(page(n)), "calendar-flood");
  // Pages out of scope earn nothing.
  for (int i = 5; i < 10; ++i) d.record_scope(page(i), false);
  EXPECT_EQ(d.check(page(n)), "calendar-flood");
}

TEST(CalendarTraps, MemoryIsBounded) {
  CalendarTrapDetector::Limits limits;
  limits.latest_year = 2030;
  limits.max_patterns = 10;
  CalendarTrapDetector d(limits);
  for (int i = 0; i < 100; ++i) d.check(url("http://a" + std::to_string(i) + ".pt/agenda/2020/01"));
  EXPECT_EQ(d.tracked_patterns(), 10u);
}

TEST(RedirectAliases, TheTemplateHidesNumbersAndQueryValues) {
  EXPECT_EQ(RedirectAliases::template_of(url("http://portal.br/ir/123")), "http://portal.br/ir/#");
  EXPECT_EQ(RedirectAliases::template_of(url("http://portal.br/clique?u=http%3A%2F%2Fa.pt%2Fx&id=7")),
            "http://portal.br/clique?u=*&id=*");
  EXPECT_EQ(RedirectAliases::template_of(url("https://portal.br:8080/v2/saida/9-noticia")),
            "https://portal.br:8080/v#/saida/#-noticia");
}

// Chains of /ir/N -> /saida/N -> a page the crawl has: both hop templates
// learn that they end on known pages.
void known_chain(RedirectAliases& a, int n) {
  const std::string ir = "http://portal.br/ir/" + std::to_string(n), saida = "http://portal.br/saida/" + std::to_string(n);
  a.on_redirect(url(ir), saida, false);
  a.on_redirect(url(saida), "http://jornal.pt/artigo/" + std::to_string(n), true);
}

TEST(RedirectAliases, HopsThatOnlyReachKnownPagesAreDroppedButOneInEightIsExplored) {
  RedirectAliases a;
  for (int n = 0; n < 9; ++n) known_chain(a, n);
  EXPECT_FALSE(a.drop(url("http://portal.br/ir/100"))) << "nine chains are too few to judge";
  EXPECT_EQ(a.judged_templates(), 0u);
  known_chain(a, 9);
  EXPECT_EQ(a.judged_templates(), 2u);  // /ir/# and /saida/#: each started or went through ten chains
  int dropped = 0;
  for (int n = 100; n < 116; ++n) dropped += a.drop(url("http://portal.br/ir/" + std::to_string(n)));
  EXPECT_EQ(dropped, 14);  // every eighth is fetched
  EXPECT_FALSE(a.drop(url("http://portal.br/noticia/5"))) << "another template";
  EXPECT_FALSE(a.drop(url("http://outro.pt/ir/5"))) << "another host";
  EXPECT_FALSE(a.drop(url("https://portal.br/ir/5"))) << "another scheme";
}

TEST(RedirectAliases, HopsThatLeadToNewPagesAreNeverDropped) {
  RedirectAliases a;
  for (int n = 0; n < 40; ++n) {
    const std::string vai = "http://portal.br/vai/" + std::to_string(n), nova = "http://jornal.pt/nova/" + std::to_string(n);
    a.on_redirect(url(vai), nova, false);
    a.on_end(nova);  // downloaded: a page new to the crawl
  }
  EXPECT_EQ(a.judged_templates(), 0u);
  for (int n = 100; n < 116; ++n) EXPECT_FALSE(a.drop(url("http://portal.br/vai/" + std::to_string(n))));
}

TEST(RedirectAliases, ATemplateWhoseExploredHopsStartFindingNewPagesIsLetThroughAgain) {
  RedirectAliases a;
  for (int n = 0; n < 10; ++n) known_chain(a, n);
  ASSERT_TRUE(a.drop(url("http://portal.br/ir/200")));
  // The explored hops now lead to new articles: two chains of twelve that
  // end on known pages are under the share.
  for (int n = 10; n < 12; ++n) {
    const std::string ir = "http://portal.br/ir/" + std::to_string(n), nova = "http://jornal.pt/nova/" + std::to_string(n);
    a.on_redirect(url(ir), nova, false);
    a.on_end(nova);
  }
  for (int n = 300; n < 316; ++n) EXPECT_FALSE(a.drop(url("http://portal.br/ir/" + std::to_string(n))));
}

}  // namespace
}  // namespace cronista::crawler
