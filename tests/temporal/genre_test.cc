// Genres (genre.h): how an expression with neither tense nor explicit anchor
// resolves, against fixed document dates at week, month and year boundaries.
#include <gtest/gtest.h>

#include <initializer_list>
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

// Everyday forms, on a Tuesday (Carnival Tuesday 2013): a weekday named on
// its own day, weekends, prepositions that look ahead or back.
constexpr Date kTuesday{2013, 2, 12};

struct Reading {
  Genre genre;
  const char* text;
  const char* what;
  const char* value;
  Date dct = kTuesday;
};

void expect_readings(std::initializer_list<Reading> readings) {
  for (const Reading& r : readings) EXPECT_EQ(value_of(r.genre, r.text, r.what, r.dct), r.value) << r.text;
}

TEST(EverydayForms, AWeekdayMovedToWithPraOrParaIsAheadEvenInThePast) {
  expect_readings({
      {Genre::News, "A reunião ficou pra terça.", "terça", "2013-02-19"},
      {Genre::News, "O jogo foi adiado para quinta.", "quinta", "2013-02-14"},
      {Genre::Colloquial, "Ficou pro dia 5.", "dia 5", "2013-03-05"},
  });
}

TEST(EverydayForms, ParaBeforeAMonthOrAfterAWeekdayDoesNotLookAhead) {
  expect_readings({
      {Genre::News, "Os números de emprego para janeiro continuaram a subir.", "janeiro", "2013-01"},
      // "de segunda para terça": the second end of a night, told in the past.
      {Genre::News, "O assalto foi na noite de segunda para terça.", "terça", "2013-02-12"},
  });
}

TEST(EverydayForms, DesdeAWeekdayOrADayOnOrBeforeItsDayLooksBack) {
  expect_readings({
      {Genre::News, "Ele não aparece desde terça.", "terça", "2013-02-05"},
      {Genre::Colloquial, "Está parado desde o dia 20.", "o dia 20", "2013-01-20"},
  });
}

TEST(EverydayForms, NewsKeepsAWeekdayNamedOnItsOwnDay) {
  expect_readings({
      {Genre::News, "O ministro disse terça-feira que vai recorrer.", "terça-feira", "2013-02-12"},
      {Genre::News, "As ações foram vendidas até terça-feira.", "terça-feira", "2013-02-12"},
  });
}

TEST(EverydayForms, ColloquialTextsMoveAWeekdayNamedOnItsOwnDayByTense) {
  expect_readings({
      {Genre::Colloquial, "Terça tem jogo.", "Terça", "2013-02-19"},
      {Genre::Colloquial, "Até terça!", "terça", "2013-02-19"},
      {Genre::Colloquial, "Na terça fui ao médico.", "terça", "2013-02-05"},
      // "nesta terça" is today in every genre.
      {Genre::Colloquial, "Nesta terça o bloco desfila.", "terça", "2013-02-12"},
  });
}

TEST(EverydayForms, AWeekendAheadByTenseOrDemonstrativeAndBehindInThePast) {
  expect_readings({
      {Genre::Colloquial, "No fim de semana vamos pra praia.", "fim de semana", "2013-W07-WE"},
      {Genre::News, "Nesse fim de semana vai chover.", "fim de semana", "2013-W07-WE"},
      {Genre::News, "No fim de semana choveu.", "fim de semana", "2013-W06-WE"},
      // On a Sunday "este fim de semana" is the one running.
      {Genre::News, "Este fim de semana está frio.", "Este fim de semana", "2013-W07-WE", Date{2013, 2, 17}},
  });
}

TEST(EverydayForms, AFeastStillAheadToldInThePastIsLastYears) {
  expect_readings({
      {Genre::News, "Na virada do ano choveu muito.", "virada do ano", "2012-12-31"},
      {Genre::Colloquial, "Vamos passar a virada do ano na praia.", "virada do ano", "2013-12-31"},
  });
}

TEST(EverydayForms, TheNearFutureOfSpeechIsAFutureReference) {
  expect_readings({
      {Genre::Colloquial, "Daqui a pouco eu te ligo.", "Daqui a pouco", "FUTURE_REF"},
      {Genre::Colloquial, "Já já eu chego aí.", "Já já", "FUTURE_REF"},
      {Genre::News, "Há pouco saiu o resultado.", "Há pouco", "PAST_REF"},
  });
}

// No expression holds `word` ("sexta" in "caiu para sexta posição").
void expect_no_expression_over(const std::string& text, const std::string& word) {
  for (const auto& e : tagger_for(Genre::Colloquial).tag(text, kTuesday))
    EXPECT_EQ(e.text.find(word), std::string::npos) << text << ": " << e.text;
}

// More readings of each form are in tests/data/phrases/pt-everyday.tsv.
TEST(EverydayForms, AShortWeekdayBetweenAPrepositionAndAConjunctionIsADay) {
  expect_readings({{Genre::Colloquial, "Deixa pra sexta que a gente resolve.", "sexta", "2013-02-15"},
                   {Genre::Colloquial, "Desde segunda que chove sem parar.", "segunda", "2013-02-11"}});
  // No conjunction: an ordinal counting the noun after it.
  expect_no_expression_over("O time caiu para sexta posição.", "sexta");
}

TEST(EverydayForms, ParaASemanaIsNextWeekUnlessTheWeekItIsFor) {
  expect_readings({{Genre::News, "Para a semana há reunião de condomínio.", "Para a semana", "2013-W08"}});
  expect_no_expression_over("Fizemos planos para a semana de provas.", "semana");
}

TEST(EverydayForms, AWeekdayWrittenWithADigitOrdinalIsThatWeekday) {
  expect_readings({{Genre::Colloquial, "A reunião é na 2.ª feira.", "2.ª feira", "2013-02-18"},
                   {Genre::Colloquial, "Fechado na 6ª-feira para balanço.", "6ª-feira", "2013-02-15"}});
  // A capitalised "Feira" going on into a name is a fair.
  expect_no_expression_over("A 6.ª Feira do Livro abriu as portas.", "Feira");
}

TEST(EverydayForms, AWeekdayFollowedByAgoraIsTheComingOne) {
  expect_readings({{Genre::Colloquial, "A gente se vê quarta agora.", "quarta agora", "2013-02-13"},
                   // After an article it counts something, and "agora" is the present.
                   {Genre::Colloquial, "Ganhou a primeira e quer a segunda agora.", "agora", "PRESENT_REF"}});
  expect_no_expression_over("Ganhou a primeira e quer a segunda agora.", "segunda");
}

}  // namespace
}  // namespace cronista::temporal
