// `cronista build` and `cronista report` as processes, with the real tagger:
// every format from the command line, a build killed with SIGKILL and run
// again, a crawl's own WARC built into a collection, and report figures
// checked against the database.
#include <gtest/gtest.h>
#include <signal.h>

#include <chrono>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <pugixml.hpp>
#include <thread>

#include "../crawler/test_server.h"
#include "crawler/crawl.h"
#include "store/database.h"
#include "temporal/scope.h"
#include "test_support.h"

namespace cronista::testing {
namespace {

std::string data(const std::string& rel) { return source_dir() + "/tests/data/corpus/" + rel; }

std::int64_t count(const std::string& db_path, const std::string& sql) {
  auto db = store::Database::open(db_path, true);
  if (!db.ok()) return -1;
  auto st = db->prepare(sql);
  if (!st.ok() || !st->step()) return -1;
  return st->column_int(0);
}

// The real tagger must load from the source tree for these tests to mean
// anything; when it does not, say why instead of failing on every line.
#define REQUIRE_TAGGER()                                                                        \
  do {                                                                                          \
    auto probe = run_cronista({"tag"}, "Em 2003.");                                             \
    if (probe.exit_code != 0) GTEST_SKIP() << "the tagger does not load: " << probe.err;        \
  } while (0)

TEST(BuildCommand, BuildsEveryFormatOfOurSampleCollections) {
  REQUIRE_TAGGER();
  struct Case {
    const char* format;
    std::string input;
    std::int64_t documents;  // by construction of tests/data/corpus
    int skipped;
  };
  for (const Case& c : {Case{"wpt03", data("wpt03"), 3, 2}, Case{"jsonl", data("jsonl"), 4, 3},
                        Case{"html-dir", data("html"), 2, 0}, Case{"text-dir", data("text"), 4, 0}}) {
    TempDir tmp;
    const std::string db = (tmp / "c.db").string();
    auto r = run_cronista({"build", "--input", c.input, "--format", c.format, "--db", db, "--threads", "2"});
    ASSERT_EQ(r.exit_code, 0) << c.format << ": " << r.err;
    EXPECT_EQ(count(db, "SELECT count(*) FROM documents"), c.documents) << c.format;
    int skipped = 0;
    std::istringstream err(r.err);
    for (std::string line; std::getline(err, line);) {
      EXPECT_EQ(line.rfind("cronista build: ", 0), 0u) << line;
      skipped += line.find(": skipped ") != std::string::npos;
    }
    EXPECT_EQ(skipped, c.skipped) << c.format << "\n" << r.err;
    EXPECT_GT(count(db, "SELECT count(*) FROM expressions"), 0) << c.format;
    EXPECT_TRUE(r.out.empty());
  }
}

TEST(BuildCommand, BadUsageAndMissingInputAreReported) {
  auto usage = run_cronista({"build", "--input", "x", "--format", "pdf", "--db", "x.db"});
  EXPECT_EQ(usage.exit_code, 2);
  TempDir tmp;
  auto missing =
      run_cronista({"build", "--input", "/nao/existe", "--format", "jsonl", "--db", (tmp / "c.db").string()});
  EXPECT_EQ(missing.exit_code, 1);
  EXPECT_NE(missing.err.find("/nao/existe"), std::string::npos) << missing.err;
  EXPECT_EQ(count_lines(missing.err), 1);
}

// A build that reads no document (an empty file, the wrong --format)
// fails and says what to check, instead of exiting 0 in silence.
TEST(BuildCommand, ABuildThatReadsNothingFailsAndNamesTheFormat) {
  TempDir tmp;
  write_file(tmp / "vazio.jsonl", "");
  auto empty = run_cronista(
      {"build", "--input", (tmp / "vazio.jsonl").string(), "--format", "jsonl", "--db", (tmp / "a.db").string()});
  EXPECT_EQ(empty.exit_code, 1) << empty.err;
  EXPECT_NE(empty.err.find("read no document from '" + (tmp / "vazio.jsonl").string() + "' as --format jsonl"),
            std::string::npos)
      << empty.err;
  write_file(tmp / "noticias.jsonl", "{\"id\": \"a\", \"text\": \"Em 1943 a cidade mudou.\"}\n");
  auto wrong = run_cronista({"build", "--input", (tmp / "noticias.jsonl").string(), "--format", "wpt03", "--db",
                             (tmp / "b.db").string()});
  EXPECT_EQ(wrong.exit_code, 1) << wrong.err;
  EXPECT_NE(wrong.err.find("check that --format matches the input"), std::string::npos) << wrong.err;
}

// A collection large enough that a build is still running when it is killed.
std::string generated_collection(int n) {
  static const char* kSentences[] = {
      "A câmara aprovou o orçamento a 12 de Março de 2003, depois de três semanas de debate.",
      "No ano seguinte, a obra da biblioteca foi adjudicada por dois milhões de euros.",
      "Entre 1939 e 1945 a fábrica produziu conservas para os mercados estrangeiros.",
      "A feira realiza-se todos os anos no primeiro fim de semana de Junho.",
      "O presidente lembrou que a escola abriu em Outubro de 1911, pouco depois da revolução.",
  };
  std::string out;
  for (int i = 0; i < n; ++i) {
    std::string text;
    for (int k = 0; k < 8; ++k) text += std::string(kSentences[(i + k) % 5]) + " ";
    out += nlohmann::json{{"id", "doc-" + std::to_string(i)}, {"text", text}, {"date", "2003-05-20"}}.dump() + "\n";
  }
  return out;
}

pid_t spawn_cronista(const std::vector<std::string>& args) {
  return start_cronista(args, "/dev/null", "/dev/null", "/dev/null");
}

TEST(BuildCommand, ABuildKilledWithSigkillCompletesWhenRunAgain) {
  REQUIRE_TAGGER();
  TempDir tmp;
  const int n = 4000;
  write_file(tmp / "c.jsonl", generated_collection(n));
  const std::string db = (tmp / "c.db").string(), xml = (tmp / "c.xml").string();
  const std::vector<std::string> args{"build", "--input", (tmp / "c.jsonl").string(), "--format", "jsonl", "--db", db,
                                      "--out", xml, "--threads", "1", "--batch", "20"};
  pid_t pid = spawn_cronista(args);
  ASSERT_GT(pid, 0);
  // Wait for the first committed batch (or the end), then kill -9.
  int status = 0;
  bool exited = false;
  while (!exited && count(db, "SELECT count(*) FROM documents") <= 0) {
    exited = ::waitpid(pid, &status, WNOHANG) == pid;
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  if (!exited) {
    ::kill(pid, SIGKILL);
    ::waitpid(pid, &status, 0);
  }
  const std::int64_t before = count(db, "SELECT count(*) FROM documents");
  EXPECT_GT(before, 0);
  if (before >= n) std::cerr << "note: the first build finished before it could be killed\n";

  auto again = run_cronista(args);
  ASSERT_EQ(again.exit_code, 0) << again.err;
  EXPECT_EQ(count(db, "SELECT count(*) FROM documents"), n);
  EXPECT_EQ(count(db, "SELECT count(DISTINCT key) FROM documents"), n);
  EXPECT_NE(again.err.find(std::to_string(before) + " already in the database"), std::string::npos) << again.err;
  // Every document was analysed completely: as many segments as a fresh build gives.
  TempDir fresh;
  auto ref = run_cronista({"build", "--input", (tmp / "c.jsonl").string(), "--format", "jsonl", "--db",
                           (fresh / "f.db").string(), "--threads", "2"});
  ASSERT_EQ(ref.exit_code, 0) << ref.err;
  for (const char* sql : {"SELECT count(*) FROM expressions", "SELECT count(*) FROM segments",
                          "SELECT count(*) FROM chronons"})
    EXPECT_EQ(count(db, sql), count((fresh / "f.db").string(), sql)) << sql;
  // The XML holds each document exactly once.
  pugi::xml_document doc;
  auto parsed = doc.load_file(xml.c_str());
  ASSERT_TRUE(parsed) << parsed.description();
  auto docs = doc.select_nodes("/colCHAVE/DOC");
  EXPECT_EQ(static_cast<int>(docs.size()), n);
  std::set<std::string> keys;
  for (auto d : docs) keys.insert(d.node().child_value("DOCNO"));
  EXPECT_EQ(static_cast<int>(keys.size()), n);
}

TEST(BuildCommand, ReportOfABuiltCollectionAgreesWithTheDatabase) {
  REQUIRE_TAGGER();
  TempDir tmp;
  write_file(tmp / "c.jsonl", generated_collection(60));
  const std::string db = (tmp / "c.db").string();
  ASSERT_EQ(run_cronista({"build", "--input", (tmp / "c.jsonl").string(), "--format", "jsonl", "--db", db}).exit_code, 0);
  auto r = run_cronista({"report", "--db", db, "--format", "json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["6.1"]["all documents"]["documents"], 60);
  EXPECT_EQ(j["6.4"]["all expressions"]["expressions"], count(db, "SELECT count(*) FROM expressions"));
  EXPECT_EQ(j["6.4"]["resolved"]["expressions"], count(db, "SELECT count(*) FROM expressions WHERE resolved = 1"));
  EXPECT_EQ(j["6.9"]["segments"]["value"], count(db, "SELECT count(*) FROM segments"));
  EXPECT_EQ(j["6.8"]["complete"]["chronons"],
            count(db, "SELECT count(*) FROM chronons WHERE substr(value, 1, 10) NOT LIKE '%X%' AND length(value) >= 10"));
  EXPECT_EQ(j["6.16"]["2003"]["documents"], 60);
  EXPECT_FALSE(j.contains("8.2"));
}

TEST(BuildCommand, ACrawlsOwnWarcBuildsIntoACollectionAndTheCrawlIsReported) {
  REQUIRE_TAGGER();
  TestServer server;
  auto page = [](const std::string& body) {
    return "<html><head><title>Guerra</title></head><body>" + body + "</body></html>";
  };
  server.http().Get("/", [&](const httplib::Request&, httplib::Response& res) {
    res.set_content(page("<p>Em Setembro de 1939 começou a guerra. <a href=\"/a\">Invasão</a> "
                         "<a href=\"/b\">Resistência</a></p>"),
                    "text/html; charset=utf-8");
  });
  server.http().Get("/a", [&](const httplib::Request&, httplib::Response& res) {
    res.set_header("Last-Modified", "Mon, 01 Sep 2003 10:00:00 GMT");
    res.set_content(page("<p>A 1 de Setembro de 1939 a Polónia foi invadida.</p>"), "text/html; charset=utf-8");
  });
  server.http().Get("/b", [&](const httplib::Request&, httplib::Response& res) {
    res.set_content(page("<p>Em 1944 Paris foi libertada. <a href=\"/\">Início</a></p>"), "text/html");
  });
  server.start();
  TempDir tmp;
  const std::string crawl_db = (tmp / "crawl.db").string(), warc = (tmp / "crawl.warc.gz").string();
  crawler::CrawlOptions options;
  options.seeds = {server.url("/")};
  options.db = crawl_db;
  options.from = "1939";
  options.to = "1945";
  auto period = temporal::Period::parse("1939", "1945");
  ASSERT_TRUE(period.ok());
  options.period = *period;
  options.warc = warc;
  options.delay_ms = 0;
  options.same_host = true;
  options.max_pages = 10;
  options.progress = false;
  auto crawl = crawler::run_crawl(options, nullptr);
  ASSERT_TRUE(crawl.ok()) << crawl.status().message();
  const std::int64_t pages = count(crawl_db, "SELECT count(*) FROM history");
  ASSERT_EQ(pages, 3);

  const std::string db = (tmp / "c.db").string();
  auto build = run_cronista({"build", "--input", warc, "--format", "warc", "--db", db});
  ASSERT_EQ(build.exit_code, 0) << build.err;
  EXPECT_EQ(count(db, "SELECT count(*) FROM documents"), pages);
  EXPECT_EQ(count(db, "SELECT count(*) FROM documents WHERE dct = '2003-09-01' AND dct_source = 'http-last-modified'"),
            1);
  // Every link of the three pages points inside the collection.
  auto report = run_cronista({"report", "--db", db, "--format", "json"});
  ASSERT_EQ(report.exit_code, 0) << report.err;
  auto j = nlohmann::json::parse(report.out);
  EXPECT_EQ(j["6.11"]["all links"]["links"], 3);
  EXPECT_EQ(j["6.11"]["inside the collection"]["links"], 3);

  auto crawl_report = run_cronista({"report", "--db", crawl_db, "--format", "json"});
  ASSERT_EQ(crawl_report.exit_code, 0) << crawl_report.err;
  auto c = nlohmann::json::parse(crawl_report.out);
  ASSERT_TRUE(c.contains("8.2")) << crawl_report.out;
  EXPECT_EQ(c["8.2"]["pages downloaded"]["value"], pages);
  EXPECT_EQ(c["8.2"]["relevant pages"]["value"], count(crawl_db, "SELECT count(*) FROM pages WHERE relevant = 1"));
  EXPECT_TRUE(c["8.2"].contains("precision at 3 pages"));
}

}  // namespace
}  // namespace cronista::testing
