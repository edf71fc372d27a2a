// The collection readers on small collections of our own writing
// (tests/data/corpus): what each format yields, in which order, with which
// dates, and how corrupt records are reported with their offsets and skipped.
#include "corpus/collection_reader.h"

#include <gtest/gtest.h>
#include <zlib.h>

#include <filesystem>

#include "test_support.h"

namespace cronista::corpus {
namespace {

using temporal::Date;

std::string data(const std::string& rel) { return testing::source_dir() + "/tests/data/corpus/" + rel; }

struct ReadAll {
  std::vector<CollectionDocument> docs;
  std::vector<std::string> errors;
  std::uint64_t bytes_read = 0, total_bytes = 0;
};

ReadAll read_all(const std::string& path, CollectionFormat format, std::uint64_t max_bytes = 64ull << 20) {
  ReadAll out;
  auto reader = open_collection(path, format);
  EXPECT_TRUE(reader.ok()) << reader.status().message();
  if (!reader.ok()) return out;
  (*reader)->on_error = [&](const std::string& m) { out.errors.push_back(m); };
  (*reader)->max_document_bytes = max_bytes;
  CollectionDocument d;
  while ((*reader)->next(&d)) out.docs.push_back(d);
  EXPECT_TRUE((*reader)->status().ok()) << (*reader)->status().message();
  EXPECT_EQ((*reader)->corrupt_records(), out.errors.size());
  out.bytes_read = (*reader)->bytes_read();
  out.total_bytes = (*reader)->total_bytes();
  return out;
}

std::string metadata(const CollectionDocument& d, const std::string& key) {
  for (const auto& [k, v] : d.metadata)
    if (k == key) return v;
  return "<absent>";
}

TEST(CollectionDate, ReadsTheFormsCollectionsUse) {
  EXPECT_EQ(parse_collection_date("12/05/2003"), (Date{2003, 5, 12}));
  EXPECT_EQ(parse_collection_date("2003-04-30"), (Date{2003, 4, 30}));
  EXPECT_EQ(parse_collection_date("2021-01-26T08:30:00Z"), (Date{2021, 1, 26}));
  EXPECT_EQ(parse_collection_date("20030520143000"), (Date{2003, 5, 20}));
  EXPECT_EQ(parse_collection_date("Tue, 15 Nov 1994 08:12:31 GMT"), (Date{1994, 11, 15}));
  EXPECT_EQ(parse_collection_date("Sunday, 06-Nov-94 08:49:37 GMT"), (Date{1994, 11, 6}));
  EXPECT_FALSE(parse_collection_date("31/02/2003"));
  EXPECT_FALSE(parse_collection_date("ontem"));
  EXPECT_FALSE(parse_collection_date(""));
}

TEST(CollectionFormatName, ParsesTheContractNames) {
  EXPECT_EQ(*parse_collection_format("html-dir"), CollectionFormat::HtmlDir);
  EXPECT_EQ(*parse_collection_format("wpt03"), CollectionFormat::Wpt03);
  auto bad = parse_collection_format("pdf");
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.status().message().find("pdf"), std::string::npos);
}

TEST(Wpt03Reader, ReadsRecordsWithTheirMetadataAndText) {
  auto r = read_all(data("wpt03/amostra.wpt03"), CollectionFormat::Wpt03);
  ASSERT_EQ(r.docs.size(), 3u);
  const CollectionDocument& feira = r.docs[0];
  EXPECT_EQ(feira.key, "http://www.jornal-minho.pt/noticias/feira.html");
  EXPECT_EQ(feira.url, feira.key);
  EXPECT_EQ(feira.title, "Feira do livro abre em Braga");
  EXPECT_EQ(feira.offset, 0u);
  EXPECT_FALSE(feira.is_html);
  EXPECT_EQ(feira.date, (Date{2003, 5, 12}));  // Last-Modified wins over dataRec
  EXPECT_EQ(feira.date_source, "wpt03-last-modified");
  EXPECT_EQ(metadata(feira, "host"), "www.jornal-minho.pt");
  EXPECT_EQ(metadata(feira, "dataRec"), "20/05/2003");
  EXPECT_EQ(feira.content.substr(0, 41), "A feira do livro de Braga abre no dia 15 ");
  EXPECT_NE(feira.content.find("\n\nA organização promete"), std::string::npos);
  EXPECT_EQ(feira.content.back(), '.');
}

TEST(Wpt03Reader, FallsBackToTheRetrievalDateAndKeepsDashesInsideText) {
  auto r = read_all(data("wpt03/amostra.wpt03"), CollectionFormat::Wpt03);
  ASSERT_EQ(r.docs.size(), 3u);
  const CollectionDocument& escola = r.docs[1];
  EXPECT_EQ(escola.date, (Date{2003, 5, 21}));
  EXPECT_EQ(escola.date_source, "wpt03-dataRec");
  EXPECT_NE(escola.content.find("-----\nEntre 1939 e 1945"), std::string::npos) << escola.content;
  EXPECT_EQ(r.docs[2].date, (Date{2003, 4, 30}));
  EXPECT_EQ(r.docs[2].content_type, "text/html; charset=iso-8859-1");
}

TEST(Wpt03Reader, ReportsCorruptRecordsWithTheirOffsetsAndGoesOn) {
  const std::string path = data("wpt03/amostra.wpt03");
  const std::string raw = testing::read_file(path);
  // The records' dashed lines start where their URL lines' preceding line starts.
  auto record_start = [&](const std::string& url) {
    std::size_t u = raw.find("URL: " + url);
    return raw.rfind('\n', u - 2) + 1;
  };
  auto r = read_all(path, CollectionFormat::Wpt03);
  ASSERT_EQ(r.errors.size(), 2u);
  EXPECT_NE(r.errors[0].find("offset " + std::to_string(record_start("http://www.registo-partido.pt/"))),
            std::string::npos)
      << r.errors[0];
  EXPECT_NE(r.errors[0].find("metadata"), std::string::npos) << r.errors[0];
  EXPECT_NE(r.errors[1].find("offset " + std::to_string(record_start("http://www.sem-traco.pt/"))),
            std::string::npos)
      << r.errors[1];
  EXPECT_NE(r.errors[0].find("amostra.wpt03"), std::string::npos);
  EXPECT_EQ(r.docs[2].offset, record_start("http://www.camara-exemplo.pt/agenda.html"));
  EXPECT_EQ(r.bytes_read, r.total_bytes);
  EXPECT_EQ(r.total_bytes, raw.size());
}

TEST(Wpt03Reader, ReadsGzipCompressedDumpsWithUncompressedOffsets) {
  testing::TempDir tmp;
  const std::string raw = testing::read_file(data("wpt03/amostra.wpt03"));
  const std::string gz = (tmp / "amostra.wpt03.gz").string();
  gzFile f = gzopen(gz.c_str(), "wb");
  ASSERT_NE(f, nullptr);
  ASSERT_EQ(gzwrite(f, raw.data(), static_cast<unsigned>(raw.size())), static_cast<int>(raw.size()));
  gzclose(f);
  auto plain = read_all(data("wpt03/amostra.wpt03"), CollectionFormat::Wpt03);
  auto packed = read_all(gz, CollectionFormat::Wpt03);
  ASSERT_EQ(packed.docs.size(), plain.docs.size());
  for (std::size_t i = 0; i < plain.docs.size(); ++i) {
    EXPECT_EQ(packed.docs[i].content, plain.docs[i].content);
    EXPECT_EQ(packed.docs[i].offset, plain.docs[i].offset);
  }
  EXPECT_EQ(packed.errors.size(), 2u);
}

TEST(Wpt03Reader, SkipsARecordOverTheSizeCap) {
  auto r = read_all(data("wpt03/amostra.wpt03"), CollectionFormat::Wpt03, 200);
  ASSERT_EQ(r.docs.size(), 2u);  // the long first record goes
  EXPECT_EQ(r.docs[0].key, "http://www.escola-exemplo.pt/historia.html");
  EXPECT_EQ(r.errors.size(), 3u);
  EXPECT_NE(r.errors[0].find("larger than 200 bytes"), std::string::npos) << r.errors[0];
}

TEST(Wpt03Reader, ReportsTextBeforeTheFirstRecord) {
  testing::TempDir tmp;
  const std::string raw = testing::read_file(data("wpt03/amostra.wpt03"));
  testing::write_file(tmp / "lixo.wpt03", "lixo no início\n" + raw);
  auto r = read_all((tmp / "lixo.wpt03").string(), CollectionFormat::Wpt03);
  EXPECT_EQ(r.docs.size(), 3u);
  ASSERT_EQ(r.errors.size(), 3u);
  EXPECT_NE(r.errors[0].find("offset 0: text outside any record"), std::string::npos) << r.errors[0];
}

TEST(JsonlReader, ReadsIdsTextsDatesAndUrls) {
  auto r = read_all(data("jsonl/noticias.jsonl"), CollectionFormat::Jsonl);
  ASSERT_EQ(r.docs.size(), 4u);
  EXPECT_EQ(r.docs[0].key, "noticia-1");
  EXPECT_EQ(r.docs[0].url, "http://noticias.exemplo.pt/hospital");
  EXPECT_EQ(r.docs[0].date, (Date{2020, 11, 2}));
  EXPECT_EQ(r.docs[0].date_source, "jsonl");
  EXPECT_EQ(metadata(r.docs[0], "genre"), "news");
  EXPECT_EQ(r.docs[0].source, "noticias");
  EXPECT_EQ(r.docs[1].key, "2");
  EXPECT_EQ(r.docs[1].date, (Date{2021, 1, 26}));  // from meta.date
  EXPECT_EQ(r.docs[2].key, "noticias.jsonl:7");      // no id: file and line
  EXPECT_EQ(r.docs[2].source, "arquivo");
  EXPECT_FALSE(r.docs[2].date);
  EXPECT_TRUE(r.docs[3].is_html);
  EXPECT_NE(r.docs[3].content.find("10 de Março de 2024"), std::string::npos);
}

TEST(JsonlReader, ReportsBadLinesWithOffsets) {
  const std::string path = data("jsonl/noticias.jsonl");
  const std::string raw = testing::read_file(path);
  auto r = read_all(path, CollectionFormat::Jsonl);
  ASSERT_EQ(r.errors.size(), 3u);
  EXPECT_NE(r.errors[0].find("offset " + std::to_string(raw.find("{\"id\": \"noticia-3\""))), std::string::npos)
      << r.errors[0];
  EXPECT_NE(r.errors[0].find("not valid JSON"), std::string::npos);
  EXPECT_NE(r.errors[1].find("offset " + std::to_string(raw.find("{\"id\": \"noticia-4\""))), std::string::npos);
  EXPECT_NE(r.errors[1].find("no \"text\""), std::string::npos);
  EXPECT_NE(r.errors[2].find("not a JSON object"), std::string::npos);
}

TEST(JsonlReader, ReadsTheRawCorpusFiles) {
  const std::string shared = testing::shared_data_dir();
  if (shared.empty() || !std::filesystem::exists(shared + "/raw/ud-pud.jsonl")) GTEST_SKIP() << "no shared raw corpus";
  auto r = read_all(shared + "/raw/ud-pud.jsonl", CollectionFormat::Jsonl);
  const std::string raw = testing::read_file(shared + "/raw/ud-pud.jsonl");
  EXPECT_EQ(r.docs.size(), static_cast<std::size_t>(testing::count_lines(raw)));
  EXPECT_TRUE(r.errors.empty());
  ASSERT_FALSE(r.docs.empty());
  EXPECT_EQ(r.docs[0].key.rfind("ud-pud/", 0), 0u);
  EXPECT_EQ(r.docs[0].source, "ud-pud");
  EXPECT_NE(metadata(r.docs[0], "meta"), "<absent>");
}

TEST(JsonlReader, AFolderIsReadInPathOrder) {
  testing::TempDir tmp;
  std::filesystem::create_directories(tmp / "b");
  testing::write_file(tmp / "b" / "2.jsonl", "{\"id\": \"dois\", \"text\": \"Em 2002.\"}\n");
  testing::write_file(tmp / "a.jsonl", "{\"id\": \"um\", \"text\": \"Em 2001.\"}\n");
  testing::write_file(tmp / "leia.md", "não é JSONL");
  auto r = read_all(tmp.path().string(), CollectionFormat::Jsonl);
  ASSERT_EQ(r.docs.size(), 2u);
  EXPECT_EQ(r.docs[0].key, "um");
  EXPECT_EQ(r.docs[1].key, "dois");
}

TEST(HtmlDirReader, ReadsHtmlFilesRecursivelyInPathOrder) {
  auto r = read_all(data("html"), CollectionFormat::HtmlDir);
  ASSERT_EQ(r.docs.size(), 2u);  // not nota.txt, not the hidden file
  EXPECT_EQ(r.docs[0].key, "index.htm");
  EXPECT_EQ(r.docs[1].key, "noticias/2003/feira.html");
  EXPECT_TRUE(r.docs[1].is_html);
  EXPECT_NE(r.docs[1].content.find("<meta name=\"date\""), std::string::npos);
  EXPECT_EQ(r.bytes_read, r.total_bytes);
}

TEST(TextDirReader, ReadsEveryVisibleFile) {
  auto r = read_all(data("text"), CollectionFormat::TextDir);
  ASSERT_EQ(r.docs.size(), 4u);
  EXPECT_EQ(r.docs[0].key, "LEIA-ME");
  EXPECT_EQ(r.docs[1].key, "cronicas/a-inverno.txt");
  EXPECT_EQ(r.docs[3].key, "cronicas/c-latin1.txt");
  EXPECT_FALSE(r.docs[1].is_html);
  EXPECT_FALSE(r.docs[1].date);
  EXPECT_EQ(r.docs[1].content, testing::read_file(data("text/cronicas/a-inverno.txt")));
}

TEST(OpenCollection, AMissingPathIsAnErrorNamingIt) {
  auto r = open_collection("/nao/existe", CollectionFormat::TextDir);
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.status().message().find("/nao/existe"), std::string::npos);
  auto empty = open_collection(data("text"), CollectionFormat::Jsonl);
  ASSERT_FALSE(empty.ok());
  EXPECT_NE(empty.status().message().find("no JSONL files"), std::string::npos);
}

}  // namespace
}  // namespace cronista::corpus
