// The sample web generator: same seed → same bytes; the truth file agrees
// with itself and with the files written (every link leads somewhere known,
// robots.txt, redirects, the calendar trap and the faulty pages exist).
#include <gtest/gtest.h>

#include <filesystem>
#include <map>
#include <set>

#include <nlohmann/json.hpp>

#include "sampleweb/sample_web.h"
#include "sampleweb/sample_web_corpus.h"
#include "crawler/charset.h"
#include "test_support.h"

namespace cronista::sampleweb {
namespace {

namespace fs = std::filesystem;
using cronista::testing::read_file;
using cronista::testing::TempDir;
using cronista::testing::write_file;

std::string corpora() { return cronista::testing::source_dir() + "/corpora/sample-web"; }

SampleWebOptions small_web(const fs::path& out, std::uint64_t seed = 7) {
  SampleWebOptions o;
  o.corpora_dir = corpora();
  o.out_dir = out.string();
  o.pages = 300;
  o.seed = seed;
  o.port = 18123;
  return o;
}

std::map<std::string, nlohmann::json> load_truth(const fs::path& file) {
  std::map<std::string, nlohmann::json> out;
  std::istringstream in(read_file(file));
  for (std::string line; std::getline(in, line);) {
    auto j = nlohmann::json::parse(line);
    out[j["url"].get<std::string>()] = j;
  }
  return out;
}

TEST(SampleWeb, SameSeedGivesByteIdenticalWeb) {
  TempDir a, b, c;
  ASSERT_TRUE(generate_sample_web(small_web(a.path())).ok());
  ASSERT_TRUE(generate_sample_web(small_web(b.path())).ok());
  ASSERT_TRUE(generate_sample_web(small_web(c.path(), 8)).ok());
  const auto fa = cronista::testing::files_below(a.path()), fb = cronista::testing::files_below(b.path());
  ASSERT_GT(fa.size(), 300u);
  ASSERT_EQ(fa.size(), fb.size());
  for (const auto& [name, data] : fa) {
    auto it = fb.find(name);
    ASSERT_NE(it, fb.end()) << name;
    EXPECT_TRUE(it->second == data) << name << " differs between two runs with the same seed";
  }
  EXPECT_NE(read_file(a / "truth.jsonl"), read_file(c / "truth.jsonl")) << "another seed should give another web";
}

TEST(SampleWeb, EveryLinkLeadsToAKnownUrlOrIntoTheCalendar) {
  TempDir dir;
  auto summary = generate_sample_web(small_web(dir.path()));
  ASSERT_TRUE(summary.ok()) << summary.status().message();
  EXPECT_EQ(summary->hosts, 7);
  const auto truth = load_truth(dir / "truth.jsonl");
  int links = 0, redirects = 0, missing = 0;
  for (const auto& [url, j] : truth) {
    if (j.contains("location")) {
      ++redirects;
      EXPECT_TRUE(truth.count(j["location"].get<std::string>())) << url << " redirects to an unknown URL";
    }
    if (j["status"] == 404) ++missing;
    if (!j.contains("sections")) continue;
    for (const auto& s : j["sections"]) {
      for (const auto& l : s["links"]) {
        ++links;
        const std::string target = l.get<std::string>();
        if (target.find("/calendario/") != std::string::npos) continue;  // the endless months
        EXPECT_TRUE(truth.count(target)) << url << " links to " << target << ", absent from the truth";
      }
    }
  }
  EXPECT_GT(links, 3000);
  EXPECT_GT(redirects, 20);
  EXPECT_GT(missing, 0) << "some links should lead to deliberate 404s";
}

TEST(SampleWeb, RobotsRedirectChainsTrapAndFaultyPagesArePresent) {
  TempDir dir;
  ASSERT_TRUE(generate_sample_web(small_web(dir.path())).ok());
  const fs::path sites = dir / "sites";
  EXPECT_NE(read_file(sites / "enciclopedia" / "files" / "robots.txt").find("Disallow: /especial/"), std::string::npos);
  EXPECT_NE(read_file(sites / "portal" / "files" / "robots.txt").find("Crawl-delay: 1"), std::string::npos);
  EXPECT_FALSE(fs::exists(sites / "hemeroteca" / "files" / "robots.txt")) << "one host has no robots.txt (404)";
  const std::string calendar_routes = read_file(sites / "calendario" / "routes.tsv");
  EXPECT_NE(calendar_routes.find("/calendario/\ttrap\t"), std::string::npos);
  const std::string portal_routes = read_file(sites / "portal" / "routes.tsv");
  EXPECT_NE(portal_routes.find("/novidades\t500\t"), std::string::npos);

  const auto truth = load_truth(dir / "truth.jsonl");
  // A two-hop chain: /ir/N (302) → /saida/N (301) → a page (200).
  bool chain = false;
  for (const auto& [url, j] : truth) {
    if (j["status"] != 302) continue;
    const auto& hop = truth.at(j["location"].get<std::string>());
    if (hop["status"] == 301 && truth.at(hop["location"].get<std::string>())["status"] == 200) chain = true;
  }
  EXPECT_TRUE(chain);
  int latin1 = 0, bad_utf8 = 0, malformed = 0, disallowed = 0, trap = 0;
  std::uintmax_t biggest = 0;
  for (const auto& [url, j] : truth) {
    latin1 += j.value("charset", "") == "iso-8859-1";
    bad_utf8 += j.value("invalid_utf8", false);
    malformed += j.value("malformed", false);
    disallowed += j.value("disallowed", false);
    trap += j.value("trap", false);
  }
  for (const auto& e : fs::recursive_directory_iterator(sites))
    if (e.is_regular_file()) biggest = std::max(biggest, e.file_size());
  EXPECT_GT(latin1, 0);
  EXPECT_GT(bad_utf8, 0);
  EXPECT_GT(malformed, 0);
  EXPECT_GT(disallowed, 0);
  EXPECT_EQ(trap, 24);
  EXPECT_GT(biggest, 2'000'000u) << "one huge page";
}

TEST(SampleWeb, Latin1PagesDeclareTheirCharsetAndAreNotUtf8) {
  TempDir dir;
  ASSERT_TRUE(generate_sample_web(small_web(dir.path())).ok());
  int checked = 0;
  for (const auto& e : fs::directory_iterator(dir / "sites" / "hemeroteca" / "files")) {
    const std::string html = read_file(e.path());
    EXPECT_NE(html.find("charset=iso-8859-1"), std::string::npos) << e.path();
    if (html.find('\xE7') != std::string::npos) {  // "ç" in Latin-1
      EXPECT_FALSE(crawler::is_valid_utf8(html)) << e.path();
      ++checked;
    }
  }
  EXPECT_GT(checked, 0);
}

TEST(SampleWeb, SeedsAreTenRelevantPagesPerScope) {
  TempDir dir;
  ASSERT_TRUE(generate_sample_web(small_web(dir.path())).ok());
  const auto truth = load_truth(dir / "truth.jsonl");
  for (const std::string scope : {"1939-1945", "2001"}) {
    const std::string seeds = read_file(dir / ("seeds-" + scope + ".txt"));
    std::istringstream in(seeds);
    int n = 0;
    for (std::string url; std::getline(in, url); ++n) {
      ASSERT_TRUE(truth.count(url)) << url;
      EXPECT_TRUE(truth.at(url)["relevant"][scope].get<bool>()) << url << " is a seed for " << scope;
      EXPECT_FALSE(truth.at(url).value("disallowed", false)) << url;
    }
    EXPECT_EQ(n, 10) << scope;
  }
  const std::string hosts = read_file(dir / "hosts.txt");
  EXPECT_NE(hosts.find("http://127.0.0.2:18123/ enciclopedia"), std::string::npos);
  EXPECT_NE(hosts.find("http://127.0.0.8:18123/ portal"), std::string::npos);
}

TEST(SampleWeb, NewsPagesCarryTheirPublicationDateAndYesterdayMeansTheDayBefore) {
  TempDir dir;
  ASSERT_TRUE(generate_sample_web(small_web(dir.path())).ok());
  const auto truth = load_truth(dir / "truth.jsonl");
  int checked = 0;
  for (const auto& [url, j] : truth) {
    if (j.value("site", "") != "jornal" || !j.contains("dct")) continue;
    const std::string dct = j["dct"];
    // The page itself says so in <meta> and <time>.
    const std::string routes = read_file(dir / "sites" / "jornal" / "routes.tsv");
    const std::string path = url.substr(url.find('/', 7));
    const std::size_t at = routes.find(path + "\t200\t");
    ASSERT_NE(at, std::string::npos) << path;
    const std::size_t file_at = routes.find("files/", at);
    const std::string file = routes.substr(file_at, routes.find('\n', file_at) - file_at);
    const std::string html = read_file(dir / "sites" / "jornal" / file);
    EXPECT_NE(html.find("article:published_time\" content=\"" + dct), std::string::npos) << url;
    EXPECT_NE(html.find("<time datetime=\"" + dct + "\">"), std::string::npos) << url;
    // "Ontem"-style openings: the first content paragraph is the day before.
    if (html.find("<p>Ontem, ") != std::string::npos || html.find("<p>No dia de ontem, ") != std::string::npos) {
      const auto d = temporal::Date::parse(dct);
      ASSERT_TRUE(d);
      const std::string before = temporal::Date::from_day_number(d->day_number() - 1).to_string();
      bool found = false;
      for (const auto& s : j["sections"])
        if (!s.value("boilerplate", false) && !s["periods"].empty() && s["periods"][0][0] == before &&
            s["periods"][0][1] == before)
          found = true;
      EXPECT_TRUE(found) << url << ": no paragraph dated " << before;
      ++checked;
    }
  }
  EXPECT_GT(checked, 0);
}

TEST(SampleWebCorpus, ATitleWithADateIsRejectedNamingFileAndLine) {
  TempDir dir;
  fs::copy(corpora(), dir.path(), fs::copy_options::recursive);
  write_file(dir / "facts" / "zz-bad.txt", "@weight 1\n\n1944-06-06 | Dia D em 1944 | os Aliados desembarcaram\n");
  auto c = SampleCorpus::load(dir.path().string());
  ASSERT_FALSE(c.ok());
  EXPECT_NE(c.status().message().find("zz-bad.txt:3"), std::string::npos) << c.status().message();
}

TEST(SampleWebCorpus, DateSpecsWidenToTheirGranularity) {
  auto month = DateSpec::parse("1944-06");
  ASSERT_TRUE(month.ok());
  EXPECT_EQ(month->span.first, (temporal::Date{1944, 6, 1}));
  EXPECT_EQ(month->span.last, (temporal::Date{1944, 6, 30}));
  auto years = DateSpec::parse("1939..1945");
  ASSERT_TRUE(years.ok());
  EXPECT_EQ(years->grain, DateGrain::YearRange);
  EXPECT_EQ(years->span.last, (temporal::Date{1945, 12, 31}));
  EXPECT_FALSE(DateSpec::parse("1945..1939").ok());
  EXPECT_FALSE(DateSpec::parse("junho").ok());
}

}  // namespace
}  // namespace cronista::sampleweb
