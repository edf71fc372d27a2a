#include "temporal/text_fold.h"

#include <array>
#include <cstdint>
#include <cstring>

namespace cronista::temporal {

namespace {

constexpr std::array<unsigned char, 256> kAsciiFold = [] {
  std::array<unsigned char, 256> t{};
  for (int i = 0; i < 256; ++i) t[i] = static_cast<unsigned char>(i);
  for (int c = 'A'; c <= 'Z'; ++c) t[c] = static_cast<unsigned char>(c + 32);
  t['\t'] = t['\n'] = t['\r'] = t['\f'] = t['\v'] = ' ';
  return t;
}();

// Length of the well-formed UTF-8 sequence at s[i], 0 if malformed.
std::size_t utf8_length(std::string_view s, std::size_t i) {
  const auto b = [&](std::size_t k) { return static_cast<unsigned char>(s[k]); };
  const unsigned char c = b(i);
  if (c < 0x80) return 1;
  const std::size_t n = s.size();
  auto cont = [&](std::size_t k) { return k < n && (b(k) & 0xC0) == 0x80; };
  if (c >= 0xC2 && c <= 0xDF) return cont(i + 1) ? 2 : 0;
  if (c >= 0xE0 && c <= 0xEF) {
    if (!cont(i + 1) || !cont(i + 2)) return 0;
    if (c == 0xE0 && b(i + 1) < 0xA0) return 0;  // overlong
    if (c == 0xED && b(i + 1) >= 0xA0) return 0;  // surrogate
    return 3;
  }
  if (c >= 0xF0 && c <= 0xF4) {
    if (!cont(i + 1) || !cont(i + 2) || !cont(i + 3)) return 0;
    if (c == 0xF0 && b(i + 1) < 0x90) return 0;
    if (c == 0xF4 && b(i + 1) >= 0x90) return 0;
    return 4;
  }
  return 0;
}

// Folds eight ASCII bytes at once (no byte has its high bit set): the
// capitals gain 0x20 and the white space of kAsciiFold becomes ' '.
std::uint64_t fold_ascii8(std::uint64_t x) {
  constexpr std::uint64_t kOnes = 0x0101010101010101ULL, kHigh = 0x8080808080808080ULL;
  // The high bit of each byte of the result is set where lo <= byte <= hi
  // (exact for bytes below 0x80: no sum carries into the next byte).
  auto in_range = [x](unsigned lo, unsigned hi) {
    const std::uint64_t at_least_lo = x + (0x80 - lo) * kOnes;
    const std::uint64_t above_hi = x + (0x7F - hi) * kOnes;
    return at_least_lo & ~above_hi & kHigh;
  };
  x |= in_range('A', 'Z') >> 2;
  const std::uint64_t space = (in_range('\t', '\r') >> 7) * 0xFF;
  return (x & ~space) | (space & (kOnes * ' '));
}

}  // namespace

void fold_text(std::string_view text, std::string* out) {
  out->resize(text.size());
  fold_text(text, out->data());
}

void fold_text(std::string_view text, char* o) {
  const std::size_t n = text.size();
  for (std::size_t i = 0; i < n; ++i) {
    // Runs of ASCII, eight bytes at a time.
    while (i + 8 <= n) {
      std::uint64_t x;
      std::memcpy(&x, text.data() + i, 8);
      if (x & 0x8080808080808080ULL) break;
      x = fold_ascii8(x);
      std::memcpy(o + i, &x, 8);
      i += 8;
    }
    if (i >= n) break;
    const unsigned char c = static_cast<unsigned char>(text[i]);
    if (c < 0x80) {
      o[i] = static_cast<char>(kAsciiFold[c]);
    } else if (c == 0xC3 && i + 1 < n) {
      const unsigned char d = static_cast<unsigned char>(text[i + 1]);
      o[i] = static_cast<char>(c);
      // U+00C0..U+00DE except U+00D7 (multiplication sign).
      o[i + 1] = static_cast<char>(d >= 0x80 && d <= 0x9E && d != 0x97 ? d + 0x20 : d);
      ++i;
    } else if (c == 0xC2 && i + 1 < n && static_cast<unsigned char>(text[i + 1]) == 0xA0) {
      o[i] = o[i + 1] = ' ';
      ++i;
    } else {
      o[i] = static_cast<char>(c);
    }
  }
}

std::string fold_text(std::string_view text) {
  std::string out;
  fold_text(text, &out);
  return out;
}

bool valid_utf8(std::string_view text) {
  for (std::size_t i = 0; i < text.size();) {
    const std::size_t len = utf8_length(text, i);
    if (len == 0) return false;
    i += len;
  }
  return true;
}

std::string replace_invalid_utf8(std::string_view text) {
  std::string out(text);
  for (std::size_t i = 0; i < text.size();) {
    const std::size_t len = utf8_length(text, i);
    if (len == 0) {
      out[i] = '?';
      ++i;
    } else {
      i += len;
    }
  }
  return out;
}

bool is_word_char_at(std::string_view text, std::size_t i) {
  if (i >= text.size()) return false;
  const unsigned char c = static_cast<unsigned char>(text[i]);
  if (c < 0x80) return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
  if ((c & 0xC0) == 0x80) return true;  // inside a character: part of the word it belongs to
  if (c == 0xC2 && i + 1 < text.size()) {
    const unsigned char d = static_cast<unsigned char>(text[i + 1]);
    return d == 0xAA || d == 0xBA;  // ª º belong to ordinals ("1.º")
  }
  if (c == 0xE2) return false;  // general punctuation: dashes, quotes, ellipsis
  return true;
}

bool is_upper_at(std::string_view text, std::size_t i) {
  if (i >= text.size()) return false;
  const auto c = static_cast<unsigned char>(text[i]);
  if (c >= 'A' && c <= 'Z') return true;
  if (c == 0xC3 && i + 1 < text.size()) {
    const auto d = static_cast<unsigned char>(text[i + 1]);
    return d >= 0x80 && d <= 0x9E && d != 0x97;
  }
  return false;
}

std::optional<FoldedWord> word_before(std::string_view t, std::size_t p) {
  std::size_t e = p;
  while (e > 0 && t[e - 1] == ' ') --e;
  std::size_t s = e;
  while (s > 0 && (is_word_char_at(t, s - 1) || t[s - 1] == '-' || t[s - 1] == '.')) --s;
  if (s == e) return std::nullopt;
  return FoldedWord{s, e};
}

std::optional<FoldedWord> word_after(std::string_view t, std::size_t p) {
  std::size_t s = p;
  while (s < t.size() && t[s] == ' ') ++s;
  std::size_t e = s;
  while (e < t.size() && (is_word_char_at(t, e) || t[e] == '-')) ++e;
  if (s == e) return std::nullopt;
  return FoldedWord{s, e};
}

}  // namespace cronista::temporal
