// Misuse of the sample web: a second server on a port that is already
// taken is refused with an error naming the port.
#include <gtest/gtest.h>

#include <string>

#include "sampleweb/sample_web.h"
#include "sampleweb/sample_web_server.h"
#include "test_support.h"

namespace cronista::sampleweb {
namespace {

using cronista::testing::TempDir;

// cpp-httplib sets SO_REUSEPORT by default: a second server (a stale one
// from an earlier run, serving another web) used to bind the same port and
// take half the crawl's requests, with no error.
TEST(SampleWebRobustness, ASecondServerOnATakenPortIsRefused) {
  TempDir dir;
  SampleWebOptions o;
  o.corpora_dir = cronista::testing::source_dir() + "/corpora/sample-web";
  o.out_dir = dir.path().string();
  o.pages = 50;
  o.port = cronista::testing::free_loopback_port();
  auto generated = generate_sample_web(o);
  ASSERT_TRUE(generated.ok()) << generated.status().message();
  SampleWebServerOptions so;
  so.root = dir.path().string();
  auto first = SampleWebServer::load(so);
  auto second = SampleWebServer::load(so);
  ASSERT_TRUE(first.ok() && second.ok());
  ASSERT_TRUE((*first)->start().ok());
  const Status again = (*second)->start();
  EXPECT_FALSE(again.ok());
  EXPECT_NE(again.message().find(std::to_string(o.port)), std::string::npos) << again.message();
  (*second)->stop();
  (*first)->stop();
}

}  // namespace
}  // namespace cronista::sampleweb
