// Throughput of the HTML-to-text step and of segmentation, over the 250 real
// pages of ../shared/data/web/htmldate (or $CRONISTA_SHARED_DATA/web/htmldate).
//
//   build/segment_bench
//
// BM_HtmlDocument: html_document() on every page, MB/s of HTML input.
// BM_Segment: sentence splitting and segmentation of the pages' text (as
// html_document() leaves it), MB/s of text; expressions are a date every
// ~400 bytes, made up so that the segment merging is exercised without the
// annotator.
#include <benchmark/benchmark.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

#include "temporal/html_text.h"
#include "temporal/segmenter.h"

namespace {

using cronista::temporal::Chronon;
using cronista::temporal::TemporalExpression;
using cronista::temporal::TextDocument;

std::filesystem::path pages_dir() {
  if (const char* env = std::getenv("CRONISTA_SHARED_DATA"); env && *env)
    return std::filesystem::path(env) / "web" / "htmldate" / "pages";
  return std::filesystem::path(CRONISTA_SOURCE_DIR) / ".." / "shared" / "data" / "web" / "htmldate" / "pages";
}

const std::vector<std::string>& pages() {
  static const std::vector<std::string> all = [] {
    std::vector<std::string> out;
    std::error_code ec;
    std::vector<std::filesystem::path> files;
    for (const auto& entry : std::filesystem::directory_iterator(pages_dir(), ec)) files.push_back(entry.path());
    std::sort(files.begin(), files.end());
    for (const auto& f : files) {
      std::ifstream in(f, std::ios::binary);
      std::ostringstream ss;
      ss << in.rdbuf();
      out.push_back(ss.str());
    }
    return out;
  }();
  return all;
}

struct Prepared {
  TextDocument doc;
  std::vector<TemporalExpression> expressions;
};

const std::vector<Prepared>& prepared() {
  static const std::vector<Prepared> all = [] {
    std::vector<Prepared> out;
    for (const std::string& html : pages()) {
      Prepared p;
      p.doc = cronista::temporal::html_document(html);
      for (std::size_t at = 200, k = 0; at + 4 <= p.doc.text.size(); at += 400, ++k) {
        TemporalExpression e;
        e.start = at;
        e.end = at + 4;
        e.chronons = {Chronon::of_year(1900 + static_cast<int>(k % 7 == 0 ? k : k / 3) % 120)};
        p.expressions.push_back(e);
      }
      out.push_back(std::move(p));
    }
    return out;
  }();
  return all;
}

void BM_HtmlDocument(benchmark::State& state) {
  if (pages().empty()) {
    state.SkipWithError("no pages under ../shared/data/web/htmldate/pages");
    return;
  }
  std::size_t bytes = 0;
  for (auto _ : state) {
    for (const std::string& html : pages()) {
      TextDocument d = cronista::temporal::html_document(html);
      benchmark::DoNotOptimize(d.text.data());
      bytes += html.size();
    }
  }
  state.SetBytesProcessed(static_cast<int64_t>(bytes));
}
BENCHMARK(BM_HtmlDocument)->Unit(benchmark::kMillisecond);

void BM_Segment(benchmark::State& state) {
  if (prepared().empty()) {
    state.SkipWithError("no pages under ../shared/data/web/htmldate/pages");
    return;
  }
  const auto granularity = state.range(0) == 0 ? cronista::temporal::SegmentGranularity::Sentence
                                               : cronista::temporal::SegmentGranularity::Paragraph;
  std::size_t bytes = 0, segments = 0;
  for (auto _ : state) {
    for (const Prepared& p : prepared()) {
      auto segs = cronista::temporal::segment(p.doc, p.expressions, granularity);
      segments += segs.size();
      benchmark::DoNotOptimize(segs.data());
      bytes += p.doc.text.size();
    }
  }
  state.SetBytesProcessed(static_cast<int64_t>(bytes));
  state.counters["segments"] = benchmark::Counter(static_cast<double>(segments), benchmark::Counter::kAvgIterations);
}
BENCHMARK(BM_Segment)->Arg(0)->Arg(1)->ArgName("paragraph")->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();
