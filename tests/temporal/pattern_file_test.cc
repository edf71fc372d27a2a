// The pattern file format (docs/patterns.md): parsing, writing, layering and
// errors that name the line.
#include "temporal/pattern_set.h"

#include <gtest/gtest.h>

#include "test_support.h"

namespace cronista::temporal {
namespace {

Lexicon small_lexicon() {
  Lexicon lex;
  Status s = lex.add_file("test", "@class MONTH\njaneiro = 1\nmaio = 5\n@regex YEAR [12][0-9]{3}\n@class PREPOSITION\nem\n");
  EXPECT_TRUE(s.ok()) << s.message();
  return lex;
}

TEST(PatternFile, RoundTripsThroughFormat) {
  std::vector<Pattern> in(2);
  in[0].id = "L-1";
  in[0].regex = "tag_MONTH de tag_YEAR";
  in[0].frequency = 42;
  in[0].examples = {"maio de 1998", "janeiro de 2001"};
  in[1].id = "L-2";
  in[1].regex = "às vezes";
  in[1].timex = TimexType::Set;
  in[1].harem_type = HaremType::Frequency;
  in[1].harem_subtype = HaremSubtype::None;
  in[1].in_timeml = false;
  in[1].unless_next = "MONTH";
  const std::string text = format_pattern_file(in, "learned\nby a test");
  std::vector<std::string> removed;
  auto out = parse_pattern_file("mem", text, &removed);
  ASSERT_TRUE(out.ok()) << out.status().message();
  ASSERT_EQ(out->size(), 2u);
  EXPECT_EQ((*out)[0].regex, "tag_MONTH de tag_YEAR");
  EXPECT_EQ((*out)[0].frequency, 42);
  EXPECT_EQ((*out)[0].examples.size(), 2u);
  EXPECT_EQ((*out)[1].harem_type, HaremType::Frequency);
  EXPECT_FALSE((*out)[1].in_timeml);
  EXPECT_EQ((*out)[1].unless_next, "MONTH");
  EXPECT_EQ(format_pattern_file(*out, "learned\nby a test"), text);
}

TEST(PatternFile, MalformedRecordNamesTheLine) {
  const std::string text =
      "# comment\nformat cronista-patterns 1\n\npattern A\nregex maio\ntimex DAY\nharem CALENDAR_REF DATE\n";
  auto r = parse_pattern_file("p.patterns", text, nullptr);
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.status().message().find("p.patterns:6:"), std::string::npos) << r.status().message();
}

TEST(PatternFile, MissingFieldAndMissingFormatLineAreErrors) {
  auto r = parse_pattern_file("p", "format cronista-patterns 1\npattern A\nregex maio\ntimex DATE\n", nullptr);
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.status().message().find("has no harem"), std::string::npos);
  r = parse_pattern_file("p", "pattern A\n", nullptr);
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.status().message().find("format cronista-patterns 1"), std::string::npos);
}

TEST(PatternSet, LaterFileReplacesAndRemovesRecords) {
  testing::TempDir dir;
  testing::write_file(dir / "learned.patterns",
                      "format cronista-patterns 1\n\npattern L-1\nregex tag_MONTH\ntimex DATE\nharem CALENDAR_REF DATE\n\n"
                      "pattern L-2\nregex tag_YEAR\ntimex DATE\nharem CALENDAR_REF DATE\n");
  testing::write_file(dir / "manual.patterns",
                      "format cronista-patterns 1\nremove L-2\n\npattern L-1\nregex tag_MONTH de tag_YEAR\n"
                      "timex DATE\nharem CALENDAR_REF DATE\n");
  Lexicon lex = small_lexicon();
  auto set = PatternSet::load({(dir / "learned.patterns").string(), (dir / "manual.patterns").string()}, lex, false);
  ASSERT_TRUE(set.ok()) << set.status().message();
  ASSERT_EQ((*set)->patterns().size(), 1u);
  EXPECT_EQ((*set)->patterns()[0].regex, "tag_MONTH de tag_YEAR");
  // Only the replaced pattern is left: a bare year is no longer found.
  PatternSet::Match m;
  const std::string text = " em maio de 1998 e em 2001 ";
  ASSERT_TRUE((*set)->next_match(text, 0, &m));
  EXPECT_EQ(text.substr(m.start, m.end - m.start), "maio de 1998");
  EXPECT_FALSE((*set)->next_match(text, m.end, &m));
}

TEST(PatternSet, UnknownTagIsAnErrorNamingThePattern) {
  Lexicon lex = small_lexicon();
  std::vector<Pattern> p(1);
  p[0].id = "X";
  p[0].regex = "tag_SEASON de tag_YEAR";
  p[0].source = "x.patterns:3";
  auto set = PatternSet::build(p, lex);
  ASSERT_FALSE(set.ok());
  EXPECT_NE(set.status().message().find("x.patterns:3"), std::string::npos);
  EXPECT_NE(set.status().message().find("tag_SEASON"), std::string::npos);
}

// Two patterns, a month (A) and a month of a year (B), over the small lexicon.
std::unique_ptr<PatternSet> month_and_month_of_year() {
  Lexicon lex = small_lexicon();
  std::vector<Pattern> p(2);
  p[0].id = "A";
  p[0].regex = "tag_MONTH";
  p[1].id = "B";
  p[1].regex = "tag_MONTH de tag_YEAR";
  auto set = PatternSet::build(p, lex);
  EXPECT_TRUE(set.ok()) << set.status().message();
  return set.ok() ? std::move(*set) : nullptr;
}

TEST(PatternSet, MatchesOnlyWholeWordsLongestFirst) {
  auto set = month_and_month_of_year();
  ASSERT_NE(set, nullptr);
  PatternSet::Match m;
  const std::string text = " maiores em maio de 1998. ";
  ASSERT_TRUE(set->next_match(text, 0, &m));
  EXPECT_EQ(text.substr(m.start, m.end - m.start), "maio de 1998");
  EXPECT_EQ(set->patterns()[m.pattern].id, "B");
}

TEST(PatternSet, ARecurringExpressionIsFoundAndClassifiedAlikeWhereverItRecurs) {
  // The second and third "em maio" are classified from the first: the
  // preposition the pattern does not spell out is dropped at each place.
  auto set = month_and_month_of_year();
  ASSERT_NE(set, nullptr);
  const std::string text = " em maio saiu; voltou em maio de 1998 e partiu em maio, em maio de 1998. ";
  std::vector<std::pair<std::string, std::string>> found;  // (expression, pattern)
  std::vector<std::size_t> starts;
  PatternSet::Match m;
  for (std::size_t pos = 0; set->next_match(text, pos, &m); pos = m.end) {
    found.emplace_back(text.substr(m.start, m.end - m.start), set->patterns()[m.pattern].id);
    starts.push_back(m.start);
  }
  const std::vector<std::pair<std::string, std::string>> expected = {
      {"maio", "A"}, {"maio de 1998", "B"}, {"maio", "A"}, {"maio de 1998", "B"}};
  EXPECT_EQ(found, expected);
  std::vector<std::size_t> at;
  for (std::size_t k = text.find("maio"); k != std::string::npos; k = text.find("maio", k + 1)) at.push_back(k);
  EXPECT_EQ(starts, at);
}

TEST(PatternSet, ShippedPatternsCompileTheirCombinedProgramOnce) {
  // The memory budget of the combined program is set from an estimate of
  // its size, so that it is compiled once; an estimate gone stale with the
  // patterns would double the start-up of every command that tags.
  auto lex = Lexicon::load(testing::source_dir() + "/resources/pt");
  ASSERT_TRUE(lex.ok()) << lex.status().message();
  const std::string dir = testing::source_dir() + "/patterns/";
  auto set = PatternSet::load({dir + "pt.patterns", dir + "pt.manual.patterns"}, *lex, false);
  ASSERT_TRUE(set.ok()) << set.status().message();
  EXPECT_EQ((*set)->combined_compilations(), 1);
  PatternSet::Match m;
  const std::string text = " chegou a 3 de maio de 1998. ";
  ASSERT_TRUE((*set)->next_match(text, 0, &m));
  EXPECT_EQ(text.substr(m.start, m.end - m.start), "3 de maio de 1998");
}

TEST(PatternSet, SmallSetsAtTheBudgetFloorCompileOnce) {
  Lexicon lex = small_lexicon();
  std::vector<Pattern> p(1);
  p[0].id = "A";
  p[0].regex = "tag_MONTH de tag_YEAR";
  auto set = PatternSet::build(p, lex);
  ASSERT_TRUE(set.ok()) << set.status().message();
  EXPECT_EQ((*set)->combined_compilations(), 1);
}

}  // namespace
}  // namespace cronista::temporal
