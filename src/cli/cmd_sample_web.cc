#include "cli/cli_common.h"
#include "cli/commands.h"

namespace cronista::cli {

int cmd_sample_web(int argc, char** argv) {
  CLI::App app{"Generate or serve the bundled Portuguese sample web.", "cronista sample-web"};
  app.require_subcommand(1);
  auto* gen = app.add_subcommand("generate", "write the sample web to a folder");
  auto* serve = app.add_subcommand("serve", "serve a generated sample web on loopback");
  std::string out, root;
  int pages = 2000, port = 18080, hosts = 0;
  unsigned seed = 1;
  gen->add_option("--out", out, "folder to write")->required();
  gen->add_option("--pages", pages, "number of pages");
  gen->add_option("--seed", seed, "random seed");
  serve->add_option("--root", root, "generated folder")->required();
  serve->add_option("--hosts", hosts, "number of hosts");
  serve->add_option("--port", port, "port");
  if (auto code = parse(app, argc, argv)) return *code;
  return not_yet("sample-web", "the sample web");
}

}  // namespace cronista::cli
