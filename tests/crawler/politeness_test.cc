// Politeness at the server's clock: the gap between two requests to one
// host, as the loopback server itself sees them arrive, never falls below
// --delay-ms, under load (several hosts, many connections, analysis busy, a
// slow page, redirect chains, a server error retried).
#include <gtest/gtest.h>

#include <chrono>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "crawler/crawl.h"
#include "crawler/crawl_support.h"
#include "crawler/host_queue.h"

namespace cronista::crawler {
namespace {

using std::chrono::milliseconds;
using testing::html;
using testing::Site;
using testing::SitePage;
using testing::TempDir;
using testing::test_options;

TEST(Politeness, TheNextRequestWaitsTheGapAfterTheServerAnswered) {
  PolitenessOptions p;
  p.delay = milliseconds(100);
  HostQueue hosts(p);
  const std::uint32_t h = hosts.intern("exemplo.pt", "http://exemplo.pt");
  hosts.set_robots(h, RobotsRules::allow_all(), "404: allow all", std::chrono::seconds(3600), Clock::now());
  const Clock::time_point t0 = Clock::now();
  hosts.on_dispatch(h, t0);
  // The server answers 80 ms after the request was dispatched (it left
  // late, or waited to be read): 100 ms after the dispatch is only 20 ms
  // after the server had it.
  hosts.on_finish(h, t0 + milliseconds(80));
  EXPECT_FALSE(hosts.may_fetch(h, t0 + milliseconds(100)));
  EXPECT_FALSE(hosts.may_fetch(h, t0 + milliseconds(179)));
  EXPECT_TRUE(hosts.may_fetch(h, t0 + milliseconds(180)));
}

// The robots.txt fetch is the host's first request; the Crawl-delay it
// brings counts from when the server answered it, not from its dispatch.
TEST(Politeness, ACrawlDelayLearntFromRobotsTxtCountsFromItsAnswer) {
  PolitenessOptions p;
  p.delay = milliseconds(10);
  HostQueue hosts(p);
  const std::uint32_t h = hosts.intern("exemplo.pt", "http://exemplo.pt");
  const Clock::time_point t0 = Clock::now();
  hosts.robots_fetching(h);
  hosts.on_dispatch(h, t0);
  hosts.on_finish(h, t0 + milliseconds(60));
  hosts.set_robots(h, RobotsRules::parse("User-agent: *\nCrawl-delay: 0.3\n", "cronista"), "200 parsed",
                   std::chrono::seconds(3600), t0 + milliseconds(61));
  EXPECT_FALSE(hosts.may_fetch(h, t0 + milliseconds(300)));
  EXPECT_FALSE(hosts.may_fetch(h, t0 + milliseconds(359)));
  EXPECT_TRUE(hosts.may_fetch(h, t0 + milliseconds(360)));
}

// A site of `pages` plain pages linked from its front page, plus a page
// that answers after `slow` ms, a redirect chain of three hops to a page,
// and a page that fails once with 503 before it answers.
void build_busy_site(Site& site, int pages, milliseconds slow) {
  std::string links;
  for (int i = 0; i < pages; ++i) links += "<a href=\"/p" + std::to_string(i) + "\">p</a> ";
  links += "<a href=\"/lento\">lento</a> <a href=\"/r1\">r</a> <a href=\"/falha\">f</a>";
  site.page("/", html("<p>Em 1944 " + links + "</p>"));
  for (int i = 0; i < pages; ++i) site.page("/p" + std::to_string(i), html("<p>A 6 de junho de 1944.</p>"));
  site.http().Get("/lento", [slow](const httplib::Request&, httplib::Response& res) {
    std::this_thread::sleep_for(slow);
    res.set_content(html("<p>Devagar, em 1942.</p>"), "text/html; charset=utf-8");
  });
  site.http().Get("/r1", [](const httplib::Request&, httplib::Response& res) { res.set_redirect("/r2", 301); });
  site.http().Get("/r2", [](const httplib::Request&, httplib::Response& res) { res.set_redirect("/r3", 302); });
  site.http().Get("/r3", [](const httplib::Request&, httplib::Response& res) { res.set_redirect("/p0?via=r", 307); });
  site.page("/p0?via=r", html("<p>Chegada.</p>"));
  auto failed = std::make_shared<bool>(false);
  site.http().Get("/falha", [failed](const httplib::Request&, httplib::Response& res) {
    if (!*failed) {
      *failed = true;
      res.status = 503;
      return;
    }
    res.set_content(html("<p>Agora sim.</p>"), "text/html; charset=utf-8");
  });
}

TEST(Politeness, ServerSideGapsNeverFallBelowTheDelayUnderLoad) {
  const std::vector<std::string> addresses{"127.0.0.2", "127.0.0.3", "127.0.0.4", "127.0.0.5"};
  std::vector<std::unique_ptr<Site>> sites;
  for (const std::string& a : addresses) {
    sites.push_back(std::make_unique<Site>(a));
    build_busy_site(*sites.back(), 8, milliseconds(250));
    sites.back()->start();
  }
  TempDir tmp;
  std::vector<std::string> seeds;
  for (const auto& s : sites) seeds.push_back(s->url("/"));
  auto o = test_options(tmp, seeds);
  o.delay_ms = 100;
  o.host_connections = 1;
  o.connections = 64;
  o.retry_base_ms = 10;  // the retry is due before the gap is: the gap must still hold
  auto s = run_crawl(o, nullptr);
  ASSERT_TRUE(s.ok()) << s.status().message();
  EXPECT_EQ(s->end_reason, "frontier-empty");
  for (const auto& site : sites) {
    const auto log = site->server().log();
    // robots.txt, the front page, 8 pages, the slow one, 3 hops and the
    // page they lead to, the failure and its retry.
    ASSERT_EQ(log.size(), 17u) << site->origin();
    for (std::size_t i = 1; i < log.size(); ++i)
      EXPECT_GE(log[i].at - log[i - 1].at, milliseconds(o.delay_ms))
          << site->origin() << ": " << log[i - 1].path << " → " << log[i].path;
  }
}

}  // namespace
}  // namespace cronista::crawler
