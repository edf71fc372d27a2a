// Tense cues: the verb nearest to an expression in its sentence, read with
// the FUTURE_CUE / PAST_CUE word lists and FUTURE_SUFFIX / PAST_SUFFIX endings
// of resources/pt/grammar.txt. A crude stand-in for a tagger of verbs, cheap
// enough to run only when the resolver needs it (a weekday or a month named
// without its year).
#include "temporal/tense.h"

#include "temporal/text_fold.h"

namespace cronista::temporal {

int sentence_tense(const Lexicon& lex_, std::string_view t, std::size_t start, std::size_t end) {
  std::size_t s = start, e = end;
  while (s > 0 && t[s - 1] != '.' && t[s - 1] != '!' && t[s - 1] != '?' && t[s - 1] != ';' && start - s < 300) --s;
  while (e < t.size() && t[e] != '.' && t[e] != '!' && t[e] != '?' && t[e] != ';' && e - end < 300) ++e;
  const auto& fut_suffixes = lex_.phrases("FUTURE_SUFFIX");
  const auto& past_suffixes = lex_.phrases("PAST_SUFFIX");
  auto ends_with_any = [](std::string_view w, const std::vector<std::string>& list) {
    for (const auto& suf : list)
      if (w.size() > suf.size() && w.substr(w.size() - suf.size()) == suf) return true;
    return false;
  };
  int tense = 0;
  std::size_t best = std::string_view::npos;
  for (std::size_t i = s; i < e;) {
    while (i < e && !is_word_char_at(t, i)) ++i;
    std::size_t j = i;
    while (j < e && (is_word_char_at(t, j) || t[j] == '-')) ++j;
    if (j > i && (j <= start || i >= end)) {
      std::string_view w = t.substr(i, j - i);
      int cue = 0;
      if (lex_.in_class(w, "FUTURE_CUE") || (w.size() >= 6 && ends_with_any(w, fut_suffixes))) cue = 1;
      else if (lex_.in_class(w, "PAST_CUE") || (w.size() >= 6 && ends_with_any(w, past_suffixes))) cue = -1;
      if (cue != 0) {
        const std::size_t dist = j <= start ? start - j : i - end;
        // A verb right next to the expression is a strong cue (±2).
        if (dist < best) best = dist, tense = dist <= 24 ? 2 * cue : cue;
      }
    }
    i = j;
  }
  return tense;
}

}  // namespace cronista::temporal
