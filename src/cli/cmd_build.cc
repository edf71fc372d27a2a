// cronista build: tag and segment a whole collection into a database (and,
// with --out, the segmented XML). The pipeline lives in
// corpus/collection_builder.h; this file maps the command line onto it.
#include <sqlite3.h>

#include <filesystem>
#include <iostream>
#include <thread>

#include "cli/cli_common.h"
#include "cli/commands.h"
#include "corpus/collection_builder.h"
#include "temporal/tagger.h"

namespace cronista::cli {

int cmd_build(int argc, char** argv) {
  CLI::App app{"Tag and segment a whole collection into a database.", "cronista build"};
  app.option_defaults()->always_capture_default();  // --help shows defaults
  std::string input, format, db, out, granularity = "sentence", resources;
  std::vector<std::string> patterns;
  int threads = 0;
  std::size_t batch = 500;
  bool quiet = false;
  app.add_option("--input", input, "collection file or folder")->required();
  app.add_option("--format", format, "wpt03, warc, html-dir, text-dir or jsonl")
      ->required()
      ->check(CLI::IsMember({"wpt03", "warc", "html-dir", "text-dir", "jsonl"}));
  app.add_option("--db", db, "SQLite database to fill (created if missing; re-running resumes)")->required();
  app.add_option("--out", out, "also write the segmented collection as XML (colCHAVE layout)");
  app.add_option("--threads", threads, "analysis threads (default: all cores)")->check(non_negative());
  app.add_option("--granularity", granularity, "segment by sentence or paragraph")
      ->check(CLI::IsMember({"sentence", "paragraph"}));
  std::string genre = "news";
  add_genre_option(app, genre);
  app.add_option("--home,--resources", resources, "folder holding resources/pt and patterns/ (default: $CRONISTA_HOME or the source tree); --resources is an older name");
  app.add_option("--patterns", patterns, kPatternsHelp)->allow_extra_args(false);
  app.add_option("--batch", batch, "documents per database transaction")->check(positive());
  app.add_flag("--quiet", quiet, "no progress lines on stderr");
  if (auto code = parse(app, argc, argv)) return *code;

  // SQLite's memory statistics take a global mutex on every allocation; the
  // build's single writer does not need them. Must precede any SQLite use.
  sqlite3_config(SQLITE_CONFIG_MEMSTATUS, 0);
  auto fmt = corpus::parse_collection_format(format);
  if (!fmt.ok()) return fail("build", fmt.status().message(), kExitUsage);
  std::error_code ec;
  if (!std::filesystem::exists(input, ec)) return fail("build", "no such file or folder '" + input + "' (--input)");
  auto tagger = temporal::Tagger::load(
      temporal::TaggerOptions{resources.empty() ? temporal::default_home() : resources, patterns, genre_named(genre)});
  if (!tagger.ok()) return fail("build", tagger.status().message());

  corpus::BuildOptions options;
  options.input = input;
  options.format = *fmt;
  options.db_path = db;
  options.xml_out = out;
  options.threads = threads;
  options.batch_documents = batch;
  options.genre = genre_named(genre);
  options.granularity =
      granularity == "paragraph" ? temporal::SegmentGranularity::Paragraph : temporal::SegmentGranularity::Sentence;
  options.progress = [quiet](const std::string& line) {
    // Skipped records are always reported; rates only without --quiet.
    if (quiet && line.rfind("skipped ", 0) != 0) return;
    std::cerr << "cronista build: " << line << "\n";
  };
  auto stats = corpus::build_collection(options, **tagger);
  if (!stats.ok()) return fail("build", stats.status().message());
  std::cerr << "cronista build: " << corpus::format_build_summary(*stats) << "\n";
  // A build that built nothing is a mistake to report, not a success.
  if (stats->documents_read == 0)
    return fail("build", "read no document from '" + input + "' as --format " + format +
                             ": check that --format matches the input (wpt03, warc, html-dir, text-dir, jsonl)");
  if (stats->documents_built == 0 && stats->documents_skipped == 0)
    return fail("build", "none of the " + std::to_string(stats->documents_read) +
                             " documents read could be built (the skipped records are named above)");
  return kExitOk;
}

}  // namespace cronista::cli
