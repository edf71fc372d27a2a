// The revisit schedule at scale: the time to share out the budget again
// (RevisitSchedule::resolve, the optimum under per-host caps) and the
// memory a page costs, for 10,000 to 1,000,000 pages on 1,000 hosts, each
// page with a full history of 32 visits; and the whole memory a revisiting
// crawl holds per page at a million (BM_CrawlMemory: the schedule, the
// page's copy record of crawler/page_copy.h with a URL, validators, digest
// and signature of real-world lengths, and its URL key in the index).
// Run:
//   build/revisit_bench --benchmark_counters_tabular=true
#include <benchmark/benchmark.h>
#include <malloc.h>

#include <cmath>
#include <memory>
#include <random>
#include <string>
#include <unordered_map>
#include <vector>

#include "crawler/page_copy.h"
#include "revisit/revisit_schedule.h"

namespace {

using cronista::crawler::PageCopy;
using cronista::revisit::RevisitOptions;
using cronista::revisit::RevisitSchedule;

std::size_t heap_in_use() {
  const auto m = mallinfo2();
  return m.uordblks + m.hblkhd;  // small blocks and mmap-ed ones
}

std::unique_ptr<RevisitSchedule> population(int pages) {
  RevisitOptions o;
  o.budget = pages / 100.0;  // each page revisited about every 100 s on average
  auto s = std::make_unique<RevisitSchedule>(o);
  std::mt19937_64 rng(1);
  std::uniform_real_distribution<double> log_rate(std::log(1.0 / 86400), std::log(1.0 / 30));
  std::uniform_real_distribution<double> u(0, 1);
  for (std::uint32_t h = 0; h < 1000; ++h) s->set_host_gap(h, 1.0);
  for (int i = 0; i < pages; ++i) {
    const double rate = std::exp(log_rate(rng));
    const auto id = s->add_page(static_cast<std::uint32_t>(i % 1000), 1.0, 1.0 / 3600, 0);
    double t = 0;
    for (int v = 0; v < 32; ++v) {
      t += 60;
      s->record_visit(id, t, u(rng) < -std::expm1(-rate * 60), v % 7 == 0 ? 1 : 0);
    }
  }
  return s;
}

void BM_Resolve(benchmark::State& state) {
  const std::size_t before = heap_in_use();
  auto s = population(static_cast<int>(state.range(0)));
  const std::size_t after = heap_in_use();
  for (auto _ : state) s->resolve();
  state.counters["pages"] = static_cast<double>(state.range(0));
  state.counters["bytes_per_page"] = static_cast<double>(after - before) / static_cast<double>(state.range(0));
}
BENCHMARK(BM_Resolve)->Arg(10000)->Arg(100000)->Arg(1000000)->Unit(benchmark::kMillisecond)->Iterations(1);

void BM_RecordVisit(benchmark::State& state) {
  auto s = population(10000);
  double t = 10000;
  std::uint32_t id = 0;
  for (auto _ : state) {
    t += 0.01;
    s->record_visit(id, t, (id & 3) == 0, 0);
    id = (id + 1) % 10000;
  }
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_RecordVisit);

// A page's copy as a crawl of news sites holds it: a URL of about 100
// bytes, a weak ETag, an HTTP date, a SHA-1 in hex, an ISO capture time.
PageCopy copy_of(int i) {
  PageCopy c;
  c.url = "https://www.jornal-" + std::to_string(i % 1000) + ".com.br/noticias/2026/11/26/" +
          "uma-noticia-com-um-titulo-de-varias-palavras-" + std::to_string(i);
  c.etag = "W/\"6553f1a2-" + std::to_string(100000 + i % 900000) + "\"";
  c.last_modified = "Thu, 26 Nov 2026 06:19:34 GMT";
  c.content_hash = std::string(40, "0123456789abcdef"[i % 16]);
  c.captured_at = "2026-11-26T06:19:34.123Z";
  c.signature = cronista::revisit::ContentSignature{static_cast<std::uint64_t>(i) * 0x9E3779B97F4A7C15ULL,
                                                    static_cast<std::uint64_t>(i), 400};
  c.host = static_cast<std::uint32_t>(i % 1000);
  c.depth = 3;
  return c;
}

void BM_CrawlMemory(benchmark::State& state) {
  const int pages = static_cast<int>(state.range(0));
  const std::size_t at_start = heap_in_use();
  auto schedule = population(pages);
  const std::size_t after_schedule = heap_in_use();
  std::vector<PageCopy> copies;
  copies.reserve(static_cast<std::size_t>(pages));
  for (int i = 0; i < pages; ++i) copies.push_back(copy_of(i));
  const std::size_t after_copies = heap_in_use();
  std::unordered_map<std::uint64_t, std::uint32_t> index;  // url key → page (Crawl::copy_of_)
  for (int i = 0; i < pages; ++i) index.emplace(std::hash<std::string>{}(copies[static_cast<std::size_t>(i)].url), i);
  const std::size_t after_index = heap_in_use();
  for (auto _ : state) benchmark::DoNotOptimize(copies.data());
  const double n = static_cast<double>(pages);
  state.counters["pages"] = n;
  state.counters["schedule_B"] = static_cast<double>(after_schedule - at_start) / n;
  state.counters["copy_B"] = static_cast<double>(after_copies - after_schedule) / n;
  state.counters["index_B"] = static_cast<double>(after_index - after_copies) / n;
  state.counters["total_B"] = static_cast<double>(after_index - at_start) / n;
}
BENCHMARK(BM_CrawlMemory)->Arg(1000000)->Unit(benchmark::kMillisecond)->Iterations(1);

}  // namespace

BENCHMARK_MAIN();
