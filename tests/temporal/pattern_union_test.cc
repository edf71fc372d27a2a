// The union of the patterns (pattern_union.h): how a source is cut into
// atoms, how the trie is written, and that the union of the shipped patterns
// matches exactly what their flat alternation matches on Portuguese text.
#include "temporal/pattern_union.h"

#include <gtest/gtest.h>
#include <re2/re2.h>

#include <fstream>
#include <sstream>

#include "temporal/lexicon.h"
#include "temporal/pattern_set.h"
#include "temporal/text_fold.h"
#include "test_support.h"

namespace cronista::temporal {
namespace {

using Atoms = std::vector<std::string>;

TEST(PatternAtoms, CutsTagsGroupsClassesEscapesAndCharactersEachWithItsQuantifier) {
  auto atoms = pattern_atoms("dias? de tag_MONTH(?: de tag_YEAR)? [0-9]{2,4}\\.à?");
  ASSERT_TRUE(atoms.has_value());
  const Atoms expected = {"d", "i", "a", "s?", " ", "d", "e", " ", "tag_MONTH", "(?: de tag_YEAR)?", " ",
                          "[0-9]{2,4}", "\\.", "à?"};
  EXPECT_EQ(*atoms, expected);
}

TEST(PatternAtoms, KeepsParenthesesInsideClassesAndEscapesWithinTheirGroup) {
  auto atoms = pattern_atoms("(?:[)(]x|\\))+ ?h[]a]");
  ASSERT_TRUE(atoms.has_value());
  const Atoms expected = {"(?:[)(]x|\\))+", " ?", "h", "[]a]"};
  EXPECT_EQ(*atoms, expected);
}

TEST(PatternAtoms, ATopLevelAlternationIsNotCut) {
  EXPECT_FALSE(pattern_atoms("hoje|ontem").has_value());
  auto grouped = pattern_atoms("(?:hoje|ontem)");
  ASSERT_TRUE(grouped.has_value());
  EXPECT_EQ(*grouped, Atoms{"(?:hoje|ontem)"});
}

TEST(PatternAtoms, ASourceThatSetsFlagsForWhatFollowsIsNotCut) {
  // "(?i)" would reach the alternatives written after it in the union.
  EXPECT_FALSE(pattern_atoms("(?i)natal").has_value());
  EXPECT_EQ(pattern_union({"(?i)natal", "nata"}), "(?:(?:(?i)natal)|nata)");
  auto scoped = pattern_atoms("(?i:natal)s?");
  ASSERT_TRUE(scoped.has_value());
  EXPECT_EQ(*scoped, (Atoms{"(?i:natal)", "s?"}));
}

TEST(PatternUnion, WritesCommonBeginningsOnce) {
  EXPECT_EQ(pattern_union({"dia tag_MONTH", "dia tag_MONTH de tag_YEAR"}), "dia tag_MONTH(?: de tag_YEAR)?");
  EXPECT_EQ(pattern_union({"noite", "nova"}), "no(?:ite|va)");
}

TEST(PatternUnion, JoinsSiblingsThatContinueAlike) {
  EXPECT_EQ(pattern_union({"1 dia", "2 dia", "3 anos"}), "(?:(?:1|2) dia|3 anos)");
}

TEST(PatternUnion, KeepsASourceWithATopLevelAlternationWhole) {
  EXPECT_EQ(pattern_union({"hoje|ontem", "hoje à noite"}), "(?:(?:hoje|ontem)|hoje à noite)");
}

std::string read_text(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

TEST(PatternUnion, MatchesWhatTheFlatAlternationOfTheShippedPatternsMatches) {
  auto lex = Lexicon::load(testing::source_dir() + "/resources/pt");
  ASSERT_TRUE(lex.ok()) << lex.status().message();
  std::vector<std::string> sources;
  std::string flat = "(?:";
  for (const char* file : {"pt.patterns", "pt.manual.patterns"}) {
    const std::string path = testing::source_dir() + "/patterns/" + file;
    std::vector<std::string> removed;
    auto records = parse_pattern_file(path, read_text(path), &removed);
    ASSERT_TRUE(records.ok()) << records.status().message();
    for (const Pattern& p : *records) {
      auto rx = lex->expand(p.regex);
      ASSERT_TRUE(rx.ok()) << rx.status().message();
      if (!sources.empty()) flat += "|";
      flat += "(?:" + *rx + ")";
      sources.push_back(p.regex);
    }
  }
  ASSERT_GT(sources.size(), 500u);
  flat += ")[^\\p{L}\\p{N}]";
  auto merged = lex->expand(pattern_union(sources));
  ASSERT_TRUE(merged.ok()) << merged.status().message();
  const std::string joined = "(?:" + *merged + ")[^\\p{L}\\p{N}]";
  RE2::Options opt;
  opt.set_encoding(RE2::Options::EncodingUTF8);
  opt.set_longest_match(true);
  opt.set_max_mem(int64_t{256} << 20);
  const RE2 a(flat, opt), b(joined, opt);
  ASSERT_TRUE(a.ok()) << a.error();
  ASSERT_TRUE(b.ok()) << b.error();
  EXPECT_LT(b.ProgramSize(), a.ProgramSize());
  // Text of our own writing: the phrase sets (every family the tagger
  // reads, and numeric noise) and the sample web's prose, folded as the
  // tagger folds it; every word start tried, as the tagger tries markers.
  std::string text;
  for (const char* file : {"/tests/data/phrases/pt.tsv", "/tests/data/phrases/pt-everyday.tsv",
                           "/corpora/cronista-pt.txt", "/corpora/sample-web/filler.txt",
                           "/corpora/sample-web/forms.txt", "/corpora/sample-web/sites.txt"})
    text += read_text(testing::source_dir() + file) + "\n";
  text = fold_text(text);
  ASSERT_GT(text.size(), 40000u);
  const re2::StringPiece whole(text);
  std::size_t starts = 0, matches = 0;
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (text[i] == ' ' || text[i] == '\n' || (i > 0 && text[i - 1] != ' ' && text[i - 1] != '\n')) continue;
    re2::StringPiece ma, mb;
    const bool x = a.Match(whole, i, text.size(), RE2::ANCHOR_START, &ma, 1);
    const bool y = b.Match(whole, i, text.size(), RE2::ANCHOR_START, &mb, 1);
    ++starts;
    matches += x;
    ASSERT_EQ(x, y) << "at «" << text.substr(i, 40) << "»";
    if (x) {
      ASSERT_EQ(ma.size(), mb.size()) << "at «" << text.substr(i, 40) << "»";
    }
  }
  EXPECT_GT(matches, 500u) << "of " << starts << " word starts";
}

}  // namespace
}  // namespace cronista::temporal
