// What `cronista crawl` tells its user: each seed's fate and the hosts that
// did not answer, a failure when nothing could be fetched, no database left
// behind by a start that failed, --allow-host adding to the seeds' hosts,
// and plain messages for mistyped or out-of-range options.
#include <gtest/gtest.h>

#include <filesystem>

#include "crawler/crawl_support.h"

namespace cronista::crawler {
namespace {

using testing::html;
using testing::rows;
using testing::Site;
using testing::TempDir;

std::vector<std::string> quick(std::vector<std::string> args) {
  for (const char* a : {"--quiet", "--delay-ms", "0", "--retries", "0", "--connect-timeout-ms", "2000"})
    args.push_back(a);
  return args;
}

TEST(CrawlOutcome, AnUnreachableSeedIsNamedWithItsHostAndTheCrawlFails) {
  TempDir tmp;
  const std::string db = (tmp / "c.db").string();
  const int port = testing::free_loopback_port("127.0.0.1");
  const std::string seed = "http://127.0.0.1:" + std::to_string(port) + "/inicio";
  auto r = testing::run_cronista(quick({"crawl", "--from", "1939", "--to", "1945", "--db", db, seed}));
  EXPECT_EQ(r.exit_code, 1) << r.err;
  EXPECT_NE(r.err.find("seeds: 0 of 1 downloaded"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find(seed + ": not fetched: 127.0.0.1:" + std::to_string(port) + " did not answer"),
            std::string::npos)
      << r.err;
  EXPECT_NE(r.err.find("unreachable hosts:\n  127.0.0.1:" + std::to_string(port)), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("errors: host-unreachable=1"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("cronista crawl: no page could be fetched"), std::string::npos) << r.err;
}

TEST(CrawlOutcome, EachSeedsFateIsListedBesideTheDownloadedOnes) {
  Site site;
  site.page("/a", html("<p>Em 1942.</p>"));
  site.start();
  TempDir tmp;
  const std::string db = (tmp / "c.db").string();
  auto r = testing::run_cronista(
      quick({"crawl", "--from", "1939", "--to", "1945", "--db", db, site.url("/a"), site.url("/falta")}));
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.err.find("seeds: 2 of 2 downloaded"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find(site.url("/a") + ": downloaded (HTTP 200, relevant)"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find(site.url("/falta") + ": downloaded an error page (HTTP 404)"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("unreachable hosts: none"), std::string::npos) << r.err;
}

TEST(CrawlOutcome, ACrawlThatFetchedNothingLeavesNoDatabaseSoTheCorrectedCommandRuns) {
  Site site;
  site.page("/", html("<p>Em 1942.</p>"));
  site.start();
  TempDir tmp;
  const std::string db = (tmp / "c.db").string();
  const int port = testing::free_loopback_port("127.0.0.1");
  auto r = testing::run_cronista(quick(
      {"crawl", "--from", "1939", "--to", "1945", "--db", db, "http://127.0.0.1:" + std::to_string(port) + "/"}));
  ASSERT_EQ(r.exit_code, 1) << r.err;
  EXPECT_FALSE(std::filesystem::exists(db));
  r = testing::run_cronista(quick({"crawl", "--from", "1939", "--to", "1945", "--db", db, site.url("/")}));
  EXPECT_EQ(r.exit_code, 0) << r.err;
}

TEST(CrawlOutcome, AnUnwritableWarcIsRefusedBeforeTheDatabaseIsCreated) {
  Site site;
  site.page("/", html("<p>Em 1942.</p>"));
  site.start();
  TempDir tmp;
  const std::string db = (tmp / "c.db").string();
  auto r = testing::run_cronista(quick({"crawl", "--from", "1939", "--to", "1945", "--db", db, "--warc",
                                        (tmp / "nao-existe" / "c.warc.gz").string(), site.url("/")}));
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find("--warc"), std::string::npos) << r.err;
  EXPECT_EQ(testing::count_lines(r.err), 1) << r.err;
  EXPECT_FALSE(std::filesystem::exists(db));
  r = testing::run_cronista(quick({"crawl", "--from", "1939", "--to", "1945", "--db", db, "--warc",
                                   (tmp / "c.warc.gz").string(), site.url("/")}));
  EXPECT_EQ(r.exit_code, 0) << r.err;
}

TEST(CrawlOutcome, ABadSeedIsABadUsageAndCreatesNoDatabase) {
  TempDir tmp;
  const std::string db = (tmp / "c.db").string();
  auto r = testing::run_cronista(quick({"crawl", "--from", "1939", "--to", "1945", "--db", db, "http://"}));
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("seed 'http://'"), std::string::npos) << r.err;
  EXPECT_FALSE(std::filesystem::exists(db));
}

TEST(CrawlOutcome, AFailureAfterTheDatabaseOpenedRemovesTheEmptyDatabase) {
  Site site;
  site.page("/", html("<p>Em 1942.</p>"));
  site.start();
  TempDir tmp;
  const std::string db = (tmp / "c.db").string();
  auto r = testing::run_cronista(quick({"crawl", "--from", "1939", "--to", "1945", "--db", db, "--patterns",
                                        (tmp / "nenhum.patterns").string(), site.url("/")}));
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find("nenhum.patterns"), std::string::npos) << r.err;
  EXPECT_FALSE(std::filesystem::exists(db));
  EXPECT_FALSE(std::filesystem::exists(db + "-wal"));
}

TEST(CrawlOutcome, AllowHostAddsHostsToTheSeedsOwn) {
  Site seed_host("127.0.0.1"), other("127.0.0.2"), third("127.0.0.3");
  other.page("/", html("<p>outro</p>"));
  third.page("/", html("<p>terceiro</p>"));
  other.start();
  third.start();
  seed_host.page("/", html("<p><a href=\"/mais\">mais</a> <a href=\"" + other.url("/") + "\">outro</a> <a href=\"" +
                           third.url("/") + "\">terceiro</a></p>"));
  seed_host.page("/mais", html("<p>mais</p>"));
  seed_host.start();
  TempDir tmp;
  const std::string db = (tmp / "c.db").string();
  auto r = testing::run_cronista(quick({"crawl", "--mode", "general", "--from", "1939", "--to", "1945", "--db", db,
                                        "--allow-host", "127.0.0.2", seed_host.url("/")}));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(seed_host.server().count("/mais"), 1) << "the seed's own host was left out";
  EXPECT_EQ(other.server().count("/"), 1);
  EXPECT_EQ(third.server().count("/"), 0);
}

// A database whose runs recorded their command line as plain text (before
// the arguments were kept as JSON) resumes when the options are given again.
TEST(CrawlResume, ADatabaseWithoutRecordedOptionsAsksForThem) {
  Site site;
  site.page("/", html("<p>Em 1942.</p>"));
  site.start();
  TempDir tmp;
  const std::string db = (tmp / "c.db").string();
  auto r = testing::run_cronista(quick({"crawl", "--from", "1939", "--to", "1945", "--db", db, site.url("/")}));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  {
    auto d = store::Database::open(db);
    ASSERT_TRUE(d.ok());
    ASSERT_TRUE(d->exec("UPDATE runs SET args = '--from 1939 --to 1945 --db c.db'").ok());
  }
  r = testing::run_cronista({"crawl", "--resume", "--db", db});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("did not record the crawl's options: give them again with --resume"), std::string::npos)
      << r.err;
  r = testing::run_cronista({"crawl", "--resume", "--db", db, "--from", "1939", "--to", "1945", "--quiet"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
}

TEST(CrawlProgress, ABannerAndAProgressLineWithElapsedTimeShareOfMaxPagesAndEta) {
  Site site;
  std::string links;
  for (int i = 0; i < 12; ++i) {
    site.page("/p" + std::to_string(i), html("<p>Em 194" + std::to_string(i % 6) + ".</p>"));
    links += "<a href=\"/p" + std::to_string(i) + "\">p</a> ";
  }
  site.page("/", html("<p>Em 1942. " + links + "</p>"));
  site.start();
  TempDir tmp;
  auto r = testing::run_cronista({"crawl", "--from", "1939", "--to", "1945", "--db", (tmp / "c.db").string(),
                                  "--delay-ms", "0", "--max-pages", "10", "--contact", "mailto:eu@example.pt",
                                  site.url("/")});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.err.find("crawl: a temporal crawl of 1939..1945 from 1 seed into " + (tmp / "c.db").string()),
            std::string::npos)
      << r.err;
  EXPECT_NE(r.err.find("user agent \"cronista/"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("(+mailto:eu@example.pt)\", 0 ms between requests to a host, at most 10 pages"),
            std::string::npos)
      << r.err;
  EXPECT_NE(r.err.find("s elapsed, 10 pages (100% of 10, ETA 0s)"), std::string::npos) << r.err;
}

TEST(CrawlOptions, AMistypedOptionIsReportedAsUnknownWithTheNearestName) {
  auto r = testing::run_cronista({"crawl", "--form", "1939", "--to", "1945", "--db", "x.db", "http://127.0.0.1:9/"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("unknown option '--form' (did you mean --from?)"), std::string::npos) << r.err;
  EXPECT_EQ(r.err.find("--from is required"), std::string::npos) << r.err;
}

TEST(CrawlOptions, ANegativeDelayIsAPlainError) {
  auto r = testing::run_cronista(
      {"crawl", "--from", "1939", "--to", "1945", "--delay-ms", "-5", "--db", "x.db", "http://127.0.0.1:9/"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("--delay-ms: must be 0 or more, not -5"), std::string::npos) << r.err;
  EXPECT_LT(r.err.size(), 120u) << r.err;
}

TEST(CrawlOptions, AMalformedResolveEntryIsAUsageError) {
  testing::TempDir tmp;
  const std::string db = (tmp / "x.db").string();
  auto r = testing::run_cronista({"crawl", "--from", "1939", "--to", "1945", "--resolve", "arquivo.pt:127.0.0.2",
                                  "--db", db, "http://arquivo.pt/"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("--resolve 'arquivo.pt:127.0.0.2': expected HOST:PORT:ADDRESS"), std::string::npos) << r.err;
  EXPECT_EQ(testing::count_lines(r.err), 1) << r.err;
  EXPECT_FALSE(std::filesystem::exists(db));
}

TEST(CrawlOptions, AResolveFileWithABadLineIsAUsageErrorNamingTheLine) {
  testing::TempDir tmp;
  const std::string db = (tmp / "x.db").string(), file = (tmp / "resolve.txt").string();
  testing::write_file(file, "# nomes\narquivo.pt:18080:127.0.0.2\n\nwww.arquivo.pt:127.0.0.2\n");
  auto r = testing::run_cronista({"crawl", "--from", "1939", "--to", "1945", "--resolve-file", file, "--db", db,
                                  "http://arquivo.pt:18080/"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find(file + ":4: 'www.arquivo.pt:127.0.0.2': expected HOST:PORT:ADDRESS"), std::string::npos)
      << r.err;
  EXPECT_EQ(testing::count_lines(r.err), 1) << r.err;
  EXPECT_FALSE(std::filesystem::exists(db));
  auto missing = testing::run_cronista({"crawl", "--from", "1939", "--to", "1945", "--resolve-file",
                                        (tmp / "nada.txt").string(), "--db", db, "http://arquivo.pt:18080/"});
  EXPECT_EQ(missing.exit_code, 1);
  EXPECT_NE(missing.err.find("cannot read --resolve-file"), std::string::npos) << missing.err;
  EXPECT_FALSE(std::filesystem::exists(db));
}

TEST(CrawlOptions, HelpShowsTheDefaults) {
  auto r = testing::run_cronista({"crawl", "--help"});
  EXPECT_EQ(r.exit_code, 0);
  EXPECT_NE(r.out.find("=1000"), std::string::npos) << r.out;  // --delay-ms
  EXPECT_NE(r.out.find("=0.99"), std::string::npos) << r.out;  // --threshold
  EXPECT_NE(r.out.find("(0: no limit)"), std::string::npos) << r.out;  // --max-pages
}

TEST(CrawlOptions, ANewCrawlNeedsAPeriodAndSaysHowToResumeInstead) {
  auto r = testing::run_cronista({"crawl", "--db", "x.db", "http://127.0.0.1:9/"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("--from is required for a new crawl (to continue one: --resume --db DB)"), std::string::npos)
      << r.err;
}

}  // namespace
}  // namespace cronista::crawler
