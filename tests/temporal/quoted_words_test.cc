// Words inside typographic quotes and after dashes are words like any other:
// the matcher's word scan stops at «, », “, ”, — and … as is_word_char_at()
// does ("“Amanhã", "Natal»"), and the commonest glue words are tried only
// from the marker that follows them, without losing expressions that open
// with them.
#include <gtest/gtest.h>

#include "tagger_testing.h"

namespace cronista::temporal {
namespace {

using tagger_testing::tag;

TEST(QuotedWords, AnExpressionRightAfterAnOpeningQuoteIsFound) {
  const auto found = tag("Ela escreveu: “Amanhã parto para Lisboa.” E partiu.", Date{1932, 5, 3});
  ASSERT_EQ(found.size(), 1u);
  EXPECT_EQ(found[0].text, "Amanhã");
  EXPECT_EQ(found[0].value, "1932-05-04");
}

TEST(QuotedWords, AnExpressionRightBeforeAClosingGuillemetIsFound) {
  const auto found = tag("Disse que a loja abre «no Natal» deste ano.", Date{2015, 10, 2});
  ASSERT_FALSE(found.empty());
  EXPECT_EQ(found[0].text, "Natal");
  EXPECT_EQ(found[0].value, "2015-12-25");
}

TEST(QuotedWords, ADateAfterAnEmDashAndBeforeAnEllipsisIsFound) {
  const auto found = tag("Partiu—em março… e não voltou.", Date{1950, 1, 10});
  ASSERT_EQ(found.size(), 1u);
  EXPECT_EQ(found[0].text, "março");
  EXPECT_EQ(found[0].value, "1949-03");  // the past tense: the March before
}

TEST(QuotedWords, AGlueWordThatIsAnExpressionAloneIsStillFound) {
  // "depois" is a preposition ("depois de") and, alone, a HAREM expression.
  const auto found = tagger_testing::tagger().tag("Jantou com os amigos e depois saiu.", Date{2001, 4, 4});
  ASSERT_EQ(found.size(), 1u);
  EXPECT_EQ(found[0].text, "depois");
  EXPECT_TRUE(found[0].in_harem);
}

TEST(QuotedWords, AnExpressionOpeningWithGlueWordsKeepsThem) {
  const auto found = tag("Chegou a partir das 19h de sábado.", Date{2001, 4, 4});
  ASSERT_FALSE(found.empty());
  EXPECT_NE(found[0].text.find("19h"), std::string::npos);
}

}  // namespace
}  // namespace cronista::temporal
