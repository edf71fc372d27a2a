// The HTML report as a browser renders it: headless Chromium (Debian's
// `chromium`) loads the report of a real crawl and a script added by the test
// measures the laid-out page. Skipped, saying why, where Chromium is missing.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <nlohmann/json.hpp>

#include "../crawler/test_server.h"
#include "corpus/report.h"
#include "store/analysis_store.h"
#include "test_support.h"

namespace cronista::testing {
namespace {

std::string chromium() {
  for (const char* p : {"/usr/bin/chromium", "/usr/bin/chromium-browser", "/usr/bin/google-chrome"})
    if (std::filesystem::exists(p)) return p;
  return {};
}

// Measures, in the browser, what the tests assert on; the answer is put in
// the page as JSON (numbers and booleans only) for --dump-dom to carry out.
constexpr const char* kMeasure = R"js(<script>
(() => {
const box = e => e.getBoundingClientRect();
const r = {inner: innerWidth, scroll: document.documentElement.scrollWidth, svgs: [], pairs: []};
for (const s of document.querySelectorAll('svg')) {
  const b = box(s), c = box(s.closest('.pair > div') || document.querySelector('main'));
  r.svgs.push({w: b.width, h: b.height, left: b.left, right: b.right, limit: c.right,
               ticks: s.querySelectorAll('text.tick').length, titles: s.querySelectorAll('text.axis-title').length});
}
for (const p of document.querySelectorAll('.pair')) {
  const [a, b] = p.children;
  r.pairs.push({side: box(b).left >= box(a).right - 1, top: Math.abs(box(b).top - box(a).top)});
}
const topOf = q => { const e = document.querySelector(q); return e ? box(e).top : -1; };
r.card = topOf('#summary'); r.contents = topOf('#contents'); r.firstH2 = topOf('main h2'); r.crawl = topOf('#crawl');
r.t61 = topOf('#t6\\.1');
const text = document.body.innerText;
r.judgement = text.includes("the crawl's own judgement");
r.legends = document.querySelectorAll('figure.chart .legend li').length;
r.charts = document.querySelectorAll('figure.chart').length;
r.ticks = [...document.querySelectorAll('svg text')].map(t => t.textContent).filter(t => / BC/.test(t)).length;
r.overlap = 0;
const labels = [...document.querySelectorAll('svg text.tick')].filter(t => !t.getAttribute('transform')).map(box);
for (let i = 1; i < labels.length; ++i) {
  const a = labels[i - 1], b = labels[i];
  if (a.width && b.width && Math.abs(a.top - b.top) < 1 && b.left < a.right - 1) ++r.overlap;
}
const pre = document.createElement('pre'); pre.id = 'measure'; pre.textContent = JSON.stringify(r);
document.body.appendChild(pre);
})();
</script>)js";

class ReportBrowserTest : public ::testing::Test {
 protected:
  void SetUp() override {
    browser_ = chromium();
    if (browser_.empty()) GTEST_SKIP() << "headless Chromium is not installed (apt-get install chromium)";
    auto probe = run_cronista({"tag"}, "Em 2003.");
    if (probe.exit_code != 0) GTEST_SKIP() << "the tagger does not load: " << probe.err;
    const auto [from, to] = serve();
    server_.start();
    const std::string db = (tmp_ / "crawl.db").string();
    auto c = run_cronista({"crawl", "--quiet", "--from", from, "--to", to, "--delay-ms", "0", "--db", db,
                           server_.url("/")});
    ASSERT_EQ(c.exit_code, 0) << c.err;
    auto r = run_cronista({"report", "--db", db, "--format", "html"});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    std::string page = r.out;
    page.insert(page.rfind("</body>"), kMeasure);
    write_file(tmp_ / "report.html", page);
  }

  void page(const std::string& path, const std::string& title, const std::string& body) {
    const std::string content =
        "<html><head><title>" + title + "</title></head><body>" + body + "</body></html>";
    server_.http().Get(path, [content](const httplib::Request&, httplib::Response& res) {
      res.set_content(content, "text/html; charset=utf-8");
    });
  }

  // The site to crawl, and the crawl's period.
  virtual std::pair<std::string, std::string> serve() {
    page("/", "Guerra",
         "<p>Em setembro de 1939 começou a guerra. <a href=\"/a\">Invasão</a> <a href=\"/b\">Libertação</a></p>");
    page("/a", "Invasão",
         "<p>A 1 de setembro de 1939 a Polónia foi invadida.</p><p>Em 1950 escreveu-se a história.</p>");
    page("/b", "Paris", "<p>Em agosto de 1944 Paris foi libertada; no ano seguinte a guerra acabou.</p>");
    return {"1939", "1945"};
  }

  // The page laid out in a window `width` pixels wide.
  nlohmann::json measure(int width) {
    const auto out = tmp_ / ("dom-" + std::to_string(width) + ".html");
    const std::string command =
        "timeout 90 " + browser_ +
        " --headless --no-sandbox --disable-gpu --disable-background-networking --disable-component-update"
        " --no-first-run --disable-sync --user-data-dir=" + (tmp_ / ("profile-" + std::to_string(width))).string() +
        " --window-size=" + std::to_string(width) + ",1000 --dump-dom file://" + (tmp_ / "report.html").string() +
        " > " + out.string() + " 2>/dev/null";
    const int status = std::system(command.c_str());
    EXPECT_EQ(status, 0) << command;
    const std::string dom = read_file(out);
    const auto start = dom.find("<pre id=\"measure\">"), end = dom.find("</pre>", start);
    if (start == std::string::npos || end == std::string::npos) {
      ADD_FAILURE() << "no measurement in the rendered page: " << dom.substr(0, 300);
      return nlohmann::json::object();
    }
    const std::size_t from = start + std::string("<pre id=\"measure\">").size();
    return nlohmann::json::parse(dom.substr(from, end - from));
  }

  std::string browser_;
  TestServer server_;
  TempDir tmp_;
};

TEST_F(ReportBrowserTest, AtDesktopWidthEveryChartFitsItsColumnBesideItsTable) {
  const auto m = measure(1400);
  ASSERT_FALSE(m.empty());
  EXPECT_LE(m["scroll"].get<double>(), m["inner"].get<double>()) << "the page scrolls sideways";
  ASSERT_GE(m["svgs"].size(), 5u) << m.dump();
  for (const auto& s : m["svgs"]) {
    EXPECT_GT(s["w"].get<double>(), 200) << s.dump();
    EXPECT_LE(s["right"].get<double>(), s["limit"].get<double>() + 1) << "a chart overflows its column: " << s.dump();
    EXPECT_GE(s["ticks"].get<int>(), 3) << "ticked axes: " << s.dump();
    EXPECT_EQ(s["titles"].get<int>(), 2) << "both axes titled: " << s.dump();
  }
  ASSERT_FALSE(m["pairs"].empty());
  for (const auto& p : m["pairs"]) {
    EXPECT_TRUE(p["side"].get<bool>()) << "chart beside its table: " << p.dump();
    EXPECT_LT(p["top"].get<double>(), 2) << p.dump();
  }
  EXPECT_GE(m["legends"].get<int>(), m["charts"].get<int>()) << "a visible legend per chart";
}

TEST_F(ReportBrowserTest, TheSummaryAndContentsComeFirstThenTheCrawlThenTheTables) {
  const auto m = measure(1400);
  ASSERT_FALSE(m.empty());
  EXPECT_GE(m["card"].get<double>(), 0);
  EXPECT_LT(m["card"].get<double>(), m["contents"].get<double>());
  EXPECT_LT(m["contents"].get<double>(), m["firstH2"].get<double>());
  EXPECT_EQ(m["firstH2"].get<double>(), m["crawl"].get<double>()) << "a crawl's own figures come first";
  EXPECT_LT(m["crawl"].get<double>(), m["t61"].get<double>());
  EXPECT_TRUE(m["judgement"].get<bool>()) << "the page says 'relevant' is the crawl's own judgement";
}

TEST_F(ReportBrowserTest, OnAPhoneThePageDoesNotScrollSideways) {
  const auto m = measure(400);
  ASSERT_FALSE(m.empty());
  EXPECT_LE(m["scroll"].get<double>(), m["inner"].get<double>());
  for (const auto& s : m["svgs"]) EXPECT_LE(s["right"].get<double>(), m["inner"].get<double>()) << s.dump();
}

// A crawl of ancient history: the timeline of the years the content speaks of
// runs from before the year 1 to after it, its axis names the years "44 BC",
// and the page still fits the window with its labels apart.
class AncientReportBrowserTest : public ReportBrowserTest {
 protected:
  std::pair<std::string, std::string> serve() override {
    page("/", "Roma",
         "<p>Júlio César foi assassinado em 44 a.C.; <a href=\"/a\">Augusto</a> sucedeu-lhe.</p>"
         "<p>Em 31 a.C. deu-se a batalha de Áccio.</p><p>Em 9 d.C. as legiões de Varo caíram na Germânia.</p>");
    page("/a", "Augusto",
         "<p>Augusto governou de 27 a.C. a 14 d.C.</p><p>Em 2 a.C. recebeu o título de pai da pátria.</p>"
         "<p>No ano 14 d.C. morreu em Nola.</p>");
    return {"BC0100", "0100"};
  }
};

TEST_F(AncientReportBrowserTest, TheTimelineNamesYearsBeforeOneAndFitsTheWindow) {
  const auto m = measure(1400);
  ASSERT_FALSE(m.empty());
  EXPECT_LE(m["scroll"].get<double>(), m["inner"].get<double>()) << "the page scrolls sideways";
  EXPECT_GE(m["ticks"].get<int>(), 2) << "years before 1 named on an axis: " << m.dump();
  EXPECT_EQ(m["overlap"].get<int>(), 0) << "axis labels overlap: " << m.dump();
  for (const auto& s : m["svgs"]) {
    EXPECT_LE(s["right"].get<double>(), s["limit"].get<double>() + 1) << "a chart overflows its column: " << s.dump();
  }
}

// An empty database: each chart says "No data" instead of drawing blank axes.
TEST(ReportHtml, AnEmptyDatabaseSaysNoDataInsteadOfBlankCharts) {
  TempDir tmp;
  auto db = store::Database::open((tmp / "vazia.db").string());
  ASSERT_TRUE(db.ok()) << db.status().message();
  ASSERT_TRUE(store::AnalysisStore::ensure_schema(*db).ok());
  auto report = corpus::compute_report(*db);
  ASSERT_TRUE(report.ok()) << report.status().message();
  const std::string html = corpus::render_html(*report);
  EXPECT_EQ(html.find("<svg"), std::string::npos) << "no chart without data";
  EXPECT_NE(html.find("No data for “Years the content speaks of”."), std::string::npos);
  EXPECT_NE(html.find("No data for “Documents by number of temporal expressions”."), std::string::npos);
}

// A stray year far from the others (noise, or one mention of 1066) does not
// stretch the timeline: it is counted in the first or last bar, and said so.
TEST(ReportHtml, TheTimelineFoldsTheOuterYearsIntoItsEndBars) {
  corpus::CollectionReport r;
  for (int y = 1939; y <= 1945; ++y) r.reading.year_mentions[y] = 100;
  r.reading.year_mentions[1066] = 1;
  r.reading.year_mentions[4800] = 1;
  const std::string html = corpus::render_html(r);
  EXPECT_NE(html.find(">≤1939</text>"), std::string::npos) << html;
  EXPECT_NE(html.find(">≥1945</text>"), std::string::npos) << html;
  EXPECT_EQ(html.find(">1066"), std::string::npos);
  EXPECT_NE(html.find("2 mentions of years before or after the bars shown"), std::string::npos);
}

// Years before 1 on the timeline: named "44 BC", in bars cut as years are
// counted (no year 0), never as negative numbers.
TEST(ReportHtml, TheTimelineNamesYearsBeforeOne) {
  corpus::CollectionReport r;
  for (int y = -43; y <= 14; ++y) r.reading.year_mentions[y] = 10;
  std::string html = corpus::render_html(r);
  EXPECT_NE(html.find(">44 BC</text>"), std::string::npos) << html;
  // Every bar's year, in its tooltip (the axis shows every third).
  EXPECT_NE(html.find("segments speaking of the year, 1 BC: 10<"), std::string::npos) << html;
  EXPECT_NE(html.find("segments speaking of the year, 1: 10<"), std::string::npos);
  EXPECT_EQ(html.find("segments speaking of the year, 0:"), std::string::npos) << "no year 0";
  EXPECT_EQ(html.find("-43"), std::string::npos);
  corpus::CollectionReport wide;
  for (int y = -499; y <= 500; y += 7) wide.reading.year_mentions[y] = 10;
  html = corpus::render_html(wide);
  EXPECT_NE(html.find(">100–1 BC</text>"), std::string::npos) << html;
  EXPECT_NE(html.find(">1–100</text>"), std::string::npos);
}

// A span of days too long to read is also given in years.
TEST(ReportHtml, DaysTooManyToReadAreAlsoGivenInYears) {
  corpus::CollectionReport r;
  r.tables.push_back({"6.12", "Difference in days", {"value"},
                      {corpus::ReportRow{"maximum difference in days", {std::int64_t{173639}}}}, ""});
  const std::string html = corpus::render_html(r);
  EXPECT_NE(html.find("<td>173639 (≈ 475 years)</td>"), std::string::npos) << html;
}

}  // namespace
}  // namespace cronista::testing
