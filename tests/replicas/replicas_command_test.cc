// `cronista replicas` on a collection built from a WARC (the replica
// study's offline setting): an original, its www alias, a copy under another
// public suffix whose footer names its own host, and unrelated sites.
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <fstream>
#include <string>
#include <vector>

#include "crawler/warc.h"
#include "test_support.h"

namespace cronista::replicas {
namespace {

using cronista::testing::run_cronista;
using cronista::testing::TempDir;

std::vector<std::string> filler() { return cronista::testing::sample_web_filler(); }

// An article page: three paragraphs from our own sentences, a footer that
// names the host serving it.
std::string page(const std::string& host, int family, int n) {
  const auto s = filler();
  std::string body = "<html><head><title>Artigo " + std::to_string(n) + "</title></head><body><article>";
  for (int k = 0; k < 3; ++k) {
    body += "<p>";
    for (int j = 0; j < 3; ++j) body += s[(static_cast<std::size_t>(family) * 97 + n * 13 + k * 5 + j * 29) % s.size()] + " ";
    body += "</p>";
  }
  body += "</article><footer>© " + host + " — todos os direitos reservados. <a href=\"http://" + host +
          "/\">Início</a></footer></body></html>";
  return body;
}

TEST(ReplicasCommand, FindsTheAliasAndTheOtherSuffixCopyOfAnArchivedSite) {
  TempDir tmp;
  const std::string warc = (tmp / "web.warc.gz").string();
  {
    auto w = crawler::WarcWriter::open(warc, "cronista-test");
    ASSERT_TRUE(w.ok()) << w.status().message();
    struct Site {
      std::string host;
      int family;
    };
    const std::vector<Site> sites = {{"arquivo.pt", 1}, {"www.arquivo.pt", 1}, {"arquivo.com.br", 1},
                                     {"jornal-da-serra.pt", 2}, {"museu-do-douro.pt", 3}};
    int second = 0;
    for (const auto& site : sites)
      for (int n = 0; n < 12; ++n) {
        const std::string url = "http://" + site.host + "/artigo/" + std::to_string(n) + ".html";
        const std::string date = "2024-02-01T10:" + std::to_string(10 + second / 60) + ":" +
                                 (second % 60 < 10 ? "0" : "") + std::to_string(second % 60) + "Z";
        ++second;
        ASSERT_TRUE((*w)->write_exchange(url, date, "GET / HTTP/1.1\r\nHost: " + site.host + "\r\n\r\n",
                                         "HTTP/1.1 200 OK\r\nContent-Type: text/html; charset=utf-8\r\n",
                                         page(site.host, site.family, n))
                        .ok());
      }
    ASSERT_TRUE((*w)->flush().ok());
  }
  const std::string db = (tmp / "web.db").string();
  auto built = run_cronista({"build", "--input", warc, "--format", "warc", "--db", db});
  ASSERT_EQ(built.exit_code, 0) << built.err;
  auto r = run_cronista({"replicas", "--db", db});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto j = nlohmann::json::parse(r.out);
  ASSERT_EQ(j["clusters"].size(), 1u) << r.out << r.err;
  const auto& c = j["clusters"][0];
  EXPECT_EQ(c["canonical"], "arquivo.pt");
  std::vector<std::string> replicas = c["replicas"];
  std::sort(replicas.begin(), replicas.end());
  EXPECT_EQ(replicas, (std::vector<std::string>{"arquivo.com.br", "www.arquivo.pt"}));
  EXPECT_EQ(c["evidence"]["www.arquivo.pt"]["kind"], "alias");
  EXPECT_EQ(c["evidence"]["arquivo.com.br"]["kind"], "tld");
  EXPECT_DOUBLE_EQ(c["evidence"]["arquivo.com.br"]["features"]["shared_path_text"].get<double>(), 1.0);

  auto md = run_cronista({"replicas", "--db", db, "--format", "md"});
  ASSERT_EQ(md.exit_code, 0) << md.err;
  EXPECT_NE(md.out.find("## arquivo.pt (canonical)"), std::string::npos) << md.out;
}

TEST(ReplicasCommand, AMissingDatabaseIsAOneLineError) {
  auto r = run_cronista({"replicas", "--db", "/nao/existe.db"});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find("/nao/existe.db"), std::string::npos);
  EXPECT_EQ(cronista::testing::count_lines(r.err), 1);
}

}  // namespace
}  // namespace cronista::replicas
