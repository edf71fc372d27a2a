// Charset sniffing + conversion throughput (MB/s) on the 250 real pages of
// the shared web sample (as served: no Content-Type charset), and the WARC
// writer's throughput (records/s, MB/s) at its default gzip level. Run:
//   build/charset_bench
#include <benchmark/benchmark.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "crawler/charset.h"
#include "crawler/warc.h"

namespace {

std::vector<std::string> load_pages() {
  std::vector<std::string> pages;
  const char* env = std::getenv("CRONISTA_SHARED_DATA");
  const std::filesystem::path data =
      env && *env ? std::filesystem::path(env) : std::filesystem::path(CRONISTA_SOURCE_DIR) / ".." / "shared" / "data";
  std::error_code ec;
  for (const auto& e : std::filesystem::directory_iterator(data / "web" / "htmldate" / "pages", ec)) {
    std::ifstream in(e.path(), std::ios::binary);
    pages.emplace_back(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  }
  return pages;
}

const std::vector<std::string>& pages() {
  static const std::vector<std::string> p = load_pages();
  return p;
}

void BM_DecodeSamplePages(benchmark::State& state) {
  if (pages().empty()) {
    state.SkipWithError("shared data web/htmldate/pages not found");
    return;
  }
  std::size_t bytes = 0, i = 0;
  for (auto _ : state) {
    const std::string& page = pages()[i++ % pages().size()];
    auto d = cronista::crawler::decode_to_utf8(page, "");
    benchmark::DoNotOptimize(d);
    bytes += page.size();
  }
  state.SetBytesProcessed(static_cast<int64_t>(bytes));
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_DecodeSamplePages);

void BM_WarcWriteExchange(benchmark::State& state) {
  if (pages().empty()) {
    state.SkipWithError("shared data web/htmldate/pages not found");
    return;
  }
  const std::string path = std::filesystem::temp_directory_path() / "cronista-bench.warc.gz";
  std::filesystem::remove(path);
  auto w = cronista::crawler::WarcWriter::open(path, "cronista bench");
  const std::string request = "GET / HTTP/1.1\r\nHost: www.exemplo.pt\r\n\r\n";
  const std::string head = "HTTP/1.1 200 OK\r\nContent-Type: text/html\r\n\r\n";
  std::size_t bytes = 0, i = 0;
  for (auto _ : state) {
    const std::string& page = pages()[i++ % pages().size()];
    auto s = (*w)->write_exchange("https://www.exemplo.pt/p" + std::to_string(i), "2026-11-22T09:00:00Z", request,
                                  head, page);
    benchmark::DoNotOptimize(s);
    bytes += page.size();
  }
  state.SetBytesProcessed(static_cast<int64_t>(bytes));
  state.SetItemsProcessed(state.iterations());
  w->reset();
  std::filesystem::remove(path);
}
BENCHMARK(BM_WarcWriteExchange);

}  // namespace

BENCHMARK_MAIN();
