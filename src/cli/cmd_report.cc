#include "cli/cli_common.h"
#include "cli/commands.h"

namespace cronista::cli {

int cmd_report(int argc, char** argv) {
  CLI::App app{"Temporal analysis report of a collection or crawl database.", "cronista report"};
  std::string db, format = "md", out;
  app.add_option("--db", db, "collection or crawl database")->required();
  app.add_option("--format", format, "md, html or json")->check(CLI::IsMember({"md", "html", "json"}));
  app.add_option("--out", out, "write here instead of stdout");
  if (auto code = parse(app, argc, argv)) return *code;
  return not_yet("report", "the collection report");
}

}  // namespace cronista::cli
