// A temporal crawl of a period before and after the year 1 (`--from BC0100
// --to 0100`), end to end through the command line: a site about Roman and
// Greek history of our own writing, the segments about the late Republic and
// Augustus in scope, those about classical Athens, the Bronze Age or a museum
// opened in 1950 out of it, and the report naming the years as "44 BC".
#include <gtest/gtest.h>

#include "crawler/crawl_support.h"

namespace cronista::crawler {
namespace {

using testing::html;
using testing::Site;

void build_site(Site& site) {
  site.page("/", html("<p>Júlio César foi assassinado em 44 a.C. no Senado, e o seu herdeiro contou-o "
                      "<a href=\"/augusto\">na vida de Augusto</a>.</p>"
                      "<p>No século V a.C. Atenas viveu o seu apogeu, como conta <a href=\"/atenas\">a história "
                      "de Atenas</a>.</p>"
                      "<p>Em 1950 abriu em Roma o museu da civilização romana.</p>",
                      "Roma antiga"));
  site.page("/augusto", html("<p>Augusto governou Roma de 27 a.C. a 14 d.C.</p>"
                             "<p>O segundo milénio a.C. tinha visto nascer os palácios de Creta.</p>",
                             "Augusto"));
  site.page("/atenas", html("<p>Péricles morreu em 429 a.C.</p>", "Atenas"));
}

TEST(AncientHistoryCrawl, ThePeriodAcrossYearOneKeepsTheSegmentsInsideItAndFollowsTheirLinks) {
  Site site;
  build_site(site);
  site.start();
  testing::TempDir tmp;
  const std::string db = (tmp / "roma.db").string();
  auto r = testing::run_cronista({"crawl", "--from", "BC0100", "--to", "0100", "--db", db, site.url("/"), "--delay-ms",
                                  "0", "--retries", "0"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.err.find("crawl of BC0100..0100 (100 BC to 100) from 1 seed"), std::string::npos) << r.err;
  // The link in the sentence about 44 BC is followed; the one about the fifth century BC is not.
  EXPECT_EQ(site.server().count("/augusto"), 1);
  EXPECT_EQ(site.server().count("/atenas"), 0);
  const auto segments = testing::rows(db, "SELECT s.in_scope, group_concat(c.value, ' ') FROM segments s "
                                 "JOIN chronons c ON c.segment_id = s.id GROUP BY s.id ORDER BY s.doc_id, s.ordinal");
  EXPECT_EQ(segments, (std::vector<std::string>{"1|BC0044-XX-XX", "0|BC0500-XX-XX BC0401-XX-XX", "0|1950-XX-XX",
                                                "1|BC0027-XX-XX 0014-XX-XX", "0|BC2000-XX-XX BC1001-XX-XX"}));
  // The report names the period and the years as a reader writes them.
  auto md = testing::run_cronista({"report", "--db", db});
  ASSERT_EQ(md.exit_code, 0) << md.err;
  EXPECT_NE(md.out.find("100 BC to 100"), std::string::npos) << md.out;
  auto page = testing::run_cronista({"report", "--db", db, "--format", "html"});
  ASSERT_EQ(page.exit_code, 0) << page.err;
  EXPECT_NE(page.out.find("100 BC to 100"), std::string::npos);
  EXPECT_NE(page.out.find("BC</text>"), std::string::npos) << "a year before 1 on the timeline's axis";
  EXPECT_EQ(page.out.find(">-"), std::string::npos) << "no negative year shown";
  // The passages found, grouped under the year they speak of.
  auto passages = testing::run_cronista({"export", "--db", db, "--in-scope", "--format", "html"});
  ASSERT_EQ(passages.exit_code, 0) << passages.err;
  EXPECT_NE(passages.out.find("in the crawl's period 100 BC to 100"), std::string::npos) << passages.out;
  EXPECT_NE(passages.out.find("<section id=\"yBC0044\">\n<h2>44 BC"), std::string::npos) << passages.out;
  EXPECT_EQ(passages.out.find("século V a.C."), std::string::npos) << "out of scope, not exported";
}

TEST(AncientHistoryCrawl, AYearBeforeChristSpelledOtherwiseIsABadUsageWithTheAcceptedForm) {
  Site site;
  build_site(site);
  site.start();
  testing::TempDir tmp;
  const std::string db = (tmp / "roma.db").string();
  auto r = testing::run_cronista({"crawl", "--from", "100a.C.", "--to", "0100", "--db", db, site.url("/")});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("--from '100a.C.'"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("the year 100 before Christ is written BC0100"), std::string::npos) << r.err;
  EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
  EXPECT_FALSE(std::filesystem::exists(db)) << "nothing created by a refused command";
  EXPECT_EQ(site.server().count("/"), 0);
}

}  // namespace
}  // namespace cronista::crawler
