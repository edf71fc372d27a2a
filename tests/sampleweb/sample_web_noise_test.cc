// The sample web's furniture noise: addresses and visit counts whose numbers
// look like years of the periods crawled, and which the tagger must read as
// no date at all.
#include <gtest/gtest.h>

#include <regex>

#include "sampleweb/sample_web_corpus.h"
#include "sampleweb/sample_web_noise.h"
#include "temporal/tagger.h"
#include "test_support.h"

namespace cronista::sampleweb {
namespace {

const SampleCorpus& corpus() {
  static const SampleCorpus c = [] {
    auto r = SampleCorpus::load(cronista::testing::source_dir() + "/corpora/sample-web");
    EXPECT_TRUE(r.ok()) << r.status().message();
    return r.ok() ? std::move(*r) : SampleCorpus{};
  }();
  return c;
}

TEST(SampleWebNoise, AddressHasAStreetNumberAPostalCodeAndATelephone) {
  const std::string a = noise_address(corpus(), "jornal", 7, 3);
  EXPECT_TRUE(std::regex_search(a, std::regex(R"(n\.º (19|20)[0-9]{2}, (19|20)[0-9]{2}-[0-9]{3} .+ · Tel\. 2[0-9]{2} [0-9]{3} [0-9]{3}$)")))
      << a;
  EXPECT_EQ(a, noise_address(corpus(), "jornal", 7, 3));  // a function of seed and page
  EXPECT_NE(a, noise_address(corpus(), "jornal", 8, 3));
}

TEST(SampleWebNoise, FurnitureNumbersThatLookLikeYearsAreNoDatesToTheTagger) {
  auto tagger = temporal::Tagger::load(temporal::TaggerOptions{cronista::testing::source_dir(), {}});
  ASSERT_TRUE(tagger.ok()) << tagger.status().message();
  int lines = 0;
  for (std::uint64_t seed : {7u, 8u}) {
    for (int page = 0; page < 150; ++page) {
      for (const std::string& line : {noise_address(corpus(), "blog", seed, page), noise_visits(corpus(), "blog", seed, page)}) {
        ASSERT_FALSE(line.empty());
        ++lines;
        for (const auto& e : (*tagger)->tag(line, temporal::Date{2024, 1, 1}))
          ADD_FAILURE() << "'" << e.text << "' (" << e.value << ") tagged in: " << line;
      }
    }
  }
  EXPECT_EQ(lines, 600);
}

}  // namespace
}  // namespace cronista::sampleweb
