// How far a main-text simhash moves for a trivial edit, for new content and
// for another text: the measurement behind kNearDuplicateBits and
// kNearDuplicateMinWords (revisit/content_signature.h). Stretches of 50 to
// 800 words are drawn from the news texts of ../shared/data/raw/news-ptbr.jsonl
// (or $CRONISTA_SHARED_DATA/raw); each gets one word altered (a typo), 20
// words added (a new sentence), and is compared with the stretch after it.
// Prints percentiles of the Hamming distance per length. Run:
//   build/simhash_bench
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "revisit/content_signature.h"

namespace {

std::string join(const std::vector<std::string>& w, std::size_t from, std::size_t to) {
  std::string out;
  for (std::size_t i = from; i < to; ++i) out += w[i] + " ";
  return out;
}

int percentile(std::vector<int> v, double p) {
  std::sort(v.begin(), v.end());
  return v[static_cast<std::size_t>(p * static_cast<double>(v.size() - 1))];
}

}  // namespace

int main() {
  namespace fs = std::filesystem;
  const char* env = std::getenv("CRONISTA_SHARED_DATA");
  const fs::path raw = env && *env ? fs::path(env) / "raw" : fs::path(CRONISTA_SOURCE_DIR) / ".." / "shared" / "data" / "raw";
  std::ifstream in(raw / "news-ptbr.jsonl");
  if (!in) {
    std::fprintf(stderr, "simhash_bench: no %s\n", (raw / "news-ptbr.jsonl").string().c_str());
    return 1;
  }
  std::vector<std::string> words;
  for (std::string line; std::getline(in, line) && words.size() < 200000;) {
    const auto j = nlohmann::json::parse(line, nullptr, false);
    if (!j.is_object() || !j.contains("text") || !j["text"].is_string()) continue;
    std::istringstream t(j["text"].get<std::string>());
    for (std::string w; t >> w;) words.push_back(w);
  }
  using cronista::revisit::content_signature;
  using cronista::revisit::hamming_distance;
  std::mt19937 rng(1);
  std::printf("words | typo p50 p95 max | +20 words p5 p50 | other text p1 p50\n");
  for (std::size_t len : {50, 100, 200, 400, 800}) {
    if (words.size() < 3 * len + 20) break;
    std::vector<int> typo, added, other;
    for (int trial = 0; trial < 200; ++trial) {
      const std::size_t start = rng() % (words.size() - 2 * len - 20);
      std::vector<std::string> a(words.begin() + static_cast<long>(start), words.begin() + static_cast<long>(start + len));
      const auto sa = content_signature(join(a, 0, a.size()));
      auto b = a;
      b[rng() % len] += "x";
      typo.push_back(hamming_distance(sa.simhash, content_signature(join(b, 0, b.size())).simhash));
      added.push_back(hamming_distance(sa.simhash, content_signature(join(words, start, start + len + 20)).simhash));
      other.push_back(hamming_distance(sa.simhash, content_signature(join(words, start + len, start + 2 * len)).simhash));
    }
    std::printf("%5zu | %d %d %d | %d %d | %d %d\n", len, percentile(typo, 0.5), percentile(typo, 0.95),
                percentile(typo, 1.0), percentile(added, 0.05), percentile(added, 0.5), percentile(other, 0.01),
                percentile(other, 0.5));
  }
  return 0;
}
