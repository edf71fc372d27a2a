// The co-occurrence pattern learner on a small corpus of our own writing,
// with a small lexicon of its own (so the expectations do not move when the
// shipped resources grow), plus the pattern-file round trip, errors, and
// the reproducibility of the shipped patterns/pt.patterns.
#include "temporal/pattern_learner.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "test_support.h"

namespace cronista::temporal {
namespace {

// Classes in the format of resources/pt (README.md there).
const char* kLexicon = R"(@class MONTH
janeiro = 1
abril = 4
maio = 5
junho = 6
outubro = 10
@class UNIT
ano = Y
anos = Y
meses = M
dias = D
@class MOD_LAST
passado = -1
@class MOD_FOLLOWING
seguinte = 1
@class MOD_PREVIOUS
anterior = -1
@class NUMWORD
dois = 2
três = 3
@class SET_QUANT
todos os = EVERY
@class PREPOSITION
em
no
na
de
do
a
durante
entre
@class RANGE_FROM
de
entre
@class RANGE_TO
a
e
@class NEG_BEFORE
rua
avenida
ponte
@class NEG_AFTER
soldados
habitantes
@regex YEAR (?:1[0-9]{3}|20[0-9]{2})
@regex DAYNUM (?:[12][0-9]|3[01]|0?[1-9])(?:\.?[ºo])?
@regex DIGITS [0-9]+
@regex NUMBER (?:[0-9]+|tag_NUMWORD)
)";

// Our own sentences: three full dates, an "ano passado|seguinte|anterior"
// family, durations, a frequency, an interval, and negative contexts.
const char* kCorpus[] = {
    "No dia 6 de junho de 1944 os Aliados desembarcaram. No ano seguinte a guerra acabou.",
    "A revolução foi a 25 de abril de 1974. No ano anterior ninguém a previa.",
    "Voltei a 1 de maio de 2010, depois de viajar no ano passado durante três meses.",
    "No ano passado choveu pouco; no ano seguinte choveu muito. Todos os dias chovia em abril.",
    "Entre 1939 e 1945 a Europa esteve em guerra. Durante dois anos ninguém saiu. Durante três anos também não.",
    "A escola da Rua 1.º de Maio fechou. A Avenida 5 de Outubro está em obras.",
    "A Ponte 25 de Abril tem trânsito. Chegaram 2000 soldados e a vila tinha 1945 habitantes.",
    "Todos os dias há trânsito em maio. Todos os dias o comboio atrasa em janeiro.",
};

Lexicon test_lexicon() {
  Lexicon lex;
  const Status st = lex.add_file("lexico-de-teste.txt", kLexicon);
  EXPECT_TRUE(st.ok()) << st.message();
  return lex;
}

std::vector<Pattern> learn(const Lexicon& lex, LearnerOptions options, LearnerStats* stats = nullptr) {
  PatternLearner learner(lex, options);
  for (const char* text : kCorpus) learner.add_text(text);
  std::vector<Pattern> out = learner.patterns();
  if (stats) *stats = learner.stats();
  return out;
}

const Pattern* find(const std::vector<Pattern>& ps, const std::string& regex) {
  for (const Pattern& p : ps)
    if (p.regex == regex) return &p;
  return nullptr;
}

std::string listing(const std::vector<Pattern>& ps) {
  std::string s;
  for (const Pattern& p : ps) s += p.regex + " (" + std::to_string(p.frequency) + ")\n";
  return s;
}

TEST(PatternLearner, AggregatesConcreteDatesIntoClassTags) {
  const Lexicon lex = test_lexicon();
  LearnerOptions o;
  o.min_frequency = 1;
  const auto ps = learn(lex, o);
  const Pattern* full = find(ps, "tag_DAYNUM de tag_MONTH de tag_YEAR");
  ASSERT_NE(full, nullptr) << listing(ps);
  EXPECT_EQ(full->frequency, 3);
  EXPECT_EQ(full->examples, (std::vector<std::string>{"6 de junho de 1944", "25 de abril de 1974", "1 de maio de 2010"}));
  EXPECT_EQ(full->timex, TimexType::Date);
  EXPECT_EQ(full->harem_type, HaremType::CalendarRef);
  EXPECT_EQ(full->harem_subtype, HaremSubtype::Date);
  // The leading "no dia"/"a" are outside: "dia" is a bare unit once the
  // preposition goes, and prepositions open no expression.
  EXPECT_EQ(full->examples[1].find("a "), std::string::npos);
}

TEST(PatternLearner, MergesAlternativesInOnePosition) {
  const Lexicon lex = test_lexicon();
  LearnerOptions o;
  o.min_frequency = 1;
  LearnerStats stats;
  const auto ps = learn(lex, o, &stats);
  const Pattern* merged = find(ps, "ano (?:anterior|passado|seguinte)");
  ASSERT_NE(merged, nullptr) << listing(ps);
  // seguinte ×2, passado ×2, anterior ×1.
  EXPECT_EQ(merged->frequency, 5);
  EXPECT_EQ(find(ps, "ano passado"), nullptr);
  EXPECT_EQ(find(ps, "ano seguinte"), nullptr);
  EXPECT_GE(stats.merged_groups, 1);
  // Durations: "dois anos", "três anos", "três meses" merge on the unit.
  const Pattern* duration = find(ps, "tag_NUMBER (?:anos|meses)");
  ASSERT_NE(duration, nullptr) << listing(ps);
  EXPECT_EQ(duration->frequency, 3);
  EXPECT_EQ(duration->timex, TimexType::Duration);
  EXPECT_EQ(duration->harem_type, HaremType::Duration);
  EXPECT_EQ(duration->harem_subtype, HaremSubtype::None);
}

TEST(PatternLearner, NegativeWordsPruneStreetNamesAndQuantities) {
  const Lexicon lex = test_lexicon();
  LearnerOptions o;
  o.min_frequency = 1;
  LearnerStats stats;
  const auto ps = learn(lex, o, &stats);
  // "Rua 1.º de Maio", "Avenida 5 de Outubro", "Ponte 25 de Abril", "2000
  // soldados", "1945 habitantes": five windows dropped.
  EXPECT_EQ(stats.pruned_negative, 5);
  const Pattern* day_month = find(ps, "tag_DAYNUM de tag_MONTH");
  if (day_month != nullptr) {
    for (const std::string& e : day_month->examples) {
      EXPECT_NE(e, "1.º de maio");
      EXPECT_NE(e, "25 de abril") << "the bridge's name was counted";
    }
  }
  // The only bare years kept are those of the interval.
  const Pattern* year = find(ps, "tag_YEAR");
  EXPECT_EQ(year, nullptr) << listing(ps);
}

TEST(PatternLearner, ClassifiesFrequenciesAndIntervals) {
  const Lexicon lex = test_lexicon();
  LearnerOptions o;
  o.min_frequency = 1;
  const auto ps = learn(lex, o);
  const Pattern* every = find(ps, "todos os dias");
  ASSERT_NE(every, nullptr) << listing(ps);
  EXPECT_EQ(every->frequency, 3);
  EXPECT_EQ(every->timex, TimexType::Set);
  EXPECT_EQ(every->harem_type, HaremType::Frequency);
  const Pattern* interval = find(ps, "entre tag_YEAR e tag_YEAR");
  ASSERT_NE(interval, nullptr) << listing(ps);
  EXPECT_EQ(interval->harem_subtype, HaremSubtype::Interval);
}

TEST(PatternLearner, MinimumFrequencyWindowAndOrder) {
  const Lexicon lex = test_lexicon();
  LearnerOptions o;
  o.min_frequency = 3;
  const auto ps = learn(lex, o);
  ASSERT_FALSE(ps.empty());
  for (std::size_t i = 0; i < ps.size(); ++i) {
    EXPECT_GE(ps[i].frequency, 3) << ps[i].regex;
    if (i > 0) {
      EXPECT_TRUE(ps[i - 1].frequency > ps[i].frequency ||
                  (ps[i - 1].frequency == ps[i].frequency && ps[i - 1].regex < ps[i].regex));
    }
  }
  // A window of one token reaches "ano passado" and "todos os dias" but not
  // from "junho" over "de" to "1944".
  LearnerOptions narrow;
  narrow.min_frequency = 1;
  narrow.window = 1;
  const auto small = learn(lex, narrow);
  EXPECT_EQ(find(small, "tag_DAYNUM de tag_MONTH de tag_YEAR"), nullptr);
  EXPECT_EQ(find(small, "tag_MONTH de tag_YEAR"), nullptr);
  EXPECT_NE(find(small, "ano (?:anterior|passado|seguinte)"), nullptr) << listing(small);
  EXPECT_NE(find(small, "todos os dias"), nullptr) << listing(small);
}

TEST(PatternLearner, FileRoundTripsAndCompiles) {
  const Lexicon lex = test_lexicon();
  LearnerOptions o;
  o.min_frequency = 1;
  PatternLearner learner(lex, o);
  for (const char* text : kCorpus) learner.add_text(text);
  const auto ps = learner.patterns();
  const std::string file = format_pattern_file(ps, learner.file_header());
  std::vector<std::string> removed;
  auto back = parse_pattern_file("aprendido.patterns", file, &removed);
  ASSERT_TRUE(back.ok()) << back.status().message();
  ASSERT_EQ(back->size(), ps.size());
  for (std::size_t i = 0; i < ps.size(); ++i) {
    const Pattern& a = ps[i];
    const Pattern& b = (*back)[i];
    EXPECT_EQ(a.id, b.id);
    EXPECT_EQ(a.regex, b.regex);
    EXPECT_EQ(a.timex, b.timex);
    EXPECT_EQ(a.harem_type, b.harem_type);
    EXPECT_EQ(a.harem_subtype, b.harem_subtype);
    EXPECT_EQ(a.frequency, b.frequency);
    EXPECT_EQ(a.examples, b.examples);
  }
  EXPECT_TRUE(removed.empty());
  EXPECT_EQ(format_pattern_file(*back, learner.file_header()), file);
  // Ids are unique and the annotator compiles the set.
  std::vector<std::string> ids;
  for (const Pattern& p : ps) ids.push_back(p.id);
  std::sort(ids.begin(), ids.end());
  EXPECT_EQ(std::adjacent_find(ids.begin(), ids.end()), ids.end());
  auto set = PatternSet::build(*back, lex);
  ASSERT_TRUE(set.ok()) << set.status().message();
}

TEST(PatternLearner, SameInputGivesTheSameBytes) {
  const Lexicon lex = test_lexicon();
  auto render = [&] {
    PatternLearner learner(lex, LearnerOptions{});
    for (const char* text : kCorpus) learner.add_text(text);
    const auto ps = learner.patterns();
    return format_pattern_file(ps, learner.file_header());
  };
  EXPECT_EQ(render(), render());
}

TEST(PatternFile, MalformedRecordNamesTheLine) {
  const std::string bad =
      "# comentário\nformat cronista-patterns 1\n\npattern L-1\nregex tag_YEAR\ntimex DATA\nharem CALENDAR_REF DATE\n";
  auto r = parse_pattern_file("mau.patterns", bad, nullptr);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().message().rfind("mau.patterns:6: ", 0), 0u) << r.status().message();
  auto unknown = parse_pattern_file("mau.patterns", "format cronista-patterns 1\npattern X\nregra x\n", nullptr);
  ASSERT_FALSE(unknown.ok());
  EXPECT_EQ(unknown.status().message().rfind("mau.patterns:3: ", 0), 0u) << unknown.status().message();
  // Through the loader, a file on disk is named with its line too.
  const cronista::testing::TempDir tmp;
  cronista::testing::write_file(tmp / "pt.patterns", bad);
  const Lexicon lex = test_lexicon();
  auto set = PatternSet::load({(tmp / "pt.patterns").string()}, lex, false);
  ASSERT_FALSE(set.ok());
  EXPECT_NE(set.status().message().find("pt.patterns:6: "), std::string::npos) << set.status().message();
}

TEST(CorpusReader, ReadsTextFilesFoldersAndJsonlInOrder) {
  const cronista::testing::TempDir tmp;
  std::filesystem::create_directories(tmp / "pasta" / "sub");
  cronista::testing::write_file(tmp / "pasta" / "b.txt", "segundo");
  cronista::testing::write_file(tmp / "pasta" / "a.txt", "primeiro");
  cronista::testing::write_file(tmp / "pasta" / "sub" / "c.jsonl",
                                "{\"id\": 1, \"text\": \"terceiro\"}\n\n{\"text\": \"quarto\"}\n");
  cronista::testing::write_file(tmp / "pasta" / "LEIA-ME.md", "não é corpus");
  cronista::testing::write_file(tmp / "solto.txt", "quinto");
  std::vector<std::string> seen;
  const Status st = for_each_corpus_text({(tmp / "pasta").string(), (tmp / "solto.txt").string()},
                                         [&](std::string_view t) { seen.emplace_back(t); }, {});
  ASSERT_TRUE(st.ok()) << st.message();
  EXPECT_EQ(seen, (std::vector<std::string>{"primeiro", "segundo", "terceiro", "quarto", "quinto"}));

  cronista::testing::write_file(tmp / "mau.jsonl", "{\"text\": \"ok\"}\n{\"texto\": \"sem campo\"}\n");
  const Status bad = for_each_corpus_text({(tmp / "mau.jsonl").string()}, [](std::string_view) {}, {});
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.message().find("mau.jsonl:2: "), std::string::npos) << bad.message();
  const Status missing = for_each_corpus_text({(tmp / "nada").string()}, [](std::string_view) {}, {});
  ASSERT_FALSE(missing.ok());
  EXPECT_NE(missing.message().find("nada"), std::string::npos);
}

// patterns/pt.patterns is exactly what `cronista learn` makes of the raw
// corpus and corpora/ (the command is in the file's header).
TEST(LearnedPatterns, ShippedFileIsReproducible) {
  const std::string data = cronista::testing::shared_data_dir();
  const std::filesystem::path raw = std::filesystem::path(data) / "raw";
  if (data.empty() || !std::filesystem::is_directory(raw)) GTEST_SKIP() << "shared data (raw corpus) not available";
  const std::string src = cronista::testing::source_dir();
  const cronista::testing::TempDir tmp;
  const auto r = cronista::testing::run_cronista({"learn", "--quiet", "--corpus", raw.string(), src + "/corpora",
                                                  "--resources", src + "/resources/pt", "--out",
                                                  (tmp / "pt.patterns").string()});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const std::string shipped = cronista::testing::read_file(src + "/patterns/pt.patterns");
  const std::string relearned = cronista::testing::read_file(tmp / "pt.patterns");
  ASSERT_FALSE(shipped.empty());
  EXPECT_TRUE(shipped == relearned) << "patterns/pt.patterns differs from a fresh `cronista learn`; re-learn it";
}

}  // namespace
}  // namespace cronista::temporal
