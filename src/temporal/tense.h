// The tense of the sentence around an expression, for choosing between the
// last and the next occurrence of a weekday or a month (tense.cc).
#pragma once

#include <cstddef>
#include <string_view>

#include "temporal/lexicon.h"

namespace cronista::temporal {

// +1 future, -1 past, 0 unknown: the verb cue nearest to folded[start, end)
// in its sentence; ±2 when that cue is right next to the expression.
int sentence_tense(const Lexicon& lexicon, std::string_view folded, std::size_t start, std::size_t end);

}  // namespace cronista::temporal
