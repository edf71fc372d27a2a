// `cronista learn` end to end: the real binary on a small corpus of our own.
#include <gtest/gtest.h>

#include <filesystem>
#include <string>

#include "test_support.h"

namespace {

using cronista::testing::run_cronista;

TEST(LearnCommand, WritesAPatternFileFromTextAndJsonl) {
  const cronista::testing::TempDir tmp;
  std::filesystem::create_directories(tmp / "corpus");
  cronista::testing::write_file(tmp / "corpus" / "a.txt",
                                "No ano passado choveu. No ano seguinte também. No ano anterior não.\n"
                                "A 6 de junho de 1944 e a 25 de abril de 1974 e a 1 de maio de 2010.\n");
  cronista::testing::write_file(tmp / "corpus" / "b.jsonl",
                                "{\"text\": \"Todos os dias, todos os dias, todos os dias.\"}\n"
                                "{\"text\": \"Durante três meses e dois meses e cinco meses.\"}\n");
  const auto out = tmp / "aprendido.patterns";
  const auto r = run_cronista({"learn", "--corpus", (tmp / "corpus").string(), "--min-frequency", "2", "--out",
                               out.string()});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(r.out.empty());
  EXPECT_NE(r.err.find("patterns written"), std::string::npos) << r.err;
  const std::string file = cronista::testing::read_file(out);
  EXPECT_NE(file.find("format cronista-patterns 1"), std::string::npos);
  EXPECT_NE(file.find("regex tag_DAYNUM de tag_MONTH de tag_YEAR\n"), std::string::npos) << file;
  EXPECT_NE(file.find("regex ano (?:anterior|passado|seguinte)\n"), std::string::npos) << file;
  EXPECT_NE(file.find("regex todos os dias\ntimex SET\nharem FREQUENCY\nfreq 3\n"), std::string::npos) << file;
  EXPECT_NE(file.find("timex DURATION\nharem DURATION\nfreq 3\n"), std::string::npos) << file;
  // --quiet: nothing on stderr.
  const auto q = run_cronista({"learn", "--quiet", "--corpus", (tmp / "corpus").string(), "--out", out.string()});
  ASSERT_EQ(q.exit_code, 0) << q.err;
  EXPECT_TRUE(q.err.empty()) << q.err;
}

TEST(LearnCommand, ErrorsNameWhatIsWrong) {
  const cronista::testing::TempDir tmp;
  EXPECT_EQ(run_cronista({"learn", "--corpus", "x"}).exit_code, 2);  // no --out
  EXPECT_EQ(run_cronista({"learn", "--corpus", "x", "--out", "y", "--window", "0"}).exit_code, 2);
  const auto missing = run_cronista({"learn", "--corpus", (tmp / "nada").string(), "--out", (tmp / "o").string()});
  EXPECT_EQ(missing.exit_code, 1);
  EXPECT_NE(missing.err.find("nada"), std::string::npos) << missing.err;
  EXPECT_EQ(cronista::testing::count_lines(missing.err), 1) << missing.err;
  cronista::testing::write_file(tmp / "mau.jsonl", "{\"text\": \"ok\"}\nnão é json\n");
  cronista::testing::write_file(tmp / "so-mau.jsonl", "não é json\n{\"texto\": \"sem campo text\"}\n");
  const auto bad = run_cronista({"learn", "--quiet", "--corpus", (tmp / "so-mau.jsonl").string(), "--out",
                                 (tmp / "o").string()});
  EXPECT_EQ(bad.exit_code, 1);
  EXPECT_NE(bad.err.find("so-mau.jsonl:1:"), std::string::npos) << bad.err;
  EXPECT_NE(bad.err.find("no document"), std::string::npos) << bad.err;
  const auto res = run_cronista({"learn", "--corpus", (tmp / "mau.jsonl").string(), "--resources",
                                 (tmp / "sem-recursos").string(), "--out", (tmp / "o").string()});
  EXPECT_EQ(res.exit_code, 1);
  EXPECT_NE(res.err.find("sem-recursos"), std::string::npos) << res.err;
}

// A corpus too small for --min-frequency learns nothing: an error, and no
// empty pattern file over the one that was there.
TEST(LearnCommand, LearningNoPatternIsAnErrorAndWritesNothing) {
  const cronista::testing::TempDir tmp;
  cronista::testing::write_file(tmp / "pouco.txt", "No ano passado choveu.\n");
  const auto out = tmp / "aprendido.patterns";
  cronista::testing::write_file(out, "anterior\n");
  const auto r = run_cronista({"learn", "--quiet", "--corpus", (tmp / "pouco.txt").string(), "--min-frequency",
                               "50", "--out", out.string()});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find("no pattern learned from 1 documents (nothing written)"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("--min-frequency"), std::string::npos) << r.err;
  EXPECT_EQ(cronista::testing::read_file(out), "anterior\n");
}

// A damaged record does not stop a long read: broken JSONL lines are skipped
// and named, invalid UTF-8 is replaced, and both are reported even with --quiet.
TEST(LearnCommand, SkipsBrokenJsonlLinesAndRepairsInvalidUtf8) {
  const cronista::testing::TempDir tmp;
  std::filesystem::create_directories(tmp / "corpus");
  std::string lines;
  for (int i = 0; i < 3; ++i) lines += "{\"text\": \"Durante três meses choveu.\"}\n";
  lines += "isto não é json\n{\"id\": 7}\n";
  for (int i = 0; i < 3; ++i) lines += "{\"text\": \"Todos os dias chovia.\"}\n";
  cronista::testing::write_file(tmp / "corpus" / "a.jsonl", lines);
  cronista::testing::write_file(tmp / "corpus" / "b.txt",
                                "A 6 de junho de 1944 \xff\xfe desembarcaram. A 8 de maio de 1945 acabou.\n");
  const auto out = tmp / "p.patterns";
  const auto r = run_cronista({"learn", "--quiet", "--min-frequency", "2", "--corpus", (tmp / "corpus").string(),
                               "--out", out.string()});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.err.find("skipped 2 malformed JSONL line(s), the first at "), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("a.jsonl:4: not a JSON object"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("replaced invalid UTF-8 in 1 document(s)"), std::string::npos) << r.err;
  const std::string file = cronista::testing::read_file(out);
  // The lines after the broken ones were learned from.
  EXPECT_NE(file.find("regex todos os dias\n"), std::string::npos) << file;
  EXPECT_NE(file.find("regex tag_DAYNUM de tag_MONTH de tag_YEAR\n"), std::string::npos) << file;
  EXPECT_EQ(file.find('\xff'), std::string::npos);
}

}  // namespace
