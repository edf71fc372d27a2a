#include "temporal/chronon.h"

#include <gtest/gtest.h>

#include "temporal/scope.h"

namespace cronista::temporal {
namespace {

TEST(Date, DayNumberRoundTripsAcrossCenturiesAndLeapDays) {
  for (Date d : {Date{1970, 1, 1}, Date{1944, 6, 6}, Date{2000, 2, 29}, Date{1900, 3, 1}, Date{1582, 10, 15},
                 Date{2024, 12, 31}}) {
    EXPECT_EQ(Date::from_day_number(d.day_number()), d) << d.to_string();
  }
  EXPECT_EQ((Date{1970, 1, 1}.day_number()), 0);
  EXPECT_EQ((Date{1969, 12, 31}.day_number()), -1);
  EXPECT_EQ((Date{2000, 3, 1}.day_number() - Date{2000, 2, 28}.day_number()), 2);
  EXPECT_EQ((Date{1900, 3, 1}.day_number() - Date{1900, 2, 28}.day_number()), 1);
}

TEST(Date, ParseRejectsImpossibleDates) {
  EXPECT_TRUE(Date::parse("2000-02-29"));
  EXPECT_FALSE(Date::parse("1900-02-29"));
  EXPECT_FALSE(Date::parse("1998-13-01"));
  EXPECT_FALSE(Date::parse("1998-1-01"));
  EXPECT_FALSE(Date::parse("19980101"));
}

TEST(Chronon, WritesUnknownPartsAsX) {
  EXPECT_EQ(Chronon::of_day(1944, 6, 6).to_string(), "1944-06-06");
  EXPECT_EQ(Chronon::of_month(2000, 6).to_string(), "2000-06-XX");
  EXPECT_EQ(Chronon::of_year(1944).to_string(), "1944-XX-XX");
  Chronon christmas;
  christmas.month = 12;
  christmas.day = 25;
  EXPECT_EQ(christmas.to_string(), "XXXX-12-25");
  Chronon t = Chronon::of_day(1997, 4, 30);
  t.hour = 17;
  t.minute = 30;
  EXPECT_EQ(t.to_string(), "1997-04-30 17:30");
  EXPECT_EQ(t.granularity(), Granularity::Minute);
}

TEST(Chronon, ParseIsTheInverseOfToString) {
  for (const char* s : {"1944-06-06", "2000-06-XX", "1944-XX-XX", "XXXX-12-25", "1997-04-30 17:30",
                        "1997-04-30 17:30:05", "1997-04-30 09:XX"}) {
    auto c = Chronon::parse(s);
    ASSERT_TRUE(c) << s;
    EXPECT_EQ(c->to_string(), s);
  }
  EXPECT_FALSE(Chronon::parse("1944-6-6"));
  EXPECT_FALSE(Chronon::parse("junho"));
}

TEST(Chronon, DaysCoverTheWholeUnknownPart) {
  auto june = Chronon::of_month(2000, 6).days();
  ASSERT_TRUE(june);
  EXPECT_EQ(june->first, (Date{2000, 6, 1}.day_number()));
  EXPECT_EQ(june->last, (Date{2000, 6, 30}.day_number()));
  auto feb = Chronon::of_month(2004, 2).days();
  EXPECT_EQ(feb->last - feb->first, 28);
  Chronon no_year;
  no_year.month = 12;
  EXPECT_FALSE(no_year.days());
  EXPECT_FALSE(Chronon::of_day(1999, 2, 29).days());
}

TEST(Period, EndsAreWidenedToTheirGranularity) {
  auto p = Period::parse("1939", "1945");
  ASSERT_TRUE(p.ok());
  EXPECT_EQ(p->from, (Date{1939, 1, 1}));
  EXPECT_EQ(p->to, (Date{1945, 12, 31}));
  auto q = Period::parse("2000-02", "2000-02");
  ASSERT_TRUE(q.ok());
  EXPECT_EQ(q->to, (Date{2000, 2, 29}));
  EXPECT_FALSE(Period::parse("1945", "1939").ok());
  EXPECT_FALSE(Period::parse("19x9", "1945").ok());
  EXPECT_NE(Period::parse("1939", "1945-13").status().message().find("--to"), std::string::npos);
}

TEST(Period, AYearOfThreeDigitsIsRefusedWithItsFourDigitSpelling) {
  const auto p = Period::parse("476", "1453");
  ASSERT_FALSE(p.ok());
  EXPECT_NE(p.status().message().find("the year 476 is written 0476"), std::string::npos) << p.status().message();
  const auto q = Period::parse("0476", "1453");
  ASSERT_TRUE(q.ok()) << q.status().message();
  EXPECT_EQ(q->from, (Date{476, 1, 1}));
}

TEST(Scope, SegmentIsInScopeWhenMoreThanTheThresholdOfItsChrononsAreInside) {
  auto p = *Period::parse("1939", "1945");
  Segment s;
  s.chronons = {Chronon::of_day(1944, 6, 6), Chronon::of_month(1941, 12)};
  EXPECT_TRUE(segment_in_scope(s, p));
  s.chronons.push_back(Chronon::of_year(1950));
  EXPECT_FALSE(segment_in_scope(s, p));
  EXPECT_TRUE(segment_in_scope(s, p, 0.6));
  EXPECT_NEAR(in_scope_share(s, p), 2.0 / 3.0, 1e-9);
}

TEST(Scope, UnplaceableChrononsDoNotCountAndAnEmptySegmentIsOutOfScope) {
  auto p = *Period::parse("1939", "1945");
  Segment s;
  EXPECT_FALSE(segment_in_scope(s, p));
  Chronon christmas;
  christmas.month = 12;
  christmas.day = 25;
  s.chronons = {christmas};
  EXPECT_FALSE(segment_in_scope(s, p));
  s.chronons.push_back(Chronon::of_year(1942));
  EXPECT_TRUE(segment_in_scope(s, p));
}

TEST(Scope, AChrononStraddlingTheBoundaryIsNotInside) {
  auto p = *Period::parse("1939-09", "1945-05");
  EXPECT_FALSE(chronon_in_period(Chronon::of_year(1939), p));
  EXPECT_TRUE(chronon_in_period(Chronon::of_month(1939, 9), p));
  EXPECT_TRUE(chronon_in_period(Chronon::of_day(1945, 5, 8), p));
}

TEST(PlainText, BlocksAreSeparatedByBlankLines) {
  auto doc = plain_text_document("Primeiro parágrafo.\nAinda o primeiro.\n\n  \nSegundo.\n");
  ASSERT_EQ(doc.blocks.size(), 2u);
  EXPECT_EQ(doc.text.substr(doc.blocks[0].start, doc.blocks[0].end - doc.blocks[0].start),
            "Primeiro parágrafo.\nAinda o primeiro.");
  EXPECT_EQ(doc.text.substr(doc.blocks[1].start, doc.blocks[1].end - doc.blocks[1].start), "Segundo.");
}

}  // namespace
}  // namespace cronista::temporal
