// cronista sample-web generate|serve: write the bundled sample web to a
// folder, or serve a written one on loopback until SIGINT/SIGTERM.
#include <csignal>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <string_view>

#include <unistd.h>

#include "cli/cli_common.h"
#include "cli/commands.h"
#include "sampleweb/sample_web.h"
#include "sampleweb/sample_web_server.h"

namespace cronista::cli {

namespace {

int run_serve(const sampleweb::SampleWebServerOptions& options, const std::string& ready_file, const std::string& pid_file) {
  // Block the stop signals before any server thread exists, so that they
  // all inherit the mask and only sigwait() below sees the signals.
  sigset_t stop_signals;
  sigemptyset(&stop_signals);
  sigaddset(&stop_signals, SIGINT);
  sigaddset(&stop_signals, SIGTERM);
  pthread_sigmask(SIG_BLOCK, &stop_signals, nullptr);

  auto server = sampleweb::SampleWebServer::load(options);
  if (!server) return fail("sample-web", server.status().message());
  if (Status st = (*server)->start(); !st.ok()) return fail("sample-web", st.message());
  const auto addresses = (*server)->addresses();
  const std::string line = "serving " + std::to_string((*server)->host_count()) + " hosts on " + addresses.front() +
                           (addresses.size() > 1 ? "-" + addresses.back() : std::string()) + " port " +
                           std::to_string((*server)->port());
  if (!pid_file.empty()) {
    if (Status st = write_output(pid_file, std::to_string(::getpid()) + "\n"); !st.ok()) {
      (*server)->stop();
      return fail("sample-web", st.message());
    }
  }
  if (!ready_file.empty()) {
    // Written whole under another name, then renamed: whoever waits for the
    // file never reads it half written.
    const std::string part = ready_file + ".part";
    Status st = write_output(part, line + "\n");
    std::error_code ec;
    if (st.ok()) {
      std::filesystem::rename(part, ready_file, ec);
      if (ec) st = Status::Error("cannot write '" + ready_file + "': " + ec.message());
    }
    if (!st.ok()) {
      std::filesystem::remove(part, ec);
      (*server)->stop();
      return fail("sample-web", st.message());
    }
  }
  std::cerr << line << std::endl;
  int sig = 0;
  sigwait(&stop_signals, &sig);
  (*server)->stop();
  std::error_code ec;
  if (!ready_file.empty()) std::filesystem::remove(ready_file, ec);
  if (!pid_file.empty()) std::filesystem::remove(pid_file, ec);
  std::cerr << "stopped (" << (sig == SIGINT ? "SIGINT" : "SIGTERM") << ")" << std::endl;
  return kExitOk;
}

}  // namespace

int cmd_sample_web(int argc, char** argv) {
  CLI::App app{"Generate or serve the bundled Portuguese sample web.", "cronista sample-web"};
  app.option_defaults()->always_capture_default();  // --help shows defaults
  app.require_subcommand(1);
  auto* gen = app.add_subcommand("generate", "write the sample web to a folder");
  auto* serve = app.add_subcommand("serve", "serve a generated sample web on loopback addresses");
  sampleweb::SampleWebOptions g;
  sampleweb::SampleWebServerOptions s;
  std::string ready_file, pid_file;
  gen->add_option("--out", g.out_dir, "folder to write (created if missing)")->required();
  gen->add_option("--pages", g.pages, "number of content pages (index pages come on top)")
      ->capture_default_str()->check(CLI::Range(50, 10'000'000));
  gen->add_option("--seed", g.seed, "random seed: the same seed gives the same bytes")->capture_default_str();
  gen->add_option("--port", g.port, "port written into every URL (serve on the same one)")
      ->capture_default_str()->check(CLI::Range(1, 65535));
  gen->add_option("--corpora", g.corpora_dir, "folder with the texts (default: <home>/corpora/sample-web)");
  auto* living = gen->add_flag("--living", g.living, "also write living.jsonl: pages that change at known times, news that appears");
  gen->add_option("--duration", g.living_horizon_s, "with --living: seconds the changes run for")
      ->capture_default_str()->check(CLI::Range(1.0, 604800.0))->needs(living);
  gen->add_flag("--replicas", g.replicas,
                "also write the replica web: named hosts (mirrors of each kind and sites that are not) with "
                "replicas.json, resolve.txt, hosts.replicas and seeds-replicas.txt");
  serve->add_option("--root", s.root, "folder written by 'sample-web generate'")->required();
  serve->add_option("--hosts", s.hosts, "serve only the first N hosts (default: all)")->check(CLI::Range(0, 250));
  serve->add_option("--port", s.port, "port (default: the one the web was generated for, 18080 by default)")
      ->check(CLI::Range(1, 65535));
  serve->add_flag("--log", s.log, "log every request on stderr");
  serve->add_flag("--living", s.living, "serve the living web (a web generated with --living): pages change with time");
  serve->add_option("--request-log", s.request_log,
                    "write one line per request here (arrival ms, host, target, status, version), for eval-revisit");
  serve->add_option("--ready-file", ready_file, "write the 'serving …' line here once every host listens");
  serve->add_option("--pid-file", pid_file, "write the process id here");
  // CLI11 reports an unknown word here as "a subcommand is required".
  if (argc > 1 && argv[1][0] != '-' && std::string_view(argv[1]) != "generate" && std::string_view(argv[1]) != "serve")
    return fail("sample-web", "unknown subcommand '" + std::string(argv[1]) + "' (generate or serve; see --help)",
                kExitUsage);
  if (auto code = parse(app, argc, argv)) return *code;

  if (gen->parsed()) {
    auto summary = sampleweb::generate_sample_web(g);
    if (!summary) return fail("sample-web", summary.status().message());
    std::cerr << "sample web in " << g.out_dir << ": " << summary->hosts << " hosts, " << summary->pages
              << " pages, " << summary->redirects << " redirects; relevant: " << summary->relevant_1939_1945
              << " for 1939-1945, " << summary->relevant_2001 << " for 2001\n";
    if (g.replicas)
      std::cerr << "replica web: " << summary->replica_hosts << " named hosts, " << summary->replica_pages << " pages, "
                << summary->replica_clusters << " clusters of " << summary->replicas << " replicas, "
                << summary->replica_negatives << " hard-negative pairs (replicas.json; crawl with --resolve-file "
                << g.out_dir << "/resolve.txt)\n";
    if (g.living)
      std::cerr << "living web: " << summary->living_pages << " pages changing " << summary->living_changes
                << " times and " << summary->living_new_articles << " new articles in " << g.living_horizon_s
                << " s\n";
    return kExitOk;
  }
  return run_serve(s, ready_file, pid_file);
}

}  // namespace cronista::cli
