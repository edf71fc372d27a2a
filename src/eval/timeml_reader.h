// Reads TimeML documents (.tml, as in TimeBankPT / TempEval): the text is
// every character of the document in order, tags removed; each TIMEX3 is a
// gold expression, except the one with functionInDocument="CREATION_TIME",
// which gives the document creation time and is not scored.
#pragma once

#include <string>
#include <string_view>

#include "eval/gold.h"
#include "temporal/status.h"

namespace cronista::eval {

Result<GoldDocument> parse_timeml(std::string_view xml, const std::string& name);
Result<GoldDocument> read_timeml(const std::string& path);

}  // namespace cronista::eval
