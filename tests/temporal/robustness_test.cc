// Hostile HTML and text for the HTML reader: unterminated constructs,
// invalid UTF-8, NUL bytes and pathological nesting. The reader promises to
// never fail and to return valid UTF-8 with offsets in range.
#include <gtest/gtest.h>

#include <string>

#include "temporal/html_text.h"
#include "temporal/text_fold.h"

namespace cronista::temporal {
namespace {

using namespace std::string_literals;

void expect_well_formed(const TextDocument& doc, std::size_t input_size) {
  EXPECT_TRUE(valid_utf8(doc.text));
  for (const Block& b : doc.blocks) {
    EXPECT_LE(b.start, b.end);
    EXPECT_LE(b.end, doc.text.size());
  }
  for (const Link& l : doc.links) EXPECT_LE(l.end, doc.text.size());
  if (!doc.source_offsets.empty()) {
    ASSERT_EQ(doc.source_offsets.size(), doc.text.size() + 1);
    for (std::size_t o : doc.source_offsets) EXPECT_LE(o, input_size);
  }
}

TEST(HtmlRobustness, UnterminatedCommentCdataAndAttributeKeepTheTextBeforeThem) {
  for (const std::string page :
       {"<html><body><p>Em maio de 1944 chegou.<!-- comentário sem fim <p>mais",
        "<html><body><p>Em maio de 1944 chegou.<![CDATA[ sem fim",
        "<html><body><p>Em maio de 1944 chegou.<a href=\"x <div class=\"",
        "<html><body><p>Em maio de 1944 chegou.<script>var a = \"sem fim"}) {
    TextDocument doc = html_document(page);
    expect_well_formed(doc, page.size());
    EXPECT_NE(doc.text.find("Em maio de 1944 chegou."), std::string::npos) << page;
  }
}

TEST(HtmlRobustness, InvalidUtf8AndNulBytesBecomeValidText) {
  const std::string page = "<p>Cora\xe7\xe3o \xff\xfe em 1944\0 e \xc3</p><p>fim</p>"s;
  TextDocument doc = html_document(page);
  expect_well_formed(doc, page.size());
  EXPECT_NE(doc.text.find("em 1944"), std::string::npos);
}

TEST(HtmlRobustness, TenThousandNestedElementsDoNotExhaustTheStack) {
  std::string page = "<html><body>";
  for (int i = 0; i < 10000; ++i) page += "<div>";
  page += "Em maio de 1944.";
  for (int i = 0; i < 10000; ++i) page += "</div>";
  TextDocument doc = html_document(page);
  expect_well_formed(doc, page.size());
  EXPECT_NE(doc.text.find("Em maio de 1944."), std::string::npos);
}

// Defect: gumbo 0.10.1 checks the whole stack of open elements for every
// start tag, so parsing is quadratic in the nesting depth (20k nested divs
// ~0.7 s of CPU, 40k ~4.5 s, 80k ~22 s; 100k did not finish in 400 s on a
// loaded machine). A crawled page of a few MB of "<div>" ties up an analysis
// thread for hours. html_document should bound the depth it hands to gumbo
// (e.g. drop start tags beyond a few thousand open elements in a prescan).
// Enabled, this test runs until the ctest time-out.
TEST(HtmlRobustness, DISABLED_AHundredThousandNestedElementsParseInLinearTime) {
  std::string page = "<html><body>";
  for (int i = 0; i < 100000; ++i) page += "<div>";
  page += "Em maio de 1944.";
  for (int i = 0; i < 100000; ++i) page += "</div>";
  TextDocument doc = html_document(page);
  expect_well_formed(doc, page.size());
  EXPECT_NE(doc.text.find("Em maio de 1944."), std::string::npos);
}

}  // namespace
}  // namespace cronista::temporal
