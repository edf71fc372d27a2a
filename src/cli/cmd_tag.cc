#include "cli/cli_common.h"
#include "cli/commands.h"

namespace cronista::cli {

int cmd_tag(int argc, char** argv) {
  CLI::App app{"Find, classify and resolve the temporal expressions of one Portuguese document.", "cronista tag"};
  std::string format = "json", dct, input = "-", out;
  bool html = false, lenient = false;
  app.add_option("--format", format, "json, timex3 or harem")->check(CLI::IsMember({"json", "timex3", "harem"}));
  app.add_option("--dct", dct, "document creation time, YYYY-MM-DD")->check(date_validator());
  app.add_flag("--html", html, "the input is HTML");
  app.add_flag("--lenient", lenient, "replace invalid UTF-8 instead of failing");
  app.add_option("--out", out, "write here instead of stdout");
  app.add_option("input", input, "input file, or - for stdin");
  if (auto code = parse(app, argc, argv)) return *code;
  return not_yet("tag", "the temporal tagger");
}

}  // namespace cronista::cli
