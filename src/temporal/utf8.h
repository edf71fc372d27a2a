// Character boundaries in UTF-8 text: a byte offset moved off the
// continuation bytes of a character, so that a cut never splits one.
#pragma once

#include <cstddef>
#include <string_view>

namespace cronista::temporal {

inline bool is_continuation_byte(char c) { return (static_cast<unsigned char>(c) & 0xC0) == 0x80; }

// The start of the character that holds byte `i` (`i` itself when a
// character starts there, or when `i` is at or past the end), never below
// `floor`.
inline std::size_t char_start_at_or_before(std::string_view s, std::size_t i, std::size_t floor = 0) {
  while (i > floor && i < s.size() && is_continuation_byte(s[i])) --i;
  return i;
}

// The first character start at or after byte `i` (the end at most).
inline std::size_t char_start_at_or_after(std::string_view s, std::size_t i) {
  while (i < s.size() && is_continuation_byte(s[i])) ++i;
  return i;
}

}  // namespace cronista::temporal
