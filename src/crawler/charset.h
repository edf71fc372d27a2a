// Finding a page's character set and converting it to UTF-8: a BOM (which
// wins, as in the HTML5 encoding sniffing algorithm), then the HTTP
// Content-Type charset, then <meta charset> / http-equiv in the first 4 KiB,
// then ICU's detector; conversion with ICU, invalid sequences replaced by
// U+FFFD (and counted), so the result is always valid UTF-8.
//
// Labels are resolved as WHATWG's Encoding standard does for the common
// ones ("iso-8859-1", "latin1", "us-ascii" → windows-1252; "utf-16" →
// UTF-16LE; "gb2312" → GBK…), other labels ICU knows are used as ICU names
// them, and unknown labels fall through to detection. Two common
// mislabellings are corrected (charset_from = "detected"): a page declared
// UTF-8 whose bytes are mostly not UTF-8, and a page declared as any other
// charset whose bytes are valid UTF-8 with multi-byte sequences.
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

// The charset parameter of a Content-Type value ("text/html; charset=UTF-8"
// → "UTF-8"); empty when absent.
std::string charset_from_content_type(std::string_view content_type);
// The label declared by <meta charset> or <meta http-equiv=Content-Type> in
// the first 4 KiB of an HTML document (HTML5 prescan); empty when none.
std::string prescan_meta_charset(std::string_view html);
// Canonical charset name for a label ("latin1" → "windows-1252"), empty if
// the label is unknown.
std::string resolve_charset_label(std::string_view label);

// Whether `s` is valid UTF-8; on failure *bad_offset (if given) is the first bad byte.
bool is_valid_utf8(std::string_view s, std::size_t* bad_offset = nullptr);
// Valid UTF-8 with every invalid sequence replaced by U+FFFD (same length
// bookkeeping is the caller's business).
std::string sanitize_utf8(std::string_view s, std::size_t* replaced = nullptr);

}  // namespace cronista::crawler
