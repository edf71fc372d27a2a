// What counts as a change of a page: its main text (page furniture removed by
// the caller), not its bytes. Clocks, visit counters, rotating "most read"
// boxes and ads live in the furniture and change on every fetch; a hash of
// the whole body would call every revisit a change.
//
// Two signatures of the main text, with runs of white space folded to one
// space and letters lower-cased (ASCII only, so the cost stays one pass):
// - `exact`: XXH3-64 of the folded text; equal means unchanged.
// - `simhash`: Charikar's 64-bit simhash over the text's words, each hashed
//   with XXH3. Texts that differ by a trivial edit (a typo fixed, a word
//   changed in a long article) are a few bits apart; `is_change` treats a
//   distance up to `kNearDuplicateBits` as no change (Manku, Jain and Das
//   Sarma, WWW 2007: 3 bits of 64 for near-duplicate web pages), and only
//   between texts of `kNearDuplicateMinWords` words or more: below that one
//   word is too large a share of the text for the distance to tell an edit
//   from new content.
// - `words`: a near-duplicate edit alters words in place; a text with words
//   added or taken away (a new sentence, an update line, a headline in a
//   list) is a change whatever its simhash distance.
//   Measured by bench/simhash_bench.cc (200 stretches of Brazilian news
//   text per length): one word altered in 200 words moves the simhash by 1
//   bit (median; 3 at the 95th percentile); 20 words added by 3 (median);
//   another stretch of text by 10 or more (1st percentile). So the distance
//   alone cannot tell a typo from a new sentence in a long text; the count
//   of words can. On the living sample web (docs/living-web.md) the distance
//   alone found 52% of the true changes in eight crawls, the count of words
//   beside it 95%, and neither called any unchanged page changed:
//   what is left out is a sentence replaced by one of as many words.
// - `links`: the set of the main text's link targets (canonical URLs), as
//   one order-free hash. A headline replaced in a list by one of as many
//   words (a news site's front page, an index) keeps the count of words and
//   moves the simhash by a few bits, like a typo; it changes the links. A
//   near-duplicate edit that changes the links is a change.
// Cost: linear in the text, no allocation beyond the folded copy.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace cronista::revisit {

struct ContentSignature {
  std::uint64_t exact = 0;
  std::uint64_t simhash = 0;
  std::uint32_t words = 0;  // words in the main text
  // link_set_signature() of the main text's link targets; 0: not known (a
  // signature stored by an older cronista), which no rule reads.
  std::uint64_t links = 0;
};

inline constexpr int kNearDuplicateBits = 3;
inline constexpr std::uint32_t kNearDuplicateMinWords = 50;

ContentSignature content_signature(std::string_view main_text);

// An order-free hash of a set of URLs (repeats count once), never 0: the sum
// of their XXH3-64 hashes.
std::uint64_t link_set_signature(std::vector<std::string> urls);

int hamming_distance(std::uint64_t a, std::uint64_t b);

// Whether `after` is a change of `before`: a different text with another
// number of words, or other links (both known), or whose simhash is more
// than `max_same_bits` away. Any difference is a change where either text
// has fewer than kNearDuplicateMinWords words.
bool is_change(const ContentSignature& before, const ContentSignature& after,
               int max_same_bits = kNearDuplicateBits);

}  // namespace cronista::revisit
