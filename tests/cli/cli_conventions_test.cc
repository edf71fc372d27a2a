// The command-line conventions of contract.md, checked on the real binary.
#include <gtest/gtest.h>

#include <tuple>

#include "test_support.h"

namespace cronista::testing {
namespace {

const std::vector<std::string> kCommands = {"tag",         "segment",    "learn",        "crawl",     "build",
                                            "report",      "export",     "replicas",     "eval-tagger", "eval-crawl",
                                            "eval-revisit", "eval-rate-prior", "eval-replicas", "sample-web"};

TEST(CliConventions, TopLevelHelpListsEveryCommandAndExitsZero) {
  ProcessResult r = run_cronista({"--help"});
  EXPECT_EQ(r.exit_code, 0);
  for (const auto& c : kCommands) EXPECT_NE(r.out.find("  " + c + " "), std::string::npos) << c;
  EXPECT_TRUE(r.err.empty());
}

TEST(CliConventions, VersionPrintsTheVersion) {
  ProcessResult r = run_cronista({"--version"});
  EXPECT_EQ(r.exit_code, 0);
  EXPECT_EQ(r.out.rfind("cronista ", 0), 0u);
}

TEST(CliConventions, EveryCommandHasHelpOnStdoutWithExitZero) {
  for (const auto& c : kCommands) {
    ProcessResult r = run_cronista({c, "--help"});
    EXPECT_EQ(r.exit_code, 0) << c;
    EXPECT_NE(r.out.find("cronista " + c), std::string::npos) << c << ": " << r.out;
    EXPECT_TRUE(r.err.empty()) << c;
  }
}

TEST(CliConventions, HelpShowsTheDefaults) {
  for (const auto& [command, shown] : std::vector<std::pair<std::string, std::string>>{
           {"crawl", "=1000"}, {"build", "=sentence"}, {"learn", "=2"}, {"report", "=md"}, {"export", "=jsonl"}}) {
    ProcessResult r = run_cronista({command, "--help"});
    EXPECT_NE(r.out.find(shown), std::string::npos) << command << ": " << r.out;
  }
}

TEST(CliConventions, AMistypedOptionIsNamedAsUnknownWithTheNearestOne) {
  for (const auto& [command, typo, meant] : std::vector<std::tuple<std::string, std::string, std::string>>{
           {"crawl", "--form", "--from"}, {"build", "--inptu", "--input"}, {"export", "--in-scop", "--in-scope"}}) {
    ProcessResult r = run_cronista({command, typo, "x"});
    EXPECT_EQ(r.exit_code, 2) << command;
    EXPECT_NE(r.err.find("unknown option '" + typo + "' (did you mean " + meant + "?)"), std::string::npos)
        << command << ": " << r.err;
  }
}

TEST(CliConventions, MissingCommandIsAUsageError) {
  ProcessResult r = run_cronista({});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(count_lines(r.err), 1);
  EXPECT_TRUE(r.out.empty());
}

TEST(CliConventions, UnknownCommandIsAOneLineUsageErrorNamingIt) {
  ProcessResult r = run_cronista({"frobnicate"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(count_lines(r.err), 1);
  EXPECT_NE(r.err.find("frobnicate"), std::string::npos);
}

TEST(CliConventions, BadUsageOfAnyCommandIsAOneLineErrorWithExitTwo) {
  for (const auto& c : kCommands) {
    ProcessResult r = run_cronista({c, "--no-such-option"});
    EXPECT_EQ(r.exit_code, 2) << c;
    EXPECT_EQ(count_lines(r.err), 1) << c << ": " << r.err;
    EXPECT_EQ(r.err.rfind("cronista " + c + ": ", 0), 0u) << c << ": " << r.err;
    EXPECT_TRUE(r.out.empty()) << c;
  }
}

TEST(CliConventions, UnknownOptionIsNamedInTheError) {
  ProcessResult r = run_cronista({"tag", "--no-such-option"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("--no-such-option"), std::string::npos) << r.err;
}

TEST(CliConventions, MalformedDateIsAUsageErrorNamingTheOption) {
  ProcessResult r = run_cronista({"tag", "--dct", "1998-02-30"}, "hoje");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(count_lines(r.err), 1);
  EXPECT_NE(r.err.find("--dct"), std::string::npos) << r.err;
}

TEST(CliConventions, CrawlWithoutRequiredPeriodIsAUsageError) {
  ProcessResult r = run_cronista({"crawl", "--db", "x.db", "http://127.0.0.1:1/"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(count_lines(r.err), 1);
  EXPECT_NE(r.err.find("--from"), std::string::npos) << r.err;
}

// Every command that loads the tagger takes --home; an empty folder there must
// be reported by name, which also proves the option is not ignored.
TEST(CliConventions, EveryTaggerCommandTakesHomeAndNamesAMissingResourcesFolder) {
  TempDir tmp;
  const std::string home = (tmp.path() / "vazio").string();
  std::filesystem::create_directories(home);
  write_file(tmp.path() / "seeds.txt", "http://127.0.0.1:1/\n");
  std::filesystem::create_directories(tmp.path() / "textos");
  write_file(tmp.path() / "textos" / "a.txt", "Em 6 de junho de 1944 desembarcaram.\n");
  write_file(tmp.path() / "a.txt", "Em 6 de junho de 1944 desembarcaram.\n");
  const std::string a = (tmp.path() / "a.txt").string();
  const std::vector<std::vector<std::string>> invocations = {
      {"tag", "--home", home, a},
      {"segment", "--home", home, a},
      {"learn", "--home", home, "--corpus", a, "--out", (tmp.path() / "p.patterns").string()},
      {"eval-tagger", "--home", home, "--gold", source_dir() + "/tests/data/eval"},
      {"crawl", "--from", "1939", "--to", "1945", "--seeds", (tmp.path() / "seeds.txt").string(), "--db",
       (tmp.path() / "c.db").string(), "--home", home},
      {"crawl", "--from", "1939", "--to", "1945", "--seeds", (tmp.path() / "seeds.txt").string(), "--db",
       (tmp.path() / "c2.db").string(), "--resources", home},
      {"build", "--format", "text-dir", "--input", (tmp.path() / "textos").string(), "--db",
       (tmp.path() / "b.db").string(), "--home", home},
  };
  for (const auto& args : invocations) {
    ProcessResult r = run_cronista(args);
    EXPECT_EQ(r.exit_code, 1) << args[0] << ": " << r.err;
    EXPECT_EQ(count_lines(r.err), 1) << args[0] << ": " << r.err;
    EXPECT_NE(r.err.find(home + "/resources/pt"), std::string::npos) << args[0] << ": " << r.err;
  }
}

TEST(CliConventions, SegmentWithTheSourceTreeAsHomeWorks) {
  ProcessResult r = run_cronista({"segment", "--home", source_dir(), "-"},
                                 "A 6 de junho de 1944 desembarcaram na Normandia.\n");
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("1944-06-06"), std::string::npos) << r.out;
}

}  // namespace
}  // namespace cronista::testing
