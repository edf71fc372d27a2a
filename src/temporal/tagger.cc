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
  // +1 future, -1 past, 0 unknown: the verb cue nearest to [start, end) in its sentence.
  int sentence_tense(std::string_view t, std::size_t start, std::size_t end) const;

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

int TaggerImpl::sentence_tense(std::string_view t, std::size_t start, std::size_t end) const {
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
        if (dist < best) best = dist, tense = cue;
      }
    }
    i = j;
  }
  return tense;
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
  std::optional<Anchor> anchor;
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
        is_digit(t[end + 1]) && is_digit(t[end - 1]))
      continue;
    if (end < t.size() && t[end] == '%') continue;
    // TimeML extent: no leading preposition or article.
    for (int guard = 0; guard < 3; ++guard) {
      std::size_t len = preposition_at(t, start, end);
      // A fixed phrase that opens with a preposition keeps it ("em breve", "pelo menos").
      if (len > 0 && phrase_at(t, start, end) > len) break;
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
      if (in_class_word(t, before, "NEG_BEFORE")) continue;
      bool bare_number = true;
      for (std::size_t i = start; i < end; ++i) bare_number &= is_digit(t[i]);
      if (bare_number && in_class_word(t, word_after(t, end), "NEG_AFTER")) continue;
    }
    ResolveContext ctx;
    ctx.dct = dct;
    ctx.anchor = anchor;
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
    ctx.tense = sentence_tense(t, start, end);
    Resolution r = resolver_.resolve(t.substr(m.start, m.end - m.start), pat, ctx);
    if (r.reject) continue;
    TemporalExpression e;
    e.start = start - 1;
    e.end = end - 1;
    e.harem_start = harem_start - 1;
    e.harem_end = end - 1;
    e.text.assign(text.substr(e.start, e.end - e.start));
    e.type = r.type;
    e.value = std::move(r.value);
    e.chronons = std::move(r.chronons);
    e.harem_type = pat.harem_type;
    e.harem_subtype = pat.harem_subtype;
    if (r.interval && e.harem_type == HaremType::CalendarRef) e.harem_subtype = HaremSubtype::Interval;
    if (e.harem_type == HaremType::CalendarRef && e.type == TimexType::Time &&
        e.harem_subtype == HaremSubtype::Date)
      e.harem_subtype = HaremSubtype::Hour;
    e.reference = r.reference;
    e.resolved = r.resolved;
    if (r.new_anchor && r.resolved) anchor = r.new_anchor;
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
