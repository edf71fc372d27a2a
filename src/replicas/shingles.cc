#include "replicas/shingles.h"

#include <xxhash.h>

#include <algorithm>
#include <string>

namespace cronista::replicas {

std::vector<std::uint64_t> shingle_sketch(std::string_view text) {
  std::vector<std::string> words;
  std::string word;
  for (const char ch : text) {
    const auto c = static_cast<unsigned char>(ch);
    if (c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v') {
      if (!word.empty()) words.push_back(std::move(word));
      word.clear();
    } else {
      word.push_back(c >= 'A' && c <= 'Z' ? static_cast<char>(c + 32) : ch);
    }
  }
  if (!word.empty()) words.push_back(std::move(word));
  std::vector<std::uint64_t> hashes;
  if (words.size() < kShingleWords) return hashes;
  hashes.reserve(words.size() - kShingleWords + 1);
  std::string shingle;
  for (std::size_t i = 0; i + kShingleWords <= words.size(); ++i) {
    shingle.clear();
    for (std::size_t k = 0; k < kShingleWords; ++k) (shingle += words[i + k]) += ' ';
    hashes.push_back(XXH3_64bits(shingle.data(), shingle.size()));
  }
  std::sort(hashes.begin(), hashes.end());
  hashes.erase(std::unique(hashes.begin(), hashes.end()), hashes.end());
  if (hashes.size() > kSketchSize) hashes.resize(kSketchSize);
  return hashes;
}

double resemblance(const std::vector<std::uint64_t>& a, const std::vector<std::uint64_t>& b) {
  if (a.empty() || b.empty()) return 0;
  // The k smallest of the union, and how many of them both texts hold.
  const std::size_t k = std::min(kSketchSize, std::max(a.size(), b.size()));
  std::size_t i = 0, j = 0, taken = 0, both = 0;
  while (taken < k && (i < a.size() || j < b.size())) {
    if (j == b.size() || (i < a.size() && a[i] < b[j])) {
      ++i;
    } else if (i == a.size() || b[j] < a[i]) {
      ++j;
    } else {
      ++both;
      ++i;
      ++j;
    }
    ++taken;
  }
  return taken ? static_cast<double>(both) / static_cast<double>(taken) : 0;
}

}  // namespace cronista::replicas
