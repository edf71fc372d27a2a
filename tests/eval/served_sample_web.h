// A sample web generated into a test's folder (DIR/web) and served on a free
// loopback port, for the tests that crawl it.
#pragma once

#include <gtest/gtest.h>

#include <cstdint>
#include <filesystem>
#include <memory>

#include "sampleweb/sample_web.h"
#include "sampleweb/sample_web_server.h"
#include "test_support.h"

namespace cronista::testing {

// The running server, or null after a test failure saying why.
inline std::unique_ptr<sampleweb::SampleWebServer> serve_sample_web(const std::filesystem::path& dir, int pages,
                                                                    std::uint64_t seed) {
  sampleweb::SampleWebOptions web;
  web.corpora_dir = source_dir() + "/corpora/sample-web";
  web.out_dir = (dir / "web").string();
  web.pages = pages;
  web.seed = seed;
  web.port = free_loopback_port();
  auto generated = sampleweb::generate_sample_web(web);
  EXPECT_TRUE(generated.ok()) << generated.status().message();
  if (!generated.ok()) return nullptr;
  sampleweb::SampleWebServerOptions so;
  so.root = web.out_dir;
  auto server = sampleweb::SampleWebServer::load(so);
  EXPECT_TRUE(server.ok()) << server.status().message();
  if (!server.ok()) return nullptr;
  const Status started = (*server)->start();
  EXPECT_TRUE(started.ok()) << started.message();
  if (!started.ok()) return nullptr;
  return std::move(*server);
}

}  // namespace cronista::testing
