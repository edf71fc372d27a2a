// What the words of page titles have led to so far in a temporal crawl: for
// each word, how many downloaded pages had it in their title and how many
// of those were relevant. A link's anchor text usually names its target
// (often with the target's very title), so the record of its words
// estimates the chance that the target is about the period — a topic
// signal learned during the crawl, beside the temporal one of the link's
// segment (method.md §6: combining time with topic).
//
// Words are runs of letters and digits (any non-ASCII byte counts as a
// letter, so accented Portuguese words stay whole), ASCII-lower-cased, of
// at least four bytes. Memory is bounded: at most max_words words are kept;
// new words beyond that are not learned. Single-threaded.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace cronista::crawler {

class TitleWords {
 public:
  explicit TitleWords(std::size_t max_words = 1 << 20, std::uint32_t min_seen = 3)
      : max_words_(max_words), min_seen_(min_seen) {}

  // A downloaded page's title and whether the page was relevant.
  void learn(std::string_view title, bool relevant);
  // The mean, over the words of `anchor` seen in at least min_seen titles,
  // of (relevant + 1) / (seen + 2); nullopt when no word qualifies.
  std::optional<double> estimate(std::string_view anchor) const;

  std::size_t size() const { return counts_.size(); }
  static std::vector<std::string> words(std::string_view text);

 private:
  struct Count {
    std::uint32_t seen = 0, relevant = 0;
  };
  std::size_t max_words_;
  std::uint32_t min_seen_;
  std::unordered_map<std::string, Count> counts_;
};

}  // namespace cronista::crawler
