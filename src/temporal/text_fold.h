// Byte-preserving text normalisation for matching: the tagger matches its
// patterns against a folded copy of the text in which every byte keeps its
// offset, so a match's offsets are offsets into the original text.
//
// Folding lower-cases ASCII and the Latin-1 capitals (U+00C0–U+00DE, two bytes
// in UTF-8 like their small letters), turns ASCII white space into ' ' and a
// no-break space (C2 A0) into two spaces. Everything else is copied. This
// covers every capital Portuguese uses, is a table lookup per byte and needs
// no ICU (measured: folding is a small share of tagging time).
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

namespace cronista::temporal {

// Writes the folded form of `text` into `out` (same size as text).
void fold_text(std::string_view text, std::string* out);
// The same into a buffer of at least text.size() bytes.
void fold_text(std::string_view text, char* out);
std::string fold_text(std::string_view text);

// True when `text` is well-formed UTF-8 (no overlongs, no surrogates).
bool valid_utf8(std::string_view text);
// Replaces every byte that is not part of a well-formed UTF-8 sequence by
// '?', so that offsets stay those of the input.
std::string replace_invalid_utf8(std::string_view text);

// Whether the UTF-8 character starting at text[i] is a letter or a digit
// (ASCII letters/digits, and any non-ASCII character, which in Portuguese
// text is an accented letter or a symbol we treat as part of a word;
// U+00A0, U+00AB, U+00BB, U+00BA/U+00AA ordinal indicators excluded).
bool is_word_char_at(std::string_view text, std::size_t i);

// Whether an upper-case letter starts at text[i] (ASCII, or a Latin-1 capital
// in UTF-8: the case folding removes).
bool is_upper_at(std::string_view text, std::size_t i);

// A word of folded text: a maximal run of word characters, hyphens (and, before
// a position, dots: "av.", "n.º"), as byte offsets [start, end).
struct FoldedWord {
  std::size_t start, end;
};
// The word ending at or before p, only spaces between; none when punctuation
// (a comma, a bracket…) or the text's start comes first.
std::optional<FoldedWord> word_before(std::string_view t, std::size_t p);
// The word starting at or after p, only spaces between.
std::optional<FoldedWord> word_after(std::string_view t, std::size_t p);

}  // namespace cronista::temporal
