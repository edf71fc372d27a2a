// cronista eval-revisit: freshness, age, hit rate and discovery latency of a
// crawl of the living sample web (from the server's request log), beside the
// reference policies replayed on the same change processes
// (eval/revisit_eval.h, eval/revisit_simulation.h).
#include <algorithm>
#include <iostream>
#include <sstream>

#include "cli/cli_common.h"
#include "cli/commands.h"
#include "eval/change_detection.h"
#include "eval/revisit_eval.h"
#include "eval/revisit_simulation.h"

namespace cronista::cli {

int cmd_eval_revisit(int argc, char** argv) {
  CLI::App app{"Freshness, age and discovery latency on the living sample web, measured and simulated.",
               "cronista eval-revisit"};
  std::string truth_path, log_path, window_text, out;
  std::vector<std::string> simulate, dbs;
  eval::SimulationOptions sim;
  app.add_option("--truth", truth_path, "living.jsonl of the web (sample-web generate --living)")->required();
  app.add_option("--log", log_path, "the server's request log (sample-web serve --living --request-log)");
  app.add_option("--window", window_text, "A..B: seconds since the server started (default: 0 to the log's last request, or the truth's horizon)");
  app.add_option("--simulate", simulate, "reference policy to replay, repeatable, or 'all'");
  app.add_option("--budget", sim.budget_per_s, "requests per second of the simulated policies")
      ->capture_default_str()->check(CLI::Range(0.001, 100000.0));
  app.add_option("--delay-ms", sim.delay_ms, "minimum gap between two requests to one host in the simulation")
      ->capture_default_str()->check(CLI::Range(0, 3600000));
  app.add_option("--db", dbs,
                 "the crawl's database (repeatable: a shared crawl's shards), to score its change verdicts against "
                 "the versions the --log says were served");
  app.add_option("--out", out, "folder for summary.md, figures.csv, chart.svg (created if missing)");
  if (auto code = parse(app, argc, argv)) return *code;
  if (log_path.empty() && simulate.empty())
    return fail("eval-revisit", "give --log, --simulate or both", kExitUsage);
  if (!dbs.empty() && log_path.empty())
    return fail("eval-revisit", "--db needs the --log of the server the crawl fetched from", kExitUsage);
  std::vector<eval::RevisitPolicy> policies;
  for (const std::string& s : simulate) {
    if (s == "all") {
      for (const std::string& name : eval::revisit_policy_names()) policies.push_back(*eval::parse_revisit_policy(name));
      continue;
    }
    auto p = eval::parse_revisit_policy(s);
    if (!p) return fail("eval-revisit", p.status().message(), kExitUsage);
    policies.push_back(*p);
  }
  std::optional<eval::RevisitWindow> window;
  if (!window_text.empty()) {
    auto w = eval::parse_window(window_text);
    if (!w) return fail("eval-revisit", w.status().message(), kExitUsage);
    window = *w;
  }

  auto truth = sampleweb::LivingTruth::load(truth_path);
  if (!truth) return fail("eval-revisit", truth.status().message());
  std::vector<eval::ServedRequest> measured;
  if (!log_path.empty()) {
    auto log = eval::read_request_log(log_path, *truth);
    if (!log) return fail("eval-revisit", log.status().message());
    measured = std::move(*log);
    if (std::none_of(measured.begin(), measured.end(), [](const eval::ServedRequest& r) { return r.page >= 0; }))
      return fail("eval-revisit", "no request in '" + log_path + "' is for a page of '" + truth_path +
                                      "' (a log of another web, or of another port?)");
    if (!window) {
      const std::int64_t last = measured.empty() ? 0 : measured.back().t_ms;
      if (last <= 0) return fail("eval-revisit", "'" + log_path + "' holds no request after the start; give --window");
      window = eval::RevisitWindow{0, last + 1};
    }
  }
  if (!window) window = eval::RevisitWindow{0, truth->horizon_ms};

  std::vector<eval::RevisitFigures> runs;
  if (!log_path.empty()) runs.push_back(eval::revisit_figures(*truth, measured, *window, "measured"));
  sim.end_ms = window->to_ms;
  for (eval::RevisitPolicy p : policies) {
    std::cerr << "eval-revisit: simulating " << eval::revisit_policy_names()[static_cast<std::size_t>(p)] << "\n";
    runs.push_back(eval::revisit_figures(*truth, eval::simulate_policy(*truth, p, sim), *window,
                                         eval::revisit_policy_names()[static_cast<std::size_t>(p)]));
  }
  std::ostringstream setting;
  if (!policies.empty())
    setting << "simulated policies: budget " << sim.budget_per_s << " requests/s, gap " << sim.delay_ms
            << " ms per host, every page fetched once at 0";
  std::string summary = eval::revisit_markdown(runs, setting.str());
  std::vector<std::pair<std::string, std::string>> files;
  if (!dbs.empty()) {
    auto changes = eval::change_detection(*truth, measured, dbs);
    if (!changes) return fail("eval-revisit", changes.status().message());
    if (changes->pages == 0)
      return fail("eval-revisit", "no page of the databases is a page of '" + truth_path +
                                      "' (a crawl of another web?)");
    summary += eval::change_detection_markdown(*changes);
    files.emplace_back("changes.csv", eval::change_detection_csv(*changes));
  }
  if (!out.empty()) {
    files.insert(files.begin(), {{"summary.md", summary},
                                 {"figures.csv", eval::revisit_csv(runs)},
                                 {"chart.svg", eval::revisit_svg(runs)}});
    if (Status st = write_outputs(out, files); !st.ok()) return fail("eval-revisit", st.message());
    std::cerr << "eval-revisit: wrote summary.md, figures.csv, chart.svg" << (dbs.empty() ? "" : ", changes.csv")
              << " in " << out << "\n";
  }
  if (Status st = write_output("", summary); !st.ok()) return fail("eval-revisit", st.message());
  return kExitOk;
}

}  // namespace cronista::cli
