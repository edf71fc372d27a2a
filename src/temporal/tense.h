// The tense of the sentence around an expression, for choosing between the
// last and the next occurrence of a weekday or a month (tense.cc).
#pragma once

#include <cstddef>
#include <string_view>

#include "temporal/lexicon.h"

namespace cronista::temporal {

// The verb cue nearest to folded[start, end): looked for in the expression's
// clause first, then in the rest of its sentence.
struct TenseCue {
  int tense = 0;           // +1 future, -1 past, 0 no cue
  bool near = false;       // right next to the expression
  bool in_clause = false;  // in the expression's own clause (between commas)
};
TenseCue tense_cue(const Lexicon& lexicon, std::string_view folded, std::size_t start, std::size_t end);

// +1 future, -1 past, 0 unknown; ±2 when the cue is right next to the expression.
int sentence_tense(const Lexicon& lexicon, std::string_view folded, std::size_t start, std::size_t end);

}  // namespace cronista::temporal
