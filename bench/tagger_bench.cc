// Throughput of the tagger (annotator + resolver) on one core, over the
// "text" fields of the raw Portuguese JSONL corpus in ../shared/data/raw (or
// $CRONISTA_SHARED_DATA/raw; or the lines of $CRONISTA_BENCH_TEXT). Reports MB/s as a counter ("MB/s") besides
// Google Benchmark's bytes_per_second. Loading (patterns, resources) is
// outside the timed loop; its resident cost is reported as "load_MB". Rates
// are per CPU second of the benchmark thread (the per-core throughput), so a
// busy machine does not distort them.
//
//   build/tagger_bench --benchmark_min_time=3
#include <benchmark/benchmark.h>

#include <nlohmann/json.hpp>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
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

}  // namespace

BENCHMARK_MAIN();
