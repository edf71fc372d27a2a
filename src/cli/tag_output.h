// The three output forms of `cronista tag` (contract.md): JSON, inline TIMEX3
// and inline HAREM.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "temporal/chronon.h"
#include "temporal/expression.h"

namespace cronista::cli {

// `format` is "json", "timex3" or "harem". Expressions must be sorted and
// must not overlap (the tagger's guarantee); offsets refer to `input`.
std::string render_tags(std::string_view input, const std::vector<temporal::TemporalExpression>& found,
                        const std::optional<temporal::Date>& dct, std::string_view format);

}  // namespace cronista::cli
