// The ends of intervals (TemporalExpression::endpoints) and the name extents
// (name_start/name_end) the tagger records, on real Portuguese sentences of
// both variants; and the TIMEX3 output, where an interval is two TIMEX3s.
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "temporal/tagger.h"
#include "temporal/tagger_testing.h"
#include "test_support.h"

namespace cronista::temporal {
namespace {

using tagger_testing::tagger;

// "text=value" for each end of the expression whose TimeML text is `what`.
std::vector<std::string> ends(const std::string& text, const std::string& what, Date dct = Date{2009, 3, 2}) {
  for (const auto& e : tagger().tag(text, dct)) {
    if (e.text != what) continue;
    std::vector<std::string> out;
    for (const auto& p : e.endpoints) {
      EXPECT_EQ(p.text, text.substr(p.start, p.end - p.start));
      EXPECT_GE(p.start, e.start);
      EXPECT_LE(p.end, e.end);
      out.push_back(p.text + "=" + p.value);
    }
    return out;
  }
  ADD_FAILURE() << "no expression '" << what << "' in: " << text;
  return {};
}

// The name extent of the expression whose TimeML text is `what`.
std::string name(const std::string& text, const std::string& what, Date dct = Date{2009, 3, 2}) {
  for (const auto& e : tagger().tag(text, dct))
    if (e.text == what) return text.substr(e.name_start, e.name_end - e.name_start);
  ADD_FAILURE() << "no expression '" << what << "' in: " << text;
  return {};
}

TEST(IntervalEndpoints, YearsMonthsAndDaysInEuropeanPortuguese) {
  EXPECT_EQ(ends("O fundo vendeu as ações entre 1985 e 1987, segundo o relatório.", "1985 e 1987"),
            (std::vector<std::string>{"1985=1985", "1987=1987"}));
  // The left end borrows the year of the right one.
  EXPECT_EQ(ends("O festival decorre de abril a maio de 2009 em Lisboa.", "abril a maio de 2009"),
            (std::vector<std::string>{"abril=2009-04", "maio de 2009=2009-05"}));
  EXPECT_EQ(ends("A Feira do Livro decorre De 25 a 28 de Junho no Parque Eduardo VII.", "25 a 28 de Junho"),
            (std::vector<std::string>{"25=2009-06-25", "28 de Junho=2009-06-28"}));
  EXPECT_EQ(ends("Portugal foi neutro durante a guerra (1939-1945).", "1939-1945"),
            (std::vector<std::string>{"1939=1939", "1945=1945"}));
  EXPECT_EQ(ends("A empresa cresceu desde 1990 até 1995, e depois estagnou.", "1990 até 1995"),
            (std::vector<std::string>{"1990=1990", "1995=1995"}));
}

TEST(IntervalEndpoints, TimesAndDatesInBrazilianPortuguese) {
  EXPECT_EQ(ends("A loja funciona das 10h às 16h30, de segunda a sábado.", "10h às 16h30"),
            (std::vector<std::string>{"10h=2009-03-02T10:00", "16h30=2009-03-02T16:30"}));
  EXPECT_EQ(ends("As inscrições vão de 10 a 15 de maio no site da prefeitura.", "10 a 15 de maio"),
            (std::vector<std::string>{"10=2009-05-10", "15 de maio=2009-05-15"}));
  EXPECT_EQ(ends("O time ficou em obras entre 2 de março e 4 de abril de 2001.", "2 de março e 4 de abril de 2001"),
            (std::vector<std::string>{"2 de março=2001-03-02", "4 de abril de 2001=2001-04-04"}));
  // Without a preposition before the first day, as in event headers.
  EXPECT_EQ(ends("Belo Horizonte, 10 a 14 de novembro de 2003. Inscrições abertas.", "10 a 14 de novembro de 2003"),
            (std::vector<std::string>{"10=2003-11-10", "14 de novembro de 2003=2003-11-14"}));
}

TEST(IntervalEndpoints, PointsAndDurationsHaveNone) {
  auto found = tagger().tag("Em 1997 o défice subiu durante três meses; desde janeiro de 1998 baixou.", Date{1998, 2, 13});
  ASSERT_FALSE(found.empty());
  for (const auto& e : found) EXPECT_TRUE(e.endpoints.empty()) << e.text;
}

TEST(NameExtent, OnlyTheWordsThatNameATime) {
  const std::string pt = "No próximo dia 26, às 17 horas, e até finais de Fevereiro de 1994, no século XX.";
  EXPECT_EQ(name(pt, "próximo dia 26"), "26");
  EXPECT_EQ(name(pt, "17 horas"), "17 horas");
  EXPECT_EQ(name(pt, "finais de Fevereiro de 1994"), "Fevereiro de 1994");
  EXPECT_EQ(name(pt, "século XX"), "século XX");
  const std::string br = "Nos anos 70 ela morava no Rio; hoje, três anos depois da reforma, voltou em março.";
  EXPECT_EQ(name(br, "anos 70"), "anos 70");
  EXPECT_EQ(name(br, "hoje"), "");
  EXPECT_EQ(name(br, "três anos"), "");  // "depois da reforma": the signal is out of the TimeML extent
  EXPECT_EQ(name(br, "março"), "março");
}

TEST(NameExtent, TellsWhatNamesTheTime) {
  auto found = tagger().tag("Juntamo-nos sempre pela Páscoa e no Verão, e em Junho de 1992.", Date{2003, 3, 1});
  ASSERT_EQ(found.size(), 3u);
  EXPECT_TRUE(found[0].names.cyclic && !found[0].names.number && !found[0].names.month) << found[0].text;
  EXPECT_TRUE(found[1].names.cyclic) << found[1].text;
  EXPECT_TRUE(found[2].names.month && found[2].names.number) << found[2].text;
  // A weekday or season in lower case names no time in the HAREM sense;
  // a sentence's first capital does not make it one.
  auto lower = tagger().tag("Domingo choveu; no verão e na quarta-feira também.", Date{2003, 3, 1});
  for (const auto& e : lower) EXPECT_FALSE(e.names.any()) << e.text;
}

std::string data(const std::string& name) { return testing::source_dir() + "/tests/data/tag/" + name; }

TEST(IntervalOutput, Timex3MarksEachEndAndJsonKeepsOneExpression) {
  auto run = testing::run_cronista({"tag", "--dct", "2009-03-02", "--format", "timex3", data("intervalos.txt")});
  ASSERT_EQ(run.exit_code, 0) << run.err;
  EXPECT_EQ(run.out, testing::read_file(data("intervalos.timex3")));

  auto json = testing::run_cronista({"tag", "--dct", "2009-03-02", data("intervalos.txt")});
  ASSERT_EQ(json.exit_code, 0) << json.err;
  auto j = nlohmann::json::parse(json.out);
  const std::string input = testing::read_file(data("intervalos.txt"));
  bool seen = false;
  for (const auto& e : j["expressions"]) {
    if (e["text"] != "abril a maio de 2009") continue;
    seen = true;
    EXPECT_EQ(e["chronons"], (nlohmann::json{"2009-04-XX", "2009-05-XX"}));
    ASSERT_EQ(e["endpoints"].size(), 2u);
    for (const auto& p : e["endpoints"])
      EXPECT_EQ(p["text"], input.substr(p["start"].get<std::size_t>(),
                                        p["end"].get<std::size_t>() - p["start"].get<std::size_t>()));
    EXPECT_EQ(e["endpoints"][1]["value"], "2009-05");
  }
  EXPECT_TRUE(seen) << json.out;

  // The HAREM form keeps the interval as one entity.
  auto harem = testing::run_cronista({"tag", "--dct", "2009-03-02", "--format", "harem", data("intervalos.txt")});
  ASSERT_EQ(harem.exit_code, 0) << harem.err;
  EXPECT_NE(harem.out.find("TIPO=\"TEMPO_CALEND\" SUBTIPO=\"INTERVALO\">de abril a maio de 2009</EM>"), std::string::npos) << harem.out;
}

TEST(IntervalOutput, HtmlEndpointsAreOffsetsIntoTheInput) {
  const std::string page =
      "<html><head><meta name=\"date\" content=\"2009-03-02\"></head>"
      "<body><p>O festival decorre de <i>abril</i> a maio de 2009 no Porto.</p></body></html>";
  auto run = testing::run_cronista({"tag", "--html"}, page);
  ASSERT_EQ(run.exit_code, 0) << run.err;
  auto j = nlohmann::json::parse(run.out);
  ASSERT_EQ(j["expressions"].size(), 1u) << run.out;
  const auto& e = j["expressions"][0];
  ASSERT_EQ(e["endpoints"].size(), 2u) << run.out;
  EXPECT_EQ(e["endpoints"][0]["text"], "abril");
  EXPECT_EQ(e["endpoints"][1]["text"], "maio de 2009");
  for (const auto& p : e["endpoints"]) {
    const std::size_t s = p["start"], t = p["end"];
    EXPECT_EQ(page.substr(s, t - s), p["text"].get<std::string>());
  }
}

}  // namespace
}  // namespace cronista::temporal
