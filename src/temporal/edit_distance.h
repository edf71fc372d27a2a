// Levenshtein distance between two byte strings (insertions, deletions and
// substitutions of one byte each), in O(|a|·|b|) time and O(|b|) memory.
// Shared by the command line's "did you mean" and replica detection's
// host-name distance.
#pragma once

#include <cstddef>
#include <string_view>

namespace cronista::temporal {

std::size_t edit_distance(std::string_view a, std::string_view b);

}  // namespace cronista::temporal
