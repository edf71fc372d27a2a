// Shingle resemblance on real Portuguese text: a version of an article one
// sentence short is found, another article on the same fact is not.
#include "replicas/shingles.h"

#include <gtest/gtest.h>

#include <fstream>
#include <string>
#include <vector>

#include "test_support.h"

namespace cronista::replicas {
namespace {

std::vector<std::string> filler() { return cronista::testing::sample_web_filler(); }

std::string join(const std::vector<std::string>& s, std::initializer_list<std::size_t> picks) {
  std::string out;
  for (std::size_t i : picks) out += s[i % s.size()] + " ";
  return out;
}

TEST(Shingles, AVersionOneSentenceShortResemblesAnotherArticleOnTheFactDoesNot) {
  const auto s = filler();
  ASSERT_GT(s.size(), 40u);
  const std::string clause = "A Alemanha invadiu a Polónia a 1 de setembro de 1939, e a guerra começou. ";
  const std::string article = clause + join(s, {3, 8, 13, 21, 27, 30, 34, 38});
  const std::string older = clause + join(s, {3, 8, 13, 21, 27, 30, 34});
  const std::string other = clause + join(s, {1, 5, 11, 17, 24, 29, 33, 40});
  EXPECT_DOUBLE_EQ(resemblance(shingle_sketch(article), shingle_sketch(article)), 1.0);
  const double version = resemblance(shingle_sketch(article), shingle_sketch(older));
  const double unrelated = resemblance(shingle_sketch(article), shingle_sketch(other));
  EXPECT_GE(version, 0.7);
  EXPECT_LE(unrelated, 0.3);
  // Spelled with other spacing and capitals, the text is the same.
  std::string shouted = article;
  for (char& c : shouted)
    if (c >= 'a' && c <= 'z') c = static_cast<char>(c - 32);
  EXPECT_DOUBLE_EQ(resemblance(shingle_sketch(article), shingle_sketch("  " + shouted + "\n")), 1.0);
}

TEST(Shingles, TooShortTextsHaveNoSketchAndResembleNothing) {
  EXPECT_TRUE(shingle_sketch("Em 1944").empty());
  EXPECT_TRUE(shingle_sketch("").empty());
  EXPECT_EQ(resemblance(shingle_sketch("Em 1944"), shingle_sketch("Em 1944")), 0.0);
  EXPECT_EQ(shingle_sketch("a b c d e f").size(), 4u);
}

}  // namespace
}  // namespace cronista::replicas
