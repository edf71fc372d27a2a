#include "cli/cli_common.h"
#include "cli/commands.h"

namespace cronista::cli {

int cmd_eval_tagger(int argc, char** argv) {
  CLI::App app{"Score the tagger against TimeML (.tml) or HAREM gold annotations.", "cronista eval-tagger"};
  std::vector<std::string> gold;
  bool errors = false;
  app.add_option("--gold", gold, "gold files or folders")->required();
  app.add_flag("--errors", errors, "list misses and false alarms");
  if (auto code = parse(app, argc, argv)) return *code;
  return not_yet("eval-tagger", "the tagger evaluator");
}

}  // namespace cronista::cli
