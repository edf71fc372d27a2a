// The tagger's language knowledge, loaded from resources/<lang>/*.txt (format
// in resources/pt/README.md): word classes (MONTH, UNIT, MOD_NEXT…) mapping
// lower-case phrases to values, and shape tags defined by regular expressions.
//
// The lexicon serves two masters: pattern files refer to classes as tag_NAME
// and the lexicon expands those into RE2 alternations (expand()); the resolver
// looks phrases up to learn what each word of a match means (lookup()).
// Immutable after load(), so safe to share between threads.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "temporal/status.h"

namespace cronista::temporal {

// The syntax of pattern sources that expand() reads, shared with what
// cuts them into pieces (pattern_union.h): the characters of NAME in
// "tag_NAME", and the end (one past its ']') of the character class that
// opens at s[i] ('['), where "[^" and a ']' first belong to the class and
// escapes are skipped (the end of `s` when it is not closed).
inline bool is_tag_char(char c) { return (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_'; }
std::size_t regex_class_end(std::string_view s, std::size_t i);

struct LexEntry {
  std::string cls;    // class name, e.g. "MONTH"
  std::string value;  // e.g. "4"
};

class Lexicon {
 public:
  // Loads every *.txt file of `dir` (sorted by name, so loading is
  // deterministic). Errors name the file and line.
  static Result<Lexicon> load(const std::string& dir);
  // Adds entries from the text of one resource file (`name` is used in errors).
  Status add_file(std::string_view name, std::string_view content);

  // The entries of a phrase (lower-case words separated by single spaces);
  // nullptr when the phrase is unknown.
  const std::vector<LexEntry>* lookup(std::string_view phrase) const;
  // The value of `phrase` in class `cls`, or nullptr.
  const std::string* value(std::string_view phrase, std::string_view cls) const;
  bool in_class(std::string_view phrase, std::string_view cls) const { return value(phrase, cls) != nullptr; }
  // The most words any phrase has.
  std::size_t max_phrase_words() const { return max_words_; }
  // Phrases of a class (empty when there is no such class).
  const std::vector<std::string>& phrases(std::string_view cls) const;
  bool has_tag(std::string_view name) const;
  std::vector<std::string> tag_names() const;
  // The regular expression of a shape tag (@regex), as written, tags
  // unexpanded; nullptr for a word class or an unknown name.
  const std::string* regex_source(std::string_view name) const;

  // Replaces every tag_NAME of a pattern by its regular expression, and each
  // single space outside a character class by " +" (folded text may hold runs
  // of spaces). Unknown tags are an error naming the tag.
  Result<std::string> expand(std::string_view pattern) const;

 private:
  Result<std::string> expand_tag(const std::string& name, int depth) const;
  Result<std::string> expand_depth(std::string_view pattern, int depth) const;

  // Transparent hashing: lookups by string_view allocate nothing.
  struct Hash {
    using is_transparent = void;
    std::size_t operator()(std::string_view s) const { return std::hash<std::string_view>{}(s); }
  };
  std::unordered_map<std::string, std::vector<LexEntry>, Hash, std::equal_to<>> entries_;
  std::unordered_map<std::string, std::vector<std::string>> classes_;
  std::unordered_map<std::string, std::string> regexes_;
  std::size_t max_words_ = 1;
};

}  // namespace cronista::temporal
