// The revisit schedule at scale: the time to share out the budget again
// (RevisitSchedule::resolve, the optimum under per-host caps) and the
// memory a page costs, for 10,000 to 1,000,000 pages on 1,000 hosts, each
// page with a full history of 32 visits. Run:
//   build/revisit_bench --benchmark_counters_tabular=true
#include <benchmark/benchmark.h>
#include <malloc.h>

#include <cmath>
#include <memory>
#include <random>

#include "revisit/revisit_schedule.h"

namespace {

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

}  // namespace

BENCHMARK_MAIN();
