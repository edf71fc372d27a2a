// Sentence splitting (see sentence_splitter.h): one left-to-right scan that
// stops only at sentence punctuation; the abbreviation test looks back at
// the word (or the two words) before the period, the capital test forward
// at the first letter after it.
#include "temporal/sentence_splitter.h"

#include <unicode/uchar.h>
#include <unicode/utf8.h>

#include <cerrno>
#include <cstring>
#include <fstream>
#include <sstream>

#include "temporal/tagger.h"

namespace cronista::temporal {
namespace {

bool is_space(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v'; }

std::string ascii_lower(std::string_view s) {
  std::string r(s);
  for (char& c : r)
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
  return r;
}

// The code point at text[i] (U+FFFD for a bad sequence) and its length.
UChar32 code_point_at(std::string_view text, std::size_t i, std::size_t end, std::size_t& length) {
  int32_t k = 0;
  UChar32 c = 0;
  const auto* s = reinterpret_cast<const uint8_t*>(text.data() + i);
  U8_NEXT(s, k, static_cast<int32_t>(end - i), c);
  length = static_cast<std::size_t>(k);
  return c < 0 ? 0xFFFD : c;
}

// Closing quotes and brackets that stay with the sentence they close.
std::size_t closer_length(std::string_view text, std::size_t i, std::size_t end) {
  const char c = text[i];
  if (c == '"' || c == '\'' || c == ')' || c == ']') return 1;
  for (std::string_view q : {"\xC2\xBB" /* » */, "\xE2\x80\x9D" /* ” */, "\xE2\x80\x99" /* ’ */}) {
    if (end - i >= q.size() && text.compare(i, q.size(), q) == 0) return q.size();
  }
  return 0;
}

// Opening quotes, brackets and dialogue dashes before a sentence's first word.
std::size_t opener_length(std::string_view text, std::size_t i, std::size_t end) {
  const char c = text[i];
  if (c == '"' || c == '\'' || c == '(' || c == '[' || c == '-') return 1;
  for (std::string_view q : {"\xC2\xAB" /* « */, "\xE2\x80\x9C" /* “ */, "\xE2\x80\x98" /* ‘ */,
                             "\xE2\x80\x94" /* — */, "\xE2\x80\x93" /* – */, "\xC2\xBF" /* ¿ */,
                             "\xC2\xA1" /* ¡ */}) {
    if (end - i >= q.size() && text.compare(i, q.size(), q) == 0) return q.size();
  }
  return 0;
}

// Sentence punctuation at text[i]: its length, 0 if none.
std::size_t terminator_length(std::string_view text, std::size_t i, std::size_t end) {
  const char c = text[i];
  if (c == '.' || c == '!' || c == '?') return 1;
  if (end - i >= 3 && text.compare(i, 3, "\xE2\x80\xA6") == 0) return 3;  // …
  return 0;
}

enum class Initial { Lower, Upper, Other };

// The case of the first letter at or after `i`, skipping white space and
// openers; Other for digits, symbols or the end.
Initial next_initial(std::string_view text, std::size_t i, std::size_t end) {
  while (i < end) {
    if (is_space(text[i])) {
      ++i;
      continue;
    }
    if (std::size_t n = opener_length(text, i, end)) {
      i += n;
      continue;
    }
    break;
  }
  if (i >= end) return Initial::Other;
  std::size_t n = 0;
  const UChar32 c = code_point_at(text, i, end, n);
  if (u_islower(c)) return Initial::Lower;
  if (u_isupper(c) || u_istitle(c)) return Initial::Upper;
  return Initial::Other;
}

}  // namespace

Result<SentenceSplitter> SentenceSplitter::parse(std::string_view contents, const std::string& name) {
  SentenceSplitter s;
  std::size_t line_number = 0;
  bool in_class = false;
  auto error = [&](const std::string& what) {
    return Result<SentenceSplitter>::Error(name + ":" + std::to_string(line_number) + ": " + what);
  };
  while (!contents.empty()) {
    const std::size_t eol = contents.find('\n');
    std::string_view line = contents.substr(0, eol);
    contents.remove_prefix(eol == std::string_view::npos ? contents.size() : eol + 1);
    ++line_number;
    if (const std::size_t comment = line.find("  #"); comment != std::string_view::npos)
      line = line.substr(0, comment);
    while (!line.empty() && is_space(line.back())) line.remove_suffix(1);
    while (!line.empty() && is_space(line.front())) line.remove_prefix(1);
    if (line.empty() || line.front() == '#') continue;
    if (line.front() == '@') {
      if (line != "@class ABBREVIATION") return error("only '@class ABBREVIATION' belongs in this file");
      in_class = true;
      continue;
    }
    if (!in_class) return error("entry before '@class ABBREVIATION'");
    Kind kind = Kind::NeverEnds;
    std::string_view phrase = line;
    if (const std::size_t eq = line.find(" = "); eq != std::string_view::npos) {
      std::string_view value = line.substr(eq + 3);
      while (!value.empty() && is_space(value.front())) value.remove_prefix(1);
      if (value != "end") return error("the only value allowed is 'end', not '" + std::string(value) + "'");
      kind = Kind::MayEnd;
      phrase = line.substr(0, eq);
      while (!phrase.empty() && is_space(phrase.back())) phrase.remove_suffix(1);
    }
    if (phrase.size() < 2 || phrase.back() != '.')
      return error("abbreviation '" + std::string(phrase) + "' must end with a period");
    if (phrase.find_first_of("\t\r") != std::string_view::npos || phrase.find("  ") != std::string_view::npos)
      return error("words of an abbreviation are separated by one space");
    s.abbreviations_[ascii_lower(phrase)] = kind;
  }
  return s;
}

Result<SentenceSplitter> SentenceSplitter::load(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return Result<SentenceSplitter>::Error("cannot open '" + path + "': " + std::strerror(errno));
  std::ostringstream ss;
  ss << in.rdbuf();
  if (in.bad()) return Result<SentenceSplitter>::Error("cannot read '" + path + "'");
  return parse(ss.str(), path);
}

bool SentenceSplitter::closes_abbreviation(std::string_view text, std::size_t begin, std::size_t dot,
                                           bool& may_end) const {
  // The word ending at the period, without opening quotes or brackets.
  std::size_t w = dot;
  while (w > begin && !is_space(text[w - 1])) --w;
  while (w < dot) {
    const std::size_t n = opener_length(text, w, dot);
    if (n == 0) break;
    w += n;
  }
  if (w == dot) return false;
  const std::string word = ascii_lower(text.substr(w, dot + 1 - w));
  // Two words first ("p. ex.", "et al.").
  std::size_t v = w;
  while (v > begin && is_space(text[v - 1])) --v;
  if (v < w && v > begin) {
    std::size_t u = v;
    while (u > begin && !is_space(text[u - 1])) --u;
    const std::string two = ascii_lower(text.substr(u, v - u)) + " " + word;
    if (auto it = abbreviations_.find(two); it != abbreviations_.end()) {
      may_end = it->second == Kind::MayEnd;
      return true;
    }
  }
  if (auto it = abbreviations_.find(word); it != abbreviations_.end()) {
    may_end = it->second == Kind::MayEnd;
    return true;
  }
  // Initials and runs of one-letter parts: "J.", "S.A.", "E.U.A.".
  std::size_t parts = 0;
  std::size_t i = w;
  bool upper_initial = false;
  while (i < dot + 1) {
    std::size_t n = 0;
    const UChar32 c = code_point_at(text, i, dot + 1, n);
    if (!u_isalpha(c) || i + n > dot || text[i + n] != '.') return false;
    if (parts == 0) upper_initial = u_isupper(c);
    ++parts;
    i += n + 1;
  }
  if (parts == 1) {
    if (!upper_initial) return false;
    may_end = false;
    return true;
  }
  may_end = true;
  return true;
}

std::vector<TextSpan> SentenceSplitter::split(std::string_view text, std::size_t begin, std::size_t end) const {
  std::vector<TextSpan> out;
  end = std::min(end, text.size());
  std::size_t start = begin;
  while (start < end && is_space(text[start])) ++start;
  std::size_t i = start;
  while (i < end) {
    const std::size_t t = terminator_length(text, i, end);
    if (t == 0) {
      ++i;
      continue;
    }
    // The whole punctuation run ("?!", "...", "…") and its closers.
    std::size_t p = i;
    std::size_t terminators = 0;
    bool only_period = true;
    while (p < end) {
      const std::size_t n = terminator_length(text, p, end);
      if (n == 0) break;
      if (text[p] != '.') only_period = false;
      p += n;
      ++terminators;
    }
    while (p < end) {
      const std::size_t n = closer_length(text, p, end);
      if (n == 0) break;
      p += n;
    }
    if (p < end && !is_space(text[p])) {
      i = p;
      continue;
    }
    bool boundary = true;
    if (p < end) {
      const Initial next = next_initial(text, p, end);
      if (next == Initial::Lower) {
        boundary = false;
      } else if (only_period && terminators == 1) {
        bool may_end = false;
        if (closes_abbreviation(text, start, i, may_end)) boundary = may_end && next == Initial::Upper;
      }
    }
    if (boundary) {
      out.push_back(TextSpan{start, p});
      start = p;
      while (start < end && is_space(text[start])) ++start;
      i = start;
    } else {
      i = p;
    }
  }
  std::size_t last = end;
  while (last > start && is_space(text[last - 1])) --last;
  if (last > start) out.push_back(TextSpan{start, last});
  return out;
}

const SentenceSplitter& default_sentence_splitter() {
  static const SentenceSplitter splitter = [] {
    auto loaded = SentenceSplitter::load(default_home() + "/resources/pt/abbreviations.txt");
    return loaded.ok() ? std::move(loaded).value() : SentenceSplitter();
  }();
  return splitter;
}

}  // namespace cronista::temporal
