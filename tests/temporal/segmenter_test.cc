// Temporal segmentation with hand-built expressions (the annotator is not
// involved: these tests pin down the segmentation rule of segmenter.h).
#include "temporal/segmenter.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "temporal/html_text.h"
#include "temporal/sentence_splitter.h"
#include "test_support.h"

namespace cronista::temporal {
namespace {

const SentenceSplitter& splitter() {
  static const SentenceSplitter s = [] {
    auto loaded = SentenceSplitter::load(cronista::testing::source_dir() + "/resources/pt/abbreviations.txt");
    return loaded.ok() ? std::move(loaded).value() : SentenceSplitter();
  }();
  return s;
}

// An expression over the first occurrence of `words` at or after `from`.
TemporalExpression expr(const std::string& text, const std::string& words, std::vector<Chronon> chronons,
                        std::size_t from = 0) {
  TemporalExpression e;
  e.start = text.find(words, from);
  EXPECT_NE(e.start, std::string::npos) << words;
  e.end = e.start + words.size();
  e.harem_start = e.start;
  e.harem_end = e.end;
  e.text = words;
  e.chronons = std::move(chronons);
  if (e.chronons.empty()) e.type = TimexType::Duration;
  return e;
}

std::vector<Segment> run(const TextDocument& doc, const std::vector<TemporalExpression>& exprs,
                         SegmentGranularity g = SegmentGranularity::Sentence, int gap = 7) {
  SegmenterOptions o;
  o.granularity = g;
  o.max_gap_days = gap;
  o.splitter = &splitter();
  return segment(doc, exprs, o);
}

std::string text_of(const TextDocument& d, const Segment& s) { return d.text.substr(s.start, s.end - s.start); }

std::vector<std::string> chronons_of(const Segment& s) {
  std::vector<std::string> out;
  for (const Chronon& c : s.chronons) out.push_back(c.to_string());
  return out;
}

// The invariant of segmenter.h: ordered, contiguous, covering the text.
void expect_tiling(const TextDocument& d, const std::vector<Segment>& segs, std::size_t expressions) {
  if (d.text.empty()) {
    EXPECT_TRUE(segs.empty());
    return;
  }
  ASSERT_FALSE(segs.empty());
  EXPECT_EQ(segs.front().start, 0u);
  EXPECT_EQ(segs.back().end, d.text.size());
  std::size_t listed_expressions = 0, listed_links = 0;
  for (std::size_t k = 0; k < segs.size(); ++k) {
    EXPECT_LT(segs[k].start, segs[k].end);
    if (k > 0) {
      EXPECT_EQ(segs[k].start, segs[k - 1].end);
    }
    listed_expressions += segs[k].expressions.size();
    listed_links += segs[k].links.size();
  }
  EXPECT_EQ(listed_expressions, expressions);
  EXPECT_EQ(listed_links, d.links.size());
}

TEST(Segmenter, OneSentenceWithTwoDatesIsOneSegmentWithTwoChronons) {
  const std::string text = "Eu no dia 22 de Outubro de 2013 vou embora mas volto no dia 2 de Janeiro de 2014.";
  const TextDocument d = plain_text_document(text);
  const std::vector<TemporalExpression> exprs = {expr(text, "22 de Outubro de 2013", {Chronon::of_day(2013, 10, 22)}),
                                                 expr(text, "2 de Janeiro de 2014", {Chronon::of_day(2014, 1, 2)})};
  const auto segs = run(d, exprs);
  ASSERT_EQ(segs.size(), 1u);
  EXPECT_EQ(chronons_of(segs[0]), (std::vector<std::string>{"2013-10-22", "2014-01-02"}));
  EXPECT_EQ(segs[0].expressions, (std::vector<std::size_t>{0, 1}));
  expect_tiling(d, segs, exprs.size());
}

TEST(Segmenter, SentencesAboutFarMomentsAreSeparateSegmentsEvenInOneParagraph) {
  const std::string text =
      "Eu no dia 22 de Outubro de 2013 vou embora. Levo pouca bagagem. Volto no dia 2 de Janeiro de 2014. "
      "Nesse dia janto com a família.";
  const TextDocument d = plain_text_document(text);
  const std::vector<TemporalExpression> exprs = {expr(text, "22 de Outubro de 2013", {Chronon::of_day(2013, 10, 22)}),
                                                 expr(text, "2 de Janeiro de 2014", {Chronon::of_day(2014, 1, 2)})};
  const auto segs = run(d, exprs);
  ASSERT_EQ(segs.size(), 2u);
  EXPECT_EQ(text_of(d, segs[0]), "Eu no dia 22 de Outubro de 2013 vou embora. Levo pouca bagagem. ");
  EXPECT_EQ(text_of(d, segs[1]), "Volto no dia 2 de Janeiro de 2014. Nesse dia janto com a família.");
  EXPECT_EQ(chronons_of(segs[0]), (std::vector<std::string>{"2013-10-22"}));
  EXPECT_EQ(chronons_of(segs[1]), (std::vector<std::string>{"2014-01-02"}));
  expect_tiling(d, segs, exprs.size());

  // At paragraph level, as in the original tool, the paragraph is one segment.
  const auto paragraphs = run(d, exprs, SegmentGranularity::Paragraph);
  ASSERT_EQ(paragraphs.size(), 1u);
  EXPECT_EQ(paragraphs[0].chronons.size(), 2u);
}

TEST(Segmenter, OverlappingAndNearbyMomentsStayTogether) {
  const std::string text =
      "Em 1944 a guerra entrou na fase final. A 6 de junho de 1944 os Aliados desembarcaram na Normandia. "
      "A 9 de junho de 1944 a cabeça de ponte estava consolidada. Em julho de 1944 avançaram para o interior.";
  const TextDocument d = plain_text_document(text);
  const std::vector<TemporalExpression> exprs = {
      expr(text, "1944", {Chronon::of_year(1944)}),
      expr(text, "6 de junho de 1944", {Chronon::of_day(1944, 6, 6)}),
      expr(text, "9 de junho de 1944", {Chronon::of_day(1944, 6, 9)}),
      expr(text, "julho de 1944", {Chronon::of_month(1944, 7)})};
  // 1944 overlaps 6 June; 9 June is 2 days after 6 June; July 1944 is
  // inside 1944. One segment.
  EXPECT_EQ(run(d, exprs).size(), 1u);
  // Without the year, July 1944 is far from 6 and 9 June (a month is longer
  // than the gap), and 9 June is 2 days from 6 June (close).
  const std::vector<TemporalExpression> no_year(exprs.begin() + 1, exprs.end());
  const auto segs = run(d, no_year);
  ASSERT_EQ(segs.size(), 2u);
  EXPECT_EQ(chronons_of(segs[0]), (std::vector<std::string>{"1944-06-06", "1944-06-09"}));
  EXPECT_EQ(chronons_of(segs[1]), (std::vector<std::string>{"1944-07-XX"}));
  // With no tolerance at all, 6 and 9 June part as well.
  EXPECT_EQ(run(d, no_year, SegmentGranularity::Sentence, 0).size(), 3u);
}

TEST(Segmenter, ConsecutiveYearsAreDifferentMoments) {
  const std::string text = "A guerra acabou em 1945. Em 1946 começou a reconstrução.";
  const TextDocument d = plain_text_document(text);
  const auto segs = run(d, {expr(text, "1945", {Chronon::of_year(1945)}), expr(text, "1946", {Chronon::of_year(1946)})});
  EXPECT_EQ(segs.size(), 2u);
}

TEST(Segmenter, IntervalsCoverTheDaysBetweenTheirEnds) {
  const std::string text = "A guerra durou de 1939 a 1945. Em 1942 a batalha de Estalinegrado começou.";
  const TextDocument d = plain_text_document(text);
  const auto segs =
      run(d, {expr(text, "de 1939 a 1945", {Chronon::of_year(1939), Chronon::of_year(1945)}),
              expr(text, "1942", {Chronon::of_year(1942)})});
  ASSERT_EQ(segs.size(), 1u);
  EXPECT_EQ(chronons_of(segs[0]), (std::vector<std::string>{"1939-XX-XX", "1945-XX-XX", "1942-XX-XX"}));
}

TEST(Segmenter, UndatedSentencesJoinTheSegmentTheyContinue) {
  const std::string text =
      "A Revolução dos Cravos. Em 25 de Abril de 1974 caiu o regime. O povo saiu à rua durante dois dias. "
      "Os militares foram aplaudidos. Em 1986 Portugal entrou na CEE. Foi uma mudança profunda.";
  const TextDocument d = plain_text_document(text);
  const std::vector<TemporalExpression> exprs = {expr(text, "25 de Abril de 1974", {Chronon::of_day(1974, 4, 25)}),
                                                 expr(text, "dois dias", {}),  // a duration: no moment
                                                 expr(text, "1986", {Chronon::of_year(1986)})};
  const auto segs = run(d, exprs);
  ASSERT_EQ(segs.size(), 2u);
  EXPECT_EQ(text_of(d, segs[0]),
            "A Revolução dos Cravos. Em 25 de Abril de 1974 caiu o regime. O povo saiu à rua durante dois dias. "
            "Os militares foram aplaudidos. ");
  EXPECT_EQ(segs[0].expressions, (std::vector<std::size_t>{0, 1}));
  EXPECT_EQ(text_of(d, segs[1]), "Em 1986 Portugal entrou na CEE. Foi uma mudança profunda.");
  expect_tiling(d, segs, exprs.size());
}

TEST(Segmenter, ChrononsWithoutAYearDoNotSplit) {
  const std::string text = "Em 2010 mudei de casa. No Natal recebi a família.";
  const TextDocument d = plain_text_document(text);
  Chronon christmas;
  christmas.month = 12;
  christmas.day = 25;
  const auto segs = run(d, {expr(text, "2010", {Chronon::of_year(2010)}), expr(text, "Natal", {christmas})});
  ASSERT_EQ(segs.size(), 1u);
  EXPECT_EQ(chronons_of(segs[0]), (std::vector<std::string>{"2010-XX-XX", "XXXX-12-25"}));
}

TEST(Segmenter, ABoundaryInsideAnExpressionIsIgnored) {
  // A (poor) splitter without abbreviations cuts after "Sr."; an expression
  // spanning that cut glues the two sentences back.
  const std::string text = "No dia do Sr. Santo António de 1990 houve festa. Em 2000 outra.";
  const TextDocument d = plain_text_document(text);
  const SentenceSplitter bare;
  SegmenterOptions o;
  o.splitter = &bare;
  const std::vector<TemporalExpression> exprs = {
      expr(text, "dia do Sr. Santo António de 1990", {Chronon::of_day(1990, 6, 13)}),
      expr(text, "2000", {Chronon::of_year(2000)})};
  const auto segs = segment(d, exprs, o);
  ASSERT_EQ(segs.size(), 2u);
  EXPECT_EQ(text_of(d, segs[0]), "No dia do Sr. Santo António de 1990 houve festa. ");
}

TEST(Segmenter, SegmentsAcrossParagraphsButNeverAcrossBoilerplate) {
  const std::string html =
      "<nav><a href='/arquivo/1944'>Arquivo de 1944</a></nav>"
      "<p>Em junho de 1944 os Aliados chegaram à Normandia.</p>"
      "<p>O avanço foi lento. Ver <a href='/normandia'>a batalha</a>.</p>"
      "<footer>Publicado em junho de 1944 <a href='/contactos'>Contactos</a></footer>";
  const TextDocument d = html_document(html);
  const std::string& t = d.text;
  const std::vector<TemporalExpression> exprs = {
      expr(t, "1944", {Chronon::of_year(1944)}),
      expr(t, "junho de 1944", {Chronon::of_month(1944, 6)}),
      expr(t, "junho de 1944", {Chronon::of_month(1944, 6)}, t.find("Publicado"))};
  const auto segs = run(d, exprs);
  ASSERT_EQ(segs.size(), 3u);
  EXPECT_TRUE(segs[0].boilerplate);
  EXPECT_FALSE(segs[1].boilerplate);
  EXPECT_TRUE(segs[2].boilerplate);
  EXPECT_EQ(text_of(d, segs[1]), "Em junho de 1944 os Aliados chegaram à Normandia.\n\nO avanço foi lento. Ver a batalha.\n\n");
  EXPECT_EQ(segs[0].links, (std::vector<std::size_t>{0}));
  EXPECT_EQ(segs[1].links, (std::vector<std::size_t>{1}));
  EXPECT_EQ(segs[2].links, (std::vector<std::size_t>{2}));
  expect_tiling(d, segs, exprs.size());
  // Paragraph level: the same three segments here.
  EXPECT_EQ(run(d, exprs, SegmentGranularity::Paragraph).size(), 3u);
}

TEST(Segmenter, NearbyDatesInTwoParagraphsAreTwoSegments) {
  // 29 December 2000 and 1 January 2001 are three days apart: close inside
  // one paragraph, two segments across a paragraph break (only overlapping
  // moments continue a segment there), so a scope of 2001 takes the second.
  const std::string text =
      "A 29 de dezembro de 2000 o governo aprovou o orçamento. Houve protestos.\n\n"
      "A 1 de janeiro de 2001 entrou em vigor a nova lei. Ver o diploma.";
  const TextDocument d = plain_text_document(text);
  const std::vector<TemporalExpression> exprs = {
      expr(text, "29 de dezembro de 2000", {Chronon::of_day(2000, 12, 29)}),
      expr(text, "1 de janeiro de 2001", {Chronon::of_day(2001, 1, 1)})};
  const auto segs = run(d, exprs);
  ASSERT_EQ(segs.size(), 2u);
  EXPECT_EQ(text_of(d, segs[1]), "A 1 de janeiro de 2001 entrou em vigor a nova lei. Ver o diploma.");
  EXPECT_EQ(chronons_of(segs[1]), (std::vector<std::string>{"2001-01-01"}));
  expect_tiling(d, segs, exprs.size());
  EXPECT_EQ(run(d, exprs, SegmentGranularity::Paragraph).size(), 2u);
  // With a block gap of a week, the old rule: one segment.
  SegmenterOptions week;
  week.splitter = &splitter();
  week.max_block_gap_days = 7;
  EXPECT_EQ(segment(d, exprs, week).size(), 1u);
  // In one paragraph the two dates stay together.
  const std::string one = "A 29 de dezembro de 2000 o governo aprovou o orçamento. A 1 de janeiro de 2001 entrou em vigor.";
  const TextDocument d1 = plain_text_document(one);
  EXPECT_EQ(run(d1, {expr(one, "29 de dezembro de 2000", {Chronon::of_day(2000, 12, 29)}),
                     expr(one, "1 de janeiro de 2001", {Chronon::of_day(2001, 1, 1)})})
                .size(),
            1u);
  // Even overlapping moments part at a paragraph break (an interval into
  // 2002 does not sink the paragraph about 11 September 2001); with a
  // block gap of 0 they would continue the segment.
  const std::string year =
      "A 11 de setembro de 2001 caíram as torres.\n\nEntre maio de 2001 e fevereiro de 2002 houve cortes de energia.";
  const TextDocument dy = plain_text_document(year);
  const std::vector<TemporalExpression> ye = {
      expr(year, "11 de setembro de 2001", {Chronon::of_day(2001, 9, 11)}),
      expr(year, "maio de 2001 e fevereiro de 2002", {Chronon::of_month(2001, 5), Chronon::of_month(2002, 2)})};
  EXPECT_EQ(run(dy, ye).size(), 2u);
  SegmenterOptions overlap;
  overlap.splitter = &splitter();
  overlap.max_block_gap_days = 0;
  EXPECT_EQ(segment(dy, ye, overlap).size(), 1u);
}

TEST(Segmenter, AnUndatedMenuDoesNotInheritTheDateOfTheHeaderBeforeIt) {
  const std::string html =
      "<header><p>Diário de Lisboa</p><p><time datetime='1942-05-12'>12 de maio de 1942</time></p></header>"
      "<nav><ul><li><a href='/desporto'>Desporto</a></li><li><a href='/receitas'>Receitas</a></li></ul></nav>"
      "<p>Em 1942 a guerra chegou ao norte de África, como conta <a href='/africa'>a reportagem</a>.</p>";
  const TextDocument d = html_document(html);
  const std::string& t = d.text;
  const std::vector<TemporalExpression> exprs = {expr(t, "12 de maio de 1942", {Chronon::of_day(1942, 5, 12)}),
                                                 expr(t, "1942", {Chronon::of_year(1942)}, t.find("Em 1942"))};
  const auto segs = run(d, exprs);
  expect_tiling(d, segs, exprs.size());
  for (const Segment& s : segs) {
    for (std::size_t l : s.links) {
      if (d.links[l].href == "/africa") {
        EXPECT_FALSE(s.boilerplate);
        EXPECT_EQ(chronons_of(s), (std::vector<std::string>{"1942-XX-XX"}));
      } else {
        EXPECT_TRUE(s.boilerplate) << d.links[l].href;
        EXPECT_TRUE(s.chronons.empty()) << d.links[l].href;
      }
    }
  }
}

TEST(Segmenter, EmptyAndBlankTexts) {
  EXPECT_TRUE(run(plain_text_document(""), {}).empty());
  const TextDocument blank = plain_text_document("  \n\n \t");
  const auto segs = run(blank, {});
  ASSERT_EQ(segs.size(), 1u);
  expect_tiling(blank, segs, 0);
  const TextDocument no_blocks{"Texto sem blocos declarados. Em 2001 algo mudou.", {}, {}, {}, "", "", std::nullopt, {}};
  const auto two = run(no_blocks, {expr(no_blocks.text, "2001", {Chronon::of_year(2001)})});
  EXPECT_EQ(two.size(), 1u);
  expect_tiling(no_blocks, two, 1);
}

TEST(Segmenter, EveryByteIsInExactlyOneSegmentOnLongerText) {
  std::string text;
  std::vector<TemporalExpression> exprs;
  for (int year = 1900; year < 1960; ++year) {
    const std::size_t at = text.size();
    text += "No ano de " + std::to_string(year) + " aconteceu algo. Depois nada.";
    text += year % 3 == 0 ? "\n\n" : " ";
    exprs.push_back(expr(text, std::to_string(year), {Chronon::of_year(year)}, at));
  }
  const TextDocument d = plain_text_document(text);
  for (auto g : {SegmentGranularity::Sentence, SegmentGranularity::Paragraph}) {
    const auto segs = run(d, exprs, g);
    expect_tiling(d, segs, exprs.size());
    if (g == SegmentGranularity::Sentence) {
      EXPECT_EQ(segs.size(), 60u);
    }
  }
}

TEST(Segmenter, DefaultSplitterAndGranularityOverload) {
  const std::string text = "O Sr. Silva nasceu em 1950. Em 1990 mudou-se.";
  const TextDocument d = plain_text_document(text);
  const std::vector<TemporalExpression> exprs = {expr(text, "1950", {Chronon::of_year(1950)}),
                                                 expr(text, "1990", {Chronon::of_year(1990)})};
  const auto segs = segment(d, exprs);
  ASSERT_EQ(segs.size(), 2u);
  EXPECT_EQ(text_of(d, segs[0]), "O Sr. Silva nasceu em 1950. ");
  EXPECT_EQ(segment(d, exprs, SegmentGranularity::Paragraph).size(), 1u);
}

}  // namespace
}  // namespace cronista::temporal
