// Finding a page's character set and converting it to UTF-8: the HTTP
// Content-Type charset, then a BOM, then <meta charset> / http-equiv in the
// first 4 KiB, then ICU's detector; conversion with ICU, invalid sequences
// replaced by U+FFFD (and counted), so the result is always valid UTF-8.
#pragma once

#include <string>
#include <string_view>

#include "temporal/status.h"

namespace cronista::crawler {

struct DecodedText {
  std::string utf8;
  std::string charset;       // canonical name of the charset used ("UTF-8", "windows-1252"…)
  std::string charset_from;  // "header", "bom", "meta", "detected", "default"
  std::size_t replaced = 0;  // bytes or sequences replaced by U+FFFD
};

// `content_type` is the HTTP header value (may be empty).
DecodedText decode_to_utf8(std::string_view body, std::string_view content_type);

// Whether `s` is valid UTF-8; on failure *bad_offset (if given) is the first bad byte.
bool is_valid_utf8(std::string_view s, std::size_t* bad_offset = nullptr);
// Valid UTF-8 with every invalid sequence replaced by U+FFFD (same length
// bookkeeping is the caller's business).
std::string sanitize_utf8(std::string_view s, std::size_t* replaced = nullptr);

}  // namespace cronista::crawler
