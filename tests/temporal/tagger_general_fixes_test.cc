// Clock times written with hours and seconds, two-digit years, numbers that
// are labels rather than years, and names that look like dates: real
// Portuguese sentences of both variants, with a fixed document date.
#include <gtest/gtest.h>

#include "temporal/tagger.h"
#include "temporal/tagger_testing.h"
#include "test_support.h"

namespace cronista::temporal {
namespace {

using namespace tagger_testing;

bool mentions(const std::vector<Found>& all, const std::string& digits) {
  for (const auto& f : all)
    if (f.text.find(digits) != std::string::npos) return true;
  return false;
}

TEST(TaggerClockTimes, HoursAfterAPrepositionAreAClockTime) {
  auto pt = tag("A loja fica aberta até às 20 horas e o comboio chega pelas 9 horas.");
  EXPECT_EQ(find(pt, "20 horas").type, "TIME");
  EXPECT_EQ(find(pt, "20 horas").value, "2010-06-15T20:00");
  EXPECT_EQ(find(pt, "9 horas").type, "TIME");
  auto br = tag("A palestra vai começar às 17 horas no auditório da faculdade.");
  EXPECT_EQ(find(br, "17 horas").type, "TIME");
  EXPECT_EQ(find(br, "17 horas").value, "2010-06-15T17:00");
}

TEST(TaggerClockTimes, HoursWithADateAreAClockTime) {
  auto r = tag("A assembleia foi convocada para as 15 horas de 3 de março de 2011.");
  bool time_found = false;
  for (const auto& f : r)
    if (f.text.find("15 horas") != std::string::npos) {
      EXPECT_EQ(f.type, "TIME") << f.text;
      time_found = true;
    }
  EXPECT_TRUE(time_found);
}

TEST(TaggerClockTimes, SecondsAndTheHsAbbreviation) {
  auto r = tag("O foguete partiu às 17h30m15s e a cápsula separou-se às 10:30:45.");
  EXPECT_EQ(find(r, "17h30m15s").value, "2010-06-15T17:30:15");
  EXPECT_EQ(find(r, "10:30:45").value, "2010-06-15T10:30:45");
  auto br = tag("O show começa às 21hs, com abertura dos portões às 19hs.");
  EXPECT_EQ(find(br, "21hs").value, "2010-06-15T21:00");
  EXPECT_EQ(find(br, "19hs").type, "TIME");
}

TEST(TaggerClockTimes, ACountOfHoursStaysADuration) {
  auto r = tag("A viagem de autocarro durou 17 horas e ninguém dormiu.");
  EXPECT_EQ(find(r, "17 horas").type, "DURATION");
  EXPECT_EQ(find(r, "17 horas").value, "PT17H");
}

TEST(TaggerLabelledNumbers, ANumberAfterALabelNounIsNoYear) {
  auto pt = tag("Escreva para o Apartado 1606 em Lisboa; o ofício n.º 1945 está na página 1939.");
  EXPECT_FALSE(mentions(pt, "1606"));
  EXPECT_FALSE(mentions(pt, "1945"));
  EXPECT_FALSE(mentions(pt, "1939"));
  auto br = tag("Envie a carta para a Caixa Postal 1606 e veja a pág. 1950 do catálogo de 2008.");
  EXPECT_FALSE(mentions(br, "1606"));
  EXPECT_FALSE(mentions(br, "1950"));
  EXPECT_EQ(find(br, "2008").value, "2008");
}

TEST(TaggerLabelledNumbers, ALawNumberIsNoDateButTheYearAfterIsOne) {
  auto r = tag("A Lei 1944/2001 foi revogada em 2005.");
  EXPECT_FALSE(mentions(r, "1944"));
  EXPECT_EQ(find(r, "2005").value, "2005");
}

TEST(TaggerLabelledNumbers, AYearAfterAPageWordWithAPrepositionStaysAYear) {
  auto r = tag("A página foi criada em 1999 e revista na primavera de 2003.");
  EXPECT_EQ(find(r, "1999").value, "1999");
}

TEST(TaggerTwoDigitYears, AfterAMonthOrASeason) {
  auto pt = tag("A fábrica abriu em março de 79 e a cheia foi no inverno de 83.");
  EXPECT_EQ(find(pt, "março de 79").value, "1979-03");
  EXPECT_EQ(find(pt, "inverno de 83").value, "1983-WI");
  auto br = tag("O disco saiu em dezembro de '79, e a turnê foi no verão de 85.");
  EXPECT_EQ(find(br, "dezembro de '79").value, "1979-12");
  EXPECT_EQ(find(br, "verão de 85").value, "1985-SU");
}

TEST(TaggerTwoDigitYears, TwoDigitsBeforeAUnitCountTheUnit) {
  auto r = tag("Fizeram um verão de 15 dias na serra e um inverno de 3 semanas na praia.");
  for (const auto& e : r) EXPECT_EQ(e.value.find("19"), std::string::npos) << e.text << " " << e.value;
  EXPECT_EQ(find(r, "15 dias").value, "P15D");
  EXPECT_EQ(find(r, "3 semanas").value, "P3W");
}

TEST(TaggerTwoDigitYears, AfterAMonthAndASlash) {
  auto r = tag("O LP foi gravado em março/79 e relançado em julho/2007.");
  EXPECT_EQ(find(r, "março/79").value, "1979-03");
  EXPECT_EQ(find(r, "julho/2007").value, "2007-07");
}

TEST(TaggerTwoDigitYears, AFourDigitYearAfterASeasonIsStillRead) {
  auto r = tag("Choveu muito no outono de 2009.");
  EXPECT_EQ(find(r, "outono de 2009").value, "2009-FA");
}

TEST(TaggerTownsThatLookLikeFeasts, NatalAfterABarePrepositionIsTheTown) {
  auto br = tag("Ele mora em Natal, no Rio Grande do Norte, desde 2004.");
  EXPECT_FALSE(mentions(br, "Natal"));
  EXPECT_EQ(find(br, "2004").value, "2004");
  auto pt = tag("No Natal a família junta-se em casa da avó.");
  EXPECT_EQ(find(pt, "Natal").value, "2010-12-25");
}

TEST(TaggerNamesThatLookLikeDates, ACapitalisedHabitWordBeforeASurnameIsAName) {
  auto pt = tag("Domingos Pereira chegou ontem a Braga.");
  EXPECT_FALSE(mentions(pt, "Domingos"));
  EXPECT_EQ(find(pt, "ontem").value, "2010-06-14");
  auto br = tag("A feira abre aos domingos e fecha às segundas.");
  EXPECT_EQ(find(br, "domingos").type, "SET");
}

}  // namespace
}  // namespace cronista::temporal
