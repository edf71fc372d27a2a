// `cronista segment` end to end: the real binary, real Portuguese text.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <pugixml.hpp>
#include <string>

#include "test_support.h"

namespace {

using cronista::testing::run_cronista;

const std::string kHistory =
    "A guerra começou em 1939. No dia 6 de junho de 1944 os Aliados desembarcaram na Normandia. "
    "Três dias depois avançaram para o interior. Em 1946 houve finalmente paz.\n";

TEST(SegmentCommand, PlainTextGivesSegmentsWithTheirChrononsAndInputOffsets) {
  const auto r = run_cronista({"segment"}, kHistory);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto j = nlohmann::json::parse(r.out);
  const auto& segs = j.at("segments");
  ASSERT_EQ(segs.size(), 3u) << r.out;
  EXPECT_EQ(segs[0].at("start"), 0);
  EXPECT_EQ(segs.back().at("end"), kHistory.size());
  for (std::size_t k = 1; k < segs.size(); ++k) EXPECT_EQ(segs[k].at("start"), segs[k - 1].at("end"));
  EXPECT_EQ(segs[0].at("chronons"), nlohmann::json::array({"1939-XX-XX"}));
  EXPECT_EQ(segs[1].at("chronons").at(0), "1944-06-06");
  EXPECT_EQ(segs[2].at("chronons"), nlohmann::json::array({"1946-XX-XX"}));
  const std::size_t second = segs[1].at("start");
  EXPECT_EQ(kHistory.substr(second, 9), "No dia 6 ");
  EXPECT_FALSE(segs[0].contains("links"));
}

TEST(SegmentCommand, ParagraphGranularityKeepsAParagraphWhole) {
  const auto r = run_cronista({"segment", "--granularity", "paragraph"}, kHistory);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(nlohmann::json::parse(r.out).at("segments").size(), 1u);
}

TEST(SegmentCommand, HtmlLinksAreResolvedAgainstBaseUrlAndBaseHref) {
  const std::string html =
      "<html><head><base href='/arquivo/'><meta name='date' content='2020-05-01'></head><body>"
      "<nav><a href='/temas'>Temas</a></nav>"
      "<p>Ontem saiu <a href='noticia.html#topo'>a notícia</a>. Em 1999 era tudo diferente, "
      "como se lê <a href='https://Outro.PT:443/a/../b'>aqui</a>.</p><a href='javascript:void(0)'>x</a></body></html>";
  const cronista::testing::TempDir tmp;
  cronista::testing::write_file(tmp / "pagina.html", html);
  const auto r = run_cronista({"segment", "--html", "--base-url", "https://www.exemplo.pt/noticias/hoje.html",
                               (tmp / "pagina.html").string()});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j.at("dct"), "2020-05-01");
  const auto& segs = j.at("segments");
  ASSERT_EQ(segs.size(), 3u) << r.out;
  EXPECT_EQ(segs[0].at("links"), nlohmann::json::array({"https://www.exemplo.pt/temas"}));
  EXPECT_TRUE(segs[0].at("boilerplate").get<bool>());
  EXPECT_EQ(segs[1].at("chronons"), nlohmann::json::array({"2020-04-30"}));
  EXPECT_EQ(segs[1].at("links"), nlohmann::json::array({"https://www.exemplo.pt/arquivo/noticia.html"}));
  EXPECT_EQ(segs[2].at("chronons"), nlohmann::json::array({"1999-XX-XX"}));
  EXPECT_EQ(segs[2].at("links"), nlohmann::json::array({"https://outro.pt/b"}));
  // Offsets are input offsets: the second segment starts at "Ontem".
  EXPECT_EQ(segs[1].at("start"), html.find("Ontem"));

  // Without a base URL, links are given as written.
  const auto raw = run_cronista({"segment", "--html", "--dct", "2021-01-01", (tmp / "pagina.html").string()});
  ASSERT_EQ(raw.exit_code, 0) << raw.err;
  const auto rj = nlohmann::json::parse(raw.out);
  EXPECT_EQ(rj.at("dct"), "2021-01-01");
  EXPECT_EQ(rj.at("segments")[1].at("chronons"), nlohmann::json::array({"2020-12-31"}));
}

TEST(SegmentCommand, XmlHasOneElementPerSegmentWithItsChronons) {
  const auto r = run_cronista({"segment", "--format", "xml"}, kHistory);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  pugi::xml_document doc;
  ASSERT_TRUE(doc.load_string(r.out.c_str())) << r.out;
  const auto segments = doc.child("segments");
  std::vector<std::string> firsts;
  for (auto s : segments.children("segment")) firsts.push_back(s.child("chronon").text().get());
  EXPECT_EQ(firsts, (std::vector<std::string>{"1939-XX-XX", "1944-06-06", "1946-XX-XX"}));
  EXPECT_EQ(std::string(segments.child("segment").child("text").text().get()), "A guerra começou em 1939. ");
}

TEST(SegmentCommand, InvalidUtf8FailsUnlessLenient) {
  const std::string bad = "Em 1944 houve \xFF guerra.\n";
  const auto r = run_cronista({"segment"}, bad);
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find("UTF-8"), std::string::npos) << r.err;
  EXPECT_EQ(cronista::testing::count_lines(r.err), 1);
  const auto ok = run_cronista({"segment", "--lenient"}, bad);
  ASSERT_EQ(ok.exit_code, 0) << ok.err;
  const auto j = nlohmann::json::parse(ok.out);
  EXPECT_EQ(j.at("segments").back().at("end"), bad.size());
}

TEST(SegmentCommand, UsageErrorsExitTwo) {
  EXPECT_EQ(run_cronista({"segment", "--granularity", "clause"}).exit_code, 2);
  EXPECT_EQ(run_cronista({"segment", "--dct", "2020-02-30"}).exit_code, 2);
  const auto r = run_cronista({"segment", "--html", "--base-url", "ftp://exemplo.pt/"}, "<p>x</p>");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("--base-url"), std::string::npos);
  const auto missing = run_cronista({"segment", "/nonexistent/texto.txt"});
  EXPECT_EQ(missing.exit_code, 1);
  EXPECT_NE(missing.err.find("/nonexistent/texto.txt"), std::string::npos);
}

}  // namespace
