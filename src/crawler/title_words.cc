// TitleWords: see title_words.h.
#include "crawler/title_words.h"

#include <algorithm>
#include <set>

namespace cronista::crawler {

std::vector<std::string> TitleWords::words(std::string_view text) {
  std::vector<std::string> out;
  std::string w;
  auto flush = [&] {
    if (w.size() >= 4) out.push_back(w);
    w.clear();
  };
  for (char ch : text) {
    const unsigned char c = static_cast<unsigned char>(ch);
    if (c >= 0x80 || (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z')) {
      w += ch;
    } else if (c >= 'A' && c <= 'Z') {
      w += static_cast<char>(c - 'A' + 'a');
    } else {
      flush();
    }
  }
  flush();
  return out;
}

void TitleWords::learn(std::string_view title, bool relevant) {
  std::vector<std::string> ws = words(title);
  std::sort(ws.begin(), ws.end());
  ws.erase(std::unique(ws.begin(), ws.end()), ws.end());  // a word counts once per title
  for (std::string& w : ws) {
    auto it = counts_.find(w);
    if (it == counts_.end()) {
      if (counts_.size() >= max_words_) continue;
      it = counts_.emplace(std::move(w), Count{}).first;
    }
    ++it->second.seen;
    if (relevant) ++it->second.relevant;
  }
}

std::optional<double> TitleWords::estimate(std::string_view anchor) const {
  double sum = 0;
  int n = 0;
  std::set<std::string> used;
  for (const std::string& w : words(anchor)) {
    if (!used.insert(w).second) continue;
    auto it = counts_.find(w);
    if (it == counts_.end() || it->second.seen < min_seen_) continue;
    sum += (it->second.relevant + 1.0) / (it->second.seen + 2.0);
    ++n;
  }
  if (n == 0) return std::nullopt;
  return sum / n;
}

}  // namespace cronista::crawler
