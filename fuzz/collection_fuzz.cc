// Fuzzes the WPT03 and JSON Lines collection readers (src/corpus/): the
// input is written to a scratch file and read in both formats. A corrupt
// record is reported and skipped; reading always ends, and each record's
// offset lies inside the file.
#include <cstddef>
#include <cstdint>
#include <string>

#include "corpus/collection_reader.h"
#include "fuzz_support.h"

using namespace cronista::corpus;

static void read_all(const std::string& path, CollectionFormat format, std::size_t size, bool gzip) {
  auto reader = open_collection(path, format);
  if (!reader.ok()) return;
  (*reader)->on_error = [](const std::string&) {};
  CollectionDocument doc;
  std::size_t documents = 0;
  while ((*reader)->next(&doc)) {
    FUZZ_CHECK(gzip || doc.offset <= size);  // gzip offsets are uncompressed
    FUZZ_CHECK(!doc.key.empty());
    FUZZ_CHECK(gzip || ++documents <= size + 1);
  }
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::string_view bytes(reinterpret_cast<const char*>(data), size);
  bool gzip = size >= 2 && data[0] == 0x1f && data[1] == 0x8b;
  read_all(cronista::fuzz::write_scratch(bytes, ".wpt03"), CollectionFormat::Wpt03, size, gzip);
  read_all(cronista::fuzz::write_scratch(bytes, ".jsonl"), CollectionFormat::Jsonl, size, gzip);
  return 0;
}
