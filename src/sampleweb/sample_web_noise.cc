#include "sampleweb/sample_web_noise.h"

#include <cstdio>
#include <vector>

namespace cronista::sampleweb {

namespace {

// splitmix64: a well-mixed number from (seed, page, what).
std::uint64_t mix(std::uint64_t seed, int page, int what) {
  std::uint64_t z = seed + 0x9E3779B97F4A7C15ULL * (static_cast<std::uint64_t>(page) * 8 + static_cast<std::uint64_t>(what) + 1);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
  return z ^ (z >> 31);
}

// A number in [lo, hi].
int draw(std::uint64_t seed, int page, int what, int lo, int hi) {
  return lo + static_cast<int>(mix(seed, page, what) % static_cast<std::uint64_t>(hi - lo + 1));
}

std::string replace_all(std::string text, const std::string& key, const std::string& value) {
  const std::string k = "{" + key + "}";
  for (std::size_t p = text.find(k); p != std::string::npos; p = text.find(k, p + value.size()))
    text.replace(p, k.size(), value);
  return text;
}

const std::string* pick(const SampleCorpus& c, const char* list, std::uint64_t seed, int page, int what) {
  auto it = c.sentences.find(list);
  if (it == c.sentences.end() || it->second.empty()) return nullptr;
  return &it->second[mix(seed, page, what) % it->second.size()];
}

}  // namespace

std::string noise_address(const SampleCorpus& c, const std::string& site, std::uint64_t seed, int page) {
  const std::string& tmpl = c.site_text(site, "address");
  const std::string* street = pick(c, "street", seed, page, 0);
  const std::string* place = pick(c, "place", seed, page, 1);
  if (tmpl.empty() || street == nullptr || place == nullptr) return {};
  char postal[16], phone[24];
  // Years of the periods crawled are the likeliest misreadings: 1900-2019.
  std::snprintf(postal, sizeof postal, "%04d-%03d", draw(seed, page, 2, 1900, 2019), draw(seed, page, 3, 0, 999));
  std::snprintf(phone, sizeof phone, "2%02d %03d %03d", draw(seed, page, 4, 10, 99), draw(seed, page, 5, 100, 999),
                draw(seed, page, 6, 0, 999));
  std::string out = replace_all(tmpl, "street", *street);
  out = replace_all(out, "number", std::to_string(draw(seed, page, 7, 1900, 2019)));
  out = replace_all(out, "postal", postal);
  out = replace_all(out, "place", *place);
  return replace_all(out, "phone", phone);
}

std::string noise_visits(const SampleCorpus& c, const std::string& site, std::uint64_t seed, int page) {
  const std::string& tmpl = c.site_text(site, "visits");
  if (tmpl.empty()) return {};
  return replace_all(tmpl, "count", std::to_string(draw(seed, page, 8, 1900, 2019)));
}

}  // namespace cronista::sampleweb
