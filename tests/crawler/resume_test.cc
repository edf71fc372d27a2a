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
using testing::titles_learnt;
using testing::wait_for_count;

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

// A site for a temporal crawl: the index's dated paragraph links ten
// sections, each section's dated paragraph its twelve articles, by their
// titles; half the articles tell of the war years, half of the 1960s.
constexpr int kDatedSitePages = 1 + 10 + 10 * 12;

void build_dated_site(Site& site) {
  static const char* const kWar[] = {"Racionamento do pão em Lisboa", "Refugiados desembarcam no cais",
                                     "O volfrâmio das minas da Beira", "Apagões nas noites do Porto",
                                     "Navios neutros no Tejo", "Senhas para o açúcar e o azeite"};
  static const char* const kSixties[] = {"Inauguração da ponte sobre o Tejo", "Emigrantes partem para França",
                                         "Cheias no Ribatejo", "Televisão chega às aldeias",
                                         "Estreia no cinema São Jorge", "Obras no aeroporto da Portela"};
  std::string index = "<p>Em 1942 o arquivo do jornal foi arrumado por secções:";
  for (int s = 0; s < 10; ++s) {
    const std::string sec = "/seccao" + std::to_string(s);
    index += " <a href=\"" + sec + "\">secção " + std::to_string(s) + "</a>";
    std::string items = "<p>Notícias guardadas em 1943:";
    for (int a = 0; a < 12; ++a) {
      const std::string art = sec + "/artigo" + std::to_string(a);
      const bool war = a % 2 == 0;
      const std::string title = std::string(war ? kWar[(s + a / 2) % 6] : kSixties[(s + a / 2) % 6]) + " (" +
                                std::to_string(s) + "." + std::to_string(a) + ")";
      items += " <a href=\"" + art + "\">" + title + "</a>";
      site.page(art, html(war ? "<p>Em março de 1942 a cidade viveu dias de espera e de notícias do mar.</p>"
                              : "<p>Em maio de 1966 a cidade encheu-se de gente para a festa.</p>",
                          title));
    }
    site.page(sec, html(items + "</p>", "Secção " + std::to_string(s)));
  }
  site.page("/", html(index + "</p>", "Arquivo"));
}

// Killed with -9 and resumed, a temporal crawl keeps its record of title
// words: the resumed run learns again the titles of the pages judged before
// the kill, in their order, so its summary counts every judged page's title.
// Without them it would count only the pages it judged itself.
TEST(CrawlCommand, AResumedTemporalCrawlKeepsTheTitleWordsItsPagesTaughtIt) {
  Site site;
  build_dated_site(site);
  site.start();
  TempDir tmp;
  const std::string db = (tmp / "c.db").string();
  std::vector<std::string> args = {"crawl", "--from", "1939", "--to", "1945", "--db", db, "--delay-ms", "20",
                                   "--host-connections", "2", "--connections", "4", "--quiet", site.url("/")};
  Child first = spawn_cronista(args, (tmp / "err1").string());
  const std::string judged = "SELECT COUNT(*) FROM history h JOIN pages p ON p.id = h.page_id "
                             "WHERE p.relevant IS NOT NULL";
  wait_for_count(db, judged, 30);
  ::kill(first.pid, SIGKILL);
  EXPECT_EQ(first.wait(), 128 + SIGKILL);
  const std::int64_t before = count(db, judged);
  ASSERT_GE(before, 30);
  ASSERT_LT(before, kDatedSitePages) << "the crawl finished before the kill; make the site larger";

  args.push_back("--resume");
  Child again = spawn_cronista(args, (tmp / "err2").string());
  ASSERT_EQ(again.wait(), 0) << testing::read_file(tmp / "err2");
  EXPECT_EQ(count(db, "SELECT COUNT(*) FROM history"), kDatedSitePages);
  EXPECT_EQ(titles_learnt((tmp / "err2").string()), count(db, judged)) << testing::read_file(tmp / "err2");
}

// A calendar trap recognised before a stop stays recognised after --resume:
// an endless agenda of 1950 (every day links to the next; each page out of
// the period) on one host, and on another the articles of 1942, each
// linking to a day of the agenda of 1951 (URLs of the same pattern). Once
// twenty agenda pages out of the period were fetched, no new agenda URL is
// followed; the resumed run, fetching the articles left, requests no agenda
// URL the crawl had not taken in before the stop. Without the counters
// rebuilt it would walk into the agenda again from each article.
TEST(CrawlCommand, ACalendarTrapRecognisedBeforeAStopIsNotCrawledIntoAfterTheResume) {
  static const char* const kMonths[] = {"janeiro", "fevereiro", "março",    "abril",   "maio",     "junho",
                                        "julho",   "agosto",    "setembro", "outubro", "novembro", "dezembro"};
  Site agenda("127.0.0.2");
  agenda.http().Get(R"(/agenda/(\d+)/(\d+)/(\d+))", [](const httplib::Request& req, httplib::Response& res) {
    const int y = std::stoi(req.matches[1].str()), m = std::stoi(req.matches[2].str()),
              d = std::stoi(req.matches[3].str());
    if (m < 1 || m > 12 || d < 1 || d > 28) {
      res.status = 404;
      return;
    }
    const int next_m = d == 28 ? m % 12 + 1 : m, next_d = d == 28 ? 1 : d + 1;
    const int next_y = d == 28 && m == 12 ? y + 1 : y;
    const std::string next =
        "/agenda/" + std::to_string(next_y) + "/" + std::to_string(next_m) + "/" + std::to_string(next_d);
    res.set_content(html("<p>Agenda de " + std::to_string(d) + " de " + kMonths[m - 1] + " de " + std::to_string(y) +
                             ": sem compromissos. <a href=\"" + next + "\">dia seguinte</a></p>",
                         "Agenda"),
                    "text/html; charset=utf-8");
  });
  agenda.start();
  constexpr int kArticles = 60;
  Site news;
  std::string index = "<p>";
  for (int a = 0; a < kArticles; ++a) {
    const std::string path = "/artigo/" + std::to_string(a);
    index += "<a href=\"" + path + "\">artigo</a> ";
    const std::string day = agenda.url("/agenda/1951/" + std::to_string(a / 28 + 1) + "/" + std::to_string(a % 28 + 1));
    news.page(path, html("<p>Em março de 1942 o porto de Lisboa reabriu aos navios neutros. <a href=\"" + day +
                         "\">agenda do dia</a></p>"));
  }
  news.page("/", html(index + "<a href=\"" + agenda.url("/agenda/1950/1/1") + "\">agenda</a></p>"));
  news.start();
  TempDir tmp;
  const std::string db = (tmp / "c.db").string();
  std::vector<std::string> args = {"crawl", "--from", "1939", "--to", "1945", "--mode", "general", "--db", db,
                                   "--delay-ms", "30", "--host-connections", "1", "--connections", "4", "--quiet",
                                   news.url("/")};
  Child first = spawn_cronista(args, (tmp / "err1").string());
  wait_for_count(db, "SELECT COUNT(*) FROM history WHERE url LIKE '%/agenda/%'", 20);
  ::kill(first.pid, SIGTERM);
  ASSERT_EQ(first.wait(), 128 + SIGTERM) << testing::read_file(tmp / "err1");
  ASSERT_EQ(count(db, "SELECT COUNT(*) FROM history h JOIN pages p ON p.id = h.page_id "
                      "WHERE h.url LIKE '%/agenda/%' AND p.relevant = 0"),
            count(db, "SELECT COUNT(*) FROM history WHERE url LIKE '%/agenda/%'"));
  ASSERT_GE(count(db, "SELECT COUNT(*) FROM history WHERE url LIKE '%/agenda/%'"), 20);
  ASSERT_LT(count(db, "SELECT COUNT(*) FROM history WHERE url LIKE '%/artigo/%'"), kArticles)
      << "every article was fetched before the stop; make the site larger";
  std::set<std::string> taken_in;  // the agenda URLs the crawl holds: fetched, or queued
  for (const std::string& u : rows(db, "SELECT url FROM urls WHERE url LIKE '%/agenda/%'"))
    taken_in.insert(u.substr(agenda.origin().size()));
  const std::size_t asked_before = agenda.server().log().size();

  args.push_back("--resume");
  Child again = spawn_cronista(args, (tmp / "err2").string());
  ASSERT_EQ(again.wait(), 0) << testing::read_file(tmp / "err2");
  EXPECT_EQ(count(db, "SELECT COUNT(*) FROM history WHERE url LIKE '%/artigo/%'"), kArticles);
  const auto log = agenda.server().log();
  std::vector<std::string> walked_into;
  for (std::size_t i = asked_before; i < log.size(); ++i)
    if (log[i].path.rfind("/agenda/", 0) == 0 && !taken_in.count(log[i].path)) walked_into.push_back(log[i].path);
  EXPECT_TRUE(walked_into.empty()) << walked_into.size() << " agenda pages new to the crawl, the first "
                                   << walked_into.front();
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
