// The resolver's entry point. Approach: tokenize the span
// (resolver_tokens.cc), read the tokens once into a set of facts
// (resolver_facts.cc), then compose a value from the facts by the TimeML type
// the pattern gives, which the facts may overrule (a clock time makes a TIME;
// "há três anos" after "vive" is a DURATION). The composition is a sequence of
// rules, one per family, in a fixed order: the first that recognises its
// family writes the value (resolver_rules.h names the file of each). Unknown
// parts become X; relative expressions without their reference point stay
// unresolved.
#include "temporal/resolver.h"

#include "temporal/resolver_rules.h"

namespace cronista::temporal {

Resolution Resolver::resolve(std::string_view span, const Pattern& pattern, const ResolveContext& ctx) const {
  std::vector<Token> tokens = tokenize(span);
  if (pattern.harem_subtype == HaremSubtype::Interval)
    if (std::optional<Resolution> interval = resolve_interval(tokens, pattern, ctx)) return std::move(*interval);
  Resolution r = resolve_tokens(tokens, pattern, ctx);
  if (r.trim_end > 0) {
    // Drop that many words (and the spaces before them) from the end.
    std::size_t e = span.size();
    for (std::size_t words = r.trim_end; words > 0 && e > 0; --words) {
      while (e > 0 && span[e - 1] == ' ') --e;
      while (e > 0 && span[e - 1] != ' ') --e;
    }
    while (e > 0 && span[e - 1] == ' ') --e;
    r.trim_end = e > 0 ? span.size() - e : 0;
  }
  return r;
}

Resolution Resolver::resolve_tokens(const std::vector<Token>& tokens, const Pattern& pattern,
                                    const ResolveContext& ctx) const {
  resolver_rules::Composition c(lex_, tokens, pattern, ctx);
  c.read_facts();
  if (c.rejected() || c.period_under_discussion()) return c.res;
  c.take_reference_points();
  // Absolute: sets, durations, and dates that carry their year.
  if (c.sets() || c.vague_reference() || c.durations() || c.before_christ() || c.decades_and_centuries() ||
      c.holidays() || c.day_of_unit() || c.part_of_year_counted() || c.explicit_year())
    return c.res;
  // Relative: deictic (document date) or anaphoric (last date mentioned).
  c.choose_base();
  if (c.shifts() || c.day_and_month_without_year() || c.day_of_month_alone() || c.deictic_days() || c.weekdays() ||
      c.parts_of_year() || c.clock_time_alone() || c.unit_with_modifier())
    return c.res;
  c.what_remains();
  return c.res;
}

}  // namespace cronista::temporal
