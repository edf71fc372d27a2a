// `cronista crawl` as a process: the command line, SIGTERM, kill -9 and
// --resume (nothing lost, nothing downloaded twice but what was in flight).
#include <fcntl.h>
#include <gtest/gtest.h>

#include <set>
#include <thread>

#include "crawler/crawl_support.h"
#include "crawler/warc.h"
#include "crawler/warcio_check.h"

namespace cronista::crawler {
namespace {

using testing::Child;
using testing::count;
using testing::html;
using testing::rows;
using testing::scalar;
using testing::Site;
using testing::spawn_cronista;
using testing::TempDir;

// A site of 1 + 12 × 15 pages: the index links 12 sections, each section 15
// articles, and every article links back to its section and the index.
void build_site(Site& site) {
  std::string index;
  for (int s = 0; s < 12; ++s) {
    const std::string sec = "/s" + std::to_string(s);
    index += "<a href=\"" + sec + "\">secção " + std::to_string(s) + "</a> ";
    std::string items;
    for (int a = 0; a < 15; ++a) {
      const std::string art = sec + "/a" + std::to_string(a);
      items += "<li><a href=\"" + art + "\">artigo</a></li>";
      site.page(art, html("<p>Artigo de 1942. <a href=\"" + sec + "\">secção</a> <a href=\"/\">início</a></p>"));
    }
    site.page(sec, html("<ul>" + items + "</ul>"));
  }
  site.page("/", html("<p>" + index + "</p>"));
}

constexpr int kSitePages = 1 + 12 + 12 * 15;

std::vector<std::string> crawl_args(const TempDir& tmp, const Site& site, const std::string& delay_ms = "5") {
  return {"crawl", "--from", "1939", "--to", "1945", "--mode", "general", "--db", (tmp / "c.db").string(),
          "--order-out", (tmp / "order.txt").string(), "--delay-ms", delay_ms, "--host-connections", "2",
          "--connections", "4", "--quiet", site.url("/")};
}

int lines_in(const std::filesystem::path& p) { return testing::count_lines(testing::read_file(p)); }

void wait_for_lines(const std::filesystem::path& p, int n) {
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(30);
  while (lines_in(p) < n && std::chrono::steady_clock::now() < deadline)
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
}

void expect_complete_crawl(const TempDir& tmp, Site& site, int max_repeats) {
  const std::string db = (tmp / "c.db").string();
  const auto history = rows(db, "SELECT url FROM history ORDER BY seq");
  EXPECT_EQ(history.size(), static_cast<std::size_t>(kSitePages));
  const std::set<std::string> unique(history.begin(), history.end());
  EXPECT_EQ(unique.size(), history.size()) << "a page was recorded twice";
  // The order file is the history, line for line.
  std::vector<std::string> order;
  std::istringstream in(testing::read_file(tmp / "order.txt"));
  for (std::string line; std::getline(in, line);) order.push_back(line.substr(0, line.find('\t')));
  EXPECT_EQ(order, history);
  // Each page was requested once, except those in flight at the interruption.
  int repeats = 0;
  for (const auto& url : history) {
    const std::string path = url.substr(site.origin().size());
    const int n = site.server().count(path);
    EXPECT_GE(n, 1) << path;
    repeats += n - 1;
  }
  EXPECT_LE(repeats, max_repeats);
  EXPECT_EQ(count(db, "SELECT COUNT(*) FROM frontier"), 0);
}

// Pages the server answered before a kill -9 that the database had not yet
// recorded: transfers in flight, pages in analysis and pages waiting for the
// writer. These, and only these, may be requested again on --resume.
int uncommitted_at_kill(const TempDir& tmp, Site& site) {
  int requested = 0;
  for (const auto& req : site.server().log()) requested += req.path != "/robots.txt";
  const int committed = static_cast<int>(count((tmp / "c.db").string(), "SELECT COUNT(*) FROM history"));
  return requested - committed;
}

TEST(CrawlCommand, ResumesAfterKillMinus9WithNothingLostOrRepeated) {
  Site site;
  build_site(site);
  site.start();
  TempDir tmp;
  auto args = crawl_args(tmp, site);
  Child first = spawn_cronista(args, (tmp / "err1").string());
  wait_for_lines(tmp / "order.txt", 40);
  ::kill(first.pid, SIGKILL);
  EXPECT_EQ(first.wait(), 128 + SIGKILL);
  const int before = static_cast<int>(count((tmp / "c.db").string(), "SELECT COUNT(*) FROM history"));
  EXPECT_GE(before, 40);
  EXPECT_LT(before, kSitePages) << "the crawl finished before the kill; make the site larger";
  const int uncommitted = uncommitted_at_kill(tmp, site);

  args.push_back("--resume");
  auto r = testing::run_cronista(args);
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.err.find("pages downloaded: " + std::to_string(kSitePages)), std::string::npos) << r.err;
  // Requested again: at most what was answered but not recorded at the kill.
  expect_complete_crawl(tmp, site, uncommitted);
  EXPECT_EQ(rows((tmp / "c.db").string(), "SELECT end_reason FROM runs ORDER BY id"),
            (std::vector<std::string>{"NULL", "frontier-empty"}));
}

// The WARC of a crawl killed with -9 and resumed holds a response for every
// page of the history, reads without error, and passes an outside parser.
TEST(CrawlCommand, AWarcKilledAndResumedIsWholeAndHoldsEveryPage) {
  Site site;
  build_site(site);
  site.start();
  TempDir tmp;
  // Slower than the other kill test (20 ms between requests, about 3 s left
  // at the kill), so that a loaded machine still kills it mid-crawl.
  auto args = crawl_args(tmp, site, "20");
  const std::string warc = (tmp / "c.warc.gz").string();
  args.insert(args.begin() + 1, {"--warc", warc});
  Child first = spawn_cronista(args, (tmp / "err1").string());
  wait_for_lines(tmp / "order.txt", 40);
  ::kill(first.pid, SIGKILL);
  EXPECT_EQ(first.wait(), 128 + SIGKILL);
  const int uncommitted = uncommitted_at_kill(tmp, site);
  args.push_back("--resume");
  auto r = testing::run_cronista(args);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  expect_complete_crawl(tmp, site, uncommitted);

  auto reader = WarcReader::open(warc);
  ASSERT_TRUE(reader.ok()) << reader.status().message();
  std::vector<std::string> errors;
  (*reader)->on_error = [&](const std::string& m) { errors.push_back(m); };
  std::set<std::string> responses;
  int warcinfo = 0;
  WarcRecord rec;
  while ((*reader)->next(&rec)) {
    warcinfo += rec.type == "warcinfo";
    if (rec.type == "response") responses.insert(rec.header("WARC-Target-URI"));
  }
  EXPECT_TRUE(errors.empty()) << errors[0];
  EXPECT_EQ(warcinfo, 1);
  for (const auto& url : rows((tmp / "c.db").string(), "SELECT url FROM history"))
    EXPECT_TRUE(responses.count(url)) << url << " has no response record";
  const auto check = testing::run_warcio_check(warc, tmp);
  if (!check.missing.empty()) GTEST_SKIP() << check.missing;
  EXPECT_EQ(check.exit_code, 0) << check.output;
}

TEST(CrawlCommand, StopsCleanlyOnSigtermAndResumes) {
  Site site;
  build_site(site);
  site.start();
  TempDir tmp;
  auto args = crawl_args(tmp, site);
  Child first = spawn_cronista(args, (tmp / "err1").string());
  wait_for_lines(tmp / "order.txt", 30);
  ::kill(first.pid, SIGTERM);
  EXPECT_EQ(first.wait(), 128 + SIGTERM) << testing::read_file(tmp / "err1");
  EXPECT_EQ(scalar((tmp / "c.db").string(), "SELECT end_reason FROM runs"), "interrupted");
  args.push_back("--resume");
  auto r = testing::run_cronista(args);
  EXPECT_EQ(r.exit_code, 0) << r.err;
  expect_complete_crawl(tmp, site, 4);
}

// Ctrl-C: exit 130 and the one command that continues the crawl, which needs
// nothing but the database (the options are recorded in it).
TEST(CrawlCommand, SigintExits130AndNamesTheResumeCommandThatNeedsOnlyTheDatabase) {
  Site site;
  build_site(site);
  site.start();
  TempDir tmp;
  const std::string db = (tmp / "c.db").string();
  Child first = spawn_cronista(crawl_args(tmp, site), (tmp / "err1").string());
  wait_for_lines(tmp / "order.txt", 30);
  ::kill(first.pid, SIGINT);
  EXPECT_EQ(first.wait(), 128 + SIGINT);
  const std::string err = testing::read_file(tmp / "err1");
  const std::string command = "cronista crawl --resume --db " + db;
  ASSERT_NE(err.find(command), std::string::npos) << err;
  auto r = testing::run_cronista({"crawl", "--resume", "--db", db});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  expect_complete_crawl(tmp, site, 4);
  // The mode and period came from the database, as did --order-out.
  EXPECT_EQ(rows(db, "SELECT mode, period_from, period_to FROM runs ORDER BY id"),
            (std::vector<std::string>{"general|1939|1945", "general|1939|1945"}));
}

// The recorded options name files by absolute paths: a crawl started with
// relative ones resumes from another folder and writes to the same files.
TEST(CrawlCommand, ACrawlStartedWithRelativePathsResumesFromAnotherFolder) {
  Site site;
  build_site(site);
  site.start();
  TempDir tmp;
  std::filesystem::create_directories(tmp / "trabalho");
  const std::string db = (tmp / "trabalho" / "c.db").string();
  // Built before fork(): the child of a threaded process may not allocate.
  const std::string work = (tmp / "trabalho").string(), bin = testing::cronista_binary(), seed = site.url("/");
  const pid_t pid = ::fork();
  if (pid == 0) {
    if (::chdir(work.c_str()) != 0) ::_exit(120);
    const int fd = ::open("/dev/null", O_WRONLY);
    ::dup2(fd, 1);
    ::dup2(fd, 2);
    ::execl(bin.c_str(), "cronista", "crawl", "--from", "1939", "--to", "1945", "--mode",
            "general", "--db", "c.db", "--order-out", "order.txt", "--delay-ms", "5", "--max-pages", "20", "--quiet",
            seed.c_str(), static_cast<char*>(nullptr));
    ::_exit(121);
  }
  int status = 0;
  ::waitpid(pid, &status, 0);
  ASSERT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << status;
  ASSERT_EQ(lines_in(tmp / "trabalho" / "order.txt"), 20);
  auto r = testing::run_cronista({"crawl", "--resume", "--db", db, "--max-pages", "30", "--quiet"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(lines_in(tmp / "trabalho" / "order.txt"), 30) << "the order file of the first run was continued";
}

TEST(CrawlCommand, StopsAtMaxPagesAndPrintsASummary) {
  Site site;
  build_site(site);
  site.start();
  TempDir tmp;
  auto args = crawl_args(tmp, site);
  args.insert(args.begin() + 1, {"--max-pages", "20"});
  auto r = testing::run_cronista(args);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(count((tmp / "c.db").string(), "SELECT COUNT(*) FROM history"), 20);
  // A human summary goes to stderr, as build's does; stdout stays empty.
  EXPECT_NE(r.err.find("pages downloaded: 20"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("relevant pages:"), std::string::npos);
  EXPECT_NE(r.err.find("pages/s:"), std::string::npos);
  EXPECT_NE(r.err.find("in-scope share:"), std::string::npos);
  EXPECT_NE(r.err.find("elapsed: "), std::string::npos);
  EXPECT_NE(r.err.find("download order: " + (tmp / "order.txt").string()), std::string::npos);
  EXPECT_EQ(r.out, "");
  EXPECT_EQ(lines_in(tmp / "order.txt"), 20);
}

TEST(CrawlCommand, RefusesBadUsageAndMismatchedDatabases) {
  TempDir tmp;
  const std::string db = (tmp / "c.db").string();
  auto r = testing::run_cronista({"crawl", "--from", "1939", "--to", "1945", "--db", db});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("seeds"), std::string::npos) << r.err;
  r = testing::run_cronista({"crawl", "--from", "1939-13", "--to", "1945", "--db", db, "http://127.0.0.1:9/"});
  EXPECT_EQ(r.exit_code, 2) << r.err;
  r = testing::run_cronista({"crawl", "--from", "1939", "--to", "1945", "--db", db, "--resume",
                             "http://127.0.0.1:9/"});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find("no crawl to resume"), std::string::npos) << r.err;
  EXPECT_EQ(testing::count_lines(r.err), 1);

  Site site;
  site.page("/", html("<p>só</p>"));
  site.start();
  r = testing::run_cronista({"crawl", "--from", "1939", "--to", "1945", "--db", db, "--quiet", "--delay-ms", "0",
                             site.url("/")});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  r = testing::run_cronista({"crawl", "--from", "1939", "--to", "1945", "--db", db, "--quiet",
                             site.url("/")});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find("already holds a crawl"), std::string::npos) << r.err;
  r = testing::run_cronista({"crawl", "--from", "2001", "--to", "2001", "--db", db, "--quiet", "--resume",
                             site.url("/")});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find("same --mode, --from and --to"), std::string::npos) << r.err;
  const std::string missing = (tmp / "nenhum.patterns").string();
  r = testing::run_cronista({"crawl", "--from", "1939", "--to", "1945", "--db", (tmp / "outra.db").string(),
                             "--patterns", missing, site.url("/")});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find("nenhum.patterns"), std::string::npos) << r.err;
}

}  // namespace
}  // namespace cronista::crawler
