// `cronista tag --threads N`: the pieces of a plain text are scanned on N
// threads and resolved in order on one; the output is that of one thread,
// anchors carried across the cuts between pieces included.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include <string>

#include "test_support.h"

namespace cronista {
namespace {

using testing::run_cronista;

// Minutes of a town council of our own writing, one meeting a paragraph.
// Every paragraph opens with expressions resolved against the date the
// paragraph before ends with (a different year each), so whichever blank
// line a piece is cut at, an expression ends right before the cut and the
// next piece starts with dates that depend on the piece before.
std::string minutes(int paragraphs) {
  const std::string prose =
      "Os vereadores discutiram a reparação das estradas, a compra de livros para a biblioteca municipal e as "
      "queixas dos moradores sobre o ruído das obras no largo da igreja. A oposição pediu mais informação "
      "sobre os custos e o presidente prometeu publicar as contas no sítio da câmara. ";
  std::string text;
  for (int k = 0; k < paragraphs; ++k) {
    text += "No dia seguinte, os vereadores visitaram a escola. Dois dias depois houve nova reunião. ";
    for (int i = 0; i < 8; ++i) text += prose;
    text += "A câmara aprovou o orçamento a 14 de abril de " + std::to_string(1850 + k) + ".\n\n";
  }
  return text;
}

TEST(TagThreads, FourThreadsWriteWhatOneWrites) {
  const int paragraphs = 160;  // about 300 KB: several pieces of about 64 KB at --piece-size 1024
  const std::string text = minutes(paragraphs);
  testing::TempDir tmp;
  testing::write_file(tmp / "actas.txt", text);
  const std::string path = (tmp / "actas.txt").string();
  const std::vector<std::string> common = {"tag", "--dct", "2020-01-10", "--piece-size", "1024"};
  auto with = [&](std::vector<std::string> extra, const std::string& input) {
    std::vector<std::string> args = common;
    args.insert(args.end(), extra.begin(), extra.end());
    return run_cronista(args, input);
  };
  const auto one = with({"--threads", "1", path}, "");
  const auto four = with({"--threads", "4", path}, "");
  const auto four_stdin = with({"--threads", "4", "-"}, text);
  ASSERT_EQ(one.exit_code, 0) << one.err;
  ASSERT_EQ(four.exit_code, 0) << four.err;
  ASSERT_EQ(four_stdin.exit_code, 0) << four_stdin.err;
  EXPECT_TRUE(one.out == four.out) << "--threads 4 wrote another output than --threads 1";
  EXPECT_TRUE(one.out == four_stdin.out) << "--threads 4 on standard input wrote another output than --threads 1";

  // Each "dia seguinte" is the day after the date that ends the paragraph
  // before, in the piece before when a cut falls between them.
  const auto j = nlohmann::json::parse(one.out);
  int next_days = 0;
  std::string previous;
  for (const auto& e : j["expressions"]) {
    const std::string t = e["text"], value = e["value"];
    if (t.rfind("14 de abril de ", 0) == 0) {
      previous = value;
      continue;
    }
    if (t != "dia seguinte" || previous.empty()) continue;
    ++next_days;
    EXPECT_EQ(value, previous.substr(0, 8) + "15") << "after " << previous;
  }
  EXPECT_EQ(next_days, paragraphs - 1);
}

TEST(TagThreads, TimexAndHaremFormatsAlsoMatchOneThread) {
  const std::string text = minutes(40);
  testing::TempDir tmp;
  testing::write_file(tmp / "actas.txt", text);
  for (const std::string format : {"timex3", "harem"}) {
    const auto one = run_cronista({"tag", "--format", format, "--dct", "2020-01-10", "--piece-size", "1024",
                                   "--threads", "1", (tmp / "actas.txt").string()});
    const auto three = run_cronista({"tag", "--format", format, "--dct", "2020-01-10", "--piece-size", "1024",
                                     "--threads", "3", (tmp / "actas.txt").string()});
    ASSERT_EQ(one.exit_code, 0) << one.err;
    ASSERT_EQ(three.exit_code, 0) << three.err;
    // Every "dia seguinte" after the first date is marked, in both outputs.
    int marked = 0;
    for (std::size_t at = 0; (at = one.out.find("dia seguinte</", at)) != std::string::npos; ++at) ++marked;
    EXPECT_GE(marked, 39) << format;
    EXPECT_TRUE(one.out == three.out) << format << ": --threads 3 wrote another output than --threads 1";
  }
}

TEST(TagThreads, ZeroThreadsIsAUsageError) {
  const auto run = run_cronista({"tag", "--threads", "0"}, "Em 2010.\n");
  EXPECT_EQ(run.exit_code, 2) << run.err;
  EXPECT_NE(run.err.find("--threads"), std::string::npos) << run.err;
}

}  // namespace
}  // namespace cronista
