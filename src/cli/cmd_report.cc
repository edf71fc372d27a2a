// cronista report: the temporal analysis tables of method.md §5 for a
// collection or crawl database, as Markdown, JSON or a self-contained HTML
// page (corpus/report.h does the work).
#include <filesystem>

#include "cli/cli_common.h"
#include "cli/commands.h"
#include "corpus/report.h"
#include "store/database.h"

namespace cronista::cli {

int cmd_report(int argc, char** argv) {
  CLI::App app{"Temporal analysis report of a collection or crawl database.", "cronista report"};
  app.option_defaults()->always_capture_default();  // --help shows defaults
  std::string db_path, format = "md", out;
  app.add_option("--db", db_path, "collection or crawl database")->required();
  app.add_option("--format", format, "md, html or json")->check(CLI::IsMember({"md", "html", "json"}));
  app.add_option("--out", out, "write here instead of stdout");
  if (auto code = parse(app, argc, argv)) return *code;

  std::error_code ec;
  if (!std::filesystem::is_regular_file(db_path, ec)) return fail("report", "no database at '" + db_path + "'");
  auto db = store::Database::open(db_path, /*read_only=*/true);
  if (!db.ok()) return fail("report", db.status().message());
  auto report = corpus::compute_report(*db);
  if (!report.ok()) return fail("report", report.status().message());
  std::string text = format == "json"   ? corpus::render_json(*report)
                     : format == "html" ? corpus::render_html(*report)
                                        : corpus::render_markdown(*report);
  if (Status s = write_output(out, text); !s.ok()) return fail("report", s.message());
  return kExitOk;
}

}  // namespace cronista::cli
