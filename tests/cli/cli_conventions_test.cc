// The command-line conventions of contract.md, checked on the real binary.
#include <gtest/gtest.h>

#include "test_support.h"

namespace cronista::testing {
namespace {

const std::vector<std::string> kCommands = {"tag",    "segment",     "learn",      "crawl",     "build",
                                            "report", "eval-tagger", "eval-crawl", "sample-web"};

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

}  // namespace
}  // namespace cronista::testing
