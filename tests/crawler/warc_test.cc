// WARC writer and reader: round trips, digests, append/resume, crash
// truncation and corruption, HTTP block parsing, the real sample archives
// of the shared data (including the deliberately malformed ones), and
// validation of our output with standard tools (gzip; warcio when present).
#include "crawler/warc.h"

#include <gtest/gtest.h>
#include <openssl/evp.h>
#include <zlib.h>

#include <cstdlib>
#include <filesystem>
#include <map>
#include <random>
#include <regex>
#include <string>
#include <vector>

#include "crawler/warcio_check.h"
#include "test_support.h"

namespace cronista::crawler {
namespace {

namespace fs = std::filesystem;
using cronista::testing::read_file;
using cronista::testing::TempDir;
using cronista::testing::write_file;

const std::string kPage =
    "<!DOCTYPE html><html lang=\"pt\"><head><meta charset=\"utf-8\"><title>Orçamento do Estado</title></head>"
    "<body><p>A Assembleia da República aprovou o Orçamento do Estado para 2021 a 26 de novembro de 2020.</p>"
    "<p>A votação na especialidade decorreu entre 20 e 25 de novembro.</p></body></html>\n";

std::string request_for(const std::string& path) {
  return "GET " + path + " HTTP/1.1\r\nHost: www.exemplo.pt\r\nUser-Agent: cronista/0.1\r\nAccept-Encoding: gzip\r\n\r\n";
}

const std::string kHead = "HTTP/1.1 200 OK\r\nContent-Type: text/html; charset=utf-8\r\nContent-Length: " +
                          std::to_string(kPage.size()) + "\r\nLast-Modified: Thu, 26 Nov 2020 18:00:00 GMT\r\n\r\n";

struct ReadResult {
  std::vector<WarcRecord> records;
  std::vector<std::string> errors;
};

ReadResult read_all(const std::string& path) {
  ReadResult r;
  auto reader = WarcReader::open(path);
  EXPECT_TRUE(reader.ok()) << reader.status().message();
  if (!reader.ok()) return r;
  (*reader)->on_error = [&](const std::string& m) { r.errors.push_back(m); };
  WarcRecord rec;
  while ((*reader)->next(&rec)) r.records.push_back(rec);
  return r;
}

void write_pages(const std::string& path, int first, int count) {
  auto w = WarcWriter::open(path, "cronista 0.1");
  ASSERT_TRUE(w.ok()) << w.status().message();
  for (int i = first; i < first + count; ++i) {
    const std::string p = "/noticias/" + std::to_string(i);
    ASSERT_TRUE((*w)->write_exchange("https://www.exemplo.pt" + p, "2026-11-22T08:30:0" + std::to_string(i % 10) + "Z",
                                     request_for(p), kHead, kPage + std::to_string(i))
                    .ok());
  }
  ASSERT_TRUE((*w)->flush().ok());
}

TEST(WarcDigest, Sha1Base32) {
  EXPECT_EQ(warc_sha1_digest(""), "sha1:3I42H3S6NNFQ2MSVX7XZKYAYSCX5QBYJ");
  EXPECT_EQ(warc_sha1_digest("abc"), "sha1:VGMT4NSHA2AWVOR6EVYXQUGCNSONBWE5");
}

TEST(WarcWriter, RoundTripWithLinkedRequestAndResponse) {
  TempDir tmp;
  const std::string path = (tmp / "crawl.warc.gz").string();
  write_pages(path, 1, 3);
  const ReadResult r = read_all(path);
  EXPECT_TRUE(r.errors.empty());
  ASSERT_EQ(r.records.size(), 7u);
  EXPECT_EQ(r.records[0].type, "warcinfo");
  EXPECT_EQ(r.records[0].header("Content-Type"), "application/warc-fields");
  EXPECT_NE(r.records[0].block.find("software: cronista 0.1"), std::string::npos);
  EXPECT_EQ(r.records[0].header("WARC-Filename"), "crawl.warc.gz");

  const std::regex uuid("<urn:uuid:[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}>");
  const std::string file = read_file(path);
  for (int i = 0; i < 3; ++i) {
    const WarcRecord& resp = r.records[1 + 2 * i];
    const WarcRecord& req = r.records[2 + 2 * i];
    const std::string target = "https://www.exemplo.pt/noticias/" + std::to_string(i + 1);
    EXPECT_EQ(resp.type, "response");
    EXPECT_EQ(req.type, "request");
    EXPECT_TRUE(std::regex_match(resp.header("WARC-Record-ID"), uuid)) << resp.header("WARC-Record-ID");
    EXPECT_TRUE(std::regex_match(req.header("WARC-Record-ID"), uuid));
    EXPECT_NE(resp.header("WARC-Record-ID"), req.header("WARC-Record-ID"));
    EXPECT_EQ(req.header("WARC-Concurrent-To"), resp.header("WARC-Record-ID"));
    EXPECT_EQ(resp.header("WARC-Target-URI"), target);
    EXPECT_EQ(req.header("WARC-Target-URI"), target);
    EXPECT_EQ(resp.header("WARC-Date"), "2026-11-22T08:30:0" + std::to_string((i + 1) % 10) + "Z");
    EXPECT_EQ(resp.header("Content-Type"), "application/http; msgtype=response");
    EXPECT_EQ(req.header("Content-Type"), "application/http; msgtype=request");
    EXPECT_EQ(resp.header("Content-Length"), std::to_string(resp.block.size()));
    EXPECT_EQ(resp.header("WARC-Block-Digest"), warc_sha1_digest(resp.block));
    EXPECT_EQ(req.header("WARC-Block-Digest"), warc_sha1_digest(req.block));
    EXPECT_EQ(req.block, request_for("/noticias/" + std::to_string(i + 1)));

    auto http = parse_http_response(resp.block);
    ASSERT_TRUE(http.ok()) << http.status().message();
    EXPECT_EQ(http->status, 200);
    EXPECT_EQ(http->body, kPage + std::to_string(i + 1));
    EXPECT_EQ(http->header("content-type"), "text/html; charset=utf-8");
    EXPECT_EQ(http->header("Last-Modified"), "Thu, 26 Nov 2020 18:00:00 GMT");
    EXPECT_EQ(resp.header("WARC-Payload-Digest"), warc_sha1_digest(http->body));

    // One gzip member per record: the offset points at a member header.
    ASSERT_LT(resp.offset + 2, file.size());
    EXPECT_EQ(file.substr(resp.offset, 2), "\x1f\x8b");
    EXPECT_EQ(file.substr(req.offset, 2), "\x1f\x8b");
    EXPECT_LT(resp.offset, req.offset);
  }
}

TEST(WarcWriter, OptionalIpAddressAndNoRequestRecord) {
  TempDir tmp;
  const std::string path = (tmp / "a.warc.gz").string();
  {
    auto w = WarcWriter::open(path, "cronista");
    ASSERT_TRUE(w.ok());
    WarcExchange e;
    e.target_uri = "http://127.0.0.2:18080/";
    e.ip_address = "127.0.0.2";
    e.http_response_head = kHead;
    e.body = kPage;
    ASSERT_TRUE((*w)->write(e).ok());
  }
  const ReadResult r = read_all(path);
  ASSERT_EQ(r.records.size(), 2u);
  EXPECT_EQ(r.records[1].header("WARC-IP-Address"), "127.0.0.2");
  EXPECT_FALSE(r.records[1].header("WARC-Date").empty());  // "now" when not given
}

TEST(WarcWriter, PlainFileWhenNotGz) {
  TempDir tmp;
  const std::string path = (tmp / "crawl.warc").string();
  write_pages(path, 1, 2);
  EXPECT_EQ(read_file(path).substr(0, 10), "WARC/1.1\r\n");
  const ReadResult r = read_all(path);
  EXPECT_TRUE(r.errors.empty());
  EXPECT_EQ(r.records.size(), 5u);
}

TEST(WarcWriter, AppendContinuesTheFileWithOneWarcinfo) {
  TempDir tmp;
  const std::string path = (tmp / "crawl.warc.gz").string();
  write_pages(path, 1, 2);
  write_pages(path, 3, 2);
  const ReadResult r = read_all(path);
  EXPECT_TRUE(r.errors.empty());
  ASSERT_EQ(r.records.size(), 9u);
  int warcinfo = 0;
  for (const auto& rec : r.records) warcinfo += rec.type == "warcinfo";
  EXPECT_EQ(warcinfo, 1);
  EXPECT_EQ(r.records[7].header("WARC-Target-URI"), "https://www.exemplo.pt/noticias/4");
}

TEST(WarcWriter, ACrashTruncatedLastMemberIsMovedAsideWhenTheFileIsReopened) {
  TempDir tmp;
  const std::string path = (tmp / "crawl.warc.gz").string();
  write_pages(path, 1, 3);
  const ReadResult before = read_all(path);
  ASSERT_EQ(before.records.size(), 7u);
  const std::uint64_t last = before.records.back().offset;
  // A kill -9 in the middle of the last write.
  fs::resize_file(path, last + 40);
  ReadResult cut = read_all(path);
  EXPECT_EQ(cut.records.size(), 6u);
  ASSERT_EQ(cut.errors.size(), 1u);
  EXPECT_NE(cut.errors[0].find("truncated gzip member at offset " + std::to_string(last)), std::string::npos)
      << cut.errors[0];
  // --resume reopens the file: the 40 incomplete bytes are moved aside and
  // cut, so the file is whole again for every reader, and then appended to.
  std::string repaired;
  WarcWriter::Options o;
  o.on_repair = [&](const std::string& m) { repaired = m; };
  {
    auto w = WarcWriter::open(path, "cronista 0.1", o);
    ASSERT_TRUE(w.ok()) << w.status().message();
    ASSERT_TRUE((*w)->write_exchange("https://www.exemplo.pt/noticias/4", "2026-11-22T08:30:04Z",
                                     request_for("/noticias/4"), kHead, kPage + "4")
                    .ok());
    ASSERT_TRUE((*w)->flush().ok());
  }
  const std::string aside = path + ".incomplete-" + std::to_string(last);
  EXPECT_NE(repaired.find("40 bytes"), std::string::npos) << repaired;
  EXPECT_NE(repaired.find(aside), std::string::npos) << repaired;
  EXPECT_EQ(fs::file_size(aside), 40u);
  const ReadResult resumed = read_all(path);
  EXPECT_EQ(resumed.records.size(), 8u);
  EXPECT_TRUE(resumed.errors.empty()) << resumed.errors[0];
  EXPECT_EQ(resumed.records.back().header("WARC-Target-URI"), "https://www.exemplo.pt/noticias/4");
  const auto check = cronista::testing::run_warcio_check(path, tmp);
  if (!check.missing.empty()) GTEST_SKIP() << check.missing;
  EXPECT_EQ(check.exit_code, 0) << check.output;
}

TEST(WarcWriter, AnIncompleteLastRecordOfAPlainFileIsMovedAsideToo) {
  TempDir tmp;
  const std::string path = (tmp / "crawl.warc").string();
  write_pages(path, 1, 2);
  const std::uint64_t whole = fs::file_size(path);
  write_pages(path, 3, 1);
  const ReadResult before = read_all(path);
  ASSERT_EQ(before.records.size(), 7u);
  const std::uint64_t response_end = before.records[6].offset;  // page 3's request record
  ASSERT_GT(response_end, whole);
  fs::resize_file(path, fs::file_size(path) - 7);  // the request record lost its end
  write_pages(path, 4, 1);
  EXPECT_TRUE(fs::exists(path + ".incomplete-" + std::to_string(response_end)));
  const ReadResult r = read_all(path);
  EXPECT_TRUE(r.errors.empty()) << r.errors[0];
  ASSERT_EQ(r.records.size(), 8u);  // warcinfo, 2 × 2, page 3's response, page 4's two records
  EXPECT_EQ(r.records[5].header("WARC-Target-URI"), "https://www.exemplo.pt/noticias/3");
  EXPECT_EQ(r.records[5].type, "response");
  EXPECT_EQ(r.records[7].header("WARC-Target-URI"), "https://www.exemplo.pt/noticias/4");
}

TEST(WarcWriter, ADamagedStretchLongerThanARecordIsNotCut) {
  TempDir tmp;
  const std::string path = (tmp / "crawl.warc.gz").string();
  write_pages(path, 1, 3);
  std::string bytes = read_file(path);
  const ReadResult good = read_all(path);
  const std::uint64_t bad = good.records[3].offset;
  for (std::uint64_t i = bad + 20; i < bad + 60; ++i) bytes[i] = static_cast<char>(bytes[i] ^ 0x5a);
  write_file(path, bytes);
  WarcWriter::Options o;
  o.max_incomplete_tail = 100;  // less than the two records after the damage
  auto w = WarcWriter::open(path, "cronista 0.1", o);
  ASSERT_FALSE(w.ok());
  EXPECT_NE(w.status().message().find("damaged from offset " + std::to_string(bad)), std::string::npos)
      << w.status().message();
  EXPECT_EQ(read_file(path), bytes);  // untouched
}

TEST(WarcReader, CorruptMemberInTheMiddleIsSkipped) {
  TempDir tmp;
  const std::string path = (tmp / "crawl.warc.gz").string();
  write_pages(path, 1, 3);
  const ReadResult good = read_all(path);
  ASSERT_EQ(good.records.size(), 7u);
  std::string bytes = read_file(path);
  const std::uint64_t bad = good.records[3].offset;  // second response
  for (std::uint64_t i = bad + 20; i < bad + 60; ++i) bytes[i] = static_cast<char>(bytes[i] ^ 0x5a);
  write_file(path, bytes);
  const ReadResult r = read_all(path);
  ASSERT_FALSE(r.errors.empty());
  EXPECT_NE(r.errors[0].find("offset " + std::to_string(bad)), std::string::npos) << r.errors[0];
  // Everything else survives.
  EXPECT_EQ(r.records.size(), 6u);
  EXPECT_EQ(r.records.back().header("WARC-Target-URI"), "https://www.exemplo.pt/noticias/3");
}

TEST(WarcReader, GarbageBetweenPlainRecordsIsSkipped) {
  TempDir tmp;
  const std::string path = (tmp / "crawl.warc").string();
  write_pages(path, 1, 2);
  std::string bytes = read_file(path);
  const ReadResult good = read_all(path);
  const std::uint64_t at = good.records[3].offset;
  bytes.insert(at, "lixo que nao e WARC\r\n");
  write_file(path, bytes);
  const ReadResult r = read_all(path);
  EXPECT_EQ(r.records.size(), 5u);
  ASSERT_EQ(r.errors.size(), 1u);
  EXPECT_NE(r.errors[0].find("no WARC record header at offset " + std::to_string(at)), std::string::npos);
}

TEST(WarcWriter, HeadIsAdjustedToTheStoredBody) {
  TempDir tmp;
  const std::string path = (tmp / "a.warc.gz").string();
  std::string gz;
  {
    // A gzip-encoded copy of the page, as a server would send it.
    z_stream zs{};
    deflateInit2(&zs, 6, Z_DEFLATED, 31, 8, Z_DEFAULT_STRATEGY);
    gz.resize(deflateBound(&zs, kPage.size()));
    zs.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(kPage.data()));
    zs.avail_in = kPage.size();
    zs.next_out = reinterpret_cast<Bytef*>(gz.data());
    zs.avail_out = gz.size();
    deflate(&zs, Z_FINISH);
    gz.resize(zs.total_out);
    deflateEnd(&zs);
  }
  const std::string chunked_head =
      "HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nTransfer-Encoding: chunked\r\nContent-Encoding: gzip\r\n\r\n";
  {
    auto w = WarcWriter::open(path, "cronista");
    ASSERT_TRUE(w.ok());
    // libcurl decoded both codings: the headers must stop claiming them.
    ASSERT_TRUE((*w)->write_exchange("https://a.pt/1", "", "", chunked_head, kPage).ok());
    // The compressed body as sent: Content-Encoding stays, chunking goes.
    ASSERT_TRUE((*w)->write_exchange("https://a.pt/2", "", "", chunked_head, gz).ok());
    WarcExchange e;
    e.target_uri = "https://a.pt/3";
    e.http_response_head = "HTTP/1.1 200 OK\r\nContent-Encoding: br\r\nContent-Length: 10\r\n";
    e.body = kPage;
    e.body_coding = BodyCoding::kDecoded;
    ASSERT_TRUE((*w)->write(e).ok());
    // Brotli cannot be recognised: by default it is taken as decoded...
    ASSERT_TRUE((*w)->write_exchange("https://a.pt/4", "", "", "HTTP/1.1 200 OK\r\nContent-Encoding: br\r\n", kPage)
                    .ok());
    // ...unless the caller says the body is as sent.
    e.target_uri = "https://a.pt/5";
    e.http_response_head = "HTTP/1.1 200 OK\r\nContent-Encoding: br\r\n";
    e.body = "\x1b\x03brotli";
    e.body_coding = BodyCoding::kAsSent;
    ASSERT_TRUE((*w)->write(e).ok());
  }
  const ReadResult r = read_all(path);
  ASSERT_EQ(r.records.size(), 6u);
  EXPECT_NE(r.records[4].block.find("X-Cronista-Orig-Content-Encoding: br\r\n"), std::string::npos);
  EXPECT_NE(r.records[5].block.find("\r\nContent-Encoding: br\r\n"), std::string::npos);
  const std::string b1 = r.records[1].block, b2 = r.records[2].block, b3 = r.records[3].block;
  EXPECT_NE(b1.find("X-Cronista-Orig-Transfer-Encoding: chunked\r\n"), std::string::npos) << b1;
  EXPECT_NE(b1.find("X-Cronista-Orig-Content-Encoding: gzip\r\n"), std::string::npos);
  EXPECT_NE(b1.find("Content-Length: " + std::to_string(kPage.size()) + "\r\n\r\n"), std::string::npos);
  EXPECT_NE(b2.find("\r\nContent-Encoding: gzip\r\n"), std::string::npos) << b2;
  EXPECT_NE(b2.find("X-Cronista-Orig-Transfer-Encoding"), std::string::npos);
  EXPECT_NE(b3.find("X-Cronista-Orig-Content-Encoding: br\r\n"), std::string::npos) << b3;
  EXPECT_NE(b3.find("X-Cronista-Orig-Content-Length: 10\r\n"), std::string::npos);
  for (const auto* b : {&b1, &b2, &b3}) {
    auto http = parse_http_response(*b);
    ASSERT_TRUE(http.ok()) << http.status().message();
    EXPECT_EQ(http->body, kPage);
  }
  EXPECT_EQ(r.records[2].header("WARC-Payload-Digest"), warc_sha1_digest(gz));
}

TEST(WarcWriter, RejectsHeaderInjectionInTheTargetUri) {
  TempDir tmp;
  auto w = WarcWriter::open((tmp / "a.warc.gz").string(), "cronista");
  ASSERT_TRUE(w.ok());
  EXPECT_FALSE((*w)->write_exchange("https://a.pt/\r\nWARC-Type: x", "", "", kHead, kPage).ok());
  EXPECT_FALSE((*w)->write_exchange("", "", "", kHead, kPage).ok());
}

TEST(WarcWriter, UnwritablePathIsAClearError) {
  auto w = WarcWriter::open("/nonexistent-dir/x.warc.gz", "cronista");
  ASSERT_FALSE(w.ok());
  EXPECT_NE(w.status().message().find("/nonexistent-dir/x.warc.gz"), std::string::npos);
}

TEST(WarcWriter, OutputPassesGzipTest) {
  TempDir tmp;
  const std::string path = (tmp / "crawl.warc.gz").string();
  write_pages(path, 1, 3);
  if (std::system("command -v gzip >/dev/null 2>&1") != 0) GTEST_SKIP() << "gzip not installed";
  EXPECT_EQ(std::system(("gzip -t '" + path + "'").c_str()), 0);
  const std::string first = (tmp / "first").string();
  ASSERT_EQ(std::system(("zcat '" + path + "' | head -c 8 > '" + first + "'").c_str()), 0);
  EXPECT_EQ(read_file(first), "WARC/1.1");
}

TEST(WarcWriter, OutputPassesAnIndependentParsersCheck) {
  TempDir tmp;
  const std::string path = (tmp / "crawl.warc.gz").string();
  write_pages(path, 1, 3);
  write_pages(path, 4, 2);  // appended, as --resume does
  const auto check = cronista::testing::run_warcio_check(path, tmp);
  if (!check.missing.empty()) GTEST_SKIP() << check.missing;
  EXPECT_EQ(check.exit_code, 0) << check.output;
  EXPECT_NE(check.output.find("\"records\":11,"), std::string::npos) << check.output;
  EXPECT_NE(check.output.find("\"problems\":0"), std::string::npos) << check.output;

  // The checker is not blind: one changed byte of a stored body is reported.
  const std::string plain = (tmp / "plain.warc").string();
  ASSERT_EQ(std::system(("gzip -dc '" + path + "' > '" + plain + "'").c_str()), 0);
  std::string text = read_file(plain);
  const std::size_t at = text.find("Assembleia");
  ASSERT_NE(at, std::string::npos);
  text[at] = 'M';
  cronista::testing::write_file(plain, text);
  const auto broken = cronista::testing::run_warcio_check(plain, tmp);
  EXPECT_EQ(broken.exit_code, 1) << broken.output;
  EXPECT_NE(broken.output.find("WARC-Block-Digest"), std::string::npos) << broken.output;
}

TEST(HttpResponse, FoldedHeadersMissingReasonAndErrors) {
  auto m = parse_http_response("HTTP/1.0 302 \r\nLocation: /nova\r\nX-Longo: primeira\r\n  segunda\r\n\r\n");
  ASSERT_TRUE(m.ok()) << m.status().message();
  EXPECT_EQ(m->status, 302);
  EXPECT_EQ(m->header("location"), "/nova");
  EXPECT_EQ(m->header("X-Longo"), "primeira segunda");
  EXPECT_EQ(m->body, "");
  EXPECT_FALSE(parse_http_response("GET / HTTP/1.1\r\n\r\n").ok());
  EXPECT_FALSE(parse_http_response("HTTP/1.1 abc OK\r\n\r\n").ok());
  EXPECT_FALSE(parse_http_response("").ok());
  EXPECT_FALSE(parse_http_response("HTTP/1.1 200 OK\r\nContent-Encoding: gzip\r\n\r\nnot gzip at all").ok());
}

TEST(HttpResponse, ChunkedBodyIsDecoded) {
  auto m = parse_http_response(
      "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n6\r\nOlá, \r\n6;ext=1\r\nmundo\n\r\n0\r\n\r\n");
  ASSERT_TRUE(m.ok());
  EXPECT_EQ(m->body, "Olá, mundo\n");
  // A body that only claims to be chunked is kept as it is.
  auto raw = parse_http_response("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n<html>Olá</html>");
  ASSERT_TRUE(raw.ok());
  EXPECT_EQ(raw->body, "<html>Olá</html>");
}

// ---- the shared sample archives ---------------------------------------------

std::string warc_dir() {
  const std::string data = cronista::testing::shared_data_dir();
  if (data.empty()) return {};
  const fs::path p = fs::path(data) / "web" / "warc";
  return fs::is_directory(p) ? p.string() : std::string();
}

#define REQUIRE_SAMPLES()                                                     \
  const std::string dir = warc_dir();                                          \
  if (dir.empty()) GTEST_SKIP() << "shared data web/warc directory not found"

TEST(WarcSamples, IanaHas343RecordsOfTheRightTypes) {
  REQUIRE_SAMPLES();
  const ReadResult r = read_all(dir + "/pywb/iana.warc.gz");
  EXPECT_TRUE(r.errors.empty());
  ASSERT_EQ(r.records.size(), 343u);
  std::map<std::string, int> types;
  for (const auto& rec : r.records) ++types[rec.type];
  EXPECT_EQ(types["warcinfo"], 1);
  EXPECT_EQ(types["response"], 48);
  EXPECT_EQ(types["request"], 171);
  EXPECT_EQ(types["revisit"], 123);
  int html = 0;
  for (const auto& rec : r.records) {
    if (rec.type != "response") continue;
    auto http = parse_http_response(rec.block);
    ASSERT_TRUE(http.ok()) << http.status().message() << " at " << rec.offset;
    if (http->header("Content-Type").find("text/html") != std::string::npos &&
        http->body.find("</html>") != std::string::npos)
      ++html;
    // Every record's payload digest matches what we compute (sha1 base32).
    const std::string digest = rec.header("WARC-Payload-Digest");
    if (!digest.empty() && http->header("Content-Encoding").empty() && http->header("Transfer-Encoding").empty()) {
      EXPECT_EQ(digest, warc_sha1_digest(http->body)) << rec.header("WARC-Target-URI");
    }
  }
  EXPECT_GT(html, 0);
}

TEST(WarcSamples, RecordCountsOfTheWellFormedArchives) {
  REQUIRE_SAMPLES();
  const std::vector<std::pair<std::string, std::size_t>> expected = {
      {"pywb/dupes.warc.gz", 25},
      {"pywb/example.warc.gz", 6},
      {"pywb/example2.warc.gz", 3},
      {"pywb/example-url-agnostic-orig.warc.gz", 2},
      {"pywb/example-url-agnostic-revisit.warc.gz", 2},
      {"pywb/example-wget-1-14.warc.gz", 6},
      {"pywb/example-wpull.warc.gz", 4},
      {"pywb/httpbin-resource.warc.gz", 1},
      {"pywb/post-test.warc.gz", 6},
      {"pywb/example-extra.warc", 6},
      {"warcio/example.warc", 6},
      {"warcio/example.warc.gz", 6},
      {"warcio/example-digest.warc", 4},
      {"warcio/example-iana.org-chunked.warc", 3},
      {"warcio/example-resource.warc.gz", 3},
      {"warcio/example-space-in-target-uri.warc.gz", 2},
      {"warcio/example-wget-bad-target-uri.warc.gz", 6},
      {"warcio/post-test.warc.gz", 6},
      // Not record-level gzip, but readable.
      {"pywb/example-bad.warc.gz.bad", 6},
      {"warcio/example-bad-non-chunked.warc.gz", 6},
      // Gzip members that do not line up with records.
      {"warcio/example-wrong-chunks.warc.gz", 2},
  };
  for (const auto& [name, count] : expected) {
    const ReadResult r = read_all(dir + "/" + name);
    EXPECT_EQ(r.records.size(), count) << name;
    EXPECT_TRUE(r.errors.empty()) << name << ": " << (r.errors.empty() ? "" : r.errors[0]);
  }
}

TEST(WarcSamples, WrongContentLengthIsReportedWithItsOffsetAndReadingGoesOn) {
  REQUIRE_SAMPLES();
  // The request record at 4061 announces 2 bytes too few: the reader lands
  // inside it at 4764, reports that, and finds the last record at 4771.
  const ReadResult r = read_all(dir + "/pywb/example.warc");
  ASSERT_EQ(r.errors.size(), 1u);
  EXPECT_NE(r.errors[0].find("offset 4764"), std::string::npos) << r.errors[0];
  ASSERT_EQ(r.records.size(), 6u);
  EXPECT_EQ(r.records.back().offset, 4771u);
  EXPECT_EQ(r.records.back().type, "response");
}

TEST(WarcSamples, TruncatedRecordIsReportedAndTheNextOneRead) {
  REQUIRE_SAMPLES();
  const ReadResult r = read_all(dir + "/warcio/example-trunc.warc");
  ASSERT_EQ(r.errors.size(), 1u);
  EXPECT_NE(r.errors[0].find("offset 2560"), std::string::npos) << r.errors[0];
  ASSERT_EQ(r.records.size(), 4u);
  EXPECT_EQ(r.records[3].type, "request");
  // The truncated response's gzip body cannot be decoded: a clear error.
  auto http = parse_http_response(r.records[2].block);
  ASSERT_FALSE(http.ok());
  EXPECT_NE(http.status().message().find("gzip"), std::string::npos);
}

TEST(WarcSamples, CarriageReturnDoubledLinesAndMissingReasonPhrase) {
  REQUIRE_SAMPLES();
  const ReadResult r = read_all(dir + "/pywb/missing-status-text.warc");
  ASSERT_EQ(r.records.size(), 1u);
  EXPECT_EQ(r.records[0].header("WARC-Type"), "response");
  auto http = parse_http_response(r.records[0].block);
  ASSERT_TRUE(http.ok()) << http.status().message();
  EXPECT_EQ(http->status, 302);
}

TEST(WarcSamples, ChunkedPayloadIsDecoded) {
  REQUIRE_SAMPLES();
  const ReadResult r = read_all(dir + "/warcio/example-iana.org-chunked.warc");
  ASSERT_EQ(r.records.size(), 3u);
  const WarcRecord* resp = nullptr;
  for (const auto& rec : r.records)
    if (rec.type == "response") resp = &rec;
  ASSERT_NE(resp, nullptr);
  auto http = parse_http_response(resp->block);
  ASSERT_TRUE(http.ok()) << http.status().message();
  EXPECT_EQ(http->body.substr(0, 15), "<!doctype html>");
  EXPECT_NE(http->body.find("</html>"), std::string::npos);
  // This writer used hex digests: the block digest, in hex, proves the
  // reader returned the block byte for byte.
  unsigned char md[EVP_MAX_MD_SIZE];
  unsigned int n = 0;
  EVP_Digest(resp->block.data(), resp->block.size(), md, &n, EVP_sha1(), nullptr);
  std::string hex = "sha1:";
  for (unsigned int i = 0; i < n; ++i) {
    static constexpr char kHex[] = "0123456789abcdef";
    hex.push_back(kHex[md[i] >> 4]);
    hex.push_back(kHex[md[i] & 15]);
  }
  EXPECT_EQ(resp->header("WARC-Block-Digest"), hex);
}

TEST(WarcSamples, BadStatusLineIsAnHttpErrorNotAReaderError) {
  REQUIRE_SAMPLES();
  const ReadResult r = read_all(dir + "/pywb/example-extra.warc");
  EXPECT_TRUE(r.errors.empty());
  int bad = 0;
  for (const auto& rec : r.records) {
    if (rec.type != "response") continue;
    auto http = parse_http_response(rec.block);
    if (!http.ok()) {
      ++bad;
      EXPECT_NE(http.status().message().find("HTTPX/1.1"), std::string::npos);
    }
  }
  EXPECT_EQ(bad, 1);
}

TEST(WarcSamples, ArcFilesAreRefusedClearly) {
  REQUIRE_SAMPLES();
  for (const char* name : {"pywb/example.arc", "pywb/example.arc.gz", "pywb/bad.arc", "warcio/example-space-in-url.arc"}) {
    auto r = WarcReader::open(dir + "/" + name);
    ASSERT_FALSE(r.ok()) << name;
    EXPECT_NE(r.status().message().find("ARC files are not supported"), std::string::npos) << r.status().message();
    EXPECT_NE(r.status().message().find(name), std::string::npos);
  }
}

TEST(WarcSamples, EveryFileIsReadWithoutCrashing) {
  REQUIRE_SAMPLES();
  int files = 0;
  for (const auto& sub : {"pywb", "warcio"}) {
    for (const auto& entry : fs::directory_iterator(fs::path(dir) / sub)) {
      ++files;
      auto reader = WarcReader::open(entry.path().string());
      if (!reader.ok()) continue;
      std::vector<std::string> errors;
      (*reader)->on_error = [&](const std::string& m) { errors.push_back(m); };
      WarcRecord rec;
      int n = 0;
      while ((*reader)->next(&rec)) {
        ++n;
        (void)parse_http_response(rec.block);
      }
      for (const auto& e : errors) EXPECT_NE(e.find("offset"), std::string::npos) << e;
    }
  }
  EXPECT_EQ(files, 33);
}

TEST(WarcReader, NonWarcFilesAreRefused) {
  TempDir tmp;
  write_file(tmp / "page.html", "<html><body>Olá</body></html>");
  auto r = WarcReader::open((tmp / "page.html").string());
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.status().message().find("not a WARC file"), std::string::npos);
  EXPECT_FALSE(WarcReader::open((tmp / "missing.warc").string()).ok());
  write_file(tmp / "empty.warc", "");
  const ReadResult empty = read_all((tmp / "empty.warc").string());
  EXPECT_TRUE(empty.records.empty());
}

}  // namespace
}  // namespace cronista::crawler

namespace cronista::crawler {
namespace {

// Damaged archives (flipped bytes, cuts, inserted junk) must always be
// read to the end without crashing, every problem reported with an offset.
TEST(WarcReader, RandomDamageNeverCrashes) {
  TempDir tmp;
  std::vector<std::string> originals;
  for (const char* name : {"a.warc.gz", "b.warc"}) {
    const std::string path = (tmp / name).string();
    write_pages(path, 1, 5);
    originals.push_back(read_file(path));
  }
  const std::string dir = warc_dir();
  if (!dir.empty()) originals.push_back(read_file(dir + "/warcio/example.warc.gz"));
  std::mt19937 rng(42);
  const std::string damaged = (tmp / "damaged.warc.gz").string();
  for (int round = 0; round < 300; ++round) {
    std::string bytes = originals[round % originals.size()];
    switch (rng() % 3) {
      case 0:
        for (int k = 0; k < 1 + static_cast<int>(rng() % 8); ++k) bytes[rng() % bytes.size()] = static_cast<char>(rng());
        break;
      case 1:
        bytes.resize(rng() % bytes.size());
        break;
      default:
        bytes.insert(rng() % bytes.size(), std::string(1 + rng() % 64, static_cast<char>(rng())));
    }
    write_file(damaged, bytes);
    auto reader = WarcReader::open(damaged);
    if (!reader.ok()) continue;
    std::vector<std::string> errors;
    (*reader)->on_error = [&](const std::string& m) { errors.push_back(m); };
    WarcRecord rec;
    int n = 0;
    while ((*reader)->next(&rec) && n < 100) {
      ++n;
      (void)parse_http_response(rec.block);
    }
    EXPECT_LT(n, 100);
    for (const auto& e : errors) EXPECT_NE(e.find("offset"), std::string::npos) << e;
  }
}

}  // namespace
}  // namespace cronista::crawler
