// The markup bounds applied before parsing (html_limits.h): they must leave
// ordinary pages alone, however sloppy their markup, and cut only what nests
// too deep or comes past the element and link limits, keeping the text and
// the source offsets.
#include "temporal/html_limits.h"

#include <gtest/gtest.h>

#include <string>

#include "temporal/html_text.h"

namespace cronista::temporal {
namespace {

std::string repeat(const std::string& unit, int n) {
  std::string out;
  for (int i = 0; i < n; ++i) out += unit;
  return out;
}

MarkupLimits depth_limit(std::size_t depth) {
  MarkupLimits l;
  l.max_depth = depth;
  return l;
}

bool cut_at(const std::string& page, std::size_t depth) {
  BoundedMarkup cut;
  return bound_markup(page, depth_limit(depth), &cut);
}

// Unclosed elements that the tree builder closes implicitly do not pile up:
// 3000 of each stay far under a limit of 64.
TEST(HtmlDepthCut, SloppyButOrdinaryMarkupNeverReachesTheLimit) {
  const std::string kinds[] = {
      "<p><span>O parlamento reuniu-se a 5 de junho de 1944 e votou",  // <p> closes <p> and what it holds
      "<li><b>Item da lista, publicado em 1998",                       // <li> closes <li>
      "<tr><td><font size=2>Lisboa</td><td>12 de maio",                // cells and rows close cells
      "<div><span>Notícia de ontem</div>",                             // </div> closes the span
      "<dt>Data<dd><em>6 de junho de 1944",                            // definitions close each other
      "<h2><i>Capítulo</h2>",                                          // </h2> closes the i
      "<a href=\"/a\">primeiro <a href=\"/b\">segundo",                // <a> closes <a>
      "<option>janeiro<option>fevereiro",                              // options close options
      "<form><input name=q><form>",                                    // a form in a form is ignored
      "<br/><img src=x.png/><hr><meta charset=utf-8>",                 // void elements
      "<svg><path d=\"M0 0\"/><circle r=\"1\"/></svg>",                 // self-closing in svg
  };
  for (const std::string& unit : kinds) {
    std::string page = "<html><body><table>" + repeat(unit, 3000) + "</table></body></html>";
    if (unit.rfind("<tr>", 0) != 0) page = "<html><body><ul><dl>" + repeat(unit, 3000);
    EXPECT_FALSE(cut_at(page, 64)) << unit;
  }
}

TEST(HtmlDepthCut, TextInScriptsCommentsAndAttributesIsNotMarkup) {
  const std::string page = "<html><head><script>var s = '" + repeat("<div>", 2000) + "';</script>" +
                           "<style>p::before { content: '<div>' }</style><title><div></title></head><body>" +
                           "<!-- " + repeat("<div>", 2000) + " -->" +
                           repeat("<p title=\"a > <div> b\" data-x='<div>'>Em 1944.</p>", 2000) +
                           "<textarea>" + repeat("<div>", 2000) + "</textarea></body></html>";
  EXPECT_FALSE(cut_at(page, 16));
}

TEST(HtmlDepthCut, CutsExactlyPastTheLimit) {
  const std::string at_limit = "<html><body>" + repeat("<div>", 100) + "Em 1944." + repeat("</div>", 100);
  EXPECT_FALSE(cut_at(at_limit, 100));
  EXPECT_TRUE(cut_at(at_limit, 99));
  BoundedMarkup cut;
  ASSERT_TRUE(bound_markup(at_limit, depth_limit(90), &cut));
  // Ten start tags and their ten end tags go; block tags leave a space.
  EXPECT_EQ(cut.dropped_tags, 20u);
  const std::string gone_div = " " + std::string(4, '\0'), gone_end = " " + std::string(5, '\0');
  EXPECT_EQ(cut.html, "<html><body>" + repeat("<div>", 90) + repeat(gone_div, 10) + "Em 1944." +
                          repeat(gone_end, 10) + repeat("</div>", 90));
  // Offsets stay: the text of the cut page is where it was in the input.
  TextDocument doc = html_document(cut.html);
  EXPECT_EQ(doc.text, "Em 1944.");
  EXPECT_EQ(doc.source_offset(0), at_limit.find("Em 1944."));
}

TEST(HtmlDepthCut, InlineTagsGoWithoutASpaceAndLinksStay) {
  const std::string page = "<html><body>" + repeat("<span>", 50) + "<a href=\"/noticia/1944\">de<b>sembarque</b></a>" +
                           " na Normandia" + repeat("</span>", 50);
  BoundedMarkup cut;
  ASSERT_TRUE(bound_markup(page, depth_limit(20), &cut));
  EXPECT_NE(cut.html.find("<a href=\"/noticia/1944\">de" + std::string(3, '\0') + "sembarque" +
                          std::string(4, '\0') + "</a> na Normandia"),
            std::string::npos);
  TextDocument doc = html_document(page);
  EXPECT_EQ(doc.text, "desembarque na Normandia");
  ASSERT_EQ(doc.links.size(), 1u);
  EXPECT_EQ(doc.links[0].href, "/noticia/1944");
  EXPECT_EQ(doc.links[0].anchor, "desembarque");
  // Every text byte maps to its byte of the input.
  for (std::size_t i = 0; i < doc.text.size(); ++i) EXPECT_EQ(page[doc.source_offset(i)], doc.text[i]) << i;
}

TEST(HtmlDepthCut, PagesUnderTheLimitAreParsedAsBefore) {
  // Under the limit html_document sees the page unchanged: same text as the
  // same page with its nesting spelled out by hand.
  const std::string deep = "<html><body>" + repeat("<div>", 400) + "<p>Em maio de 1944.</p>" + repeat("</div>", 400);
  EXPECT_FALSE(cut_at(deep, MarkupLimits{}.max_depth));
  TextDocument doc = html_document(deep);
  EXPECT_EQ(doc.text, "Em maio de 1944.");
  EXPECT_EQ(doc.source_offset(0), deep.find("Em maio"));
}

// The default link limit, through html_document: the first 100,000 <a>
// elements are links; the anchors after them stay in the text, in place.
TEST(HtmlLimits, LinksPastTheLimitStayAsText) {
  std::string page = "<html><body><p>";
  for (int i = 0; i < 100005; ++i)
    page += "<a href=\"/noticias/" + std::to_string(i) + "\">edição n.º " + std::to_string(i) + "</a> ";
  page += "</p></body></html>";
  TextDocument doc = html_document(page);
  ASSERT_EQ(doc.links.size(), MarkupLimits{}.max_links);
  EXPECT_EQ(doc.links.back().href, "/noticias/99999");
  EXPECT_EQ(doc.links.back().anchor, "edição n.º 99999");
  const std::size_t last = doc.text.find("edição n.º 100004");
  ASSERT_NE(last, std::string::npos);
  EXPECT_EQ(doc.source_offset(last), page.find("edição n.º 100004"));
  const std::string tail = "edição n.º 100003 edição n.º 100004";
  EXPECT_EQ(doc.text.substr(doc.text.size() - tail.size()), tail);
}

TEST(HtmlLimits, PastTheElementLimitTheRestIsText) {
  std::string page = "<html><head><title>Arquivo</title></head><body>";
  for (int i = 0; i < 100; ++i) {
    page += "<p>Em " + std::to_string(1900 + i) + " abriu a <b>feira</b>.</p>";
    if (i == 70) page += "<script>var escondido = '<p>não é texto</p>';</script><br>";
  }
  page += "</body></html>";
  MarkupLimits limits;
  limits.max_elements = 60;  // the title, 29 paragraphs with their <b>, one <p>
  BoundedMarkup cut;
  ASSERT_TRUE(bound_markup(page, limits, &cut));
  EXPECT_EQ(cut.html.size(), page.size());
  TextDocument doc = html_document(cut.html);
  // 30 paragraphs (the last one's <b> dropped), then one block holds the
  // text of all the rest.
  ASSERT_EQ(doc.blocks.size(), 31u);
  EXPECT_EQ(doc.text.substr(doc.blocks[29].start, doc.blocks[29].end - doc.blocks[29].start), "Em 1929 abriu a feira.");
  const std::string rest = doc.text.substr(doc.blocks[30].start);
  EXPECT_EQ(rest.rfind("Em 1930 abriu a feira. Em 1931 abriu a feira. ", 0), 0u) << rest.substr(0, 80);
  EXPECT_NE(rest.find("Em 1999 abriu a feira."), std::string::npos);
  EXPECT_EQ(rest.find("escondido"), std::string::npos);
  EXPECT_EQ(rest.find("não é texto"), std::string::npos);
  EXPECT_EQ(doc.title, "Arquivo");
}

TEST(HtmlLimits, AttributesPastTheLimitAreBlankedOut) {
  std::string tag = "<a href=\"/1944/06/06/desembarque\"";
  for (int i = 0; i < 300; ++i) tag += " data-x" + std::to_string(i) + "='v>" + std::to_string(i) + "'";
  const std::string page = "<html><body><p>" + tag + ">O desembarque</a> foi a 6 de junho de 1944.</p>";
  BoundedMarkup cut;
  ASSERT_TRUE(bound_markup(page, MarkupLimits{}, &cut));
  ASSERT_EQ(cut.html.size(), page.size());
  // The first 128 attributes stay as written, the rest are spaces.
  const std::size_t first_gone = page.find(" data-x127=") + 1;
  EXPECT_EQ(cut.html.substr(0, first_gone), page.substr(0, first_gone));
  const std::size_t gt = page.find(">O desembarque");
  EXPECT_EQ(cut.html.substr(first_gone, gt - first_gone), std::string(gt - first_gone, ' '));
  TextDocument doc = html_document(page);
  EXPECT_EQ(doc.text, "O desembarque foi a 6 de junho de 1944.");
  ASSERT_EQ(doc.links.size(), 1u);
  EXPECT_EQ(doc.links[0].href, "/1944/06/06/desembarque");
}

TEST(HtmlLimits, CommentsCountAsElementsAndGoPastTheLimit) {
  std::string page = "<!DOCTYPE html><html><body><p>Em maio de 1944.</p>";
  for (int i = 0; i < 20; ++i) page += "<!-- nota " + std::to_string(i) + " --><!---->";
  page += "<p>Em junho de 1944.</p>";
  MarkupLimits limits;
  limits.max_elements = 12;  // the doctype, a <p>, 10 comments
  BoundedMarkup cut;
  ASSERT_TRUE(bound_markup(page, limits, &cut));
  EXPECT_NE(cut.html.find("<!-- nota 4 --><!---->"), std::string::npos);
  EXPECT_EQ(cut.html.find("nota 5"), std::string::npos);
  EXPECT_EQ(cut.dropped_tags, 30u + 2u);  // 30 comments, the second <p> and its end tag
  TextDocument doc = html_document(cut.html);
  EXPECT_EQ(doc.text, "Em maio de 1944.\n\nEm junho de 1944.");
}

// Formatting elements left open are reopened before every run of text;
// distinct ones pile up (Noah's Ark only bounds identical ones to three).
TEST(HtmlLimits, FormattingLeftOpenIsBounded) {
  std::string page = "<html><body>";
  for (int i = 0; i < 5000; ++i)
    page += "<p><font color=\"#" + std::to_string(100000 + i) + "\">Ata n.º " + std::to_string(i) + " de 1944</p>";
  BoundedMarkup cut;
  ASSERT_TRUE(bound_markup(page, MarkupLimits{}, &cut));
  std::size_t kept = 0;
  for (std::size_t at = cut.html.find("<font"); at != std::string::npos; at = cut.html.find("<font", at + 1)) ++kept;
  EXPECT_EQ(kept, MarkupLimits{}.max_formatting);
  TextDocument doc = html_document(page);
  EXPECT_EQ(doc.blocks.size(), 5000u);
  EXPECT_NE(doc.text.find("Ata n.º 4999 de 1944"), std::string::npos);
  // Identical ones, as sloppy pages write them, are never dropped.
  std::string sloppy = "<html><body>";
  for (int i = 0; i < 5000; ++i) sloppy += "<p><font size=2><b>Ata n.º " + std::to_string(i) + " de 1944</p>";
  EXPECT_FALSE(bound_markup(sloppy, MarkupLimits{}, &cut));
}

}  // namespace
}  // namespace cronista::temporal
