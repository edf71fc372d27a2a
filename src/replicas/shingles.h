// Broder's shingles: the resemblance of two texts as the Jaccard overlap of
// their word n-grams, estimated from bottom-k sketches (the k smallest
// distinct shingle hashes of each text).
//
// Replica detection asks whether two pages at the same path are versions of
// one document (a stale copy lacks a sentence the original gained). A 64-bit
// simhash of the words cannot tell that apart from two articles about the
// same fact: on the sample web's replica sites a version one sentence short
// of nine is 2 to 9 bits away, and an unrelated article on the same fact 7
// to 12. Shingles can: the version keeps about 0.85 of its 3-grams, the
// other article shares only the fact's clause.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>
#include <vector>

namespace cronista::replicas {

inline constexpr std::size_t kShingleWords = 3;
inline constexpr std::size_t kSketchSize = 64;

// The bottom-k sketch of a text's word 3-grams (white space folded, ASCII
// lower-cased), ascending; a text of fewer words than a shingle has none.
std::vector<std::uint64_t> shingle_sketch(std::string_view text);

// The estimated resemblance (Jaccard) of the two texts; 0 when either sketch is empty.
double resemblance(const std::vector<std::uint64_t>& a, const std::vector<std::uint64_t>& b);

}  // namespace cronista::replicas
