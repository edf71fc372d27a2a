// ASCII case folding for protocol text (header and field names, schemes,
// hosts, charset labels, file extensions): byte by byte, independent of the
// locale, other bytes left as they are.
#pragma once

#include <string>
#include <string_view>

namespace cronista::crawler {

inline char ascii_lower(char c) { return (c >= 'A' && c <= 'Z') ? static_cast<char>(c + 32) : c; }

inline std::string ascii_lowered(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = ascii_lower(c);
  return out;
}

// Equal but for ASCII case.
inline bool iequals(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i)
    if (ascii_lower(a[i]) != ascii_lower(b[i])) return false;
  return true;
}

}  // namespace cronista::crawler
