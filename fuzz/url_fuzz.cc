// Fuzzes CanonicalUrl::parse and ::resolve. The input's first line is a base
// URL, the rest a reference. A canonical URL must parse back to itself
// (canonicalization is idempotent) and stay within kMaxLength.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "crawler/url.h"
#include "fuzz_support.h"

using cronista::crawler::CanonicalUrl;

static void check_canonical(const CanonicalUrl& url) {
  FUZZ_CHECK(url.str().size() <= CanonicalUrl::kMaxLength);
  FUZZ_CHECK(url.scheme() == "http" || url.scheme() == "https");
  FUZZ_CHECK(url.port() > 0 && url.port() <= 65535);
  FUZZ_CHECK(!url.path().empty() && url.path()[0] == '/');
  auto again = CanonicalUrl::parse(url.str());
  if (!again.ok()) {
    std::fprintf(stderr, "canonical form does not parse: %s: %s\n", url.str().c_str(),
                 again.status().message().c_str());
    std::abort();
  }
  if (again->str() != url.str()) {
    std::fprintf(stderr, "not idempotent: %s -> %s\n", url.str().c_str(), again->str().c_str());
    std::abort();
  }
  (void)url.robots_url();
  (void)url.authority();
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::string_view input(reinterpret_cast<const char*>(data), size);
  auto whole = CanonicalUrl::parse(input);
  if (whole.ok()) check_canonical(*whole);
  (void)cronista::crawler::remove_dot_segments(input);

  std::size_t newline = input.find('\n');
  std::string_view base_text = newline == std::string_view::npos ? "http://example.pt/a/b/c?q" : input.substr(0, newline);
  std::string_view reference = newline == std::string_view::npos ? input : input.substr(newline + 1);
  (void)cronista::crawler::resolve_reference(base_text, reference);
  auto base = CanonicalUrl::parse(base_text);
  if (!base.ok()) base = CanonicalUrl::parse("http://example.pt/a/b/c?q");
  if (!base.ok()) std::abort();
  auto resolved = CanonicalUrl::resolve(*base, reference);
  if (resolved.ok()) check_canonical(*resolved);
  return 0;
}
