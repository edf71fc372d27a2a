// Hostile HTML and text for the HTML reader: unterminated constructs,
// invalid UTF-8, NUL bytes and pathological nesting. The reader promises to
// never fail and to return valid UTF-8 with offsets in range.
#include <gtest/gtest.h>

#include <string>

#include "temporal/html_limits.h"
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


// gumbo's time grows with the square of the nesting depth (100k nested divs
// did not parse in 400 s); html_document cuts the nesting at the depth limit
// before parsing (html_limits.h), keeping all the text.
TEST(HtmlRobustness, AHundredThousandNestedElementsKeepTheirText) {
  std::string page = "<html><body>";
  for (int i = 0; i < 100000; ++i) page += "<div>nível " + std::to_string(i) + " ";
  const std::size_t date_at = page.size();
  page += "Em maio de 1944.";
  for (int i = 0; i < 100000; ++i) page += "</div>";
  page += "<p>Depois, em junho, chegou a paz.</p>";
  TextDocument doc = html_document(page);
  expect_well_formed(doc, page.size());
  EXPECT_EQ(doc.text.rfind("nível 0\n\nnível 1\n\n", 0), 0u);
  EXPECT_NE(doc.text.find("nível 99999 Em maio de 1944."), std::string::npos);
  const std::size_t date = doc.text.find("Em maio de 1944.");
  ASSERT_NE(date, std::string::npos);
  EXPECT_EQ(doc.source_offset(date), date_at);
  // Levels past the limit share the innermost kept block.
  EXPECT_EQ(doc.blocks.size(), MarkupLimits{}.max_depth + 1);
  EXPECT_NE(doc.text.find("\n\nDepois, em junho, chegou a paz."), std::string::npos);
}

// Markup that nests without nesting tags of one kind: the adoption agency
// keeps blocks opened inside formatting elements and links open, </form>
// closes the form alone, cells open tables inside tables, lists nest lists,
// custom elements are closed by end tags that name others.
TEST(HtmlRobustness, EveryKindOfDeepNestingIsCut) {
  const std::pair<const char*, const char*> kinds[] = {
      {"<b><div></b>", "b-div"},       {"<a href=\"/x\"><div>", "a-div"}, {"<form><div></form>", "form"},
      {"<table><tr><td>", "table"},    {"<ul><li>", "list"},             {"<x-a></x-b>", "custom"},
      {"<span>", "span"},              {"<i><b>", "formatting"},         {"<p><section></p>", "p-section"}};
  for (const auto& [unit, name] : kinds) {
    std::string page = "<html><body>";
    for (int i = 0; i < 20000; ++i) page += unit;
    page += "Em maio de 1944, a cidade.";
    TextDocument doc = html_document(page);
    expect_well_formed(doc, page.size());
    EXPECT_NE(doc.text.find("Em maio de 1944, a cidade."), std::string::npos) << name;
    BoundedMarkup cut;
    EXPECT_TRUE(bound_markup(page, MarkupLimits{}, &cut)) << name;
  }
}

}  // namespace
}  // namespace cronista::temporal
