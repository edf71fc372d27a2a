#include "cli/cli_common.h"
#include "cli/commands.h"

namespace cronista::cli {

int cmd_crawl(int argc, char** argv) {
  CLI::App app{"Crawl the web for pages about a period (temporal crawl) or everything (general).", "cronista crawl"};
  std::string from, to, seeds, db, mode = "temporal", order_out, warc, user_agent;
  std::vector<std::string> urls, allow_hosts;
  long max_pages = 0;
  int delay_ms = 1000, host_connections = 1, connections = 32;
  double threshold = 0.99;
  bool same_host = false, resume = false;
  app.add_option("--from", from, "start of the period: YYYY, YYYY-MM or YYYY-MM-DD")->required();
  app.add_option("--to", to, "end of the period (inclusive)")->required();
  app.add_option("--seeds", seeds, "file with one seed URL per line");
  app.add_option("urls", urls, "seed URLs");
  app.add_option("--db", db, "SQLite database of the crawl")->required();
  app.add_option("--mode", mode, "temporal or general")->check(CLI::IsMember({"temporal", "general"}));
  app.add_option("--max-pages", max_pages, "stop after this many pages");
  app.add_option("--order-out", order_out, "write the download order here");
  app.add_option("--warc", warc, "write page bodies to this WARC file");
  app.add_option("--allow-host", allow_hosts, "only crawl these hosts");
  app.add_flag("--same-host", same_host, "only crawl the seeds' hosts");
  app.add_option("--delay-ms", delay_ms, "minimum gap between requests to one host");
  app.add_option("--host-connections", host_connections, "connections per host");
  app.add_option("--connections", connections, "concurrent transfers");
  app.add_option("--threshold", threshold, "share of a segment's chronons that must be in the period");
  app.add_option("--user-agent", user_agent, "User-Agent header");
  app.add_flag("--resume", resume, "continue an interrupted crawl from --db");
  if (auto code = parse(app, argc, argv)) return *code;
  return not_yet("crawl", "the crawler");
}

}  // namespace cronista::cli
