#include "temporal/xml_escape.h"

#include <gtest/gtest.h>

namespace cronista::temporal {
namespace {

TEST(XmlEscape, EscapesMarkupAndKeepsPortugueseText) {
  EXPECT_EQ(xml_escape("Guerra & Paz <1939> \"Ação\" é já"), "Guerra &amp; Paz &lt;1939&gt; &quot;Ação&quot; é já");
}

TEST(XmlEscape, ForbiddenControlsBecomeSpacesButLineBreaksAndTabsStay) {
  EXPECT_EQ(xml_escape(std::string("a\x01" "b\tc\nd\re\x1f", 10)), "a b\tc\nd\re ");
  std::string out = "<p>";
  append_xml_escaped(&out, "1 < 2");
  EXPECT_EQ(out, "<p>1 &lt; 2");
}

}  // namespace
}  // namespace cronista::temporal
