// Throughput of the tagger (annotator + resolver) on one core, over the
// "text" fields of the raw Portuguese JSONL corpus in ../shared/data/raw (or
// $CRONISTA_SHARED_DATA/raw; or the lines of $CRONISTA_BENCH_TEXT). Reports MB/s as a counter ("MB/s") besides
// Google Benchmark's bytes_per_second. Loading (patterns, resources) is
// outside the timed loop; its resident cost is reported as "load_MB". Rates
// are per CPU second of the benchmark thread (the per-core throughput), so a
// busy machine does not distort them. BM_TagMemoryPasses follows the memory
// of one tagger over many passes (heap in use from mallinfo2, and resident
// size).
//
//   build/tagger_bench --benchmark_min_time=3
#include <benchmark/benchmark.h>

#include <nlohmann/json.hpp>

#include <malloc.h>

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <random>
#include <string>
#include <vector>

#include "temporal/tagger.h"

namespace {

std::string shared_raw_dir() {
  if (const char* env = std::getenv("CRONISTA_SHARED_DATA"); env && *env) return std::string(env) + "/raw";
  return std::string(CRONISTA_SOURCE_DIR) + "/../shared/data/raw";
}

const std::vector<std::string>& corpus() {
  static const std::vector<std::string> texts = [] {
    std::vector<std::string> out;
    // $CRONISTA_BENCH_TEXT: a plain-text file, one document per line (what
    // bench/chrono_compare.sh hands to both taggers).
    if (const char* file = std::getenv("CRONISTA_BENCH_TEXT"); file && *file) {
      std::ifstream in(file);
      std::string line;
      while (std::getline(in, line))
        if (!line.empty()) out.push_back(line);
      return out;
    }
    namespace fs = std::filesystem;
    std::error_code ec;
    std::vector<fs::path> files;
    for (const auto& e : fs::directory_iterator(shared_raw_dir(), ec))
      if (e.path().extension() == ".jsonl") files.push_back(e.path());
    std::sort(files.begin(), files.end());
    for (const auto& f : files) {
      std::ifstream in(f);
      std::string line;
      while (std::getline(in, line)) {
        auto j = nlohmann::json::parse(line, nullptr, false);
        if (j.is_object() && j.contains("text") && j["text"].is_string()) out.push_back(j["text"].get<std::string>());
      }
    }
    return out;
  }();
  return texts;
}

long resident_kb() {
  std::ifstream in("/proc/self/status");
  std::string line;
  while (std::getline(in, line))
    if (line.rfind("VmRSS:", 0) == 0) return std::strtol(line.c_str() + 6, nullptr, 10);
  return 0;
}

void BM_TagAndResolve(benchmark::State& state) {
  const auto& texts = corpus();
  if (texts.empty()) {
    state.SkipWithError("no JSONL text found in ../shared/data/raw");
    return;
  }
  // Loaded once per process; the resident memory it adds is measured once.
  static long load_kb = 0, before_load_kb = 0;
  static const auto tagger = [] {
    const long before = before_load_kb = resident_kb();
    auto t = cronista::temporal::Tagger::load(cronista::temporal::TaggerOptions{CRONISTA_SOURCE_DIR, {}});
    load_kb = resident_kb() - before;
    return t;
  }();
  if (!tagger.ok()) {
    state.SkipWithError(tagger.status().message().c_str());
    return;
  }
  const cronista::temporal::Date dct{2010, 6, 15};
  std::size_t bytes = 0, expressions = 0;
  for (auto _ : state) {
    for (const auto& t : texts) {
      auto found = (*tagger)->tag(t, dct);
      expressions += found.size();
      benchmark::DoNotOptimize(found.data());
      bytes += t.size();
    }
  }
  state.SetBytesProcessed(static_cast<int64_t>(bytes));
  state.counters["MB/s"] = benchmark::Counter(static_cast<double>(bytes) / 1e6, benchmark::Counter::kIsRate);
  state.counters["expressions/MB"] = static_cast<double>(expressions) / (static_cast<double>(bytes) / 1e6);
  state.counters["load_MB"] = static_cast<double>(load_kb) / 1024.0;
  // Resident memory of the whole process after tagging (corpus included):
  // the DFA caches RE2 fills while scanning are bounded by the pattern set.
  state.counters["rss_MB"] = static_cast<double>(resident_kb()) / 1024.0;
  // The tagger's own share: loading plus what its RE2 caches grew to.
  state.counters["tagger_MB"] = static_cast<double>(resident_kb() - before_load_kb) / 1024.0;
}
BENCHMARK(BM_TagAndResolve)->Unit(benchmark::kMillisecond);

// Bytes malloc has handed out and not yet taken back (all arenas, and the
// large blocks it maps on their own).
double heap_in_use_mb() {
  const struct mallinfo2 m = mallinfo2();
  return static_cast<double>(m.uordblks + m.hblkhd) / (1024.0 * 1024.0);
}

// The words of `text` shuffled within runs of 40 (spaces between them): text
// of the same vocabulary, in contexts the tagger has not seen.
std::string shuffled_words(const std::string& text, std::mt19937* rng) {
  std::vector<std::string_view> words;
  std::size_t i = 0;
  while (i < text.size()) {
    while (i < text.size() && std::isspace(static_cast<unsigned char>(text[i]))) ++i;
    std::size_t j = i;
    while (j < text.size() && !std::isspace(static_cast<unsigned char>(text[j]))) ++j;
    if (j > i) words.emplace_back(text.data() + i, j - i);
    i = j;
  }
  for (std::size_t k = 0; k + 40 <= words.size(); k += 40) std::shuffle(words.begin() + k, words.begin() + k + 40, *rng);
  std::string out;
  out.reserve(text.size());
  for (std::string_view w : words) {
    out.append(w);
    out.push_back(' ');
  }
  return out;
}

// Memory over repeated passes: tags the whole corpus state.range(0) times
// with one tagger and reports the resident size and the heap in use after
// the first pass and after the last (each pass on stderr). Pass 1 is the
// warm-up: RE2 fills its DFA caches. With novel:0 every pass tags the same
// documents, and after pass 1 neither figure may grow (growth would mean
// state kept per document). With novel:1 the passes after the first tag
// the corpus with its words shuffled, i.e. ever-new text, and show where
// the DFA caches level off (pattern_set.cc sets their bounds); heap_MB_max
// is the highest heap after any pass.
//
//   build/tagger_bench --benchmark_filter=TagMemoryPasses
void BM_TagMemoryPasses(benchmark::State& state) {
  const auto& texts = corpus();
  if (texts.empty()) {
    state.SkipWithError("no JSONL text found in ../shared/data/raw");
    return;
  }
  const int passes = static_cast<int>(state.range(0));
  const bool novel = state.range(1) != 0;
  // The shuffled texts are made before the tagger is loaded, so that their
  // memory is not counted as the tagger's.
  std::vector<std::vector<std::string>> variants;
  if (novel) {
    std::mt19937 rng(20100615);
    for (int pass = 2; pass <= passes; ++pass) {
      variants.emplace_back();
      for (const auto& t : texts) variants.back().push_back(shuffled_words(t, &rng));
    }
  }
  for (auto _ : state) {
    const long before_kb = resident_kb();
    const double before_heap = heap_in_use_mb();
    auto tagger = cronista::temporal::Tagger::load(cronista::temporal::TaggerOptions{CRONISTA_SOURCE_DIR, {}});
    if (!tagger.ok()) {
      state.SkipWithError(tagger.status().message().c_str());
      return;
    }
    const cronista::temporal::Date dct{2010, 6, 15};
    std::cerr << (novel ? "novel text, " : "same text, ") << "pass 0 (loaded): tagger_MB "
              << static_cast<double>(resident_kb() - before_kb) / 1024.0 << " heap_MB "
              << heap_in_use_mb() - before_heap << "\n";
    double rss[2] = {0, 0}, heap[2] = {0, 0}, heap_max = 0;
    for (int pass = 1; pass <= passes; ++pass) {
      std::size_t expressions = 0;
      const auto& pass_texts = novel && pass > 1 ? variants[static_cast<std::size_t>(pass - 2)] : texts;
      for (const auto& t : pass_texts) {
        auto found = (*tagger)->tag(t, dct);
        expressions += found.size();
        benchmark::DoNotOptimize(found.data());
      }
      const double r = static_cast<double>(resident_kb() - before_kb) / 1024.0;
      const double h = heap_in_use_mb() - before_heap;
      std::cerr << "pass " << pass << ": tagger_MB " << r << " heap_MB " << h << " expressions " << expressions
                << "\n";
      const int slot = pass == 1 ? 0 : 1;
      rss[slot] = r;
      heap[slot] = h;
      heap_max = std::max(heap_max, h);
    }
    state.counters["tagger_MB_pass1"] = rss[0];
    state.counters["tagger_MB_passN"] = rss[1];
    state.counters["heap_MB_pass1"] = heap[0];
    state.counters["heap_MB_passN"] = heap[1];
    state.counters["heap_MB_max"] = heap_max;
  }
}
BENCHMARK(BM_TagMemoryPasses)
    ->Args({4, 0})
    ->Args({12, 1})
    ->ArgNames({"passes", "novel"})
    ->Iterations(1)
    ->Unit(benchmark::kSecond);

}  // namespace

BENCHMARK_MAIN();
