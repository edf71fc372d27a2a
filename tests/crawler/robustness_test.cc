// Hostile and broken input for the crawler's parsers and network code: WARC
// files cut mid-record, URLs and robots.txt files found by fuzzing (fuzz/),
// and loopback servers that misbehave (endless bodies, silence, resets,
// gzip bombs, lying charsets). Each test pins one defect or one promise of
// the headers: bad input is reported, nothing else is lost.
#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>
#include <zlib.h>

#include <gtest/gtest.h>

#include <atomic>
#include <string>
#include <thread>
#include <vector>

#include "crawler/charset.h"
#include "crawler/crawl.h"
#include "crawler/crawl_support.h"
#include "crawler/loopback_listener.h"
#include "crawler/robots.h"
#include "crawler/url.h"
#include "crawler/warc.h"

namespace cronista::crawler {
namespace {

using testing::html;
using testing::scalar;
using testing::Site;
using testing::SitePage;
using testing::TempDir;
using testing::test_options;
using testing::write_file;

std::string warc_response(const std::string& uri, const std::string& id, const std::string& body) {
  const std::string http = "HTTP/1.1 200 OK\r\nContent-Type: text/html; charset=utf-8\r\nContent-Length: " +
                           std::to_string(body.size()) + "\r\n\r\n" + body;
  return "WARC/1.1\r\nWARC-Type: response\r\nWARC-Target-URI: " + uri +
         "\r\nWARC-Date: 2020-01-01T00:00:00Z\r\nWARC-Record-ID: <urn:uuid:" + id +
         ">\r\nContent-Type: application/http; msgtype=response\r\nContent-Length: " + std::to_string(http.size()) +
         "\r\n\r\n" + http + "\r\n\r\n";
}

struct ReadBack {
  std::vector<std::string> uris;
  std::vector<std::string> bodies;
  std::vector<std::string> errors;
};

ReadBack read_warc(const std::string& path) {
  ReadBack out;
  auto reader = WarcReader::open(path);
  EXPECT_TRUE(reader.ok()) << reader.status().message();
  if (!reader.ok()) return out;
  (*reader)->on_error = [&](const std::string& e) { out.errors.push_back(e); };
  WarcRecord record;
  while ((*reader)->next(&record)) {
    out.uris.push_back(record.header("WARC-Target-URI"));
    auto http = parse_http_response(record.block);
    out.bodies.push_back(http.ok() ? http->body : "");
  }
  return out;
}

// A plain WARC whose second record was cut inside its header (a crash while
// writing, then appending went on): the cut record used to swallow the next
// record's header and block, so page 3 was lost and its text filed under
// page 2's URL, with no error.
TEST(WarcRobustness, ARecordCutInsideItsHeaderIsReportedAndTheNextRecordIsKept) {
  TempDir tmp;
  const std::string r1 = warc_response("http://a.pt/1", "00000001-0000-0000-0000-000000000000",
                                       "<p>Em maio de 1941 a guerra continuava.</p>");
  const std::string r2 = warc_response("http://a.pt/2", "00000002-0000-0000-0000-000000000000",
                                       "<p>Em junho de 1942 chegaram notícias.</p>");
  const std::string r3 = warc_response("http://a.pt/3", "00000003-0000-0000-0000-000000000000",
                                       "<p>Em julho de 1943 a cidade festejou.</p>");
  // Cut r2 in the middle of its WARC-Record-ID line.
  const std::size_t cut = r2.find("WARC-Record-ID") + 30;
  write_file(tmp / "cortado.warc", r1 + r2.substr(0, cut) + r3);
  ReadBack back = read_warc((tmp / "cortado.warc").string());
  ASSERT_EQ(back.uris.size(), 2u);
  EXPECT_EQ(back.uris[0], "http://a.pt/1");
  EXPECT_EQ(back.uris[1], "http://a.pt/3");
  EXPECT_NE(back.bodies[1].find("julho de 1943"), std::string::npos);
  ASSERT_EQ(back.errors.size(), 1u);
  EXPECT_NE(back.errors[0].find("offset " + std::to_string(r1.size())), std::string::npos) << back.errors[0];
}

// The same cut at a line boundary: the version line of the next record
// appears where a header field was expected.
TEST(WarcRobustness, ARecordCutAtALineBoundaryOfItsHeaderIsReported) {
  TempDir tmp;
  const std::string r1 = warc_response("http://a.pt/1", "1", "<p>Em 1941.</p>");
  const std::string r2 = warc_response("http://a.pt/2", "2", "<p>Em 1942.</p>");
  const std::string r3 = warc_response("http://a.pt/3", "3", "<p>Em 1943.</p>");
  const std::size_t cut = r2.find("WARC-Date");
  write_file(tmp / "cortado.warc", r1 + r2.substr(0, cut) + r3);
  ReadBack back = read_warc((tmp / "cortado.warc").string());
  ASSERT_EQ(back.uris.size(), 2u);
  EXPECT_EQ(back.uris[1], "http://a.pt/3");
  EXPECT_EQ(back.errors.size(), 1u);
}

// A file cut in the middle of its last record (kill -9 while writing).
TEST(WarcRobustness, AFileCutInsideTheLastBlockKeepsEveryWholeRecord) {
  TempDir tmp;
  const std::string r1 = warc_response("http://a.pt/1", "1", "<p>Em 1941.</p>");
  const std::string r2 = warc_response("http://a.pt/2", "2", "<p>Em 1942, muito texto depois.</p>");
  write_file(tmp / "fim.warc", r1 + r2.substr(0, r2.size() - 20));
  ReadBack back = read_warc((tmp / "fim.warc").string());
  ASSERT_EQ(back.uris.size(), 1u);
  EXPECT_EQ(back.uris[0], "http://a.pt/1");
  EXPECT_EQ(back.errors.size(), 1u);
}

// ---- misbehaving servers ---------------------------------------------------

// A raw TCP server on loopback for what cpp-httplib will not do: it answers
// /robots.txt with a 404 like a normal site, and every other request with
// the chosen misbehaviour.
class RawServer {
 public:
  enum class Mode { kSilent, kReset, kEndlessBody };
  explicit RawServer(Mode mode) : mode_(mode) {
    fd_ = testing::loopback_listener(16, &port_);
    if (fd_ < 0) ADD_FAILURE();
    thread_ = std::thread([this] { serve(); });
  }
  ~RawServer() {
    stop_ = true;
    ::shutdown(fd_, SHUT_RDWR);
    ::close(fd_);
    thread_.join();
    for (auto& t : handlers_) t.join();
  }
  std::string url(const std::string& path) const { return "http://127.0.0.1:" + std::to_string(port_) + path; }

 private:
  void serve() {
    while (!stop_) {
      int c = ::accept(fd_, nullptr, nullptr);
      if (c < 0) return;
      handlers_.emplace_back([this, c] { handle(c); });
    }
  }
  void handle(int c) {
    // Read the request head.
    std::string head;
    char buf[4096];
    while (head.find("\r\n\r\n") == std::string::npos) {
      ssize_t n = ::recv(c, buf, sizeof buf, 0);
      if (n <= 0) break;
      head.append(buf, static_cast<std::size_t>(n));
    }
    if (head.rfind("GET /robots.txt ", 0) == 0) {
      const std::string r = "HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\nConnection: close\r\n\r\n";
      ::send(c, r.data(), r.size(), MSG_NOSIGNAL);
    } else if (mode_ == Mode::kReset) {
      linger hard{1, 0};  // close() sends RST instead of FIN
      ::setsockopt(c, SOL_SOCKET, SO_LINGER, &hard, sizeof hard);
    } else if (mode_ == Mode::kSilent) {
      while (!stop_ && ::recv(c, buf, sizeof buf, MSG_DONTWAIT) != 0)
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
    } else {
      // No Content-Length, no chunking: the body ends when the connection does.
      std::string r = "HTTP/1.1 200 OK\r\nContent-Type: text/html; charset=utf-8\r\nConnection: close\r\n\r\n<p>";
      std::string more(16 * 1024, 'a');
      if (::send(c, r.data(), r.size(), MSG_NOSIGNAL) > 0)
        while (!stop_ && ::send(c, more.data(), more.size(), MSG_NOSIGNAL) > 0) {
        }
    }
    ::close(c);
  }

  Mode mode_;
  int fd_ = -1;
  int port_ = 0;
  std::atomic<bool> stop_{false};
  std::thread thread_;
  std::vector<std::thread> handlers_;
};

CrawlSummary crawl_ok(const CrawlOptions& o) {
  auto s = run_crawl(o, nullptr);
  EXPECT_TRUE(s.ok()) << s.status().message();
  return s.ok() ? *s : CrawlSummary{};
}

// A site whose home page links to `bad` and to a good page; the crawl must
// record `bad` as failed and still fetch the good page.
void expect_failure_is_recorded(const std::string& bad, const std::string& error_kind, CrawlOptions* tweak = nullptr) {
  Site site;
  site.page("/", html("<p><a href=\"" + bad + "\">mau</a> <a href=\"/bom\">bom</a></p>"));
  site.page("/bom", html("<p>Em 1944 tudo correu bem.</p>"));
  site.start();
  TempDir tmp;
  auto o = test_options(tmp, {site.url("/")});
  o.retries = 0;
  o.timeout_ms = 1500;
  o.max_body_bytes = 256 * 1024;
  auto s = crawl_ok(o);
  EXPECT_EQ(s.end_reason, "frontier-empty");
  EXPECT_EQ(scalar(o.db, "SELECT status FROM pages WHERE url = '" + site.url("/bom") + "'"), "200");
  const std::string kind = scalar(o.db, "SELECT error_kind FROM pages WHERE url = '" + bad + "'");
  if (error_kind.empty()) {
    EXPECT_NE(kind, "");
    EXPECT_NE(kind, "NULL");
  } else {
    EXPECT_EQ(kind, error_kind);
  }
}

TEST(CrawlRobustness, AServerThatNeverAnswersIsATimeout) {
  RawServer silent(RawServer::Mode::kSilent);
  expect_failure_is_recorded(silent.url("/mudo"), "timeout");
}

TEST(CrawlRobustness, AConnectionResetIsRecordedAsAFailure) {
  RawServer reset(RawServer::Mode::kReset);
  expect_failure_is_recorded(reset.url("/reposto"), "");
}

TEST(CrawlRobustness, AnEndlessBodyWithoutLengthIsCutOffAsTooLarge) {
  RawServer endless(RawServer::Mode::kEndlessBody);
  expect_failure_is_recorded(endless.url("/sem-fim"), "too-large");
}

std::string gzip_bytes(const std::string& data) {
  z_stream z{};
  deflateInit2(&z, 9, Z_DEFLATED, 15 + 16, 9, Z_DEFAULT_STRATEGY);
  std::string out(deflateBound(&z, data.size()), '\0');
  z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(data.data()));
  z.avail_in = static_cast<uInt>(data.size());
  z.next_out = reinterpret_cast<Bytef*>(out.data());
  z.avail_out = static_cast<uInt>(out.size());
  deflate(&z, Z_FINISH);
  out.resize(z.total_out);
  deflateEnd(&z);
  return out;
}

// 64 MiB of zeros in about 64 KiB of gzip: the limit applies to the decoded
// body, so the page is refused instead of filling memory.
TEST(CrawlRobustness, AGzipBombIsRefusedAsTooLarge) {
  const std::string bomb = gzip_bytes(std::string(64u << 20, '\0'));
  ASSERT_LT(bomb.size(), 256u * 1024);
  Site site;
  site.page("/bomba", SitePage{200, "text/html; charset=utf-8", bomb, {{"Content-Encoding", "gzip"}}});
  site.page("/", html("<p><a href=\"/bomba\">b</a> <a href=\"/bom\">bom</a></p>"));
  site.page("/bom", html("<p>Em 1944 tudo correu bem.</p>"));
  site.start();
  TempDir tmp;
  auto o = test_options(tmp, {site.url("/")});
  o.retries = 0;
  o.max_body_bytes = 256 * 1024;
  crawl_ok(o);
  EXPECT_EQ(scalar(o.db, "SELECT error_kind FROM pages WHERE url = '" + site.url("/bomba") + "'"), "too-large");
  EXPECT_EQ(scalar(o.db, "SELECT status FROM pages WHERE url = '" + site.url("/bom") + "'"), "200");
}

// Content-Type says UTF-8 but the page is windows-1252, and the other way
// round: the text stored is still the right Portuguese, as valid UTF-8.
TEST(CrawlRobustness, AContentTypeLyingAboutTheCharsetIsCorrected) {
  Site site;
  site.page("/diz-utf8", SitePage{200, "text/html; charset=utf-8",
                                  "<html><head><title>Cora\xe7\xe3o de Na\xe7\xe3o</title></head><body><p>"
                                  "Ver\xe3o de 1944, em plena guerra, a popula\xe7\xe3o esperava not\xed" "cias.</p></body></html>",
                                  {}});
  site.page("/diz-latin1", SitePage{200, "text/html; charset=iso-8859-1",
                                    "<html><head><title>Canção de Verão</title></head><body><p>"
                                    "Em 1944 a população esperava notícias.</p></body></html>",
                                    {}});
  site.page("/", html("<p><a href=\"/diz-utf8\">1</a> <a href=\"/diz-latin1\">2</a></p>"));
  site.start();
  TempDir tmp;
  auto o = test_options(tmp, {site.url("/")});
  crawl_ok(o);
  EXPECT_EQ(scalar(o.db, "SELECT title FROM documents WHERE url = '" + site.url("/diz-utf8") + "'"), "Coração de Nação");
  EXPECT_EQ(scalar(o.db, "SELECT title FROM documents WHERE url = '" + site.url("/diz-latin1") + "'"), "Canção de Verão");
  EXPECT_EQ(scalar(o.db, "SELECT charset_from FROM pages WHERE url = '" + site.url("/diz-latin1") + "'"), "detected");
}

}  // namespace
}  // namespace cronista::crawler
