// Charset sniffing and conversion: real Portuguese text in ISO-8859-1,
// windows-1252, ISO-8859-15, UTF-8 with and without BOM, UTF-16 with BOM,
// mislabelled pages, invalid UTF-8, and the real pages of the shared web
// sample (all must come out as valid UTF-8).
#include "crawler/charset.h"

#include <gtest/gtest.h>
#include <unicode/ucnv.h>

#include <filesystem>
#include <string>

#include "test_support.h"

namespace cronista::crawler {
namespace {

// Portuguese news prose with the letters that differ between charsets:
// ç ã õ á é í ó ú â ê ô à, guillemets, an en dash (windows-1252 only) and
// the euro sign (windows-1252 and ISO-8859-15, not ISO-8859-1).
constexpr std::string_view kNoticia =
    "A Assembleia da República aprovou na generalidade, a 28 de outubro de 2020, o Orçamento do "
    "Estado para 2021. O ministro das Finanças, João Leão, disse que as pensões serão atualizadas "
    "em janeiro e que a votação final global está marcada para 26 de novembro. «É um orçamento de "
    "recuperação», afirmou à saída do Parlamento – acrescentando que o défice ficará em 4,3%.";
constexpr std::string_view kPreco = "O bilhete custa 2,50 € desde março; a redução é de 10 € por mês.";

// Encodes UTF-8 text into `charset` with ICU (for building test inputs).
std::string encode(std::string_view utf8, const char* charset) {
  UErrorCode err = U_ZERO_ERROR;
  std::string out(utf8.size() * 4 + 16, '\0');
  const int32_t n = ucnv_convert(charset, "UTF-8", out.data(), static_cast<int32_t>(out.size()), utf8.data(),
                                 static_cast<int32_t>(utf8.size()), &err);
  EXPECT_TRUE(U_SUCCESS(err)) << u_errorName(err);
  out.resize(static_cast<std::size_t>(n));
  return out;
}

std::string html_page(std::string_view head_extra, std::string_view body) {
  return "<!DOCTYPE html>\n<html lang=\"pt\"><head>" + std::string(head_extra) +
         "<title>Orçamento</title></head><body><p>" + std::string(body) + "</p></body></html>\n";
}

TEST(Charset, Iso88591HeaderIsDecodedAsWindows1252) {
  const std::string bytes = encode(kNoticia, "ISO-8859-1");
  ASSERT_NE(bytes.size(), kNoticia.size());  // really single-byte
  // The en dash is not in ISO-8859-1; use a page without it.
  const std::string text = std::string(kNoticia.substr(0, kNoticia.find(" –"))) + ".";
  const auto d = decode_to_utf8(encode(text, "ISO-8859-1"), "text/html; charset=ISO-8859-1");
  EXPECT_EQ(d.utf8, text);
  EXPECT_EQ(d.charset, "windows-1252");
  EXPECT_EQ(d.charset_from, "header");
  EXPECT_EQ(d.replaced, 0u);
}

TEST(Charset, Windows1252BytesLabelledLatin1KeepDashesAndEuro) {
  const std::string text = std::string(kNoticia) + " " + std::string(kPreco) + " “Aspas curvas”.";
  const auto d = decode_to_utf8(encode(text, "windows-1252"), "text/html;charset=\"latin1\"");
  EXPECT_EQ(d.utf8, text);
  EXPECT_EQ(d.charset, "windows-1252");
}

TEST(Charset, Iso885915Euro) {
  const auto d = decode_to_utf8(encode(kPreco, "ISO-8859-15"), "text/plain; charset=iso-8859-15");
  EXPECT_EQ(d.utf8, kPreco);
  EXPECT_EQ(d.charset, "ISO-8859-15");
}

TEST(Charset, Utf8WithoutBomOrDeclarationIsDetected) {
  const auto d = decode_to_utf8(html_page("", kNoticia), "");
  EXPECT_EQ(d.utf8, html_page("", kNoticia));
  EXPECT_EQ(d.charset, "UTF-8");
  EXPECT_EQ(d.charset_from, "detected");
}

TEST(Charset, PureAsciiIsUtf8ByDefault) {
  const auto d = decode_to_utf8("<p>Lisboa, 2020</p>", "");
  EXPECT_EQ(d.utf8, "<p>Lisboa, 2020</p>");
  EXPECT_EQ(d.charset, "UTF-8");
  EXPECT_EQ(d.charset_from, "default");
}

TEST(Charset, Utf8BomIsRemovedAndWinsOverTheHeader) {
  const std::string page = html_page("", kNoticia);
  const auto d = decode_to_utf8("\xEF\xBB\xBF" + page, "text/html; charset=windows-1252");
  EXPECT_EQ(d.utf8, page);
  EXPECT_EQ(d.charset, "UTF-8");
  EXPECT_EQ(d.charset_from, "bom");
}

TEST(Charset, Utf16WithBom) {
  const std::string page = html_page("<meta charset=\"utf-16\">", kNoticia);
  for (const char* cs : {"UTF-16LE", "UTF-16BE"}) {
    const std::string bom = std::string(cs) == "UTF-16LE" ? "\xFF\xFE" : "\xFE\xFF";
    const auto d = decode_to_utf8(bom + encode(page, cs), "text/html");
    EXPECT_EQ(d.utf8, page) << cs;
    EXPECT_EQ(d.charset, cs);
    EXPECT_EQ(d.charset_from, "bom");
    EXPECT_EQ(d.replaced, 0u);
  }
}

TEST(Charset, MetaCharsetInTheFirstKilobytes) {
  const std::string page = html_page("<meta charset=\"iso-8859-1\">", "Notícias de São João");
  const auto d = decode_to_utf8(encode(page, "ISO-8859-1"), "text/html");
  EXPECT_EQ(d.utf8, page);
  EXPECT_EQ(d.charset, "windows-1252");
  EXPECT_EQ(d.charset_from, "meta");
}

TEST(Charset, MetaHttpEquivContentType) {
  const std::string page =
      html_page("<!-- <meta charset=\"koi8-r\"> --><META HTTP-EQUIV='Content-Type' CONTENT='text/html; charset=ISO-8859-15'>",
                "Preço: 5 €, edição de sábado");
  const auto d = decode_to_utf8(encode(page, "ISO-8859-15"), "");
  EXPECT_EQ(d.utf8, page);
  EXPECT_EQ(d.charset, "ISO-8859-15");
  EXPECT_EQ(d.charset_from, "meta");
}

TEST(Charset, PrescanRules) {
  EXPECT_EQ(prescan_meta_charset("<meta charset=utf-8>"), "utf-8");
  EXPECT_EQ(prescan_meta_charset("<meta content=\"text/html; charset=latin1\">"), "");  // no http-equiv
  EXPECT_EQ(prescan_meta_charset("<meta http-equiv=content-type content=\"text/html;charset = 'cp1252'\">"),
            "cp1252");
  EXPECT_EQ(prescan_meta_charset("<script>var s = '<meta charset=x>';</script>"), "x");  // prescan is naive
  EXPECT_EQ(prescan_meta_charset("<!-- <meta charset=koi8-r> -->"), "");
  EXPECT_EQ(prescan_meta_charset(std::string(5000, ' ') + "<meta charset=utf-8>"), "");  // beyond 4 KiB
  EXPECT_EQ(prescan_meta_charset("<div title='<meta charset=koi8-r>'><meta charset=utf-8>"), "utf-8");
}

TEST(Charset, ContentTypeParameter) {
  EXPECT_EQ(charset_from_content_type("text/html; charset=UTF-8"), "UTF-8");
  EXPECT_EQ(charset_from_content_type("text/html;CHARSET=\"iso-8859-1\""), "iso-8859-1");
  EXPECT_EQ(charset_from_content_type("text/html"), "");
  EXPECT_EQ(charset_from_content_type(""), "");
}

TEST(Charset, LabelResolution) {
  EXPECT_EQ(resolve_charset_label("ISO-8859-1"), "windows-1252");
  EXPECT_EQ(resolve_charset_label(" US-ASCII "), "windows-1252");
  EXPECT_EQ(resolve_charset_label("utf8"), "UTF-8");
  EXPECT_EQ(resolve_charset_label("utf-16"), "UTF-16LE");
  EXPECT_EQ(resolve_charset_label("gb2312"), "GBK");
  EXPECT_EQ(resolve_charset_label("ibm850").empty(), false);  // ICU knows it
  EXPECT_EQ(resolve_charset_label("charset-que-nao-existe"), "");
}

TEST(Charset, UnknownLabelFallsBackToDetection) {
  const std::string page = html_page("", kNoticia);
  const auto d = decode_to_utf8(encode(page, "windows-1252"), "text/html; charset=x-desconhecido");
  EXPECT_EQ(d.utf8, page);
  EXPECT_EQ(d.charset_from, "detected");
  EXPECT_EQ(d.replaced, 0u);
}

TEST(Charset, Latin1PageDeclaredUtf8IsDetected) {
  const std::string page = html_page("<meta charset=\"utf-8\">", kNoticia);
  const auto d = decode_to_utf8(encode(page, "windows-1252"), "text/html; charset=utf-8");
  EXPECT_EQ(d.utf8, page);
  EXPECT_EQ(d.charset_from, "detected");
  EXPECT_EQ(d.replaced, 0u);
}

TEST(Charset, Utf8PageDeclaredLatin1IsDetected) {
  const std::string page = html_page("<meta charset=\"iso-8859-1\">", kNoticia);
  const auto d = decode_to_utf8(page, "text/html; charset=iso-8859-1");
  EXPECT_EQ(d.utf8, page);
  EXPECT_EQ(d.charset, "UTF-8");
  EXPECT_EQ(d.charset_from, "detected");
  // Also when the stale declaration names a multi-byte charset.
  const auto k = decode_to_utf8(html_page("<meta charset=\"euc-kr\">", kNoticia), "");
  EXPECT_EQ(k.charset, "UTF-8");
  EXPECT_EQ(k.replaced, 0u);
}

TEST(Charset, Windows1252WithoutAnyDeclarationIsDetected) {
  const std::string page = html_page("", std::string(kNoticia) + " " + std::string(kNoticia));
  const auto d = decode_to_utf8(encode(page, "windows-1252"), "");
  EXPECT_EQ(d.utf8, page);
  EXPECT_EQ(d.charset_from, "detected");
}

TEST(Charset, Windows1252UnassignedBytesMapToC1ControlsAsInWhatwg) {
  const auto d = decode_to_utf8("Rua da Prata \x81 n.\xBA 5", "text/plain; charset=windows-1252");
  EXPECT_EQ(d.utf8, "Rua da Prata \xC2\x81 n.º 5");
  EXPECT_EQ(d.replaced, 0u);
}

TEST(Charset, UndecodableSequencesAreReplacedAndCounted) {
  // UTF-16LE "Sé" + an unpaired high surrogate + "!".
  const std::string utf16 = std::string("\xFF\xFES\x00\xE9\x00\x00\xD8!\x00", 10);
  const auto d = decode_to_utf8(utf16, "");
  EXPECT_EQ(d.utf8, "Sé\xEF\xBF\xBD!");
  EXPECT_EQ(d.replaced, 1u);
  // Shift_JIS: 0x82 is a lead byte that needs a trail byte.
  const auto sj = decode_to_utf8("ab\x82", "text/plain; charset=shift_jis");
  EXPECT_EQ(sj.utf8, "ab\xEF\xBF\xBD");
  EXPECT_EQ(sj.replaced, 1u);
}

TEST(Charset, InvalidUtf8IsRepairedAndCounted) {
  const std::string good(kNoticia);
  const std::string bad = good + "\xC3" + " fim \xE2\x82 \xF0\x9F\x98 \xED\xA0\x80 \xC0\xAF \xFF";
  const auto d = decode_to_utf8(bad, "text/html; charset=utf-8");
  EXPECT_EQ(d.charset, "UTF-8");
  EXPECT_TRUE(is_valid_utf8(d.utf8));
  EXPECT_EQ(d.utf8.rfind(good, 0), 0u);
  // C3 | E2 82 | F0 9F 98 | ED | A0 | 80 | C0 | AF | FF: Unicode's maximal subparts.
  EXPECT_EQ(d.replaced, 9u);
}

TEST(Utf8, Validation) {
  std::size_t at = 99;
  EXPECT_TRUE(is_valid_utf8("Coração de Lisboa — 😀"));
  EXPECT_TRUE(is_valid_utf8(""));
  EXPECT_FALSE(is_valid_utf8("abcdefghij\xC3(", &at));
  EXPECT_EQ(at, 10u);
  EXPECT_FALSE(is_valid_utf8("\xC0\x80"));           // overlong
  EXPECT_FALSE(is_valid_utf8("\xE0\x9F\xBF"));       // overlong
  EXPECT_FALSE(is_valid_utf8("\xED\xA0\x80"));       // surrogate
  EXPECT_FALSE(is_valid_utf8("\xF4\x90\x80\x80"));   // > U+10FFFF
  EXPECT_FALSE(is_valid_utf8("\xF0\x9F\x98"));       // truncated
  EXPECT_TRUE(is_valid_utf8("\xF4\x8F\xBF\xBF"));    // U+10FFFF
}

TEST(Utf8, Sanitize) {
  std::size_t n = 0;
  EXPECT_EQ(sanitize_utf8("Évora", &n), "Évora");
  EXPECT_EQ(n, 0u);
  EXPECT_EQ(sanitize_utf8("\xC9vora \xE9 bonita", &n), "\xEF\xBF\xBDvora \xEF\xBF\xBD bonita");
  EXPECT_EQ(n, 2u);
  EXPECT_EQ(sanitize_utf8("a\xF0\x9F\x98", &n), "a\xEF\xBF\xBD");
  EXPECT_EQ(n, 1u);
}

TEST(Charset, EmptyAndBinaryBodiesNeverCrash) {
  EXPECT_EQ(decode_to_utf8("", "").utf8, "");
  std::string noise;
  for (int i = 0; i < 70000; ++i) noise.push_back(static_cast<char>((i * 2654435761u) >> 24));
  for (const char* ct : {"", "text/html; charset=utf-8", "text/html; charset=shift_jis", "text/html; charset=utf-16be"}) {
    const auto d = decode_to_utf8(noise, ct);
    EXPECT_TRUE(is_valid_utf8(d.utf8)) << ct;
    EXPECT_FALSE(d.charset.empty());
  }
  EXPECT_TRUE(is_valid_utf8(decode_to_utf8("\xFF\xFE\x00", "").utf8));  // odd UTF-16 length
}

TEST(Charset, RealPagesOfTheSharedWebSampleDecodeToValidUtf8) {
  const std::string data = cronista::testing::shared_data_dir();
  if (data.empty()) GTEST_SKIP() << "shared data directory not found";
  const std::filesystem::path pages = std::filesystem::path(data) / "web" / "htmldate" / "pages";
  if (!std::filesystem::is_directory(pages)) GTEST_SKIP() << "no htmldate pages in " << data;
  int n = 0;
  for (const auto& entry : std::filesystem::directory_iterator(pages)) {
    const std::string body = cronista::testing::read_file(entry.path());
    const auto d = decode_to_utf8(body, "");
    EXPECT_TRUE(is_valid_utf8(d.utf8)) << entry.path();
    EXPECT_FALSE(d.charset.empty()) << entry.path();
    EXPECT_GT(d.utf8.size(), 0u) << entry.path();
    ++n;
  }
  EXPECT_EQ(n, 250);
  // The Portuguese pages read as Portuguese: accented words survive intact.
  for (const char* name : {"1542250510.html", "1548435131.html", "1594316187.html", "1613345316.html",
                           "1643070775.html", "1735359864.html", "1756260927.html", "1777110076.html",
                           "1781093249.html", "1793766917.html"}) {
    const auto d = decode_to_utf8(cronista::testing::read_file(pages / name), "");
    EXPECT_NE(d.utf8.find("ção"), std::string::npos) << name << " decoded as " << d.charset;
    EXPECT_EQ(d.replaced, 0u) << name << " decoded as " << d.charset;
  }
}

}  // namespace
}  // namespace cronista::crawler
