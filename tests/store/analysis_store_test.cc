#include "store/analysis_store.h"

#include <gtest/gtest.h>

#include "test_support.h"

namespace cronista::store {
namespace {

using temporal::Chronon;

TEST(Database, OpeningSomethingThatIsNotADatabaseNamesTheFile) {
  testing::TempDir tmp;
  testing::write_file(tmp / "junk.db", std::string(4096, 'x'));
  auto db = Database::open((tmp / "junk.db").string());
  ASSERT_FALSE(db.ok());
  EXPECT_NE(db.status().message().find("junk.db"), std::string::npos) << db.status().message();
}

TEST(AnalysisStore, RecordsTheGenreOnceAndRefusesAnotherOnALaterRun) {
  testing::TempDir tmp;
  const std::string path = (tmp / "g.db").string();
  {
    auto db = Database::open(path);
    ASSERT_TRUE(db.ok()) << db.status().message();
    ASSERT_TRUE(AnalysisStore::ensure_schema(*db).ok());
    ASSERT_TRUE(AnalysisStore::record_genre(*db, temporal::Genre::Colloquial).ok());
  }
  auto db = Database::open(path);
  ASSERT_TRUE(db.ok()) << db.status().message();
  ASSERT_TRUE(AnalysisStore::ensure_schema(*db).ok());
  auto stored = AnalysisStore::genre(*db);
  ASSERT_TRUE(stored.ok()) << stored.status().message();
  EXPECT_EQ(*stored, temporal::Genre::Colloquial);
  EXPECT_TRUE(AnalysisStore::record_genre(*db, temporal::Genre::Colloquial).ok());
  const Status other = AnalysisStore::record_genre(*db, temporal::Genre::News);
  ASSERT_FALSE(other.ok());
  EXPECT_NE(other.message().find("--genre colloquial"), std::string::npos) << other.message();
}

// A database of schema version 1 (no segment text) gains the column, empty
// for the rows already there, and stores the text of new segments.
TEST(AnalysisStore, AVersion1DatabaseGainsSegmentText) {
  testing::TempDir tmp;
  const std::string path = (tmp / "v1.db").string();
  auto db = Database::open(path);
  ASSERT_TRUE(db.ok()) << db.status().message();
  ASSERT_TRUE(db->exec("CREATE TABLE segments (id INTEGER PRIMARY KEY, doc_id INTEGER NOT NULL, ordinal INTEGER NOT "
                       "NULL, start INTEGER NOT NULL, end INTEGER NOT NULL, boilerplate INTEGER NOT NULL DEFAULT 0, "
                       "in_scope INTEGER); INSERT INTO segments VALUES (1, 1, 0, 0, 5, 0, NULL); PRAGMA user_version=1")
                  .ok());
  ASSERT_TRUE(AnalysisStore::ensure_schema(*db).ok());
  EXPECT_EQ(db->user_version(), 2);
  auto doc = temporal::plain_text_document("Em 1943 choveu.");
  std::vector<temporal::Segment> segs(1);
  segs[0].start = 3;
  segs[0].end = 7;
  StoredAnalysis a{&doc, nullptr, &segs, {}, {}};
  ASSERT_TRUE(AnalysisStore::put(*db, DocumentInfo{"d", "", "test", std::nullopt, "", "", 0}, a).ok());
  auto st = db->prepare("SELECT coalesce(text, 'NULL') FROM segments ORDER BY id");
  ASSERT_TRUE(st.ok());
  ASSERT_TRUE(st->step());
  EXPECT_EQ(st->column_text(0), "NULL");
  ASSERT_TRUE(st->step());
  EXPECT_EQ(st->column_text(0), "1943");
}

TEST(AnalysisStore, StoresADocumentWithItsSegmentsChrononsAndLinks) {
  testing::TempDir tmp;
  const std::string path = (tmp / "a.db").string();
  {
    auto db = Database::open(path);
    ASSERT_TRUE(db.ok()) << db.status().message();
    ASSERT_TRUE(AnalysisStore::ensure_schema(*db).ok());
    auto doc = temporal::plain_text_document("A 6 de junho de 1944 deu-se o desembarque.");
    std::vector<temporal::TemporalExpression> exprs(1);
    exprs[0].start = 2;
    exprs[0].end = 20;
    exprs[0].text = doc.text.substr(2, 18);
    exprs[0].value = "1944-06-06";
    exprs[0].chronons = {Chronon::of_day(1944, 6, 6)};
    std::vector<temporal::Segment> segs(1);
    segs[0].end = doc.text.size();
    segs[0].chronons = {Chronon::of_day(1944, 6, 6), Chronon::of_year(1944)};
    StoredAnalysis a{&doc, &exprs, &segs, {{"http://a/b", "b", 3, 0, true}}, {true}};
    DocumentInfo info{"doc-1", "http://a/", "test", temporal::Date{1998, 2, 13}, "meta", "Título", 123};
    Transaction t(*db);
    auto id = AnalysisStore::put(*db, info, a);
    ASSERT_TRUE(id.ok()) << id.status().message();
    ASSERT_TRUE(t.commit().ok());
    // Storing the same key again replaces it instead of duplicating it.
    ASSERT_TRUE(AnalysisStore::put(*db, info, a).ok());
  }
  auto db = Database::open(path, true);
  ASSERT_TRUE(db.ok());
  auto count = [&](const char* sql) {
    auto st = db->prepare(sql);
    EXPECT_TRUE(st.ok());
    EXPECT_TRUE(st->step());
    return st->column_int(0);
  };
  EXPECT_EQ(count("SELECT count(*) FROM documents"), 1);
  EXPECT_EQ(count("SELECT count(*) FROM expressions"), 1);
  EXPECT_EQ(count("SELECT count(*) FROM segments WHERE in_scope = 1"), 1);
  EXPECT_EQ(count("SELECT count(*) FROM chronons"), 2);
  EXPECT_EQ(count("SELECT count(*) FROM links WHERE in_scope = 1 AND segment_id IS NOT NULL"), 1);
  EXPECT_EQ(count("SELECT last_day - first_day FROM chronons WHERE value = '1944-XX-XX'"), 365);
  auto has = AnalysisStore::has_document(*db, "doc-1");
  ASSERT_TRUE(has.ok());
  EXPECT_TRUE(*has);
}

}  // namespace
}  // namespace cronista::store
