// Whether a short weekday ("segunda", "sexta", "qui.", "dom") is a weekday or
// another word: the short forms are also ordinals ("a segunda vez", "a sexta
// edição"), nouns ("a quinta do tio") and names ("Dom Pedro"); a full weekday
// after a capitalised name is a surname ("Carlos Sábado"). Decided from the
// words around it (resources/pt: WEEKDAY_FOLLOWER, PAST_SUFFIX, FUTURE_SUFFIX,
// ARTICLE), never from a list of the nouns an ordinal may count.
#pragma once

#include <cstddef>
#include <string_view>

#include "temporal/lexicon.h"

namespace cronista::temporal {

// False when the expression found at folded[start, end), which opens with a
// weekday, is not one. `folded` is the folded text with one space before and
// after (text offsets are folded offsets - 1); `text` gives the case.
bool weekday_sense(const Lexicon& lexicon, std::string_view text, std::string_view folded, std::size_t start,
                   std::size_t end);

}  // namespace cronista::temporal
