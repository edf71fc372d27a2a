// Fuzzes WarcReader (plain and gzip, read from a scratch file) and
// parse_http_response on each record's block: corrupt records are reported
// and skipped, never a crash or an endless loop.
#include <cstddef>
#include <cstdint>
#include <string>

#include "crawler/warc.h"
#include "fuzz_support.h"

using namespace cronista::crawler;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::string path = cronista::fuzz::write_scratch(
      std::string_view(reinterpret_cast<const char*>(data), size), ".warc");
  (void)parse_http_response(std::string_view(reinterpret_cast<const char*>(data), size));
  auto reader = WarcReader::open(path);
  if (!reader.ok()) return 0;
  (*reader)->on_error = [](const std::string&) {};
  WarcRecord record;
  std::uint64_t last_offset = 0;
  int records = 0;
  while ((*reader)->next(&record)) {
    FUZZ_CHECK(records == 0 || record.offset >= last_offset);
    last_offset = record.offset;
    (void)parse_http_response(record.block);
    FUZZ_CHECK(++records <= static_cast<int>(size) + 1);
  }
  return 0;
}
