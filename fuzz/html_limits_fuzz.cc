// Fuzzes bound_markup() with small limits, so that every kind of cut is
// reached on small inputs: a bounded page keeps the input's length, and
// html_document() of it stays well-formed.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "crawler/charset.h"
#include "fuzz_support.h"
#include "temporal/html_limits.h"
#include "temporal/html_text.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::string_view html(reinterpret_cast<const char*>(data), size);
  cronista::temporal::MarkupLimits limits;
  limits.max_depth = 6;
  limits.max_elements = 40;
  limits.max_links = 3;
  limits.max_attributes = 3;
  limits.max_formatting = 2;
  cronista::temporal::BoundedMarkup bounded;
  if (!cronista::temporal::bound_markup(html, limits, &bounded)) return 0;
  FUZZ_CHECK(bounded.html.size() == size);
  FUZZ_CHECK(bounded.dropped_tags > 0);
  cronista::temporal::TextDocument doc = cronista::temporal::html_document(bounded.html);
  FUZZ_CHECK(cronista::crawler::is_valid_utf8(doc.text));
  for (const auto& block : doc.blocks) FUZZ_CHECK(block.start <= block.end && block.end <= doc.text.size());
  for (const auto& link : doc.links) FUZZ_CHECK(link.start <= link.end && link.end <= doc.text.size());
  FUZZ_CHECK(doc.source_offsets.size() == doc.text.size() + 1);
  for (std::size_t offset : doc.source_offsets) FUZZ_CHECK(offset <= size);
  return 0;
}
