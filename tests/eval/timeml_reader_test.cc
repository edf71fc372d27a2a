// TimeML reading: text without tags, TIMEX3 offsets, the DCT apart.
#include "eval/timeml_reader.h"

#include <gtest/gtest.h>

#include "test_support.h"

namespace cronista::eval {
namespace {

TEST(TimemlReader, ReadsTextTimexesAndTheCreationTime) {
  auto doc = read_timeml(testing::source_dir() + "/tests/data/eval/feira.tml");
  ASSERT_TRUE(doc.ok()) << doc.status().message();
  EXPECT_EQ(doc->id, "feira");
  ASSERT_TRUE(doc->dct);
  EXPECT_EQ(*doc->dct, (temporal::Date{2009, 3, 10}));
  ASSERT_EQ(doc->expressions.size(), 9u);  // the CREATION_TIME timex is not one of them
  for (const auto& e : doc->expressions) EXPECT_EQ(doc->text.substr(e.start, e.end - e.start), e.text);
  EXPECT_EQ(doc->expressions[0].text, "2 de março");
  EXPECT_EQ(doc->expressions[0].value, "2009-03-02");
  EXPECT_EQ(doc->expressions[2].type, "DURATION");
  EXPECT_NE(doc->text.find("FEIRA20090310"), std::string::npos);
  EXPECT_EQ(doc->scored.size(), 5u);  // the five <s>; the header is not scored
}

TEST(TimemlReader, MalformedXmlIsAnErrorNamingTheFile) {
  auto doc = parse_timeml("<TempEval><s>em <TIMEX3>1998</s></TempEval>", "bad.tml");
  ASSERT_FALSE(doc.ok());
  EXPECT_NE(doc.status().message().find("bad.tml"), std::string::npos);
}

TEST(TimemlReader, ReadsTheSharedTimeBankPT) {
  const std::string dir = testing::shared_data_dir();
  if (dir.empty()) GTEST_SKIP() << "../shared/data not available";
  auto doc = read_timeml(dir + "/gold/timebankpt-train/ABC19980108.1830.0711.tml");
  if (!doc.ok()) GTEST_SKIP() << "TimeBankPT file not present: " << doc.status().message();
  ASSERT_TRUE(doc->dct);
  EXPECT_EQ(*doc->dct, (temporal::Date{1998, 1, 8}));
  ASSERT_FALSE(doc->expressions.empty());
  for (const auto& e : doc->expressions) EXPECT_EQ(doc->text.substr(e.start, e.end - e.start), e.text);
}

}  // namespace
}  // namespace cronista::eval
