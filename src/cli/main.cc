// cronista: dispatches `cronista <command> ...` to the command's function.
#include <cstring>
#include <iostream>
#include <string>
#include <string_view>

#include "cli/cli_common.h"
#include "cli/commands.h"

namespace {

struct Command {
  const char* name;
  int (*run)(int, char**);
  const char* summary;
};

constexpr Command kCommands[] = {
    {"tag", cronista::cli::cmd_tag, "find and resolve the temporal expressions of a document"},
    {"segment", cronista::cli::cmd_segment, "cut a document into temporal segments"},
    {"learn", cronista::cli::cmd_learn, "learn temporal patterns from a corpus"},
    {"crawl", cronista::cli::cmd_crawl, "crawl the web for pages about a period"},
    {"build", cronista::cli::cmd_build, "tag and segment a collection into a database"},
    {"report", cronista::cli::cmd_report, "temporal analysis report of a collection or crawl"},
    {"export", cronista::cli::cmd_export, "export the passages found, with their dates (CSV, JSONL, HTML)"},
    {"replicas", cronista::cli::cmd_replicas, "replica sites (mirrors) among the hosts of a crawl or collection"},
    {"eval-tagger", cronista::cli::cmd_eval_tagger, "score the tagger against gold annotations"},
    {"eval-crawl", cronista::cli::cmd_eval_crawl, "precision/recall of crawls against ground truth"},
    {"eval-revisit", cronista::cli::cmd_eval_revisit, "freshness and discovery latency on the living sample web"},
    {"eval-rate-prior", cronista::cli::cmd_eval_rate_prior, "error of log change rate of the learned and constant priors"},
    {"eval-replicas", cronista::cli::cmd_eval_replicas, "replica detection scored against a replica truth file"},
    {"sample-web", cronista::cli::cmd_sample_web, "generate or serve the bundled sample web"},
};

void usage(std::ostream& out) {
  out << "cronista " << CRONISTA_VERSION << ": a temporally focused web crawler with a Portuguese temporal tagger\n\n"
      << "Usage: cronista <command> [options]   (cronista <command> --help for each)\n\nCommands:\n";
  for (const Command& c : kCommands) {
    std::string n = c.name;
    out << "  " << n << std::string(n.size() < 13 ? 13 - n.size() : 1, ' ') << c.summary << "\n";
  }
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    std::cerr << "cronista: missing command (see cronista --help)\n";
    return cronista::cli::kExitUsage;
  }
  std::string_view cmd = argv[1];
  if (cmd == "--help" || cmd == "-h" || cmd == "help") {
    usage(std::cout);
    return cronista::cli::kExitOk;
  }
  if (cmd == "--version" || cmd == "-V") {
    std::cout << "cronista " << CRONISTA_VERSION << "\n";
    return cronista::cli::kExitOk;
  }
  for (const Command& c : kCommands) {
    if (cmd == c.name) {
      std::string prog = std::string("cronista ") + c.name;
      argv[1] = prog.data();
      try {
        return c.run(argc - 1, argv + 1);
      } catch (const std::exception& e) {
        return cronista::cli::fail(c.name, std::string("internal error: ") + e.what());
      }
    }
  }
  std::cerr << "cronista: unknown command '" << cmd << "' (see cronista --help)\n";
  return cronista::cli::kExitUsage;
}
