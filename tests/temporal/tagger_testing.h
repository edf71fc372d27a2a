// What the tagger tests share: the tagger loaded once from the source tree,
// and its TimeML expressions of a text reduced to strings for comparison.
#pragma once

#include <gtest/gtest.h>

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "temporal/tagger.h"
#include "test_support.h"

namespace cronista::temporal::tagger_testing {

inline const Tagger& tagger() {
  static const std::unique_ptr<Tagger> t = [] {
    auto r = Tagger::load(TaggerOptions{testing::source_dir(), {}});
    if (!r.ok()) {
      ADD_FAILURE() << r.status().message();
      return std::unique_ptr<Tagger>();
    }
    return std::move(*r);
  }();
  return *t;
}

struct Found {
  std::string text, type, value, harem, harem_text;
  std::vector<std::string> chronons;
};

// The TimeML expressions of `text`; each one's text must be its byte range.
inline std::vector<Found> tag(const std::string& text, std::optional<Date> dct = Date{2010, 6, 15}) {
  std::vector<Found> out;
  for (const auto& e : tagger().tag(text, dct)) {
    Found f{e.text, std::string(to_string(e.type)), e.value, std::string(to_string(e.harem_type)),
            text.substr(e.harem_start, e.harem_end - e.harem_start), {}};
    if (e.harem_subtype != HaremSubtype::None) f.harem += "/" + std::string(to_string(e.harem_subtype));
    for (const auto& c : e.chronons) f.chronons.push_back(c.to_string());
    EXPECT_EQ(e.text, text.substr(e.start, e.end - e.start));
    if (e.in_timeml) out.push_back(std::move(f));
  }
  return out;
}

// The expression whose TimeML text is `what`; fails the test if absent.
inline Found find(const std::vector<Found>& all, const std::string& what) {
  for (const auto& f : all)
    if (f.text == what) return f;
  std::string got;
  for (const auto& f : all) got += "[" + f.text + "] ";
  ADD_FAILURE() << "no expression '" << what << "'; found: " << got;
  return {};
}

inline bool has(const std::vector<Found>& all, const std::string& what) {
  for (const auto& f : all)
    if (f.text == what) return true;
  return false;
}

}  // namespace cronista::temporal::tagger_testing
