// cronista crawl: the temporal crawler (contract.md). Parses the options,
// installs SIGINT/SIGTERM handlers that stop the crawl cleanly, runs it and
// prints the summary on stdout (progress goes to stderr).
#include <csignal>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>

#include "cli/cli_common.h"
#include "cli/commands.h"
#include "crawler/crawl.h"
#include "temporal/scope.h"

namespace cronista::cli {

namespace {

std::atomic<bool> g_stop{false};

void on_signal(int) { g_stop.store(true); }

std::string join_args(int argc, char** argv) {
  std::string out;
  for (int i = 1; i < argc; ++i) {
    if (!out.empty()) out += ' ';
    out += argv[i];
  }
  return out;
}

}  // namespace

int cmd_crawl(int argc, char** argv) {
  CLI::App app{"Crawl the web for pages about a period (temporal crawl) or everything (general).", "cronista crawl"};
  std::string from, to, seeds, db, mode = "temporal", order_out, warc, user_agent, contact, resources, ca_file;
  std::vector<std::string> urls, allow_hosts;
  long max_pages = 0;
  int delay_ms = 1000, host_connections = 1, connections = 32;
  double threshold = 0.99;
  bool same_host = false, resume = false, quiet = false;
  crawler::CrawlOptions o;
  app.add_option("--from", from, "start of the period: YYYY, YYYY-MM or YYYY-MM-DD")->required();
  app.add_option("--to", to, "end of the period (inclusive)")->required();
  app.add_option("--seeds", seeds, "file with one seed URL per line");
  app.add_option("urls", urls, "seed URLs");
  app.add_option("--db", db, "SQLite database of the crawl")->required();
  app.add_option("--mode", mode, "temporal or general")->check(CLI::IsMember({"temporal", "general"}));
  app.add_option("--max-pages", max_pages, "stop after this many pages")->check(CLI::NonNegativeNumber);
  app.add_option("--order-out", order_out, "write the download order here");
  app.add_option("--warc", warc, "write page bodies to this WARC file");
  // Repeatable options take one value per occurrence, so that seed URLs
  // after them stay seeds.
  app.add_option("--allow-host", allow_hosts, "also crawl this host (\"*.example.pt\": and its subdomains); repeatable")
      ->allow_extra_args(false);
  app.add_flag("--same-host", same_host, "only crawl the seeds' hosts");
  app.add_option("--delay-ms", delay_ms, "minimum gap between requests to one host")->check(CLI::NonNegativeNumber);
  app.add_option("--host-connections", host_connections, "connections per host")->check(CLI::PositiveNumber);
  app.add_option("--connections", connections, "concurrent transfers")->check(CLI::PositiveNumber);
  app.add_option("--threshold", threshold, "share of a segment's chronons that must be in the period")
      ->check(CLI::Range(0.0, 1.0));
  app.add_option("--user-agent", user_agent, "User-Agent header (default: cronista/VERSION (+CONTACT))");
  app.add_flag("--resume", resume, "continue an interrupted crawl from --db");
  app.add_option("--contact", contact, "contact URL or address put in the User-Agent");
  app.add_option("--ca-file", ca_file, "PEM file of certificate authorities to trust for HTTPS (default: the system's)")
      ->check(CLI::ExistingFile);
  app.add_option("--max-depth", o.max_depth, "do not follow links deeper than this (seeds are 0)")
      ->check(CLI::NonNegativeNumber);
  app.add_option("--max-pages-per-host", o.max_pages_per_host, "queue at most this many URLs per host")
      ->check(CLI::NonNegativeNumber);
  app.add_option("--timeout-ms", o.timeout_ms, "total time allowed for one transfer")->check(CLI::PositiveNumber);
  app.add_option("--connect-timeout-ms", o.connect_timeout_ms, "time allowed to connect")->check(CLI::PositiveNumber);
  app.add_option("--max-body-bytes", o.max_body_bytes, "largest body downloaded")->check(CLI::PositiveNumber);
  app.add_option("--threads", o.threads, "analysis threads (default: all cores)")->check(CLI::NonNegativeNumber);
  app.add_option("--retries", o.retries, "retries of a 5xx/429/time-out")->check(CLI::NonNegativeNumber);
  app.add_option("--retry-base-ms", o.retry_base_ms, "first retry back-off, doubled each time")
      ->check(CLI::NonNegativeNumber);
  std::string genre = "news";
  add_genre_option(app, genre);
  app.add_option("--home,--resources", resources, "folder holding resources/pt and patterns/ (default: $CRONISTA_HOME or the source tree); --resources is an older name");
  app.add_option("--patterns", o.pattern_files, kPatternsHelp)->allow_extra_args(false);
  app.add_flag("--follow-furniture", o.follow_furniture,
               "temporal mode: once the links of in-scope main text are spent, go on with those of dated page "
               "furniture (default: the crawl ends)");
  app.add_flag("--quiet", quiet, "no progress line");
  if (auto code = parse(app, argc, argv)) return *code;

  auto period = temporal::Period::parse(from, to);
  if (!period.ok()) return fail("crawl", period.status().message(), kExitUsage);
  if (!seeds.empty()) {
    std::ifstream in(seeds);
    std::error_code ec;
    if (!in || std::filesystem::is_directory(seeds, ec)) return fail("crawl", "cannot read --seeds file '" + seeds + "'");
    std::string line;
    while (std::getline(in, line)) {
      while (!line.empty() && (line.back() == '\r' || line.back() == ' ' || line.back() == '\t')) line.pop_back();
      std::size_t b = line.find_first_not_of(" \t");
      if (b == std::string::npos || line[b] == '#') continue;
      urls.push_back(line.substr(b));
    }
  }
  if (urls.empty()) return fail("crawl", "no seeds: give URLs or --seeds FILE", kExitUsage);

  o.seeds = urls;
  o.db = db;
  o.from = from;
  o.to = to;
  o.period = *period;
  o.temporal_mode = mode == "temporal";
  o.max_pages = max_pages;
  o.order_out = order_out;
  o.warc = warc;
  o.allow_hosts = allow_hosts;
  o.same_host = same_host;
  o.delay_ms = delay_ms;
  o.host_connections = host_connections;
  o.connections = connections;
  o.threshold = threshold;
  o.user_agent = user_agent;
  o.contact = contact;
  o.ca_file = ca_file;
  o.resume = resume;
  o.home = resources;
  o.genre = genre_named(genre);
  o.progress = !quiet;
  o.args = join_args(argc, argv);

  struct sigaction sa {};
  sa.sa_handler = on_signal;
  sigemptyset(&sa.sa_mask);
  sigaction(SIGINT, &sa, nullptr);
  sigaction(SIGTERM, &sa, nullptr);

  auto summary = crawler::run_crawl(o, &g_stop);
  if (!summary.ok()) return fail("crawl", summary.status().message());
  const crawler::CrawlSummary& s = *summary;
  std::string out;
  char line[256];
  std::snprintf(line, sizeof line, "pages downloaded: %lld (this run: %lld)\n", static_cast<long long>(s.total_pages),
                static_cast<long long>(s.pages));
  out += line;
  std::snprintf(line, sizeof line, "relevant pages: %lld (%.1f%%; main text in the period, page furniture never counts)\n",
                static_cast<long long>(s.total_relevant),
                s.total_pages ? 100.0 * s.total_relevant / s.total_pages : 0.0);
  out += line;
  std::snprintf(line, sizeof line, "pages/s: %.1f\n", s.seconds > 0 ? s.pages / s.seconds : 0.0);
  out += line;
  std::snprintf(line, sizeof line, "in-scope share: %.1f%% of %lld segments\n",
                s.segments ? 100.0 * s.segments_in_scope / s.segments : 0.0, static_cast<long long>(s.segments));
  out += line;
  std::snprintf(line, sizeof line, "queued: %lld\nstopped: %s\n", static_cast<long long>(s.queued), s.end_reason.c_str());
  out += line;
  auto counts = [](const std::map<std::string, std::int64_t>& m) {
    std::string t;
    for (const auto& [kind, n] : m) t += " " + kind + "=" + std::to_string(n);
    return t.empty() ? std::string(" none") : t;
  };
  out += "errors:" + counts(s.errors) + "\n";
  out += "skipped links:" + counts(s.skipped) + "\n";
  std::fputs(out.c_str(), stdout);
  return kExitOk;
}

}  // namespace cronista::cli
