// The co-occurrence processor (pattern_learner.h describes the method).
//
// Costs: one pass over the text; each word costs at most
// max_phrase_words hash lookups (only when a longer phrase starts with it)
// and, for words starting with a digit, a few anchored RE2 matches of the
// shape tags. Windows are bounded by 2 × window + 1 tokens. Counting is a
// hash map keyed by the tagged form; merging sorts the distinct forms once
// per position. Memory grows with the number of distinct forms, not with
// the corpus.
#include "temporal/pattern_learner.h"

#include <re2/re2.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <sstream>
#include <unordered_set>

#include "temporal/text_fold.h"

namespace cronista::temporal {
namespace {

// Word roles (pattern_learner.h, step 1).
enum class Role : std::uint8_t { None, Boundary, Anchor, Value, Grammar, Comma };

// Features of a word that decide pruning and classification.
enum Feature : std::uint32_t {
  kSet = 1u << 0,          // frequency word: "todos os", "cada", "diariamente"
  kRangeFrom = 1u << 1,    // interval opener: "de", "entre", "desde"
  kRangeTo = 1u << 2,      // interval connector: "a", "e", "até"
  kClock = 1u << 3,        // clock time or named hour
  kDaypart = 1u << 4,      // part of the day
  kUnit = 1u << 5,         // calendar unit
  kQuantity = 1u << 6,     // number, number word, vague quantity, fraction
  kRelational = 1u << 7,   // modifiers, position, ago/after/before/from now, approximation
  kCalendar = 1u << 8,     // month, weekday, season, holiday, year, date shapes
  kDeictic = 1u << 9,      // today/yesterday words, present/past/future references
  kOrdinal = 1u << 10,     // ordinal number ("primeiro", "12.º")
  kStripLead = 1u << 11,   // only a preposition or connector: dropped at the start
  kStripTrail = 1u << 12,  // cannot end an expression
  kNegBefore = 1u << 13,
  kNegAfter = 1u << 14,
  kDigits = 1u << 15,      // written in digits
  kPostUnit = 1u << 16,    // ends an expression only after a unit ("três anos depois|atrás")
  kBare = 1u << 18,        // says nothing alone ("ano", "tarde")
  kOpensWithPreposition = 1u << 19,  // a phrase whose first word is a preposition ("na véspera")
};

// What the learner makes of each lexicon class.
struct ClassRole {
  std::string_view cls;
  Role role;
  bool tagged;  // replaced by tag_<cls> in patterns
  std::uint32_t features;
  int priority;  // lower wins when a phrase has several classes
};

constexpr std::uint32_t kConnector = kStripLead | kStripTrail;

constexpr std::array<ClassRole, 37> kClassRoles = {{
    {"MONTH", Role::Anchor, true, kCalendar, 0},
    {"WEEKDAY", Role::Anchor, true, kCalendar, 1},
    {"SEASON", Role::Anchor, true, kCalendar, 2},
    {"HOLIDAY", Role::Anchor, true, kCalendar, 3},
    {"DEICTIC_DAY", Role::Anchor, false, kDeictic, 4},
    {"ANAPHORIC_DAY", Role::Anchor, false, kDeictic, 5},
    {"REF", Role::Anchor, false, kDeictic, 6},
    {"SET_ADVERB", Role::Anchor, false, kSet, 7},
    {"CLOCKWORD", Role::Anchor, false, kClock, 8},
    {"UNIT", Role::Anchor, false, kUnit | kBare, 9},
    {"DAYPART", Role::Anchor, false, kDaypart | kBare, 10},
    {"NUMWORD", Role::Value, true, kQuantity, 20},
    {"ORDINAL", Role::Value, true, kOrdinal, 21},
    {"WEEKDAY_SHORT", Role::Value, true, kCalendar, 22},
    {"FRACTION", Role::Grammar, false, kQuantity | kStripLead, 30},
    {"VAGUE_QUANT", Role::Grammar, false, kQuantity | kStripTrail, 31},
    {"SET_QUANT", Role::Grammar, false, kSet | kStripTrail, 32},
    {"MOD_NEXT", Role::Grammar, false, kRelational, 33},
    {"MOD_LAST", Role::Grammar, false, kRelational, 34},
    {"MOD_THIS", Role::Grammar, false, kRelational | kStripTrail, 35},
    {"MOD_FOLLOWING", Role::Grammar, false, kRelational, 36},
    {"MOD_PREVIOUS", Role::Grammar, false, kRelational, 37},
    {"MOD_SAME", Role::Grammar, false, kRelational | kStripTrail, 38},
    {"POSITION", Role::Grammar, false, kRelational | kStripTrail, 39},
    {"APPROX", Role::Grammar, false, kRelational | kStripTrail, 40},
    {"AGO", Role::Grammar, false, kRelational | kPostUnit, 41},
    // "após dez anos": the duration is "dez anos" (TimeML), "após" a signal.
    {"AFTER", Role::Grammar, false, kRelational | kPostUnit | kStripLead, 42},
    {"BEFORE", Role::Grammar, false, kRelational | kPostUnit | kStripLead, 43},
    // "dentro de cinco anos": the duration is "cinco anos".
    {"FROM_NOW", Role::Grammar, false, kRelational | kConnector, 44},
    {"UNIT_QUALIFIER", Role::Grammar, false, 0, 47},
    {"RANGE_FROM", Role::Grammar, false, kRangeFrom | kConnector, 50},
    {"RANGE_TO", Role::Grammar, false, kRangeTo | kConnector, 51},
    {"PREPOSITION", Role::Grammar, false, kConnector, 52},
    // Context cues (verbs before "há N anos", future markers) are read by
    // the annotator around an expression, never inside one.
    {"DURATION_CUE", Role::None, false, 0, 80},
    {"FUTURE_CUE", Role::None, false, 0, 81},
    {"FUTURE_SUFFIX", Role::None, false, 0, 82},
    // Negative words are no markers; their flag is what matters.
    {"NEG_BEFORE", Role::None, false, kNegBefore, 90},
}};
constexpr ClassRole kNegAfterRole = {"NEG_AFTER", Role::None, false, kNegAfter, 91};

// Shape tags tried on words that start with a digit, in order.
struct ShapeRole {
  std::string_view tag;
  Role role;
  std::uint32_t features;
};
constexpr std::array<ShapeRole, 7> kShapes = {{
    {"NUMDATE", Role::Anchor, kCalendar},
    {"ISODATE", Role::Anchor, kCalendar},
    {"MONTHYEAR", Role::Anchor, kCalendar},
    {"CLOCK", Role::Anchor, kClock | kBare},
    {"YEAR", Role::Anchor, kCalendar},
    {"DAYNUM", Role::Value, kQuantity | kDigits},
    {"DIGITS", Role::Value, kQuantity | kDigits},
}};

// The tag a shape or number class is written as in patterns: plain numbers
// and number words are both tag_NUMBER (the NUMBER shape covers both).
std::string tag_form(std::string_view name) {
  if (name == "DIGITS" || name == "NUMWORD") return "tag_NUMBER";
  return "tag_" + std::string(name);
}

// A phrase's combined reading over all its classes.
struct Reading {
  Role role = Role::None;
  std::string form;  // pattern form: a tag, or the escaped phrase
  std::uint32_t features = 0;
  int priority = 1000;
};

std::string escape_literal(std::string_view phrase) {
  std::string out;
  for (char c : phrase) {
    if (std::string_view("\\.+*?()|[]{}^$").find(c) != std::string_view::npos) out.push_back('\\');
    out.push_back(c);
  }
  return out;
}

bool is_ascii_alnum(unsigned char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9'); }

// Length of the character at text[i] when it belongs inside a word: ASCII
// letters and digits, letters beyond ASCII, and the ordinal indicators º ª;
// 0 for spaces, punctuation, quotes, dashes and bad bytes.
std::size_t word_char_length(std::string_view text, std::size_t i) {
  const unsigned char c = static_cast<unsigned char>(text[i]);
  if (c < 0x80) return is_ascii_alnum(c) ? 1 : 0;
  const std::size_t left = text.size() - i;
  if (c >= 0xC2 && c < 0xE0 && left >= 2) {
    const unsigned char d = static_cast<unsigned char>(text[i + 1]);
    if ((d & 0xC0) != 0x80) return 0;
    if (c == 0xC2) return (d == 0xAA || d == 0xBA || d == 0xB0) ? 2 : 0;  // ª º °; other Latin-1 symbols
    if (c == 0xC3) return (d == 0x97 || d == 0xB7) ? 0 : 2;                // × ÷
    return 2;
  }
  if (c >= 0xE0 && c < 0xF0 && left >= 3) {
    if ((static_cast<unsigned char>(text[i + 1]) & 0xC0) != 0x80 ||
        (static_cast<unsigned char>(text[i + 2]) & 0xC0) != 0x80)
      return 0;
    if (c == 0xE2) return 0;  // general punctuation, symbols, arrows…
    return 3;
  }
  if (c >= 0xF0 && c < 0xF5 && left >= 4) return 0;  // emoji and the like
  return 0;
}

struct Token {
  std::size_t start = 0, end = 0;  // in the text
  Role role = Role::None;
  std::string form;
  std::uint32_t features = 0;
};

// A distinct tagged form and what was seen of it.
struct Form {
  std::vector<std::string> tokens;
  std::vector<std::uint8_t> temporal;  // per token: an anchor or a value
  std::uint32_t features = 0;  // union over its tokens
  bool interval = false;
  long frequency = 0;
  std::vector<std::string> examples;
};

struct Classification {
  TimexType timex = TimexType::Date;
  HaremType harem = HaremType::CalendarRef;
  HaremSubtype subtype = HaremSubtype::Date;
  friend bool operator==(const Classification&, const Classification&) = default;
};

Classification classify(const Form& f) {
  Classification c;
  if (f.features & kSet) {
    c = {TimexType::Set, HaremType::Frequency, HaremSubtype::None};
  } else if (f.interval) {
    c = {TimexType::Date, HaremType::CalendarRef, HaremSubtype::Interval};
  } else if (f.features & (kClock | kDaypart)) {
    c = {TimexType::Time, HaremType::CalendarRef, HaremSubtype::Hour};
  } else if ((f.features & kUnit) && (f.features & kQuantity) &&
             !(f.features & (kRelational | kCalendar | kDeictic))) {
    c = {TimexType::Duration, HaremType::Duration, HaremSubtype::None};
  }
  return c;
}

std::string join_regex(const std::vector<std::string>& tokens) {
  std::string out;
  for (const std::string& t : tokens) {
    if (t == ",") {
      out += ",";
      continue;
    }
    if (!out.empty()) out.push_back(' ');
    out += t;
  }
  return out;
}

std::string collapse_spaces(std::string_view s) {
  std::string out;
  bool space = false;
  for (char c : s) {
    if (c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v') {
      space = !out.empty();
    } else {
      if (space) out.push_back(' ');
      space = false;
      out.push_back(c);
    }
  }
  return out;
}

// 64-bit FNV-1a: a short, stable id for a regex.
std::string regex_id(std::string_view regex) {
  std::uint64_t h = 14695981039346656037ull;
  for (char c : regex) {
    h ^= static_cast<unsigned char>(c);
    h *= 1099511628211ull;
  }
  static constexpr char kHex[] = "0123456789abcdef";
  std::string id = "L-";
  for (int shift = 44; shift >= 0; shift -= 4) id.push_back(kHex[(h >> shift) & 0xF]);
  return id;
}

}  // namespace

struct PatternLearner::Impl {
  const Lexicon& lexicon;
  LearnerOptions options;
  LearnerStats stats;

  std::unordered_map<std::string, Reading> phrases;
  std::unordered_set<std::string> prefixes;  // first words of multi-word phrases
  std::vector<std::pair<ShapeRole, std::unique_ptr<RE2>>> shapes;

  std::unordered_map<std::string, std::size_t> index;  // key → forms
  std::vector<Form> forms;

  std::string folded;
  std::vector<Token> tokens;

  Impl(const Lexicon& lex, const LearnerOptions& opt) : lexicon(lex), options(opt) {
    options.window = std::max(1, options.window);
    auto add_class = [&](const ClassRole& r) {
      for (const std::string& phrase : lexicon.phrases(r.cls)) {
        Reading& reading = phrases[phrase];
        reading.features |= r.features;
        if (r.priority < reading.priority) {
          reading.priority = r.priority;
          reading.role = r.role;
          reading.form = r.tagged ? tag_form(r.cls) : escape_literal(phrase);
        }
        if (const std::size_t sp = phrase.find(' '); sp != std::string::npos) prefixes.insert(phrase.substr(0, sp));
      }
    };
    for (const ClassRole& r : kClassRoles) add_class(r);
    add_class(kNegAfterRole);
    // Phrases that begin with a preposition ("na véspera", "no passado")
    // cannot open a pattern: the match would start at the preposition.
    for (auto& [phrase, reading] : phrases) {
      const std::size_t sp = phrase.find(' ');
      if (sp != std::string::npos && lexicon.in_class(phrase.substr(0, sp), "PREPOSITION"))
        reading.features |= kOpensWithPreposition;
    }
    // A phrase is dropped at the start (or end) only if all its readings
    // allow it: "a" (preposition and connector) yes, "por" (also a
    // frequency word) not at the end.
    for (auto& [phrase, reading] : phrases) {
      for (const ClassRole& r : kClassRoles) {
        if (!lexicon.in_class(phrase, r.cls)) continue;
        if (!(r.features & kStripLead)) reading.features &= ~static_cast<std::uint32_t>(kStripLead);
        if (!(r.features & kStripTrail)) reading.features &= ~static_cast<std::uint32_t>(kStripTrail);
      }
    }
    RE2::Options re_options;
    re_options.set_encoding(RE2::Options::EncodingUTF8);
    re_options.set_log_errors(false);
    for (const ShapeRole& s : kShapes) {
      if (!lexicon.has_tag(s.tag)) continue;
      auto rx = lexicon.expand("tag_" + std::string(s.tag));
      if (!rx.ok()) continue;
      auto re = std::make_unique<RE2>(*rx, re_options);
      if (re->ok()) shapes.emplace_back(s, std::move(re));
    }
  }

  // Step 1: tokens of one document.
  void tokenize(std::string_view text) {
    fold_text(text, &folded);
    tokens.clear();
    const std::string_view f = folded;
    std::vector<std::pair<std::size_t, std::size_t>> words;  // per run between punctuation
    std::size_t i = 0;
    while (i < f.size()) {
      const char c = f[i];
      std::size_t n = word_char_length(f, i);
      if (n == 0) {
        if (c == ',') {
          tokens.push_back(Token{i, i + 1, Role::Comma, ",", 0});
        } else if (c != ' ' && c != '\t' && c != '\n' && c != '\r') {
          // Any other punctuation ends the run.
          if (tokens.empty() || tokens.back().role != Role::Boundary)
            tokens.push_back(Token{i, i + 1, Role::Boundary, "", 0});
        }
        ++i;
        continue;
      }
      // A word: word characters, joined by single . / - : between them.
      const std::size_t start = i;
      while (i < f.size()) {
        if ((n = word_char_length(f, i)) > 0) {
          i += n;
          continue;
        }
        const char j = f[i];
        if ((j == '.' || j == '/' || j == '-' || j == ':') && i + 1 < f.size() && word_char_length(f, i + 1) > 0) {
          ++i;
          continue;
        }
        break;
      }
      std::size_t end = i;
      // "av." and "séc.": a trailing period that the lexicon knows.
      if (end < f.size() && f[end] == '.' && phrases.count(std::string(f.substr(start, end + 1 - start)))) {
        ++end;
        i = end;
      }
      tokens.push_back(Token{start, end, Role::None, "", 0});
      ++stats.words;
    }
    // Readings: longest lexicon phrase first, then shapes.
    std::vector<Token> read;
    read.reserve(tokens.size());
    const std::size_t max_words = lexicon.max_phrase_words();
    for (std::size_t k = 0; k < tokens.size();) {
      Token t = tokens[k];
      if (t.role == Role::Comma || t.role == Role::Boundary) {
        read.push_back(std::move(t));
        ++k;
        continue;
      }
      const std::string first(f.substr(t.start, t.end - t.start));
      std::size_t taken = 0;
      if (prefixes.count(first) > 0) {
        for (std::size_t len = std::min(max_words, tokens.size() - k); len >= 2 && taken == 0; --len) {
          std::string phrase = first;
          bool plain = true;
          for (std::size_t m = 1; m < len && plain; ++m) {
            const Token& next = tokens[k + m];
            if (next.role == Role::Comma || next.role == Role::Boundary) plain = false;
            phrase += ' ';
            phrase.append(f.substr(next.start, next.end - next.start));
          }
          if (!plain) continue;
          if (auto it = phrases.find(phrase); it != phrases.end()) {
            t.end = tokens[k + len - 1].end;
            t.role = it->second.role;
            t.form = it->second.form;
            t.features = it->second.features;
            taken = len;
          }
        }
      }
      if (taken == 0) {
        taken = 1;
        if (auto it = phrases.find(first); it != phrases.end()) {
          t.role = it->second.role;
          t.form = it->second.form;
          t.features = it->second.features;
        } else if (first[0] >= '0' && first[0] <= '9') {
          for (const auto& [shape, re] : shapes) {
            if (RE2::FullMatch(first, *re)) {
              t.role = shape.role;
              t.form = tag_form(shape.tag);
              t.features = shape.features;
              // "12.º", "1ª": an ordinal in digits.
              if ((t.features & kQuantity) && (first.find("\xC2\xBA") != std::string::npos ||
                                                first.find("\xC2\xAA") != std::string::npos))
                t.features = (t.features & ~static_cast<std::uint32_t>(kQuantity)) | kOrdinal;
              break;
            }
          }
        }
      }
      if (t.role == Role::Anchor) ++stats.anchors;
      read.push_back(std::move(t));
      k += taken;
    }
    // A comma joins only parts of one date ("sexta-feira, 13 de outubro",
    // "1 de maio, 2010"); elsewhere it separates expressions.
    for (std::size_t k = 0; k < read.size(); ++k) {
      if (read[k].role != Role::Comma) continue;
      const bool joins = k > 0 && k + 1 < read.size() && (read[k - 1].features & kCalendar) &&
                         (read[k + 1].role == Role::Value || (read[k + 1].features & kCalendar));
      if (!joins) read[k].role = Role::Boundary;
    }
    tokens.swap(read);
  }

  static bool is_marker(const Token& t) {
    return t.role == Role::Anchor || t.role == Role::Value || t.role == Role::Grammar || t.role == Role::Comma;
  }

  // Steps 2 and 3 around the anchor at `a`; returns the kept span or nullopt.
  std::optional<std::pair<std::size_t, std::size_t>> window_at(std::size_t a) {
    const std::size_t w = static_cast<std::size_t>(options.window);
    std::size_t lo = a, hi = a;
    while (lo > 0 && a - (lo - 1) <= w && is_marker(tokens[lo - 1])) --lo;
    while (hi + 1 < tokens.size() && hi + 1 - a <= w && is_marker(tokens[hi + 1])) ++hi;
    // An interval opener stays when a connector and something after it follow.
    auto opens_interval = [&](std::size_t k) {
      if (!(tokens[k].features & kRangeFrom)) return false;
      for (std::size_t m = k + 1; m < hi; ++m)
        if (tokens[m].features & kRangeTo) return true;
      return false;
    };
    // Trimming, repeated until nothing changes:
    //  - leading prepositions and connectors go, unless they open an
    //    interval (a lone clock time or part of day then says nothing: a
    //    pattern "à noite" would start at the preposition and, matching
    //    leftmost, hide a longer expression such as "noite de sábado");
    //  - trailing connectors and words that cannot end an expression go;
    //  - a number leans on the word beside it: digits on a unit, a calendar
    //    word, an interval connector or another number ("15 de março",
    //    "três anos", not "84 em agosto");
    //    a number word on a unit or number only ("cento em dezembro" is
    //    not a date); a trailing number only on a unit, in digits ("dia
    //    15"), or on another number;
    //  - "depois", "antes", "atrás" end an expression only after a unit.
    bool changed = true;
    while (changed) {
      changed = false;
      while (lo < a && ((tokens[lo].features & kStripLead) || tokens[lo].role == Role::Comma) &&
             !opens_interval(lo)) {
        ++lo;
        changed = true;
      }
      while (hi > a && ((tokens[hi].features & kStripTrail) || tokens[hi].role == Role::Comma)) {
        --hi;
        changed = true;
      }
      // "por três meses" is a duration: a frequency word before a number
      // is a preposition there.
      if (lo < a && tokens[lo].role == Role::Grammar && (tokens[lo].features & kSet) &&
          tokens[lo + 1].role == Role::Value) {
        ++lo;
        changed = true;
      }
      if (lo < a && tokens[lo].role == Role::Value) {
        const std::uint32_t next = tokens[lo + 1].features;
        const std::uint32_t leans = (tokens[lo].features & kQuantity) && !(tokens[lo].features & kDigits)
                                        ? (kUnit | kDaypart | kClock | kQuantity | kOrdinal)
                                        : (kUnit | kCalendar | kDaypart | kClock | kRangeFrom | kRangeTo |
                                           kQuantity | kOrdinal);
        if (!(next & leans)) {
          ++lo;
          changed = true;
        }
      }
      if (hi > a && tokens[hi].role == Role::Value) {
        const std::uint32_t before = tokens[hi - 1].features;
        const bool leans = ((before & kUnit) && (tokens[hi].features & kDigits)) ||
                           (tokens[hi - 1].role == Role::Value);
        if (!leans) {
          --hi;
          changed = true;
        }
      }
      if (hi > a && (tokens[hi].features & kPostUnit) && !(tokens[hi - 1].features & kUnit)) {
        --hi;
        changed = true;
      }
    }
    // Two temporal words side by side belong to two expressions ("março
    // segundo o relatório", "em junho hoje choveu") unless the first is a
    // unit ("ano 2000") or both are tags ("março 2010"): cut between them.
    auto literal = [&](std::size_t k) { return tokens[k].form.rfind("tag_", 0) != 0; };
    for (std::size_t k = lo; k < hi; ++k) {
      if (tokens[k].role != Role::Anchor || tokens[k + 1].role != Role::Anchor) continue;
      if ((tokens[k].features & kUnit) || (!literal(k) && !literal(k + 1))) continue;
      if (k + 1 <= a) {
        lo = k + 1;
      } else {
        hi = k;
        break;
      }
    }
    if (tokens[lo].features & kOpensWithPreposition) {
      ++stats.pruned_grammar;
      return std::nullopt;
    }
    // Negative words nearby.
    for (std::size_t k = lo; k-- > 0 && lo - k <= w;) {
      if (tokens[k].role == Role::Boundary) break;
      if (tokens[k].features & kNegBefore) {
        ++stats.pruned_negative;
        return std::nullopt;
      }
    }
    for (std::size_t k = hi + 1; k < tokens.size() && k - hi <= w; ++k) {
      if (tokens[k].role == Role::Boundary) break;
      if (tokens[k].features & kNegAfter) {
        ++stats.pruned_negative;
        return std::nullopt;
      }
    }
    // Grammatical sense: a bare unit, part of day or clock time says
    // nothing by itself, and a doubled word is a slip.
    bool said = false;
    for (std::size_t k = lo; k <= hi; ++k) {
      const Token& t = tokens[k];
      if (t.role == Role::Value || t.role == Role::Grammar || (t.role == Role::Anchor && !(t.features & kBare)))
        said = true;
      if (k > lo && t.role == Role::Grammar && t.form == tokens[k - 1].form) {
        ++stats.pruned_grammar;
        return std::nullopt;
      }
    }
    if (!said) {
      ++stats.pruned_grammar;
      return std::nullopt;
    }
    return std::make_pair(lo, hi);
  }

  void add_text(std::string_view text) {
    ++stats.documents;
    stats.bytes += static_cast<long>(text.size());
    tokenize(text);
    std::vector<std::pair<std::size_t, std::size_t>> seen;  // spans kept since the last boundary
    for (std::size_t a = 0; a < tokens.size(); ++a) {
      if (tokens[a].role == Role::Boundary) {
        seen.clear();
        continue;
      }
      if (tokens[a].role != Role::Anchor) continue;
      const auto span = window_at(a);
      if (!span || std::find(seen.begin(), seen.end(), *span) != seen.end()) continue;
      seen.push_back(*span);
      ++stats.candidates;
      record(span->first, span->second, text);
    }
  }

  void record(std::size_t lo, std::size_t hi, std::string_view text) {
    std::string key;
    for (std::size_t k = lo; k <= hi; ++k) {
      key += tokens[k].form;
      key.push_back('\x1F');
    }
    auto [it, inserted] = index.emplace(std::move(key), forms.size());
    if (inserted) {
      Form f;
      for (std::size_t k = lo; k <= hi; ++k) {
        f.tokens.push_back(tokens[k].form);
        f.temporal.push_back(tokens[k].role == Role::Anchor || tokens[k].role == Role::Value);
        f.features |= tokens[k].features;
      }
      if (tokens[lo].features & kRangeFrom)
        for (std::size_t k = lo + 1; k <= hi; ++k) f.interval |= (tokens[k].features & kRangeTo) != 0;
      forms.push_back(std::move(f));
    }
    Form& f = forms[it->second];
    ++f.frequency;
    if (f.examples.size() < options.max_examples) {
      std::string example =
          collapse_spaces(std::string_view(folded).substr(tokens[lo].start, tokens[hi].end - tokens[lo].start));
      if (std::find(f.examples.begin(), f.examples.end(), example) == f.examples.end())
        f.examples.push_back(std::move(example));
    }
  }

  // Step 4b: one-position alternations.
  std::vector<Form> merged_forms() {
    std::vector<Form> all = forms;
    std::vector<Classification> classes;
    classes.reserve(all.size());
    for (const Form& f : all) classes.push_back(classify(f));
    // Candidate groups: (position, form with that position blanked, class).
    struct Group {
      long total = 0;
      std::string key;
      std::size_t position = 0;
      std::vector<std::size_t> members;
    };
    std::map<std::string, Group> groups;
    for (std::size_t i = 0; i < all.size(); ++i) {
      const Form& f = all[i];
      for (std::size_t p = 0; p < f.tokens.size(); ++p) {
        const std::string& t = f.tokens[p];
        if (t.rfind("tag_", 0) == 0 || t == ",") continue;
        // Alternatives gather around a temporal word the members share.
        bool shared_temporal = false;
        for (std::size_t q = 0; q < f.tokens.size(); ++q) shared_temporal |= q != p && f.temporal[q];
        if (!shared_temporal) continue;
        std::string key = std::to_string(p) + '\x1E' + std::to_string(static_cast<int>(classes[i].timex)) +
                          std::to_string(static_cast<int>(classes[i].harem)) +
                          std::to_string(static_cast<int>(classes[i].subtype)) + '\x1E';
        for (std::size_t q = 0; q < f.tokens.size(); ++q) {
          key += q == p ? std::string("\x1D") : f.tokens[q];
          key.push_back('\x1F');
        }
        Group& g = groups[key];
        g.key = key;
        g.position = p;
        g.total += f.frequency;
        g.members.push_back(i);
      }
    }
    std::vector<const Group*> order;
    for (const auto& [k, g] : groups)
      if (g.members.size() >= 2) order.push_back(&g);
    std::sort(order.begin(), order.end(), [](const Group* a, const Group* b) {
      return a->total != b->total ? a->total > b->total : a->key < b->key;
    });
    std::vector<bool> used(all.size(), false);
    std::vector<Form> out;
    for (const Group* g : order) {
      std::vector<std::size_t> members;
      for (std::size_t i : g->members)
        if (!used[i]) members.push_back(i);
      if (members.size() < 2) continue;
      std::sort(members.begin(), members.end(), [&](std::size_t a, std::size_t b) {
        return all[a].frequency != all[b].frequency ? all[a].frequency > all[b].frequency
                                                    : all[a].tokens < all[b].tokens;
      });
      Form m = all[members[0]];
      std::vector<std::string> alternatives;
      m.frequency = 0;
      m.examples.clear();
      for (std::size_t i : members) {
        used[i] = true;
        alternatives.push_back(all[i].tokens[g->position]);
        m.frequency += all[i].frequency;
        m.features |= all[i].features;
        for (const std::string& e : all[i].examples)
          if (m.examples.size() < options.max_examples &&
              std::find(m.examples.begin(), m.examples.end(), e) == m.examples.end())
            m.examples.push_back(e);
      }
      std::sort(alternatives.begin(), alternatives.end());
      std::string alternation = "(?:";
      for (std::size_t k = 0; k < alternatives.size(); ++k) {
        if (k) alternation.push_back('|');
        alternation += alternatives[k];
      }
      alternation.push_back(')');
      m.tokens[g->position] = alternation;
      out.push_back(std::move(m));
      ++stats.merged_groups;
    }
    for (std::size_t i = 0; i < all.size(); ++i)
      if (!used[i]) out.push_back(std::move(all[i]));
    return out;
  }

  std::vector<Pattern> patterns() {
    stats.distinct = static_cast<long>(forms.size());
    stats.merged_groups = 0;
    std::vector<Form> merged = merged_forms();
    std::vector<Pattern> out;
    for (const Form& f : merged) {
      if (f.frequency < options.min_frequency) continue;
      Pattern p;
      p.regex = join_regex(f.tokens);
      const Classification c = classify(f);
      p.timex = c.timex;
      p.harem_type = c.harem;
      p.harem_subtype = c.subtype;
      p.frequency = f.frequency;
      p.examples = f.examples;
      out.push_back(std::move(p));
    }
    std::sort(out.begin(), out.end(), [](const Pattern& a, const Pattern& b) {
      return a.frequency != b.frequency ? a.frequency > b.frequency : a.regex < b.regex;
    });
    std::unordered_set<std::string> ids;
    for (Pattern& p : out) {
      std::string id = regex_id(p.regex);
      for (int k = 2; !ids.insert(id).second; ++k) id = regex_id(p.regex) + "-" + std::to_string(k);
      p.id = id;
    }
    stats.patterns = static_cast<long>(out.size());
    return out;
  }
};

PatternLearner::PatternLearner(const Lexicon& lexicon, const LearnerOptions& options)
    : impl_(std::make_unique<Impl>(lexicon, options)) {}
PatternLearner::~PatternLearner() = default;
PatternLearner::PatternLearner(PatternLearner&&) noexcept = default;

void PatternLearner::add_text(std::string_view text) { impl_->add_text(text); }
std::vector<Pattern> PatternLearner::patterns() { return impl_->patterns(); }
const LearnerStats& PatternLearner::stats() const { return impl_->stats; }

std::string PatternLearner::file_header() const {
  const LearnerStats& s = impl_->stats;
  std::ostringstream h;
  h << "Learned patterns for Portuguese, written by `cronista learn` (co-occurrence\n"
    << "processor, method.md 2.1). Do not edit: re-learn, and curate in\n"
    << "pt.manual.patterns, which is layered over this file. Format: docs/patterns.md.\n"
    << "Re-learn from the source tree with:\n"
    << "  build/cronista learn --corpus ../shared/data/raw corpora --out patterns/pt.patterns\n"
    << "Corpus: " << s.documents << " documents, " << s.words << " words, " << s.bytes << " bytes.\n"
    << "Options: window " << impl_->options.window << ", minimum frequency " << impl_->options.min_frequency
    << ", " << impl_->options.max_examples << " examples.\n"
    << "Windows kept " << s.candidates << ", dropped for negative words " << s.pruned_negative
    << ", dropped as senseless " << s.pruned_grammar << "; distinct forms " << s.distinct << ", alternations "
    << s.merged_groups << ", patterns " << s.patterns << ".";
  return h.str();
}

Status for_each_corpus_text(const std::vector<std::string>& paths,
                            const std::function<void(std::string_view text)>& text_fn,
                            const std::function<void(const std::string& path)>& progress_fn,
                            const std::function<void(const std::string& problem)>& skipped_fn) {
  namespace fs = std::filesystem;
  std::vector<fs::path> files;
  for (const std::string& p : paths) {
    std::error_code ec;
    if (fs::is_directory(p, ec)) {
      std::vector<fs::path> found;
      for (auto it = fs::recursive_directory_iterator(p, ec); !ec && it != fs::recursive_directory_iterator();
           it.increment(ec))
        if (it->is_regular_file(ec) && (it->path().extension() == ".txt" || it->path().extension() == ".jsonl"))
          found.push_back(it->path());
      if (ec) return Status::Error("cannot walk '" + p + "': " + ec.message());
      std::sort(found.begin(), found.end());
      files.insert(files.end(), found.begin(), found.end());
    } else if (fs::is_regular_file(p, ec)) {
      files.emplace_back(p);
    } else {
      return Status::Error("corpus '" + p + "' not found");
    }
  }
  for (const fs::path& file : files) {
    std::ifstream in(file, std::ios::binary);
    if (!in) return Status::Error("cannot open '" + file.string() + "'");
    if (file.extension() == ".jsonl") {
      std::string line;
      std::size_t line_number = 0;
      while (std::getline(in, line)) {
        ++line_number;
        if (line.find_first_not_of(" \t\r") == std::string::npos) continue;
        nlohmann::json record = nlohmann::json::parse(line, nullptr, false);
        const char* problem = nullptr;
        auto text = record.end();
        if (record.is_discarded() || !record.is_object()) {
          problem = "not a JSON object";
        } else {
          text = record.find("text");
          if (text == record.end() || !text->is_string()) problem = "no \"text\" string";
        }
        if (problem != nullptr) {
          const std::string where = file.string() + ":" + std::to_string(line_number) + ": " + problem;
          if (!skipped_fn) return Status::Error(where);
          skipped_fn(where);
          continue;
        }
        text_fn(text->get_ref<const std::string&>());
      }
      if (in.bad()) return Status::Error("cannot read '" + file.string() + "'");
    } else {
      std::ostringstream ss;
      ss << in.rdbuf();
      if (in.bad()) return Status::Error("cannot read '" + file.string() + "'");
      text_fn(ss.str());
    }
    if (progress_fn) progress_fn(file.string());
  }
  return Status::Ok();
}

}  // namespace cronista::temporal
