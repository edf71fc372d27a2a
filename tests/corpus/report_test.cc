// The collection report: figures of every table checked against a small
// database filled directly through AnalysisStore, whose counts the test
// knows by construction, and against a generated collection counted in the
// test itself; the JSON key structure of `cronista report`.
#include "corpus/report.h"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <random>

#include "store/analysis_store.h"
#include "test_support.h"

namespace cronista::corpus {
namespace {

using store::AnalysisStore;
using store::Database;
using store::DocumentInfo;
using store::LinkInfo;
using store::StoredAnalysis;
using temporal::Chronon;
using temporal::Date;
using temporal::Segment;
using temporal::TemporalExpression;

// One document to store: text, expressions at given offsets, segments.
struct Fixture {
  DocumentInfo info;
  temporal::TextDocument doc;
  std::vector<TemporalExpression> expressions;
  std::vector<Segment> segments;
  std::vector<LinkInfo> links;
};

TemporalExpression expression_at(const std::string& text, std::size_t start, std::size_t len, bool resolved) {
  TemporalExpression e;
  e.start = start;
  e.end = start + len;
  e.text = text.substr(start, len);
  e.resolved = resolved;
  return e;
}

void store_all(const std::string& path, std::vector<Fixture>& docs) {
  auto db = Database::open(path);
  ASSERT_TRUE(db.ok()) << db.status().message();
  ASSERT_TRUE(AnalysisStore::ensure_schema(*db).ok());
  store::Transaction t(*db);
  for (Fixture& f : docs) {
    StoredAnalysis a{&f.doc, &f.expressions, &f.segments, f.links, {}};
    auto id = AnalysisStore::put(*db, f.info, a);
    ASSERT_TRUE(id.ok()) << id.status().message();
  }
  ASSERT_TRUE(t.commit().ok());
}

// A 400-byte Portuguese text made of a repeated sentence.
std::string text_of(std::size_t size) {
  const std::string s = "Em maio de 2003 a cidade de Braga recebeu a feira do livro. ";
  std::string out;
  while (out.size() < size) out += s;
  out.resize(size);
  return out;
}

// Four documents whose figures are worked out by hand in the test below.
std::vector<Fixture> hand_made_collection() {
  std::vector<Fixture> docs(4);
  // A: creation date from Last-Modified, 3 expressions (2 resolved) in the
  // 1st, 2nd and 4th quartiles, two dated segments, a link to B (inside) in
  // the first segment and one outside in the second.
  {
    Fixture& f = docs[0];
    f.info = DocumentInfo{"a", "http://a.pt/", "test", Date{2003, 5, 25}, "wpt03-last-modified", "A", 400};
    f.doc = temporal::plain_text_document(text_of(400));
    f.expressions = {expression_at(f.doc.text, 10, 5, true), expression_at(f.doc.text, 150, 5, true),
                     expression_at(f.doc.text, 390, 5, false)};
    Segment s0, s1;
    s0.start = 0, s0.end = 200;
    s0.chronons = {Chronon::of_day(2003, 5, 10), Chronon::of_day(2003, 5, 20)};
    s1.start = 200, s1.end = 400;
    s1.chronons = {Chronon::of_year(1944)};
    f.segments = {s0, s1};
    f.links = {LinkInfo{"http://b.pt/", "B", 50, 0, std::nullopt},
               LinkInfo{"http://fora.example/", "fora", 300, 1, std::nullopt}};
  }
  // B: creation date from HTTP, no expressions, one undated segment.
  {
    Fixture& f = docs[1];
    f.info = DocumentInfo{"b", "http://b.pt/", "test", Date{2003, 6, 1}, "http-last-modified", "B", 100};
    f.doc = temporal::plain_text_document(text_of(100));
    Segment s;
    s.end = 100;
    f.segments = {s};
  }
  // C: no URL, no date, 12 expressions all resolved; one segment with a
  // month-only, a month+day and a year+month chronon.
  {
    Fixture& f = docs[2];
    f.info = DocumentInfo{"c", "", "test", std::nullopt, "", "C", 800};
    f.doc = temporal::plain_text_document(text_of(800));
    for (std::size_t i = 0; i < 12; ++i) f.expressions.push_back(expression_at(f.doc.text, 600 + 10 * i, 5, true));
    Segment s;
    s.start = 600, s.end = 800;
    Chronon month;
    month.month = 12;
    Chronon month_day = month;
    month_day.day = 25;
    s.chronons = {month, month_day, Chronon::of_month(1975, 4)};
    f.segments = {s};
  }
  // D: retrieval date only (WARC-Date), nothing temporal, 15 links outside.
  {
    Fixture& f = docs[3];
    f.info = DocumentInfo{"d", "http://d.pt/", "test", Date{2003, 7, 1}, "warc-date", "D", 200};
    f.doc = temporal::plain_text_document(text_of(200));
    for (std::size_t i = 0; i < 15; ++i)
      f.links.push_back(LinkInfo{"http://x.example/" + std::to_string(i), "x", 10 * i, std::nullopt, std::nullopt});
  }
  return docs;
}

const ReportValue& cell(const CollectionReport& r, const std::string& table, const std::string& row,
                        std::size_t column = 0) {
  static const ReportValue kMissing = std::string("missing");
  const ReportTable* t = r.table(table);
  if (!t) return kMissing;
  for (const ReportRow& rr : t->rows)
    if (rr.name == row) return column < rr.values.size() ? rr.values[column] : kMissing;
  return kMissing;
}
std::int64_t count(const CollectionReport& r, const std::string& table, const std::string& row, std::size_t col = 0) {
  const ReportValue& v = cell(r, table, row, col);
  EXPECT_TRUE(std::holds_alternative<std::int64_t>(v)) << table << " / " << row;
  return std::holds_alternative<std::int64_t>(v) ? std::get<std::int64_t>(v) : -1;
}
double measure(const CollectionReport& r, const std::string& table, const std::string& row, std::size_t col = 0) {
  const ReportValue& v = cell(r, table, row, col);
  EXPECT_TRUE(std::holds_alternative<double>(v)) << table << " / " << row;
  return std::holds_alternative<double>(v) ? std::get<double>(v) : -1;
}

class HandMadeReport : public ::testing::Test {
 protected:
  void SetUp() override {
    path_ = (tmp_ / "c.db").string();
    auto docs = hand_made_collection();
    store_all(path_, docs);
    auto db = Database::open(path_, true);
    ASSERT_TRUE(db.ok());
    auto r = compute_report(*db);
    ASSERT_TRUE(r.ok()) << r.status().message();
    report_ = std::move(r.value());
  }
  testing::TempDir tmp_;
  std::string path_;
  CollectionReport report_;
};

TEST_F(HandMadeReport, HasEveryTableOfTheMethod) {
  for (int i = 1; i <= 16; ++i) EXPECT_NE(report_.table("6." + std::to_string(i)), nullptr) << "6." << i;
  EXPECT_EQ(report_.table("8.2"), nullptr);
  ASSERT_FALSE(report_.notes.empty());
  EXPECT_NE(report_.notes[0].find("no crawl tables"), std::string::npos);
}

TEST_F(HandMadeReport, CountsDocumentsWithTemporalInformationAndCreationDates) {
  EXPECT_EQ(count(report_, "6.1", "with temporal information"), 2);  // A and C
  EXPECT_EQ(count(report_, "6.1", "without temporal information"), 2);
  EXPECT_DOUBLE_EQ(measure(report_, "6.1", "with temporal information", 1), 50.0);
  EXPECT_EQ(count(report_, "6.2", "with creation date"), 2);  // A and B; D has a retrieval date only
  EXPECT_EQ(count(report_, "6.2", "without creation date"), 2);
  EXPECT_EQ(count(report_, "6.2", "with a retrieval date only"), 1);
}

TEST_F(HandMadeReport, AveragesExpressionsAndResolution) {
  EXPECT_DOUBLE_EQ(measure(report_, "6.3", "per document", 2), 15.0 / 4);
  EXPECT_DOUBLE_EQ(measure(report_, "6.3", "per document with temporal information", 2), 15.0 / 2);
  EXPECT_EQ(count(report_, "6.4", "resolved"), 14);
  EXPECT_EQ(count(report_, "6.4", "unresolved"), 1);
  EXPECT_DOUBLE_EQ(measure(report_, "6.5", "per document with temporal information", 2), 14.0 / 2);
}

TEST_F(HandMadeReport, BinsDocumentsByNumberOfExpressions) {
  EXPECT_EQ(count(report_, "6.6", "0"), 2);
  EXPECT_EQ(count(report_, "6.6", "3"), 1);
  EXPECT_EQ(count(report_, "6.6", "9 or more"), 1);
  EXPECT_EQ(count(report_, "6.6", "1"), 0);
}

TEST_F(HandMadeReport, PlacesExpressionsByQuartile) {
  // A: 10/400, 150/400, 390/400; C: 600..710 of 800 → all in the 4th quartile.
  EXPECT_EQ(count(report_, "6.7", "1st quartile"), 1);
  EXPECT_EQ(count(report_, "6.7", "2nd quartile"), 1);
  EXPECT_EQ(count(report_, "6.7", "3rd quartile"), 0);
  EXPECT_EQ(count(report_, "6.7", "4th quartile"), 13);
}

TEST_F(HandMadeReport, ClassifiesGranularityOfSegmentDates) {
  EXPECT_EQ(count(report_, "6.8", "complete"), 2);
  EXPECT_EQ(count(report_, "6.8", "year"), 1);
  EXPECT_EQ(count(report_, "6.8", "year+month"), 1);
  EXPECT_EQ(count(report_, "6.8", "month"), 1);
  EXPECT_EQ(count(report_, "6.8", "month+day"), 1);
  EXPECT_EQ(count(report_, "6.8", "day"), 0);
}

TEST_F(HandMadeReport, MeasuresSegments) {
  EXPECT_EQ(count(report_, "6.9", "segments"), 4);
  EXPECT_EQ(count(report_, "6.9", "dated segments"), 3);
  EXPECT_DOUBLE_EQ(measure(report_, "6.9", "mean dates per segment"), 6.0 / 3);
  // Spans: A/s0 10 days, A/s1 0, C 0 (only 1975-04 is placeable).
  EXPECT_DOUBLE_EQ(measure(report_, "6.9", "mean span in days"), 10.0 / 3);
  // Midpoints: 100/400, 300/400, 700/800.
  EXPECT_DOUBLE_EQ(measure(report_, "6.9", "mean relative position"), (0.25 + 0.75 + 0.875) / 3);
  EXPECT_EQ(count(report_, "6.10", "2nd quartile"), 1);
  EXPECT_EQ(count(report_, "6.10", "4th quartile"), 2);
}

TEST_F(HandMadeReport, FollowsLinksInsideTheCollection) {
  EXPECT_EQ(count(report_, "6.11", "inside the collection"), 1);
  EXPECT_EQ(count(report_, "6.11", "outside the collection"), 16);
  // A→B: B created 2003-06-01, the link's segment speaks of 2003-05-10…20.
  EXPECT_EQ(count(report_, "6.12", "links considered"), 1);
  EXPECT_DOUBLE_EQ(measure(report_, "6.12", "mean difference in days"), 12.0);
  EXPECT_EQ(count(report_, "6.12", "minimum difference in days"), 12);
  EXPECT_EQ(count(report_, "6.13", "0"), 2);
  EXPECT_EQ(count(report_, "6.13", "1-10"), 1);
  EXPECT_EQ(count(report_, "6.13", "11-20"), 1);
  // A: 50/400, 300/400; D: 0..140 of 200.
  EXPECT_EQ(count(report_, "6.14", "1st quartile"), 1 + 5);
  EXPECT_EQ(count(report_, "6.14", "2nd quartile"), 5);
  EXPECT_EQ(count(report_, "6.14", "3rd quartile"), 5);
  EXPECT_EQ(count(report_, "6.14", "4th quartile"), 1);  // 300/400 starts the 4th
}

TEST_F(HandMadeReport, BinsContentTimeAndCreationDates) {
  // Reference year 2003 (latest creation date). A: years {2003, 2003, 1944}
  // → median 2003 (recent years), mentions 1940s too; C: only 1975 placeable.
  EXPECT_EQ(count(report_, "6.15", "recent years"), 1);
  EXPECT_EQ(count(report_, "6.15", "1970s"), 1);
  EXPECT_EQ(count(report_, "6.15", "1940s"), 0);
  EXPECT_EQ(count(report_, "6.15", "1940s", 2), 1);
  EXPECT_EQ(count(report_, "6.15", "no content time"), 2);
  EXPECT_EQ(count(report_, "6.15", "recent years", 3), 2000);
  EXPECT_EQ(count(report_, "6.15", "recent years", 4), 2003);
  EXPECT_EQ(count(report_, "6.16", "2003"), 2);
  EXPECT_EQ(count(report_, "6.16", "without creation date"), 2);
}

TEST_F(HandMadeReport, CommandPrintsJsonKeyedByTableNumber) {
  auto r = testing::run_cronista({"report", "--db", path_, "--format", "json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  auto j = nlohmann::json::parse(r.out, nullptr, false);
  ASSERT_FALSE(j.is_discarded()) << r.out;
  for (int i = 1; i <= 16; ++i) {
    const std::string key = "6." + std::to_string(i);
    ASSERT_TRUE(j.contains(key)) << key;
    ASSERT_TRUE(j[key].is_object()) << key;
    for (auto& [row, cells] : j[key].items()) EXPECT_TRUE(cells.is_object()) << key << " / " << row;
  }
  EXPECT_FALSE(j.contains("8.2"));
  EXPECT_EQ(j["6.1"]["with temporal information"]["documents"], 2);
  EXPECT_EQ(j["6.6"]["9 or more"]["documents"], 1);
  EXPECT_EQ(j["6.11"]["inside the collection"]["links"], 1);
}

TEST_F(HandMadeReport, HtmlIsOneSelfContainedPageWithCharts) {
  const std::string out = (tmp_ / "r.html").string();
  auto r = testing::run_cronista({"report", "--db", path_, "--format", "html", "--out", out});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const std::string html = testing::read_file(out);
  EXPECT_NE(html.find("<svg"), std::string::npos);
  EXPECT_NE(html.find("content time"), std::string::npos);
  EXPECT_NE(html.find("6.16"), std::string::npos);
  EXPECT_EQ(html.find("<script src"), std::string::npos);
  EXPECT_EQ(html.find("<link "), std::string::npos);
  EXPECT_EQ(html.find("http://cdn"), std::string::npos);
}

TEST(ReportCommand, MarkdownIsTheDefault) {
  testing::TempDir tmp;
  auto docs = hand_made_collection();
  store_all((tmp / "c.db").string(), docs);
  auto r = testing::run_cronista({"report", "--db", (tmp / "c.db").string()});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("## 6.1 "), std::string::npos);
  EXPECT_NE(r.out.find("| with temporal information | 2 | 50.00% |"), std::string::npos) << r.out;
}

TEST(ReportCommand, MissingDatabaseIsARuntimeErrorNamingIt) {
  auto r = testing::run_cronista({"report", "--db", "/nonexistent/x.db"});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find("/nonexistent/x.db"), std::string::npos);
  EXPECT_EQ(testing::count_lines(r.err), 1);
}

TEST(ReportCommand, ADatabaseWithoutAnalysisTablesIsRefused) {
  testing::TempDir tmp;
  {
    auto db = Database::open((tmp / "other.db").string());
    ASSERT_TRUE(db.ok());
    ASSERT_TRUE(db->exec("CREATE TABLE t(x)").ok());
  }
  auto r = testing::run_cronista({"report", "--db", (tmp / "other.db").string()});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find("no analysis tables"), std::string::npos) << r.err;
}

TEST(ReportCommand, AnEmptyCollectionStillHasEveryTable) {
  testing::TempDir tmp;
  std::vector<Fixture> none;
  store_all((tmp / "e.db").string(), none);
  for (const char* format : {"md", "html", "json"}) {
    auto r = testing::run_cronista({"report", "--db", (tmp / "e.db").string(), "--format", format});
    ASSERT_EQ(r.exit_code, 0) << format << ": " << r.err;
    EXPECT_NE(r.out.find("6.16"), std::string::npos) << format;
  }
  auto j = nlohmann::json::parse(testing::run_cronista({"report", "--db", (tmp / "e.db").string(), "--format", "json"}).out);
  EXPECT_EQ(j["6.1"]["all documents"]["documents"], 0);
  EXPECT_TRUE(j["6.3"]["per document"]["mean"].is_null());
}

// A generated collection: the test counts expressions per document and
// quartiles itself while generating, then compares.
TEST(GeneratedReport, MatchesCountsKeptWhileGenerating) {
  testing::TempDir tmp;
  std::mt19937 rng(20031);
  std::vector<Fixture> docs(60);
  std::array<std::int64_t, 10> by_count{};
  std::array<std::int64_t, 4> by_quartile{};
  std::int64_t resolved = 0, total = 0;
  for (std::size_t i = 0; i < docs.size(); ++i) {
    Fixture& f = docs[i];
    f.info.key = "gen-" + std::to_string(i);
    f.doc = temporal::plain_text_document(text_of(100 + rng() % 900));
    const std::size_t n = rng() % 14;
    for (std::size_t k = 0; k < n; ++k) {
      const std::size_t start = rng() % (f.doc.text.size() - 5);
      const bool ok = rng() % 5 != 0;
      f.expressions.push_back(expression_at(f.doc.text, start, 5, ok));
      resolved += ok;
      ++total;
      ++by_quartile[std::min<std::size_t>(3, 4 * start / f.doc.text.size())];
    }
    ++by_count[std::min<std::size_t>(n, 9)];
  }
  store_all((tmp / "g.db").string(), docs);
  auto db = Database::open((tmp / "g.db").string(), true);
  ASSERT_TRUE(db.ok());
  auto r = compute_report(*db);
  ASSERT_TRUE(r.ok()) << r.status().message();
  for (std::size_t i = 0; i < 10; ++i)
    EXPECT_EQ(count(*r, "6.6", i == 9 ? "9 or more" : std::to_string(i)), by_count[i]) << i;
  static const char* kQ[] = {"1st quartile", "2nd quartile", "3rd quartile", "4th quartile"};
  for (std::size_t q = 0; q < 4; ++q) EXPECT_EQ(count(*r, "6.7", kQ[q]), by_quartile[q]) << q;
  EXPECT_EQ(count(*r, "6.4", "resolved"), resolved);
  EXPECT_EQ(count(*r, "6.4", "all expressions"), total);
}

}  // namespace
}  // namespace cronista::corpus
