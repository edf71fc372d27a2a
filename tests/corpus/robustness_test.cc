// Misuse of the collection side: a second sample-web server on a port that
// is already taken, and collections cut or broken in the middle. Each is
// refused with an error, or reported record by record, never silently
// mixed into good data.
#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "corpus/collection_reader.h"
#include "corpus/sample_web.h"
#include "corpus/sample_web_server.h"
#include "test_support.h"

namespace cronista::corpus {
namespace {

using cronista::testing::TempDir;
using cronista::testing::write_file;

// cpp-httplib sets SO_REUSEPORT by default: a second server (a stale one
// from an earlier run, serving another web) used to bind the same port and
// take half the crawl's requests, with no error.
TEST(SampleWebRobustness, ASecondServerOnATakenPortIsRefused) {
  TempDir dir;
  SampleWebOptions o;
  o.corpora_dir = cronista::testing::source_dir() + "/corpora/sample-web";
  o.out_dir = dir.path().string();
  o.pages = 50;
  o.port = cronista::testing::free_loopback_port();
  auto generated = generate_sample_web(o);
  ASSERT_TRUE(generated.ok()) << generated.status().message();
  SampleWebServerOptions so;
  so.root = dir.path().string();
  auto first = SampleWebServer::load(so);
  auto second = SampleWebServer::load(so);
  ASSERT_TRUE(first.ok() && second.ok());
  ASSERT_TRUE((*first)->start().ok());
  const Status again = (*second)->start();
  EXPECT_FALSE(again.ok());
  EXPECT_NE(again.message().find(std::to_string(o.port)), std::string::npos) << again.message();
  (*second)->stop();
  (*first)->stop();
}

std::vector<std::string> read_keys(const std::string& path, CollectionFormat format, std::vector<std::string>* errors) {
  std::vector<std::string> keys;
  auto reader = open_collection(path, format);
  EXPECT_TRUE(reader.ok()) << reader.status().message();
  if (!reader.ok()) return keys;
  (*reader)->on_error = [&](const std::string& e) { errors->push_back(e); };
  CollectionDocument doc;
  while ((*reader)->next(&doc)) keys.push_back(doc.key);
  return keys;
}

TEST(CollectionRobustness, BrokenJsonLinesAreReportedOneByOneAndTheRestIsRead) {
  TempDir dir;
  write_file(dir / "c.jsonl",
             "{\"id\": \"1\", \"text\": \"Em maio de 1944 a cidade acordou.\"}\n"
             "{\"id\": \"2\", \"text\": \"cortado a meio\n"
             "\n"
             "[1, 2, 3]\n"
             "{\"id\": \"3\", \"text\": 1945}\n"
             "{\"id\": \"4\", \"text\": \"No ano seguinte tudo mudou.\"}\n"
             "{\"id\": \"5\", \"text\": \"sem fim de linha nem fecho\"");
  std::vector<std::string> errors;
  auto keys = read_keys((dir / "c.jsonl").string(), CollectionFormat::Jsonl, &errors);
  EXPECT_EQ(keys, (std::vector<std::string>{"1", "4"}));
  EXPECT_EQ(errors.size(), 4u);
}

TEST(CollectionRobustness, AWpt03DumpCutInsideARecordKeepsTheWholeRecords) {
  TempDir dir;
  const std::string dashes(60, '-');
  const std::string record1 = dashes + "\nURL: http://www.exemplo.pt/a\n" + dashes +
                              "\n(Content-Type, text/html)\n(dataRec, 15/05/2003)\n\nEm 1944 a guerra continuava.\n";
  const std::string record2 = dashes + "\nURL: http://www.exemplo.pt/b\n" + dashes + "\n(Content-Type, text/ht";
  write_file(dir / "d.wpt03", record1 + record2);
  std::vector<std::string> errors;
  auto keys = read_keys((dir / "d.wpt03").string(), CollectionFormat::Wpt03, &errors);
  EXPECT_EQ(keys, (std::vector<std::string>{"http://www.exemplo.pt/a"}));
  EXPECT_EQ(errors.size(), 1u);
}

}  // namespace
}  // namespace cronista::corpus
