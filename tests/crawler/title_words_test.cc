// TitleWords: the topic record a temporal crawl keeps of page titles.
#include "crawler/title_words.h"

#include <gtest/gtest.h>

namespace cronista::crawler {
namespace {

TEST(TitleWords, WordsAreLowerCasedAndAccentedWordsStayWhole) {
  EXPECT_EQ(TitleWords::words("Ataque a Pearl Harbor — consequências (1941)"),
            (std::vector<std::string>{"ataque", "pearl", "harbor", "consequências", "1941"}));
  EXPECT_TRUE(TitleWords::words("a de o da").empty());
}

TEST(TitleWords, AnAnchorIsJudgedByWhatItsWordsLedTo) {
  TitleWords w(/*max_words=*/1000, /*min_seen=*/2);
  for (const char* t : {"Batalha de Estalinegrado — cronologia", "Batalha de Estalinegrado — mapas",
                        "Estalinegrado na imprensa", "Batalha de Midway"})
    w.learn(t, true);
  for (const char* t : {"Posse de Lula — cronologia", "Posse de Lula — mapas", "Lula na imprensa"})
    w.learn(t, false);
  // Seen fewer than twice: not known.
  EXPECT_EQ(w.estimate("Midway"), std::nullopt);
  EXPECT_EQ(w.estimate("Incêndio do Chiado"), std::nullopt);
  const auto good = w.estimate("Estalinegrado — documentos");
  const auto bad = w.estimate("Lula — documentos");
  ASSERT_TRUE(good && bad);
  EXPECT_DOUBLE_EQ(*good, 4.0 / 5.0);
  EXPECT_DOUBLE_EQ(*bad, 1.0 / 5.0);
  // Words shared by both kinds of title sit in between.
  const auto shared = w.estimate("cronologia");
  ASSERT_TRUE(shared);
  EXPECT_DOUBLE_EQ(*shared, 0.5);
  EXPECT_LT(*w.estimate("Estalinegrado — cronologia"), *good);
}

TEST(TitleWords, MemoryIsBounded) {
  TitleWords w(/*max_words=*/2, /*min_seen=*/1);
  w.learn("alfa beta gama", true);
  EXPECT_EQ(w.size(), 2u);
  w.learn("alfa beta gama", true);
  EXPECT_EQ(w.size(), 2u);
  EXPECT_TRUE(w.estimate("alfa"));
  EXPECT_EQ(w.estimate("gama"), std::nullopt);
}

}  // namespace
}  // namespace cronista::crawler
