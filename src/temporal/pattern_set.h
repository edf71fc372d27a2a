// Pattern files (docs/patterns.md) and their compiled form.
//
// A pattern is an RE2 regular expression over folded text (text_fold.h) in
// which tag_NAME stands for a lexicon class or shape (lexicon.h), with its
// classification: TimeML type and HAREM type/subtype. Pattern files layer:
// the learned file first, then the curated one, whose records replace learned
// records of the same id and may remove them ("remove <id>").
//
// Matching is one pass over the words: a hash of the marker words (from the
// lexicon and the patterns: months, units, "hoje"…, and numbers) finds the
// few places worth a look; there, every pattern, compiled as an alternative of one RE2 with
// longest-match semantics, is tried at once, anchored, so the cost does not
// grow with the number of patterns and RE2's DFA stays small (an unanchored
// scan over hundreds of learned patterns outgrows any sane DFA budget). For
// each expression found, an RE2::Set anchored at both ends tells which
// patterns produce exactly that span; the highest-ranked one classifies it.
#pragma once

#include <re2/re2.h>
#include <re2/set.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "temporal/expression.h"
#include "temporal/lexicon.h"
#include "temporal/status.h"

namespace cronista::temporal {

struct Pattern {
  std::string id;
  std::string regex;  // as written, with tags
  TimexType timex = TimexType::Date;
  HaremType harem_type = HaremType::CalendarRef;
  HaremSubtype harem_subtype = HaremSubtype::Date;
  long frequency = 0;
  // Which annotation schemes produce this expression ("scheme both|timeml|harem").
  bool in_timeml = true;
  bool in_harem = true;
  // "unless-next CLASS": the match is dropped when the next word belongs to
  // lexicon class CLASS ("depois" alone is a time, "depois de" a preposition).
  std::string unless_next;
  std::vector<std::string> examples;
  std::string source;  // file:line of the record
};

// Parses the text of one pattern file; `name` is used in error messages.
// Returns the records in file order; ids listed by "remove" go to *removed.
Result<std::vector<Pattern>> parse_pattern_file(std::string_view name, std::string_view content,
                                                std::vector<std::string>* removed);
// Writes records in the file format (the inverse of parse_pattern_file).
std::string format_pattern_file(const std::vector<Pattern>& patterns, std::string_view header_comment);

class PatternSet {
 public:
  // Reads and layers the files (missing files are skipped only if
  // `optional_missing`), expands tags and compiles.
  static Result<std::unique_ptr<PatternSet>> load(const std::vector<std::string>& files, const Lexicon& lexicon,
                                                  bool optional_missing);
  static Result<std::unique_ptr<PatternSet>> build(std::vector<Pattern> patterns, const Lexicon& lexicon);

  struct Match {
    std::size_t start = 0;  // offsets into the text given to next_match()
    std::size_t end = 0;
    int pattern = -1;       // index into patterns()
  };
  // Finds the leftmost-longest expression starting at or after `from` in
  // folded text `text`. The text must have a non-word byte (a space) at both
  // ends, so that the first and last word have a boundary.
  bool next_match(std::string_view text, std::size_t from, Match* m) const;

  const std::vector<Pattern>& patterns() const { return patterns_; }
  // How many times the combined pattern was compiled (once, unless the
  // estimate of its size that sets its memory budget was off).
  int combined_compilations() const { return combined_compilations_; }

 private:
  static constexpr unsigned char kGlue = 1;    // may open or join an expression
  static constexpr unsigned char kMarker = 2;  // where expressions start
  void index_words(const Lexicon& lexicon);
  bool try_at(std::string_view text, std::size_t start, Match* m) const;

  struct Hash {
    using is_transparent = void;
    std::size_t operator()(std::string_view s) const { return std::hash<std::string_view>{}(s); }
  };
  std::unordered_map<std::string, unsigned char, Hash, std::equal_to<>> words_;
  // words_ again, as an open-addressed table (linear probing, at most half
  // full) read by the word scan: one cheap hash and usually one comparison
  // per word looked up, no list to follow.
  struct WordSlot {
    std::string word;  // empty: a free slot
    unsigned char kind = 0;
  };
  std::vector<WordSlot> word_slots_;
  std::size_t word_mask_ = 0;
  static std::size_t word_hash(std::string_view w) {
    std::uint64_t h = 0xcbf29ce484222325ULL;  // FNV-1a
    for (const char c : w) h = (h ^ static_cast<unsigned char>(c)) * 0x100000001b3ULL;
    return static_cast<std::size_t>(h ^ (h >> 32));
  }
  unsigned char word_kind(std::string_view w) const {
    for (std::size_t k = word_hash(w) & word_mask_;; k = (k + 1) & word_mask_) {
      const WordSlot& slot = word_slots_[k];
      if (slot.word.empty()) return 0;
      if (slot.word == w) return slot.kind;
    }
  }
  // The first two bytes and the length of every word of words_: most prose
  // words are rejected by this bit test before any hashing. For each pair of
  // first bytes, bit min(length, 31) is set for the lengths of its words.
  static std::size_t prefix_key(std::string_view t, std::size_t i, std::size_t j) {
    const unsigned char a = static_cast<unsigned char>(t[i]);
    const unsigned char b = j > i + 1 ? static_cast<unsigned char>(t[i + 1]) : 0;
    return (static_cast<std::size_t>(a) << 8) | b;
  }
  static std::uint32_t length_bit(std::size_t length) { return std::uint32_t{1} << std::min<std::size_t>(length, 31); }
  bool has_prefix(std::string_view t, std::size_t i, std::size_t j) const {
    return (prefixes_[prefix_key(t, i, j)] & length_bit(j - i)) != 0;
  }
  std::vector<std::uint32_t> prefixes_;
  std::vector<Pattern> patterns_;
  std::unique_ptr<RE2> combined_;
  // The patterns in consecutive parts, each an RE2::Set, compiled at once
  // on threads of their own; parts_[k] holds patterns from part_first_[k].
  std::vector<std::unique_ptr<RE2::Set>> parts_;
  std::vector<int> part_first_;
  // The patterns matching `span` whole, of the first part that has any: the
  // lowest indices, which are what the tagger reads.
  void match_first_part(re2::StringPiece span, std::vector<int>* hits) const;
  // Which pattern classifies a span, by the span's text: the same
  // expressions recur ("2010", "em 2009", "hoje"), and the set's match over
  // a span costs more than the lookup. The value is the number of leading
  // bytes (prepositions) dropped and the pattern, -1 for none. Emptied when
  // it reaches kSpanCacheSize spans, so it stays small on ever-new text.
  // One per thread (of the set last used on the thread), so that threads
  // tagging at once never wait for each other on it.
  struct SpanClass {
    std::size_t dropped = 0;
    int pattern = -1;
  };
  static constexpr std::size_t kSpanCacheSize = std::size_t{1} << 14;
  SpanClass classify(std::string_view text, std::size_t a, std::size_t b) const;
  using SpanCache = std::unordered_map<std::string, SpanClass, Hash, std::equal_to<>>;
  SpanCache& thread_span_cache() const;
  static std::uint64_t new_id();
  const std::uint64_t id_ = new_id();  // never reused: tells the sets' caches apart
  int combined_compilations_ = 0;
};

}  // namespace cronista::temporal
