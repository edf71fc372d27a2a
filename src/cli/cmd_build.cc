#include "cli/cli_common.h"
#include "cli/commands.h"

namespace cronista::cli {

int cmd_build(int argc, char** argv) {
  CLI::App app{"Tag and segment a whole collection into a database.", "cronista build"};
  std::string input, format, db, out;
  int threads = 0;
  app.add_option("--input", input, "collection file or folder")->required();
  app.add_option("--format", format, "wpt03, warc, html-dir, text-dir or jsonl")
      ->required()
      ->check(CLI::IsMember({"wpt03", "warc", "html-dir", "text-dir", "jsonl"}));
  app.add_option("--db", db, "SQLite database to fill")->required();
  app.add_option("--out", out, "also write the segmented collection as XML");
  app.add_option("--threads", threads, "worker threads (default: all cores)");
  if (auto code = parse(app, argc, argv)) return *code;
  return not_yet("build", "collection building");
}

}  // namespace cronista::cli
