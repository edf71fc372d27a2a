// A living sample web (docs/living-web.md) generated for a test, and its truth.
#pragma once

#include <cstdint>
#include <filesystem>

#include "sampleweb/living_web.h"
#include "sampleweb/sample_web.h"
#include "sampleweb/sample_web_support.h"
#include "test_support.h"

namespace cronista::testing {

// Generates a living web of `pages` content pages into `out` for `port`,
// with `horizon_s` seconds of changes, and loads its truth.
inline Result<sampleweb::LivingTruth> generate_living_web(const std::filesystem::path& out, int port, int pages,
                                                          std::uint64_t seed, int horizon_s) {
  sampleweb::SampleWebOptions o = sample_web_options(out, pages, seed, port);
  o.living = true;
  o.living_horizon_s = static_cast<double>(horizon_s);
  if (auto s = sampleweb::generate_sample_web(o); !s.ok()) return s.status();
  return sampleweb::LivingTruth::load((out / sampleweb::kLivingTruthFile).string());
}

}  // namespace cronista::testing
