// Intervals ("de abril a maio de 2009", "1939-1945"): the span cut at its
// first range connector, each end resolved as a point, the left end borrowing
// the month and year it lacks from the right one, and the ends' extents as
// TimeML annotates them (without the connectors).
#include "temporal/resolver.h"

namespace cronista::temporal {

std::optional<Resolution> Resolver::resolve_interval(const std::vector<Token>& tokens, const Pattern& pattern,
                                                     const ResolveContext& ctx) const {
  // Split at the first range connector that follows something temporal.
  std::size_t cut = 0;
  for (std::size_t i = 1; i + 1 < tokens.size(); ++i) {
    if (tokens[i].get("RANGE_TO") || tokens[i].text == "-") {
      cut = i;
      break;
    }
  }
  if (cut) {
    std::vector<Token> left(tokens.begin(), tokens.begin() + cut), right(tokens.begin() + cut + 1, tokens.end());
    while (!left.empty() && left.front().get("RANGE_FROM")) left.erase(left.begin());
    Pattern point = pattern;
    point.harem_subtype = HaremSubtype::Date;
    Resolution r = resolve_tokens(right, point, ctx);
    // The left end borrows what it lacks from the right one ("de abril a maio de 2009").
    std::vector<Token> left_full = left;
    bool left_has_year = false, left_has_month = false;
    for (const auto& t : left) {
      left_has_year |= t.number && t.digits == 4;
      left_has_month |= t.get("MONTH") != nullptr;
    }
    if (!left_has_year || !left_has_month) {
      bool copying = false;
      for (const auto& t : right) {
        if (!left_has_month && t.get("MONTH") && !left_has_year && !left.empty() && left.back().number &&
            left.back().digits <= 2) {
          Token de;
          de.text = "de";
          de.entries = lex_->lookup("de");
          left_full.push_back(de);
          copying = true;
        }
        if (copying || (!left_has_year && t.number && t.digits == 4)) {
          if (!copying) {
            Token de;
            de.text = "de";
            de.entries = lex_->lookup("de");
            left_full.push_back(de);
            copying = true;
          }
          left_full.push_back(t);
        }
      }
    }
    // "de 100 a 44 a.C.": a bare number on the left takes the era of the right.
    const auto era_of = [](const std::vector<Token>& ts) -> const Token* {
      for (const auto& t : ts)
        if (t.get("ERA")) return &t;
      return nullptr;
    };
    if (const Token* era = era_of(right); era && !era_of(left) && !left_full.empty() && left_full.back().number)
      left_full.push_back(*era);
    Resolution l = resolve_tokens(left_full, point, ctx);
    if (l.reject || r.reject || l.value.empty()) return resolve_tokens(tokens, pattern, ctx);
    Resolution out = l;
    out.trim_end = 0;
    out.interval = true;
    out.chronons.clear();
    if (!l.chronons.empty()) out.chronons.push_back(l.chronons.front());
    if (!r.chronons.empty()) out.chronons.push_back(r.chronons.back());
    out.new_anchor = r.new_anchor ? r.new_anchor : l.new_anchor;
    // The ends as TimeML annotates them, without the connectors.
    auto connector = [](const Token& t) {
      return !t.number && (t.get("RANGE_TO") || t.get("RANGE_FROM") || t.get("ARTICLE") || t.text == ",");
    };
    std::size_t lb = 0, le = left.size(), rb = 0, re = right.size();
    while (lb < le && connector(left[lb])) ++lb;
    while (le > lb && connector(left[le - 1])) --le;
    while (rb < re && connector(right[rb])) ++rb;
    while (re > rb && right[re - 1].text == ",") --re;
    if (lb < le && rb < re) {
      out.endpoints.push_back(ResolvedEndpoint{left[lb].begin, left[le - 1].end, l.type, l.value});
      out.endpoints.push_back(ResolvedEndpoint{right[rb].begin, right[re - 1].end, r.type, r.value});
    }
    return out;
  }
  return std::nullopt;
}

}  // namespace cronista::temporal
