// The command-line contract under hostile use: folders where files are
// expected, junk and NUL bytes, unwritable outputs, corrupt databases,
// hostile seed URLs. Every failure is one line on stderr naming what is at
// fault, with exit 1 (runtime) or 2 (usage), and nothing on stdout.
#include <gtest/gtest.h>

#include <string>

#include "../crawler/test_server.h"
#include "test_support.h"

namespace cronista::testing {
namespace {

using namespace std::string_literals;

void expect_one_line_error(const ProcessResult& r, int code, const std::string& names) {
  EXPECT_EQ(r.exit_code, code) << r.err;
  EXPECT_EQ(count_lines(r.err), 1) << r.err;
  EXPECT_NE(r.err.find(names), std::string::npos) << r.err;
  EXPECT_EQ(r.out, "");
}

// A folder given as the input used to be read as an empty document: exit 0
// and an empty result, as if the folder held a text without dates.
TEST(CliRobustness, AFolderAsTheInputOfTagOrSegmentIsAnError) {
  TempDir tmp;
  const std::string dir = tmp.path().string();
  expect_one_line_error(run_cronista({"tag", dir}), 1, dir);
  expect_one_line_error(run_cronista({"segment", dir}), 1, dir);
}

// A folder as --seeds used to be taken as a file without seeds.
TEST(CliRobustness, AFolderAsTheSeedsFileIsNamedInTheError) {
  TempDir tmp;
  const std::string dir = tmp.path().string();
  expect_one_line_error(
      run_cronista({"crawl", "--from", "1939", "--to", "1945", "--db", (tmp / "c.db").string(), "--seeds", dir}), 1,
      dir);
}

TEST(CliRobustness, NulBytesInTheInputKeepOffsetsOnTheInputBytes) {
  const std::string text = "Em 1997\0 a guerra acabou\0 em 12 de maio de 1945."s;
  auto r = run_cronista({"tag"}, text);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const std::size_t at = r.out.find("\"start\": ");
  ASSERT_NE(at, std::string::npos) << r.out;
  EXPECT_NE(r.out.find("12 de maio de 1945"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("\"start\": 29"), std::string::npos) << r.out;
}

TEST(CliRobustness, BinaryJunkIsRefusedAsInvalidUtf8UnlessLenient) {
  std::string junk;
  for (int i = 0; i < 4096; ++i) junk.push_back(static_cast<char>((i * 7919 + 13) & 0xff));
  expect_one_line_error(run_cronista({"tag"}, junk), 1, "standard input");
  auto lenient = run_cronista({"tag", "--lenient"}, junk);
  EXPECT_EQ(lenient.exit_code, 0) << lenient.err;
  auto segment = run_cronista({"segment", "--html", "--lenient"}, junk);
  EXPECT_EQ(segment.exit_code, 0) << segment.err;
}

TEST(CliRobustness, UnterminatedCommentsAndCdataInHtmlAreNotFatal) {
  auto r = run_cronista({"segment", "--html"},
                        "<html><body><p>Em maio de 1944 <!-- comentário sem fim <div><![CDATA[ x <script>var a=\"");
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("\"segments\""), std::string::npos) << r.out;
}

TEST(CliRobustness, UnwritableOutIsARuntimeErrorNamingThePath) {
  TempDir tmp;
  const std::string out = (tmp / "nao-existe" / "x.json").string();
  expect_one_line_error(run_cronista({"tag", "--out", out}, "Em 1997."), 1, out);
  expect_one_line_error(run_cronista({"segment", "--out", tmp.path().string()}, "Em 1997."), 1, tmp.path().string());
}

TEST(CliRobustness, ACorruptDatabaseIsNamedByBuildReportAndCrawl) {
  TempDir tmp;
  const std::string db = (tmp / "estragada.db").string();
  write_file(db, "SQLite format 3\0"s + std::string(5000, '\x5a'));
  write_file(tmp / "c.jsonl", "{\"id\": \"1\", \"text\": \"Em 1944.\"}\n");
  expect_one_line_error(run_cronista({"report", "--db", db}), 1, db);
  expect_one_line_error(
      run_cronista({"build", "--input", (tmp / "c.jsonl").string(), "--format", "jsonl", "--db", db, "--quiet"}), 1,
      db);
  expect_one_line_error(run_cronista({"crawl", "--from", "1939", "--to", "1945", "--db", db, "http://127.0.0.1:9/"}),
                        1, db);
}

// A crawl database and a collection database are different things: neither
// command writes into the other's, and the refused database is left as it was.
TEST(CliRobustness, CrawlAndBuildRefuseEachOthersDatabase) {
  TestServer server;
  server.http().Get("/", [](const httplib::Request&, httplib::Response& res) {
    res.set_content("<html><body><p>Em 1942.</p></body></html>", "text/html; charset=utf-8");
  });
  server.start();
  TempDir tmp;
  write_file(tmp / "seeds.txt", server.url("/") + "\n");
  std::filesystem::create_directories(tmp / "textos");
  write_file(tmp / "textos" / "a.txt", "Em setembro de 1939 começou a guerra.\n");
  const std::string crawl_db = (tmp / "crawl.db").string(), build_db = (tmp / "build.db").string();
  const auto crawl = [&](const std::string& db, bool resume = false) {
    std::vector<std::string> args = {"crawl", "--from", "1939", "--to", "1945", "--seeds",
                                     (tmp / "seeds.txt").string(), "--delay-ms", "0", "--quiet", "--db", db};
    if (resume) args.push_back("--resume");
    return run_cronista(args);
  };
  const auto build = [&](const std::string& db) {
    return run_cronista({"build", "--format", "text-dir", "--input", (tmp / "textos").string(), "--quiet", "--db", db});
  };
  ASSERT_EQ(crawl(crawl_db).exit_code, 0);
  ASSERT_EQ(build(build_db).exit_code, 0);
  const std::string crawl_before = read_file(crawl_db), build_before = read_file(build_db);

  ProcessResult b = build(crawl_db);
  EXPECT_EQ(b.exit_code, 1) << b.err;
  EXPECT_EQ(count_lines(b.err), 1) << b.err;
  EXPECT_NE(b.err.find(crawl_db), std::string::npos) << b.err;
  EXPECT_NE(b.err.find("crawl"), std::string::npos) << b.err;
  ProcessResult c = crawl(build_db);
  EXPECT_EQ(c.exit_code, 1) << c.err;
  EXPECT_EQ(count_lines(c.err), 1) << c.err;
  EXPECT_NE(c.err.find(build_db), std::string::npos) << c.err;
  EXPECT_NE(c.err.find("collection"), std::string::npos) << c.err;
  EXPECT_EQ(read_file(crawl_db), crawl_before);
  EXPECT_EQ(read_file(build_db), build_before);
  // Each still takes its own database again.
  EXPECT_EQ(crawl(crawl_db, /*resume=*/true).exit_code, 0);
  EXPECT_EQ(build(build_db).exit_code, 0);
}

TEST(CliRobustness, HostileSeedsAreRefusedNamingTheSeed) {
  TempDir tmp;
  const std::string db = (tmp / "c.db").string();
  for (const std::string seed : {"javascript:alert(1)", "file:///etc/passwd", "http://127.0.0.1:0/",
                                 "http://127.0.0.1:99999/", "http://[::1/"}) {
    auto r = run_cronista({"crawl", "--from", "1939", "--to", "1945", "--db", db, seed});
    EXPECT_NE(r.exit_code, 0) << seed;
    EXPECT_EQ(count_lines(r.err), 1) << r.err;
    EXPECT_NE(r.err.find(seed), std::string::npos) << r.err;
  }
  auto overlong = run_cronista({"crawl", "--from", "1939", "--to", "1945", "--db", db,
                                "http://exemplo.pt/" + std::string(9000, 'a')});
  EXPECT_NE(overlong.exit_code, 0);
  EXPECT_EQ(count_lines(overlong.err), 1) << overlong.err;
}

TEST(CliRobustness, FromAfterToIsAUsageError) {
  TempDir tmp;
  auto r = run_cronista({"crawl", "--from", "1945", "--to", "1939", "--db", (tmp / "c.db").string(),
                         "http://127.0.0.1:9/"});
  expect_one_line_error(r, 2, "--to");
}

// A reversed --scope used to fail with exit 1 (a runtime failure).
TEST(CliRobustness, AReversedScopeOfEvalCrawlIsAUsageError) {
  TempDir tmp;
  write_file(tmp / "truth.jsonl", "");
  write_file(tmp / "order.txt", "");
  auto r = run_cronista({"eval-crawl", "--truth", (tmp / "truth.jsonl").string(), "--scope", "1945-1939", "--order",
                         (tmp / "order.txt").string(), "--no-oracle"});
  expect_one_line_error(r, 2, "--scope");
}

TEST(CliRobustness, AnUnknownSampleWebSubcommandIsNamed) {
  expect_one_line_error(run_cronista({"sample-web", "frobnicate"}), 2, "frobnicate");
}

}  // namespace
}  // namespace cronista::testing
