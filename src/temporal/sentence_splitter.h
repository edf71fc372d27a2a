// Portuguese sentence splitting for the segmenter (method.md §2.4).
//
// A sentence ends at '.', '!', '?', '…' or "..." (with any closing quotes or
// brackets after them) followed by white space, unless
//   - the next word starts with a lower-case letter ("— Vens? — perguntou");
//   - the period closes a known abbreviation ("Sr.", "art.", "p. ex."); an
//     abbreviation marked as one that may end a sentence ("etc.", "a.C.")
//     ends it only when the next word starts with a capital;
//   - the period closes an initial ("J. Saramago") or a run of one-letter
//     parts ("S.A.", "E.U.A."), which behave like such abbreviations.
// Periods not followed by white space never end a sentence, so "6.6.1944",
// "1.º", "n.º", "3.5" and "www.publico.pt" need no special case.
// The abbreviations come from resources/pt/abbreviations.txt, in the format
// of every resources/pt file (class ABBREVIATION; "= end" marks the ones that
// may end a sentence). Matching ignores ASCII case.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "temporal/status.h"

namespace cronista::temporal {

struct TextSpan {
  std::size_t start = 0;  // byte offsets, end exclusive
  std::size_t end = 0;
  friend bool operator==(const TextSpan&, const TextSpan&) = default;
};

class SentenceSplitter {
 public:
  // No abbreviations: only the general rules.
  SentenceSplitter() = default;

  // Reads an abbreviation file; errors name the file and line.
  static Result<SentenceSplitter> load(const std::string& path);
  // Same, from the file's contents; `name` is used in error messages.
  static Result<SentenceSplitter> parse(std::string_view contents, const std::string& name);

  // The sentences of text[begin, end), in order, trimmed of surrounding
  // white space; empty when the range holds only white space. Linear time.
  std::vector<TextSpan> split(std::string_view text, std::size_t begin, std::size_t end) const;
  std::vector<TextSpan> split(std::string_view text) const { return split(text, 0, text.size()); }

  std::size_t abbreviation_count() const { return abbreviations_.size(); }

 private:
  enum class Kind { NeverEnds, MayEnd };
  // Whether the period at text[dot] (followed by white space) closes an
  // abbreviation or initial; `may_end` says whether it may still end a
  // sentence before a capital.
  bool closes_abbreviation(std::string_view text, std::size_t begin, std::size_t dot, bool& may_end) const;

  std::unordered_map<std::string, Kind> abbreviations_;  // lower-cased, with the final period
};

// The splitter for resources/pt/abbreviations.txt under default_home(),
// loaded once. If the file cannot be read, the general rules alone.
const SentenceSplitter& default_sentence_splitter();

}  // namespace cronista::temporal
