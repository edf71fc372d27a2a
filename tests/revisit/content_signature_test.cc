// Change detection on main text: trivial edits and presentation are not
// changes, new content is.
#include <gtest/gtest.h>

#include <string>

#include "revisit/content_signature.h"

namespace cronista::revisit {
namespace {

const std::string kArticle =
    "A 6 de junho de 1944, as tropas aliadas desembarcaram nas praias da Normandia. "
    "A operação, preparada durante meses em Inglaterra, reuniu mais de cinco mil navios "
    "e dezenas de milhares de soldados. Nos dias seguintes, a cabeça de ponte alargou-se "
    "lentamente, apesar da resistência alemã nas cidades do interior. Caen só seria tomada "
    "em julho, depois de semanas de combates e de bombardeamentos que destruíram a cidade. "
    "Em Portugal, os jornais da época noticiaram o desembarque com dias de atraso, sujeitos "
    "à censura prévia, e a população acompanhou os acontecimentos pela rádio estrangeira. "
    "Para muitos historiadores, aquele verão marcou o princípio do fim da guerra na Europa, "
    "que terminaria menos de um ano depois, em maio de 1945, com a rendição da Alemanha.";

TEST(ContentSignature, WhiteSpaceAndCaseAreNotAChange) {
  std::string relaid = "  " + kArticle + "\n\n";
  for (auto& c : relaid)
    if (c == ' ') c = '\n';
  EXPECT_FALSE(is_change(content_signature(kArticle), content_signature(relaid)));
  std::string upper = kArticle;
  upper[0] = 'a';
  EXPECT_EQ(content_signature(kArticle).exact, content_signature(upper).exact);
}

TEST(ContentSignature, ATypoFixedInALongArticleIsNotAChange) {
  std::string fixed = kArticle;
  fixed.replace(fixed.find("lentamente"), 10, "lentamentee");
  const auto a = content_signature(kArticle), b = content_signature(fixed);
  EXPECT_NE(a.exact, b.exact);
  EXPECT_LE(hamming_distance(a.simhash, b.simhash), kNearDuplicateBits);
  EXPECT_FALSE(is_change(a, b));
}

TEST(ContentSignature, ANewParagraphIsAChange) {
  const std::string updated = kArticle +
                              " Atualização: a 25 de agosto de 1944 Paris foi libertada, e o general "
                              "De Gaulle desfilou nos Campos Elísios perante uma multidão imensa.";
  EXPECT_TRUE(is_change(content_signature(kArticle), content_signature(updated)));
}

TEST(ContentSignature, ASentenceAddedIsAChangeEvenWhereTheSimhashBarelyMoves) {
  // An update line and a sentence of news added to a long article: words
  // added, so a change, though the simhash moves by no more than a typo's.
  const std::string updated = kArticle + " Atualizado às 14h32: os aliados entraram em Cherburgo.";
  const auto a = content_signature(kArticle), b = content_signature(updated);
  EXPECT_LE(hamming_distance(a.simhash, b.simhash), kNearDuplicateBits);
  EXPECT_TRUE(is_change(a, b));
  // A sentence taken away.
  std::string cut = kArticle;
  cut.erase(cut.find(" Caen só seria tomada"), cut.find(" Em Portugal") - cut.find(" Caen só seria tomada"));
  EXPECT_TRUE(is_change(a, content_signature(cut)));
}

TEST(ContentSignature, ACounterInTheMainTextIsNotAChange) {
  // Furniture that leaked into the main text and changes in place on every
  // fetch: as many words, a number altered.
  const auto a = content_signature(kArticle + " Artigo lido 1203 vezes.");
  const auto b = content_signature(kArticle + " Artigo lido 1251 vezes.");
  EXPECT_NE(a.exact, b.exact);
  EXPECT_FALSE(is_change(a, b));
}

// A front page: the latest headlines, each a link. The day's weather
// bulletin replaces yesterday's: as many words, the simhash moved no more
// than a typo moves it, but another link.
TEST(ContentSignature, AHeadlineReplacedInAListIsAChangeThroughItsLink) {
  const std::string intro = kArticle + " Últimas notícias:";
  const std::string before_text = intro + " Boletim do tempo para sexta-feira. Greve nos comboios da Linha de Sintra.";
  const std::string after_text = intro + " Boletim do tempo para sábado. Greve nos comboios da Linha de Sintra.";
  auto before = content_signature(before_text), after = content_signature(after_text);
  // The text alone cannot tell it from an edit in place.
  ASSERT_EQ(before.words, after.words);
  ASSERT_LE(hamming_distance(before.simhash, after.simhash), kNearDuplicateBits);
  EXPECT_FALSE(is_change(before, after));
  before.links = link_set_signature({"http://jornal.pt/tempo/2024-05-03", "http://jornal.pt/2024/05/greve"});
  after.links = link_set_signature({"http://jornal.pt/tempo/2024-05-04", "http://jornal.pt/2024/05/greve"});
  EXPECT_TRUE(is_change(before, after));
  // The same links in another order, or one twice: the same set, no change.
  auto relaid = before;
  relaid.links = link_set_signature(
      {"http://jornal.pt/2024/05/greve", "http://jornal.pt/tempo/2024-05-03", "http://jornal.pt/2024/05/greve"});
  EXPECT_EQ(relaid.links, before.links);
  EXPECT_FALSE(is_change(before, relaid));
  // A signature stored before links were kept (0) leaves the text to decide.
  auto old = before;
  old.links = 0;
  EXPECT_FALSE(is_change(old, after));
  EXPECT_NE(link_set_signature({}), 0u);
}

TEST(ContentSignature, AnotherArticleIsFarAway) {
  const std::string other =
      "No verão de 2001 a seca atingiu o Alentejo e as barragens ficaram a metade da capacidade; "
      "os agricultores pediram apoio ao governo, que prometeu medidas até ao fim de setembro.";
  const auto a = content_signature(kArticle), b = content_signature(other);
  EXPECT_GT(hamming_distance(a.simhash, b.simhash), 10);
  EXPECT_TRUE(is_change(a, b));
}

TEST(ContentSignature, TextAppearingOnAnEmptyPageIsAChange) {
  const auto empty = content_signature("   \n ");
  EXPECT_EQ(empty.words, 0u);
  EXPECT_TRUE(is_change(empty, content_signature("Ontem choveu.")));
  EXPECT_FALSE(is_change(empty, content_signature("")));
}

TEST(ContentSignature, InAShortTextEveryWordCounts) {
  EXPECT_TRUE(is_change(content_signature("Reunião adiada para sexta-feira, 14 de março."),
                        content_signature("Reunião adiada para sábado, 15 de março.")));
}

}  // namespace
}  // namespace cronista::revisit
