// `cronista tag` (contract.md): golden outputs in the three formats, and the
// command-line conventions (invalid UTF-8, --lenient, usage errors).
//
// The golden files in tests/data/tag are the reviewed output for noticia.txt
// with --dct 1998-02-13; regenerate them only after checking every change.
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "test_support.h"

namespace cronista {
namespace {

std::string data(const std::string& name) { return testing::source_dir() + "/tests/data/tag/" + name; }

void expect_golden(const std::string& format) {
  auto run = testing::run_cronista({"tag", "--dct", "1998-02-13", "--format", format, data("noticia.txt")});
  ASSERT_EQ(run.exit_code, 0) << run.err;
  EXPECT_EQ(run.out, testing::read_file(data("noticia." + format)));
  EXPECT_TRUE(run.err.empty()) << run.err;
}

TEST(TagCommand, JsonMatchesGolden) { expect_golden("json"); }
TEST(TagCommand, Timex3MatchesGolden) { expect_golden("timex3"); }
TEST(TagCommand, HaremMatchesGolden) { expect_golden("harem"); }

TEST(TagCommand, JsonOffsetsAreInputBytes) {
  const std::string input = testing::read_file(data("noticia.txt"));
  auto run = testing::run_cronista({"tag", "--dct", "1998-02-13"}, input);  // stdin, json by default
  ASSERT_EQ(run.exit_code, 0) << run.err;
  auto j = nlohmann::json::parse(run.out);
  EXPECT_EQ(j["dct"], "1998-02-13");
  ASSERT_GT(j["expressions"].size(), 5u);
  for (const auto& e : j["expressions"]) {
    const std::size_t s = e["start"], t = e["end"];
    EXPECT_EQ(input.substr(s, t - s), e["text"].get<std::string>());
  }
}

TEST(TagCommand, InvalidUtf8IsAnErrorUnlessLenient) {
  const std::string latin1 = "Em Mar\xE7o de 1998, ontem.";
  auto run = testing::run_cronista({"tag", "--dct", "1998-04-02"}, latin1);
  EXPECT_EQ(run.exit_code, 1);
  EXPECT_NE(run.err.find("not valid UTF-8"), std::string::npos) << run.err;
  EXPECT_EQ(testing::count_lines(run.err), 1);
  run = testing::run_cronista({"tag", "--dct", "1998-04-02", "--lenient"}, latin1);
  ASSERT_EQ(run.exit_code, 0) << run.err;
  auto j = nlohmann::json::parse(run.out);
  ASSERT_EQ(j["expressions"].size(), 2u);
  EXPECT_EQ(j["expressions"][0]["value"], "1998");  // "Mar?o" is no month any more
  EXPECT_EQ(j["expressions"][1]["start"], 18);      // offsets still those of the input bytes
  EXPECT_EQ(j["expressions"][1]["value"], "1998-04-01");
}

TEST(TagCommand, WithoutDctDeicticValuesStayOpen) {
  auto run = testing::run_cronista({"tag"}, "Ontem choveu muito.");
  ASSERT_EQ(run.exit_code, 0) << run.err;
  auto j = nlohmann::json::parse(run.out);
  EXPECT_TRUE(j["dct"].is_null());
  ASSERT_EQ(j["expressions"].size(), 1u);
  EXPECT_EQ(j["expressions"][0]["value"], "XXXX-XX-XX");
  EXPECT_TRUE(j["expressions"][0]["chronons"].empty());
}

TEST(TagCommand, BadUsageExitsTwo) {
  auto run = testing::run_cronista({"tag", "--dct", "1998-02-30"}, "hoje");
  EXPECT_EQ(run.exit_code, 2);
  EXPECT_EQ(testing::count_lines(run.err), 1);
  run = testing::run_cronista({"tag", "--format", "xml"}, "hoje");
  EXPECT_EQ(run.exit_code, 2);
  run = testing::run_cronista({"tag", "/nonexistent/input.txt"});
  EXPECT_EQ(run.exit_code, 1);
  EXPECT_NE(run.err.find("/nonexistent/input.txt"), std::string::npos);
}

TEST(TagCommand, OutWritesAFile) {
  testing::TempDir dir;
  auto run = testing::run_cronista({"tag", "--dct", "1998-02-13", "--format", "timex3", "--out",
                                    (dir / "out.xml").string(), data("noticia.txt")});
  ASSERT_EQ(run.exit_code, 0) << run.err;
  EXPECT_TRUE(run.out.empty());
  EXPECT_EQ(testing::read_file(dir / "out.xml"), testing::read_file(data("noticia.timex3")));
}

}  // namespace
}  // namespace cronista

namespace cronista {
namespace {

TEST(TagCommandHtml, TagsTheMainTextWithThePagesDate) {
  const std::string page =
      "<html><head><meta name=\"date\" content=\"2003-05-20\"><script>var d = \"1999\";</script></head>"
      "<body><p>A feira abriu <b>ontem</b>, a 19 de maio de 2003.</p></body></html>";
  auto run = testing::run_cronista({"tag", "--html"}, page);
  ASSERT_EQ(run.exit_code, 0) << run.err;
  auto j = nlohmann::json::parse(run.out);
  EXPECT_EQ(j["dct"], "2003-05-20");  // from <meta name="date">
  ASSERT_EQ(j["expressions"].size(), 2u);  // the script's "1999" is not text
  EXPECT_EQ(j["expressions"][0]["value"], "2003-05-19");
  for (const auto& e : j["expressions"]) {  // offsets into the HTML input
    const std::size_t s = e["start"], t = e["end"];
    EXPECT_EQ(page.substr(s, t - s), e["text"].get<std::string>());
  }
  EXPECT_EQ(j["expressions"][1]["text"], "19 de maio de 2003");
}

}  // namespace
}  // namespace cronista
