// The tagger: folds the text once, scans it once with the compiled pattern
// set (pattern_set.h), and for each expression found checks the negative
// contexts, fixes the TimeML and HAREM extents (leading prepositions out of
// the one, into the other), reads the context cues the resolver needs and
// resolves it (resolver.h), carrying the anaphora anchor along the text.
#include "temporal/tagger.h"

#include <algorithm>

#include "temporal/lexicon.h"
#include "temporal/pattern_set.h"
#include "temporal/resolver.h"
#include "temporal/text_fold.h"

namespace cronista::temporal {

namespace {

bool is_space(char c) { return c == ' '; }

// Words (maximal runs of word characters and hyphens) of folded text.
struct Word {
  std::size_t start, end;
};

// The word ending at or before `p` (skipping spaces only); npos start if none.
std::optional<Word> word_before(std::string_view t, std::size_t p) {
  std::size_t e = p;
  while (e > 0 && is_space(t[e - 1])) --e;
  std::size_t s = e;
  while (s > 0 && (is_word_char_at(t, s - 1) || t[s - 1] == '-' || t[s - 1] == '.')) --s;
  // Keep a trailing dot only as part of an abbreviation ("av.").
  if (s == e) return std::nullopt;
  return Word{s, e};
}

std::optional<Word> word_after(std::string_view t, std::size_t p) {
  std::size_t s = p;
  while (s < t.size() && is_space(t[s])) ++s;
  std::size_t e = s;
  while (e < t.size() && (is_word_char_at(t, e) || t[e] == '-')) ++e;
  if (s == e) return std::nullopt;
  return Word{s, e};
}

bool is_digit(char c) { return c >= '0' && c <= '9'; }

class TaggerImpl final : public Tagger {
 public:
  TaggerImpl(Lexicon lex, std::unique_ptr<PatternSet> patterns)
      : lex_(std::move(lex)), patterns_(std::move(patterns)), resolver_(&lex_) {}

  std::vector<TemporalExpression> tag(std::string_view text, const std::optional<Date>& dct) const override;

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
  // "Nigel Judah, de 58 anos," / "aos 80 anos" / "55 anos de idade": an age.
  bool is_age(std::string_view t, std::size_t harem_start, std::size_t start, std::size_t end) const;

  Lexicon lex_;
  std::unique_ptr<PatternSet> patterns_;
  Resolver resolver_;
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

std::vector<TemporalExpression> TaggerImpl::tag(std::string_view text, const std::optional<Date>& dct) const {
  std::vector<TemporalExpression> out;
  // One space on each side gives the first and last word a boundary; folded
  // offsets are text offsets + 1.
  std::string folded;
  folded.reserve(text.size() + 2);
  folded.push_back(' ');
  folded.append(fold_text(text));
  folded.push_back(' ');
  const std::string_view t = folded;
  std::optional<Anchor> anchor, quarter;
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
    if (!pat.unless_next.empty() && in_class_word(t, word_after(t, end), pat.unless_next)) continue;
    if (is_age(t, harem_start, start, end)) continue;
    ResolveContext ctx;
    ctx.dct = dct;
    ctx.anchor = anchor;
    ctx.quarter = quarter;
    {
      auto before = word_before(t, start);
      ctx.duration_cue = in_class_word(t, before, "DURATION_CUE");
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
        if (ctx.direction != 0 || w->start < harem_start - std::min<std::size_t>(harem_start, 24)) break;
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
    ctx.folded = t;
    ctx.start = start;
    ctx.end = end;
    Resolution r = resolver_.resolve(t.substr(m.start, end - m.start), pat, ctx);
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
    e.reference = r.reference;
    e.resolved = r.resolved;
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
  std::unique_ptr<Tagger> t = std::make_unique<TaggerImpl>(std::move(*lex), std::move(*set));
  return t;
}

}  // namespace cronista::temporal
