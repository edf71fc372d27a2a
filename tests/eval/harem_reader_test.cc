// HAREM reading: collapsed white space, TEMPO entities, ALT groups, vague
// readings, OMITIDO ranges and publication dates from the meta JSON.
#include "eval/harem_reader.h"

#include <gtest/gtest.h>

#include "test_support.h"

namespace cronista::eval {
namespace {

TEST(HaremReader, ReadsTempoEntitiesAltGroupsAndOmissions) {
  auto docs = read_harem(testing::source_dir() + "/tests/data/eval/cronica.harem.xml");
  ASSERT_TRUE(docs.ok()) << docs.status().message();
  ASSERT_EQ(docs->size(), 2u);
  const GoldDocument& d = (*docs)[0];
  EXPECT_EQ(d.id, "T-1");
  ASSERT_TRUE(d.dct);
  EXPECT_EQ(*d.dct, (temporal::Date{1998, 6, 10}));
  EXPECT_FALSE((*docs)[1].dct);
  for (const auto& e : d.expressions) EXPECT_EQ(d.text.substr(e.start, e.end - e.start), e.text) << e.text;
  // White space collapsed; the first ALT alternative's text is the text.
  EXPECT_NE(d.text.find("O mercado abriu em Maio de 1998 e fechou no dia 3 de Junho."), std::string::npos);
  EXPECT_NE(d.text.find("todos os anos, cinco de maio de 1937 incluído."), std::string::npos);
  ASSERT_EQ(d.expressions.size(), 7u);  // "Maria" is not TEMPO
  EXPECT_EQ(d.expressions[0].text, "em Maio de 1998");
  EXPECT_EQ(d.expressions[0].type, "TEMPO_CALEND/DATA");
  EXPECT_EQ(d.expressions[2].type, "FREQUENCIA");
  // The two alternatives of the ALT group.
  EXPECT_EQ(d.expressions[3].text, "cinco de maio de 1937");
  EXPECT_EQ(d.expressions[3].alt_group, 1);
  EXPECT_EQ(d.expressions[3].alternative, 0);
  EXPECT_EQ(d.expressions[4].text, "maio de 1937");
  EXPECT_EQ(d.expressions[4].alternative, 1);
  ASSERT_EQ(d.alt_ranges.size(), 1u);
  EXPECT_EQ(d.alt_ranges[0].alternatives, 2);
  // A vague TEMPO|VALOR reading.
  EXPECT_EQ(d.expressions[5].text, "hoje");
  EXPECT_TRUE(d.expressions[5].vague);
  EXPECT_EQ(d.expressions[5].type, "DURACAO");
  // OMITIDO text is kept, its range noted.
  ASSERT_EQ(d.omitted.size(), 1u);
  EXPECT_EQ(d.text.substr(d.omitted[0].start, d.omitted[0].end - d.omitted[0].start), "em 1999 em 2000");
}

TEST(HaremReader, WrongRootIsAnError) {
  auto docs = parse_harem("<?xml version=\"1.0\"?><TempEval/>", "x.xml", {});
  ASSERT_FALSE(docs.ok());
  EXPECT_NE(docs.status().message().find("colHAREM"), std::string::npos);
}

TEST(HaremReader, ReadsTheSharedSecondHarem) {
  const std::string dir = testing::shared_data_dir();
  if (dir.empty()) GTEST_SKIP() << "../shared/data not available";
  auto docs = read_harem(dir + "/gold/harem/CDSegundoHAREMReRelEM.xml");
  if (!docs.ok()) GTEST_SKIP() << "HAREM file not present: " << docs.status().message();
  EXPECT_EQ(docs->size(), 99u);
  std::size_t tempo = 0, dated = 0;
  for (const auto& d : *docs) {
    dated += d.dct ? 1 : 0;
    for (const auto& e : d.expressions) {
      ++tempo;
      EXPECT_EQ(d.text.substr(e.start, e.end - e.start), e.text);
    }
  }
  EXPECT_GE(tempo, 966u);  // every TEMPO EM, ALT alternatives included
  // 51 documents have DATA-CRIACAO (README): 2 give only a year and one is not
  // a real date (20072131); the 48 others become document dates.
  EXPECT_EQ(dated, 48u);
}

}  // namespace
}  // namespace cronista::eval
