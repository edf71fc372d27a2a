// The tagger keeps no state per document: tagging the same documents again
// must not leave the heap any larger. The first pass warms RE2's DFA caches
// (bounded, see pattern_set.cc); after it, the bytes malloc has handed out
// (mallinfo2) must stay put however many times the documents are tagged.
#include <malloc.h>

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "temporal/tagger.h"
#include "test_support.h"

#if defined(__SANITIZE_ADDRESS__)
#define CRONISTA_UNDER_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define CRONISTA_UNDER_ASAN 1
#endif
#endif

namespace cronista::temporal {
namespace {

[[maybe_unused]] std::size_t heap_in_use() {
  const struct mallinfo2 m = mallinfo2();
  return m.uordblks + m.hblkhd;
}

// 200 short news-like documents, each with its own dates, times, durations
// and deictic words, so that the tagger walks many paths of its DFA.
[[maybe_unused]] std::vector<std::string> documents() {
  static constexpr const char* kMonths[] = {"janeiro", "fevereiro", "março",    "abril",   "maio",     "junho",
                                            "julho",   "agosto",    "setembro", "outubro", "novembro", "dezembro"};
  std::vector<std::string> docs;
  for (int i = 0; i < 200; ++i) {
    const std::string day = std::to_string(1 + i % 28), month = kMonths[i % 12],
                      year = std::to_string(1900 + (i * 7) % 120);
    std::string d;
    d += "A câmara municipal aprovou em " + day + " de " + month + " de " + year +
         " o novo plano de urbanização, que estará em discussão pública durante " + std::to_string(2 + i % 9) +
         " semanas. ";
    d += "Segundo o vereador, as obras começam no próximo mês e terminam no fim de " +
         std::to_string(2001 + i % 20) + ". ";
    d += "A reunião de ontem, às " + std::to_string(9 + i % 12) + "h" + std::to_string(10 + i % 50) +
         ", durou três horas; a anterior tinha sido há " + std::to_string(2 + i % 5) + " anos, no verão de " +
         year + ". ";
    d += "O jornal publicou a notícia em " + std::to_string(1 + i % 28) + "/" + std::to_string(1 + i % 12) +
         "/" + year + " e voltou ao assunto dois dias depois, na véspera do Natal. ";
    d += "Na década de " + std::to_string(1900 + (i % 10) * 10) + ", todos os domingos, a feira enchia a praça.";
    docs.push_back(std::move(d));
  }
  return docs;
}

TEST(TaggerMemory, TaggingTheSameDocumentsAgainDoesNotGrowTheHeap) {
#ifdef CRONISTA_UNDER_ASAN
  GTEST_SKIP() << "AddressSanitizer replaces malloc, so mallinfo2 does not measure the heap";
#else
  auto loaded = Tagger::load(TaggerOptions{testing::source_dir(), {}});
  ASSERT_TRUE(loaded.ok()) << loaded.status().message();
  const Tagger& tagger = **loaded;
  const std::vector<std::string> docs = documents();
  const Date dct{2009, 3, 12};
  std::size_t expressions = 0;
  auto pass = [&] {
    for (const std::string& d : docs) expressions += tagger.tag(d, dct).size();
  };
  pass();
  const std::size_t after_first = heap_in_use();
  const std::size_t found_once = expressions;
  for (int k = 0; k < 4; ++k) pass();
  const std::size_t after_fifth = heap_in_use();
  // The documents are really tagged: about ten expressions each.
  EXPECT_GE(found_once, 200u * 8);
  EXPECT_EQ(expressions, found_once * 5);
  // A few kB of slack for allocator bookkeeping; anything kept per document
  // (800 more documents tagged) would exceed it.
  EXPECT_LE(after_fifth, after_first + 16 * 1024)
      << "heap in use grew from " << after_first << " to " << after_fifth << " bytes";
#endif
}

}  // namespace
}  // namespace cronista::temporal
