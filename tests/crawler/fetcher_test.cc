// The fetcher against a real HTTP server on loopback.
#include "crawler/fetcher.h"

#include <gtest/gtest.h>

#include <map>

#include "crawler/test_server.h"

namespace cronista::crawler {
namespace {

using testing::TestServer;

std::map<std::uint64_t, FetchResponse> fetch_all(Fetcher& f, const std::vector<std::string>& urls) {
  std::map<std::uint64_t, FetchResponse> out;
  std::uint64_t token = 1;
  for (const auto& u : urls) f.start(FetchRequest{token++, u, false, {}});
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(20);
  while (f.in_flight() > 0 && std::chrono::steady_clock::now() < deadline)
    f.run_once(std::chrono::milliseconds(50), [&](FetchResponse&& r) { out[r.token] = std::move(r); });
  return out;
}

TEST(Fetcher, FetchesAPageWithItsHeadersAndDecodesTheContentEncoding) {
  TestServer server;
  const std::string body = "<html><body><p>Em 1944 deu-se o desembarque na Normandia.</p>" + std::string(5000, ' ') +
                           "</body></html>";
  server.http().Get("/page", [&](const httplib::Request&, httplib::Response& res) {
    res.set_header("Last-Modified", "Tue, 06 Jun 1944 06:30:00 GMT");
    res.set_header("ETag", "\"v1\"");
    res.set_content(body, "text/html; charset=utf-8");
  });
  server.start();
  FetcherOptions o;
  o.user_agent = "cronista/test (+http://example.org/contact)";
  Fetcher f(o);
  auto got = fetch_all(f, {server.url("/page")});
  ASSERT_EQ(got.size(), 1u);
  const FetchResponse& r = got[1];
  EXPECT_EQ(r.error, FetchError::None) << r.error_message;
  EXPECT_EQ(r.status, 200);
  EXPECT_EQ(r.body, body);
  EXPECT_EQ(r.content_type, "text/html; charset=utf-8");
  EXPECT_EQ(r.last_modified, "Tue, 06 Jun 1944 06:30:00 GMT");
  EXPECT_EQ(r.etag, "\"v1\"");
  EXPECT_TRUE(r.raw_head.starts_with("HTTP/1.1 200")) << r.raw_head;
  // The server compressed it (the client accepts br and gzip), the fetcher decoded it.
  EXPECT_NE(r.raw_head.find("Content-Encoding: "), std::string::npos) << r.raw_head;
  EXPECT_NE(r.raw_request.find("GET /page HTTP/1.1"), std::string::npos);
  ASSERT_EQ(server.log().size(), 1u);
  EXPECT_EQ(server.log()[0].user_agent, o.user_agent);
}

// curl's --resolve: a named host is reached at the given address, and the
// server sees the name in the Host header.
TEST(Fetcher, ResolvesANamedHostToTheGivenAddressAndSendsTheNameAsHost) {
  TestServer server;
  std::string host_seen;
  server.http().Get("/sobre", [&](const httplib::Request& req, httplib::Response& res) {
    host_seen = req.get_header_value("Host");
    res.set_content("<p>Arquivo fundado em 1941.</p>", "text/html; charset=utf-8");
  });
  server.start();
  const std::string port = std::to_string(server.port());
  FetcherOptions o;
  o.resolve = {"www.arquivo-lusa.pt:" + port + ":127.0.0.1"};
  Fetcher f(o);
  auto got = fetch_all(f, {"http://www.arquivo-lusa.pt:" + port + "/sobre"});
  ASSERT_EQ(got.size(), 1u);
  EXPECT_EQ(got[1].error, FetchError::None) << got[1].error_message;
  EXPECT_EQ(got[1].status, 200);
  EXPECT_EQ(host_seen, "www.arquivo-lusa.pt:" + port);
}

TEST(Fetcher, ResolveEntriesAreCheckedForTheirForm) {
  EXPECT_FALSE(invalid_resolve_entry("arquivo.pt:80:127.0.0.2"));
  EXPECT_FALSE(invalid_resolve_entry("arquivo.pt:443:[::1]"));
  EXPECT_TRUE(invalid_resolve_entry("arquivo.pt:127.0.0.2"));
  EXPECT_TRUE(invalid_resolve_entry("arquivo.pt:porta:127.0.0.2"));
  EXPECT_TRUE(invalid_resolve_entry("arquivo.pt:99999:127.0.0.2"));
  EXPECT_TRUE(invalid_resolve_entry("arquivo.pt:80:"));
  EXPECT_TRUE(invalid_resolve_entry(":80:127.0.0.2"));
}

TEST(Fetcher, DoesNotFollowRedirectsButReportsTheLocation) {
  TestServer server;
  server.http().Get("/old", [](const httplib::Request&, httplib::Response& res) { res.set_redirect("/new", 301); });
  server.start();
  Fetcher f(FetcherOptions{});
  auto got = fetch_all(f, {server.url("/old")});
  EXPECT_EQ(got[1].status, 301);
  EXPECT_EQ(got[1].location, "/new");
  EXPECT_EQ(server.count("/new"), 0);
}

TEST(Fetcher, AbortsABodyLargerThanTheLimitWhileItArrives) {
  TestServer server;
  // Chunked and endless: only the limit stops it.
  server.http().Get("/endless", [](const httplib::Request&, httplib::Response& res) {
    res.set_chunked_content_provider("text/html", [](size_t, httplib::DataSink& sink) {
      std::string chunk(64 * 1024, 'a');
      return sink.write(chunk.data(), chunk.size());
    });
  });
  server.http().Get("/declared", [](const httplib::Request&, httplib::Response& res) {
    res.set_content(std::string(300 * 1024, 'b'), "application/octet-stream");
  });
  server.start();
  FetcherOptions o;
  o.max_body_bytes = 200 * 1024;
  Fetcher f(o);
  auto got = fetch_all(f, {server.url("/endless"), server.url("/declared")});
  EXPECT_EQ(got[1].error, FetchError::TooLarge);
  EXPECT_LE(got[1].body.size(), o.max_body_bytes);
  EXPECT_EQ(got[2].error, FetchError::TooLarge);
}

TEST(Fetcher, TimesOutASlowResponse) {
  TestServer server;
  server.http().Get("/slow", [](const httplib::Request&, httplib::Response& res) {
    std::this_thread::sleep_for(std::chrono::milliseconds(1500));
    res.set_content("late", "text/plain");
  });
  server.start();
  FetcherOptions o;
  o.total_timeout = std::chrono::milliseconds(300);
  Fetcher f(o);
  auto got = fetch_all(f, {server.url("/slow")});
  EXPECT_EQ(got[1].error, FetchError::Timeout) << got[1].error_message;
  EXPECT_EQ(to_string(got[1].error), "timeout");
}

TEST(Fetcher, ReportsAConnectionRefused) {
  TestServer server;
  server.start();
  const std::string url = server.url("/");
  server.stop();
  Fetcher f(FetcherOptions{});
  auto got = fetch_all(f, {url});
  EXPECT_EQ(got[1].error, FetchError::Connect) << got[1].error_message;
  EXPECT_EQ(got[1].status, 0);
}

TEST(Fetcher, RunsManyTransfersAtOnceAndReportsRetryAfter) {
  TestServer server;
  server.http().Get(R"(/p/(\d+))", [](const httplib::Request& req, httplib::Response& res) {
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    res.set_content("página " + req.matches[1].str(), "text/plain; charset=utf-8");
  });
  server.http().Get("/busy", [](const httplib::Request&, httplib::Response& res) {
    res.status = 503;
    res.set_header("Retry-After", "7");
  });
  server.start();
  FetcherOptions o;
  o.max_connections = 16;
  Fetcher f(o);
  std::vector<std::string> urls;
  for (int i = 0; i < 40; ++i) urls.push_back(server.url("/p/" + std::to_string(i)));
  urls.push_back(server.url("/busy"));
  auto got = fetch_all(f, urls);
  ASSERT_EQ(got.size(), 41u);
  for (int i = 0; i < 40; ++i) EXPECT_EQ(got[i + 1].body, "página " + std::to_string(i));
  EXPECT_EQ(got[41].status, 503);
  EXPECT_EQ(got[41].retry_after, "7");
}

}  // namespace
}  // namespace cronista::crawler
