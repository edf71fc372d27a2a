#include "temporal/pattern_set.h"

#include <algorithm>
#include <fstream>
#include <sstream>
#include <unordered_map>

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
  opt.set_max_mem(int64_t{40} << 20);
  RE2::Options set_opt = opt;
  set_opt.set_max_mem(int64_t{24} << 20);
  set->set_ = std::make_unique<RE2::Set>(set_opt, RE2::ANCHOR_BOTH);
  std::string combined = "[^\\p{L}\\p{N}](?:";
  // Rank: the last pattern (the curated layer comes last) wins ties, so
  // patterns are stored in reverse and the lowest index wins.
  std::reverse(patterns.begin(), patterns.end());
  for (std::size_t i = 0; i < patterns.size(); ++i) {
    const Pattern& p = patterns[i];
    if (!p.unless_next.empty() && lexicon.phrases(p.unless_next).empty())
      return R::Error(p.source + ": unless-next names unknown class '" + p.unless_next + "'");
    auto rx = lexicon.expand(p.regex);
    if (!rx.ok()) return R::Error(p.source + ": " + rx.status().message());
    RE2 check(*rx, opt);
    if (!check.ok()) return R::Error(p.source + ": bad regex: " + check.error());
    std::string error;
    if (set->set_->Add(*rx, &error) != static_cast<int>(i)) return R::Error(p.source + ": bad regex: " + error);
    if (i) combined.push_back('|');
    combined += "(?:" + *rx + ")";
  }
  combined += ")[^\\p{L}\\p{N}]";
  if (!set->set_->Compile()) return R::Error("pattern set too large to compile");
  set->combined_ = std::make_unique<RE2>(combined, opt);
  if (!set->combined_->ok()) return R::Error("cannot compile the combined pattern: " + set->combined_->error());
  set->patterns_ = std::move(patterns);
  return set;
}

bool PatternSet::next_match(std::string_view text, std::size_t from, Match* m) const {
  // Only the whole match is asked for: RE2 then needs its DFAs alone, no
  // submatch engine. The match is one boundary character, the expression,
  // one boundary character; both boundaries are cut off here.
  const re2::StringPiece whole(text.data(), text.size());
  while (from < text.size()) {
    re2::StringPiece found;
    if (!combined_->Match(whole, from, text.size(), RE2::UNANCHORED, &found, 1)) return false;
    std::size_t a = static_cast<std::size_t>(found.data() - text.data());
    std::size_t b = a + found.size();
    const unsigned char lead = static_cast<unsigned char>(text[a]);
    a += lead < 0x80 ? 1 : lead < 0xE0 ? 2 : lead < 0xF0 ? 3 : 4;
    --b;
    while (b > a && (static_cast<unsigned char>(text[b]) & 0xC0) == 0x80) --b;
    m->start = a;
    m->end = b;
    std::vector<int> hits;
    set_->Match(re2::StringPiece(text.data() + a, b - a), &hits);
    if (hits.empty()) {  // cannot happen: the span matched one alternative
      from = b > from ? b : from + 1;
      continue;
    }
    m->pattern = *std::min_element(hits.begin(), hits.end());
    return true;
  }
  return false;
}

}  // namespace cronista::temporal
