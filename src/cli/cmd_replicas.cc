// cronista replicas: the replica sites (mirrors) among the hosts of a crawl
// or collection database, with a canonical host per cluster and the
// evidence for each decision (replicas/replica_detection.h).
#include <filesystem>
#include <iostream>

#include "cli/cli_common.h"
#include "cli/commands.h"
#include "replicas/replica_detection.h"
#include "replicas/site_profiles_db.h"
#include "store/database.h"

namespace cronista::cli {

int cmd_replicas(int argc, char** argv) {
  CLI::App app{"Replica sites (mirrors) among the hosts of a crawl or collection database.", "cronista replicas"};
  std::string db_path, format = "json", out;
  app.add_option("--db", db_path, "crawl or collection database")->required();
  app.add_option("--format", format, "json (default) or md")->check(CLI::IsMember({"json", "md"}));
  app.add_option("--out", out, "write here instead of stdout");
  if (auto code = parse(app, argc, argv)) return *code;

  std::error_code ec;
  if (!std::filesystem::is_regular_file(db_path, ec)) return fail("replicas", "no database at '" + db_path + "'");
  auto db = store::Database::open(db_path, /*read_only=*/true);
  if (!db.ok()) return fail("replicas", db.status().message());
  auto profiles = replicas::read_site_profiles(*db);
  if (!profiles.ok()) return fail("replicas", profiles.status().message());
  if (profiles->documents == 0) return fail("replicas", "database '" + db_path + "' holds no document with a URL");
  if (!profiles->main_text)
    std::cerr << "cronista replicas: '" << db_path
              << "' keeps no segment texts (made by an older cronista): pages are compared by their whole bodies\n";
  const auto report = replicas::detect_replicas(profiles->sites);
  const std::string text = format == "md" ? replicas::replicas_markdown(profiles->sites, report)
                                          : replicas::replicas_json(profiles->sites, report);
  if (Status s = write_output(out, text); !s.ok()) return fail("replicas", s.message());
  std::cerr << "cronista replicas: " << profiles->sites.size() << " sites, " << profiles->documents << " documents, "
            << report.pairs.size() << " candidate pairs, " << report.clusters.size() << " clusters\n";
  return kExitOk;
}

}  // namespace cronista::cli
