// HTTPS on loopback: a cpp-httplib TLS server with a certificate made for the
// test by the openssl command. The fetcher trusts it only through
// FetcherOptions::ca_file, refuses it otherwise, and a whole crawl over HTTPS
// (the real binary, --ca-file) stores and analyses the pages. HTTP/2 comes
// from nginx (installed by scripts/setup), started on a free port.
#include <gtest/gtest.h>
#include <httplib.h>

#include <signal.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <string>
#include <thread>

#include "crawler/crawl_support.h"
#include "crawler/fetcher.h"
#include "crawler/warc.h"
#include "crawler/warcio_check.h"
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
  f.start(FetchRequest{1, url, false, {}});
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

// nginx serving a folder over HTTPS with HTTP/2, as a daemon of the test.
class Http2Server {
 public:
  explicit Http2Server(const TempDir& tmp) : tmp_(tmp) {}
  ~Http2Server() {
    const std::string pid = testing::read_file(tmp_ / "nginx.pid");
    if (!pid.empty()) ::kill(std::stoi(pid), SIGTERM);
  }
  // False (and why) when nginx is missing or does not start.
  bool start(std::string* why) {
    const char* nginx = std::filesystem::exists("/usr/sbin/nginx") ? "/usr/sbin/nginx" : nullptr;
    if (nginx == nullptr) {
      *why = "nginx is not installed (scripts/setup installs it)";
      return false;
    }
    port_ = testing::free_loopback_port("127.0.0.1");
    const std::string dir = tmp_.path().string();
    std::filesystem::create_directories(tmp_ / "nginx-tmp");
    testing::write_file(tmp_ / "nginx.conf",
                        "worker_processes 1; daemon on; pid " + dir + "/nginx.pid; error_log " + dir +
                            "/nginx-error.log;\n"
                            "events { worker_connections 64; }\n"
                            "http { access_log off; types { text/html html; text/plain txt; }\n"
                            "  client_body_temp_path " + dir + "/nginx-tmp; proxy_temp_path " + dir +
                            "/nginx-tmp; fastcgi_temp_path " + dir + "/nginx-tmp; uwsgi_temp_path " + dir +
                            "/nginx-tmp; scgi_temp_path " + dir + "/nginx-tmp;\n"
                            "  server { listen 127.0.0.1:" + std::to_string(port_) + " ssl http2;\n"
                            "    ssl_certificate " + dir + "/cert.pem; ssl_certificate_key " + dir + "/key.pem;\n"
                            "    root " + dir + "/site; } }\n");
    const std::string cmd = std::string(nginx) + " -c '" + dir + "/nginx.conf' -p '" + dir + "' >'" + dir +
                            "/nginx.out' 2>&1";
    if (std::system(cmd.c_str()) != 0) {
      *why = "nginx did not start: " + testing::read_file(tmp_ / "nginx.out");
      return false;
    }
    return true;
  }
  std::string url(const std::string& path) const { return "https://127.0.0.1:" + std::to_string(port_) + path; }

 private:
  const TempDir& tmp_;
  int port_ = 0;
};

TEST(Tls, FetchesOverHttp2AndTheCrawlStoresTheExchangesInAReadableWarc) {
  TempDir tmp;
  if (!make_certificate(tmp)) GTEST_SKIP() << "the openssl command is not installed (scripts/setup installs it)";
  std::filesystem::create_directories(tmp / "site");
  const std::string page = testing::html("<p>A 25 de abril de 1974 caiu o regime; em 1975 houve eleições. "
                                         "<a href=\"/eleicoes.html\">As eleições</a></p>");
  testing::write_file(tmp / "site" / "index.html", page);
  testing::write_file(tmp / "site" / "eleicoes.html",
                      testing::html("<p>As eleições de 25 de abril de 1975 elegeram a Assembleia Constituinte.</p>"));
  testing::write_file(tmp / "site" / "robots.txt", "User-agent: *\nAllow: /\n");
  Http2Server server(tmp);
  std::string why;
  if (!server.start(&why)) GTEST_SKIP() << why;

  FetcherOptions o;
  o.ca_file = (tmp / "cert.pem").string();
  const FetchResponse r = fetch_one(o, server.url("/index.html"));
  ASSERT_EQ(r.error, FetchError::None) << r.error_message;
  EXPECT_EQ(r.status, 200);
  EXPECT_EQ(r.http_version, "2");
  EXPECT_EQ(r.body, page);
  EXPECT_TRUE(r.raw_head.starts_with("HTTP/2 200")) << r.raw_head;

  testing::write_file(tmp / "seeds.txt", server.url("/index.html") + "\n");
  const std::string db = (tmp / "h2.db").string(), warc = (tmp / "h2.warc.gz").string();
  const auto crawl = testing::run_cronista({"crawl", "--from", "1974", "--to", "1976", "--seeds",
                                            (tmp / "seeds.txt").string(), "--db", db, "--warc", warc, "--ca-file",
                                            (tmp / "cert.pem").string(), "--quiet", "--delay-ms", "0"});
  ASSERT_EQ(crawl.exit_code, 0) << crawl.err;
  EXPECT_EQ(testing::count(db, "SELECT count(*) FROM pages WHERE status = 200"), 2);
  auto reader = WarcReader::open(warc);
  ASSERT_TRUE(reader.ok()) << reader.status().message();
  int responses = 0;
  WarcRecord rec;
  while ((*reader)->next(&rec)) {
    if (rec.type != "response") continue;
    ++responses;
    auto http = parse_http_response(rec.block);
    ASSERT_TRUE(http.ok()) << http.status().message() << "\n" << rec.block.substr(0, 200);
    EXPECT_EQ(http->status, 200);
  }
  EXPECT_EQ(responses, 3);  // the two pages and robots.txt
  const auto check = testing::run_warcio_check(warc, tmp);
  if (!check.missing.empty()) GTEST_SKIP() << check.missing;
  EXPECT_EQ(check.exit_code, 0) << check.output;
}

}  // namespace
}  // namespace cronista::crawler
