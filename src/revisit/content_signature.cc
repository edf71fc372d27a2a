#include "revisit/content_signature.h"

#include <xxhash.h>

#include <algorithm>
#include <array>
#include <bit>
#include <string>
#include <vector>

namespace cronista::revisit {
namespace {

bool is_space(unsigned char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v'; }

// The text with white space folded and ASCII letters lower-cased, and the
// start of every word in it.
std::string fold(std::string_view text, std::vector<std::size_t>* word_starts) {
  std::string out;
  out.reserve(text.size());
  bool in_space = true;
  for (unsigned char c : text) {
    if (is_space(c)) {
      in_space = true;
      continue;
    }
    if (in_space) {
      if (!out.empty()) out.push_back(' ');
      word_starts->push_back(out.size());
      in_space = false;
    }
    out.push_back(c >= 'A' && c <= 'Z' ? static_cast<char>(c + 32) : static_cast<char>(c));
  }
  return out;
}

}  // namespace

ContentSignature content_signature(std::string_view main_text) {
  std::vector<std::size_t> starts;
  const std::string folded = fold(main_text, &starts);
  ContentSignature sig;
  sig.words = static_cast<std::uint32_t>(starts.size());
  sig.exact = XXH3_64bits(folded.data(), folded.size());
  if (starts.empty()) return sig;
  std::array<int, 64> votes{};
  for (std::size_t w = 0; w < starts.size(); ++w) {
    const std::size_t begin = starts[w];
    const std::size_t end = w + 1 < starts.size() ? starts[w + 1] - 1 : folded.size();
    const std::uint64_t h = XXH3_64bits(folded.data() + begin, end - begin);
    for (int b = 0; b < 64; ++b) votes[b] += (h >> b) & 1 ? 1 : -1;
  }
  for (int b = 0; b < 64; ++b)
    if (votes[b] > 0) sig.simhash |= std::uint64_t{1} << b;
  return sig;
}

std::uint64_t link_set_signature(std::vector<std::string> urls) {
  std::sort(urls.begin(), urls.end());
  urls.erase(std::unique(urls.begin(), urls.end()), urls.end());
  std::uint64_t sum = 0;
  for (const std::string& u : urls) sum += XXH3_64bits(u.data(), u.size());
  return sum != 0 ? sum : 1;
}

int hamming_distance(std::uint64_t a, std::uint64_t b) { return std::popcount(a ^ b); }

bool is_change(const ContentSignature& before, const ContentSignature& after, int max_same_bits) {
  if (before.exact == after.exact) return false;
  if (before.words < kNearDuplicateMinWords || after.words < kNearDuplicateMinWords) return true;
  if (before.words != after.words) return true;  // words added or taken away
  if (before.links != 0 && after.links != 0 && before.links != after.links) return true;  // a link replaced
  return hamming_distance(before.simhash, after.simhash) > max_same_bits;
}

}  // namespace cronista::revisit
