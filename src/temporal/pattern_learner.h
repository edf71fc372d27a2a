// The co-occurrence processor (method.md §2.1): learns temporal-expression
// patterns from unlabelled text, for the annotator's pattern files
// (pattern_set.h; format in docs/patterns.md).
//
//   auto lexicon = Lexicon::load("resources/pt");
//   PatternLearner learner(*lexicon, LearnerOptions{});
//   learner.add_text("No ano passado choveu em abril. ...");
//   std::vector<Pattern> patterns = learner.patterns();
//
// What it does, in the order of the method:
//  1. Tokens. The text is folded (text_fold.h) and cut into words; the
//     lexicon's phrases (longest first) and shapes (tag_YEAR, tag_NUMDATE…)
//     give each word a role: an *anchor* (a temporal word: month, weekday,
//     season, holiday, unit, part of day, deictic word, date/time/year
//     shape), a *value* (a number, an ordinal), a *grammatical* marker
//     (prepositions, modifiers, connectors…), a *negative* word, or none.
//     Sentence punctuation ends a run; a comma is a grammatical token.
//  2. Windows. Around every anchor, the run of marker words (anchors, values,
//     grammatical markers) reaching at most `window` tokens before and after
//     it. Words that are not markers end the window.
//  3. Pruning. Leading prepositions and connectors are dropped (the
//     annotator adds them to HAREM extents itself) unless they open an
//     interval ("de … a …", "entre … e …"), so a pattern never starts at a
//     preposition and, matching leftmost, hides a longer expression after
//     it; trailing connectors are dropped; numbers must lean on a unit, a
//     calendar word or an interval connector; a bare unit, part of day or
//     clock time ("ano", "tarde", "17h") and a doubled connector make no
//     sense alone and are dropped, and so is a window opening with a phrase
//     that starts with a preposition ("na véspera"); a frequency word
//     before a number is a preposition ("por três meses") and goes; a candidate with a negative word within
//     `window` tokens before it (NEG_BEFORE: "rua", "ponte") or after it
//     (NEG_AFTER: "soldados") is dropped.
//  4. Aggregation. Month, weekday, season and holiday words, numbers and
//     shapes become their class tags (tag_MONTH, tag_NUMBER, tag_YEAR…);
//     other words stay literal. Equal tagged forms add up. Then patterns of
//     the same length and classification that differ in exactly one literal
//     position merge into one alternation ("ano (?:passado|seguinte)"),
//     largest total frequency first, each pattern merging at most once; a
//     merged pattern's frequency is the sum of its members'.
//  5. Emission. Patterns under `min_frequency` are dropped; the rest get a
//     classification from the roles of their words (SET/FREQUENCY with a
//     frequency word, interval, TIME/HOUR with a clock or part of day,
//     DURATION with a quantity and a unit and no anchoring word, DATE
//     otherwise), an id derived from the regex (stable across re-learning,
//     so curation by id survives), up to `max_examples` examples (first
//     seen), and are sorted by frequency, then regex. Same input, same
//     bytes out.
// Which lexicon classes play which role is engine knowledge (class names
// are the roles of resources/pt/README.md); no Portuguese word is in here.
#pragma once

#include <cstddef>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "temporal/lexicon.h"
#include "temporal/pattern_set.h"
#include "temporal/status.h"

namespace cronista::temporal {

struct LearnerOptions {
  int window = 2;             // tokens before and after an anchor
  long min_frequency = 3;     // patterns seen fewer times are dropped
  std::size_t max_examples = 3;
};

struct LearnerStats {
  long documents = 0;
  long bytes = 0;
  long words = 0;
  long anchors = 0;
  long candidates = 0;          // windows kept after pruning (with repeats)
  long pruned_negative = 0;     // windows dropped for a negative word
  long pruned_grammar = 0;      // windows dropped as making no sense alone
  long distinct = 0;            // distinct tagged forms
  long merged_groups = 0;       // alternations made
  long patterns = 0;            // emitted
};

class PatternLearner {
 public:
  // `lexicon` must outlive the learner.
  PatternLearner(const Lexicon& lexicon, const LearnerOptions& options);
  ~PatternLearner();
  PatternLearner(PatternLearner&&) noexcept;

  // Learns from one document (UTF-8; invalid bytes are treated as
  // non-word characters).
  void add_text(std::string_view text);

  // Aggregated, merged, filtered and sorted patterns (steps 4 and 5).
  std::vector<Pattern> patterns();
  const LearnerStats& stats() const;

  // The comment heading a learned pattern file: what produced it, from how
  // much text, with which options (no paths, so the file is reproducible).
  std::string file_header() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

// Calls `text_fn` for every document under `paths`, in a fixed order: a
// file ending in .jsonl holds one JSON object per line whose "text" is a
// document; any other file is one plain-text document; a folder is walked
// recursively in sorted order, taking its .txt and .jsonl files. `progress_fn` (may be empty) is called after
// each file with its path. Errors name the file (and line for JSONL). A
// JSONL line that is not an object with a "text" string is an error, unless
// `skipped_fn` is given: then it is reported to it ("file:line: reason") and
// skipped, so one damaged record does not stop a long read.
Status for_each_corpus_text(const std::vector<std::string>& paths,
                            const std::function<void(std::string_view text)>& text_fn,
                            const std::function<void(const std::string& path)>& progress_fn,
                            const std::function<void(const std::string& problem)>& skipped_fn = {});

}  // namespace cronista::temporal
