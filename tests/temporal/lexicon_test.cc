// Loading resources/pt and expanding tags.
#include "temporal/lexicon.h"

#include <gtest/gtest.h>

#include "test_support.h"

namespace cronista::temporal {
namespace {

TEST(Lexicon, LoadsThePortugueseResources) {
  auto lex = Lexicon::load(testing::source_dir() + "/resources/pt");
  ASSERT_TRUE(lex.ok()) << lex.status().message();
  EXPECT_EQ(*lex->value("março", "MONTH"), "3");
  EXPECT_EQ(*lex->value("sexta-feira", "WEEKDAY"), "5");
  EXPECT_EQ(*lex->value("páscoa", "HOLIDAY"), "E+0");
  EXPECT_TRUE(lex->in_class("rua", "NEG_BEFORE"));
  EXPECT_TRUE(lex->in_class("soldados", "NEG_AFTER"));
  // A phrase in two classes keeps both readings.
  EXPECT_TRUE(lex->in_class("segunda", "WEEKDAY_SHORT"));
  EXPECT_TRUE(lex->in_class("segunda", "ORDINAL"));
}

TEST(Lexicon, ExpandsTagsAndWidensSpaces) {
  Lexicon lex;
  ASSERT_TRUE(lex.add_file("t", "@class MONTH\nmaio = 5\nsetembro = 9\n@regex YEAR [0-9]{4}\n"
                                "@regex DATE tag_MONTH de tag_YEAR\n").ok());
  auto rx = lex.expand("em tag_DATE");
  ASSERT_TRUE(rx.ok());
  EXPECT_EQ(*rx, "em +(?:(?:maio|setembro) +de +(?:[0-9]{4}))");
  EXPECT_FALSE(lex.expand("tag_NOPE").ok());
}

TEST(Lexicon, MalformedLineNamesFileAndLine) {
  Lexicon lex;
  Status s = lex.add_file("months.txt", "# months\n@class MONTH\nMaio = 5\n");
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.message().find("months.txt:3:"), std::string::npos) << s.message();
  s = lex.add_file("x.txt", "maio = 5\n");
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.message().find("before any @class"), std::string::npos);
}

}  // namespace
}  // namespace cronista::temporal
