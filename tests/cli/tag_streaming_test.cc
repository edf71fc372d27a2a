// `cronista tag` on inputs of any size: plain text is read, tagged and
// written piece by piece, so its output starts before its input ends and
// its memory does not grow with the input; the pieces give what the whole
// text gives, anaphora across a cut included.
#include <gtest/gtest.h>

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <nlohmann/json.hpp>

#include <filesystem>
#include <fstream>
#include <string>

#include "test_support.h"

namespace cronista {
namespace {

using testing::run_cronista;

// A paragraph of our own writing, with dates of every kind.
const std::string kParagraph =
    "A câmara reuniu a 14 de março de 2011 e voltou a reunir dois dias depois; "
    "na sessão de abril, às 21h30, decidiu que as obras durariam três meses.\n\n";

TEST(TagStreaming, OutputBeginsBeforeTheInputEnds) {
  int to_child[2], from_child[2];
  ASSERT_EQ(::pipe(to_child), 0);
  ASSERT_EQ(::pipe(from_child), 0);
  // Built before fork(): the child of a threaded process may not allocate.
  std::string bin = testing::cronista_binary();
  std::string a1 = "tag", a2 = "--dct", a3 = "2011-03-20", a4 = "--piece-size", a5 = "4096";
  char* argv[] = {bin.data(), a1.data(), a2.data(), a3.data(), a4.data(), a5.data(), nullptr};
  const pid_t pid = ::fork();
  ASSERT_GE(pid, 0);
  if (pid == 0) {
    ::dup2(to_child[0], 0);
    ::dup2(from_child[1], 1);
    const int null = ::open("/dev/null", O_WRONLY);
    ::dup2(null, 2);
    ::close(to_child[1]);
    ::close(from_child[0]);
    ::execv(argv[0], argv);
    ::_exit(127);
  }
  ::close(to_child[0]);
  ::close(from_child[1]);
  ::signal(SIGPIPE, SIG_IGN);
  // Write up to 16 MB of text, reading whatever comes back meanwhile; a
  // command that reads everything before writing shows nothing until the
  // input is closed.
  std::string received;
  std::size_t sent = 0;
  constexpr std::size_t kLimit = std::size_t{16} << 20;
  while (sent < kLimit && received.find("\"start\"") == std::string::npos) {
    pollfd fds[2] = {{to_child[1], POLLOUT, 0}, {from_child[0], POLLIN, 0}};
    if (::poll(fds, 2, 60000) <= 0) break;
    if (fds[1].revents & POLLIN) {
      char buf[65536];
      const ssize_t n = ::read(from_child[0], buf, sizeof buf);
      if (n > 0) received.append(buf, static_cast<std::size_t>(n));
    }
    if (fds[0].revents & POLLOUT) {
      const ssize_t n = ::write(to_child[1], kParagraph.data(), kParagraph.size());
      if (n <= 0) break;
      sent += static_cast<std::size_t>(n);
    }
    if (fds[1].revents & (POLLHUP | POLLERR)) break;
  }
  const bool streamed = received.find("\"start\"") != std::string::npos;
  ::close(to_child[1]);
  for (char buf[65536]; ::read(from_child[0], buf, sizeof buf) > 0;) {
  }
  ::close(from_child[0]);
  int status = 0;
  ::waitpid(pid, &status, 0);
  EXPECT_TRUE(streamed) << "no expression on stdout after " << sent << " bytes of input";
  EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0);
}

TEST(TagStreaming, AnaphoraResolvesAcrossTheCutBetweenPieces) {
  // The cut falls at the blank line: the second piece's "no ano seguinte"
  // refers to the first piece's 1944.
  std::string text = "O desembarque deu-se em junho de 1944.\n\n";
  text += std::string(1200, ' ') + "\n\nNo ano seguinte a guerra acabou.\n";
  auto run = run_cronista({"tag", "--piece-size", "1024"}, text);
  ASSERT_EQ(run.exit_code, 0) << run.err;
  const auto j = nlohmann::json::parse(run.out);
  ASSERT_EQ(j["expressions"].size(), 2u) << run.out;
  EXPECT_EQ(j["expressions"][1]["text"], "ano seguinte");
  EXPECT_EQ(j["expressions"][1]["value"], "1945");
  const std::size_t start = j["expressions"][1]["start"];
  EXPECT_EQ(text.substr(start, 12), "ano seguinte");
}

// Real text: the news of ../shared/data/raw, one document.
std::string shared_news() {
  const std::string dir = testing::shared_data_dir();
  if (dir.empty()) return {};
  std::ifstream in(dir + "/raw/news-ptbr.jsonl");
  std::string line, text;
  while (std::getline(in, line) && text.size() < 400000) {
    auto j = nlohmann::json::parse(line, nullptr, false);
    if (j.is_object() && j["text"].is_string()) text += j["text"].get<std::string>() + "\n\n";
  }
  return text;
}

TEST(TagStreaming, PiecesGiveWhatTheWholeTextGives) {
  const std::string text = shared_news();
  if (text.empty()) GTEST_SKIP() << "../shared/data/raw/news-ptbr.jsonl not found";
  testing::TempDir tmp;
  testing::write_file(tmp / "news.txt", text);
  auto whole = run_cronista({"tag", "--dct", "2019-05-01", "--piece-size", "1073741824", (tmp / "news.txt").string()});
  auto pieces = run_cronista({"tag", "--dct", "2019-05-01", "--piece-size", "2048", (tmp / "news.txt").string()});
  ASSERT_EQ(whole.exit_code, 0) << whole.err;
  ASSERT_EQ(pieces.exit_code, 0) << pieces.err;
  EXPECT_GT(nlohmann::json::parse(whole.out)["expressions"].size(), 500u);
  EXPECT_TRUE(whole.out == pieces.out) << "the output in 2 KB pieces differs from the whole text's";
}

TEST(TagStreaming, InvalidUtf8InALaterPieceNamesItsOffsetAndRemovesTheOutFile) {
  std::string text;
  while (text.size() < 8192) text += kParagraph;
  const std::size_t bad = text.size() + 5;
  text += "Em 19\xff" "44 houve guerra.\n";
  testing::TempDir tmp;
  testing::write_file(tmp / "in.txt", text);
  auto run = run_cronista({"tag", "--piece-size", "2048", "--out", (tmp / "out.json").string(), (tmp / "in.txt").string()});
  EXPECT_EQ(run.exit_code, 1);
  EXPECT_NE(run.err.find("offset " + std::to_string(bad)), std::string::npos) << run.err;
  EXPECT_EQ(testing::count_lines(run.err), 1) << run.err;
  EXPECT_FALSE(std::filesystem::exists(tmp / "out.json"));
}

}  // namespace
}  // namespace cronista
