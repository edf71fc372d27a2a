// Dates before the year 1: chronons of BC years (astronomical numbering
// inside, TIMEX3's "BC0044" outside), periods given as BC0100, and the
// tagger's years, decades, centuries and millennia before Christ placed on the
// timeline, on Portuguese sentences of our own writing about ancient history.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "temporal/chronon.h"
#include "temporal/scope.h"
#include "temporal/tagger.h"
#include "temporal/tagger_testing.h"

namespace cronista::temporal {
namespace {

using namespace tagger_testing;

TEST(BeforeChrist, ChrononsOfYearsBeforeOneAreWrittenAsTimex3WritesThem) {
  EXPECT_EQ(Chronon::of_year(year_of_bc(44)).to_string(), "BC0044-XX-XX");
  EXPECT_EQ(Chronon::of_day(year_of_bc(44), 3, 15).to_string(), "BC0044-03-15");
  EXPECT_EQ(Chronon::of_year(0).to_string(), "BC0001-XX-XX");  // no year 0: 1 BC
  EXPECT_EQ(year_of_bc(1), 0);
  EXPECT_EQ(bc_of_year(-43), 44);
  for (const char* s : {"BC0044-XX-XX", "BC0044-03-15", "BC0001-XX-XX", "BC2500-XX-XX", "0001-XX-XX"}) {
    auto c = Chronon::parse(s);
    ASSERT_TRUE(c) << s;
    EXPECT_EQ(c->to_string(), s);
  }
  EXPECT_EQ(Chronon::parse("BC0044-XX-XX")->year, -43);
  EXPECT_FALSE(Chronon::parse("BC0000-XX-XX"));
  EXPECT_FALSE(Chronon::parse("BCXXXX-XX-XX"));
  EXPECT_EQ(timex_year(-43), "BC0044");
  EXPECT_EQ(timex_year(476), "0476");
  EXPECT_EQ(year_name(-43), "44 BC");
  EXPECT_EQ(year_name(0), "1 BC");
  EXPECT_EQ(year_name(1944), "1944");
}

TEST(BeforeChrist, OneBcIsFollowedByOneAdAndBothHaveTheirDays) {
  const auto bc1 = Chronon::of_year(year_of_bc(1)).days(), ad1 = Chronon::of_year(1).days();
  ASSERT_TRUE(bc1 && ad1);
  EXPECT_EQ(bc1->last + 1, ad1->first);
  EXPECT_EQ(bc1->last - bc1->first + 1, 366);  // 1 BC is a leap year in the proleptic Gregorian calendar
  const auto ides = Chronon::of_day(year_of_bc(44), 3, 15).days();
  ASSERT_TRUE(ides);
  EXPECT_EQ(Date::from_day_number(ides->first), (Date{-43, 3, 15}));
}

TEST(BeforeChrist, APeriodEndsBeforeChristAsBcAndTheYear) {
  auto p = Period::parse("BC0100", "0100");
  ASSERT_TRUE(p.ok()) << p.status().message();
  EXPECT_EQ(p->from, (Date{-99, 1, 1}));
  EXPECT_EQ(p->to, (Date{100, 12, 31}));
  EXPECT_TRUE(chronon_in_period(Chronon::of_year(year_of_bc(44)), *p));
  EXPECT_TRUE(chronon_in_period(Chronon::of_year(year_of_bc(100)), *p));
  EXPECT_FALSE(chronon_in_period(Chronon::of_year(year_of_bc(101)), *p));
  EXPECT_FALSE(chronon_in_period(Chronon::of_year(1950), *p));
  auto q = Period::parse("BC0044-03", "BC0044-03-15");
  ASSERT_TRUE(q.ok()) << q.status().message();
  EXPECT_EQ(q->from, (Date{-43, 3, 1}));
  EXPECT_EQ(q->to, (Date{-43, 3, 15}));
  EXPECT_TRUE(Period::parse("BC0044", "BC0044").ok());
  EXPECT_FALSE(Period::parse("BC0027", "BC0044").ok()) << "44 BC is before 27 BC";
  EXPECT_TRUE(Period::parse("BC0044", "BC0027").ok());
  EXPECT_EQ(period_end_name("BC0100"), "100 BC");
  EXPECT_EQ(period_end_name("BC0044-03-15"), "44 BC (BC0044-03-15)");
  EXPECT_EQ(period_end_name("1939-09"), "1939-09");
  EXPECT_EQ(period_end_name("0100"), "100");
  EXPECT_EQ(period_end_name("1939"), "1939");
}

TEST(BeforeChrist, OtherSpellingsOfAYearBeforeChristAreRefusedWithTheAcceptedOne) {
  for (const char* s : {"44a.C.", "44 a.C.", "44BC", "44 BC", "BC44", "bc44", "44aec"}) {
    auto p = Period::parse(s, "0100");
    ASSERT_FALSE(p.ok()) << s;
    const std::string m = p.status().message();
    EXPECT_NE(m.find("the year 44 before Christ is written BC0044"), std::string::npos) << m;
    EXPECT_EQ(m.find('\n'), std::string::npos) << m;
  }
  for (const char* s : {"BC0000", "BC", "BC00444", "-0043", "BC0044-13"}) {
    auto p = Period::parse(s, "0100");
    ASSERT_FALSE(p.ok()) << s;
    EXPECT_NE(p.status().message().find("BCYYYY"), std::string::npos) << p.status().message();
  }
}

// The first chronon and the last of the expression `what` in `text`.
std::vector<std::string> chronons(const std::string& text, const std::string& what) {
  return find(tag(text), what).chronons;
}

TEST(BeforeChrist, YearsAndCenturiesBeforeChristArePlacedOnTheTimeline) {
  EXPECT_EQ(chronons("Júlio César foi assassinado em 44 a.C.", "44 a.C."),
            (std::vector<std::string>{"BC0044-XX-XX"}));
  // The fifth century BC runs from 500 to 401 BC.
  EXPECT_EQ(chronons("No século V a.C. Atenas viveu o seu apogeu.", "século V a.C."),
            (std::vector<std::string>{"BC0500-XX-XX", "BC0401-XX-XX"}));
  EXPECT_EQ(chronons("As guerras civis romanas foram no século I a.C.", "século I a.C."),
            (std::vector<std::string>{"BC0100-XX-XX", "BC0001-XX-XX"}));
  // After Christ, as before.
  EXPECT_EQ(chronons("O Império caiu em 476 d.C.", "476 d.C."), (std::vector<std::string>{"0476-XX-XX"}));
}

TEST(BeforeChrist, MillenniaInBothSpellingsWithAndWithoutAccents) {
  struct Case {
    std::string text, what, value;
    std::vector<std::string> chronons;
  };
  const std::vector<Case> cases = {
      {"Durante o segundo milénio a.C. nasceram as cidades da Mesopotâmia.", "o segundo milénio a.C.", "BC1",
       {"BC2000-XX-XX", "BC1001-XX-XX"}},
      {"No III milênio antes de Cristo foram erguidas as pirâmides de Gizé.", "III milênio antes de Cristo", "BC2",
       {"BC3000-XX-XX", "BC2001-XX-XX"}},
      {"Os fenícios navegaram no primeiro milenio a.C.", "primeiro milenio a.C.", "BC0",
       {"BC1000-XX-XX", "BC0001-XX-XX"}},
      {"Durante o primeiro milénio a Europa tornou-se cristã.", "o primeiro milénio", "0",
       {"0001-XX-XX", "1000-XX-XX"}},
      {"No terceiro milênio a tecnologia mudou tudo.", "terceiro milênio", "2", {"2001-XX-XX", "3000-XX-XX"}},
      {"No 2.º milénio a.C. difundiu-se o bronze.", "2.º milénio a.C.", "BC1", {"BC2000-XX-XX", "BC1001-XX-XX"}},
      {"No milénio IV a.C. surgiu a escrita.", "milénio IV a.C.", "BC3", {"BC4000-XX-XX", "BC3001-XX-XX"}},
  };
  for (const Case& c : cases) {
    const Found f = find(tag(c.text), c.what);
    EXPECT_EQ(f.value, c.value) << c.text;
    EXPECT_EQ(f.chronons, c.chronons) << c.text;
  }
}

TEST(BeforeChrist, DecadesBeforeChristCountDown) {
  // "anos 40 a.C.": 49 to 40 BC, not the 1940s.
  const Found f = find(tag("Nos anos 40 a.C. Roma viveu a guerra civil entre César e Pompeu."), "anos 40 a.C.");
  EXPECT_EQ(f.value, "BC004");
  EXPECT_EQ(f.chronons, (std::vector<std::string>{"BC0049-XX-XX", "BC0040-XX-XX"}));
}

TEST(BeforeChrist, AnIntervalAcrossYearOneHasAChrononOnEachSide) {
  const Found f = find(tag("Augusto governou de 27 a.C. a 14 d.C."), "27 a.C. a 14 d.C.");
  EXPECT_EQ(f.chronons, (std::vector<std::string>{"BC0027-XX-XX", "0014-XX-XX"}));
  // The era of the right end is the left one's too.
  const Found g = find(tag("A guerra das Gálias durou de 58 a 50 a.C."), "58 a 50 a.C.");
  EXPECT_EQ(g.chronons, (std::vector<std::string>{"BC0058-XX-XX", "BC0050-XX-XX"}));
}

TEST(BeforeChrist, ASmallNumberWithoutADatingContextIsStillNoYear) {
  EXPECT_FALSE(has(tag("A legião tinha 44 centúrias e 300 cavalos."), "44"));
  EXPECT_FALSE(has(tag("Em 300 metros vire à direita."), "300"));
  // A Roman numeral before "milénio" is a date only where a millennium can be one.
  EXPECT_TRUE(tag("O capítulo V milénio é curto.").empty());
}

}  // namespace
}  // namespace cronista::temporal
