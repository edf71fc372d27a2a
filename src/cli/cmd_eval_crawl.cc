// cronista eval-crawl: precision and recall of crawls against a sample web's
// ground truth, with an oracle run as reference (eval/crawl_eval.h).
#include <filesystem>
#include <iostream>

#include "cli/cli_common.h"
#include "cli/commands.h"
#include "eval/crawl_eval.h"

namespace cronista::cli {

int cmd_eval_crawl(int argc, char** argv) {
  CLI::App app{"Precision and recall of crawls against a sample web's ground truth.", "cronista eval-crawl"};
  app.option_defaults()->always_capture_default();  // --help shows defaults
  eval::EvalCrawlOptions o;
  std::string out;
  bool no_oracle = false;
  app.add_option("--truth", o.truth_path, "truth.jsonl of the sample web")->required();
  app.add_option("--scope", o.scope, "period: A-B (years), A..B, or one of YYYY, YYYY-MM, YYYY-MM-DD (BCYYYY… before the year 1)")->required();
  auto* order = app.add_option("--order", o.order_paths, "download order of a crawl (--order-out), repeatable");
  auto* order_db = app.add_option("--order-db", o.order_dbs,
                                  "one more run, read from a crawl database; repeated: the shards of one shared crawl, "
                                  "merged by fetch time")
                       ->allow_extra_args(false);
  app.add_option("--name", o.names,
                 "a name per --order, in the same order, then one for --order-db (default: the file name)");
  app.add_option("--oracle-seeds,--seeds", o.seeds_path,
                 "seeds for the oracle and for reachability (default: seeds-<scope>.txt beside the truth file)");
  app.add_flag("--no-oracle", no_oracle, "leave the oracle run out");
  app.add_option("--db", o.db_paths,
                 "crawl database: list pages its tagger judged differently from the truth, and give the oracle its "
                 "measured response times on the time axis; repeated: the shards of one shared crawl")
      ->allow_extra_args(false);
  app.add_option("--delay-ms", o.delay_ms,
                 "the crawls' minimum gap per host, for the oracle on the time axis (default 1000)")
      ->check(CLI::NonNegativeNumber);
  app.add_option("--out", out,
                 "folder for summary.md, cutoffs.csv, curves.csv, time-cutoffs.csv, chart.svg, time-chart.svg (created if "
                 "missing)");
  if (auto code = parse(app, argc, argv)) return *code;
  if (order->count() == 0 && order_db->count() == 0)
    return fail("eval-crawl", "no run: give --order FILE or --order-db DB", kExitUsage);
  o.oracle = !no_oracle;
  if (auto scope = eval::parse_scope(o.scope); !scope.ok())
    return fail("eval-crawl", scope.status().message(), kExitUsage);

  auto e = eval::evaluate_crawls(o);
  if (!e) return fail("eval-crawl", e.status().message());
  if (e->seeds.empty())
    std::cerr << "eval-crawl: warning: no seeds file (looked for "
              << (std::filesystem::path(o.truth_path).parent_path() / ("seeds-" + o.scope + ".txt")).string()
              << "): no oracle run and no reachability; give the crawl's seeds with --oracle-seeds FILE\n";
  const std::string summary = eval::summary_markdown(*e);
  if (!out.empty()) {
    const std::filesystem::path dir(out);
    if (Status st = write_outputs(out, {{"summary.md", summary},
                                        {"cutoffs.csv", eval::cutoffs_csv(*e)},
                                        {"curves.csv", eval::curves_csv(*e)},
                                        {"time-cutoffs.csv", eval::time_cutoffs_csv(*e)},
                                        {"chart.svg", eval::chart_svg(*e)},
                                        {"time-chart.svg", eval::time_chart_svg(*e)}});
        !st.ok())
      return fail("eval-crawl", st.message());
    if (!o.db_paths.empty()) {
      if (Status st = write_output((dir / "tagger-disagreements.csv").string(), eval::disagreements_csv(*e)); !st.ok())
        return fail("eval-crawl", st.message());
    }
    std::cerr << "eval-crawl: wrote summary.md, cutoffs.csv, curves.csv, time-cutoffs.csv, chart.svg, time-chart.svg"
              << (o.db_paths.empty() ? "" : ", tagger-disagreements.csv") << " in " << out << "\n";
  }
  if (Status st = write_output("", summary); !st.ok()) return fail("eval-crawl", st.message());
  return kExitOk;
}

}  // namespace cronista::cli
