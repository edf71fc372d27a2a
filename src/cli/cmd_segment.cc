#include "cli/cli_common.h"
#include "cli/commands.h"

namespace cronista::cli {

int cmd_segment(int argc, char** argv) {
  CLI::App app{"Cut one Portuguese document into temporal segments.", "cronista segment"};
  std::string format = "json", dct, input = "-", out, granularity = "sentence", base_url;
  bool html = false, lenient = false;
  app.add_option("--format", format, "json or xml")->check(CLI::IsMember({"json", "xml"}));
  app.add_option("--dct", dct, "document creation time, YYYY-MM-DD")->check(date_validator());
  app.add_flag("--html", html, "the input is HTML");
  app.add_flag("--lenient", lenient, "replace invalid UTF-8 instead of failing");
  app.add_option("--granularity", granularity, "sentence or paragraph")
      ->check(CLI::IsMember({"sentence", "paragraph"}));
  app.add_option("--base-url", base_url, "resolve links against this URL");
  app.add_option("--out", out, "write here instead of stdout");
  app.add_option("input", input, "input file, or - for stdin");
  if (auto code = parse(app, argc, argv)) return *code;
  return not_yet("segment", "the temporal segmenter");
}

}  // namespace cronista::cli
