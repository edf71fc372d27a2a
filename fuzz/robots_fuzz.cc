// Fuzzes RobotsRules::parse and allowed(): never crashes, "/robots.txt" is
// always allowed, and matching terminates on hostile patterns.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "crawler/robots.h"
#include "fuzz_support.h"

using cronista::crawler::RobotsRules;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::string_view body(reinterpret_cast<const char*>(data), size);
  RobotsRules rules = RobotsRules::parse(body, "cronista");
  FUZZ_CHECK(rules.allowed("/robots.txt"));
  (void)rules.allowed("/");
  (void)rules.allowed("/a/b/c.html?x=1&y=%C3%A9");
  // Paths drawn from the input itself, so patterns meet paths they resemble.
  std::size_t start = 0;
  for (int i = 0; i < 8 && start < body.size(); ++i) {
    std::size_t end = body.find('\n', start);
    if (end == std::string_view::npos) end = body.size();
    std::string path = "/" + std::string(body.substr(start, std::min<std::size_t>(end - start, 512)));
    (void)rules.allowed(path);
    start = end + 1;
  }
  (void)rules.crawl_delay();
  return 0;
}
