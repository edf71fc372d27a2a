// What the tests that generate a sample web share: their options.
#pragma once

#include <cstdint>
#include <filesystem>

#include "sampleweb/sample_web.h"
#include "test_support.h"

namespace cronista::testing {

// A sample web written from the repository's corpora into `out`.
inline sampleweb::SampleWebOptions sample_web_options(const std::filesystem::path& out, int pages, std::uint64_t seed,
                                                      int port) {
  sampleweb::SampleWebOptions o;
  o.corpora_dir = source_dir() + "/corpora/sample-web";
  o.out_dir = out.string();
  o.pages = pages;
  o.seed = seed;
  o.port = port;
  return o;
}

}  // namespace cronista::testing
