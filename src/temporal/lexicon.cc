// Loading is a line parser; expansion turns a class into a regular
// expression alternation of its phrases in byte order, with metacharacters
// quoted and single spaces widened to " +". Byte order puts phrases with a
// common beginning side by side ("segunda", "segunda +feira",
// "segunda-feira"), and RE2 merges the beginnings of neighbouring
// alternatives into one: the tagger's combined program is a sixth smaller,
// and its DFA states, which hold sets of program instructions, smaller too.
// Every expansion is matched where the order of alternatives does not
// matter (leftmost-longest, or the whole text: pattern_set.cc,
// pattern_learner.cc); phrases() keeps its longest-first order.
#include "temporal/lexicon.h"

#include <re2/re2.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>

namespace cronista::temporal {

namespace {

std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t' || s.front() == '\r')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r')) s.remove_suffix(1);
  return s;
}

std::string quote_phrase(std::string_view phrase) {
  std::string out;
  for (char c : phrase) {
    if (c == ' ') {
      out += " +";
    } else if ((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || static_cast<unsigned char>(c) >= 0x80) {
      out.push_back(c);
    } else {
      out.push_back('\\');
      out.push_back(c);
    }
  }
  return out;
}

}  // namespace

Result<Lexicon> Lexicon::load(const std::string& dir) {
  namespace fs = std::filesystem;
  std::error_code ec;
  if (!fs::is_directory(dir, ec)) return Result<Lexicon>::Error("resources folder '" + dir + "' not found");
  std::vector<fs::path> files;
  for (const auto& e : fs::directory_iterator(dir, ec))
    if (e.path().extension() == ".txt") files.push_back(e.path());
  if (ec) return Result<Lexicon>::Error("cannot list '" + dir + "': " + ec.message());
  if (files.empty()) return Result<Lexicon>::Error("resources folder '" + dir + "' has no .txt files");
  std::sort(files.begin(), files.end());
  Lexicon lex;
  for (const auto& f : files) {
    std::ifstream in(f, std::ios::binary);
    if (!in) return Result<Lexicon>::Error("cannot read '" + f.string() + "'");
    std::ostringstream ss;
    ss << in.rdbuf();
    if (Status s = lex.add_file(f.string(), ss.str()); !s.ok()) return s;
  }
  return lex;
}

Status Lexicon::add_file(std::string_view name, std::string_view content) {
  std::string cls;
  std::size_t line_no = 0;
  auto err = [&](const std::string& what) {
    return Status::Error(std::string(name) + ":" + std::to_string(line_no) + ": " + what);
  };
  while (!content.empty()) {
    std::size_t eol = content.find('\n');
    std::string_view line = content.substr(0, eol);
    content.remove_prefix(eol == std::string_view::npos ? content.size() : eol + 1);
    ++line_no;
    if (std::size_t c = line.find("  #"); c != std::string_view::npos) line = line.substr(0, c);
    line = trim(line);
    if (line.empty() || line.front() == '#') continue;
    if (line.substr(0, 7) == "@class ") {
      cls = std::string(trim(line.substr(7)));
      if (cls.empty() || !std::all_of(cls.begin(), cls.end(), is_tag_char))
        return err("class name must be upper-case letters, digits or _");
      classes_[cls];
      continue;
    }
    if (line.substr(0, 7) == "@regex ") {
      std::string_view rest = trim(line.substr(7));
      std::size_t sp = rest.find(' ');
      if (sp == std::string_view::npos) return err("@regex needs a name and an expression");
      std::string tag(rest.substr(0, sp));
      std::string rx(trim(rest.substr(sp + 1)));
      if (!std::all_of(tag.begin(), tag.end(), is_tag_char)) return err("bad @regex name '" + tag + "'");
      regexes_[tag] = rx;
      continue;
    }
    if (line.front() == '@') return err("unknown directive '" + std::string(line) + "'");
    if (cls.empty()) return err("entry before any @class");
    std::string phrase, value;
    if (std::size_t eq = line.find(" = "); eq != std::string_view::npos) {
      phrase = std::string(trim(line.substr(0, eq)));
      value = std::string(trim(line.substr(eq + 3)));
    } else {
      phrase = std::string(line);
    }
    if (phrase.empty()) return err("empty phrase");
    for (char c : phrase)
      if (c >= 'A' && c <= 'Z') return err("phrase '" + phrase + "' must be lower-case");
    if (phrase.find("  ") != std::string::npos) return err("phrase '" + phrase + "' has a double space");
    auto& list = entries_[phrase];
    bool dup = false;
    for (const auto& e : list) dup |= e.cls == cls && e.value == value;
    if (!dup) {
      list.push_back(LexEntry{cls, value});
      classes_[cls].push_back(phrase);
    }
    max_words_ = std::max<std::size_t>(max_words_, 1 + std::count(phrase.begin(), phrase.end(), ' '));
  }
  for (auto& [c, list] : classes_) {
    std::sort(list.begin(), list.end(), [](const std::string& a, const std::string& b) {
      return a.size() != b.size() ? a.size() > b.size() : a < b;
    });
    list.erase(std::unique(list.begin(), list.end()), list.end());
  }
  return Status::Ok();
}

const std::vector<LexEntry>* Lexicon::lookup(std::string_view phrase) const {
  auto it = entries_.find(phrase);
  return it == entries_.end() ? nullptr : &it->second;
}

const std::string* Lexicon::value(std::string_view phrase, std::string_view cls) const {
  const auto* list = lookup(phrase);
  if (list == nullptr) return nullptr;
  for (const auto& e : *list)
    if (e.cls == cls) return &e.value;
  return nullptr;
}

const std::vector<std::string>& Lexicon::phrases(std::string_view cls) const {
  static const std::vector<std::string> kNone;
  auto it = classes_.find(std::string(cls));
  return it == classes_.end() ? kNone : it->second;
}

const std::string* Lexicon::regex_source(std::string_view name) const {
  auto r = regexes_.find(std::string(name));
  return r == regexes_.end() ? nullptr : &r->second;
}

bool Lexicon::has_tag(std::string_view name) const {
  std::string n(name);
  return classes_.count(n) > 0 || regexes_.count(n) > 0;
}

std::vector<std::string> Lexicon::tag_names() const {
  std::vector<std::string> out;
  for (const auto& [c, _] : classes_) out.push_back(c);
  for (const auto& [r, _] : regexes_) out.push_back(r);
  std::sort(out.begin(), out.end());
  return out;
}

Result<std::string> Lexicon::expand_tag(const std::string& name, int depth) const {
  if (auto r = regexes_.find(name); r != regexes_.end()) {
    auto inner = expand_depth(r->second, depth + 1);
    if (!inner.ok()) return inner;
    return "(?:" + *inner + ")";
  }
  auto c = classes_.find(name);
  if (c == classes_.end()) return Result<std::string>::Error("unknown tag 'tag_" + name + "'");
  if (c->second.empty()) return Result<std::string>::Error("tag 'tag_" + name + "' has no phrases");
  std::vector<std::string_view> ordered(c->second.begin(), c->second.end());
  std::sort(ordered.begin(), ordered.end());
  std::string out = "(?:";
  for (std::size_t i = 0; i < ordered.size(); ++i) {
    if (i) out.push_back('|');
    out += quote_phrase(ordered[i]);
  }
  out.push_back(')');
  return out;
}

std::size_t regex_class_end(std::string_view s, std::size_t i) {
  std::size_t j = i + 1;
  if (j < s.size() && s[j] == '^') ++j;
  if (j < s.size() && s[j] == ']') ++j;
  for (; j < s.size() && s[j] != ']'; ++j)
    if (s[j] == '\\') ++j;
  return std::min(j + 1, s.size());
}

Result<std::string> Lexicon::expand(std::string_view pattern) const { return expand_depth(pattern, 0); }

Result<std::string> Lexicon::expand_depth(std::string_view p, int depth) const {
  if (depth > 8) return Result<std::string>::Error("tags nested too deeply in '" + std::string(p) + "'");
  std::string out;
  for (std::size_t i = 0; i < p.size(); ++i) {
    const char c = p[i];
    if (c == '\\' && i + 1 < p.size()) {
      out.push_back(c);
      out.push_back(p[++i]);
      continue;
    }
    if (c == '[') {  // a class is copied as it is
      const std::size_t end = regex_class_end(p, i);
      out.append(p.substr(i, end - i));
      i = end - 1;
      continue;
    }
    if (c == ' ') {
      // " " is one or more spaces; " ?" and " *" any number, " +" as " ".
      if (i + 1 < p.size() && (p[i + 1] == '?' || p[i + 1] == '*')) {
        out += " *";
        ++i;
      } else {
        out += " +";
        if (i + 1 < p.size() && p[i + 1] == '+') ++i;
      }
      continue;
    }
    if (c == 't' && p.substr(i, 4) == "tag_" && (i == 0 || !is_tag_char(p[i - 1]))) {
      std::size_t j = i + 4;
      while (j < p.size() && is_tag_char(p[j])) ++j;
      std::string name(p.substr(i + 4, j - i - 4));
      if (name.empty()) return Result<std::string>::Error("empty tag name in '" + std::string(p) + "'");
      auto t = expand_tag(name, depth);
      if (!t.ok()) return t;
      out += *t;
      i = j - 1;
      continue;
    }
    out.push_back(c);
  }
  return out;
}

}  // namespace cronista::temporal
