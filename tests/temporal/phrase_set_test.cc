// The phrase set of our own writing (tests/data/phrases/pt.tsv): short
// European and Brazilian sentences, each with the one value its temporal
// expression must resolve to against the file's reference date, or NONE
// where the numbers in it are noise (postal codes, phones, street numbers,
// counts, scores) and nothing may be tagged. Scored as a whole (at least
// 0.95 of the phrases right) and per family, so a family that fails is named.
#include <fstream>
#include <map>
#include <sstream>

#include <gtest/gtest.h>

#include <iostream>
#include <string>
#include <vector>

#include "temporal/tagger.h"
#include "test_support.h"

namespace cronista::temporal {
namespace {

struct Phrase {
  std::string variant, family, expected, text;
  int line = 0;
};

struct PhraseSet {
  Date dct;
  Genre genre = Genre::News;
  std::vector<Phrase> phrases;
};

PhraseSet read_phrase_set(const std::string& path) {
  PhraseSet set;
  std::ifstream in(path);
  EXPECT_TRUE(in) << "cannot read " << path;
  std::string line;
  for (int no = 1; std::getline(in, line); ++no) {
    if (line.empty()) continue;
    if (line.rfind("# dct: ", 0) == 0) {
      const std::string d = line.substr(7);
      set.dct = Date{std::stoi(d.substr(0, 4)), std::stoi(d.substr(5, 2)), std::stoi(d.substr(8, 2))};
      continue;
    }
    if (line.rfind("# genre: ", 0) == 0) {
      const auto g = parse_genre(line.substr(9));
      EXPECT_TRUE(g.has_value()) << path << ":" << no << ": unknown genre";
      if (g) set.genre = *g;
      continue;
    }
    if (line[0] == '#') continue;
    std::vector<std::string> cols;
    std::stringstream ss(line);
    for (std::string c; std::getline(ss, c, '\t');) cols.push_back(c);
    EXPECT_EQ(cols.size(), 4u) << path << ":" << no << ": want variant, family, value, text";
    if (cols.size() == 4) set.phrases.push_back(Phrase{cols[0], cols[1], cols[2], cols[3], no});
  }
  return set;
}

// The TimeML expressions of a phrase as text=value pairs.
std::vector<std::pair<std::string, std::string>> tag(const Tagger& tagger, const std::string& text, Date dct) {
  std::vector<std::pair<std::string, std::string>> out;
  for (const auto& e : tagger.tag(text, dct))
    if (e.in_timeml) out.emplace_back(e.text, e.value);
  return out;
}

// Right when the phrase yields exactly one expression with the expected
// value, or none at all for NONE.
bool right(const Phrase& p, const std::vector<std::pair<std::string, std::string>>& found) {
  if (p.expected == "NONE") return found.empty();
  return found.size() == 1 && found[0].second == p.expected;
}

struct Score {
  int right = 0, total = 0;
  std::map<std::string, int> variants;
  double accuracy() const { return total ? static_cast<double>(right) / total : 0.0; }
};

// Tags every phrase of the set with the set's reference date and genre,
// printing the misses and the score per family.
Score score(const PhraseSet& set) {
  Score s;
  auto tagger = Tagger::load(TaggerOptions{testing::source_dir(), {}, set.genre});
  EXPECT_TRUE(tagger.ok()) << tagger.status().message();
  if (!tagger.ok()) return s;
  std::map<std::string, std::pair<int, int>> by_family;  // right, total
  for (const Phrase& p : set.phrases) {
    const auto found = tag(**tagger, p.text, set.dct);
    const bool good = right(p, found);
    s.right += good;
    ++s.total;
    ++s.variants[p.variant];
    auto& fam = by_family[p.family];
    fam.first += good;
    ++fam.second;
    if (!good) {
      std::string got;
      for (const auto& [text, value] : found) got += " [" + text + "=" + value + "]";
      std::cout << "  miss line " << p.line << " (" << p.family << ", " << p.variant << "): " << p.text
                << " | want " << p.expected << " | got" << (got.empty() ? " nothing" : got) << "\n";
    }
  }
  for (const auto& [family, fs] : by_family) std::cout << "  " << family << ": " << fs.first << "/" << fs.second << "\n";
  std::cout << "  phrase set: " << s.right << "/" << s.total << " = " << s.accuracy() << "\n";
  return s;
}

TEST(PhraseSet, ResolvesAtLeast95PercentOfEveryFamilyInBothVariants) {
  const PhraseSet set = read_phrase_set(testing::source_dir() + "/tests/data/phrases/pt.tsv");
  ASSERT_GE(set.phrases.size(), 300u);
  const Score s = score(set);
  EXPECT_GE(s.variants.count("pt-PT") ? s.variants.at("pt-PT") : 0, 100);
  EXPECT_GE(s.variants.count("pt-BR") ? s.variants.at("pt-BR") : 0, 100);
  EXPECT_GE(s.accuracy(), 0.95);
}

// Everyday speech (tests/data/phrases/pt-everyday.tsv), read as colloquial
// text on a Tuesday: prepositions before weekdays and dates ("pra quinta",
// "até sexta", "desde domingo"), the weekday named on its own day, vague near
// futures, parts of the day, weeks, weekends, parts of a month and the turn
// of the year.
TEST(PhraseSet, ResolvesAtLeast95PercentOfEverydaySpeech) {
  const PhraseSet set = read_phrase_set(testing::source_dir() + "/tests/data/phrases/pt-everyday.tsv");
  ASSERT_GE(set.phrases.size(), 40u);
  EXPECT_EQ(set.genre, Genre::Colloquial);
  const Score s = score(set);
  EXPECT_GE(s.variants.count("pt-PT") ? s.variants.at("pt-PT") : 0, 10);
  EXPECT_GE(s.variants.count("pt-BR") ? s.variants.at("pt-BR") : 0, 10);
  EXPECT_GE(s.accuracy(), 0.95);
}

}  // namespace
}  // namespace cronista::temporal
