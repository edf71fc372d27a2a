// The Portuguese sentence splitter with the shipped abbreviation list.
#include "temporal/sentence_splitter.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "test_support.h"

namespace cronista::temporal {
namespace {

const SentenceSplitter& splitter() {
  static const SentenceSplitter s = [] {
    auto loaded = SentenceSplitter::load(cronista::testing::source_dir() + "/resources/pt/abbreviations.txt");
    EXPECT_TRUE(loaded.ok()) << loaded.status().message();
    return loaded.ok() ? std::move(loaded).value() : SentenceSplitter();
  }();
  return s;
}

std::vector<std::string> sentences(const std::string& text) {
  std::vector<std::string> out;
  for (const TextSpan& s : splitter().split(text)) out.push_back(text.substr(s.start, s.end - s.start));
  return out;
}

using Sentences = std::vector<std::string>;

TEST(SentenceSplitter, SplitsAtFinalPunctuation) {
  EXPECT_EQ(sentences("O comboio partiu às nove. Chegou a Coimbra ao meio-dia! Quem o esperava? Ninguém."),
            (Sentences{"O comboio partiu às nove.", "Chegou a Coimbra ao meio-dia!", "Quem o esperava?",
                       "Ninguém."}));
}

TEST(SentenceSplitter, KeepsTitlesAndLegalAbbreviationsInsideTheSentence) {
  EXPECT_EQ(sentences("O Sr. Almeida e a Dra. Sousa reuniram-se com o Prof. Ramos. A reunião foi curta."),
            (Sentences{"O Sr. Almeida e a Dra. Sousa reuniram-se com o Prof. Ramos.", "A reunião foi curta."}));
  EXPECT_EQ(sentences("Nos termos do art. 5.º da Lei n.º 23/2007, o requerente foi notificado. Recorreu depois."),
            (Sentences{"Nos termos do art. 5.º da Lei n.º 23/2007, o requerente foi notificado.", "Recorreu depois."}));
  EXPECT_EQ(sentences("Ver pág. 12 e segs. do processo. O juiz decidiu."),
            (Sentences{"Ver pág. 12 e segs. do processo.", "O juiz decidiu."}));
}

TEST(SentenceSplitter, MultiWordAbbreviations) {
  // "cit." alone is no abbreviation; "op. cit." is.
  EXPECT_EQ(sentences("Segundo Mattoso, op. cit. Capítulo 3, o reino nasceu em 1143. Foi reconhecido depois."),
            (Sentences{"Segundo Mattoso, op. cit. Capítulo 3, o reino nasceu em 1143.", "Foi reconhecido depois."}));
  EXPECT_EQ(sentences("O estudo de Santos et al. Mostrou o contrário."),
            (Sentences{"O estudo de Santos et al.", "Mostrou o contrário."}));
}

TEST(SentenceSplitter, EtceteraEndsASentenceOnlyBeforeACapital) {
  EXPECT_EQ(sentences("Comprou maçãs, peras, etc. Depois voltou para casa."),
            (Sentences{"Comprou maçãs, peras, etc.", "Depois voltou para casa."}));
  EXPECT_EQ(sentences("Comprou maçãs, peras, etc. e voltou para casa."),
            (Sentences{"Comprou maçãs, peras, etc. e voltou para casa."}));
}

TEST(SentenceSplitter, DatesOrdinalsAndDecimalsDoNotEndSentences) {
  EXPECT_EQ(sentences("O desembarque foi a 6.6.1944 e durou 1.º dia inteiro. A taxa subiu 3.5 pontos em 2001."),
            (Sentences{"O desembarque foi a 6.6.1944 e durou 1.º dia inteiro.", "A taxa subiu 3.5 pontos em 2001."}));
  EXPECT_EQ(sentences("A guerra acabou em 1945. Em 1946 começou a reconstrução."),
            (Sentences{"A guerra acabou em 1945.", "Em 1946 começou a reconstrução."}));
}

TEST(SentenceSplitter, InitialsAndCompanyNames) {
  EXPECT_EQ(sentences("O livro de J. R. R. Tolkien foi traduzido. A editora Exemplo S.A. publicou-o em 2002."),
            (Sentences{"O livro de J. R. R. Tolkien foi traduzido.", "A editora Exemplo S.A. publicou-o em 2002."}));
  EXPECT_EQ(sentences("Júlio César morreu em 44 a.C. Augusto sucedeu-lhe."),
            (Sentences{"Júlio César morreu em 44 a.C.", "Augusto sucedeu-lhe."}));
}

TEST(SentenceSplitter, EllipsisAndDialogue) {
  EXPECT_EQ(sentences("Esperou... Esperou mais… Nada aconteceu."),
            (Sentences{"Esperou...", "Esperou mais…", "Nada aconteceu."}));
  EXPECT_EQ(sentences("Ficou a pensar... e adormeceu."), (Sentences{"Ficou a pensar... e adormeceu."}));
  EXPECT_EQ(sentences("— Vens amanhã? — perguntou ela. — Venho."),
            (Sentences{"— Vens amanhã? — perguntou ela.", "— Venho."}));
}

TEST(SentenceSplitter, ClosingQuotesStayWithTheirSentence) {
  EXPECT_EQ(sentences("Disse: «Volto no Natal.» E voltou. Escreveu \"Adeus!\" Partiu."),
            (Sentences{"Disse: «Volto no Natal.»", "E voltou.", "Escreveu \"Adeus!\"", "Partiu."}));
}

TEST(SentenceSplitter, TrimsWhiteSpaceAndHonoursTheRange) {
  const std::string text = "  Primeira frase.   Segunda frase  \n";
  const std::vector<TextSpan> spans = splitter().split(text);
  ASSERT_EQ(spans.size(), 2u);
  EXPECT_EQ(spans[0], (TextSpan{2, 17}));
  EXPECT_EQ(text.substr(spans[1].start, spans[1].end - spans[1].start), "Segunda frase");
  EXPECT_TRUE(splitter().split("   \n\t ").empty());
  const std::string two = "Um. Dois. Três.";
  const std::vector<TextSpan> middle = splitter().split(two, 4, 9);
  ASSERT_EQ(middle.size(), 1u);
  EXPECT_EQ(middle[0], (TextSpan{4, 9}));
}

TEST(SentenceSplitter, WithoutAbbreviationsTitlesSplit) {
  const SentenceSplitter bare;
  EXPECT_EQ(bare.split("O Sr. Almeida chegou.").size(), 2u);
  EXPECT_EQ(bare.split("O J. Almeida chegou.").size(), 1u);
}

TEST(SentenceSplitter, MalformedAbbreviationFileNamesTheLine) {
  auto bad = SentenceSplitter::parse("# comentário\n@class ABBREVIATION\nsr.\ndra\n", "abreviaturas.txt");
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.status().message(), "abreviaturas.txt:4: abbreviation 'dra' must end with a period");
  auto flag = SentenceSplitter::parse("@class ABBREVIATION\netc. = fim\n", "a.txt");
  ASSERT_FALSE(flag.ok());
  EXPECT_NE(flag.status().message().find("a.txt:2:"), std::string::npos);
  auto no_class = SentenceSplitter::parse("sr.\n", "b.txt");
  ASSERT_FALSE(no_class.ok());
  EXPECT_NE(no_class.status().message().find("b.txt:1:"), std::string::npos);
  auto missing = SentenceSplitter::load("/nonexistent/abbreviations.txt");
  ASSERT_FALSE(missing.ok());
  EXPECT_NE(missing.status().message().find("/nonexistent/abbreviations.txt"), std::string::npos);
  EXPECT_GT(splitter().abbreviation_count(), 100u);
}

}  // namespace
}  // namespace cronista::temporal
