#include "temporal/pattern_union.h"

#include <algorithm>
#include <map>
#include <memory>

#include "temporal/lexicon.h"

namespace cronista::temporal {

namespace {

// The end of the group that opens at s[i] ('('), escapes and classes
// skipped; the end of the text when it is not closed (RE2 names the error).
std::size_t group_end(std::string_view s, std::size_t i) {
  int depth = 0;
  for (std::size_t j = i; j < s.size(); ++j) {
    if (s[j] == '\\') {
      ++j;
    } else if (s[j] == '[') {
      j = regex_class_end(s, j) - 1;
    } else if (s[j] == '(') {
      ++depth;
    } else if (s[j] == ')' && --depth == 0) {
      return j + 1;
    }
  }
  return s.size();
}

struct Node {
  std::map<std::string, std::unique_ptr<Node>> next;
  bool end = false;  // a pattern ends here
};

std::string write(const Node& node) {
  // Children that continue alike are written once: (?:a|b)rest, in the
  // order of their first atoms.
  std::vector<std::pair<std::string, std::vector<const std::string*>>> by_rest;
  std::map<std::string, std::size_t> rest_index;
  for (const auto& [atom, child] : node.next) {
    std::string rest = write(*child);
    auto [it, fresh] = rest_index.emplace(rest, by_rest.size());
    if (fresh) by_rest.emplace_back(std::move(rest), std::vector<const std::string*>{});
    by_rest[it->second].second.push_back(&atom);
  }
  std::vector<std::string> branches;
  for (const auto& [rest, atoms] : by_rest) {
    if (atoms.size() == 1) {
      branches.push_back(*atoms[0] + rest);
      continue;
    }
    std::string group = "(?:";
    for (std::size_t i = 0; i < atoms.size(); ++i) {
      if (i) group.push_back('|');
      group += *atoms[i];
    }
    branches.push_back(group + ")" + rest);
  }
  if (branches.empty()) return {};
  if (branches.size() == 1 && !node.end) return branches[0];
  std::string out = "(?:";
  for (std::size_t i = 0; i < branches.size(); ++i) {
    if (i) out.push_back('|');
    out += branches[i];
  }
  out.push_back(')');
  if (node.end) out.push_back('?');
  return out;
}

}  // namespace

std::optional<std::vector<std::string>> pattern_atoms(std::string_view s) {
  std::vector<std::string> atoms;
  std::size_t i = 0;
  while (i < s.size()) {
    const char c = s[i];
    std::size_t j = i + 1;
    if (c == '|') return std::nullopt;
    if (c == '(') {
      // A flag group without a colon, "(?i)", changes the flags of all that
      // follows in the enclosing group, other alternatives included: the
      // source stays whole, flags within its own group.
      if (s.compare(i, 2, "(?") == 0 && i + 2 < s.size() && s[i + 2] != ':' && s[i + 2] != 'P' && s[i + 2] != '<') {
        const std::size_t close = s.find_first_of(":)", i + 2);
        if (close != std::string_view::npos && s[close] == ')') return std::nullopt;
      }
      j = group_end(s, i);
    } else if (c == '[') {
      j = regex_class_end(s, i);
    } else if (c == '\\') {
      j = std::min(i + 2, s.size());
    } else if (s.compare(i, 4, "tag_") == 0 && (i == 0 || !is_tag_char(s[i - 1]))) {
      j = i + 4;
      while (j < s.size() && is_tag_char(s[j])) ++j;
    } else if (static_cast<unsigned char>(c) >= 0xC0) {
      // A quantifier after a multi-byte character repeats all of it.
      while (j < s.size() && (static_cast<unsigned char>(s[j]) & 0xC0) == 0x80) ++j;
    }
    // Its quantifiers ("?", "+?", "{2,4}"): a space's too, which
    // Lexicon::expand reads with it (" ?" is any number of spaces).
    for (;;) {
      if (j < s.size() && (s[j] == '?' || s[j] == '*' || s[j] == '+')) {
        ++j;
      } else if (j < s.size() && s[j] == '{' && s.find('}', j) != std::string_view::npos) {
        j = s.find('}', j) + 1;
      } else {
        break;
      }
    }
    atoms.emplace_back(s.substr(i, j - i));
    i = j;
  }
  return atoms;
}

std::string pattern_union(const std::vector<std::string>& sources) {
  Node root;
  for (const std::string& source : sources) {
    auto atoms = pattern_atoms(source);
    if (!atoms) atoms = std::vector<std::string>{"(?:" + source + ")"};
    Node* node = &root;
    for (std::string& atom : *atoms) {
      auto& child = node->next[std::move(atom)];
      if (!child) child = std::make_unique<Node>();
      node = child.get();
    }
    node->end = true;
  }
  return write(root);
}

}  // namespace cronista::temporal
