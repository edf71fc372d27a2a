// The build pipeline: every readable document stored once, in reading
// order, with its analysis; resumption; the XML output; the report over a
// built collection checked against counts the test makes itself.
//
// The pipeline is tested here with a deliberately simple tagger (every
// four-digit year 1000–2099 is a DATE on the years timeline), so that the
// test can count what must come out of the database independently of the
// real tagger's rules; the real tagger runs in build_command_test.cc.
#include "corpus/collection_builder.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <nlohmann/json.hpp>
#include <pugixml.hpp>

#include "corpus/report.h"
#include "store/database.h"
#include "test_support.h"

namespace cronista::corpus {
namespace {

using temporal::Chronon;
using temporal::TemporalExpression;

bool is_digit(char c) { return c >= '0' && c <= '9'; }

// Four-digit numbers between 1000 and 2099 not inside a longer number.
std::vector<std::pair<std::size_t, int>> years_in(std::string_view text) {
  std::vector<std::pair<std::size_t, int>> out;
  for (std::size_t i = 0; i + 4 <= text.size(); ++i) {
    if ((i > 0 && is_digit(text[i - 1])) || !is_digit(text[i])) continue;
    std::size_t j = i;
    while (j < text.size() && is_digit(text[j])) ++j;
    if (j - i == 4) {
      const int y = std::stoi(std::string(text.substr(i, 4)));
      if (y >= 1000 && y <= 2099) out.emplace_back(i, y);
    }
    i = j;
  }
  return out;
}

class YearTagger : public temporal::Tagger {
 public:
  std::vector<TemporalExpression> tag(std::string_view text, const std::optional<temporal::Date>&) const override {
    std::vector<TemporalExpression> out;
    for (auto [pos, year] : years_in(text)) {
      TemporalExpression e;
      e.start = e.harem_start = pos;
      e.end = e.harem_end = pos + 4;
      e.text = std::string(text.substr(pos, 4));
      e.value = e.text;
      e.chronons = {Chronon::of_year(year)};
      out.push_back(e);
    }
    return out;
  }
};

std::string data(const std::string& rel) { return testing::source_dir() + "/tests/data/corpus/" + rel; }

std::int64_t count(store::Database& db, const std::string& sql) {
  auto st = db.prepare(sql);
  EXPECT_TRUE(st.ok()) << st.status().message();
  if (!st.ok() || !st->step()) return -1;
  return st->column_int(0);
}

struct Built {
  BuildStats stats;
  std::vector<std::string> log;
};

Built build(const std::string& input, CollectionFormat format, const std::string& db, const std::string& xml = "",
            int threads = 2, std::size_t window = 0) {
  YearTagger tagger;
  Built b;
  BuildOptions o;
  o.input = input;
  o.format = format;
  o.db_path = db;
  o.xml_out = xml;
  o.threads = threads;
  o.window_documents = window;
  o.batch_documents = 3;
  o.progress = [&](const std::string& line) { b.log.push_back(line); };
  auto r = build_collection(o, tagger);
  EXPECT_TRUE(r.ok()) << r.status().message();
  if (r.ok()) b.stats = *r;
  return b;
}

// The JSONL test collection read independently: texts of its valid lines.
std::vector<std::string> jsonl_texts(const std::string& path) {
  std::vector<std::string> texts;
  std::istringstream in(testing::read_file(path));
  std::string line;
  while (std::getline(in, line)) {
    auto j = nlohmann::json::parse(line, nullptr, false);
    if (j.is_object() && j.contains("text") && j["text"].is_string()) texts.push_back(j["text"]);
  }
  return texts;
}

TEST(CollectionBuilder, StoresEveryReadableDocumentWithItsAnalysis) {
  testing::TempDir tmp;
  const std::string db_path = (tmp / "c.db").string();
  auto b = build(data("jsonl/noticias.jsonl"), CollectionFormat::Jsonl, db_path);
  EXPECT_EQ(b.stats.documents_built, 4u);
  EXPECT_EQ(b.stats.documents_failed, 3u);
  EXPECT_EQ(b.stats.documents_skipped, 0u);
  auto db = store::Database::open(db_path, true);
  ASSERT_TRUE(db.ok());
  EXPECT_EQ(count(*db, "SELECT count(*) FROM documents"), 4);
  std::size_t years = 0;
  for (const std::string& t : jsonl_texts(data("jsonl/noticias.jsonl"))) years += years_in(t).size();
  // The HTML document's year (2024) is in its text too.
  EXPECT_EQ(count(*db, "SELECT count(*) FROM expressions"), static_cast<std::int64_t>(years + 1));
  EXPECT_EQ(count(*db, "SELECT count(*) FROM chronons"), static_cast<std::int64_t>(years + 1));
  EXPECT_EQ(count(*db, "SELECT count(*) FROM documents WHERE dct_source = 'jsonl'"), 2);
  EXPECT_EQ(count(*db, "SELECT count(*) FROM documents WHERE key = 'noticia-6' AND title = 'Eleições'"), 1);
  // Reading order is storing order.
  auto st = db->prepare("SELECT key FROM documents ORDER BY id");
  ASSERT_TRUE(st.ok());
  std::vector<std::string> keys;
  while (st->step()) keys.push_back(st->column_text(0));
  EXPECT_EQ(keys, (std::vector<std::string>{"noticia-1", "2", "noticias.jsonl:7", "noticia-6"}));
  // Every corrupt line was reported.
  int skipped = 0;
  for (const std::string& l : b.log) skipped += l.rfind("skipped ", 0) == 0;
  EXPECT_EQ(skipped, 3);
}

TEST(CollectionBuilder, ReportsProgressWithRatesAndEta) {
  testing::TempDir tmp;
  auto b = build(data("wpt03/amostra.wpt03"), CollectionFormat::Wpt03, (tmp / "c.db").string());
  ASSERT_FALSE(b.log.empty());
  const std::string& last = b.log.back();
  EXPECT_NE(last.find("3 documents built, 0 skipped"), std::string::npos) << last;
  EXPECT_NE(last.find("docs/s"), std::string::npos) << last;
  EXPECT_NE(last.find("MB/s"), std::string::npos) << last;
  EXPECT_NE(last.find("ETA"), std::string::npos) << last;
}

TEST(CollectionBuilder, ASecondRunSkipsEverythingAlreadyBuilt) {
  testing::TempDir tmp;
  const std::string db_path = (tmp / "c.db").string();
  build(data("wpt03/amostra.wpt03"), CollectionFormat::Wpt03, db_path);
  auto again = build(data("wpt03/amostra.wpt03"), CollectionFormat::Wpt03, db_path);
  EXPECT_EQ(again.stats.documents_built, 0u);
  EXPECT_EQ(again.stats.documents_skipped, 3u);
  auto db = store::Database::open(db_path, true);
  ASSERT_TRUE(db.ok());
  EXPECT_EQ(count(*db, "SELECT count(*) FROM documents"), 3);
  EXPECT_EQ(count(*db, "SELECT count(*) FROM documents WHERE dct_source = 'wpt03-dataRec'"), 1);
  EXPECT_EQ(count(*db, "SELECT count(*) FROM documents WHERE dct = '2003-05-12'"), 1);
}

TEST(CollectionBuilder, ResumesWhereAnEarlierBuildStopped) {
  testing::TempDir tmp;
  const std::string db_path = (tmp / "c.db").string();
  std::filesystem::create_directories(tmp / "in");
  std::string all;
  for (int i = 0; i < 40; ++i)
    all += "{\"id\": \"d" + std::to_string(i) + "\", \"text\": \"Relatório de " + std::to_string(1950 + i) +
           ", revisto em " + std::to_string(1990 + i % 10) + ".\"}\n";
  // First the first half of the collection, then all of it.
  const std::size_t half = all.find("{\"id\": \"d20\"");
  testing::write_file(tmp / "in" / "a.jsonl", all.substr(0, half));
  build((tmp / "in").string(), CollectionFormat::Jsonl, db_path);
  testing::write_file(tmp / "in" / "a.jsonl", all);
  auto second = build((tmp / "in").string(), CollectionFormat::Jsonl, db_path);
  EXPECT_EQ(second.stats.documents_skipped, 20u);
  EXPECT_EQ(second.stats.documents_built, 20u);
  auto db = store::Database::open(db_path, true);
  ASSERT_TRUE(db.ok());
  EXPECT_EQ(count(*db, "SELECT count(*) FROM documents"), 40);
  EXPECT_EQ(count(*db, "SELECT count(*) FROM expressions"), 80);
}

TEST(CollectionBuilder, AKeyReadTwiceKeepsTheFirstRecord) {
  testing::TempDir tmp;
  testing::write_file(tmp / "d.jsonl",
                      "{\"id\": \"x\", \"text\": \"Primeira versão, de 1990.\"}\n"
                      "{\"id\": \"y\", \"text\": \"Outra notícia, de 1991.\"}\n"
                      "{\"id\": \"x\", \"text\": \"Segunda versão, de 2005.\"}\n");
  const std::string db_path = (tmp / "c.db").string(), xml = (tmp / "c.xml").string();
  auto b = build((tmp / "d.jsonl").string(), CollectionFormat::Jsonl, db_path, xml);
  EXPECT_EQ(b.stats.documents_built, 2u);
  EXPECT_EQ(b.stats.documents_failed, 1u);
  auto db = store::Database::open(db_path, true);
  ASSERT_TRUE(db.ok());
  EXPECT_EQ(count(*db, "SELECT count(*) FROM chronons c JOIN documents d ON d.id = c.doc_id "
                       "WHERE d.key = 'x' AND c.value = '1990-XX-XX'"),
            1);
  pugi::xml_document doc;
  ASSERT_TRUE(doc.load_file(xml.c_str()));
  EXPECT_EQ(doc.select_nodes("//DOC[DOCNO='x']").size(), 1u);
}

TEST(CollectionBuilder, ATinyWindowStillBuildsEverythingInOrder) {
  testing::TempDir tmp;
  std::string all;
  for (int i = 0; i < 300; ++i)
    all += "{\"id\": \"n" + std::to_string(i) + "\", \"text\": \"" +
           std::string(static_cast<std::size_t>(i % 7) * 50, 'a') + " Em " + std::to_string(1800 + i) + ".\"}\n";
  testing::write_file(tmp / "big.jsonl", all);
  const std::string db_path = (tmp / "c.db").string();
  auto b = build((tmp / "big.jsonl").string(), CollectionFormat::Jsonl, db_path, "", 3, 2);
  EXPECT_EQ(b.stats.documents_built, 300u);
  auto db = store::Database::open(db_path, true);
  ASSERT_TRUE(db.ok());
  EXPECT_EQ(count(*db, "SELECT count(*) FROM documents"), 300);
  // ids follow reading order: n0 < n1 < … (key n<i> has id i+1).
  EXPECT_EQ(count(*db, "SELECT count(*) FROM documents WHERE key = 'n' || (id - 1)"), 300);
  EXPECT_EQ(count(*db, "SELECT count(*) FROM chronons WHERE value = (SELECT 1800 + id - 1 FROM documents d "
                       "WHERE d.id = chronons.doc_id) || '-XX-XX'"),
            300);
}

TEST(CollectionBuilder, HtmlFoldersGetDatesFromThePageAndStoreLinks) {
  testing::TempDir tmp;
  const std::string db_path = (tmp / "c.db").string();
  auto b = build(data("html"), CollectionFormat::HtmlDir, db_path);
  EXPECT_EQ(b.stats.documents_built, 2u);
  auto db = store::Database::open(db_path, true);
  ASSERT_TRUE(db.ok());
  EXPECT_EQ(count(*db, "SELECT count(*) FROM documents WHERE key = 'noticias/2003/feira.html' AND dct = '2003-05-12' "
                       "AND dct_source = 'html-meta'"),
            1);
  EXPECT_EQ(count(*db, "SELECT count(*) FROM links WHERE target = 'http://www.jornal-minho.pt/agenda.html' "
                       "AND segment_id IS NOT NULL"),
            1);
  EXPECT_EQ(count(*db, "SELECT count(*) FROM documents WHERE title = 'Feira do livro'"), 1);
}

TEST(CollectionBuilder, HtmlInJsonIsReadAsUnicodeWhateverItsMetaCharsetSays) {
  testing::TempDir tmp;
  testing::write_file(tmp / "h.jsonl",
                      "{\"id\": \"p\", \"html\": \"<html><head><meta charset=\\\"iso-8859-1\\\"><title>Eleições "
                      "de 1999</title></head><body><p>Votação em Março de 1999.</p></body></html>\"}\n");
  const std::string db_path = (tmp / "c.db").string();
  auto b = build((tmp / "h.jsonl").string(), CollectionFormat::Jsonl, db_path);
  EXPECT_EQ(b.stats.documents_built, 1u);
  auto db = store::Database::open(db_path, true);
  ASSERT_TRUE(db.ok());
  EXPECT_EQ(count(*db, "SELECT count(*) FROM documents WHERE title = 'Eleições de 1999'"), 1);
}

TEST(CollectionBuilder, DecodesLatin1TextFiles) {
  testing::TempDir tmp;
  const std::string db_path = (tmp / "c.db").string();
  build(data("text"), CollectionFormat::TextDir, db_path);
  auto db = store::Database::open(db_path, true);
  ASSERT_TRUE(db.ok());
  EXPECT_EQ(count(*db, "SELECT count(*) FROM documents"), 4);
  EXPECT_EQ(count(*db, "SELECT count(*) FROM chronons c JOIN documents d ON d.id = c.doc_id "
                       "WHERE d.key = 'cronicas/c-latin1.txt' AND c.value = '1999-XX-XX'"),
            1);
}

TEST(CollectionBuilder, WritesTheSegmentedXmlAndResumesIt) {
  testing::TempDir tmp;
  const std::string db_path = (tmp / "c.db").string(), xml = (tmp / "c.xml").string();
  std::filesystem::create_directories(tmp / "in");
  std::filesystem::copy_file(data("jsonl/noticias.jsonl"), tmp / "in" / "a.jsonl");
  build((tmp / "in").string(), CollectionFormat::Jsonl, db_path, xml);
  testing::write_file(tmp / "in" / "b.jsonl",
                      "{\"id\": \"extra\", \"text\": \"A Exposição Mundial de 1998 & o Oceanário <novo>.\"}\n");
  build((tmp / "in").string(), CollectionFormat::Jsonl, db_path, xml);

  pugi::xml_document doc;
  auto parsed = doc.load_file(xml.c_str());
  ASSERT_TRUE(parsed) << parsed.description();
  auto col = doc.child("colCHAVE");
  ASSERT_TRUE(col);
  std::vector<std::string> docnos;
  std::size_t chronons = 0;
  for (auto d : col.children("DOC")) {
    docnos.push_back(d.child_value("DOCNO"));
    for (auto s : d.child("SEGMENTS").children("SEGMENT")) chronons += std::distance(s.children("CHRONON").begin(), s.children("CHRONON").end());
  }
  EXPECT_EQ(docnos, (std::vector<std::string>{"noticia-1", "2", "a.jsonl:7", "noticia-6", "extra"}));
  auto db = store::Database::open(db_path, true);
  ASSERT_TRUE(db.ok());
  EXPECT_EQ(static_cast<std::int64_t>(chronons), count(*db, "SELECT count(*) FROM chronons"));
  pugi::xpath_node p = doc.select_node("//DOC[DOCNO='extra']/TEXT/P");
  ASSERT_TRUE(p);
  EXPECT_EQ(std::string(p.node().child_value()), "A Exposição Mundial de 1998 & o Oceanário <novo>.");
  pugi::xpath_node t = doc.select_node("//DOC[DOCNO='extra']/SEGMENTS/SEGMENT/TIMEX3");
  ASSERT_TRUE(t);
  EXPECT_STREQ(t.node().attribute("value").value(), "1998");
  EXPECT_STREQ(doc.select_node("//DOC[DOCNO='noticia-1']/DATE").node().child_value(), "20201102");
}

TEST(CollectionBuilder, CutsAnXmlTailThatNeverCommitted) {
  testing::TempDir tmp;
  const std::string db_path = (tmp / "c.db").string(), xml = (tmp / "c.xml").string();
  build(data("wpt03/amostra.wpt03"), CollectionFormat::Wpt03, db_path, xml);
  // As if a batch had been written but its transaction lost: garbage after
  // the committed length (which excludes the closing tag).
  testing::write_file(xml, testing::read_file(xml) + "<DOC><DOCNO>perdido</DOCNO>");
  build(data("wpt03/amostra.wpt03"), CollectionFormat::Wpt03, db_path, xml);
  pugi::xml_document doc;
  ASSERT_TRUE(doc.load_file(xml.c_str()));
  EXPECT_EQ(doc.select_nodes("//DOC").size(), 3u);
  EXPECT_FALSE(doc.select_node("//DOC[DOCNO='perdido']"));
}

TEST(CollectionBuilder, ReportFiguresMatchCountsFromTheInput) {
  testing::TempDir tmp;
  // Documents with 0…11 years each; the test knows every figure.
  std::string all;
  std::array<std::int64_t, 10> by_count{};
  std::int64_t with_years = 0, total_years = 0;
  for (int i = 0; i < 24; ++i) {
    const int n = (i * 5) % 12;
    std::string text = "Crónica número " + std::to_string(i) + ".";
    for (int k = 0; k < n; ++k) text += " No ano de " + std::to_string(1900 + 7 * k + i) + " houve festa.";
    all += nlohmann::json{{"id", "c" + std::to_string(i)}, {"text", text}, {"date", "2003-0" + std::to_string(1 + i % 9) + "-15"}}.dump() + "\n";
    ++by_count[static_cast<std::size_t>(std::min(n, 9))];
    with_years += n > 0;
    total_years += n;
  }
  testing::write_file(tmp / "c.jsonl", all);
  const std::string db_path = (tmp / "c.db").string();
  build((tmp / "c.jsonl").string(), CollectionFormat::Jsonl, db_path);
  auto db = store::Database::open(db_path, true);
  ASSERT_TRUE(db.ok());
  auto r = compute_report(*db);
  ASSERT_TRUE(r.ok()) << r.status().message();
  auto j = nlohmann::json::parse(render_json(*r));
  EXPECT_EQ(j["6.1"]["with temporal information"]["documents"], with_years);
  EXPECT_EQ(j["6.2"]["with creation date"]["documents"], 24);
  EXPECT_EQ(j["6.4"]["all expressions"]["expressions"], total_years);
  for (std::size_t i = 0; i < 10; ++i)
    EXPECT_EQ(j["6.6"][i == 9 ? "9 or more" : std::to_string(i)]["documents"], by_count[i]) << i;
  EXPECT_EQ(j["6.8"]["year"]["chronons"], total_years);
  EXPECT_EQ(j["6.16"]["2003"]["documents"], 24);
}

}  // namespace
}  // namespace cronista::corpus
