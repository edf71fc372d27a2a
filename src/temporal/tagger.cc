// The tagger: folds the text once, scans it once with the compiled pattern
// set (pattern_set.h), and for each expression found checks the negative
// contexts, fixes the TimeML and HAREM extents (leading prepositions out of
// the one, into the other), reads the context cues the resolver needs and
// resolves it (resolver.h), carrying the anaphora anchor along the text.
// It also records what annotation schemes other than the contract's need:
// the two ends of an interval (TimeML marks each) and the words that name a
// time (named-entity schemes such as the First HAREM mark only those).
#include "temporal/tagger.h"

#include <algorithm>

#include "temporal/lexicon.h"
#include "temporal/numeric_noise.h"
#include "temporal/pattern_set.h"
#include "temporal/resolver.h"
#include "temporal/text_fold.h"
#include "temporal/weekday_sense.h"

namespace cronista::temporal {

namespace {

bool is_space(char c) { return c == ' '; }

using Word = FoldedWord;

bool is_digit(char c) { return c >= '0' && c <= '9'; }

// A candidate expression: found by the pattern set, past the checks of its
// context, with the cues the resolver reads around it (ctx: all but the
// dates and anchors, which resolve() fills in, in text order).
struct Candidate {
  std::size_t span_start = 0;  // the match, leading prepositions included (folded offset)
  int pattern = -1;
  std::size_t harem_start = 0;
  ResolveContext ctx;  // ctx.start, ctx.end: the TimeML extent
};

class Scanned final : public ScannedText {
 public:
  std::string folded;  // the text folded, with a space on each side
  std::vector<Candidate> candidates;
};

class TaggerImpl final : public Tagger {
 public:
  TaggerImpl(Lexicon lex, std::unique_ptr<PatternSet> patterns, Genre genre)
      : lex_(std::move(lex)), patterns_(std::move(patterns)), resolver_(&lex_), genre_(genre) {}

  std::vector<TemporalExpression> tag(std::string_view text, const std::optional<Date>& dct) const override {
    return tag(text, dct, nullptr);
  }
  std::vector<TemporalExpression> tag(std::string_view text, const std::optional<Date>& dct,
                                      TagState* state) const override {
    return resolve(text, *scan(text), dct, state);
  }
  std::unique_ptr<ScannedText> scan(std::string_view text) const override;
  std::vector<TemporalExpression> resolve(std::string_view text, const ScannedText& scanned,
                                          const std::optional<Date>& dct, TagState* state) const override;

 private:
  // Length of the PREPOSITION phrase (1–3 words) that starts at t[p], 0 if none.
  std::size_t preposition_at(std::string_view t, std::size_t p, std::size_t limit) const;
  // Length of the longest lexicon phrase of any class except PREPOSITION
  // (up to 4 words) that starts at t[p], 0 if none.
  std::size_t phrase_at(std::string_view t, std::size_t p, std::size_t limit) const;
  // Start of the PREPOSITION phrase that ends right before t[p] (p if none).
  std::size_t preposition_before(std::string_view t, std::size_t p) const;
  bool in_class_word(std::string_view t, const std::optional<Word>& w, std::string_view cls) const {
    if (!w) return false;
    std::string_view s = t.substr(w->start, w->end - w->start);
    if (lex_.in_class(s, cls)) return true;
    if (!s.empty() && s.back() == '.') return lex_.in_class(s.substr(0, s.size() - 1), cls);
    return false;
  }
  // "cerca de 1200 mapas", "uns 2000 livros": a number after a QUANTITY_BEFORE
  // word and before a plural noun (a word the lexicon does not know, with a
  // PLURAL_SUFFIX) counts things; it is not a year.
  bool is_counted_quantity(std::string_view t, std::size_t start, std::size_t end) const;
  // "Festival Acção Directa 2005", "Macworld 2007": a number right after a
  // capitalized word inside a sentence (not a month, nor a word the lexicon
  // knows) is part of a name. `folded` offsets are `text` offsets + 1.
  bool in_name(std::string_view text, std::string_view folded, std::size_t start) const;
  // The words of folded t[s, e) that name a time (expression.h, name_start),
  // as folded offsets; `text` is the original text (t is text + 1).
  struct NameExtent {
    std::size_t start = 0, end = 0;
    TimeNames names;
  };
  NameExtent name_extent(std::string_view text, std::string_view t, std::size_t s, std::size_t e, TimexType type,
                         bool decade_or_century) const;
  // "Nigel Judah, de 58 anos," / "aos 80 anos" / "55 anos de idade": an age.
  bool is_age(std::string_view t, std::size_t harem_start, std::size_t start, std::size_t end) const;

  Lexicon lex_;
  std::unique_ptr<PatternSet> patterns_;
  Resolver resolver_;
  Genre genre_;
};

std::size_t TaggerImpl::preposition_at(std::string_view t, std::size_t p, std::size_t limit) const {
  std::size_t best = 0;
  std::size_t q = p;
  std::string phrase;
  for (int words = 0; words < 3 && q < limit; ++words) {
    std::size_t e = q;
    while (e < limit && !is_space(t[e])) ++e;
    if (e == q) break;
    if (!phrase.empty()) phrase.push_back(' ');
    phrase.append(t.substr(q, e - q));
    if (e < limit && lex_.in_class(phrase, "PREPOSITION")) best = e - p;
    q = e;
    while (q < limit && is_space(t[q])) ++q;
  }
  return best;
}

std::size_t TaggerImpl::phrase_at(std::string_view t, std::size_t p, std::size_t limit) const {
  std::size_t best = 0;
  std::size_t q = p;
  std::string phrase;
  for (int words = 0; words < 4 && q < limit; ++words) {
    std::size_t e = q;
    while (e < limit && !is_space(t[e])) ++e;
    if (e == q) break;
    if (!phrase.empty()) phrase.push_back(' ');
    phrase.append(t.substr(q, e - q));
    if (words > 0) {
      if (const auto* entries = lex_.lookup(phrase)) {
        for (const auto& en : *entries)
          if (en.cls != "PREPOSITION") best = e - p;
      }
    }
    q = e;
    while (q < limit && is_space(t[q])) ++q;
  }
  return best;
}

std::size_t TaggerImpl::preposition_before(std::string_view t, std::size_t p) const {
  std::size_t best = p;
  std::size_t s = p;
  std::string phrase;
  for (int words = 0; words < 3; ++words) {
    auto w = word_before(t, s);
    if (!w) break;
    std::string_view wt = t.substr(w->start, w->end - w->start);
    phrase = phrase.empty() ? std::string(wt) : std::string(wt) + " " + phrase;
    if (lex_.in_class(phrase, "PREPOSITION")) best = w->start;
    s = w->start;
  }
  return best;
}

bool TaggerImpl::is_counted_quantity(std::string_view t, std::size_t start, std::size_t end) const {
  std::size_t num = end;
  while (num > start && is_digit(t[num - 1])) --num;
  if (num == end || (num > start && t[num - 1] != ' ')) return false;
  // The quantity word: inside the match ("cerca de 1200") or right before it ("uns 1200").
  std::size_t q = num;
  while (q > start && is_space(t[q - 1])) --q;
  bool quantity = false;
  if (q > start) {
    quantity = lex_.in_class(t.substr(start, q - start), "QUANTITY_BEFORE");
  } else if (auto last = word_before(t, start)) {
    // One to three words ending right before the number ("uns", "mais ou menos").
    std::size_t p = start;
    for (int words = 0; words < 3 && !quantity; ++words) {
      auto w = word_before(t, p);
      if (!w) break;
      quantity = lex_.in_class(t.substr(w->start, last->end - w->start), "QUANTITY_BEFORE");
      p = w->start;
    }
  }
  if (!quantity) return false;
  auto after = word_after(t, end);
  if (!after) return false;
  const std::string_view noun = t.substr(after->start, after->end - after->start);
  if (lex_.lookup(noun) != nullptr) return false;
  for (const auto& suffix : lex_.phrases("PLURAL_SUFFIX"))
    if (noun.size() > suffix.size() + 1 && noun.substr(noun.size() - suffix.size()) == suffix) return true;
  return false;
}

bool TaggerImpl::in_name(std::string_view text, std::string_view t, std::size_t start) const {
  auto w = word_before(t, start);
  if (!w || w->end != start - 1 || w->start == 0) return false;  // one space, no punctuation between
  const char first = text[w->start - 1];
  if (first < 'A' || first > 'Z') {
    // Accented capitals (UTF-8 "Á".."Ú" start with 0xC3 0x80..0x9E).
    if (!(static_cast<unsigned char>(first) == 0xC3 && w->start < text.size() &&
          static_cast<unsigned char>(text[w->start]) < 0x9F))
      return false;
  }
  if (lex_.lookup(t.substr(w->start, w->end - w->start)) != nullptr) return false;
  // Not the first word of a sentence.
  std::size_t p = w->start;
  while (p > 0 && is_space(t[p - 1])) --p;
  return p > 0 && t[p - 1] != '.' && t[p - 1] != '!' && t[p - 1] != '?' && t[p - 1] != ':' && t[p - 1] != '"' &&
         t[p - 1] != '\n';
}

namespace {

// The word at text[i] opens a sentence: only spaces, quotes or an opening
// bracket between it and the text's start, a full stop, '!', '?', ':', a
// line break or a dialogue dash ("-- Sábado, disse").
bool sentence_initial(std::string_view text, std::size_t i) {
  while (i > 0 && (text[i - 1] == ' ' || text[i - 1] == '\t' || text[i - 1] == '"' || text[i - 1] == '(' ||
                   text[i - 1] == '\r'))
    --i;
  if (i == 0) return true;
  const char c = text[i - 1];
  if (c == '.' || c == '!' || c == '?' || c == ':' || c == '\n') return true;
  // A dash followed by a space, or an em dash.
  if (c == '-' && i < text.size() && text[i] == ' ') return true;
  return i >= 3 && text.substr(i - 3, 3) == "\xE2\x80\x94";
}

bool roman_letters(std::string_view w) {
  if (w.empty()) return false;
  for (char c : w)
    if (c != 'I' && c != 'V' && c != 'X' && c != 'L' && c != 'C') return false;
  return true;
}

}  // namespace

TaggerImpl::NameExtent TaggerImpl::name_extent(std::string_view text, std::string_view t, std::size_t s,
                                               std::size_t e, TimexType type, bool decade_or_century) const {
  NameExtent out;
  // Words of the extent, without surrounding punctuation.
  std::vector<Word> words;
  for (std::size_t p = s; p < e;) {
    while (p < e && is_space(t[p])) ++p;
    std::size_t q = p;
    while (q < e && !is_space(t[q])) ++q;
    std::size_t a = p, b = q;
    auto punct = [](char c) { return c == ',' || c == ';' || c == '(' || c == ')' || c == '"'; };
    while (a < b && punct(t[a])) ++a;
    while (b > a && (punct(t[b - 1]) || t[b - 1] == '.')) --b;
    if (a < b) words.push_back(Word{a, b});
    p = q;
  }
  const std::size_t n = words.size();
  std::vector<bool> naming(n, false);
  auto word = [&](std::size_t i) { return t.substr(words[i].start, words[i].end - words[i].start); };
  auto has_digit = [](std::string_view w) {
    for (char c : w)
      if (is_digit(c)) return true;
    return false;
  };
  for (std::size_t i = 0; i < n; ++i) {
    const std::string_view w = word(i);
    const std::size_t o = words[i].start - 1;  // offset in text
    const bool unit_next = i + 1 < n && lex_.in_class(word(i + 1), "UNIT");
    if (has_digit(w)) {
      // A count of units ("3 anos", "14.000 anos", "12º ano") is no name;
      // a clock time ("17 horas") is, with its hour word.
      if (unit_next && type != TimexType::Time) continue;
      naming[i] = true;
      out.names.number = true;
      if (unit_next) naming[i + 1] = true;
      continue;
    }
    // The second part of a compound word ("pós-natal") names nothing.
    if (o >= 2 && text[o - 1] == '-' && is_word_char_at(text, o - 2)) continue;
    // Capitals: anywhere in the word ("séc.XIX"), and not only because the
    // word opens a sentence.
    bool upper = false;
    for (std::size_t k = o; k < o + (words[i].end - words[i].start) && !upper; ++k) upper = is_upper_at(text, k);
    const bool name_capital = upper && !sentence_initial(text, o);
    // The longest lexicon phrase opening here.
    std::string phrase;
    std::size_t longest = 0;
    const std::vector<LexEntry>* found = nullptr;
    for (std::size_t k = i; k < n && k - i < lex_.max_phrase_words(); ++k) {
      if (k > i) phrase.push_back(' ');
      phrase.append(word(k));
      if (const auto* entries = lex_.lookup(phrase)) found = entries, longest = k - i + 1;
    }
    if (found) {
      // Month names in either case (pt-BR and post-1990 pt-PT spell them in
      // lower case); holidays with a capital; seasons and weekdays with one
      // that is not only the sentence's.
      bool month = false, cyclic = false;
      for (const auto& en : *found) {
        month |= en.cls == "MONTH";
        cyclic |= (en.cls == "HOLIDAY" && upper) || ((en.cls == "SEASON" || en.cls == "WEEKDAY") && name_capital);
      }
      if (month || cyclic) {
        for (std::size_t k = i; k < i + longest; ++k) naming[k] = true;
        out.names.month |= month;
        out.names.cyclic |= cyclic;
      }
      // Other words the lexicon knows are common words ("Dia", "Agora",
      // "Em" in a title): their capital names nothing.
      i += longest - 1;
      continue;
    }
    // Capitalised words the lexicon does not know, inside a sentence: Roman
    // numerals ("século XX", "séc.XIX"), names of periods.
    if (name_capital) {
      naming[i] = true;
      const std::string_view orig = text.substr(o, words[i].end - words[i].start);
      const std::size_t dot = orig.rfind('.');
      if (roman_letters(dot == std::string_view::npos ? orig : orig.substr(dot + 1))) out.names.number = true;
      else out.names.proper = true;
    }
  }
  // The century or decade word before its number: "século XX", "anos 70".
  if (decade_or_century)
    for (std::size_t i = 0; i + 1 < n; ++i)
      if (!naming[i] && naming[i + 1] && lex_.in_class(word(i), "UNIT")) naming[i] = true;
  std::size_t first = n, last = n;
  for (std::size_t i = 0; i < n; ++i)
    if (naming[i]) {
      if (first == n) first = i;
      last = i;
    }
  if (first < n) {
    out.start = words[first].start;
    out.end = words[last].end;
  }
  return out;
}

bool TaggerImpl::is_age(std::string_view t, std::size_t harem_start, std::size_t start, std::size_t end) const {
  // A number of years: digits or number words, then a unit word of years.
  if (end - start < 4) return false;
  std::size_t last = end;
  while (last > start && t[last - 1] != ' ') --last;
  const std::string* unit = lex_.value(t.substr(last, end - last), "UNIT");
  if (unit == nullptr || *unit != "Y" || last == start) return false;
  // "com cerca de 18 anos": the age is the number after the approximation.
  std::size_t num = start;
  for (std::size_t e = start; e < last && !is_digit(t[num]); ++e) {
    if (!is_space(t[e]) && (e + 1 == last || !is_space(t[e + 1]))) continue;
    if (!lex_.in_class(t.substr(start, e + 1 - start), "APPROX")) continue;
    num = e + 1;
    while (num < last && is_space(t[num])) ++num;
  }
  if (!is_digit(t[num]) && !in_class_word(t, word_after(t, num), "NUMWORD")) return false;
  auto after = word_after(t, end);
  if (after) {
    auto after2 = word_after(t, after->end);
    if (after2 && lex_.in_class(std::string(t.substr(after->start, after->end - after->start)) + " " +
                                    std::string(t.substr(after2->start, after2->end - after2->start)),
                                "AGE_AFTER"))
      return true;
  }
  {
    // Between commas right after a name: "Vasconcelos, 68 anos, estreia…".
    std::size_t p = start, q = end;
    while (p > 0 && t[p - 1] == ' ') --p;
    while (q < t.size() && t[q] == ' ') ++q;
    if (p > 0 && t[p - 1] == ',' && q < t.size() && t[q] == ',') return true;
  }
  auto before = word_before(t, start);
  if (!before) return false;
  const std::string_view b = t.substr(before->start, before->end - before->start);
  if (lex_.in_class(b, "AGE_BEFORE")) return true;
  if (auto before2 = word_before(t, before->start);
      before2 && lex_.in_class(std::string(t.substr(before2->start, before->end - before2->start)), "AGE_BEFORE"))
    return true;
  if (b == "de") {
    std::size_t p = before->start;
    while (p > 0 && t[p - 1] == ' ') --p;
    return p > 0 && t[p - 1] == ',';
  }
  (void)harem_start;
  return false;
}

namespace {

std::optional<Anchor> to_anchor(const std::optional<TagState::Point>& p) {
  if (!p) return std::nullopt;
  return Anchor{p->year, p->month, p->day, p->quarter};
}

std::optional<TagState::Point> to_point(const std::optional<Anchor>& a) {
  if (!a) return std::nullopt;
  return TagState::Point{a->year, a->month, a->day, a->quarter};
}

}  // namespace

std::unique_ptr<ScannedText> TaggerImpl::scan(std::string_view text) const {
  auto scanned = std::make_unique<Scanned>();
  // One space on each side gives the first and last word a boundary; folded
  // offsets are text offsets + 1. Folded in place: no second copy of the text.
  std::string& folded = scanned->folded;
  folded.assign(text.size() + 2, ' ');
  fold_text(text, folded.data() + 1);
  const std::string_view t = folded;
  std::size_t pos = 0;
  PatternSet::Match m;
  const auto& pats = patterns_->patterns();
  while (patterns_->next_match(t, pos, &m)) {
    pos = m.end;
    const Pattern& pat = pats[static_cast<std::size_t>(m.pattern)];
    std::size_t start = m.start, end = m.end;
    // Numbers glued to other numbers ("1.945", "3,1998", "1998/99" parts) are not dates.
    if (start >= 2 && (t[start - 1] == '.' || t[start - 1] == ',' || t[start - 1] == '/') && is_digit(t[start - 2]))
      continue;
    if (end + 1 < t.size() && (t[end] == '.' || t[end] == ',' || t[end] == '/' || t[end] == ':') &&
        is_digit(t[end + 1]) && is_digit(t[end - 1])) {
      // "de quinta-feira, 5.745.188 ações": the number was never the day;
      // what comes before it still stands.
      std::size_t cut = end;
      while (cut > start && is_digit(t[cut - 1])) --cut;
      if (cut == start || !is_space(t[cut - 1])) continue;
      while (cut > start && (is_space(t[cut - 1]) || t[cut - 1] == ',')) --cut;
      if (cut == start) continue;
      end = cut;
    }
    if (end < t.size() && t[end] == '%') continue;
    // Part of an identifier ("NYT-02-06-98", "ref/1998").
    if (is_digit(t[start]) && start >= 2 && (t[start - 1] == '-' || t[start - 1] == '/') &&
        is_word_char_at(t, start - 2))
      continue;
    // TimeML extent: no leading preposition or article.
    for (int guard = 0; guard < 3; ++guard) {
      std::size_t len = preposition_at(t, start, end);
      // A fixed phrase that opens with a preposition keeps it ("em breve", "pelo menos").
      // But a reference noun after the preposition stands alone ("no [passado]",
      // "neste [momento]"): class BARE_REF.
      if (len > 0 && phrase_at(t, start, end) > len &&
          !in_class_word(t, word_after(t, start + len), "BARE_REF"))
        break;
      if (len == 0) break;
      std::size_t ns = start + len;
      while (ns < end && is_space(t[ns])) ++ns;
      if (ns >= end) break;
      start = ns;
    }
    // HAREM extent: with the leading preposition(s).
    std::size_t harem_start = m.start;
    if (harem_start == start) {
      for (int guard = 0; guard < 2; ++guard) {
        std::size_t p = preposition_before(t, harem_start);
        if (p == harem_start) break;
        harem_start = p;
      }
    }
    // Negative contexts: a name ("Rua 1.º de Maio") or a quantity ("2000 soldados").
    {
      auto before = word_before(t, harem_start);
      if (before && lex_.in_class(t.substr(before->start, before->end - before->start), "PREPOSITION"))
        before = word_before(t, before->start);
      // A name word ends no sentence: "da Escola. Em 1993…" is a date ("av." keeps its dot).
      if (before && lex_.in_class(t.substr(before->start, before->end - before->start), "NEG_BEFORE")) continue;
      // "em Natal, no Rio Grande do Norte": a feast named without its article, capitalised,
      // after a bare place preposition is a town.
      if (start > 0 && is_upper_at(text, start - 1) && lex_.in_class(t.substr(start, end - start), "TOWN_FEAST") &&
          in_class_word(t, word_before(t, start), "PLACE_PREPOSITION"))
        continue;
      // "Domingos Pereira chegou": a habit word without its article ("aos domingos"),
      // capitalised and followed by a capitalised word the lexicon does not know, is a name.
      if (harem_start == start && is_upper_at(text, start - 1) && lex_.in_class(t.substr(start, end - start), "HABITUAL")) {
        auto next = word_after(t, end);
        if (next && next->start == end + 1 && is_upper_at(text, next->start - 1) &&
            lex_.lookup(t.substr(next->start, next->end - next->start)) == nullptr)
          continue;
      }
      // "para a Semana" inside a sentence, the unit capitalised, names a paper or an
      // event ("nem hei de inventar para a Semana novidade"), not the next week.
      if (lex_.in_class(t.substr(start, end - start), "NEXT_UNIT")) {
        std::size_t last = end;
        while (last > start && !is_space(t[last - 1])) --last;
        if (last > start && is_upper_at(text, last - 1)) continue;
      }
      // Right before, no preposition between: "Lei n.º 8/2017", not "a lei de 06/06/1944".
      if (is_digit(t[start]) && in_class_word(t, word_before(t, start), "NEG_BEFORE_NUMBER")) continue;
      bool bare_number = true;
      for (std::size_t i = start; i < end; ++i) bare_number &= is_digit(t[i]);
      if (bare_number) {
        auto after = word_after(t, end);
        if (in_class_word(t, after, "NEG_AFTER")) continue;
        if (after) {
          auto after2 = word_after(t, after->end);
          if (after2 && lex_.in_class(std::string(t.substr(after->start, after2->end - after->start)), "NEG_AFTER"))
            continue;  // "1945 por cento"
        }
      }
      if (is_counted_quantity(t, start, end)) continue;
      if (is_numeric_noise(lex_, text, t, start, end)) continue;
      if (!weekday_sense(lex_, text, t, start, end)) {
        // What follows the word that is no weekday may be an expression of
        // its own ("quer a segunda agora").
        std::size_t next = start;
        while (next < end && !is_space(t[next])) ++next;
        if (next < end) pos = next;
        continue;
      }
      if (harem_start == start && is_digit(t[start]) && in_name(text, t, start)) {
        // "Coimbra 2006"; "CCB 15 Anos" when the title-case goes on through the match.
        std::size_t last = end;
        while (last > start && !is_space(t[last - 1])) --last;
        const char c = text[last - 1];
        if (bare_number || (c >= 'A' && c <= 'Z')) continue;
      }
      // Fixed phrases that only look temporal ("de última hora").
      if (lex_.in_class(t.substr(harem_start, end - harem_start), "NOT_TEMPORAL")) continue;
      if (auto b = word_before(t, harem_start); b && lex_.in_class(t.substr(b->start, end - b->start), "NOT_TEMPORAL"))
        continue;
    }
    if (!pat.unless_next.empty() && in_class_word(t, word_after(t, end), pat.unless_next)) {
      // The match is not an expression, but its last word may open one with
      // the word that rejected it ("um verão de [15 dias]").
      std::size_t last = end;
      while (last > start && !is_space(t[last - 1])) --last;
      if (last > start) pos = last;
      continue;
    }
    if (is_age(t, harem_start, start, end)) continue;
    ResolveContext ctx;
    {
      auto before = word_before(t, start);
      ctx.duration_cue = in_class_word(t, before, "DURATION_CUE");
      ctx.offset_in = in_class_word(t, before, "OFFSET_PREPOSITION");
      if (auto two = before ? word_before(t, before->start) : std::nullopt; two && !ctx.offset_in)
        ctx.offset_in = lex_.in_class(t.substr(two->start, before->end - two->start), "OFFSET_PREPOSITION");
      // "mora aqui há cinco anos", "vive em Lisboa há cinco anos": the cue a
      // few words back, in the same clause.
      for (int k = 0; k < 3 && !ctx.duration_cue && before && in_class_word(t, word_after(t, start), "AGO"); ++k) {
        if (t[before->end - 1] == '.') break;  // the sentence before
        before = word_before(t, before->start);
        if (before && t[before->end - 1] == '.') break;
        ctx.duration_cue = in_class_word(t, before, "DURATION_CUE");
      }
      auto after = word_after(t, end);
      // "Há três anos que…" opening a clause is a duration.
      std::size_t p = harem_start;
      while (p > 0 && is_space(t[p - 1])) --p;
      const bool clause_start = p == 0 || t[p - 1] == '.' || t[p - 1] == ',' || t[p - 1] == ';' || t[p - 1] == ':';
      ctx.que_after = clause_start && after && t.substr(after->start, after->end - after->start) == "que";
    }
    {
      // Direction words: the prepositions kept out of the TimeML extent, or
      // the word before them.
      std::size_t p = start;
      for (int k = 0; k < 3; ++k) {
        auto w = word_before(t, p);
        if (!w) break;
        if (in_class_word(t, w, "DIRECTION_FUTURE")) ctx.direction = 1;
        else if (in_class_word(t, w, "DIRECTION_PAST")) ctx.direction = -1;
        else if (in_class_word(t, w, "TARGET_PREPOSITION")) {
          // Right before the expression and its prepositions ("pra quinta",
          // "para a sexta", not "para expirar na sexta"); not the second end
          // of "de segunda para terça".
          const auto right_before = word_before(t, harem_start);
          const auto prior = word_before(t, w->start);
          ctx.target = (w->start >= harem_start || (right_before && right_before->start == w->start)) &&
                       !in_class_word(t, prior, "WEEKDAY") && !in_class_word(t, prior, "WEEKDAY_SHORT");
          break;
        }
        else if (k == 0 && in_class_word(t, w, "LEANS_FUTURE")) ctx.leans_future = true;
        if (ctx.direction != 0 || ctx.target || w->start < harem_start - std::min<std::size_t>(harem_start, 24)) break;
        p = w->start;
      }
      // Multi-word cues ("a partir de", "até ao") end right before the start.
      if (ctx.direction == 0 && preposition_before(t, start) < start) {
        const std::size_t ps = preposition_before(t, start);
        std::string phrase(t.substr(ps, start - ps));
        while (!phrase.empty() && phrase.back() == ' ') phrase.pop_back();
        if (lex_.in_class(phrase, "DIRECTION_FUTURE")) ctx.direction = 1;
        else if (lex_.in_class(phrase, "DIRECTION_PAST")) ctx.direction = -1;
      }
    }
    ctx.start = start;
    ctx.end = end;
    scanned->candidates.push_back(Candidate{m.start, m.pattern, harem_start, ctx});
  }
  return scanned;
}

std::vector<TemporalExpression> TaggerImpl::resolve(std::string_view text, const ScannedText& scanned,
                                                    const std::optional<Date>& dct, TagState* state) const {
  const auto* s = dynamic_cast<const Scanned*>(&scanned);
  if (s == nullptr) return tag(text, dct, state);  // scanned by another tagger
  std::vector<TemporalExpression> out;
  const std::string_view t = s->folded;
  std::optional<Anchor> anchor, quarter;
  if (state != nullptr) {
    anchor = to_anchor(state->anchor);
    quarter = to_anchor(state->quarter);
  }
  const auto& pats = patterns_->patterns();
  for (const Candidate& c : s->candidates) {
    const Pattern& pat = pats[static_cast<std::size_t>(c.pattern)];
    std::size_t start = c.ctx.start, end = c.ctx.end, harem_start = c.harem_start;
    ResolveContext ctx = c.ctx;
    ctx.dct = genre_ == Genre::Scientific ? std::nullopt : dct;
    ctx.genre = genre_;
    ctx.anchor = anchor;
    ctx.quarter = quarter;
    ctx.folded = t;
    Resolution r = resolver_.resolve(t.substr(c.span_start, end - c.span_start), pat, ctx);
    if (r.reject) continue;
    // "[dois anos] depois de…": the signal stays out of the TimeML extent, in the HAREM one.
    const std::size_t harem_end = end;
    if (r.trim_end > 0 && r.trim_end < end - start) {
      end -= r.trim_end;
      if (is_age(t, harem_start, start, end)) continue;  // "reformou-se aos 65 anos depois de…"
    }
    // A definite article right before joins the TimeML extent (resources/pt/grammar.txt, ARTICLE).
    if (auto art = word_before(t, start); art && in_class_word(t, art, "ARTICLE")) {
      const std::string_view a = t.substr(art->start, art->end - art->start);
      auto first = word_after(t, start);
      const bool numeric = is_digit(t[start]) || in_class_word(t, first, "NUMWORD");
      const bool day_date = is_digit(t[start]) && r.type != TimexType::Duration;
      // Only before what a noun phrase opens with: "o terceiro trimestre",
      // "a semana", "os nove meses"; not "face a há um ano".
      bool nominal = numeric;
      if (const auto* entries = first ? lex_.lookup(t.substr(first->start, first->end - first->start)) : nullptr) {
        for (const auto& en : *entries) {
          static constexpr std::string_view kNominal[] = {
              "UNIT",    "ORDINAL",   "MOD_NEXT", "MOD_LAST",    "MOD_THIS", "MOD_FOLLOWING", "MOD_PREVIOUS",
              "MOD_SAME", "POSITION", "SEASON",   "HOLIDAY",     "WEEKDAY",  "PERIOD_WORD",   "VAGUE_QUANT",
              "MONTH",   "DAYPART"};
          for (auto k : kNominal) nominal |= en.cls == k;
        }
      }
      if (nominal && !day_date && !(numeric && (a == "a" || a == "as"))) {
        start = art->start;
        if (harem_start > start) harem_start = start;
      }
    }
    TemporalExpression e;
    e.start = start - 1;
    e.end = end - 1;
    e.harem_start = harem_start - 1;
    e.harem_end = harem_end - 1;
    e.text.assign(text.substr(e.start, e.end - e.start));
    e.type = r.type;
    e.value = std::move(r.value);
    e.chronons = std::move(r.chronons);
    e.harem_type = pat.harem_type;
    e.harem_subtype = pat.harem_subtype;
    if (r.type == TimexType::Duration && pat.timex != TimexType::Duration) {
      e.harem_type = HaremType::Duration;  // "há três anos que…"
      e.harem_subtype = HaremSubtype::None;
    }
    if (r.type == TimexType::Set && pat.timex != TimexType::Set) {
      e.harem_type = HaremType::Frequency;  // "aos domingos"
      e.harem_subtype = HaremSubtype::None;
    }
    if (r.interval && e.harem_type == HaremType::CalendarRef) e.harem_subtype = HaremSubtype::Interval;
    if (e.harem_type == HaremType::CalendarRef && e.type == TimexType::Time &&
        e.harem_subtype == HaremSubtype::Date)
      e.harem_subtype = HaremSubtype::Hour;
    e.in_timeml = pat.in_timeml;
    e.in_harem = pat.in_harem;
    {
      // A decade or century value ("194", "19") takes its "anos"/"século" word into the name.
      const bool period = !e.value.empty() && e.value.size() <= 3 &&
                          std::all_of(e.value.begin(), e.value.end(), [](char c) { return is_digit(c); });
      const NameExtent name = name_extent(text, t, start, end, e.type, period);
      e.name_start = name.start > 0 ? name.start - 1 : e.start;
      e.name_end = name.start > 0 ? name.end - 1 : e.start;
      e.names = name.names;
      if (r.interval) {
        for (const ResolvedEndpoint& ep : r.endpoints) {
          IntervalEndpoint x;
          x.start = std::clamp(c.span_start + ep.start, start, end) - 1;
          x.end = std::clamp(c.span_start + ep.end, start, end) - 1;
          if (x.start >= x.end) continue;
          x.text.assign(text.substr(x.start, x.end - x.start));
          x.type = ep.type;
          x.value = ep.value;
          const NameExtent en = name_extent(text, t, x.start + 1, x.end + 1, ep.type, false);
          x.name_start = en.start > 0 ? en.start - 1 : x.start;
          x.name_end = en.start > 0 ? en.end - 1 : x.start;
          e.endpoints.push_back(std::move(x));
        }
        if (e.endpoints.size() != 2) e.endpoints.clear();
      }
    }
    e.reference = r.reference;
    e.resolved = r.resolved;
    // "nas noites de segunda e terça-feira": a weekday joined by "e" to a habit
    // is part of the habit, at the same part of the day.
    if (!out.empty() && out.back().type == TimexType::Set && out.back().value.rfind("XXXX-WXX-", 0) == 0 &&
        e.type == TimexType::Date && !r.interval && start > 1 && out.back().end + 1 < start - 1) {
      const std::string_view between = t.substr(out.back().end + 1, start - 1 - out.back().end);
      const std::string_view word = t.substr(start, end - start);
      const std::string* day = lex_.value(word, "WEEKDAY");
      if (day == nullptr) day = lex_.value(word, "WEEKDAY_SHORT");
      if (day != nullptr && (between == " e " || between == " e  ")) {
        const std::string& habit = out.back().value;
        const std::size_t time = habit.find('T');
        e.type = TimexType::Set;
        e.value = "XXXX-WXX-" + *day + (time == std::string::npos ? "" : habit.substr(time));
        e.chronons.clear();
        e.reference = Reference::Vague;
        e.harem_type = HaremType::Frequency;
        e.harem_subtype = HaremSubtype::None;
      }
    }
    // The anchor follows the time under discussion; a look back ("há um ano",
    // "trimestre homólogo do ano passado") does not move it.
    if (r.new_anchor && r.resolved && !r.shifted) {
      anchor = r.new_anchor;
      // A quarter not yet over at the document date ("perdas no terceiro
      // trimestre de 1990", "continue no quarto trimestre") is a forecast, not
      // the quarter a report is about.
      const bool future_quarter = dct && r.new_anchor->quarter > 0 &&
                                  r.new_anchor->year * 4 + r.new_anchor->quarter >= dct->year * 4 + (dct->month - 1) / 3 + 1;
      // Nor is an earlier quarter named in passing ("após um segundo trimestre
      // em baixo") once a later one is the subject.
      const bool earlier_quarter = quarter && r.new_anchor->quarter > 0 &&
                                   r.new_anchor->year * 4 + r.new_anchor->quarter < quarter->year * 4 + quarter->quarter;
      if (r.new_anchor->quarter > 0 && !future_quarter && !earlier_quarter) quarter = r.new_anchor;
    }
    out.push_back(std::move(e));
  }
  if (state != nullptr) {
    state->anchor = to_point(anchor);
    state->quarter = to_point(quarter);
  }
  return out;
}

}  // namespace

Result<std::unique_ptr<Tagger>> Tagger::load(const TaggerOptions& options) {
  const std::string home = options.home.empty() ? default_home() : options.home;
  auto lex = Lexicon::load(home + "/resources/pt");
  if (!lex.ok()) return lex.status();
  std::vector<std::string> files = options.pattern_files;
  bool optional_missing = false;
  if (files.empty()) {
    files = {home + "/patterns/pt.patterns", home + "/patterns/pt.manual.patterns"};
    optional_missing = true;
  }
  auto set = PatternSet::load(files, *lex, optional_missing);
  if (!set.ok()) return set.status();
  std::unique_ptr<Tagger> t = std::make_unique<TaggerImpl>(std::move(*lex), std::move(*set), options.genre);
  return t;
}

}  // namespace cronista::temporal
