// The sample web over real HTTP on loopback: one address per host,
// robots.txt, redirects, 404, 500, charset headers, the endless calendar;
// and the `cronista sample-web serve` process: ready file, SIGTERM.
#include <gtest/gtest.h>
#include <httplib.h>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <signal.h>
#include <sys/socket.h>

#include <chrono>
#include <filesystem>
#include <thread>

#include "sampleweb/sample_web.h"
#include "sampleweb/sample_web_server.h"
#include "test_support.h"

namespace cronista::sampleweb {
namespace {

namespace fs = std::filesystem;
using cronista::testing::read_file;
using cronista::testing::TempDir;

class SampleWebServerTest : public ::testing::Test {
 protected:
  void SetUp() override {
    port_ = cronista::testing::free_loopback_port();
    SampleWebOptions o;
    o.corpora_dir = cronista::testing::source_dir() + "/corpora/sample-web";
    o.out_dir = dir_.path().string();
    o.pages = 200;
    o.port = port_;
    auto generated = generate_sample_web(o);
    ASSERT_TRUE(generated.ok()) << generated.status().message();
    SampleWebServerOptions so;
    so.root = dir_.path().string();
    auto server = SampleWebServer::load(so);
    ASSERT_TRUE(server.ok()) << server.status().message();
    server_ = std::move(*server);
    const Status started = server_->start();
    ASSERT_TRUE(started.ok()) << started.message();
  }
  void TearDown() override {
    if (server_) server_->stop();
  }
  httplib::Client client(int host) {
    httplib::Client c("127.0.0." + std::to_string(host), port_);
    c.set_connection_timeout(5, 0);
    c.set_read_timeout(10, 0);
    return c;
  }

  TempDir dir_;
  int port_ = 0;
  std::unique_ptr<SampleWebServer> server_;
};

TEST_F(SampleWebServerTest, EveryHostAnswersOnItsOwnAddress) {
  ASSERT_EQ(server_->addresses().size(), 7u);
  const char* titles[] = {"Enciclopédia Lusa", "Diário de Lisboa Digital", "Folha do Planalto", "Caderno de História",
                          "Hemeroteca Digital", "Calendário Online", "Portal Lusófono"};
  for (int h = 2; h <= 8; ++h) {
    auto res = client(h).Get("/");
    ASSERT_TRUE(res) << "127.0.0." << h;
    EXPECT_EQ(res->status, 200);
    EXPECT_NE(res->body.find(titles[h - 2]), std::string::npos) << "127.0.0." << h;
  }
}

TEST_F(SampleWebServerTest, RobotsTxtAsGeneratedAnd404WhereThereIsNone) {
  auto robots = client(2).Get("/robots.txt");
  ASSERT_TRUE(robots);
  EXPECT_EQ(robots->status, 200);
  EXPECT_EQ(robots->get_header_value("Content-Type"), "text/plain; charset=utf-8");
  EXPECT_NE(robots->body.find("Disallow: /especial/"), std::string::npos);
  auto portal = client(8).Get("/robots.txt");
  ASSERT_TRUE(portal);
  EXPECT_NE(portal->body.find("Crawl-delay: 1"), std::string::npos);
  auto none = client(6).Get("/robots.txt");
  ASSERT_TRUE(none);
  EXPECT_EQ(none->status, 404);
}

TEST_F(SampleWebServerTest, RedirectsCarryTheirLocationAndUnknownPathsAre404) {
  const std::string routes = read_file(dir_ / "sites" / "portal" / "routes.tsv");
  const std::size_t at = routes.find("\n/ir/");
  ASSERT_NE(at, std::string::npos);
  const std::string path = routes.substr(at + 1, routes.find('\t', at) - at - 1);
  auto c = client(8);
  c.set_follow_location(false);
  auto first = c.Get(path);
  ASSERT_TRUE(first);
  EXPECT_EQ(first->status, 302);
  const std::string hop = first->get_header_value("Location");
  EXPECT_NE(hop.find("/saida/"), std::string::npos) << hop;
  auto second = c.Get(hop.substr(hop.find("/saida/")));
  ASSERT_TRUE(second);
  EXPECT_EQ(second->status, 301);
  EXPECT_EQ(second->get_header_value("Location").rfind("http://127.0.0.", 0), 0u);
  auto missing = client(2).Get("/wiki/pagina-que-nao-existe");
  ASSERT_TRUE(missing);
  EXPECT_EQ(missing->status, 404);
  auto error = client(8).Get("/novidades");
  ASSERT_TRUE(error);
  EXPECT_EQ(error->status, 500);
}

TEST_F(SampleWebServerTest, Latin1PagesAreServedAsWrittenWithoutACharsetHeader) {
  const std::string routes = read_file(dir_ / "sites" / "hemeroteca" / "routes.tsv");
  const std::size_t at = routes.find("\n/jornal/");
  ASSERT_NE(at, std::string::npos);
  const std::string line = routes.substr(at + 1, routes.find('\n', at + 1) - at - 1);
  const std::string path = line.substr(0, line.find('\t'));
  const std::string file = line.substr(line.rfind('\t') + 1);
  auto res = client(6).Get(path);
  ASSERT_TRUE(res);
  EXPECT_EQ(res->status, 200);
  EXPECT_EQ(res->get_header_value("Content-Type"), "text/html");
  EXPECT_TRUE(res->body == read_file(dir_ / "sites" / "hemeroteca" / file)) << "bytes must be served untouched";
  auto utf8 = client(2).Get("/");
  ASSERT_TRUE(utf8);
  EXPECT_EQ(utf8->get_header_value("Content-Type"), "text/html; charset=utf-8");
}

TEST_F(SampleWebServerTest, TheCalendarNeverEnds) {
  auto c = client(7);
  std::string path = "/calendario/2024/05";
  for (int i = 0; i < 30; ++i) {
    auto res = c.Get(path);
    ASSERT_TRUE(res) << path;
    ASSERT_EQ(res->status, 200) << path;
    const std::size_t at = res->body.find("<a href=\"/calendario/");
    ASSERT_NE(at, std::string::npos) << path;
    path = res->body.substr(at + 9, res->body.find('"', at + 9) - at - 9);
  }
  EXPECT_EQ(path, "/calendario/2026/11");
  auto far = c.Get("/calendario/2999/12");
  ASSERT_TRUE(far);
  EXPECT_EQ(far->status, 200);
  EXPECT_NE(far->body.find("dezembro de 2999"), std::string::npos);
  auto before = c.Get("/calendario/2024/04");
  ASSERT_TRUE(before);
  EXPECT_EQ(before->status, 404);
}

TEST(SampleWebServeCommand, WritesReadyFileServesAndStopsOnSigterm) {
  TempDir dir;
  const int port = cronista::testing::free_loopback_port();
  auto gen = cronista::testing::run_cronista(
      {"sample-web", "generate", "--out", (dir / "web").string(), "--pages", "100", "--port", std::to_string(port)});
  ASSERT_EQ(gen.exit_code, 0) << gen.err;
  const fs::path ready = dir / "ready";
  // Built before fork(): the child of a threaded process may not allocate.
  const std::string bin = cronista::testing::cronista_binary(), root = (dir / "web").string(), rf = ready.string();
  pid_t pid = ::fork();
  if (pid == 0) {
    ::execl(bin.c_str(), bin.c_str(), "sample-web", "serve", "--root", root.c_str(), "--ready-file", rf.c_str(),
            static_cast<char*>(nullptr));
    ::_exit(127);
  }
  // Wait for the ready file (bounded by attempts, not asserted on time).
  for (int i = 0; i < 600 && !fs::exists(ready); ++i) std::this_thread::sleep_for(std::chrono::milliseconds(50));
  ASSERT_TRUE(fs::exists(ready));
  EXPECT_NE(read_file(ready).find("serving 7 hosts on 127.0.0.2-127.0.0.8 port " + std::to_string(port)),
            std::string::npos);
  httplib::Client c("127.0.0.3", port);
  auto res = c.Get("/robots.txt");
  ASSERT_TRUE(res);
  EXPECT_NE(res->body.find("Disallow: /assinantes/"), std::string::npos);
  ::kill(pid, SIGTERM);
  int status = 0;
  ::waitpid(pid, &status, 0);
  ASSERT_TRUE(WIFEXITED(status));
  EXPECT_EQ(WEXITSTATUS(status), 0);
  EXPECT_FALSE(fs::exists(ready)) << "the ready file goes away with the server";
}

TEST(SampleWebServeCommand, AnotherPortThanTheGeneratedOneIsRefused) {
  TempDir dir;
  auto gen = cronista::testing::run_cronista({"sample-web", "generate", "--out", dir.path().string(), "--pages", "60"});
  ASSERT_EQ(gen.exit_code, 0) << gen.err;
  auto serve = cronista::testing::run_cronista({"sample-web", "serve", "--root", dir.path().string(), "--port", "18999"});
  EXPECT_EQ(serve.exit_code, 1);
  EXPECT_NE(serve.err.find("generated for port 18080"), std::string::npos) << serve.err;
}

}  // namespace
}  // namespace cronista::sampleweb
