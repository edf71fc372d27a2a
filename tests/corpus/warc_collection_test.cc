// WARC files as collections: a WARC written by WarcWriter, and the real
// sample archives in ../shared/data/web/warc, with the expected documents
// counted in the test by scanning the decompressed archive itself.
#include <gtest/gtest.h>
#include <zlib.h>

#include <filesystem>

#include "corpus/collection_reader.h"
#include "crawler/warc.h"
#include "test_support.h"

namespace cronista::corpus {
namespace {

using temporal::Date;

std::vector<CollectionDocument> read_all(const std::string& path, std::vector<std::string>* errors = nullptr) {
  std::vector<CollectionDocument> docs;
  auto reader = open_collection(path, CollectionFormat::Warc);
  EXPECT_TRUE(reader.ok()) << reader.status().message();
  if (!reader.ok()) return docs;
  (*reader)->on_error = [&](const std::string& m) {
    if (errors) errors->push_back(m);
  };
  CollectionDocument d;
  while ((*reader)->next(&d)) docs.push_back(d);
  return docs;
}

const char* kPage = R"(<html><head><title>Arquivo</title></head><body>
<p>O arquivo municipal reabriu a 3 de Março de 2009. <a href="/fundos">Fundos</a></p></body></html>)";

TEST(WarcCollection, ReadsTheHtmlResponsesOfAWarcWrittenByWarcWriter) {
  testing::TempDir tmp;
  const std::string path = (tmp / "c.warc.gz").string();
  {
    auto w = crawler::WarcWriter::open(path, "cronista-test");
    ASSERT_TRUE(w.ok()) << w.status().message();
    const std::string req = "GET / HTTP/1.1\r\nHost: arquivo.exemplo.pt\r\n\r\n";
    ASSERT_TRUE((*w)->write_exchange("http://arquivo.exemplo.pt/", "2024-02-01T10:00:00Z", req,
                                     "HTTP/1.1 200 OK\r\nContent-Type: text/html; charset=utf-8\r\n"
                                     "Last-Modified: Tue, 03 Mar 2009 10:00:00 GMT\r\n",
                                     kPage)
                    .ok());
    ASSERT_TRUE((*w)->write_exchange("http://arquivo.exemplo.pt/falta", "2024-02-01T10:00:01Z", req,
                                     "HTTP/1.1 404 Not Found\r\nContent-Type: text/html\r\n", "<p>Não existe</p>")
                    .ok());
    ASSERT_TRUE((*w)->write_exchange("http://arquivo.exemplo.pt/logo.png", "2024-02-01T10:00:02Z", req,
                                     "HTTP/1.1 200 OK\r\nContent-Type: image/png\r\n", std::string("\x89PNG\r\n", 6))
                    .ok());
    ASSERT_TRUE((*w)->write_exchange("http://arquivo.exemplo.pt/leia.txt", "2024-02-01T10:00:03Z", req,
                                     "HTTP/1.1 200 OK\r\nContent-Type: text/plain; charset=iso-8859-1\r\n",
                                     "Hor\xe1rio de Ver\xe3o de 2024.")
                    .ok());
    ASSERT_TRUE((*w)->flush().ok());
  }
  std::vector<std::string> errors;
  auto docs = read_all(path, &errors);
  EXPECT_TRUE(errors.empty());
  ASSERT_EQ(docs.size(), 2u);
  EXPECT_EQ(docs[0].url, "http://arquivo.exemplo.pt/");
  EXPECT_TRUE(docs[0].is_html);
  EXPECT_EQ(docs[0].content, kPage);
  EXPECT_EQ(docs[0].date, (Date{2009, 3, 3}));
  EXPECT_EQ(docs[0].date_source, "http-last-modified");
  EXPECT_EQ(docs[0].key.rfind("<urn:uuid:", 0), 0u) << docs[0].key;
  EXPECT_FALSE(docs[1].is_html);
  EXPECT_EQ(docs[1].date, (Date{2024, 2, 1}));
  EXPECT_EQ(docs[1].date_source, "warc-date");
  EXPECT_EQ(docs[1].content_type, "text/plain; charset=iso-8859-1");
  EXPECT_NE(docs[0].key, docs[1].key);
}

TEST(WarcCollection, RobotsTxtRecordsAreNoDocuments) {
  testing::TempDir tmp;
  const std::string path = (tmp / "c.warc.gz").string();
  {
    auto w = crawler::WarcWriter::open(path, "cronista-test");
    ASSERT_TRUE(w.ok()) << w.status().message();
    const std::string req = "GET /robots.txt HTTP/1.1\r\nHost: arquivo.exemplo.pt\r\n\r\n";
    ASSERT_TRUE((*w)->write_exchange("http://arquivo.exemplo.pt/robots.txt", "2024-02-01T10:00:00Z", req,
                                     "HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\n",
                                     "User-agent: *\nDisallow: /1999/\n")
                    .ok());
    ASSERT_TRUE((*w)->write_exchange("http://arquivo.exemplo.pt/", "2024-02-01T10:00:01Z", req,
                                     "HTTP/1.1 200 OK\r\nContent-Type: text/html; charset=utf-8\r\n", kPage)
                    .ok());
    ASSERT_TRUE((*w)->flush().ok());
  }
  auto docs = read_all(path);
  ASSERT_EQ(docs.size(), 1u);
  EXPECT_EQ(docs[0].url, "http://arquivo.exemplo.pt/");
}

// The whole archive decompressed (gzread reads every member in turn).
std::string gunzip(const std::string& path) {
  gzFile f = gzopen(path.c_str(), "rb");
  std::string out;
  if (!f) return out;
  char buf[65536];
  int n;
  while ((n = gzread(f, buf, sizeof buf)) > 0) out.append(buf, static_cast<std::size_t>(n));
  gzclose(f);
  return out;
}

// Counts response records with a 2xx HTML payload by scanning the raw text.
std::size_t html_responses(const std::string& warc) {
  std::size_t count = 0, pos = 0;
  while ((pos = warc.find("WARC-Type: response", pos)) != std::string::npos) {
    const std::size_t http = warc.find("\r\n\r\nHTTP/", pos);
    pos += 19;
    if (http == std::string::npos) break;
    const std::size_t head_end = warc.find("\r\n\r\n", http + 4);
    std::string head = warc.substr(http + 4, head_end - http - 4);
    for (char& c : head) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    const bool ok = head.size() > 10 && head[9] == '2';
    if (ok && head.find("content-type: text/html") != std::string::npos) ++count;
  }
  return count;
}

TEST(WarcCollection, ReadsTheSharedIanaArchive) {
  const std::string shared = testing::shared_data_dir();
  const std::string path = shared + "/web/warc/pywb/iana.warc.gz";
  if (shared.empty() || !std::filesystem::exists(path)) GTEST_SKIP() << "no shared WARC samples";
  std::vector<std::string> errors;
  auto docs = read_all(path, &errors);
  EXPECT_TRUE(errors.empty()) << errors.front();
  EXPECT_EQ(docs.size(), html_responses(gunzip(path)));
  std::set<std::string> keys;
  for (const CollectionDocument& d : docs) {
    keys.insert(d.key);
    EXPECT_NE(d.url.find("://www.iana.org/"), std::string::npos) << d.url;
    EXPECT_TRUE(d.date.has_value()) << d.url;
  }
  EXPECT_EQ(keys.size(), docs.size());
}

TEST(WarcCollection, SkipsCorruptRecordsOfTheSharedSamplesAndReadsTheRest) {
  const std::string shared = testing::shared_data_dir();
  const std::string dir = shared + "/web/warc";
  if (shared.empty() || !std::filesystem::exists(dir)) GTEST_SKIP() << "no shared WARC samples";
  std::vector<std::string> errors;
  auto docs = read_all(dir, &errors);
  EXPECT_GT(docs.size(), 16u);
  ASSERT_FALSE(errors.empty());  // example-trunc.warc and friends
  for (const std::string& e : errors) EXPECT_NE(e.find("offset "), std::string::npos) << e;
}

}  // namespace
}  // namespace cronista::corpus
