// cronista report: the temporal analysis tables of method.md §5 for a
// collection or crawl database, as Markdown, JSON or a self-contained HTML
// page (corpus/report.h does the work). Several --db are the shards of one
// shared crawl, read as one (crawler/crawl_shards.h).

#include "cli/cli_common.h"
#include "cli/commands.h"
#include "corpus/report.h"
#include "crawler/crawl_shards.h"
#include "store/database.h"

namespace cronista::cli {

int cmd_report(int argc, char** argv) {
  CLI::App app{"Temporal analysis report of a collection or crawl database.", "cronista report"};
  app.option_defaults()->always_capture_default();  // --help shows defaults
  std::vector<std::string> db_paths;
  std::string format = "md", out;
  app.add_option("--db", db_paths,
                 "collection or crawl database; repeated: the shards of one shared crawl (crawl --crawl-id), read as one")
      ->required()
      ->allow_extra_args(false);
  app.add_option("--format", format, "md, html or json")->check(CLI::IsMember({"md", "html", "json"}));
  app.add_option("--out", out, "write here instead of stdout");
  if (auto code = parse(app, argc, argv)) return *code;

  auto db = crawler::open_shards(db_paths);
  if (!db.ok()) return fail("report", db.status().message());
  auto report = corpus::compute_report(*db);
  if (!report.ok()) return fail("report", report.status().message());
  if (db_paths.size() > 1) {
    report->database.clear();
    for (const auto& p : db_paths) report->database += (report->database.empty() ? "" : " + ") + p;
  }
  std::string text = format == "json"   ? corpus::render_json(*report)
                     : format == "html" ? corpus::render_html(*report)
                                        : corpus::render_markdown(*report);
  if (Status s = write_output(out, text); !s.ok()) return fail("report", s.message());
  return kExitOk;
}

}  // namespace cronista::cli
