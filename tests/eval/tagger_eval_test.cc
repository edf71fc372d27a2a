// The evaluator on a gold sample of our own writing (tests/data/eval), whose
// figures were computed by hand:
//
// feira.tml: 9 gold expressions; the tagger finds 9: 7 with the gold extent,
// "sábado de manhã" over the gold "manhã" (relaxed only), "200 anos" (a false
// alarm) and misses "há muito". Strict P = R = 7/9; relaxed P = R = 8/9. Of
// the 8 relaxed matches, "primavera" gets 2009-SP (the document date's year)
// where the gold says 2010-SP: value accuracy 7/8.
//
// cronica.harem.xml: 4 scored TEMPO entities (the ALT group counts once, the
// vague "hoje" apart, the OMITIDO one not at all), all four found with the
// HAREM extent: everything 1.0; 1 vague entity, found.
#include "eval/tagger_eval.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "eval/harem_reader.h"
#include "eval/timeml_reader.h"
#include "temporal/tagger_testing.h"
#include "test_support.h"

namespace cronista::eval {
namespace {

using temporal::tagger_testing::tagger;

TEST(TaggerEval, TimemlSampleScoresAsComputedByHand) {
  auto doc = read_timeml(testing::source_dir() + "/tests/data/eval/feira.tml");
  ASSERT_TRUE(doc.ok());
  EvalReport r = evaluate({*doc}, GoldScheme::TimeML, tagger(), true);
  EXPECT_EQ(r.overall.gold, 9);
  EXPECT_EQ(r.overall.system, 9);
  EXPECT_EQ(r.overall.strict, 7);
  EXPECT_EQ(r.overall.relaxed_gold, 8);
  EXPECT_EQ(r.overall.relaxed_system, 8);
  EXPECT_NEAR(r.overall.strict_f1(), 7.0 / 9, 1e-9);
  EXPECT_NEAR(r.overall.relaxed_f1(), 8.0 / 9, 1e-9);
  EXPECT_EQ(r.value_pairs, 8);
  EXPECT_EQ(r.value_correct, 7);
  EXPECT_EQ(r.per_type["DURATION"].strict, 1);
  EXPECT_EQ(r.per_type["TIME"].relaxed_gold, 1);
  int misses = 0, alarms = 0, extents = 0, values = 0;
  for (const auto& e : r.errors) {
    misses += e.kind == "miss";
    alarms += e.kind == "false-alarm";
    extents += e.kind == "extent";
    values += e.kind == "value";
  }
  EXPECT_EQ(misses, 1);
  EXPECT_EQ(alarms, 1);
  EXPECT_EQ(extents, 1);
  EXPECT_EQ(values, 1);
}

TEST(TaggerEval, HaremSampleKeepsTheBestAlternativeAndScoresVagueApart) {
  auto docs = read_harem(testing::source_dir() + "/tests/data/eval/cronica.harem.xml");
  ASSERT_TRUE(docs.ok());
  EvalReport r = evaluate(*docs, GoldScheme::Harem, tagger(), false);
  EXPECT_EQ(r.documents, 2);
  EXPECT_EQ(r.overall.gold, 4);
  EXPECT_EQ(r.overall.system, 4);
  EXPECT_EQ(r.overall.strict, 4);
  EXPECT_EQ(r.vague_gold, 1);
  EXPECT_EQ(r.vague_found, 1);
}

TEST(EvalTaggerCommand, PrintsTheFiguresOfTheSample) {
  auto run = testing::run_cronista({"eval-tagger", "--gold", testing::source_dir() + "/tests/data/eval/feira.tml"});
  ASSERT_EQ(run.exit_code, 0) << run.err;
  EXPECT_NE(run.out.find("strict      0.778      0.778      0.778"), std::string::npos) << run.out;
  EXPECT_NE(run.out.find("relaxed     0.889      0.889      0.889"), std::string::npos) << run.out;
  EXPECT_NE(run.out.find("value accuracy (over 8 relaxed matches): 0.875"), std::string::npos) << run.out;
}

TEST(EvalTaggerCommand, JsonReportAndErrorList) {
  auto run = testing::run_cronista(
      {"eval-tagger", "--gold", testing::source_dir() + "/tests/data/eval", "--format", "json", "--errors"});
  ASSERT_EQ(run.exit_code, 0) << run.err;
  auto j = nlohmann::json::parse(run.out);
  ASSERT_EQ(j["reports"].size(), 2u);
  const auto& timeml = j["reports"][0];
  EXPECT_EQ(timeml["scheme"], "timeml");
  EXPECT_EQ(timeml["overall"]["strict"]["matches"], 7);
  EXPECT_DOUBLE_EQ(timeml["value_accuracy"].get<double>(), 0.875);
  EXPECT_EQ(timeml["errors"].size(), 4u);
  EXPECT_EQ(j["reports"][1]["scheme"], "harem");
  EXPECT_DOUBLE_EQ(j["reports"][1]["overall"]["relaxed"]["f1"].get<double>(), 1.0);
}

TEST(EvalTaggerCommand, MissingGoldIsAUsageError) {
  auto run = testing::run_cronista({"eval-tagger", "--gold", "/nonexistent/gold.tml"});
  EXPECT_EQ(run.exit_code, 2);
  EXPECT_NE(run.err.find("/nonexistent/gold.tml"), std::string::npos);
  EXPECT_EQ(testing::count_lines(run.err), 1);
}

}  // namespace
}  // namespace cronista::eval
