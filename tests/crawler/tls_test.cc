// HTTPS on loopback: a cpp-httplib TLS server with a certificate made for the
// test by the openssl command. The fetcher trusts it only through
// FetcherOptions::ca_file, refuses it otherwise, and a whole crawl over HTTPS
// (the real binary, --ca-file) stores and analyses the pages.
#include <gtest/gtest.h>
#include <httplib.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <string>
#include <thread>

#include "crawler/crawl_support.h"
#include "crawler/fetcher.h"
#include "test_support.h"

namespace cronista::crawler {
namespace {

using testing::TempDir;

// A self-signed certificate for 127.0.0.1; false when openssl is missing.
bool make_certificate(const TempDir& tmp) {
  const std::string cmd = "openssl req -x509 -newkey rsa:2048 -nodes -days 2 -subj /CN=127.0.0.1 "
                          "-addext subjectAltName=IP:127.0.0.1 -keyout '" +
                          (tmp / "key.pem").string() + "' -out '" + (tmp / "cert.pem").string() +
                          "' >/dev/null 2>&1";
  return std::system(cmd.c_str()) == 0 && std::filesystem::exists(tmp / "cert.pem");
}

class TlsServer {
 public:
  explicit TlsServer(const TempDir& tmp)
      : server_((tmp / "cert.pem").c_str(), (tmp / "key.pem").c_str()) {}
  ~TlsServer() {
    if (thread_.joinable()) {
      server_.stop();
      thread_.join();
    }
  }
  httplib::SSLServer& http() { return server_; }
  bool valid() const { return server_.is_valid(); }
  void start() {
    port_ = server_.bind_to_any_port("127.0.0.1");
    thread_ = std::thread([this] { server_.listen_after_bind(); });
    while (!server_.is_running()) std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  std::string url(const std::string& path) const { return "https://127.0.0.1:" + std::to_string(port_) + path; }

 private:
  httplib::SSLServer server_;
  int port_ = 0;
  std::thread thread_;
};

FetchResponse fetch_one(const FetcherOptions& options, const std::string& url) {
  Fetcher f(options);
  f.start(FetchRequest{1, url, false});
  FetchResponse out;
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(20);
  while (f.in_flight() > 0 && std::chrono::steady_clock::now() < deadline)
    f.run_once(std::chrono::milliseconds(50), [&](FetchResponse&& r) { out = std::move(r); });
  return out;
}

TEST(Tls, FetchesOverHttpsWithTheGivenAuthorityAndRefusesAnUntrustedCertificate) {
  TempDir tmp;
  if (!make_certificate(tmp)) GTEST_SKIP() << "the openssl command is not installed (scripts/setup installs it)";
  TlsServer server(tmp);
  ASSERT_TRUE(server.valid());
  const std::string body = "<html><body><p>A 6 de junho de 1944 deu-se o desembarque.</p></body></html>";
  server.http().Get("/", [&](const httplib::Request&, httplib::Response& res) {
    res.set_content(body, "text/html; charset=utf-8");
  });
  server.start();

  FetcherOptions trusted;
  trusted.ca_file = (tmp / "cert.pem").string();
  const FetchResponse ok = fetch_one(trusted, server.url("/"));
  EXPECT_EQ(ok.error, FetchError::None) << ok.error_message;
  EXPECT_EQ(ok.status, 200);
  EXPECT_EQ(ok.body, body);
  EXPECT_EQ(ok.ip, "127.0.0.1");

  FetcherOptions system_store;  // the test certificate is in no system store
  const FetchResponse refused = fetch_one(system_store, server.url("/"));
  EXPECT_EQ(refused.error, FetchError::Tls) << refused.error_message;
  EXPECT_EQ(refused.status, 0);
  EXPECT_TRUE(refused.body.empty());
  EXPECT_FALSE(refused.error_message.empty());
}

TEST(Tls, TheCrawlerCrawlsAnHttpsSiteWithCaFile) {
  TempDir tmp;
  if (!make_certificate(tmp)) GTEST_SKIP() << "the openssl command is not installed (scripts/setup installs it)";
  TlsServer server(tmp);
  ASSERT_TRUE(server.valid());
  server.http().Get("/robots.txt", [](const httplib::Request&, httplib::Response& res) {
    res.set_content("User-agent: *\nAllow: /\n", "text/plain");
  });
  server.http().Get("/", [&](const httplib::Request&, httplib::Response& res) {
    res.set_content(testing::html("<p>A 1 de setembro de 1939 a Alemanha invadiu a Polónia; veja-se "
                                  "<a href=\"/guerra\">a guerra</a>.</p>"),
                    "text/html; charset=utf-8");
  });
  server.http().Get("/guerra", [&](const httplib::Request&, httplib::Response& res) {
    res.set_content(testing::html("<p>Em maio de 1945 a guerra acabou na Europa.</p>"), "text/html; charset=utf-8");
  });
  server.start();
  testing::write_file(tmp / "seeds.txt", server.url("/") + "\n");
  const std::string db = (tmp / "tls.db").string();
  const auto r = testing::run_cronista({"crawl", "--from", "1939", "--to", "1945", "--seeds",
                                        (tmp / "seeds.txt").string(), "--db", db, "--ca-file",
                                        (tmp / "cert.pem").string(), "--quiet", "--delay-ms", "0"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(testing::count(db, "SELECT count(*) FROM pages WHERE status = 200"), 2) << r.out;
  EXPECT_EQ(testing::count(db, "SELECT count(*) FROM pages WHERE url LIKE 'https://127.0.0.1:%/guerra'"), 1);
  const auto missing = testing::run_cronista({"crawl", "--from", "1939", "--to", "1945", "--seeds",
                                              (tmp / "seeds.txt").string(), "--db", (tmp / "x.db").string(),
                                              "--ca-file", (tmp / "nao-existe.pem").string()});
  EXPECT_EQ(missing.exit_code, 2);
  EXPECT_NE(missing.err.find("nao-existe.pem"), std::string::npos) << missing.err;
}

}  // namespace
}  // namespace cronista::crawler
