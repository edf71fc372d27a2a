// Misuse of the collection side: collections cut or broken in the middle.
// Each is reported record by record, never silently mixed into good data.
#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "corpus/collection_reader.h"
#include "test_support.h"

namespace cronista::corpus {
namespace {

using cronista::testing::TempDir;
using cronista::testing::write_file;

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
