#include "cli/cli_common.h"
#include "cli/commands.h"

namespace cronista::cli {

int cmd_learn(int argc, char** argv) {
  CLI::App app{"Learn temporal-expression patterns from a corpus (co-occurrence processor).", "cronista learn"};
  std::vector<std::string> corpus;
  std::string resources, out;
  int window = 2;
  app.add_option("--corpus", corpus, "text files, folders or JSONL files")->required();
  app.add_option("--resources", resources, "folder with the Portuguese word lists (default resources/pt)");
  app.add_option("--window", window, "words before and after a marker")->check(CLI::Range(1, 8));
  app.add_option("--out", out, "pattern file to write")->required();
  if (auto code = parse(app, argc, argv)) return *code;
  return not_yet("learn", "the pattern learner");
}

}  // namespace cronista::cli
