// Fuzzes decode_to_utf8 and the charset helpers: the result must always be
// valid UTF-8, whatever the bytes and the Content-Type claim. The first
// line of the input is the Content-Type value.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "crawler/charset.h"
#include "fuzz_support.h"

using namespace cronista::crawler;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::string_view input(reinterpret_cast<const char*>(data), size);
  std::size_t newline = input.find('\n');
  std::string_view content_type = newline == std::string_view::npos ? std::string_view() : input.substr(0, newline);
  std::string_view body = newline == std::string_view::npos ? input : input.substr(newline + 1);
  DecodedText decoded = decode_to_utf8(body, content_type);
  FUZZ_CHECK(is_valid_utf8(decoded.utf8));
  FUZZ_CHECK(!decoded.charset.empty());
  std::string sanitized = sanitize_utf8(input);
  FUZZ_CHECK(is_valid_utf8(sanitized));
  (void)prescan_meta_charset(body);
  (void)resolve_charset_label(content_type);
  (void)charset_from_content_type(content_type);
  return 0;
}
