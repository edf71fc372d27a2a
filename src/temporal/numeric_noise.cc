// Approach: look at the run of digits and separators around the numbers of
// the expression (a postal code or a telephone number is such a run: groups of
// digits joined by single spaces, dots, dashes, brackets or a leading '+'),
// at the words before it (a street name ending in a comma, a telephone
// label) and at the word after it (a plural noun the lexicon does not know as
// a time word makes the number a count). Each test reads a few words around
// the expression only: linear in its length.
#include "temporal/numeric_noise.h"

#include <optional>
#include <string>
#include <vector>

#include "temporal/text_fold.h"

namespace cronista::temporal {

namespace {

bool is_digit(char c) { return c >= '0' && c <= '9'; }

// The text of a word of folded text.
std::string_view of(std::string_view t, const FoldedWord& w) { return t.substr(w.start, w.end - w.start); }

bool in_class(const Lexicon& lex, std::string_view w, std::string_view cls) {
  if (lex.in_class(w, cls)) return true;
  return w.size() > 1 && w.back() == '.' && lex.in_class(w.substr(0, w.size() - 1), cls);
}

// A run of digit groups joined by one separator each (space, dot, dash),
// brackets round a group, a leading '+'.
struct DigitRun {
  std::size_t begin = 0, end = 0;
  std::vector<FoldedWord> groups;
  std::string separators;  // separators[i] joins groups[i] and groups[i + 1] ('(' ')' dropped)
  bool bracket_or_plus = false;
};

DigitRun digit_run(std::string_view t, std::size_t p) {
  auto joins = [&](std::size_t i) {  // t[i] may join the digits around it
    const char c = t[i];
    const bool left = i > 0 && (is_digit(t[i - 1]) || t[i - 1] == ')');
    const bool right = i + 1 < t.size() && (is_digit(t[i + 1]) || t[i + 1] == '(');
    if (c == ' ' || c == '.' || c == '-') return left && right;
    if (c == '(') return right;
    if (c == ')') return left;
    if (c == '+') return right;
    return false;
  };
  DigitRun run;
  std::size_t b = p, e = p;
  while (b > 0 && (is_digit(t[b - 1]) || joins(b - 1))) --b;
  while (e < t.size() && (is_digit(t[e]) || joins(e))) ++e;
  run.begin = b, run.end = e;
  char pending = ' ';
  for (std::size_t i = b; i < e;) {
    if (!is_digit(t[i])) {
      // A leading '+', or a bracketed group followed by more digits: "(21) 3940-1945".
      if (t[i] == '+' || (t[i] == ')' && i + 1 < e)) run.bracket_or_plus = true;
      if (t[i] == '.' || t[i] == '-') pending = t[i];
      ++i;
      continue;
    }
    std::size_t j = i;
    while (j < e && is_digit(t[j])) ++j;
    if (!run.groups.empty()) run.separators.push_back(pending);
    pending = ' ';
    run.groups.push_back(FoldedWord{i, j});
    i = j;
  }
  return run;
}

// 06.06.1944, 1944-06-06, 6-6-44 among the run's groups (a date and its clock
// time "9-4-2003 18:36" make one run): a numeric date, not a telephone number.
bool holds_date(const DigitRun& run) {
  for (std::size_t g = 0; g + 2 < run.groups.size(); ++g) {
    const char s1 = run.separators[g], s2 = run.separators[g + 1];
    if (s1 != s2 || s1 == ' ') continue;
    const std::size_t a = run.groups[g].end - run.groups[g].start, b = run.groups[g + 1].end - run.groups[g + 1].start,
                      c = run.groups[g + 2].end - run.groups[g + 2].start;
    if ((a <= 2 && b <= 2 && (c == 2 || c == 4)) || (a == 4 && b <= 2 && c <= 2)) return true;
  }
  return false;
}

bool postal_code_or_phone(const Lexicon& lex, std::string_view t, std::size_t start, std::size_t end) {
  for (std::size_t p = start; p < end; ++p) {
    if (!is_digit(t[p]) || (p > start && is_digit(t[p - 1]))) continue;
    const DigitRun run = digit_run(t, p);
    std::size_t digits = 0;
    for (std::size_t g = 0; g < run.groups.size(); ++g) {
      const std::size_t len = run.groups[g].end - run.groups[g].start;
      digits += len;
      // Portugal NNNN-NNN, Brazil NNNNN-NNN.
      if ((len == 4 || len == 5) && g + 1 < run.groups.size() && run.separators[g] == '-' &&
          run.groups[g + 1].end - run.groups[g + 1].start == 3)
        return true;
    }
    if (holds_date(run)) {
      p = run.end;
      continue;
    }
    if (run.groups.size() >= 2 && run.bracket_or_plus) return true;
    if (run.groups.size() >= 3 && digits >= 8) return true;
    // "Tel. 2194", "telefone: 1944 2001": a telephone label in the three words before.
    std::size_t q = run.begin;
    for (int k = 0; k < 3; ++k) {
      while (q > 0 && (t[q - 1] == ' ' || t[q - 1] == ':')) --q;
      auto w = word_before(t, q);
      if (!w) break;
      if (in_class(lex, of(t, *w), "PHONE_LABEL")) return true;
      q = w->start;
    }
    p = run.end;
  }
  return false;
}

// "Rua da Paz, 1944", "Avenida Paulista, 2001", "Rua XV de Novembro, 1939": a
// number after a street name and its comma, or a match that opens inside one.
bool street_number(const Lexicon& lex, std::string_view text, std::string_view t, std::size_t start) {
  std::size_t p = start;
  if (is_digit(t[start])) {
    while (p > 0 && t[p - 1] == ' ') --p;
    if (p == 0 || t[p - 1] != ',') return false;
    --p;
  } else if (!is_upper_at(text, start - 1)) {
    return false;
  }
  for (int k = 0; k < 7; ++k) {
    auto w = word_before(t, p);
    if (!w) return false;
    const std::string_view word = of(t, *w);
    if (in_class(lex, word, "STREET")) return true;
    if (word.back() == '.') return false;  // the sentence before ("Rua Direita. Janeiro de 1950…")
    if (!is_upper_at(text, w->start - 1) && !lex.in_class(word, "NAME_CONNECTOR")) return false;
    p = w->start;
  }
  return false;
}

// "1500 peças", "cerca de 1944 soldados", "os 1990 candidatos": a number
// followed by a plural noun that is no time word; not after a preposition
// that dates ("em 1944 tropas alemãs…"), unless a quantity word precedes it.
bool count(const Lexicon& lex, std::string_view text, std::string_view t, std::size_t start, std::size_t end) {
  std::size_t num = end;
  while (num > start && is_digit(t[num - 1])) --num;
  if (num == end || (num > start && t[num - 1] != ' ')) return false;
  auto after = word_after(t, end);
  if (!after || after->start != end + 1) return false;
  const std::string_view noun = of(t, *after);
  if (in_class(lex, noun, "NEG_AFTER")) return true;
  if (is_upper_at(text, after->start - 1) || noun.size() < 4) return false;
  if (const auto* entries = lex.lookup(noun)) {
    for (const auto& en : *entries)
      if (en.cls != "NEG_AFTER") return false;
  }
  bool plural = false;
  for (const auto& suffix : lex.phrases("PLURAL_SUFFIX"))
    plural |= noun.size() > suffix.size() + 1 && noun.substr(noun.size() - suffix.size()) == suffix;
  for (const auto& suffix : lex.phrases("VERB_PLURAL_SUFFIX"))
    plural &= !(noun.size() > suffix.size() + 1 && noun.substr(noun.size() - suffix.size()) == suffix);
  if (!plural) return false;
  // The words before the number: a quantity ("cerca de", "mais de") makes it a
  // count whatever follows; a dating preposition ("em", "desde") a year.
  std::size_t p = num;
  std::string phrase;
  for (int k = 0; k < 3; ++k) {
    auto w = word_before(t, p);
    if (!w) break;
    phrase = phrase.empty() ? std::string(of(t, *w)) : std::string(of(t, *w)) + " " + phrase;
    if (lex.in_class(phrase, "QUANTITY_BEFORE")) return true;
    // "em 2006 e 2007 ficámos": a year joined to another.
    if (k == 0 && (phrase == "e" || phrase == "ou" || phrase == "a") && w->start >= 5 && is_digit(t[w->start - 2]))
      return false;
    if (k == 0 && (lex.in_class(phrase, "YEAR_PREPOSITION") || lex.in_class(phrase, "MONTH") ||
                   lex.in_class(phrase, "SEASON") || lex.in_class(phrase, "UNIT")))
      return false;
    p = w->start;
  }
  return true;
}

}  // namespace

bool is_numeric_noise(const Lexicon& lexicon, std::string_view text, std::string_view folded, std::size_t start,
                      std::size_t end) {
  if (street_number(lexicon, text, folded, start)) return true;
  bool digits = false;
  for (std::size_t i = start; i < end && !digits; ++i) digits = is_digit(folded[i]);
  return digits && (postal_code_or_phone(lexicon, folded, start, end) || count(lexicon, text, folded, start, end));
}

}  // namespace cronista::temporal
