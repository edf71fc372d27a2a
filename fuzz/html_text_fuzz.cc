// Fuzzes html_document(): any bytes must give a TextDocument whose text is
// valid UTF-8 and whose blocks, links and source offsets stay in range.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "crawler/charset.h"
#include "fuzz_support.h"
#include "temporal/html_text.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::string_view html(reinterpret_cast<const char*>(data), size);
  cronista::temporal::TextDocument doc = cronista::temporal::html_document(html);
  FUZZ_CHECK(cronista::crawler::is_valid_utf8(doc.text));
  for (const auto& block : doc.blocks) {
    FUZZ_CHECK(block.start <= block.end);
    FUZZ_CHECK(block.end <= doc.text.size());
  }
  for (const auto& link : doc.links) {
    FUZZ_CHECK(link.start <= link.end);
    FUZZ_CHECK(link.end <= doc.text.size());
  }
  if (!doc.source_offsets.empty()) {
    FUZZ_CHECK(doc.source_offsets.size() == doc.text.size() + 1);
    for (std::size_t offset : doc.source_offsets) FUZZ_CHECK(offset <= size);
  }
  return 0;
}
