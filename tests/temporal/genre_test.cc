// Genres (genre.h): how an expression with neither tense nor explicit anchor
// resolves, against fixed document dates at week, month and year boundaries.
#include <gtest/gtest.h>

#include <map>
#include <memory>

#include "temporal/tagger.h"
#include "test_support.h"

namespace cronista::temporal {
namespace {

const Tagger& tagger_for(Genre genre) {
  static std::map<Genre, std::unique_ptr<Tagger>> loaded;
  auto& t = loaded[genre];
  if (!t) {
    auto r = Tagger::load(TaggerOptions{testing::source_dir(), {}, genre});
    EXPECT_TRUE(r.ok()) << r.status().message();
    if (r.ok()) t = std::move(*r);
  }
  return *t;
}

// The value of the one expression whose text is `what`.
std::string value_of(Genre genre, const std::string& text, const std::string& what, Date dct) {
  for (const auto& e : tagger_for(genre).tag(text, dct))
    if (e.text == what) return e.value;
  ADD_FAILURE() << "no expression '" << what << "' in: " << text;
  return {};
}

constexpr Date kFriday{2021, 12, 31};  // the last day of a week, a month and a year

TEST(Genre, NamesParseAndPrintBackAndUnknownNamesAreRefused) {
  for (Genre g : {Genre::News, Genre::Narrative, Genre::Colloquial, Genre::Scientific})
    EXPECT_EQ(parse_genre(to_string(g)), g);
  EXPECT_FALSE(parse_genre("jornal").has_value());
}

TEST(Genre, NewsTakesTheLastWeekdayWhenNoTenseSaysOtherwise) {
  EXPECT_EQ(value_of(Genre::News, "Sábado tem jogo no estádio.", "Sábado", kFriday), "2021-12-25");
}

TEST(Genre, ColloquialTakesTheNextWeekdayAcrossTheYearEnd) {
  EXPECT_EQ(value_of(Genre::Colloquial, "Sábado tem jogo no estádio.", "Sábado", kFriday), "2022-01-01");
  EXPECT_EQ(value_of(Genre::Colloquial, "Na segunda tem prova.", "segunda", kFriday), "2022-01-03");
}

TEST(Genre, ColloquialTakesTheLastWeekdayWhenTheTenseIsPast) {
  EXPECT_EQ(value_of(Genre::Colloquial, "Sábado teve jogo no estádio e perdemos.", "Sábado", kFriday), "2021-12-25");
}

TEST(Genre, ColloquialTakesTheNextMonthAcrossTheYearEnd) {
  EXPECT_EQ(value_of(Genre::Colloquial, "Em novembro tem eleição.", "novembro", kFriday), "2022-11");
  EXPECT_EQ(value_of(Genre::News, "Em novembro há eleições.", "novembro", kFriday), "2021-11");
}

TEST(Genre, ColloquialTakesTheNextDayOfTheMonthAcrossTheMonthEnd) {
  EXPECT_EQ(value_of(Genre::Colloquial, "A consulta é no dia 12.", "dia 12", Date{2021, 9, 30}), "2021-10-12");
  EXPECT_EQ(value_of(Genre::News, "A consulta é no dia 12.", "dia 12", Date{2021, 9, 30}), "2021-09-12");
}

TEST(Genre, ColloquialTakesTheNextFeastOnceThisYearsIsOver) {
  EXPECT_EQ(value_of(Genre::Colloquial, "No Carnaval a gente viaja.", "Carnaval", Date{2021, 9, 30}), "2022-03-01");
  EXPECT_EQ(value_of(Genre::Colloquial, "No Natal a gente viaja.", "Natal", Date{2021, 9, 30}), "2021-12-25");
}

TEST(Genre, NarrativeResolvesAgainstTheLastDateTheTextGave) {
  const std::string text = "A 6 de junho de 1944 as tropas desembarcaram. No dia seguinte avançaram; na sexta-feira chegaram a Bayeux.";
  EXPECT_EQ(value_of(Genre::Narrative, text, "sexta-feira", Date{2021, 9, 30}), "1944-06-02");
  EXPECT_EQ(value_of(Genre::News, text, "sexta-feira", Date{2021, 9, 30}), "2021-09-24");
}

TEST(Genre, ScientificLeavesDeicticExpressionsUnresolved) {
  EXPECT_EQ(value_of(Genre::Scientific, "As amostras foram recolhidas ontem.", "ontem", kFriday), "XXXX-XX-XX");
  EXPECT_EQ(value_of(Genre::Scientific, "As amostras foram recolhidas em 6 de junho de 2019.", "6 de junho de 2019",
                     kFriday),
            "2019-06-06");
}

}  // namespace
}  // namespace cronista::temporal
