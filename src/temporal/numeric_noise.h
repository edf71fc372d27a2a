// Numbers that look like years but are not dates: postal codes (Portugal
// NNNN-NNN, Brazil NNNNN-NNN), telephone numbers (spaced, dotted, dashed, with
// a country or area code, or after a telephone label), street numbers after a
// street name ("Rua da Paz, 1944"), and counts ("1500 peças": a number before
// a plural noun that is not a time unit). The word lists are in
// resources/pt/negative.txt (STREET, PHONE_LABEL, YEAR_PREPOSITION, NEG_AFTER,
// PLURAL_SUFFIX); the code knows only their roles.
#pragma once

#include <cstddef>
#include <string_view>

#include "temporal/lexicon.h"

namespace cronista::temporal {

// Whether the expression found at folded[start, end) is numeric noise, or a
// date-looking part of a street name ("Rua XV de Novembro, n.º 12").
// `folded` is the folded text with one space added before and after
// (offsets into `text` are folded offsets - 1); `text` gives the case.
bool is_numeric_noise(const Lexicon& lexicon, std::string_view text, std::string_view folded, std::size_t start,
                      std::size_t end);

}  // namespace cronista::temporal
