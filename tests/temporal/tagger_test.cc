// The tagger, rule family by rule family, on real Portuguese sentences of
// both variants (pt-PT and pt-BR), with fixed document dates.
#include "temporal/tagger.h"

#include <gtest/gtest.h>

#include <random>
#include <thread>

#include "temporal/tagger_testing.h"
#include "test_support.h"

namespace cronista::temporal {
namespace {

using namespace tagger_testing;

TEST(TaggerExplicit, FullDatesInWordsAndDigits) {
  auto r = tag("O desembarque na Normandia começou a 6 de junho de 1944; a lei de 06/06/1944 "
               "foi revista em 6.6.1950 e em 6-VI-1960.");
  EXPECT_EQ(find(r, "6 de junho de 1944").value, "1944-06-06");
  EXPECT_EQ(find(r, "06/06/1944").chronons, std::vector<std::string>{"1944-06-06"});
  EXPECT_EQ(find(r, "6.6.1950").value, "1950-06-06");
  EXPECT_EQ(find(r, "6-VI-1960").value, "1960-06-06");
}

TEST(TaggerExplicit, MonthsYearsAndTheirPrepositions) {
  auto r = tag("A empresa foi fundada em junho de 1944 e fechou em 1999.");
  Found june = find(r, "junho de 1944");
  EXPECT_EQ(june.value, "1944-06");
  EXPECT_EQ(june.chronons, std::vector<std::string>{"1944-06-XX"});
  EXPECT_EQ(june.harem_text, "em junho de 1944");  // HAREM takes the preposition in
  EXPECT_EQ(find(r, "1999").value, "1999");
}

TEST(TaggerExplicit, DecadesAndCenturies) {
  auto r = tag("Nos anos 40 e na década de 1950, já no século XX, a vila cresceu.");
  EXPECT_EQ(find(r, "anos 40").value, "194");
  EXPECT_EQ(find(r, "década de 1950").chronons, (std::vector<std::string>{"1950-XX-XX", "1959-XX-XX"}));
  EXPECT_EQ(find(r, "século XX").value, "19");
}

TEST(TaggerExplicit, PartsOfYearsSeasonsAndQuarters) {
  auto r = tag("Em meados de 1996 e no verão de 1998, antes do 1.º trimestre de 2003; e o terceiro trimestre?",
               Date{2003, 11, 2});
  EXPECT_EQ(find(r, "meados de 1996").value, "1996");
  EXPECT_EQ(find(r, "verão de 1998").value, "1998-SU");
  EXPECT_EQ(find(r, "1.º trimestre de 2003").value, "2003-Q1");
  EXPECT_EQ(find(r, "o terceiro trimestre").value, "2003-Q3");  // TimeML takes the article in
}

TEST(TaggerExplicit, NumberWords) {
  auto r = tag("Em dois mil e três houve eleições, e a revolução foi a vinte e cinco de abril de 1974.");
  EXPECT_EQ(find(r, "dois mil e três").value, "2003");
  EXPECT_EQ(find(r, "vinte e cinco de abril de 1974").value, "1974-04-25");
}

TEST(TaggerTimes, ClockTimesAndPartsOfTheDay) {
  auto r = tag("A sessão começa às 17h30 de 3 de março de 2009 e o comboio parte às 9 da manhã.");
  Found t = find(r, "17h30 de 3 de março de 2009");
  EXPECT_EQ(t.type, "TIME");
  EXPECT_EQ(t.value, "2009-03-03T17:30");
  EXPECT_EQ(t.chronons, std::vector<std::string>{"2009-03-03 17:30"});
  EXPECT_EQ(find(r, "9 da manhã").value, "2009-03-03T09:00");  // the day mentioned last
  r = tag("Ontem à noite o jogo acabou tarde.", Date{1998, 2, 13});
  EXPECT_EQ(find(r, "Ontem à noite").value, "1998-02-12TNI");
}

TEST(TaggerTimes, HoursInWordsAndDaysOfTheMonth) {
  auto r = tag("A sessão de 3 de março acabou às três horas e vinte minutos da tarde.", Date{2008, 3, 10});
  Found t = find(r, "três horas e vinte minutos da tarde");
  EXPECT_EQ(t.type, "TIME");
  EXPECT_EQ(t.value, "2008-03-03T15:20");
  r = tag("No primeiro dia do ano e no último dia de fevereiro de 2000.", Date{2008, 3, 10});
  EXPECT_EQ(find(r, "primeiro dia do ano").value, "2008-01-01");
  EXPECT_EQ(find(r, "último dia de fevereiro de 2000").value, "2000-02-29");
}

TEST(TaggerIntervals, TwoChronons) {
  auto r = tag("O festival decorre de abril a maio de 2009; a guerra durou entre 1939 e 1945.");
  Found spring = find(r, "abril a maio de 2009");
  EXPECT_EQ(spring.harem, "CALENDAR_REF/INTERVAL");
  EXPECT_EQ(spring.harem_text, "de abril a maio de 2009");
  EXPECT_EQ(spring.chronons, (std::vector<std::string>{"2009-04-XX", "2009-05-XX"}));
  EXPECT_EQ(find(r, "1939 e 1945").chronons, (std::vector<std::string>{"1939-XX-XX", "1945-XX-XX"}));
}

TEST(TaggerDurations, DurationsAndTheTwoReadingsOfHa) {
  auto r = tag("Ficou lá durante dois meses e meio. Há três anos que vive em Lisboa. Há três anos, mudou-se para o Porto.",
               Date{2010, 6, 15});
  Found stay = find(r, "dois meses e meio");
  EXPECT_EQ(stay.type, "DURATION");
  EXPECT_EQ(stay.value, "P2M15D");
  EXPECT_TRUE(stay.chronons.empty());
  ASSERT_EQ(r.size(), 3u);
  EXPECT_EQ(r[1].type, "DURATION");  // "Há três anos que vive…"
  EXPECT_EQ(r[1].value, "P3Y");
  EXPECT_EQ(r[2].type, "DATE");  // "Há três anos, mudou-se…"
  EXPECT_EQ(r[2].value, "2007");
}

TEST(TaggerSets, FrequenciesAndSets) {
  auto r = tag("Vou ao ginásio todos os dias, faço compras semanalmente e viajo cada ano; "
               "a feira é todas as quintas-feiras.");
  EXPECT_EQ(find(r, "todos os dias").value, "P1D");
  EXPECT_EQ(find(r, "semanalmente").type, "SET");
  EXPECT_EQ(find(r, "cada ano").value, "P1Y");
  EXPECT_EQ(find(r, "todas as quintas-feiras").value, "XXXX-WXX-4");
}

TEST(TaggerDeictic, AgainstTheDocumentDate) {
  const Date dct{1998, 2, 13};  // a Friday
  auto r = tag("Hoje está bom dia. Ontem choveu e anteontem fez sol. Amanhã vai chover.", dct);
  EXPECT_EQ(find(r, "Hoje").value, "1998-02-13");
  EXPECT_EQ(find(r, "Ontem").value, "1998-02-12");
  EXPECT_EQ(find(r, "anteontem").value, "1998-02-11");
  EXPECT_EQ(find(r, "Amanhã").value, "1998-02-14");
  r = tag("Na próxima semana, no mês passado, este ano e há duas semanas houve greves.", dct);
  EXPECT_EQ(find(r, "próxima semana").value, "1998-W08");
  EXPECT_EQ(find(r, "mês passado").value, "1998-01");
  EXPECT_EQ(find(r, "este ano").value, "1998");
  EXPECT_EQ(find(r, "há duas semanas").value, "1998-01-30");
}

TEST(TaggerDeictic, MonthAndYearRollover) {
  const Date dct{1998, 1, 10};
  auto r = tag("O mês passado foi frio e o ano passado também; o próximo mês será pior.", dct);
  EXPECT_EQ(find(r, "O mês passado").value, "1997-12");
  EXPECT_EQ(find(r, "o ano passado").value, "1997");
  EXPECT_EQ(find(r, "o próximo mês").value, "1998-02");
}

TEST(TaggerDeictic, WeekdaysAreTheNearestInTheTenseOfTheSentence) {
  const Date dct{1998, 2, 13};  // Friday
  auto r = tag("O ministro chegou a Lisboa na terça-feira. Partirá na segunda-feira. Na quarta-feira passada falou.", dct);
  EXPECT_EQ(find(r, "terça-feira").value, "1998-02-10");
  EXPECT_EQ(find(r, "segunda-feira").value, "1998-02-16");
  EXPECT_EQ(find(r, "quarta-feira passada").value, "1998-02-11");
}

TEST(TaggerDeictic, WithoutADocumentDateTheValueIsLeftOpen) {
  auto found = tagger().tag("Ontem choveu.", std::nullopt);
  ASSERT_EQ(found.size(), 1u);
  EXPECT_FALSE(found[0].resolved);
  EXPECT_EQ(found[0].value, "XXXX-XX-XX");
  EXPECT_TRUE(found[0].chronons.empty());
}

TEST(TaggerAnaphoric, AgainstTheLastDateMentioned) {
  auto r = tag("Em 1990 casou. No ano seguinte teve um filho. Dois anos depois mudou-se para o Brasil.", Date{2010, 6, 15});
  EXPECT_EQ(find(r, "ano seguinte").value, "1991");
  EXPECT_EQ(find(r, "Dois anos depois").value, "1993");  // the anchor moved to 1991
  r = tag("O tratado foi assinado a 3 de março de 2001. Na véspera houve protestos e no dia seguinte festa.");
  EXPECT_EQ(find(r, "véspera").value, "2001-03-02");
  EXPECT_EQ(find(r, "dia seguinte").value, "2001-03-03");  // the day after the eve, the anchor now
}

TEST(TaggerHolidays, FixedAndMovableFeastsOfPortugalAndBrazil) {
  auto r = tag("No Natal de 2010, na Páscoa de 2025, na Sexta-feira Santa de 2024, no Carnaval de 2024 "
               "e no Corpo de Deus de 2024.");
  EXPECT_EQ(find(r, "Natal de 2010").value, "2010-12-25");
  EXPECT_EQ(find(r, "Páscoa de 2025").value, "2025-04-20");
  EXPECT_EQ(find(r, "Sexta-feira Santa de 2024").value, "2024-03-29");
  EXPECT_EQ(find(r, "Carnaval de 2024").value, "2024-02-13");
  EXPECT_EQ(find(r, "Corpo de Deus de 2024").value, "2024-05-30");
  r = tag("No feriado de Tiradentes e no Dia de Finados o comércio fecha.", std::nullopt);
  EXPECT_EQ(find(r, "Tiradentes").value, "XXXX-04-21");  // year unknown
  EXPECT_EQ(find(r, "Dia de Finados").value, "XXXX-11-02");
}

TEST(TaggerBrazilian, BrazilianSpellingAndUsage) {
  auto r = tag("O show será no sábado, 15, e a feira acontece todo dia; o contrato vale por três meses.",
               Date{2008, 3, 10});
  EXPECT_EQ(find(r, "sábado, 15").value, "2008-03-15");
  EXPECT_EQ(find(r, "todo dia").type, "SET");
  EXPECT_EQ(find(r, "três meses").value, "P3M");
  r = tag("O país bateu um recorde de casos na quarta-feira (11).", Date{2015, 6, 12});
  EXPECT_EQ(find(r, "quarta-feira (11)").value, "2015-06-11");
  r = tag("Faz dois anos que ele chegou a São Paulo, em dezembro de 2006.", Date{2008, 12, 20});
  EXPECT_EQ(find(r, "dezembro de 2006").value, "2006-12");
}

TEST(TaggerNegative, StreetBridgeAndQuantityNamesAreNotDates) {
  auto r = tag("Mora na Rua 1.º de Maio, perto da Avenida 5 de Outubro e da Ponte 25 de Abril. "
               "Havia 2000 soldados e 1945 habitantes.");
  EXPECT_TRUE(r.empty()) << r[0].text;
  r = tag("Em 1945 havia 2000 soldados na vila, e o 25 de Abril de 1974 mudou tudo.");
  EXPECT_TRUE(has(r, "1945"));
  EXPECT_FALSE(has(r, "2000"));
  EXPECT_EQ(find(r, "25 de Abril de 1974").value, "1974-04-25");
}

TEST(TaggerNegative, LawAndCaseNumbersAreNotDates) {
  auto r = tag("Alterado pela Lei n.º 8/2017 e pelo Processo 123/1998; a lei de 06/06/1944 revogou-o em 1950.");
  EXPECT_FALSE(has(r, "8/2017"));
  EXPECT_FALSE(has(r, "123/1998"));
  EXPECT_EQ(find(r, "06/06/1944").value, "1944-06-06");
  EXPECT_EQ(find(r, "1950").value, "1950");
}

TEST(TaggerNegative, AgesAreNotDurations) {
  auto r = tag("O diretor, Nigel Judah, de 58 anos, reformou-se aos 65 anos depois de trabalhar 30 anos na casa.");
  EXPECT_FALSE(has(r, "58 anos"));
  EXPECT_FALSE(has(r, "65 anos"));
  EXPECT_EQ(find(r, "30 anos").value, "P30Y");
  r = tag("O pai morreu com 43 anos; o realizador, 68 anos, estreia hoje o filme que demorou dois anos.");
  EXPECT_FALSE(has(r, "43 anos"));
  EXPECT_FALSE(has(r, "68 anos"));
  EXPECT_EQ(find(r, "dois anos").value, "P2Y");
}

TEST(Tagger, OffsetsAreBytesAndExpressionsDoNotOverlap) {
  const std::string text = "Já em março, às 9h e à noite, e em 2001–2003 também.";
  auto found = tagger().tag(text, Date{2010, 6, 15});
  ASSERT_FALSE(found.empty());
  std::size_t last_end = 0;
  for (const auto& e : found) {
    EXPECT_GE(e.start, last_end);
    EXPECT_LE(e.harem_start, e.start);
    EXPECT_EQ(e.text, text.substr(e.start, e.end - e.start));
    last_end = e.end;
  }
}

TEST(Tagger, IsSafeToShareBetweenThreads) {
  const std::string text = "Em 6 de junho de 1944, ontem, há três anos e na próxima semana.";
  const auto expected = tagger().tag(text, Date{2010, 6, 15});
  std::vector<std::thread> threads;
  std::vector<bool> same(4, false);
  for (int i = 0; i < 4; ++i)
    threads.emplace_back([&, i] {
      bool ok = true;
      for (int k = 0; k < 50; ++k) {
        auto got = tagger().tag(text, Date{2010, 6, 15});
        ok &= got.size() == expected.size();
        for (std::size_t j = 0; ok && j < got.size(); ++j) ok &= got[j].value == expected[j].value;
      }
      same[i] = ok;
    });
  for (auto& t : threads) t.join();
  for (bool s : same) EXPECT_TRUE(s);
}

TEST(Tagger, LoadFailsWithTheFileNamed) {
  testing::TempDir home;
  std::filesystem::create_directories(home / "resources/pt");
  std::filesystem::create_directories(home / "patterns");
  testing::write_file(home / "resources/pt/months.txt", "@class MONTH\nmaio = 5\n");
  testing::write_file(home / "patterns/pt.manual.patterns",
                      "format cronista-patterns 1\n\npattern A\nregex tag_MONTH\ntimex YEAR\nharem CALENDAR_REF DATE\n");
  auto t = Tagger::load(TaggerOptions{home.path().string(), {}});
  ASSERT_FALSE(t.ok());
  EXPECT_NE(t.status().message().find("pt.manual.patterns:5:"), std::string::npos) << t.status().message();
}

}  // namespace
}  // namespace cronista::temporal

namespace cronista::temporal {
namespace {

// Random mixtures of temporal words, numbers, punctuation and stray bytes:
// whatever the input, expressions stay inside the text, sorted, and apart.
TEST(Tagger, HoldsItsInvariantsOnArbitraryInput) {
  const std::vector<std::string> pieces = {
      "em", "de", "1998", "06/06/1944", "às", "17h30", "ontem", "há", "três", "anos", "próximo", "mês",
      "entre", "e", "a", "março", "sexta-feira", ",", ".", " ", "  ", "\n", "(", ")", "1.º", "século",
      "XX", "anos 40", "todos os dias", "Rua", "2000", "soldados", "\xC3", "\xA9", "\xFF", "-", "/",
      "9", "2005/06", "dia", "véspera", "Natal", "de 1939 a", "que", "vive"};
  std::mt19937 rng(20261122);
  for (int round = 0; round < 300; ++round) {
    std::string text;
    const int n = static_cast<int>(rng() % 40);
    for (int k = 0; k < n; ++k) {
      text += pieces[rng() % pieces.size()];
      if (rng() % 2) text += " ";
    }
    const std::optional<Date> dct = round % 3 ? std::optional<Date>(Date{1998, 2, 13}) : std::nullopt;
    auto found = tagger().tag(text, dct);
    std::size_t last = 0;
    for (const auto& e : found) {
      ASSERT_LE(e.start, e.end);
      ASSERT_LE(e.end, text.size());
      ASSERT_LE(e.harem_start, e.start);
      ASSERT_GE(e.start, last) << text;
      ASSERT_EQ(e.text, text.substr(e.start, e.end - e.start));
      last = e.end;
    }
  }
}

}  // namespace
}  // namespace cronista::temporal
