// cronista eval-replicas: replica detection on a crawl (or collection)
// database scored against a replica truth file (eval/replica_eval.h).
#include <filesystem>
#include <iostream>
#include <memory>

#include "cli/cli_common.h"
#include "cli/commands.h"
#include "eval/replica_eval.h"
#include "replicas/replica_detection.h"
#include "replicas/site_profiles_db.h"
#include "store/database.h"

namespace cronista::cli {

int cmd_eval_replicas(int argc, char** argv) {
  CLI::App app{"Score replica detection on a crawl against a replica truth file.", "cronista eval-replicas"};
  std::string truth_path, db_path, baseline_path, format = "md", out;
  app.add_option("--truth", truth_path, "replicas.json written by `sample-web generate --replicas`")->required();
  app.add_option("--db", db_path, "crawl (or collection) database to detect replicas in")->required();
  app.add_option("--baseline-db", baseline_path,
                 "a crawl of the same web without replica detection (`crawl --replicas off`): requests compared");
  app.add_option("--format", format, "md (default) or json")->check(CLI::IsMember({"md", "json"}));
  app.add_option("--out", out, "write here instead of stdout");
  if (auto code = parse(app, argc, argv)) return *code;

  auto truth = eval::read_replica_truth(truth_path);
  if (!truth.ok()) return fail("eval-replicas", truth.status().message());
  auto open = [](const std::string& path, const char* option) -> Result<store::Database> {
    std::error_code ec;
    if (!std::filesystem::is_regular_file(path, ec))
      return Result<store::Database>::Error(std::string("no database at '") + path + "' (" + option + ")");
    return store::Database::open(path, /*read_only=*/true);
  };
  auto db = open(db_path, "--db");
  if (!db.ok()) return fail("eval-replicas", db.status().message());
  std::unique_ptr<store::Database> baseline;
  if (!baseline_path.empty()) {
    auto b = open(baseline_path, "--baseline-db");
    if (!b.ok()) return fail("eval-replicas", b.status().message());
    baseline = std::make_unique<store::Database>(std::move(*b));
  }
  auto profiles = replicas::read_site_profiles(*db);
  if (!profiles.ok()) return fail("eval-replicas", profiles.status().message());
  if (profiles->documents == 0) return fail("eval-replicas", "database '" + db_path + "' holds no document with a URL");
  const auto report = replicas::detect_replicas(profiles->sites);
  auto e = eval::evaluate_replicas(*truth, profiles->sites, report, *db, baseline.get());
  if (!e.ok()) return fail("eval-replicas", e.status().message());
  const std::string text = format == "json" ? eval::replica_evaluation_json(*e) : eval::replica_evaluation_markdown(*e);
  if (Status s = write_output(out, text); !s.ok()) return fail("eval-replicas", s.message());
  return kExitOk;
}

}  // namespace cronista::cli
