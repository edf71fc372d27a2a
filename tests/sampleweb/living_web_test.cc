// The living sample web: its truth (same seed, same bytes; the static web
// untouched), and the server over real HTTP on loopback: versions that
// follow the truth, noise that is not a change, honest, bogus and absent
// validators, new articles appearing on their hubs, the request log.
#include <gtest/gtest.h>
#include <httplib.h>

#include <chrono>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <thread>

#include "sampleweb/living_web.h"
#include "sampleweb/sample_web.h"
#include "sampleweb/sample_web_server.h"
#include "test_support.h"

namespace cronista::sampleweb {
namespace {

namespace fs = std::filesystem;
using cronista::testing::read_file;
using cronista::testing::TempDir;

SampleWebOptions options(const fs::path& out, int port, std::uint64_t seed = 1, bool living = true) {
  SampleWebOptions o;
  o.corpora_dir = cronista::testing::source_dir() + "/corpora/sample-web";
  o.out_dir = out.string();
  o.pages = 120;
  o.port = port;
  o.seed = seed;
  o.living = living;
  o.living_horizon_s = 900;
  return o;
}

std::string main_content(const std::string& body) {
  const std::size_t a = body.find("<main>"), b = body.find("</main>");
  return a == std::string::npos || b == std::string::npos ? std::string() : body.substr(a, b - a);
}

TEST(LivingWebTruth, SameSeedGivesTheSameBytesAndAnotherSeedOthers) {
  TempDir a, b, c;
  ASSERT_TRUE(generate_sample_web(options(a.path(), 18080)).ok());
  ASSERT_TRUE(generate_sample_web(options(b.path(), 18080)).ok());
  ASSERT_TRUE(generate_sample_web(options(c.path(), 18080, 7)).ok());
  const std::string first = read_file(a / kLivingTruthFile);
  ASSERT_FALSE(first.empty());
  EXPECT_EQ(first, read_file(b / kLivingTruthFile));
  EXPECT_NE(first, read_file(c / kLivingTruthFile));
}

TEST(LivingWebTruth, TheStaticWebIsTheSameWithOrWithoutLiving) {
  TempDir with, without;
  ASSERT_TRUE(generate_sample_web(options(with.path(), 18080)).ok());
  ASSERT_TRUE(generate_sample_web(options(without.path(), 18080, 1, false)).ok());
  auto living = cronista::testing::files_below(with.path());
  EXPECT_EQ(living.erase(kLivingTruthFile), 1u);
  EXPECT_EQ(living, cronista::testing::files_below(without.path()));
}

TEST(LivingWebTruth, ReadsBackWhatItWrites) {
  TempDir dir;
  ASSERT_TRUE(generate_sample_web(options(dir.path(), 18080)).ok());
  const std::string text = read_file(dir / kLivingTruthFile);
  auto truth = LivingTruth::parse(text, "living.jsonl");
  ASSERT_TRUE(truth.ok()) << truth.status().message();
  EXPECT_EQ(truth->to_jsonl(), text);
}

TEST(LivingWebTruth, HoldsEveryKindOfProcessAndHubsChangeWhenTheirArticlesAppear) {
  TempDir dir;
  ASSERT_TRUE(generate_sample_web(options(dir.path(), 18080)).ok());
  auto truth = LivingTruth::load((dir / kLivingTruthFile).string());
  ASSERT_TRUE(truth.ok()) << truth.status().message();
  std::map<std::string, int> processes;
  for (const LivingPage& p : truth->pages) {
    ++processes[p.process];
    for (std::int64_t c : p.changes) {
      EXPECT_GE(c, 0) << p.url;
      EXPECT_LT(c, truth->horizon_ms) << p.url;
      EXPECT_EQ(c % 1000, 0) << p.url << ": changes fall on whole seconds";
    }
    if (p.is_new()) {
      EXPECT_EQ(p.listed_on.size(), 3u) << p.url << ": home, section, archive";
      EXPECT_LE(p.changes.size(), 4u);
      for (std::int64_t c : p.changes) EXPECT_GT(c, p.published) << p.url;
    }
    if (p.process == "never") {
      EXPECT_TRUE(p.changes.empty()) << p.url;
    }
  }
  for (const char* kind : {"poisson", "periodic", "weibull", "publishing", "edits", "never"})
    EXPECT_GT(processes[kind], 0) << kind;
  for (int i = 0; i < static_cast<int>(truth->pages.size()); ++i) {
    const LivingPage& hub = truth->pages[static_cast<std::size_t>(i)];
    if (hub.change_class != "hub") continue;
    std::vector<std::int64_t> published;
    for (const LivingPage& a : truth->pages)
      if (std::find(a.listed_on.begin(), a.listed_on.end(), i) != a.listed_on.end()) published.push_back(a.published);
    std::sort(published.begin(), published.end());
    EXPECT_EQ(hub.changes, published) << hub.url;
  }
}

TEST(LivingWebTruth, ALineThatIsNotJsonIsAnErrorNamingItsLine) {
  auto bad = LivingTruth::parse("{\"living\":{}}\n", "x.jsonl");
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.status().message().find("x.jsonl:1"), std::string::npos) << bad.status().message();
  TempDir dir;
  ASSERT_TRUE(generate_sample_web(options(dir.path(), 18080)).ok());
  const std::string good = read_file(dir / kLivingTruthFile);
  auto broken = LivingTruth::parse(good.substr(0, good.find('\n') + 1) + "not json\n", "y.jsonl");
  ASSERT_FALSE(broken.ok());
  EXPECT_NE(broken.status().message().find("y.jsonl:2"), std::string::npos) << broken.status().message();
}

// A living web served on loopback, with one encyclopedia page that changes
// at 1.5 s and the newspaper's first article published at 1.6 s. The
// server's clock starts at the last whole second before start(), so a
// request right after start() comes before 1.5 s.
class LivingServerTest : public ::testing::Test {
 protected:
  void SetUp() override {
    port_ = cronista::testing::free_loopback_port();
    ASSERT_TRUE(generate_sample_web(options(dir_.path(), port_)).ok());
    auto truth = LivingTruth::load((dir_ / kLivingTruthFile).string());
    ASSERT_TRUE(truth.ok()) << truth.status().message();
    truth_ = std::move(*truth);
    for (int i = 0; i < static_cast<int>(truth_.pages.size()); ++i) {
      LivingPage& p = truth_.pages[static_cast<std::size_t>(i)];
      const std::string& host = truth_.hosts[static_cast<std::size_t>(p.host)].name;
      if (changing_ < 0 && host == "enciclopedia" && p.change_class == "encyclopedia" && p.path.rfind("/wiki/", 0) == 0) {
        changing_ = i;
        p.changes = {1500, 600000};
      }
      if (article_ < 0 && p.is_new() && host == "jornal") article_ = i;
      if (p.change_class == "static" && !p.is_new() && !static_of_.count(host)) static_of_[host] = i;
    }
    ASSERT_GE(changing_, 0);
    ASSERT_GE(article_, 0);
    // Publish the article at 1.6 s, edited at 2.5 s; its hubs change then.
    LivingPage& a = truth_.pages[static_cast<std::size_t>(article_)];
    const std::int64_t was = a.published;
    a.published = 1600;
    a.changes = {2500};
    for (int hub : a.listed_on) {
      auto& ch = truth_.pages[static_cast<std::size_t>(hub)].changes;
      ch.erase(std::find(ch.begin(), ch.end(), was));
      ch.push_back(1600);
      std::sort(ch.begin(), ch.end());
    }
    truth_.index();
    cronista::testing::write_file(dir_ / kLivingTruthFile, truth_.to_jsonl());
    SampleWebServerOptions so;
    so.root = dir_.path().string();
    so.living = true;
    so.request_log = (dir_ / "requests.log").string();
    auto server = SampleWebServer::load(so);
    ASSERT_TRUE(server.ok()) << server.status().message();
    server_ = std::move(*server);
    ASSERT_TRUE(server_->start().ok());
  }
  void TearDown() override {
    if (server_) server_->stop();
  }
  httplib::Result get(int page, const httplib::Headers& headers = {}) {
    const LivingPage& p = truth_.pages[static_cast<std::size_t>(page)];
    const std::string& authority = truth_.hosts[static_cast<std::size_t>(p.host)].authority;
    httplib::Client c(authority.substr(0, authority.find(':')), port_);
    c.set_connection_timeout(5, 0);
    c.set_read_timeout(10, 0);
    return c.Get(p.path, headers);
  }
  // The log's lines after the header: t, host, target, status, version.
  std::vector<std::vector<std::string>> log_lines() {
    server_->stop();
    std::vector<std::vector<std::string>> out;
    std::istringstream in(read_file(dir_ / "requests.log"));
    for (std::string line; std::getline(in, line);) {
      if (line.empty() || line[0] == '#') continue;
      std::vector<std::string> f;
      std::stringstream ss(line);
      for (std::string part; std::getline(ss, part, '\t');) f.push_back(part);
      out.push_back(f);
    }
    return out;
  }
  void wait_past(std::int64_t ms) {
    // The server's clock starts at the last whole second before start():
    // waiting `ms` after start() is always past t = ms.
    std::this_thread::sleep_for(std::chrono::milliseconds(ms + 50));
  }

  TempDir dir_;
  int port_ = 0;
  LivingTruth truth_;
  int changing_ = -1, article_ = -1;
  std::map<std::string, int> static_of_;
  std::unique_ptr<SampleWebServer> server_;
};

TEST_F(LivingServerTest, TheVersionServedIsTheTruthsAtTheLoggedTime) {
  auto before = get(changing_);
  wait_past(1500);
  auto after = get(changing_);
  ASSERT_TRUE(before && after);
  const auto log = log_lines();
  ASSERT_EQ(log.size(), 2u);
  for (std::size_t k = 0; k < 2; ++k) {
    EXPECT_EQ(log[k][2], truth_.pages[static_cast<std::size_t>(changing_)].path);
    EXPECT_EQ(log[k][3], "200");
    EXPECT_EQ(std::stoi(log[k][4]), truth_.version_at(changing_, std::stoll(log[k][0])));
  }
  EXPECT_EQ(std::stoi(log[1][4]), 1);
  EXPECT_NE(after->body.find("class=\"atualizado\""), std::string::npos) << "a changed page says when it was updated";
  EXPECT_NE(main_content(before->body), main_content(after->body));
}

TEST_F(LivingServerTest, AnHonestHostAnswers304ToItsETagAndToItsLastModified) {
  const int page = static_of_.at("enciclopedia");
  auto first = get(page);
  ASSERT_TRUE(first);
  ASSERT_EQ(first->status, 200);
  const std::string etag = first->get_header_value("ETag"), modified = first->get_header_value("Last-Modified");
  ASSERT_FALSE(etag.empty());
  ASSERT_FALSE(modified.empty());
  auto by_etag = get(page, {{"If-None-Match", etag}});
  auto by_date = get(page, {{"If-Modified-Since", modified}});
  auto other = get(page, {{"If-None-Match", "\"0-99\""}});
  ASSERT_TRUE(by_etag && by_date && other);
  EXPECT_EQ(by_etag->status, 304);
  EXPECT_TRUE(by_etag->body.empty());
  EXPECT_EQ(by_date->status, 304);
  EXPECT_EQ(other->status, 200);
  const auto log = log_lines();
  ASSERT_EQ(log.size(), 4u);
  EXPECT_EQ(log[1][3], "304");
  EXPECT_EQ(log[1][4], "0") << "a 304 logs the version it confirms";
}

TEST_F(LivingServerTest, AnHonestHostSendsA200OnceThePageChanged) {
  auto first = get(changing_);
  ASSERT_TRUE(first);
  const std::string etag = first->get_header_value("ETag"), modified = first->get_header_value("Last-Modified");
  wait_past(1500);
  auto by_etag = get(changing_, {{"If-None-Match", etag}});
  auto by_date = get(changing_, {{"If-Modified-Since", modified}});
  ASSERT_TRUE(by_etag && by_date);
  const auto log = log_lines();
  ASSERT_EQ(log[0][4], "0");
  EXPECT_EQ(by_etag->status, 200);
  EXPECT_EQ(by_date->status, 200);
}

TEST_F(LivingServerTest, ABogusHostSaysModifiedNowAndNeverAnswers304) {
  const int page = static_of_.at("folha");
  auto first = get(page);
  ASSERT_TRUE(first);
  const std::string modified = first->get_header_value("Last-Modified");
  EXPECT_FALSE(modified.empty());
  EXPECT_TRUE(first->get_header_value("ETag").empty());
  auto again = get(page, {{"If-Modified-Since", modified}});
  ASSERT_TRUE(again);
  EXPECT_EQ(again->status, 200);
}

TEST_F(LivingServerTest, AHostWithoutValidatorsSendsNone) {
  auto r = get(static_of_.at("blog"));
  ASSERT_TRUE(r);
  EXPECT_EQ(r->status, 200);
  EXPECT_FALSE(r->has_header("ETag"));
  EXPECT_FALSE(r->has_header("Last-Modified"));
}

TEST_F(LivingServerTest, ANoisyPageChangesOnEveryFetchButItsMainContentDoesNot) {
  const int page = static_of_.at("jornal");
  std::vector<std::string> bodies;
  for (int k = 0; k < 3; ++k) {
    auto r = get(page);
    ASSERT_TRUE(r);
    bodies.push_back(r->body);
  }
  for (int k = 1; k < 3; ++k) {
    EXPECT_NE(bodies[static_cast<std::size_t>(k)], bodies[static_cast<std::size_t>(k - 1)]) << "whole body, fetch " << k;
    EXPECT_EQ(main_content(bodies[static_cast<std::size_t>(k)]), main_content(bodies[0])) << "main content, fetch " << k;
  }
  EXPECT_NE(bodies[0].find("class=\"mais-lidas\""), std::string::npos);
  EXPECT_NE(bodies[0].find("class=\"visitas\""), std::string::npos);
}

TEST_F(LivingServerTest, ANewArticleAppearsOnItsHubsWhenPublished) {
  const LivingPage& a = truth_.pages[static_cast<std::size_t>(article_)];
  const int home = a.listed_on[0];
  auto early = get(article_);
  auto early_home = get(home);
  wait_past(1600);
  auto late = get(article_);
  auto late_home = get(home);
  ASSERT_TRUE(early && early_home && late && late_home);
  const auto log = log_lines();
  ASSERT_EQ(log.size(), 4u);
  const bool early_published = std::stoll(log[0][0]) >= 1600;
  EXPECT_EQ(early->status, early_published ? 200 : 404);
  EXPECT_EQ(early_home->body.find(a.path) != std::string::npos, std::stoll(log[1][0]) >= 1600);
  EXPECT_EQ(late->status, 200);
  EXPECT_NE(late_home->body.find(a.path), std::string::npos);
  EXPECT_NE(late->body.find("<h1>" + a.title + "</h1>"), std::string::npos);
  // Written about "today", with the real date.
  const std::time_t now = std::time(nullptr);
  std::tm tm{};
  gmtime_r(&now, &tm);
  const std::string today = std::to_string(tm.tm_mday) + " de " + truth_.months[static_cast<std::size_t>(tm.tm_mon)] +
                            " de " + std::to_string(tm.tm_year + 1900);
  EXPECT_NE(late->body.find(today), std::string::npos) << today;
}

}  // namespace
}  // namespace cronista::sampleweb
