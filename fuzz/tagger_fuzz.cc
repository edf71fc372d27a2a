// Fuzzes Tagger::tag() on arbitrary bytes made valid UTF-8 (as the CLI does
// with --lenient): expressions must be sorted, non-overlapping, inside the
// text, with `text` equal to their bytes.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <memory>
#include <string>

#include "crawler/charset.h"
#include "fuzz_support.h"
#include "temporal/tagger.h"

using cronista::temporal::Date;
using cronista::temporal::Tagger;

static const Tagger& tagger() {
  static std::unique_ptr<Tagger> loaded = [] {
    auto result = Tagger::load(cronista::temporal::TaggerOptions{.home = CRONISTA_SOURCE_DIR});
    if (!result.ok()) {
      std::fprintf(stderr, "tagger: %s\n", result.status().message().c_str());
      std::abort();
    }
    return std::move(*result);
  }();
  return *loaded;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::string text = cronista::crawler::sanitize_utf8(
      std::string_view(reinterpret_cast<const char*>(data), size));
  auto found = tagger().tag(text, Date{1998, 2, 13});
  std::size_t previous_end = 0;
  for (const auto& e : found) {
    FUZZ_CHECK(e.start < e.end);
    FUZZ_CHECK(e.end <= text.size());
    FUZZ_CHECK(e.start >= previous_end);
    FUZZ_CHECK(e.text == text.substr(e.start, e.end - e.start));
    FUZZ_CHECK(e.harem_start <= e.start && e.harem_end >= e.end && e.harem_end <= text.size());
    previous_end = e.end;
  }
  auto undated = tagger().tag(text, std::nullopt);
  (void)undated;
  return 0;
}
