// The evaluator's annotation schemes on gold samples of our own writing
// (tests/data/eval-schemes), with the figures computed by hand:
//
// intervalos.tml (TimeML): 10 TIMEX3s, the ends of five intervals ("entre
// 1985 e 1987", "de abril a maio de 2009", "das 10h às 16h30", "1939-1945",
// "desde 1990 até 1995"). The tagger finds each interval as one expression;
// scored by its ends it has the 10 gold extents and values: everything 1.0
// (the gold writes "10h" to the hour, 2009-03-02T10, the tagger to the
// minute, 2009-03-02T10:00: the same clock time).
//
// primeiro.harem.xml (First HAREM, versao "PrimeiroHAREM-…"): 11 TEMPO
// entities: 25, 28 de Junho, 10h, 22h30, Maio de 1931, século XX, 1914-1918,
// 1939-1945, 10h00 de Lisboa, Primavera, Idade Média. Under the First HAREM
// profile the system stands for 11: the ends of "25 a 28 de Junho", 10h,
// 22h30, Maio de 1931, século XX, the one-token ranges 1914-1918 and
// 1939-1945 (PERIODO), 10h00 (over the gold "10h00 de Lisboa": relaxed
// only), 25 de Abril (an event in the gold: a false alarm) and Primavera;
// "Hoje", "no ano seguinte" and "durante três anos" name no time and are no
// entities; "Idade Média" is missed. Strict P = R = 9/11; relaxed 10/11.
// Per type: DATA 3 gold, 4 system, 3 strict (F1 6/7); HORA 3/3, 2 strict
// (F1 2/3), 3 relaxed; PERIODO 4 gold, 3 system, 3 strict (F1 6/7);
// CICLICO 1/1.
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "eval/harem_reader.h"
#include "eval/tagger_eval.h"
#include "eval/timeml_reader.h"
#include "temporal/tagger_testing.h"
#include "test_support.h"

namespace cronista::eval {
namespace {

using temporal::tagger_testing::tagger;

std::string sample(const std::string& name) { return testing::source_dir() + "/tests/data/eval-schemes/" + name; }

TEST(EvalSchemes, TimemlScoresTheEndsOfIntervals) {
  auto doc = read_timeml(sample("intervalos.tml"));
  ASSERT_TRUE(doc.ok()) << doc.status().message();
  EvalReport r = evaluate({*doc}, GoldScheme::TimeML, tagger(), true);
  EXPECT_EQ(r.overall.gold, 10);
  EXPECT_EQ(r.overall.system, 10);
  EXPECT_EQ(r.overall.strict, 10);
  EXPECT_EQ(r.value_pairs, 10);
  EXPECT_EQ(r.value_correct, 10);
  EXPECT_EQ(r.per_type["TIME"].strict, 2);
  for (const auto& e : r.errors) ADD_FAILURE() << e.kind << " " << e.text << " " << e.context;
}

TEST(EvalSchemes, FirstHaremIsDetectedFromTheCollectionVersion) {
  auto docs = read_harem(sample("primeiro.harem.xml"));
  ASSERT_TRUE(docs.ok()) << docs.status().message();
  ASSERT_EQ(docs->size(), 1u);
  EXPECT_EQ(harem_scheme((*docs)[0].collection_version), GoldScheme::FirstHarem);
  EXPECT_EQ(harem_scheme("Segundo_dourada_com_relacoes_14Abril2010"), GoldScheme::Harem);
  EXPECT_EQ(harem_scheme(""), GoldScheme::Harem);
}

TEST(EvalSchemes, FirstHaremSampleScoresAsComputedByHand) {
  auto docs = read_harem(sample("primeiro.harem.xml"));
  ASSERT_TRUE(docs.ok()) << docs.status().message();
  EvalReport r = evaluate(*docs, GoldScheme::FirstHarem, tagger(), true);
  EXPECT_EQ(r.overall.gold, 11);
  EXPECT_EQ(r.overall.system, 11);
  EXPECT_EQ(r.overall.strict, 9);
  EXPECT_EQ(r.overall.relaxed_gold, 10);
  EXPECT_EQ(r.overall.relaxed_system, 10);
  EXPECT_EQ(r.per_type["DATA"].gold, 3);
  EXPECT_EQ(r.per_type["DATA"].system, 4);
  EXPECT_EQ(r.per_type["DATA"].strict, 3);
  EXPECT_EQ(r.per_type["HORA"].strict, 2);
  EXPECT_EQ(r.per_type["HORA"].relaxed_gold, 3);
  EXPECT_EQ(r.per_type["PERIODO"].gold, 4);
  EXPECT_EQ(r.per_type["PERIODO"].system, 3);
  EXPECT_EQ(r.per_type["PERIODO"].strict, 3);
  EXPECT_EQ(r.per_type["CICLICO"].strict, 1);
  std::string misses, alarms, extents;
  for (const auto& e : r.errors) {
    if (e.kind == "miss") misses += e.text + ";";
    if (e.kind == "false-alarm") alarms += e.text + ";";
    if (e.kind == "extent") extents += e.text + ";";
  }
  EXPECT_EQ(misses, "Idade Média;");
  EXPECT_EQ(alarms, "25 de Abril;");
  EXPECT_EQ(extents, "10h00;");
}

TEST(EvalSchemes, FirstHaremMentionsOfSingleExpressions) {
  const std::string text =
      "Hoje, no dia 26 de Maio, às 17 horas, lembramos os anos 70 e o Natal; durante três anos não houve "
      "festa.";
  auto found = tagger().tag(text, temporal::Date{2003, 3, 28});
  std::vector<std::string> got;
  for (const auto& e : found)
    for (const auto& m : scheme_mentions(e, GoldScheme::FirstHarem, text))
      got.push_back(text.substr(m.start, m.end - m.start) + "/" + m.type);
  EXPECT_EQ(got, (std::vector<std::string>{"26 de Maio/DATA", "17 horas/HORA", "anos 70/PERIODO", "Natal/CICLICO"}));
}

TEST(EvalTaggerCommand, FirstHaremReportPrintsItsFiguresAndTypes) {
  auto run = testing::run_cronista({"eval-tagger", "--gold", sample("primeiro.harem.xml")});
  ASSERT_EQ(run.exit_code, 0) << run.err;
  EXPECT_NE(run.out.find("First HAREM gold primeiro.harem.xml: 1 documents, 11 expressions; system: 11 expressions"),
            std::string::npos)
      << run.out;
  EXPECT_NE(run.out.find("strict      0.818      0.818      0.818"), std::string::npos) << run.out;
  EXPECT_NE(run.out.find("relaxed     0.909      0.909      0.909"), std::string::npos) << run.out;
  EXPECT_NE(run.out.find("    HORA                           3       3      0.667       1.000"), std::string::npos)
      << run.out;
  EXPECT_NE(run.out.find("    PERIODO                        4       3      0.857       0.857"), std::string::npos)
      << run.out;
}

TEST(EvalTaggerCommand, SchemeOptionForcesTheSecondHaremReading) {
  auto run = testing::run_cronista(
      {"eval-tagger", "--gold", sample("primeiro.harem.xml"), "--scheme", "second-harem", "--format", "json"});
  ASSERT_EQ(run.exit_code, 0) << run.err;
  auto j = nlohmann::json::parse(run.out);
  ASSERT_EQ(j["reports"].size(), 1u);
  const auto& r = j["reports"][0];
  EXPECT_EQ(r["scheme"], "harem");
  // Second HAREM extents keep the preposition ("às 10h"), the interval is one
  // entity, and deictic and counted expressions count: no exact match is left
  // but "1914-1918", "1939-1945".
  EXPECT_EQ(r["overall"]["strict"]["matches"], 2);
  EXPECT_TRUE(r["per_type"].contains("TEMPO_CALEND/INTERVALO"));
  auto bad = testing::run_cronista({"eval-tagger", "--gold", sample("primeiro.harem.xml"), "--scheme", "haremish"});
  EXPECT_EQ(bad.exit_code, 2);
  EXPECT_NE(bad.err.find("--scheme"), std::string::npos) << bad.err;
}

TEST(EvalTaggerCommand, AnOnlyIdThatNamesNoDocumentIsABadUsage) {
  auto run = testing::run_cronista({"eval-tagger", "--gold", sample("intervalos.tml"), "--only", "intervalo"});
  EXPECT_EQ(run.exit_code, 2);
  EXPECT_NE(run.err.find("--only: no gold document has the id 'intervalo'"), std::string::npos) << run.err;
  EXPECT_NE(run.err.find("e.g. 'intervalos'"), std::string::npos) << run.err;
  EXPECT_EQ(run.out, "");
}

TEST(EvalTaggerCommand, TimemlIntervalsAreScoredByTheirEnds) {
  auto run = testing::run_cronista({"eval-tagger", "--gold", sample("intervalos.tml")});
  ASSERT_EQ(run.exit_code, 0) << run.err;
  EXPECT_NE(run.out.find("TimeML gold intervalos.tml: 1 documents, 10 expressions; system: 10 expressions"),
            std::string::npos)
      << run.out;
  EXPECT_NE(run.out.find("strict      1.000      1.000      1.000"), std::string::npos) << run.out;
  EXPECT_NE(run.out.find("value accuracy (over 10 relaxed matches): 1.000"), std::string::npos) << run.out;
}

}  // namespace
}  // namespace cronista::eval
