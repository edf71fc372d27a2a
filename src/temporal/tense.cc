// Tense cues: the verb nearest to an expression, read with the FUTURE_CUE /
// PAST_CUE word lists and FUTURE_SUFFIX / PAST_SUFFIX endings of
// resources/pt/grammar.txt. A crude stand-in for a tagger of verbs, cheap
// enough to run only when the resolver needs it (a weekday or a month named
// without its year).
//
// The verb of the expression's own clause (between commas, or from a
// CLAUSE_OPENER such as "que") is looked for first: in "as conversações, que
// devem terminar até maio, convidaram…" it is "devem", not the nearer
// "convidaram" of the main clause. Only when the
// clause holds no cue does the rest of the sentence speak.
#include "temporal/tense.h"

#include "temporal/text_fold.h"

namespace cronista::temporal {

namespace {

bool ends_with_any(std::string_view w, const std::vector<std::string>& list) {
  for (const auto& suf : list)
    if (w.size() > suf.size() && w.substr(w.size() - suf.size()) == suf) return true;
  return false;
}

// The punctuation at t[i] ends a sentence; a dot inside a number ("2.000") does not.
bool is_sentence_end(std::string_view t, std::size_t i) {
  const char c = t[i];
  if (c == '.') return i + 1 >= t.size() || !(t[i + 1] >= '0' && t[i + 1] <= '9');
  return c == '!' || c == '?' || c == ';';
}
bool is_clause_end(std::string_view t, std::size_t i) {
  const char c = t[i];
  if (c == ',') return i + 1 >= t.size() || !(t[i + 1] >= '0' && t[i + 1] <= '9');  // "1,5 milhões"
  return is_sentence_end(t, i) || c == ':' || c == '(' || c == ')';
}

// The cue nearest to [start, end) within [s, e): ±2 right next to it, ±1 farther, 0 none.
int nearest_cue(const Lexicon& lex, std::string_view t, std::size_t s, std::size_t e, std::size_t start,
                std::size_t end) {
  const auto& fut_suffixes = lex.phrases("FUTURE_SUFFIX");
  const auto& past_suffixes = lex.phrases("PAST_SUFFIX");
  int tense = 0;
  std::size_t best = std::string_view::npos;
  for (std::size_t i = s; i < e;) {
    while (i < e && !is_word_char_at(t, i)) ++i;
    std::size_t j = i;
    while (j < e && (is_word_char_at(t, j) || t[j] == '-')) ++j;
    if (j > i && (j <= start || i >= end)) {
      std::string_view w = t.substr(i, j - i);
      int cue = 0;
      if (lex.in_class(w, "FUTURE_CUE") || (w.size() >= 6 && ends_with_any(w, fut_suffixes))) cue = 1;
      else if (lex.in_class(w, "PAST_CUE") || (w.size() >= 6 && ends_with_any(w, past_suffixes))) cue = -1;
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

}  // namespace

TenseCue tense_cue(const Lexicon& lex, std::string_view t, std::size_t start, std::size_t end) {
  if (start > end || end > t.size()) return {};
  std::size_t s = start, e = end;
  while (s > 0 && !is_sentence_end(t, s - 1) && start - s < 300) --s;
  while (e < t.size() && !is_sentence_end(t, e) && e - end < 300) ++e;
  std::size_t cs = start, ce = end;
  while (cs > s && !is_clause_end(t, cs - 1)) {
    // A CLAUSE_OPENER word ("que") opens the expression's clause: in "disse
    // que está a pedir o resgate em 7 de dezembro" the verb is "está a pedir".
    if (is_word_char_at(t, cs - 1) && (cs - 1 == 0 || !is_word_char_at(t, cs - 2))) {
      std::size_t we = cs;
      while (we < start && is_word_char_at(t, we)) ++we;
      if (we > cs - 1 && lex.in_class(t.substr(cs - 1, we - (cs - 1)), "CLAUSE_OPENER")) {
        cs = we;
        break;
      }
    }
    --cs;
  }
  while (ce < e && !is_clause_end(t, ce)) ++ce;
  TenseCue cue;
  int found = nearest_cue(lex, t, cs, ce, start, end);
  cue.in_clause = found != 0;
  if (found == 0) found = nearest_cue(lex, t, s, e, start, end);
  cue.tense = found > 0 ? 1 : found < 0 ? -1 : 0;
  cue.near = found == 2 || found == -2;
  return cue;
}

int sentence_tense(const Lexicon& lex, std::string_view t, std::size_t start, std::size_t end) {
  const TenseCue cue = tense_cue(lex, t, start, end);
  return cue.near ? 2 * cue.tense : cue.tense;
}

}  // namespace cronista::temporal
