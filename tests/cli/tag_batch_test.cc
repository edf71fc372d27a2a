// `cronista tag` in batch: JSON Lines in and out, several files, progress
// and failures on stderr; and --patterns, which `crawl` already had.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include <sstream>
#include <string>
#include <vector>

#include "test_support.h"

namespace cronista {
namespace {

using testing::run_cronista;

std::vector<nlohmann::json> json_lines(const std::string& out) {
  std::vector<nlohmann::json> lines;
  std::istringstream in(out);
  for (std::string line; std::getline(in, line);) lines.push_back(nlohmann::json::parse(line));
  return lines;
}

TEST(TagBatch, JsonlInGivesOneLinePerDocumentEachWithItsOwnDate) {
  const std::string input =
      "{\"id\": \"a\", \"date\": \"2001-02-03\", \"text\": \"Ontem choveu em Braga.\"}\n"
      "{\"id\": \"b\", \"date\": \"1999-12-31\", \"text\": \"Amanhã começa o ano 2000.\"}\n";
  auto run = run_cronista({"tag", "--jsonl"}, input);
  ASSERT_EQ(run.exit_code, 0) << run.err;
  const auto lines = json_lines(run.out);
  ASSERT_EQ(lines.size(), 2u) << run.out;
  EXPECT_EQ(lines[0]["id"], "a");
  EXPECT_EQ(lines[0]["dct"], "2001-02-03");
  EXPECT_EQ(lines[0]["expressions"][0]["value"], "2001-02-02");
  EXPECT_EQ(lines[1]["id"], "b");
  EXPECT_EQ(lines[1]["expressions"][0]["value"], "2000-01-01");
  // Offsets are into each document's text.
  EXPECT_EQ(lines[1]["expressions"][0]["start"], 0);
}

TEST(TagBatch, AJsonlLineWithoutTextIsNamedAndSkipped) {
  const std::string input = "{\"id\": \"a\", \"text\": \"Em 1944.\"}\n[1, 2]\n{\"id\": \"c\", \"text\": \"Em 1945.\"}\n";
  auto run = run_cronista({"tag", "--jsonl"}, input);
  ASSERT_EQ(run.exit_code, 0) << run.err;
  EXPECT_EQ(json_lines(run.out).size(), 2u);
  EXPECT_NE(run.err.find("standard input line 2"), std::string::npos) << run.err;
  EXPECT_NE(run.err.find("2 documents"), std::string::npos) << run.err;
}

TEST(TagBatch, SeveralFilesGiveOneLineEachAndAFailingOneIsNamed) {
  testing::TempDir tmp;
  testing::write_file(tmp / "a.txt", "A ponte abriu em maio de 1966.\n");
  testing::write_file(tmp / "b.txt", "A exposição fecha no Natal de 2012.\n");
  auto run = run_cronista({"tag", (tmp / "a.txt").string(), (tmp / "missing.txt").string(), (tmp / "b.txt").string()});
  EXPECT_EQ(run.exit_code, 1);
  const auto lines = json_lines(run.out);
  ASSERT_EQ(lines.size(), 2u) << run.out;
  EXPECT_EQ(lines[0]["file"], (tmp / "a.txt").string());
  EXPECT_EQ(lines[0]["expressions"][0]["value"], "1966-05");
  EXPECT_EQ(lines[1]["file"], (tmp / "b.txt").string());
  EXPECT_EQ(lines[1]["expressions"][0]["value"], "2012-12-25");
  EXPECT_NE(run.err.find("missing.txt"), std::string::npos) << run.err;
}

TEST(TagBatch, InlineFormatsAreRefusedForABatch) {
  auto run = run_cronista({"tag", "--jsonl", "--format", "timex3"}, "{\"text\": \"Em 1944.\"}\n");
  EXPECT_EQ(run.exit_code, 2);
  EXPECT_EQ(testing::count_lines(run.err), 1) << run.err;
}

TEST(TagPatterns, OnlyTheGivenPatternFilesAreUsed) {
  testing::TempDir tmp;
  testing::write_file(tmp / "years.patterns",
                      "format cronista-patterns 1\n\npattern only-years\nregex tag_YEAR\ntimex DATE\n"
                      "harem CALENDAR_REF DATE\nfreq 0\nexample 1944\n");
  const std::string text = "Em 1944, a 6 de junho, e ontem.\n";
  auto run = run_cronista({"tag", "--dct", "2001-02-03", "--patterns", (tmp / "years.patterns").string()}, text);
  ASSERT_EQ(run.exit_code, 0) << run.err;
  const auto j = nlohmann::json::parse(run.out);
  ASSERT_EQ(j["expressions"].size(), 1u) << run.out;
  EXPECT_EQ(j["expressions"][0]["text"], "1944");
}

TEST(TagPatterns, AMissingPatternFileIsNamed) {
  auto run = run_cronista({"tag", "--patterns", "/nonexistent/x.patterns"}, "Em 1944.\n");
  EXPECT_EQ(run.exit_code, 1);
  EXPECT_NE(run.err.find("/nonexistent/x.patterns"), std::string::npos) << run.err;
}

TEST(BuildPatterns, BuildTakesPatternFiles) {
  testing::TempDir tmp;
  testing::write_file(tmp / "in.jsonl", "{\"id\": \"d1\", \"text\": \"Em 1944, a 6 de junho, e ontem.\"}\n");
  auto run = run_cronista({"build", "--input", (tmp / "in.jsonl").string(), "--format", "jsonl", "--db",
                           (tmp / "c.db").string(), "--patterns", "/nonexistent/x.patterns", "--quiet"});
  EXPECT_EQ(run.exit_code, 1);
  EXPECT_NE(run.err.find("/nonexistent/x.patterns"), std::string::npos) << run.err;
}

}  // namespace
}  // namespace cronista
