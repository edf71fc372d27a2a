#include "cli/cli_common.h"
#include "cli/commands.h"

namespace cronista::cli {

int cmd_eval_crawl(int argc, char** argv) {
  CLI::App app{"Precision and recall of crawls against a sample web's ground truth.", "cronista eval-crawl"};
  std::string truth, scope, out;
  std::vector<std::string> orders;
  app.add_option("--truth", truth, "ground-truth file of the sample web")->required();
  app.add_option("--scope", scope, "period A-B")->required();
  app.add_option("--order", orders, "download-order file of a crawl")->required();
  app.add_option("--out", out, "folder for CSV, SVG and Markdown");
  if (auto code = parse(app, argc, argv)) return *code;
  return not_yet("eval-crawl", "crawl evaluation");
}

}  // namespace cronista::cli
