// `cronista export` as a process, with the real tagger: the passages of a
// built collection in each format, and the in-scope passages of a real
// crawl on loopback.
#include <gtest/gtest.h>

#include <filesystem>
#include <nlohmann/json.hpp>
#include <sstream>

#include "../crawler/test_server.h"
#include "test_support.h"

namespace cronista::testing {
namespace {

#define REQUIRE_TAGGER()                                                                 \
  do {                                                                                   \
    auto probe = run_cronista({"tag"}, "Em 2003.");                                      \
    if (probe.exit_code != 0) GTEST_SKIP() << "the tagger does not load: " << probe.err; \
  } while (0)

// Two documents of our own writing: a dated paragraph about 1944, one about
// 1911, and an undated paragraph that is no passage.
std::string built_collection(const TempDir& tmp) {
  write_file(tmp / "c.jsonl",
             nlohmann::json{{"id", "praia"},
                            {"url", "http://arquivo.example/praia"},
                            {"date", "1994-06-06"},
                            {"text", "A 6 de junho de 1944 as tropas desembarcaram na Normandia, \"sob fogo\"."}}
                     .dump() +
                 "\n" +
                 nlohmann::json{{"id", "escola"},
                                {"text", "O presidente lembrou que a escola abriu em outubro de 1911.\n\n"
                                         "Os alunos gostam muito dela."}}
                     .dump() +
                 "\n");
  const std::string db = (tmp / "c.db").string();
  auto r = run_cronista({"build", "--quiet", "--input", (tmp / "c.jsonl").string(), "--format", "jsonl", "--db", db});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  return db;
}

TEST(ExportCommand, JsonlHoldsEachPassageWithItsTextExpressionsAndChronons) {
  REQUIRE_TAGGER();
  TempDir tmp;
  const std::string db = built_collection(tmp);
  auto r = run_cronista({"export", "--db", db, "--format", "jsonl"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  std::vector<nlohmann::json> lines;
  std::istringstream in(r.out);
  for (std::string line; std::getline(in, line);) lines.push_back(nlohmann::json::parse(line));
  ASSERT_EQ(lines.size(), 2u) << r.out;  // the undated paragraph is no passage
  const auto& praia = lines[0];
  EXPECT_EQ(praia["url"], "http://arquivo.example/praia");
  EXPECT_EQ(praia["date"], "1994-06-06");
  EXPECT_EQ(praia["year"], 1944);
  const std::string text = praia["text"];
  EXPECT_NE(text.find("as tropas desembarcaram na Normandia"), std::string::npos) << text;
  ASSERT_EQ(praia["expressions"].size(), 1u);
  const auto& e = praia["expressions"][0];
  EXPECT_EQ(e["value"], "1944-06-06");
  EXPECT_EQ(text.substr(e["start"].get<std::size_t>(), e["end"].get<std::size_t>() - e["start"].get<std::size_t>()),
            e["text"].get<std::string>());
  EXPECT_EQ(praia["chronons"][0]["value"], "1944-06-06");
  EXPECT_EQ(lines[1]["year"], 1911);
  EXPECT_EQ(lines[1]["date"], nullptr);
  EXPECT_NE(r.err.find("2 passages from 2 documents"), std::string::npos) << r.err;
}

TEST(ExportCommand, CsvQuotesTextAndJoinsTheValues) {
  REQUIRE_TAGGER();
  TempDir tmp;
  const std::string db = built_collection(tmp);
  const auto out = tmp / "passagens.csv";
  auto r = run_cronista({"export", "--db", db, "--format", "csv", "--out", out.string()});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out, "");
  const std::string csv = read_file(out);
  EXPECT_EQ(csv.rfind("url,title,date,year,in_scope,segment,text,expressions,values,chronons\r\n", 0), 0u) << csv;
  // The quotes inside the text are doubled, the field quoted.
  EXPECT_NE(csv.find("Normandia, \"\"sob fogo\"\".\""), std::string::npos) << csv;
  EXPECT_NE(csv.find(",1944-06-06,1944-06-06\r\n"), std::string::npos) << csv;
  EXPECT_FALSE(std::filesystem::exists(tmp / "passagens.csv.part"));
}

TEST(ExportCommand, HtmlGroupsPassagesByYearAndMarksEachDate) {
  REQUIRE_TAGGER();
  TempDir tmp;
  const std::string db = built_collection(tmp);
  auto r = run_cronista({"export", "--db", db, "--format", "html"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const std::string& html = r.out;
  const auto y1911 = html.find("<section id=\"y1911\">"), y1944 = html.find("<section id=\"y1944\">");
  ASSERT_NE(y1911, std::string::npos) << html;
  ASSERT_NE(y1944, std::string::npos) << html;
  EXPECT_LT(y1911, y1944) << "years in order";
  EXPECT_NE(html.find("<a href=\"#y1944\">1944</a> (1)"), std::string::npos);
  EXPECT_NE(html.find("<mark title=\"1944-06-06 (DATE)\">6 de junho de 1944</mark>"), std::string::npos) << html;
  EXPECT_NE(html.find("&quot;sob fogo&quot;"), std::string::npos) << "text is escaped";
  EXPECT_NE(html.find("published 1994-06-06"), std::string::npos);
  EXPECT_NE(html.find("</html>"), std::string::npos);
}

// Each year ends with a concordance: the words before, the date, the words
// after, one line per date.
TEST(ExportCommand, HtmlShowsEachYearsDatesInContext) {
  REQUIRE_TAGGER();
  TempDir tmp;
  const std::string db = built_collection(tmp);
  auto r = run_cronista({"export", "--db", db, "--format", "html"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const std::string& html = r.out;
  const auto section = html.find("<section id=\"y1911\">");
  const auto kwic = html.find("<details class=\"kwic\"><summary>The dates in context (1)</summary>", section);
  ASSERT_NE(kwic, std::string::npos) << html;
  EXPECT_LT(kwic, html.find("</section>", section));
  EXPECT_NE(html.find("<td class=\"left\"><span dir=\"ltr\">O presidente lembrou que a escola abriu em "
                      "</span></td><td class=\"key\"><mark title=\"1911-10\">outubro de 1911</mark></td>"
                      "<td class=\"right\">.",
                      kwic),
            std::string::npos)
      << html.substr(kwic);
}

TEST(ExportCommand, InScopeKeepsTheCrawlsPassagesInsideItsPeriod) {
  REQUIRE_TAGGER();
  TestServer server;
  server.http().Get("/", [&](const httplib::Request&, httplib::Response& res) {
    res.set_content("<html><head><title>Cidade</title></head><body><p>Em março de 1943 a ponte ruiu.</p>"
                    "<p>Em 1962 foi reconstruída.</p></body></html>",
                    "text/html; charset=utf-8");
  });
  server.start();
  TempDir tmp;
  const std::string db = (tmp / "crawl.db").string();
  auto c = run_cronista({"crawl", "--quiet", "--from", "1939", "--to", "1945", "--delay-ms", "0", "--db", db,
                         server.url("/")});
  ASSERT_EQ(c.exit_code, 0) << c.err;
  auto all = run_cronista({"export", "--db", db});
  ASSERT_EQ(all.exit_code, 0) << all.err;
  EXPECT_NE(all.out.find("1962"), std::string::npos) << all.out;
  auto r = run_cronista({"export", "--db", db, "--in-scope"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(count_lines(r.out), 1) << r.out;
  auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["title"], "Cidade");
  EXPECT_EQ(j["url"], server.url("/"));
  EXPECT_EQ(j["in_scope"], true);
  EXPECT_NE(j["text"].get<std::string>().find("a ponte ruiu"), std::string::npos) << r.out;
  EXPECT_EQ(j["text"].get<std::string>().find("1962"), std::string::npos) << r.out;
}

TEST(ExportCommand, InScopeOnACollectionSaysNoPeriodApplies) {
  REQUIRE_TAGGER();
  TempDir tmp;
  const std::string db = built_collection(tmp);
  auto r = run_cronista({"export", "--db", db, "--in-scope"});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find("--in-scope: no period applies"), std::string::npos) << r.err;
  EXPECT_EQ(count_lines(r.err), 1) << r.err;
}

TEST(ExportCommand, AMissingDatabaseOrFormatIsNamed) {
  TempDir tmp;
  auto r = run_cronista({"export", "--db", (tmp / "nada.db").string()});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find("nada.db"), std::string::npos) << r.err;
  EXPECT_FALSE(std::filesystem::exists(tmp / "nada.db"));
  r = run_cronista({"export", "--db", (tmp / "nada.db").string(), "--format", "pdf"});
  EXPECT_EQ(r.exit_code, 2);
}

}  // namespace
}  // namespace cronista::testing
