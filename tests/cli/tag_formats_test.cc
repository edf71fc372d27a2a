// `cronista tag` output forms and inputs: HAREM's own names, the TimeML
// document, annotation schemes applied to every format (read back by the
// evaluator, they score exactly what it scores), and inputs in other
// character sets (HTML by its declaration, plain text by --encoding).
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <pugixml.hpp>

#include <string>

#include "eval/timeml_reader.h"
#include "test_support.h"

namespace cronista {
namespace {

using testing::run_cronista;

std::string data(const std::string& name) { return testing::source_dir() + "/tests/data/tag/" + name; }

// A HAREM collection of one document: the inline output of `tag --format harem`.
std::string harem_collection(const std::string& version, const std::string& inline_text) {
  return "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<colHAREM versao=\"" + version + "\">\n<DOC DOCID=\"d1\">\n" +
         inline_text + "</DOC>\n</colHAREM>\n";
}

// Strict F1 of `eval-tagger` scoring the tagger against `gold_xml`.
double strict_f1(const std::string& gold_xml, const std::string& scheme) {
  testing::TempDir tmp;
  const auto gold = tmp / "gold.xml";
  testing::write_file(gold, gold_xml);
  auto run = run_cronista({"eval-tagger", "--gold", gold.string(), "--scheme", scheme, "--format", "json"});
  EXPECT_EQ(run.exit_code, 0) << run.err;
  const auto j = nlohmann::json::parse(run.out);
  EXPECT_GT(j["reports"][0]["overall"]["system"].get<int>(), 3) << run.out;
  return j["reports"][0]["overall"]["strict"]["f1"].get<double>();
}

TEST(TagHarem, WritesHaremsOwnCategoryNames) {
  auto run = run_cronista({"tag", "--dct", "1998-02-13", "--format", "harem", data("noticia.txt")});
  ASSERT_EQ(run.exit_code, 0) << run.err;
  EXPECT_NE(run.out.find("CATEG=\"TEMPO\" TIPO=\"TEMPO_CALEND\" SUBTIPO=\"DATA\">ontem</EM>"), std::string::npos)
      << run.out;
  EXPECT_NE(run.out.find("TIPO=\"TEMPO_CALEND\" SUBTIPO=\"HORA\">às 17h30</EM>"), std::string::npos) << run.out;
  EXPECT_NE(run.out.find("TIPO=\"DURACAO\">durante três meses</EM>"), std::string::npos) << run.out;
  EXPECT_NE(run.out.find("TIPO=\"FREQUENCIA\">todas as segundas-feiras</EM>"), std::string::npos) << run.out;
  EXPECT_EQ(run.out.find("CATEG=\"TIME\""), std::string::npos) << run.out;
}

TEST(TagScheme, FirstHaremOutputMatchesGolden) {
  auto run = run_cronista(
      {"tag", "--dct", "2009-06-10", "--format", "harem", "--scheme", "first-harem", data("feira.txt")});
  ASSERT_EQ(run.exit_code, 0) << run.err;
  EXPECT_EQ(run.out, testing::read_file(data("feira.first-harem")));
}

TEST(TagScheme, FirstHaremOutputReadAsGoldScoresPerfectly) {
  auto run = run_cronista(
      {"tag", "--dct", "2009-06-10", "--format", "harem", "--scheme", "first-harem", data("feira.txt")});
  ASSERT_EQ(run.exit_code, 0) << run.err;
  EXPECT_DOUBLE_EQ(strict_f1(harem_collection("PrimeiroHAREM-teste", run.out), "first-harem"), 1.0);
}

TEST(TagScheme, SecondHaremOutputReadAsGoldScoresPerfectly) {
  auto run = run_cronista(
      {"tag", "--dct", "2009-06-10", "--format", "harem", "--scheme", "second-harem", data("feira.txt")});
  ASSERT_EQ(run.exit_code, 0) << run.err;
  EXPECT_DOUBLE_EQ(strict_f1(harem_collection("SegundoHAREM-teste", run.out), "second-harem"), 1.0);
}

TEST(TagScheme, JsonUnderFirstHaremHoldsOnlyTheNamingWords) {
  const std::string input = testing::read_file(data("feira.txt"));
  auto run = run_cronista({"tag", "--dct", "2009-06-10", "--scheme", "first-harem", data("feira.txt")});
  ASSERT_EQ(run.exit_code, 0) << run.err;
  const auto j = nlohmann::json::parse(run.out);
  EXPECT_EQ(j["scheme"], "first-harem");
  std::vector<std::string> texts;
  for (const auto& e : j["expressions"]) {
    const std::size_t s = e["start"], t = e["end"];
    EXPECT_EQ(input.substr(s, t - s), e["text"].get<std::string>());
    texts.push_back(e["text"]);
  }
  // No lower-case weekday, no deictic word, no preposition, no count.
  const std::vector<std::string> want{"25",        "28 de Junho de 2009", "10h",       "Maio de 1931",
                                      "1939-1945", "anos 60",             "Primavera", "século XX"};
  EXPECT_EQ(texts, want) << run.out;
}

TEST(TagScheme, Timex3UnderSecondHaremUsesHaremExtents) {
  auto run = run_cronista({"tag", "--dct", "1998-02-13", "--format", "timex3", "--scheme", "second-harem",
                           data("noticia.txt")});
  ASSERT_EQ(run.exit_code, 0) << run.err;
  EXPECT_NE(run.out.find("\">às 17h30</TIMEX3>"), std::string::npos) << run.out;
  EXPECT_NE(run.out.find("type=\"DURATION\" value=\"P3M\">durante três meses</TIMEX3>"), std::string::npos)
      << run.out;
}

TEST(TagTimex3, IsATimeMLDocumentWithItsCreationTime) {
  auto run = run_cronista({"tag", "--dct", "1998-02-13", "--format", "timex3", data("noticia.txt")});
  ASSERT_EQ(run.exit_code, 0) << run.err;
  pugi::xml_document doc;
  ASSERT_TRUE(doc.load_string(run.out.c_str(), pugi::parse_default | pugi::parse_ws_pcdata)) << run.out;
  const pugi::xml_node root = doc.document_element();
  EXPECT_STREQ(root.name(), "TimeML");
  const pugi::xml_node dct = root.child("DCT").child("TIMEX3");
  EXPECT_STREQ(dct.attribute("functionInDocument").value(), "CREATION_TIME");
  EXPECT_STREQ(dct.attribute("value").value(), "1998-02-13");
  // The TEXT element holds exactly the input.
  std::string text;
  for (pugi::xml_node n : root.child("TEXT").children()) text += n.type() == pugi::node_pcdata ? n.value() : n.text().get();
  EXPECT_EQ(text, testing::read_file(data("noticia.txt")));
}

TEST(TagTimex3, TheTimeMLReaderLoadsWhatTheJsonSays) {
  auto xml = run_cronista({"tag", "--dct", "1998-02-13", "--format", "timex3", data("noticia.txt")});
  auto json = run_cronista({"tag", "--dct", "1998-02-13", data("noticia.txt")});
  ASSERT_EQ(xml.exit_code, 0) << xml.err;
  auto doc = eval::parse_timeml(xml.out, "noticia.tml");
  ASSERT_TRUE(doc.ok()) << doc.status().message();
  ASSERT_TRUE(doc->dct.has_value());
  EXPECT_EQ(doc->dct->to_string(), "1998-02-13");
  const auto j = nlohmann::json::parse(json.out);
  ASSERT_EQ(doc->expressions.size(), j["expressions"].size());
  for (std::size_t k = 0; k < doc->expressions.size(); ++k) {
    EXPECT_EQ(doc->expressions[k].text, j["expressions"][k]["text"].get<std::string>());
    EXPECT_EQ(doc->expressions[k].type, j["expressions"][k]["type"].get<std::string>());
    EXPECT_EQ(doc->expressions[k].value, j["expressions"][k]["value"].get<std::string>());
  }
}

// "Em 5 de março de 1943 …" in ISO-8859-1, declared in the page.
const std::string kLatin1Page =
    "<html><head><meta charset=\"iso-8859-1\"><title>Di\xe1rio</title></head><body>"
    "<p>Em 5 de mar\xe7o de 1943 a cidade acordou cedo. No m\xeas seguinte chegou a primavera.</p></body></html>";

TEST(TagCharset, HtmlIsDecodedFromItsDeclaredCharset) {
  auto run = run_cronista({"tag", "--html", "--dct", "1943-03-10"}, kLatin1Page);
  ASSERT_EQ(run.exit_code, 0) << run.err;
  const auto j = nlohmann::json::parse(run.out);
  ASSERT_GE(j["expressions"].size(), 2u) << run.out;
  EXPECT_EQ(j["expressions"][0]["text"], "5 de março de 1943");
  EXPECT_EQ(j["expressions"][0]["value"], "1943-03-05");
  EXPECT_EQ(j["expressions"][1]["value"], "1943-04");
}

TEST(TagCharset, SegmentDecodesHtmlFromItsDeclaredCharset) {
  auto run = run_cronista({"segment", "--html", "--dct", "1943-03-10"}, kLatin1Page);
  ASSERT_EQ(run.exit_code, 0) << run.err;
  const auto j = nlohmann::json::parse(run.out);
  ASSERT_FALSE(j["segments"].empty()) << run.out;
  EXPECT_EQ(j["segments"][0]["chronons"][0], "1943-03-05") << run.out;
}

TEST(TagCharset, EncodingDecodesPlainText) {
  const std::string latin1 = "Em 5 de mar\xe7o de 1943 a cidade acordou cedo.\n";
  auto strict = run_cronista({"tag"}, latin1);
  EXPECT_EQ(strict.exit_code, 1);
  auto run = run_cronista({"tag", "--encoding", "iso-8859-1"}, latin1);
  ASSERT_EQ(run.exit_code, 0) << run.err;
  const auto j = nlohmann::json::parse(run.out);
  ASSERT_EQ(j["expressions"].size(), 1u) << run.out;
  EXPECT_EQ(j["expressions"][0]["text"], "5 de março de 1943");
}

TEST(TagCharset, UnknownEncodingIsAUsageError) {
  auto run = run_cronista({"tag", "--encoding", "klingon-8"}, "Em 1943.\n");
  EXPECT_EQ(run.exit_code, 2);
  EXPECT_NE(run.err.find("klingon-8"), std::string::npos) << run.err;
  EXPECT_EQ(testing::count_lines(run.err), 1) << run.err;
}

}  // namespace
}  // namespace cronista
