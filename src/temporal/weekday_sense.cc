// Approach: a short weekday the pattern has tied to more (a modifier, a
// date, a clock time, "da semana que vem") is one; alone, it is one when what
// follows can follow a day but not an ordinal: the end of the clause, an
// article, a pronoun, an adverb, a verb (never a capitalised word: "à quarta
// Dinastia"); and when no article stands right
// before it ("na sexta", "segunda eu fui", but not "a segunda" alone). A
// capitalised short weekday inside a sentence is a name ("Segunda Guerra",
// "Dom Pedro").
#include "temporal/weekday_sense.h"

#include "temporal/text_fold.h"

namespace cronista::temporal {

namespace {

std::size_t word_end(std::string_view t, std::size_t p) {
  while (p < t.size() && (is_word_char_at(t, p) || t[p] == '-')) ++p;
  return p;
}

// Start of the word that ends right before p (one or more spaces between), or p.
std::size_t previous_word(std::string_view t, std::size_t p, std::size_t* end) {
  std::size_t e = p;
  while (e > 0 && t[e - 1] == ' ') --e;
  std::size_t s = e;
  while (s > 0 && (is_word_char_at(t, s - 1) || t[s - 1] == '-')) --s;
  *end = e;
  return s;
}

// The sentence opens at text[i] (only spaces and quotes before, back to a full stop or the start).
bool opens_sentence(std::string_view text, std::size_t i) {
  while (i > 0 && (text[i - 1] == ' ' || text[i - 1] == '"' || text[i - 1] == '(' || text[i - 1] == '\n')) --i;
  return i == 0 || text[i - 1] == '.' || text[i - 1] == '!' || text[i - 1] == '?' || text[i - 1] == ':';
}

bool verb_ending(const Lexicon& lex, std::string_view w) {
  for (std::string_view cls : {"PAST_SUFFIX", "FUTURE_SUFFIX"})
    for (const auto& suffix : lex.phrases(cls))
      if (w.size() > suffix.size() + 2 && w.substr(w.size() - suffix.size()) == suffix) return true;
  return lex.in_class(w, "PAST_CUE") || lex.in_class(w, "FUTURE_CUE");
}

}  // namespace

bool weekday_sense(const Lexicon& lex, std::string_view text, std::string_view t, std::size_t start,
                   std::size_t end) {
  if (t[start] >= '0' && t[start] <= '9') {
    // "2.ª feira": a weekday, unless a capitalised "Feira" goes on into a
    // name ("a 6.ª Feira do Livro", "a 2.ª Feira Medieval").
    std::size_t w = start;
    while (w < end && t[w] != ' ' && t[w] != '-') ++w;
    while (w < end && (t[w] == ' ' || t[w] == '-')) ++w;
    if (w >= end || !lex.in_class(t.substr(start, word_end(t, w) - start), "WEEKDAY") || !is_upper_at(text, w - 1))
      return true;
    std::size_t next = end;
    while (next < t.size() && t[next] == ' ') ++next;
    const std::string_view after = t.substr(next, word_end(t, next) - next);
    return !(is_upper_at(text, next - 1) || lex.in_class(after, "RANGE_FROM"));
  }
  std::size_t we = word_end(t, start);
  if (we < t.size() && t[we] == '.' && lex.lookup(t.substr(start, we + 1 - start))) ++we;  // "qui."
  const std::string_view word = t.substr(start, we - start);
  const bool full = lex.in_class(word, "WEEKDAY");
  const bool short_form = !full && lex.in_class(word, "WEEKDAY_SHORT");
  if (!full && !short_form) return true;
  const bool capital = is_upper_at(text, start - 1);
  const bool initial = opens_sentence(text, start - 1);
  std::size_t prev_end = 0;
  const std::size_t prev = previous_word(t, start, &prev_end);
  if (full) {
    // "Carlos Sábado lançou": right after a capitalised word inside a sentence.
    return !(capital && !initial && prev < prev_end && prev_end + 1 == start && is_upper_at(text, prev - 1) &&
             !opens_sentence(text, prev - 1) && lex.lookup(t.substr(prev, prev_end - prev)) == nullptr);
  }
  if (capital && !initial) return false;
  // Tied by the pattern to a modifier, a date, a clock time or a week.
  std::size_t next = we;
  while (next < t.size() && t[next] == ' ') ++next;
  // "quarta agora" ties it less: "a segunda agora" is still an ordinal.
  const bool coming = next < end && lex.in_class(t.substr(next, end - next), "WEEKDAY_COMING");
  if (next < end && !coming) return true;
  // After an article ("a segunda", "uma quarta"), it counts something.
  if (prev < prev_end && lex.in_class(t.substr(prev, prev_end - prev), "ARTICLE")) return false;
  if (prev < prev_end && (t.substr(prev, prev_end - prev) == "um" || t.substr(prev, prev_end - prev) == "uma"))
    return false;
  if (coming || next >= t.size()) return true;
  const char c = t[next];
  if (c == ',' || c == '.' || c == ';' || c == ':' || c == '!' || c == '?' || c == ')' || c == '"') return true;
  if (c >= '0' && c <= '9') return true;  // "seg 9h", "sexta 14/10": a time or a date follows
  const std::size_t ne = word_end(t, next);
  if (ne == next) return false;
  const std::string_view after = t.substr(next, ne - next);
  if (lex.in_class(after, "WEEKDAY_FOLLOWER")) return true;
  // "deixa pra sexta que a gente resolve", "desde segunda que chove": a
  // preposition before, no article, and a conjunction after; an ordinal
  // there would count the noun after it ("subiu para sexta posição").
  if (prev < prev_end && lex.in_class(after, "CLAUSE_CONJUNCTION")) {
    const std::string_view before = t.substr(prev, prev_end - prev);
    for (std::string_view cls : {"TARGET_PREPOSITION", "LEANS_FUTURE", "DIRECTION_PAST"})
      if (lex.in_class(before, cls)) return true;
  }
  // "a gente": two-word followers.
  if (std::size_t n2 = word_end(t, ne + 1); ne + 1 < t.size() && t[ne] == ' ' &&
                                            lex.in_class(t.substr(next, n2 - next), "WEEKDAY_FOLLOWER"))
    return true;
  return verb_ending(lex, after);
}

}  // namespace cronista::temporal
