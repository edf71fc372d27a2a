// html_document(): text, blocks, links, boilerplate, offsets and document
// dates from our own HTML snippets, and robustness over real pages.
#include "temporal/html_text.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <iostream>
#include <nlohmann/json.hpp>
#include <string>

#include "test_support.h"

namespace cronista::temporal {
namespace {

std::string block_text(const TextDocument& d, std::size_t i) {
  return d.text.substr(d.blocks[i].start, d.blocks[i].end - d.blocks[i].start);
}

bool valid_utf8(std::string_view s) {
  for (std::size_t i = 0; i < s.size();) {
    const unsigned char c = static_cast<unsigned char>(s[i]);
    std::size_t n = c < 0x80 ? 1 : (c >> 5) == 6 ? 2 : (c >> 4) == 14 ? 3 : (c >> 3) == 30 ? 4 : 0;
    if (n == 0 || i + n > s.size()) return false;
    for (std::size_t k = 1; k < n; ++k)
      if ((static_cast<unsigned char>(s[i + k]) & 0xC0) != 0x80) return false;
    if (n == 2 && c < 0xC2) return false;
    i += n;
  }
  return true;
}

// Structural invariants every TextDocument from HTML must satisfy.
void expect_well_formed(const TextDocument& d, std::size_t input_size, const std::string& what) {
  EXPECT_TRUE(valid_utf8(d.text)) << what;
  ASSERT_EQ(d.source_offsets.size(), d.text.size() + 1) << what;
  EXPECT_EQ(d.source_offsets.back(), input_size) << what;
  for (std::size_t i = 0; i < d.source_offsets.size(); ++i) {
    ASSERT_LE(d.source_offsets[i], input_size) << what << " at " << i;
    if (i > 0) ASSERT_LE(d.source_offsets[i - 1], d.source_offsets[i]) << what << " at " << i;
  }
  std::size_t previous_end = 0;
  for (std::size_t i = 0; i < d.blocks.size(); ++i) {
    const Block& b = d.blocks[i];
    ASSERT_LT(b.start, b.end) << what;
    ASSERT_LE(b.end, d.text.size()) << what;
    if (i > 0) {
      ASSERT_EQ(b.start, previous_end + 2) << what;
      ASSERT_EQ(d.text.substr(previous_end, 2), "\n\n") << what;
    } else {
      ASSERT_EQ(b.start, 0u) << what;
    }
    previous_end = b.end;
  }
  if (!d.blocks.empty()) EXPECT_EQ(previous_end, d.text.size()) << what;
  for (const Link& l : d.links) {
    ASSERT_LE(l.start, l.end) << what;
    ASSERT_LE(l.end, d.text.size()) << what;
  }
}

TEST(HtmlDocument, BlocksAreSeparatedByBlankLinesAndInlineSpaceCollapses) {
  const std::string html =
      "<html><head><title> O  Desembarque </title></head><body>"
      "<h1>Dia D</h1>\n<p>Em  6 de <b>junho</b>\n de 1944,\tos Aliados desembarcaram.</p>"
      "<ul><li>Normandia</li><li>Omaha</li></ul>Texto solto<br>depois da quebra</body></html>";
  const TextDocument d = html_document(html);
  EXPECT_EQ(d.title, "O Desembarque");
  EXPECT_EQ(d.text,
            "Dia D\n\nEm 6 de junho de 1944, os Aliados desembarcaram.\n\nNormandia\n\nOmaha\n\n"
            "Texto solto\n\ndepois da quebra");
  ASSERT_EQ(d.blocks.size(), 6u);
  EXPECT_EQ(block_text(d, 1), "Em 6 de junho de 1944, os Aliados desembarcaram.");
  expect_well_formed(d, html.size(), "snippet");
}

TEST(HtmlDocument, DropsScriptsStylesTemplatesAndSvg) {
  const std::string html =
      "<body><script>var hoje = '2020-01-01';</script><style>p{color:red}</style>"
      "<template><p>modelo</p></template><noscript>Ative o JavaScript</noscript>"
      "<svg><title>ícone</title><text>2019</text></svg><p>Só isto fica.</p></body>";
  const TextDocument d = html_document(html);
  EXPECT_EQ(d.text, "Só isto fica.");
  EXPECT_EQ(d.title, "");
}

TEST(HtmlDocument, DecodesEntitiesAndMapsOffsetsToTheirSource) {
  const std::string html = "<p>Caf&eacute; &amp; p&atilde;o &#8212; 25&nbsp;de Abril</p>";
  const TextDocument d = html_document(html);
  EXPECT_EQ(d.text, "Café & pão — 25 de Abril");
  expect_well_formed(d, html.size(), "entities");
  // "C" comes from the byte right after <p>; "é" from its entity's '&'.
  EXPECT_EQ(d.source_offset(0), html.find("Caf"));
  EXPECT_EQ(d.source_offset(d.text.find("é")), html.find("&eacute;"));
  EXPECT_EQ(d.source_offset(d.text.find("Abril")), html.find("Abril"));
  EXPECT_EQ(d.source_offset(d.text.find("25")), html.find("25"));
}

TEST(HtmlDocument, MalformedHtmlStillGivesItsText) {
  const std::string html = "<div><p>Primeiro<p>Segundo <b>negrito <i>misturado</b> fim</i><table><td>célula</div></span>";
  const TextDocument d = html_document(html);
  EXPECT_EQ(d.text, "Primeiro\n\nSegundo negrito misturado fim\n\ncélula");
  expect_well_formed(d, html.size(), "malformed");
  const TextDocument empty = html_document("");
  EXPECT_EQ(empty.text, "");
  expect_well_formed(empty, 0, "empty");
  const TextDocument garbage = html_document("<<<>>><!-- nunca fechado");
  expect_well_formed(garbage, 24, "garbage");
}

TEST(HtmlDocument, InvalidUtf8BecomesReplacementCharacterWithOffsetsIntoTheInput) {
  const std::string html = "\xEF\xBB\xBF<p>Ol\xE1 mundo \xC3\x28 fim</p>";
  const TextDocument d = html_document(html);
  EXPECT_EQ(d.text, "Ol\xEF\xBF\xBD mundo \xEF\xBF\xBD( fim");
  expect_well_formed(d, html.size(), "invalid utf-8");
  EXPECT_EQ(d.source_offset(0), html.find("Ol"));
  EXPECT_EQ(d.source_offset(d.text.find("mundo")), html.find("mundo"));
  EXPECT_EQ(d.source_offset(d.text.find("fim")), html.find("fim"));
}

TEST(HtmlDocument, LinksKeepTheirHrefAndAnchorRange) {
  const std::string html =
      "<base href='https://exemplo.pt/noticias/'>"
      "<p>Leia <a href='guerra.html?a=1&amp;b=2'>a  história\n da guerra</a> e "
      "<a href=' /outra '>outra</a>.<a href='/vazio'><img src=x></a></p><a name='sem-href'>âncora</a>";
  const TextDocument d = html_document(html);
  EXPECT_EQ(d.base_href, "https://exemplo.pt/noticias/");
  ASSERT_EQ(d.links.size(), 3u);
  EXPECT_EQ(d.links[0].href, "guerra.html?a=1&b=2");
  EXPECT_EQ(d.links[0].anchor, "a história da guerra");
  EXPECT_EQ(d.text.substr(d.links[0].start, d.links[0].end - d.links[0].start), "a história da guerra");
  EXPECT_EQ(d.links[1].href, "/outra");
  EXPECT_EQ(d.text.substr(d.links[1].start, d.links[1].end - d.links[1].start), "outra");
  EXPECT_EQ(d.links[2].anchor, "");
  EXPECT_EQ(d.links[2].start, d.links[2].end);
  EXPECT_EQ(d.links[2].start, d.text.find("outra.") + 6);
  expect_well_formed(d, html.size(), "links");
}

TEST(HtmlDocument, NavigationFooterAndFurnitureClassesAreBoilerplate) {
  const std::string html =
      "<body class='has-sidebar'><header><a href='/'>Início</a></header>"
      "<nav><ul><li><a href='/desporto'>Desporto</a></li></ul></nav>"
      "<div class='breadcrumbs'><a href='/a'>A</a> &gt; B</div>"
      "<article><header><h1>Título da notícia</h1></header><p>Corpo com <a href='/ref'>ligação</a>.</p>"
      "<div id='cookie-banner'>Aceite os cookies</div></article>"
      "<div role='navigation'>Mais</div><aside>Lateral</aside><footer>Rodapé 2020</footer>"
      "<div class='site-footer-links'>Contactos</div><p class='nota'>Fim do artigo.</p></body>";
  const TextDocument d = html_document(html);
  std::vector<std::pair<std::string, bool>> got;
  for (std::size_t i = 0; i < d.blocks.size(); ++i) got.emplace_back(block_text(d, i), d.blocks[i].boilerplate);
  const std::vector<std::pair<std::string, bool>> want = {
      {"Início", true},        {"Desporto", true}, {"A > B", true},     {"Título da notícia", false},
      {"Corpo com ligação.", false}, {"Aceite os cookies", true}, {"Mais", true}, {"Lateral", true},
      {"Rodapé 2020", true},   {"Contactos", true}, {"Fim do artigo.", false}};
  EXPECT_EQ(got, want);
  ASSERT_EQ(d.links.size(), 4u);
  EXPECT_TRUE(d.links[0].boilerplate);
  EXPECT_TRUE(d.links[1].boilerplate);
  EXPECT_TRUE(d.links[2].boilerplate);
  EXPECT_FALSE(d.links[3].boilerplate);
  EXPECT_EQ(d.links[3].anchor, "ligação");
}

TEST(HtmlDocument, BoilerplateInsideAParagraphStartsItsOwnBlock) {
  const TextDocument d = html_document("<p>Antes <span class='menu'>Menu</span> depois</p>");
  ASSERT_EQ(d.blocks.size(), 3u);
  EXPECT_EQ(block_text(d, 1), "Menu");
  EXPECT_TRUE(d.blocks[1].boilerplate);
  EXPECT_FALSE(d.blocks[2].boilerplate);
}

TEST(HtmlDocument, PublicationDateFromMetaTakesPrecedence) {
  const TextDocument d = html_document(
      "<head><meta name='description' content='Notícia de 1999-01-01'>"
      "<meta property='article:published_time' content='2020-10-11T08:30:00+01:00'>"
      "<meta name='date' content='2019-01-01'></head><body><time datetime='2018-05-05'>5 de maio</time></body>");
  ASSERT_TRUE(d.dct);
  EXPECT_EQ(d.dct->to_string(), "2020-10-11");
}

std::string dct_of(const std::string& html) {
  const TextDocument d = html_document(html);
  return d.dct ? d.dct->to_string() : "none";
}

TEST(HtmlDocument, PublicationDateFromOtherSources) {
  EXPECT_EQ(dct_of("<meta name='DC.date.issued' content='2006/12/04'>"), "2006-12-04");
  EXPECT_EQ(dct_of("<meta name='sailthru.date' content='Wed, 16 Oct 2019 10:00:00 -0400'>"), "2019-10-16");
  EXPECT_EQ(dct_of("<meta name='pubdate' content='20200315'>"), "2020-03-15");
  EXPECT_EQ(dct_of("<script type='application/ld+json'>{\"@type\":\"NewsArticle\",\"dateModified\":"
                   "\"2021-01-02\", \"datePublished\" : \"2020-12-31T23:00:00Z\"}</script>"),
            "2020-12-31");
  EXPECT_EQ(dct_of("<p>Publicado <span itemprop='datePublished' content='2017-04-25'>ontem</span></p>"),
            "2017-04-25");
  EXPECT_EQ(dct_of("<abbr class='published' itemprop='datePublished' title='2011-03-30T21:05:00-07:00'>9:05</abbr>"),
            "2011-03-30");
  EXPECT_EQ(dct_of("<span property='schema:dateCreated' content='2022-01-28T12:45:46+00:00'></span>"), "2022-01-28");
  EXPECT_EQ(dct_of("<time datetime='2010-01-01'>x</time><time pubdate datetime='2011-02-02'>y</time>"),
            "2011-02-02");
  EXPECT_EQ(dct_of("<p>Texto</p><time datetime='2012-03-04T10:00'>4 de março</time>"), "2012-03-04");
  EXPECT_EQ(dct_of("<link rel='canonical' href='https://exemplo.pt/2015/06/30/artigo'>"), "2015-06-30");
}

TEST(HtmlDocument, FallbackDatesComeAfterPublicationEvidence) {
  // Script data of the page's own, and an RDF dc:date.
  EXPECT_EQ(dct_of("<script>window.data = {\"publishedDate\":\"2016-11-04T20:37:27Z\"};</script>"), "2016-11-04");
  EXPECT_EQ(dct_of("<rdf:Description dc:date=\"2020-07-03T17:16:22+09:00\"></rdf:Description>"), "2020-07-03");
  // A modification date only when nothing gives the publication.
  EXPECT_EQ(dct_of("<meta property='og:updated_time' content='2017-04-05T19:05:44Z'>"), "2017-04-05");
  EXPECT_EQ(dct_of("<meta property='og:updated_time' content='2017-04-05'><time datetime='2016-01-02'>x</time>"),
            "2016-01-02");
  // Last, a permalink of the main text; not one in the navigation.
  EXPECT_EQ(dct_of("<nav><a href='/2001/01/01/arquivo'>Arquivo</a></nav>"
                   "<h2><a href='/blog/2020/01/13/artigo'>Artigo</a></h2>"),
            "2020-01-13");
  EXPECT_EQ(dct_of("<nav><a href='/2001/01/01/arquivo'>Arquivo</a></nav><p>Sem data</p>"), "none");
}

TEST(HtmlDocument, ImpossibleOrMissingDatesGiveNoDocumentDate) {
  EXPECT_EQ(dct_of("<meta name='date' content='2019-02-30'><p>Sem data 2019-13-01</p>"), "none");
  EXPECT_EQ(dct_of("<meta name='date' content='0000-00-00'>"), "none");
  EXPECT_EQ(dct_of("<p>Publicado a 2020-10-11 no corpo apenas</p>"), "none");
}

// Every page of the htmldate sample parses into a well-formed document. The
// share of pages whose document date equals the verified publication date is
// printed; the floor (half the pages) guards against a broken extractor, not
// a target: many pages carry their date only in visible text or scripts.
TEST(HtmlDocument, RealPagesParseAndMostYieldTheirPublicationDate) {
  const std::string data = cronista::testing::shared_data_dir();
  const std::filesystem::path dir = std::filesystem::path(data) / "web" / "htmldate";
  if (data.empty() || !std::filesystem::exists(dir / "ground_truth.json"))
    GTEST_SKIP() << "shared data (web/htmldate) not available";
  const nlohmann::json truth = nlohmann::json::parse(cronista::testing::read_file(dir / "ground_truth.json"));
  int pages = 0, found = 0, correct = 0;
  for (const auto& [file, info] : truth.items()) {
    const std::string html = cronista::testing::read_file(dir / "pages" / file);
    const TextDocument d = html_document(html);
    expect_well_formed(d, html.size(), file);
    ++pages;
    if (d.dct) {
      ++found;
      if (d.dct->to_string() == info.at("date").get<std::string>()) ++correct;
    }
  }
  std::cout << "htmldate: " << pages << " pages, document date found on " << found << ", equal to the truth on "
            << correct << " (" << (pages ? 100.0 * correct / pages : 0.0) << "%)\n";
  EXPECT_EQ(pages, 250);
  EXPECT_GE(correct * 2, pages);
}

}  // namespace
}  // namespace cronista::temporal
