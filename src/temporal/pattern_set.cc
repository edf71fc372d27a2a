#include "temporal/pattern_set.h"

#include <algorithm>
#include <array>
#include <atomic>
#include <cctype>
#include <fstream>
#include <future>
#include <sstream>
#include <unordered_map>
#include <unordered_set>

#include "temporal/pattern_union.h"
#include "temporal/utf8.h"

namespace cronista::temporal {

namespace {

constexpr std::string_view kFormatLine = "format cronista-patterns 1";

std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t' || s.front() == '\r')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r')) s.remove_suffix(1);
  return s;
}

bool parse_timex(std::string_view s, TimexType* t) {
  if (s == "DATE") *t = TimexType::Date;
  else if (s == "TIME") *t = TimexType::Time;
  else if (s == "DURATION") *t = TimexType::Duration;
  else if (s == "SET") *t = TimexType::Set;
  else return false;
  return true;
}

bool parse_harem(std::string_view s, HaremType* t, HaremSubtype* st) {
  std::string_view type = s, sub;
  if (std::size_t sp = s.find(' '); sp != std::string_view::npos) {
    type = s.substr(0, sp);
    sub = trim(s.substr(sp + 1));
  }
  *st = HaremSubtype::None;
  if (type == "CALENDAR_REF") {
    *t = HaremType::CalendarRef;
    if (sub == "DATE") *st = HaremSubtype::Date;
    else if (sub == "HOUR") *st = HaremSubtype::Hour;
    else if (sub == "INTERVAL") *st = HaremSubtype::Interval;
    else return false;
    return true;
  }
  if (!sub.empty()) return false;
  if (type == "DURATION") *t = HaremType::Duration;
  else if (type == "FREQUENCY") *t = HaremType::Frequency;
  else if (type == "GENERIC") *t = HaremType::Generic;
  else return false;
  return true;
}

Result<std::string> read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return Result<std::string>::Error("cannot read pattern file '" + path + "'");
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

}  // namespace

Result<std::vector<Pattern>> parse_pattern_file(std::string_view name, std::string_view content,
                                                std::vector<std::string>* removed) {
  using R = Result<std::vector<Pattern>>;
  std::vector<Pattern> out;
  std::size_t line_no = 0;
  bool seen_format = false, in_record = false, has_regex = false, has_timex = false, has_harem = false;
  std::size_t record_line = 0;
  auto where = [&](std::size_t l) { return std::string(name) + ":" + std::to_string(l) + ": "; };
  auto close = [&]() -> Status {
    if (!in_record) return Status::Ok();
    in_record = false;
    if (!has_regex) return Status::Error(where(record_line) + "pattern '" + out.back().id + "' has no regex");
    if (!has_timex) return Status::Error(where(record_line) + "pattern '" + out.back().id + "' has no timex");
    if (!has_harem) return Status::Error(where(record_line) + "pattern '" + out.back().id + "' has no harem");
    return Status::Ok();
  };
  while (!content.empty()) {
    std::size_t eol = content.find('\n');
    std::string_view line = content.substr(0, eol);
    content.remove_prefix(eol == std::string_view::npos ? content.size() : eol + 1);
    ++line_no;
    line = trim(line);
    if (line.empty()) {
      if (Status s = close(); !s.ok()) return s;
      continue;
    }
    if (line.front() == '#') continue;
    std::string_view key = line, rest;
    if (std::size_t sp = line.find_first_of(" \t"); sp != std::string_view::npos) {
      key = line.substr(0, sp);
      rest = trim(line.substr(sp + 1));
    }
    if (!seen_format) {
      if (line != kFormatLine)
        return R::Error(where(line_no) + "expected '" + std::string(kFormatLine) + "' before any record");
      seen_format = true;
      continue;
    }
    if (key == "pattern") {
      if (Status s = close(); !s.ok()) return s;
      if (rest.empty() || rest.find(' ') != std::string_view::npos)
        return R::Error(where(line_no) + "pattern needs one id");
      out.push_back(Pattern{});
      out.back().id = std::string(rest);
      out.back().source = std::string(name) + ":" + std::to_string(line_no);
      in_record = true;
      has_regex = has_timex = has_harem = false;
      record_line = line_no;
      continue;
    }
    if (key == "remove") {
      if (Status s = close(); !s.ok()) return s;
      if (rest.empty()) return R::Error(where(line_no) + "remove needs an id");
      if (removed) removed->push_back(std::string(rest));
      continue;
    }
    if (!in_record) return R::Error(where(line_no) + "'" + std::string(key) + "' outside a pattern record");
    Pattern& p = out.back();
    if (key == "regex") {
      if (rest.empty()) return R::Error(where(line_no) + "empty regex");
      p.regex = std::string(rest);
      has_regex = true;
    } else if (key == "timex") {
      if (!parse_timex(rest, &p.timex))
        return R::Error(where(line_no) + "timex must be DATE, TIME, DURATION or SET, not '" + std::string(rest) + "'");
      has_timex = true;
    } else if (key == "harem") {
      if (!parse_harem(rest, &p.harem_type, &p.harem_subtype))
        return R::Error(where(line_no) + "bad harem classification '" + std::string(rest) + "'");
      has_harem = true;
    } else if (key == "freq") {
      std::string v(rest);
      char* end = nullptr;
      p.frequency = std::strtol(v.c_str(), &end, 10);
      if (v.empty() || *end != '\0' || p.frequency < 0)
        return R::Error(where(line_no) + "freq must be a non-negative integer");
    } else if (key == "scheme") {
      if (rest == "both") p.in_timeml = p.in_harem = true;
      else if (rest == "timeml") p.in_timeml = true, p.in_harem = false;
      else if (rest == "harem") p.in_timeml = false, p.in_harem = true;
      else return R::Error(where(line_no) + "scheme must be both, timeml or harem, not '" + std::string(rest) + "'");
    } else if (key == "unless-next") {
      if (rest.empty()) return R::Error(where(line_no) + "unless-next needs a class name");
      p.unless_next = std::string(rest);
    } else if (key == "example") {
      p.examples.push_back(std::string(rest));
    } else {
      return R::Error(where(line_no) + "unknown field '" + std::string(key) + "'");
    }
  }
  if (Status s = close(); !s.ok()) return s;
  if (!seen_format) return R::Error(std::string(name) + ": missing '" + std::string(kFormatLine) + "' line");
  return out;
}

std::string format_pattern_file(const std::vector<Pattern>& patterns, std::string_view header_comment) {
  std::string out;
  std::string_view h = header_comment;
  while (!h.empty()) {
    std::size_t eol = h.find('\n');
    out += "# ";
    out += h.substr(0, eol);
    out += "\n";
    h.remove_prefix(eol == std::string_view::npos ? h.size() : eol + 1);
  }
  out += std::string(kFormatLine) + "\n";
  for (const Pattern& p : patterns) {
    out += "\npattern " + p.id + "\n";
    out += "regex " + p.regex + "\n";
    out += "timex " + std::string(to_string(p.timex)) + "\n";
    out += "harem " + std::string(to_string(p.harem_type));
    if (p.harem_subtype != HaremSubtype::None) out += " " + std::string(to_string(p.harem_subtype));
    out += "\nfreq " + std::to_string(p.frequency) + "\n";
    if (!p.in_timeml || !p.in_harem) out += std::string("scheme ") + (p.in_timeml ? "timeml" : "harem") + "\n";
    if (!p.unless_next.empty()) out += "unless-next " + p.unless_next + "\n";
    for (const auto& e : p.examples) out += "example " + e + "\n";
  }
  return out;
}

Result<std::unique_ptr<PatternSet>> PatternSet::load(const std::vector<std::string>& files, const Lexicon& lexicon,
                                                     bool optional_missing) {
  std::vector<Pattern> all;
  for (const std::string& f : files) {
    auto text = read_file(f);
    if (!text.ok()) {
      if (optional_missing) continue;
      return text.status();
    }
    std::vector<std::string> removed;
    auto recs = parse_pattern_file(f, *text, &removed);
    if (!recs.ok()) return recs.status();
    // Later files replace records with the same id and may remove records.
    for (const auto& id : removed)
      all.erase(std::remove_if(all.begin(), all.end(), [&](const Pattern& p) { return p.id == id; }), all.end());
    for (Pattern& p : *recs) {
      all.erase(std::remove_if(all.begin(), all.end(), [&](const Pattern& q) { return q.id == p.id; }), all.end());
      all.push_back(std::move(p));
    }
  }
  if (all.empty()) return Result<std::unique_ptr<PatternSet>>::Error("no patterns loaded from the pattern files");
  return build(std::move(all), lexicon);
}

Result<std::unique_ptr<PatternSet>> PatternSet::build(std::vector<Pattern> patterns, const Lexicon& lexicon) {
  using R = Result<std::unique_ptr<PatternSet>>;
  auto set = std::make_unique<PatternSet>();
  RE2::Options opt;
  opt.set_encoding(RE2::Options::EncodingUTF8);
  opt.set_longest_match(true);
  opt.set_log_errors(false);
  // Generous while checking and sizing; the budgets of the matchers kept
  // are set below from the size of the compiled program.
  opt.set_max_mem(int64_t{256} << 20);
  // Every pattern may be preceded by prepositions and articles (the
  // PREPOSITION class), so that "às 17h" (learned with its preposition) and
  // "17h de 6 de novembro" start at the same place and the longest wins.
  std::string lead;
  if (!lexicon.phrases("PREPOSITION").empty()) {
    auto p = lexicon.expand("(?:tag_PREPOSITION )*");
    if (!p.ok()) return p.status();
    lead = *p;
  }
  std::vector<std::string> expanded, sources;
  expanded.reserve(patterns.size());
  sources.reserve(patterns.size());
  // flat_before[i]: the bytes of the patterns before i in a flat
  // alternation, "(?:rx)|" each (what the set's budgets are estimated from).
  std::vector<std::size_t> flat_before{0};
  // Rank: the last pattern (the curated layer comes last) wins ties, so
  // patterns are stored in reverse and the lowest index wins.
  std::reverse(patterns.begin(), patterns.end());
  for (std::size_t i = 0; i < patterns.size(); ++i) {
    const Pattern& p = patterns[i];
    if (!p.unless_next.empty() && lexicon.phrases(p.unless_next).empty())
      return R::Error(p.source + ": unless-next names unknown class '" + p.unless_next + "'");
    auto rx = lexicon.expand(p.regex);
    if (!rx.ok()) return R::Error(p.source + ": " + rx.status().message());
    // Each regex is checked when it joins the set below (RE2::Set::Add
    // parses it and names the error): compiling each alone as well cost a
    // fifth of the start-up.
    flat_before.push_back(flat_before.back() + rx->size() + 5);
    expanded.push_back(std::move(*rx));
    sources.push_back(p.regex);
  }
  // The combined program matches any pattern, their common beginnings
  // merged (pattern_union.h): only where a match ends is read from it.
  auto merged = lexicon.expand(pattern_union(sources));
  if (!merged.ok()) return merged.status();
  const std::string combined = lead + "(?:" + *merged + ")[^\\p{L}\\p{N}]";
  // Memory budgets. RE2 builds its DFAs lazily, state by state, as new text
  // is scanned, and keeps the states until the budget is spent; then it
  // drops them all and starts again. So the DFA caches grow with the variety
  // of the text seen, not with the number of documents, up to these bounds,
  // which are what the tagger costs in steady state. The bounds are set per
  // instruction of a program, because what RE2 needs before its DFA can
  // start at all (work queues, a few states) grows with the program.
  // Measured with the current patterns on the whole raw corpus scanned three
  // times (each pass after the first as fast as a pass with a budget of
  // 4,000 bytes an instruction means no reset): the combined program (87k
  // instructions) holds it at 1,100 bytes an instruction and more, and gets
  // 1,300 (113 MB); at 900 the DFA is rebuilt within every pass and scanning
  // is 40% slower; at 400 it cannot start and RE2 falls back to its NFA, a
  // hundred times slower. (The flat alternation of the same patterns, 125k
  // instructions, needed 840: the union's states are as large, in fewer
  // instructions.) The set gets 128 bytes per instruction of that flat
  // alternation (16 MB; its own program is ~1.4 times larger and RE2 refuses
  // to compile it below 64 bytes per instruction). On ever-new text the
  // tagger's heap levels off (bench/tagger_bench.cc, BM_TagMemoryPasses).
  // Small pattern sets get a floor.
  //
  // The combined program is compiled once (it is a large part of the
  // start-up): its budget is set from an estimate of its size, 0.60
  // instructions per byte of its source (the current patterns have 0.59, in
  // their union as in their flat alternation), and it is compiled again with
  // the size found when the estimate fell short of it or passed it by more
  // than a tenth; the set is then compiled again too, its estimate corrected
  // in the same proportion.
  constexpr int64_t kCombinedBytesPerInstruction = 1300, kSetBytesPerInstruction = 128;
  constexpr int64_t kFloor = int64_t{8} << 20;
  constexpr double kInstructionsPerSourceByte = 0.60;
  const RE2::Options probe_opt = opt;
  auto budget = [&](int64_t instructions) { return std::max(kFloor, instructions * kCombinedBytesPerInstruction); };
  auto combined_with = [&](int64_t instructions) {
    RE2::Options o = probe_opt;
    o.set_max_mem(budget(instructions));
    ++set->combined_compilations_;
    return std::make_unique<RE2>(combined, o);
  };
  const auto estimate = static_cast<int64_t>(static_cast<double>(combined.size()) * kInstructionsPerSourceByte);
  // The set is compiled in two parts, each on a thread of its own, while
  // the combined pattern compiles here: the three are most of the start-up,
  // and the set alone took longer than the combined pattern. The parts split
  // the patterns' source in halves.
  using SetResult = Result<std::unique_ptr<RE2::Set>>;
  const std::size_t parts = std::min<std::size_t>(2, expanded.size());
  std::vector<std::size_t> first(parts + 1, expanded.size());
  first[0] = 0;
  for (std::size_t k = 1; k < parts; ++k)
    first[k] = static_cast<std::size_t>(
        std::lower_bound(flat_before.begin(), flat_before.end(), (flat_before.back() * k + parts - 1) / parts) - flat_before.begin());
  auto part_with = [&](std::size_t k, double scale) -> SetResult {
    const std::size_t bytes = flat_before[first[k + 1]] - flat_before[first[k]];
    const auto instructions = static_cast<int64_t>(static_cast<double>(bytes) * kInstructionsPerSourceByte * scale);
    RE2::Options set_opt = opt;
    set_opt.set_max_mem(std::max(kFloor, instructions * kSetBytesPerInstruction));
    auto s = std::make_unique<RE2::Set>(set_opt, RE2::ANCHOR_BOTH);
    for (std::size_t i = first[k]; i < first[k + 1]; ++i) {
      std::string error;
      if (s->Add(expanded[i], &error) != static_cast<int>(i - first[k]))
        return SetResult::Error(patterns[i].source + ": bad regex: " + error);
    }
    if (!s->Compile()) return SetResult::Error("pattern set too large to compile");
    return s;
  };
  // Declared last: an early return waits here for the threads to end. (Where
  // no thread can be started, the parts are compiled at get().)
  std::vector<std::future<SetResult>> parts_compiled;
  for (std::size_t k = 0; k < parts; ++k)
    parts_compiled.push_back(std::async(std::launch::async | std::launch::deferred, part_with, k, 1.0));
  auto combined_failed = [&]() -> R {
    // A pattern that is not a regular expression: its part names it.
    for (auto& part : parts_compiled)
      if (auto named = part.get(); !named.ok()) return named.status();
    return R::Error("cannot compile the combined pattern: " + set->combined_->error());
  };
  set->combined_ = combined_with(estimate);
  if (!set->combined_->ok()) {
    // Perhaps only too large for the estimate's budget: the generous one says.
    set->combined_ = std::make_unique<RE2>(combined, probe_opt);
    ++set->combined_compilations_;
    if (!set->combined_->ok()) return combined_failed();
  }
  const int64_t instructions = set->combined_->ProgramSize();
  const bool estimate_off = [&] {
    const int64_t given = budget(estimate), needed = budget(instructions);
    return given < needed || (given - needed) * 10 > needed;
  }();
  if (estimate_off) {
    set->combined_ = combined_with(instructions);
    if (!set->combined_->ok()) return combined_failed();
  }
  for (std::size_t k = 0; k < parts; ++k) {
    auto compiled = parts_compiled[k].get();
    if (compiled.ok() && estimate_off)
      compiled = part_with(k, static_cast<double>(instructions) / static_cast<double>(std::max<int64_t>(1, estimate)));
    if (!compiled.ok()) return compiled.status();
    // A set whose DFA cannot start within its budget fails every match
    // (RE2::Set has no slower fallback): an error now, not silence later.
    std::vector<int> none;
    RE2::Set::ErrorInfo info{RE2::Set::kNoError};
    if (!(*compiled)->Match(" ", &none, &info) && info.kind == RE2::Set::kOutOfMemory)
      return R::Error("pattern set too large for its DFA memory budget");
    set->parts_.push_back(std::move(*compiled));
    set->part_first_.push_back(static_cast<int>(first[k]));
  }
  set->patterns_ = std::move(patterns);
  set->index_words(lexicon);
  return set;
}

namespace {

// Classes of grammatical glue: they may open or join an expression but never
// make one by themselves.
bool is_glue_class(std::string_view c) {
  return c == "PREPOSITION" || c == "ARTICLE" || c == "RANGE_FROM" || c == "RANGE_TO";
}

// Classes read only as context around an expression.
bool is_context_class(std::string_view c) {
  static constexpr std::string_view kContext[] = {"DURATION_CUE", "FUTURE_CUE", "FUTURE_SUFFIX", "PAST_CUE",
                                                  "PAST_SUFFIX", "NEG_BEFORE", "NEG_AFTER", "AGE_BEFORE",
                                                  "AGE_AFTER", "NOT_AFTER_ADVERB", "ENDING_WORD", "NEG_BEFORE_NUMBER", "ABBREVIATION",
                                                  "DIRECTION_FUTURE", "DIRECTION_PAST", "TOWN_FEAST",
                                                  "PLACE_PREPOSITION", "STREET", "NAME_CONNECTOR",
                                                  "PHONE_LABEL", "YEAR_PREPOSITION", "WEEKDAY_FOLLOWER",
                                                  "VERB_PLURAL_SUFFIX", "OFFSET_PREPOSITION",
                                                  "CLOCK_PREPOSITION", "TARGET_PREPOSITION"};
  for (auto g : kContext)
    if (c == g) return true;
  return false;
}

constexpr bool word_byte(unsigned char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c >= 0x80;
}

// What a byte is to next_match's word scan: 0 a word byte, 1 a separator of
// one byte, kSpecialByte a lead byte whose character decides (0xC2: « »;
// 0xE2: general punctuation).
constexpr unsigned char kSpecialByte = 2;
constexpr std::array<unsigned char, 256> kByteClass = [] {
  std::array<unsigned char, 256> t{};
  for (int c = 0; c < 256; ++c) t[c] = word_byte(static_cast<unsigned char>(c)) ? 0 : 1;
  t[0xC2] = t[0xE2] = kSpecialByte;
  return t;
}();

// Splits a phrase or a regex source into its runs of letters (tag names,
// escapes and character classes of a regex are skipped).
template <typename F>
void for_each_word(std::string_view s, bool regex, F&& f) {
  std::size_t i = 0;
  while (i < s.size()) {
    if (regex && s.compare(i, 4, "tag_") == 0) {
      i += 4;
      while (i < s.size() && is_tag_char(s[i])) ++i;
      continue;
    }
    if (regex && s[i] == '\\') {
      i += 2;
      continue;
    }
    if (regex && s[i] == '[') {
      i = regex_class_end(s, i);
      continue;
    }
    if (regex && s[i] == '(' && i + 1 < s.size() && s[i + 1] == '?') {  // (?: and friends
      i += 2;
      continue;
    }
    if (!word_byte(static_cast<unsigned char>(s[i])) || std::isdigit(static_cast<unsigned char>(s[i]))) {
      ++i;
      continue;
    }
    std::size_t j = i;
    while (j < s.size() && word_byte(static_cast<unsigned char>(s[j])) && !std::isdigit(static_cast<unsigned char>(s[j])))
      ++j;
    f(s.substr(i, j - i));
    i = j;
  }
}

}  // namespace

namespace {

// The NAMEs of the tag_NAME references in a regex source.
template <typename F>
void for_each_tag(std::string_view s, F&& f) {
  for (std::size_t i = s.find("tag_"); i != std::string_view::npos; i = s.find("tag_", i)) {
    i += 4;
    std::size_t j = i;
    while (j < s.size() && is_tag_char(s[j])) ++j;
    f(s.substr(i, j - i));
    i = j;
  }
}

}  // namespace

void PatternSet::index_words(const Lexicon& lexicon) {
  // The classes the patterns use, directly or through shape tags: only
  // their words can be part of a match (besides the patterns' literal
  // words); the others are read as context (EVENT_LINK "que", "de").
  std::unordered_set<std::string> used;
  std::vector<std::string> todo;
  auto use = [&](std::string_view name) {
    if (used.insert(std::string(name)).second) todo.emplace_back(name);
  };
  for (const Pattern& p : patterns_) for_each_tag(p.regex, use);
  while (!todo.empty()) {
    const std::string name = std::move(todo.back());
    todo.pop_back();
    if (const std::string* rx = lexicon.regex_source(name)) for_each_tag(*rx, use);
  }
  // Words of the lexicon's classes are markers (an expression must hold
  // one: a month, a unit, "hoje"…), except the grammatical glue
  // (prepositions, articles, interval connectors); context-only classes are
  // left out. The literal words of the patterns are markers too, unless glue.
  for (const std::string& cls : lexicon.tag_names()) {
    if (is_context_class(cls) || (!is_glue_class(cls) && used.count(cls) == 0)) continue;
    const unsigned char kind = is_glue_class(cls) ? kGlue : kMarker;
    for (const std::string& phrase : lexicon.phrases(cls))
      for_each_word(phrase, false, [&](std::string_view w) { words_[std::string(w)] |= kind; });
  }
  for (const Pattern& p : patterns_) {
    for_each_word(p.regex, true, [&](std::string_view w) {
      auto it = words_.find(w);
      if (it != words_.end() && it->second != 0) return;
      words_[std::string(w)] |= kMarker;
    });
  }
  // A word of the glue classes is glue only, even where a marker phrase
  // holds it ("de" in "de manhã", "a" in "a partir de"): an expression that
  // opens with it is tried from the marker after it, glue included, and the
  // commonest words of the language ("a", "de", "o") no longer each cost a
  // match attempt. Unless the word alone is an expression ("depois").
  std::vector<int> alone;
  for (auto& [word, kind] : words_) {
    if (!(kind & kGlue)) continue;
    kind = kGlue;
    match_first_part(word, &alone);
    if (!alone.empty()) kind |= kMarker;
  }
  std::size_t capacity = 16;
  while (capacity < 2 * words_.size()) capacity *= 2;
  word_slots_.assign(capacity, WordSlot{});
  word_mask_ = capacity - 1;
  for (const auto& [w, kind] : words_) {
    if (kind == 0) continue;
    std::size_t k = word_hash(w) & word_mask_;
    while (!word_slots_[k].word.empty()) k = (k + 1) & word_mask_;
    word_slots_[k] = WordSlot{w, kind};
  }
  prefixes_.assign(1 << 16, 0);
  for (const auto& [w, kind] : words_)
    if (kind != 0) prefixes_[prefix_key(w, 0, w.size())] |= length_bit(w.size());
}

bool PatternSet::next_match(std::string_view text, std::size_t from, Match* m) const {
  // Words are read left to right. Markers (lexicon and pattern words,
  // numbers) are where an expression can start; at each one every pattern is
  // tried at once, anchored, longest match. When one is found, the glue words
  // just before it (prepositions, articles) are tried too, earliest first, so
  // that a pattern spelling out its preposition ("às 17h") and one that does
  // not ("17h de 6 de novembro") compete on the longest match. Ordinary prose
  // costs one hash lookup per word.
  constexpr std::size_t kGlueBack = 3;
  std::size_t glue_start[kGlueBack];
  std::size_t glue_len = 0;
  std::size_t last_end = from;
  const std::size_t n = text.size();
  // The length of the character at text[k] when it separates words, as
  // is_word_char_at() reads quotes: ASCII punctuation and spaces, « and »,
  // and the general punctuation (quotes, dashes, ellipsis: U+2000…); 0 for
  // a word character. So "Natal»" and "“Agora" are words we know.
  auto separator = [&text, n](std::size_t k) -> std::size_t {
    const auto c = static_cast<unsigned char>(text[k]);
    if (const unsigned char b = kByteClass[c]; b != kSpecialByte) return b;
    if (c == 0xC2 && k + 1 < n) {
      const auto d = static_cast<unsigned char>(text[k + 1]);
      return d == 0xAB || d == 0xBB ? 2 : 0;  // « »; other signs ("©2001") stay glued
    }
    return c == 0xE2 && k + 2 < n ? 3 : 0;
  };
  std::size_t i = from;
  while (i < n) {
    for (std::size_t len; i < n && (len = separator(i)) > 0;) i += len;
    if (i >= n) break;
    // Sentence punctuation since the previous word ends the glue run.
    for (std::size_t k = last_end; k < i && glue_len > 0; ++k) {
      const char c = text[k];
      if (c == '!' || c == '?' || c == ';' || c == '"' || c == '(' || c == ')' || c == '.' || c == ':' || c == ',')
        glue_len = 0;
    }
    std::size_t j = i;
    bool digit = false;
    while (j < n) {
      const auto c = static_cast<unsigned char>(text[j]);
      const unsigned char b = kByteClass[c];
      if (b == 1 || (b == kSpecialByte && separator(j) > 0)) break;
      digit |= static_cast<unsigned char>(c - '0') < 10;
      ++j;
    }
    unsigned char kind = digit ? kMarker : 0;
    if (!digit && has_prefix(text, i, j)) {
      kind = word_kind(text.substr(i, j - i));
    }
    if (kind & kMarker) {
      if (try_at(text, i, m)) {
        for (std::size_t g = 0; g < glue_len; ++g) {
          Match earlier;
          if (try_at(text, glue_start[g], &earlier) && earlier.end >= m->end) {
            *m = earlier;
            break;
          }
        }
        return true;
      }
      // Nothing starts at the marker itself, but a pattern may open with the
      // glue before it ("durante meses").
      for (std::size_t g = 0; g < glue_len; ++g)
        if (try_at(text, glue_start[g], m) && m->end > i) return true;
      glue_len = 0;
    } else if (kind & kGlue) {
      if (glue_len == kGlueBack) {
        for (std::size_t k = 1; k < glue_len; ++k) glue_start[k - 1] = glue_start[k];
        --glue_len;
      }
      glue_start[glue_len++] = i;
    } else {
      glue_len = 0;
    }
    last_end = j;
    i = j;
  }
  return false;
}

bool PatternSet::try_at(std::string_view text, std::size_t start, Match* m) const {
  const re2::StringPiece whole(text.data(), text.size());
  re2::StringPiece found;
  if (!combined_->Match(whole, start, text.size(), RE2::ANCHOR_START, &found, 1)) return false;
  // The match ends with one boundary character, cut off here.
  std::size_t a = start;
  std::size_t b = a + found.size();
  --b;
  b = char_start_at_or_before(text, b, a);
  if (a >= b) return false;
  const std::string_view span = text.substr(a, b - a);
  SpanCache& cache = thread_span_cache();
  SpanClass c;
  if (auto it = cache.find(span); it != cache.end()) {
    c = it->second;
  } else {
    c = classify(text, a, b);
    if (cache.size() >= kSpanCacheSize) cache.clear();
    cache.emplace(std::string(span), c);
  }
  if (c.pattern < 0) return false;
  m->start = a + c.dropped;
  m->end = b;
  m->pattern = c.pattern;
  return true;
}

std::uint64_t PatternSet::new_id() {
  static std::atomic<std::uint64_t> last{0};
  return ++last;
}

PatternSet::SpanCache& PatternSet::thread_span_cache() const {
  thread_local std::uint64_t owner = 0;
  thread_local SpanCache spans;
  if (owner != id_) {
    spans.clear();
    owner = id_;
  }
  return spans;
}

void PatternSet::match_first_part(re2::StringPiece span, std::vector<int>* hits) const {
  hits->clear();
  for (std::size_t k = 0; k < parts_.size() && hits->empty(); ++k) {
    parts_[k]->Match(span, hits);
    for (int& h : *hits) h += part_first_[k];
  }
}

PatternSet::SpanClass PatternSet::classify(std::string_view text, std::size_t a, std::size_t b) const {
  // The span may open with prepositions the pattern itself does not spell
  // out: drop them one word at a time until a pattern matches it.
  const std::size_t first = a;
  std::vector<int> hits;
  while (a < b) {
    match_first_part(re2::StringPiece(text.data() + a, b - a), &hits);
    if (!hits.empty()) break;
    std::size_t sp = text.find(' ', a);
    if (sp == std::string_view::npos || sp >= b) break;
    a = sp;
    while (a < b && text[a] == ' ') ++a;
  }
  SpanClass c;
  if (hits.empty()) return c;
  c.dropped = a - first;
  c.pattern = *std::min_element(hits.begin(), hits.end());
  return c;
}

}  // namespace cronista::temporal
