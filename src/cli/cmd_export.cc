// cronista export: the passages a crawl or a collection found (the dated
// segments of main text, or with --in-scope those the crawl judged inside its
// period), with their pages and dates, as CSV, JSON Lines or a readable HTML
// page. The work is in corpus/passage_export.h.
#include <filesystem>
#include <fstream>
#include <iostream>

#include "cli/cli_common.h"
#include "cli/commands.h"
#include "corpus/passage_export.h"
#include "store/database.h"

namespace cronista::cli {

int cmd_export(int argc, char** argv) {
  CLI::App app{"Export the passages found: each dated segment with its page, text, dates and chronons.",
               "cronista export"};
  app.option_defaults()->always_capture_default();
  std::string db_path, format = "jsonl", out;
  bool in_scope = false;
  app.add_option("--db", db_path, "database of a crawl or of a built collection")->required();
  app.add_option("--format", format, "csv, jsonl or html (a page grouped by year, dates highlighted)")
      ->check(CLI::IsMember({"csv", "jsonl", "html"}));
  app.add_flag("--in-scope", in_scope, "only the segments the crawl judged inside its period");
  app.add_option("--out", out, "write here instead of standard output");
  if (auto code = parse(app, argc, argv)) return *code;

  std::error_code ec;
  if (!std::filesystem::is_regular_file(db_path, ec)) return fail("export", "no database '" + db_path + "' (--db)");
  auto db = store::Database::open(db_path, /*read_only=*/true);
  if (!db.ok()) return fail("export", db.status().message());
  corpus::ExportOptions options;
  options.format = *corpus::parse_export_format(format);
  options.in_scope_only = in_scope;
  options.title = std::filesystem::path(db_path).filename().string();

  // A file is written beside its final name and renamed at the end, so that
  // a failed export leaves no half-written file under that name.
  const std::string tmp = out.empty() || out == "-" ? std::string() : out + ".part";
  std::ofstream file;
  if (!tmp.empty()) {
    file.open(tmp, std::ios::binary | std::ios::trunc);
    if (!file) return fail("export", "cannot write '" + out + "'");
  }
  std::ostream& stream = tmp.empty() ? std::cout : file;
  auto stats = corpus::export_passages(*db, options, stream);
  if (!tmp.empty()) file.close();
  if (!stats.ok() || (!tmp.empty() && !file)) {
    if (!tmp.empty()) std::filesystem::remove(tmp, ec);
    return fail("export", stats.ok() ? "cannot write '" + out + "'" : stats.status().message());
  }
  if (!tmp.empty()) {
    std::filesystem::rename(tmp, out, ec);
    if (ec) return fail("export", "cannot write '" + out + "': " + ec.message());
  }
  std::cerr << "cronista export: " << stats->passages << " passages from " << stats->documents << " documents"
            << (out.empty() ? std::string() : " written to " + out) << "\n";
  if (stats->without_text > 0)
    std::cerr << "cronista export: warning: " << stats->without_text
              << " passages have no stored text (the database was made by an older cronista); build or crawl it "
                 "again to export their text\n";
  return kExitOk;
}

}  // namespace cronista::cli
