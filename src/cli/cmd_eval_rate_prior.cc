// cronista eval-rate-prior: the error of log λ of the learned prior and of
// the constant prior, from a revisit crawl of the living sample web,
// against the truth's rates (eval/rate_prior_eval.h).
#include "cli/cli_common.h"
#include "cli/commands.h"
#include "eval/rate_prior_eval.h"

namespace cronista::cli {

int cmd_eval_rate_prior(int argc, char** argv) {
  CLI::App app{"Error of log change rate of the learned and the constant prior, from a revisit crawl of the living "
               "sample web.",
               "cronista eval-rate-prior"};
  std::string truth_path, db, out;
  eval::RatePriorEvalOptions options;
  app.add_option("--truth", truth_path, "living.jsonl of the web (sample-web generate --living)")->required();
  app.add_option("--db", db, "the database of a crawl --revisit of that web")->required();
  app.add_option("--folds", options.folds, "cross-validation folds, pages split by a hash of their URL")
      ->capture_default_str()->check(CLI::Range(2, 100));
  app.add_flag("--by-host", options.by_host, "one fold per host instead: the model never sees the host it predicts");
  app.add_option("--floor-rate", options.floor_rate,
                 "changes per second that a static page (rate 0) and any lower rate count as in the log error")
      ->capture_default_str()->check(CLI::PositiveNumber);
  app.add_option("--out", out, "folder for summary.md and figures.csv (created if missing)");
  if (auto code = parse(app, argc, argv)) return *code;
  auto truth = sampleweb::LivingTruth::load(truth_path);
  if (!truth) return fail("eval-rate-prior", truth.status().message());
  auto e = eval::evaluate_rate_prior(db, *truth, options);
  if (!e) return fail("eval-rate-prior", e.status().message());
  const std::string summary = eval::rate_prior_markdown(*e);
  if (!out.empty())
    if (Status st = write_outputs(out, {{"summary.md", summary}, {"figures.csv", eval::rate_prior_csv(*e)}}); !st.ok())
      return fail("eval-rate-prior", st.message());
  if (Status st = write_output("", summary); !st.ok()) return fail("eval-rate-prior", st.message());
  return kExitOk;
}

}  // namespace cronista::cli
