// The span cut into tokens: greedy longest lexicon phrases, numbers in
// digits or words merged into one token ("vinte e cinco", "7 mil"), numeric
// year ranges ("1939-1945", "2005/06") split in three; and the small text and
// number functions the rules share.
#include "temporal/resolver_rules.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>

#include "temporal/text_fold.h"

namespace cronista::temporal::resolver_rules {

bool all_digits(std::string_view s) {
  if (s.empty()) return false;
  for (char c : s)
    if (c < '0' || c > '9') return false;
  return true;
}

std::string_view word_at(std::string_view t, std::size_t p) {
  if (p >= t.size()) return {};
  while (p < t.size() && t[p] == ' ') ++p;
  std::size_t e = p;
  while (e < t.size() && is_word_char_at(t, e)) ++e;
  return t.substr(p, e - p);
}

long to_long(std::string_view s) { return std::strtol(std::string(s).c_str(), nullptr, 10); }

std::string pad(long v, int width) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%0*ld", width, v);
  return buf;
}

int roman_value(std::string_view s) {
  if (s.empty() || s.size() > 8) return -1;
  auto val = [](char c) {
    switch (c) {
      case 'i': return 1;
      case 'v': return 5;
      case 'x': return 10;
      case 'l': return 50;
      case 'c': return 100;
      default: return 0;
    }
  };
  int total = 0;
  for (std::size_t i = 0; i < s.size(); ++i) {
    int v = val(s[i]);
    if (v == 0) return -1;
    int next = i + 1 < s.size() ? val(s[i + 1]) : 0;
    total += v < next ? -v : v;
  }
  return total > 0 ? total : -1;
}

Anchor anchor_of(const Date& d) { return Anchor{d.year, d.month, d.day}; }

std::size_t digits_at(std::string_view s, std::size_t i) {
  std::size_t j = i;
  while (j < s.size() && s[j] >= '0' && s[j] <= '9') ++j;
  return j - i;
}

}  // namespace cronista::temporal::resolver_rules

namespace cronista::temporal {

using namespace resolver_rules;

const std::string* Resolver::Token::get(std::string_view cls) const {
  if (entries == nullptr) return nullptr;
  for (const auto& e : *entries)
    if (e.cls == cls) return &e.value;
  return nullptr;
}

std::vector<Resolver::Token> Resolver::tokenize(std::string_view span) const {
  // Raw words, with their byte ranges in the span.
  std::vector<std::string> raw;
  std::vector<std::pair<std::size_t, std::size_t>> at;
  std::string cur;
  std::size_t cur_start = 0;
  auto flush = [&]() {
    if (cur.empty()) return;
    // "1939-1945", "1939–1945", "2005/06": a numeric range of years is three tokens.
    std::size_t dash = cur.find('-');
    std::size_t en = cur.find("\xE2\x80\x93");
    std::size_t slash = cur.find('/');
    std::size_t cut = dash != std::string::npos ? dash : en != std::string::npos ? en : slash;
    std::size_t cut_len = cut == en && en != std::string::npos ? 3 : 1;
    std::string left = cut != std::string::npos ? cur.substr(0, cut) : "";
    std::string right = cut != std::string::npos ? cur.substr(cut + cut_len) : "";
    if (cut != std::string::npos && cut > 0 && all_digits(left) && all_digits(right) &&
        (cut != slash || (left.size() == 4 && (right.size() == 4 || right.size() == 2)))) {
      if (left.size() == 4 && right.size() == 2) right = left.substr(0, 2) + right;  // 2005/06
      raw.push_back(left);
      at.emplace_back(cur_start, cur_start + cut);
      raw.push_back("-");
      at.emplace_back(cur_start + cut, cur_start + cut + cut_len);
      raw.push_back(right);
      at.emplace_back(cur_start + cut + cut_len, cur_start + cur.size());
    } else {
      raw.push_back(cur);
      at.emplace_back(cur_start, cur_start + cur.size());
    }
    cur.clear();
  };
  for (std::size_t i = 0; i < span.size(); ++i) {
    const char c = span[i];
    // "julho/2007", "12/julho/2007": a month written between slashes; numeric
    // dates ("12/06/2007") stay whole.
    const bool letters = std::any_of(cur.begin(), cur.end(), [](char x) {
      return !(x >= '0' && x <= '9') && x != '/' && x != '.' && x != '-';
    });
    const bool letter_next = i + 1 < span.size() && span[i + 1] != ' ' && !(span[i + 1] >= '0' && span[i + 1] <= '9');
    if (c == '/' && !cur.empty() && (letters || (all_digits(cur) && letter_next))) {
      flush();
    } else if (c == ' ') {
      flush();
    } else if (c == ',' || c == ';' || c == '(' || c == ')' || c == '"' ||
               (c == '\'' && cur.empty() && i + 1 < span.size() && span[i + 1] >= '0' && span[i + 1] <= '9')) {
      // The apostrophe of "'79" stands apart from its year.
      flush();
      raw.push_back(std::string(1, c));
      at.emplace_back(i, i + 1);
    } else {
      if (cur.empty()) cur_start = i;
      cur.push_back(c);
    }
  }
  flush();
  // Trailing dots are sentence punctuation unless the lexicon knows the
  // dotted word ("jan.", "séc.") or it is an ordinal ("1.º" has none).
  for (std::size_t k = 0; k < raw.size(); ++k) {
    std::string& w = raw[k];
    if (w.size() > 1 && w.back() == '.' && lex_->lookup(w) == nullptr) {
      w.pop_back();
      --at[k].second;
    }
  }
  std::vector<Token> out;
  const std::size_t maxw = lex_->max_phrase_words();
  for (std::size_t i = 0; i < raw.size();) {
    std::size_t taken = 0;
    for (std::size_t n = std::min(maxw, raw.size() - i); n >= 1 && !taken; --n) {
      std::string phrase = raw[i];
      for (std::size_t k = 1; k < n; ++k) phrase += " " + raw[i + k];
      if (const auto* e = lex_->lookup(phrase)) {
        Token t;
        t.text = phrase;
        t.entries = e;
        t.begin = at[i].first;
        t.end = at[i + n - 1].second;
        out.push_back(std::move(t));
        taken = n;
      }
      if (n == 1) break;
    }
    if (!taken) {
      Token t;
      t.text = raw[i];
      t.begin = at[i].first;
      t.end = at[i].second;
      if (all_digits(t.text) && t.text.size() <= 9) {
        t.number = true;
        t.value = to_long(t.text);
        t.digits = static_cast<int>(t.text.size());
      }
      out.push_back(std::move(t));
      taken = 1;
    }
    i += taken;
  }
  // Merge number words ("vinte e cinco", "dois mil e três") into one number,
  // and digits multiplied by a number word ("7 mil").
  std::vector<Token> merged;
  for (std::size_t i = 0; i < out.size(); ++i) {
    if (out[i].number && out[i].digits > 0 && out[i].digits <= 3 && i + 1 < out.size()) {
      if (const std::string* v = out[i + 1].get("NUMWORD"); v && to_long(*v) == 1000) {
        Token t = out[i];
        t.text += " " + out[i + 1].text;
        t.value *= 1000;
        t.digits = 0;
        // "2,9 mil": the decimal comma split the number in two tokens.
        const std::size_t m = merged.size();
        if (m >= 2 && merged[m - 1].text == "," && merged[m - 2].number && merged[m - 2].digits > 0) {
          long scale = 1;
          for (int k = 0; k < out[i].digits; ++k) scale *= 10;
          t.value = merged[m - 2].value * 1000 + out[i].value * 1000 / scale;
          t.text = merged[m - 2].text + "," + t.text;
          merged.resize(m - 2);
        }
        merged.push_back(std::move(t));
        ++i;
        continue;
      }
    }
    if (!out[i].get("NUMWORD")) {
      merged.push_back(std::move(out[i]));
      continue;
    }
    long total = 0, current = 0;
    std::string text;
    std::size_t j = i;
    while (j < out.size()) {
      const std::string* v = out[j].get("NUMWORD");
      if (!v) break;
      long n = to_long(*v);
      if (n == 1000) {
        total += (current == 0 ? 1 : current) * 1000;
        current = 0;
      } else {
        current += n;
      }
      text += (text.empty() ? "" : " ") + out[j].text;
      if (j + 2 < out.size() && out[j + 1].text == "e" && out[j + 2].get("NUMWORD")) {
        text += " e";
        j += 2;
      } else {
        ++j;
      }
    }
    Token t = out[i];  // keeps the entries of the first word ("uma" is also an article)
    t.text = text;
    t.end = out[j - 1].end;
    t.number = true;
    t.value = total + current;
    t.digits = 0;
    merged.push_back(std::move(t));
    i = j - 1;
  }
  return merged;
}

}  // namespace cronista::temporal
