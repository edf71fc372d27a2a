// Value rules of the resolver that depend on the words around an expression,
// on real Portuguese sentences of both variants (pt-PT and pt-BR) with fixed
// document dates: durations tied to an event, the tense that picks the year of
// a month or the week of a weekday, quantities that are not years.
#include <gtest/gtest.h>

#include "temporal/tagger.h"
#include "temporal/tagger_testing.h"
#include "test_support.h"

namespace cronista::temporal {
namespace {

using namespace tagger_testing;

TEST(TaggerValues, AShiftFromAnEventIsADuration) {
  const Date dct{1998, 2, 13};
  auto r = tag("Esta medida vem apenas um mês depois de a Qantas ter suspendido os voos.", dct);
  Found month = find(r, "um mês");
  EXPECT_EQ(month.type, "DURATION");
  EXPECT_EQ(month.value, "P1M");
  EXPECT_EQ(month.harem_text, "um mês depois");  // HAREM keeps the signal
  r = tag("Os bancos devem esperar pelo menos 30 dias antes de concluírem a compra.", dct);
  EXPECT_EQ(find(r, "pelo menos 30 dias").value, "P30D");
  r = tag("A empresa faliu três anos depois que o fundador morreu.", dct);
  EXPECT_EQ(find(r, "três anos").type, "DURATION");
  // Without an event after it, the shift is a date counted from the last one.
  r = tag("Em 1990 casou. Dois anos depois mudou-se para o Brasil.", dct);
  EXPECT_EQ(find(r, "Dois anos depois").value, "1992");
}

TEST(TaggerValues, TheVerbOfItsClausePicksTheYearOfAMonth) {
  // A future verb of the same clause outweighs a nearer past month.
  auto r = tag("A coronel será nomeada comandante do vaivém espacial para uma missão em dezembro.", Date{1998, 3, 4});
  EXPECT_EQ(find(r, "dezembro").value, "1998-12");
  // A past verb of the sentence keeps a month that is nearer ahead in the past.
  r = tag("Taylor, que deixou o cargo de presidente, presidente e diretor geral em março por motivos de saúde, "
          "foi substituído.",
          Date{1989, 11, 2});
  EXPECT_EQ(find(r, "março").value, "1989-03");
  // The verb of the clause, not the nearer one of the main clause.
  r = tag("Os governos, cujas conversações devem terminar até maio, convidaram o partido a aderir.", Date{1998, 3, 22});
  EXPECT_EQ(find(r, "maio").value, "1998-05");
  // A deadline a fortnight ahead stays ahead whatever the tense.
  r = tag("A proposta, que devia caducar na sexta-feira, foi prorrogada até 16 de novembro.", Date{1989, 10, 30});
  EXPECT_EQ(find(r, "16 de novembro").value, "1989-11-16");
  // The verb before "que" is not the tense of the clause it opens.
  r = tag("A Conseco disse que está a pedir o resgate em 7 de dezembro de todas as ações.", Date{1989, 11, 2});
  EXPECT_EQ(find(r, "7 de dezembro").value, "1989-12-07");
  // The conditional of reported speech looks ahead.
  r = tag("O ministro disse que os novos voos partiriam de Bombaim a 6 de agosto.", Date{1998, 2, 13});
  EXPECT_EQ(find(r, "6 de agosto").value, "1998-08-06");
}

TEST(TaggerValues, NounsEndingInIaAreNotVerbsInThePast) {
  // pt-BR: "Índia", "econômica" are not imperfects; "vai" speaks of the future.
  auto r = tag("A companhia aérea vai dobrar os voos para a Índia até agosto.", Date{2010, 2, 15});
  EXPECT_EQ(find(r, "agosto").value, "2010-08");
  r = tag("O governo anunciou em fevereiro a nova política econômica.", Date{2010, 6, 15});
  EXPECT_EQ(find(r, "fevereiro").value, "2010-02");
}

// The expression with this value; fails the test if absent.
Found with_value(const std::vector<Found>& all, const std::string& value) {
  for (const auto& f : all)
    if (f.value == value) return f;
  ADD_FAILURE() << "no expression valued " << value;
  return {};
}

TEST(TaggerValues, AReportOnAQuarterKeepsItsSubject) {
  const Date dct{1989, 11, 1};
  auto r = tag("A empresa anunciou um aumento de 20% no lucro do terceiro trimestre. Após um segundo trimestre em "
               "baixo, atribuiu o aumento aos consumíveis. As despesas foram inferiores às de há um ano. O prejuízo "
               "deste trimestre inclui encargos. O trimestre em curso começou bem.",
               dct);
  EXPECT_EQ(find(r, "um segundo trimestre").value, "1989-Q2");
  EXPECT_EQ(find(r, "há um ano").value, "1988-Q3");  // the subject a year before, not the quarter in passing
  EXPECT_EQ(with_value(r, "1989-Q3").text, "terceiro trimestre");
  EXPECT_EQ(find(r, "trimestre").value, "1989-Q3");  // "deste trimestre": the one reported on
  EXPECT_EQ(find(r, "O trimestre em curso").value, "1989-Q4");  // the one running at the document date
  // "o terceiro trimestre deste ano" names the subject too; "de há um ano" looks back from it.
  r = tag("No terceiro trimestre deste ano, o lucro foi de 10,5 milhões, face a 10,3 milhões de há um ano.", dct);
  EXPECT_EQ(find(r, "há um ano").value, "1988-Q3");
  // pt-BR.
  r = tag("O lucro no segundo trimestre caiu. Neste trimestre, a empresa lucrou mais com a exportação.", Date{2010, 8, 10});
  EXPECT_EQ(find(r, "trimestre").value, "2010-Q2");
}

TEST(TaggerValues, AYearAheadIsAForecastNotTheYearUnderDiscussion) {
  auto r = tag("A fábrica só começa a produzir em 1993. A empresa previu um aumento dos resultados para o ano inteiro.",
               Date{1989, 10, 30});
  EXPECT_EQ(find(r, "o ano inteiro").value, "1989");
  // A past year named is the one under discussion.
  r = tag("Em 1755 a cidade foi destruída. O ano inteiro foi de reconstrução.", Date{2010, 6, 15});
  EXPECT_EQ(find(r, "O ano inteiro").value, "1755");
}

TEST(TaggerValues, CountedThingsGradesAndIdiomsAreNotTimes) {
  const Date dct{2010, 6, 15};
  // A number between a quantity word and a plural noun counts things.
  auto r = tag("O museu guarda cerca de 1200 mapas e mais de 1500 livros; recebeu uns 2000 visitantes.", dct);
  EXPECT_TRUE(r.empty()) << r.front().text;
  r = tag("A biblioteca tem quase 1900 volumes raros.", dct);  // pt-BR
  EXPECT_TRUE(r.empty()) << r.front().text;
  // Years keep their reading.
  r = tag("Cerca de 1500, os portugueses chegaram ao Brasil. A Inglaterra não teve até 1640 lutas religiosas.", dct);
  EXPECT_EQ(find(r, "Cerca de 1500").value, "1500");
  EXPECT_TRUE(has(r, "1640"));
  // A school grade written with a digit ordinal; in words it stays a time.
  r = tag("Entre as pessoas com o 12º ano, a taxa foi de 3,9 por cento. Os alunos do 9.º ano fizeram exame.", dct);
  EXPECT_TRUE(r.empty()) << r.front().text;
  r = tag("Federer venceu pelo quarto ano consecutivo.", dct);
  EXPECT_TRUE(has(r, "quarto ano"));
  // A name word ending the sentence before does not make the next date a name.
  r = tag("Informatizou os serviços da Escola. Em 1993 foi implantada a informática. Estuda na Escola 25 de Abril.",
          dct);
  ASSERT_EQ(r.size(), 1u);
  EXPECT_EQ(r[0].value, "1993");
  // "de última hora" is last-minute, not the last hour.
  r = tag("A rejeição dos esforços diplomáticos de última hora precipitou a guerra.", dct);
  EXPECT_TRUE(r.empty()) << r.front().text;
}

TEST(TaggerValues, PluralWeekdaysAndPartsOfTheDayAreHabits) {
  const Date dct{1998, 2, 13};
  auto r = tag("Os novos voos partem de Bombaim nas noites de segunda. A feira abre aos domingos e às "
               "segundas-feiras.",
               dct);
  Found nights = find(r, "noites de segunda");
  EXPECT_EQ(nights.type, "SET");
  EXPECT_EQ(nights.value, "XXXX-WXX-1TNI");
  EXPECT_EQ(find(r, "domingos").value, "XXXX-WXX-7");
  EXPECT_EQ(find(r, "segundas-feiras").value, "XXXX-WXX-1");
  // A weekday joined to a habit by "e" shares it, at the same part of the day.
  r = tag("Dois novos voos partiriam de Bombaim nas noites de segunda e terça-feira.", dct);
  EXPECT_EQ(find(r, "terça-feira").type, "SET");
  EXPECT_EQ(find(r, "terça-feira").value, "XXXX-WXX-2TNI");
  // pt-BR, with a part of the day; a singular weekday stays a date.
  r = tag("Eu trabalho às sextas de manhã, mas no domingo fui à praia.", dct);
  EXPECT_EQ(find(r, "sextas de manhã").value, "XXXX-WXX-5TMO");
  EXPECT_EQ(find(r, "domingo").value, "1998-02-08");
  for (const auto& e : tagger().tag("A feira abre aos domingos.", dct))
    EXPECT_EQ(e.harem_type, HaremType::Frequency);
}

TEST(TaggerValues, TheReadingsOfHa) {
  const Date dct{1991, 2, 25};
  // "há mais ou menos uma semana": an approximate past date, the whole of it.
  auto r = tag("Então, há mais ou menos uma semana, o general escolheu sábado à noite.", dct);
  EXPECT_EQ(find(r, "há mais ou menos uma semana").value, "1991-02-18");
  // "desde há N anos": for N years.
  r = tag("As famílias mantêm os segredos do vidro desde há cerca de dois séculos.", dct);
  Found since = find(r, "há cerca de dois séculos");
  EXPECT_EQ(since.type, "DURATION");
  EXPECT_EQ(since.value, "P2C");
  // pt-BR: a plain "há" is a date.
  r = tag("O Brasil mudou de moeda há três anos.", dct);
  EXPECT_EQ(find(r, "há três anos").value, "1988");
}

TEST(TaggerValues, APartOfANamedDayIsATimeOfThatDay) {
  const Date dct{1989, 11, 2};  // a Thursday
  auto r = tag("Em Londres, a meio da tarde de ontem, as ações da Ratners tinham subido.", dct);
  ASSERT_EQ(r.size(), 1u);
  EXPECT_EQ(r[0].type, "TIME");
  EXPECT_EQ(r[0].value, "1989-11-01TAF");
  r = tag("A greve começou no fim da manhã de sexta-feira.", dct);  // pt-BR and pt-PT alike
  EXPECT_EQ(find(r, "fim da manhã de sexta-feira").value, "1989-10-27TMO");
}

TEST(TaggerValues, ThatTimeBeforeAnyDateIsKeptUndated) {
  // pt-PT narrative without a date before: kept, value left open.
  auto found = tagger().tag("Nessa altura era um parisiense com uma costela americana.", Date{2007, 11, 1});
  ASSERT_EQ(found.size(), 1u);
  EXPECT_EQ(found[0].value, "XXXX-XX-XX");
  EXPECT_FALSE(found[0].resolved);
  // After a date it is that date.
  auto r = tag("Mudou-se para Paris em 1962. Nessa altura era um parisiense.", Date{2007, 11, 1});
  EXPECT_EQ(find(r, "altura").value, "1962");
}

TEST(TaggerValues, SoFarIsAHaremPresentReference) {
  const std::string text = "O ginásio é o melhor que até à data tenho visto. Vigora até à data da assinatura.";
  int harem = 0;
  for (const auto& e : tagger().tag(text, Date{2007, 11, 1})) {
    if (!e.in_harem) continue;
    ++harem;
    EXPECT_EQ(text.substr(e.harem_start, e.harem_end - e.harem_start), "até à data");
    EXPECT_EQ(e.value, "PRESENT_REF");
  }
  EXPECT_EQ(harem, 1);  // "até à data da assinatura" is a deadline, not "so far"
}

TEST(TaggerValues, AYearInsideANameIsNotADate) {
  const Date dct{2007, 11, 1};
  auto r = tag("Tocaram na Queima das Fitas de Coimbra 2006 e no Sesimbra Xtream Beach Fest 2007 com outras bandas.", dct);
  EXPECT_TRUE(r.empty()) << r.front().text;
  r = tag("O concerto integra a série CCB 15 Anos, com bilhetes a 15 euros. O centro existe há 15 anos.", dct);
  ASSERT_EQ(r.size(), 1u);
  EXPECT_EQ(r[0].text, "há 15 anos");
  // A year after a month, a season or a holiday, or opening a sentence, stays a date.
  r = tag("O disco saiu em Maio 2005. Natal 2006 foi frio. 2007 foi o melhor ano da banda.", dct);
  EXPECT_EQ(find(r, "Maio 2005").value, "2005-05");
  EXPECT_EQ(find(r, "Natal 2006").value, "2006-12-25");
  EXPECT_EQ(find(r, "2007").value, "2007");
}

TEST(TaggerValues, TheYearEndedOnADateIsAYearLong) {
  auto r = tag("A empresa espera que o lucro líquido do ano findo em 30 de junho de 1990 caia abaixo da estimativa.",
               Date{1989, 11, 2});
  Found year = find(r, "ano");
  EXPECT_EQ(year.type, "DURATION");
  EXPECT_EQ(year.value, "P1Y");
  EXPECT_EQ(find(r, "30 de junho de 1990").value, "1990-06-30");
  r = tag("No ano fiscal encerrado a 2 de julho, a rede teve um lucro de 2 milhões.", Date{1989, 10, 27});  // pt-BR
  EXPECT_EQ(find(r, "ano fiscal").value, "P1Y");
  EXPECT_EQ(find(r, "2 de julho").value, "1989-07-02");
}

TEST(TaggerValues, AReferenceNounLeavesItsPrepositionOutOfTheTimemlExtent) {
  auto r = tag("No passado, a Rússia criticou a Ucrânia. Neste momento não há comércio. Em breve virá a resposta.",
               Date{1998, 2, 27});
  EXPECT_EQ(find(r, "passado").value, "PAST_REF");
  EXPECT_EQ(find(r, "passado").harem_text, "No passado");
  EXPECT_EQ(find(r, "momento").value, "PRESENT_REF");
  EXPECT_EQ(find(r, "Em breve").value, "FUTURE_REF");  // "breve" is no noun: the phrase stays whole
}

TEST(TaggerValues, ThatDayAfterAYearIsNoFinerThanTheYear) {
  auto r = tag("Em 1987 a bolsa caiu. Nesse dia houve pânico. Em maio de 1990 houve greve. Nessa semana ninguém "
               "trabalhou. A 3 de maio de 1991 choveu. Nesse dia ninguém saiu.",
               Date{1998, 2, 27});
  ASSERT_EQ(r.size(), 6u);
  EXPECT_EQ(r[1].value, "1987-XX-XX");
  EXPECT_EQ(r[3].value, "1990-WXX");
  EXPECT_EQ(r[5].value, "1991-05-03");
}

TEST(TaggerValues, NumbersWrittenWithDotsNeitherSwallowNorSplit) {
  const Date dct{1989, 10, 30};
  // A weekday followed by a number with thousands dots keeps its reading.
  auto r = tag("Ao encerramento das atividades de quinta-feira, 5.745.188 ações tinham sido entregues.", dct);
  EXPECT_EQ(find(r, "quinta-feira").value, "1989-10-26");
  // The dot of "2.000" ends no sentence: "chegaram" is the verb of this one.
  r = tag("A 3 de março, 2.000 soldados chegaram à fronteira.", dct);
  EXPECT_EQ(find(r, "3 de março").value, "1989-03-03");
}

TEST(TaggerValues, AMonthBetweenSlashes) {
  const Date dct{2007, 12, 31};
  auto r = tag("Reino Unido quer proibir Tintim 12/Julho/2007 · 182 Comentários", dct);  // pt-PT blog
  EXPECT_EQ(find(r, "12/Julho/2007").value, "2007-07-12");
  r = tag("Atualmente, não (abril/2000). O decreto de 12/06/2007 vale para 2005/06.", dct);  // pt-BR
  EXPECT_EQ(find(r, "abril/2000").value, "2000-04");
  EXPECT_EQ(find(r, "12/06/2007").value, "2007-06-12");
}

TEST(TaggerValues, ANextOrLastDayOfAMonthNamedWithItsNumber) {
  const Date dct{2007, 12, 2};
  auto r = tag("O grupo apresenta-se no próximo dia 15 de dezembro, às 14 h.", dct);
  EXPECT_EQ(find(r, "próximo dia 15 de dezembro").value, "2007-12-15");
  r = tag("No passado dia 3 de março choveu; o último dia do mês foi frio.", dct);  // pt-PT
  EXPECT_EQ(find(r, "passado dia 3 de março").value, "2007-03-03");
  EXPECT_EQ(find(r, "o último dia do mês").value, "2007-12-31");
}

TEST(TaggerValues, AgesWithApproximationsAndPossessives) {
  auto r = tag("Com cerca de 18 anos cativa um espanhol. Pêro, aos seus 24 anos, é admitido. Ficou lá cerca de 18 anos.",
               Date{2007, 12, 2});
  ASSERT_EQ(r.size(), 1u);  // only the stay is a duration
  EXPECT_EQ(r[0].value, "P18Y");
}

TEST(TaggerValues, ADayOfTheMonthNamedAloneAndPerVersusForYears) {
  const Date dct{2010, 6, 15};
  auto r = tag("O jogo será no dia 18. Ele chegou no dia 3. Em março de 2009, no dia 12, houve greve.", dct);  // pt-BR
  EXPECT_EQ(find(r, "dia 18").value, "2010-06-18");
  EXPECT_EQ(find(r, "dia 3").type, "DATE");
  EXPECT_EQ(find(r, "dia 3").value, "2010-06-03");
  EXPECT_EQ(find(r, "dia 12").value, "2009-03-12");  // the month under discussion
  r = tag("Viveu lá por anos e ganha 10 mil euros por ano.", dct);
  for (const auto& f : r) EXPECT_NE(f.type, "SET") << f.text;  // "por anos" is a duration
}

TEST(TaggerValues, CitiesRisesAndDailyLifeAreNoHolidaysNorDates) {
  auto r = tag("O presidente chegou a Assunção, no Paraguai, após a ascensão ao poder. No dia a dia, trabalha; as "
               "vendas sobem mês a mês. O dia da Assunção é feriado.",
               Date{2010, 6, 15});
  ASSERT_EQ(r.size(), 2u);
  EXPECT_EQ(r[0].text, "mês a mês");
  EXPECT_EQ(r[0].type, "SET");
  EXPECT_EQ(r[0].value, "P1M");
  EXPECT_EQ(r[1].value, "2010-08-15");
  r = tag("Dia após dia, ano após ano, a cidade cresce.", Date{2010, 6, 15});
  ASSERT_EQ(r.size(), 2u);
  EXPECT_EQ(r[1].value, "P1Y");
}

TEST(TaggerValues, ForNowAndHoursUponHours) {
  auto r = tag("Por agora, esperou horas e horas e dias e dias.", Date{2010, 6, 15});
  EXPECT_EQ(find(r, "Por agora").value, "PRESENT_REF");
  EXPECT_EQ(find(r, "horas e horas").value, "PTXH");
  EXPECT_EQ(find(r, "dias e dias").type, "DURATION");
}

TEST(TaggerValues, TwoNumbersInARowAreTwoExpressions) {
  auto r = tag("Casou em 1875\nOnze anos depois, morreu. O vidro existe há 7 mil anos; o templo tem três mil anos.",
               Date{2010, 6, 15});
  EXPECT_EQ(find(r, "1875").value, "1875");
  EXPECT_EQ(find(r, "Onze anos depois").value, "1886");
  EXPECT_EQ(find(r, "três mil anos").value, "P3000Y");
  EXPECT_TRUE(has(r, "há 7 mil anos"));
  r = tag("A cidade tem 2,9 mil anos.", Date{2010, 6, 15});
  EXPECT_EQ(find(r, "2,9 mil anos").value, "P2900Y");
}

}  // namespace
}  // namespace cronista::temporal
