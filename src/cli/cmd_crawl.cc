// cronista crawl: the temporal crawler (contract.md). Parses the options
// (on --resume, the options recorded by the crawl's earlier runs first, then
// those given now), checks everything it can before creating the database,
// installs SIGINT/SIGTERM handlers that stop the crawl cleanly, runs it and
// prints a start banner and the summary on stderr (progress goes there too;
// the crawl's machine output is its database, WARC and --order-out file).
#include <unistd.h>

#include <cmath>
#include <csignal>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <optional>
#include <set>
#include <unordered_set>
#include <utility>
#include <vector>

#include "cli/cli_common.h"
#include "cli/commands.h"
#include "crawler/crawl.h"
#include "crawler/fetcher.h"
#include "shared_frontier/crawl_work.h"
#include "crawler/crawl_record.h"
#include "crawler/link_filters.h"
#include "crawler/url.h"
#include "revisit/revisit_schedule.h"
#include "temporal/scope.h"

namespace cronista::cli {

namespace {

std::atomic<int> g_signal{0};
std::atomic<bool> g_stop{false};

void on_signal(int sig) {
  g_signal.store(sig);
  g_stop.store(true);
}

struct CrawlArgs {
  std::string resolve_file;
  std::string from, to, seeds, db, mode = "temporal", order_out, warc, user_agent, contact, resources, ca_file;
  std::string genre = "news", replicas;  // replicas: empty = detect, off with --frontier
  std::vector<std::string> urls, allow_hosts;
  long max_pages = 0;
  int delay_ms = 1000, host_connections = 1, connections = 32;
  double threshold = 0.99;
  bool same_host = false, resume = false, quiet = false;
  // Revisits: kept as given, checked in cmd_crawl (one-line errors).
  bool revisit = false;
  std::string run_for, revisit_policy, discovery_wait, rate_prior;
  long max_fetches = 0;
  double fetch_rate = 0;
  // One crawl, many workers.
  std::string frontier, crawl_id, worker_id;
  int lease_ms = 30000, frontier_patience = 30, address_delay_ms = 0;
  crawler::CrawlOptions o;
};

// "90s", "10m", "6h", "2d", or several ("1h30m"); a bare number is seconds.
std::optional<double> parse_duration(const std::string& text) {
  if (text.empty()) return std::nullopt;
  double total = 0;
  std::size_t i = 0;
  while (i < text.size()) {
    std::size_t used = 0;
    double n = 0;
    try {
      n = std::stod(text.substr(i), &used);
    } catch (const std::exception&) {
      return std::nullopt;
    }
    if (used == 0 || !std::isfinite(n) || n < 0 || text[i] == '+' || text[i] == '-' || text[i] == ' ') return std::nullopt;
    i += used;
    double unit = 1;
    if (i < text.size()) {
      switch (text[i]) {
        case 's': unit = 1; break;
        case 'm': unit = 60; break;
        case 'h': unit = 3600; break;
        case 'd': unit = 86400; break;
        default: return std::nullopt;
      }
      ++i;
    } else if (i != used) {
      return std::nullopt;  // "1h30": a number without a unit after one with
    }
    total += n * unit;
  }
  return total;
}

void configure(CLI::App& app, CrawlArgs& a) {
  app.option_defaults()->always_capture_default();
  crawler::CrawlOptions& o = a.o;
  app.add_option("--from", a.from, "start of the period: YYYY, YYYY-MM or YYYY-MM-DD; before the year 1, BC and the year "
                 "counted before Christ (BC0044 = 44 a.C.) (required for a new crawl)");
  app.add_option("--to", a.to, "end of the period, inclusive (required for a new crawl)");
  app.add_option("--seeds", a.seeds, "file with one seed URL per line");
  app.add_option("urls", a.urls, "seed URLs");
  app.add_option("--db", a.db, "SQLite database of the crawl")->required();
  app.add_option("--mode", a.mode, "temporal or general")->check(CLI::IsMember({"temporal", "general"}));
  app.add_option("--max-pages", a.max_pages, "stop after this many pages (0: no limit)")->check(non_negative());
  app.add_option("--order-out", a.order_out, "write the download order here");
  app.add_option("--warc", a.warc, "write page bodies to this WARC file");
  // Repeatable options take one value per occurrence, so that seed URLs
  // after them stay seeds.
  app.add_option("--allow-host", a.allow_hosts,
                 "also crawl this host (\"*.example.pt\": and its subdomains) besides the seeds' own; with it, other "
                 "hosts are left out; repeatable")
      ->allow_extra_args(false);
  app.add_flag("--same-host", a.same_host, "only crawl the seeds' hosts");
  app.add_option("--delay-ms", a.delay_ms, "minimum gap between requests to one host, in milliseconds")
      ->check(non_negative());
  app.add_option("--host-connections", a.host_connections, "connections per host")->check(positive());
  app.add_option("--connections", a.connections, "concurrent transfers")->check(positive());
  app.add_option("--threshold", a.threshold, "share of a segment's chronons that must be in the period")
      ->check(CLI::Range(0.0, 1.0));
  app.add_option("--user-agent", a.user_agent, "User-Agent header (default: cronista/VERSION (+CONTACT))");
  app.add_flag("--resume", a.resume, "continue an interrupted crawl from --db, with the options it was started with");
  app.add_option("--frontier", a.frontier,
                 "share one crawl among worker processes through Redis: redis://HOST:PORT/N or unix:///PATH.sock");
  app.add_option("--crawl-id", a.crawl_id, "with --frontier: the name of the shared crawl");
  app.add_option("--worker-id", a.worker_id,
                 "with --frontier: this worker's name, kept across --resume (default: host name and --db path)");
  app.add_option("--lease-ms", a.lease_ms,
                 "with --frontier: how long a worker holds a host without renewing it; a worker silent five "
                 "times as long is dead and its URLs return")
      ->check(positive());
  app.add_option("--address-delay-ms", a.address_delay_ms,
                 "with --frontier: the least gap between requests to one server address, over all its hosts and "
                 "workers (0: none; hosts are paced by --delay-ms alone)")
      ->check(CLI::NonNegativeNumber);
  app.add_option("--frontier-patience", a.frontier_patience,
                 "with --frontier: seconds the workers pause and retry while Redis does not answer, then stop")
      ->check(positive());
  app.add_option("--contact", a.contact, "contact URL or address put in the User-Agent");
  app.add_option("--ca-file", a.ca_file, "PEM file of certificate authorities to trust for HTTPS (default: the system's)")
      ->check(CLI::ExistingFile);
  app.add_option("--resolve", o.resolve,
                 "HOST:PORT:ADDRESS: connect to ADDRESS for HOST:PORT, sending the name in Host and TLS SNI, as curl's "
                 "--resolve (named hosts on loopback without DNS); repeatable")
      ->allow_extra_args(false)
      ->check(CLI::Validator(
          [](std::string& v) -> std::string {
            const auto why = crawler::invalid_resolve_entry(v);
            return why ? "--resolve '" + v + "': " + *why : std::string();
          },
          "HOST:PORT:ADDRESS"));
  app.add_option("--replicas", a.replicas,
                 "detect (default without --frontier): find hosts that replicate another during the crawl, verify them "
                 "by probes, fetch them no more and move their URLs onto the canonical host; off: fetch every host "
                 "(the default with --frontier, where each worker sees only its own shard)")
      ->check(CLI::IsMember({"detect", "off"}));
  app.add_option("--resolve-file", a.resolve_file,
                 "file of --resolve entries, one HOST:PORT:ADDRESS a line ('#' comments), as `sample-web generate "
                 "--replicas` writes in resolve.txt");
  app.add_option("--max-depth", o.max_depth, "do not follow links deeper than this (seeds are 0; -1: no limit)")
      ->check(CLI::Validator(
          [](std::string& v) -> std::string {
            int d = 0;
            return CLI::detail::lexical_cast(v, d) && d >= -1 ? std::string() : "must be -1 or more, not " + v;
          },
          "N>=-1"));
  app.add_option("--max-pages-per-host", o.max_pages_per_host, "queue at most this many URLs per host (0: no limit)")
      ->check(non_negative());
  app.add_option("--timeout-ms", o.timeout_ms, "total time allowed for one transfer")->check(positive());
  app.add_option("--connect-timeout-ms", o.connect_timeout_ms, "time allowed to connect")->check(positive());
  app.add_option("--max-body-bytes", o.max_body_bytes, "largest body downloaded")->check(positive());
  app.add_option("--threads", o.threads, "analysis threads (0: all cores)")->check(non_negative());
  app.add_option("--retries", o.retries, "retries of a 5xx/429/time-out")->check(non_negative());
  app.add_option("--retry-base-ms", o.retry_base_ms, "first retry back-off, doubled each time")->check(non_negative());
  app.add_option("--home,--resources", a.resources,
                 "folder holding resources/pt and patterns/ (default: $CRONISTA_HOME or the source tree); "
                 "--resources is an older name");
  add_genre_option(app, a.genre);
  app.add_option("--patterns", o.pattern_files, kPatternsHelp)->allow_extra_args(false);
  app.add_flag("--follow-furniture", o.follow_furniture,
               "temporal mode: once the links of in-scope main text are spent, go on with those of dated page "
               "furniture (default: the crawl ends)");
  app.add_flag("--quiet", a.quiet, "no start banner or progress line (the summary is still printed)");
  app.add_flag("--revisit", a.revisit,
               "keep downloaded pages scheduled and fetch them again by their estimated change rate; the crawl ends at "
               "--run-for, --max-fetches or a signal");
  app.add_option("--run-for", a.run_for, "end this run after this long: 90s, 10m, 6h, 1h30m");
  app.add_option("--max-fetches", a.max_fetches, "end this run after this many page requests (0: no limit)")
      ->check(non_negative());
  app.add_option("--fetch-rate", a.fetch_rate,
                 "requests per second over the whole crawl, new pages and revisits (0: as politeness allows)");
  app.add_option("--revisit-policy", a.revisit_policy,
                 "with --revisit: optimal (default), uniform, proportional, classes or adaptive");
  app.add_option("--discovery-wait", a.discovery_wait,
                 "with --revisit: the mean time a new URL may wait on the hubs that announce it (default 5s)");
  app.add_option("--rate-prior", a.rate_prior,
                 "with --revisit: the change rate assumed of a page before its history shows it: constant (default: "
                 "pooled over the crawl's visits) or learned (predicted from its first fetch by a model trained on "
                 "the crawl's visits)");
}

// A value that a shell reads back as one word.
std::string shell_word(const std::string& s) {
  if (!s.empty() && s.find_first_not_of("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789@%+=:,./_-") ==
                        std::string::npos)
    return s;
  std::string out = "'";
  for (char c : s) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

// A file the crawl will write: its folder must exist and be writable, and
// the file, when it exists, writable too. Checked before the database is
// created, so that a mistake leaves nothing behind.
std::optional<std::string> unwritable(const std::string& path, const std::string& option) {
  if (path.empty()) return std::nullopt;
  namespace fs = std::filesystem;
  std::error_code ec;
  if (fs::is_directory(path, ec)) return option + " '" + path + "' is a folder, not a file";
  const fs::path parent = fs::path(path).parent_path().empty() ? fs::path(".") : fs::path(path).parent_path();
  if (!fs::is_directory(parent, ec)) return option + " '" + path + "': folder '" + parent.string() + "' does not exist";
  if (fs::exists(path, ec) ? ::access(path.c_str(), W_OK) != 0 : ::access(parent.c_str(), W_OK | X_OK) != 0)
    return option + " '" + path + "' cannot be written";
  return std::nullopt;
}

std::string megabytes(std::int64_t bytes) {
  char b[32];
  std::snprintf(b, sizeof b, "%.1f MB", bytes / 1e6);
  return b;
}

std::string fetch_rate_text(double rate) {
  char b[32];
  std::snprintf(b, sizeof b, "%g", rate);
  return b;
}

void print_banner(const CrawlArgs& a, const crawler::CrawlOptions& o) {
  std::string ua = o.user_agent;
  if (ua.empty()) ua = std::string("cronista/") + CRONISTA_VERSION + (o.contact.empty() ? "" : " (+" + o.contact + ")");
  // A period before the year 1 also by its years' names: "BC0100..0100 (100 BC to 100)".
  const bool bc = a.from.rfind("BC", 0) == 0 || a.to.rfind("BC", 0) == 0;
  const std::string named =
      bc ? " (" + temporal::period_end_name(a.from) + " to " + temporal::period_end_name(a.to) + ")" : "";
  std::fprintf(stderr, "crawl: %s %s crawl of %s..%s%s from %zu seed%s into %s\n", a.resume ? "resuming the" : "a",
               a.mode.c_str(), a.from.c_str(), a.to.c_str(), named.c_str(), o.seeds.size(),
               o.seeds.size() == 1 ? "" : "s", a.db.c_str());
  std::fprintf(stderr, "crawl: user agent \"%s\", %d ms between requests to a host, %s\n", ua.c_str(), o.delay_ms,
               o.max_pages > 0 ? ("at most " + std::to_string(o.max_pages) + " pages").c_str() : "no page limit");
  if (o.revisit)
    std::fprintf(stderr, "crawl: revisiting by the %s policy, %s, until %s\n",
                 a.revisit_policy.empty() ? "optimal" : a.revisit_policy.c_str(),
                 o.fetch_rate > 0 ? (fetch_rate_text(o.fetch_rate) + " requests/s over the crawl").c_str()
                                  : "as fast as politeness allows",
                 o.run_for_s > 0 || o.max_fetches > 0
                     ? ((o.run_for_s > 0 ? crawler::clock_time(o.run_for_s) + " of crawling" : std::string()) +
                        (o.run_for_s > 0 && o.max_fetches > 0 ? " or " : "") +
                        (o.max_fetches > 0 ? std::to_string(o.max_fetches) + " requests" : std::string()))
                           .c_str()
                     : "a signal");
}

void print_summary(const CrawlArgs& a, const crawler::CrawlSummary& s, const crawler::CrawlOutcome& outcome) {
  std::string out;
  char line[256];
  std::snprintf(line, sizeof line, "pages downloaded: %lld (this run: %lld), %s\n",
                static_cast<long long>(s.total_pages), static_cast<long long>(s.pages),
                megabytes(outcome.bytes).c_str());
  out += line;
  std::snprintf(line, sizeof line,
                "relevant pages: %lld (%.1f%%, by the crawl's own judgement: main text in the period; page furniture "
                "never counts)\n",
                static_cast<long long>(s.total_relevant), s.total_pages ? 100.0 * s.total_relevant / s.total_pages : 0.0);
  out += line;
  std::snprintf(line, sizeof line, "elapsed: %s; pages/s: %.1f\n", crawler::clock_time(s.seconds).c_str(),
                s.seconds > 0 ? s.pages / s.seconds : 0.0);
  out += line;
  std::snprintf(line, sizeof line, "in-scope share: %.1f%% of %lld segments\n",
                s.segments ? 100.0 * s.segments_in_scope / s.segments : 0.0, static_cast<long long>(s.segments));
  out += line;
  if (s.revisits > 0 || a.revisit) {
    std::snprintf(line, sizeof line,
                  "requests: %lld; revisits: %lld, %lld found a change, %lld answered 304, %lld brought forward; "
                  "%lld answered without a document\n",
                  static_cast<long long>(s.fetches), static_cast<long long>(s.revisits),
                  static_cast<long long>(s.changed), static_cast<long long>(s.not_modified),
                  static_cast<long long>(s.spare_revisits), static_cast<long long>(s.lost_documents));
    out += line;
    std::snprintf(line, sizeof line, "revisit schedule: %lld pages, revisits %.2f/s of a revisit budget of %.2f/s\n",
                  static_cast<long long>(s.scheduled), s.scheduled_rate, s.revisit_budget);
    out += line;
    std::snprintf(line, sizeof line,
                  "rate prior: %s; learned from %lld visits, given to %lld pages; ln of the priors: sd %.2f\n",
                  a.rate_prior == "learned" ? "learned" : "constant", static_cast<long long>(s.prior_trained_on),
                  static_cast<long long>(s.prior_predicted), s.prior_log_rate_sd);
    out += line;
  }
  if (s.titles_learnt > 0) {
    std::snprintf(line, sizeof line, "title words: %lld, learnt from %lld page titles%s\n",
                  static_cast<long long>(s.title_words), static_cast<long long>(s.titles_learnt),
                  a.frontier.empty() ? "" : " of every worker");
    out += line;
  }
  std::snprintf(line, sizeof line, "queued: %lld\nstopped: %s\n", static_cast<long long>(s.queued), s.end_reason.c_str());
  out += line;
  auto counts = [](const std::map<std::string, std::int64_t>& m) {
    std::string t;
    for (const auto& [kind, n] : m) t += " " + kind + "=" + std::to_string(n);
    return t.empty() ? std::string(" none") : t;
  };
  out += "errors:" + counts(s.errors) + "\n";
  out += "skipped links:" + counts(s.skipped) + "\n";
  // Every seed's fate; past kMaxListed seeds, those not downloaded only.
  constexpr std::size_t kMaxListed = 20;
  std::size_t downloaded = 0;
  for (const auto& f : outcome.seeds) downloaded += f.downloaded ? 1 : 0;
  out += "seeds: " + std::to_string(downloaded) + " of " + std::to_string(outcome.seeds.size()) + " downloaded\n";
  std::size_t listed = 0;
  for (const auto& f : outcome.seeds) {
    if (outcome.seeds.size() > kMaxListed && f.downloaded) continue;
    if (listed++ == kMaxListed) {
      out += "  …\n";
      break;
    }
    out += "  " + f.url + ": " + f.fate + "\n";
  }
  if (outcome.unreachable.empty()) {
    out += "unreachable hosts: none\n";
  } else {
    out += "unreachable hosts:\n";
    for (const auto& h : outcome.unreachable) out += "  " + h.authority + ": " + h.reason + "\n";
  }
  out += "database: " + a.db + "\n";
  if (!a.warc.empty()) out += "WARC: " + a.warc + "\n";
  if (!a.order_out.empty()) out += "download order: " + a.order_out + "\n";
  std::fputs(out.c_str(), stderr);
}

// The arguments as recorded for --resume: the values of the options that
// name files made absolute, so that the crawl resumes from any folder.
std::vector<std::string> recorded_args(const std::vector<std::string>& given) {
  static const std::set<std::string> kPathOptions = {"--db", "--warc", "--order-out", "--seeds", "--ca-file",
                                                     "--home", "--resources", "--patterns", "--resolve-file"};
  auto absolute = [](const std::string& path) {
    std::error_code ec;
    const auto a = std::filesystem::absolute(path, ec);
    return ec || path.empty() || path == "-" ? path : a.lexically_normal().string();
  };
  std::vector<std::string> out;
  for (std::size_t i = 0; i < given.size(); ++i) {
    const std::string& arg = given[i];
    const auto eq = arg.find('=');
    if (arg == "--") {
      out.insert(out.end(), given.begin() + static_cast<std::ptrdiff_t>(i), given.end());
      break;
    }
    if (eq != std::string::npos && kPathOptions.count(arg.substr(0, eq))) {
      out.push_back(arg.substr(0, eq + 1) + absolute(arg.substr(eq + 1)));
    } else if (kPathOptions.count(arg) && i + 1 < given.size()) {
      out.push_back(arg);
      out.push_back(absolute(given[++i]));
    } else {
      out.push_back(arg);
    }
  }
  return out;
}

// The entries of a list file (--seeds, --resolve-file): one per line, with
// their line numbers, blank lines and "#" comments skipped, surrounding
// blanks trimmed; nullopt when it cannot be read.
std::optional<std::vector<std::pair<int, std::string>>> listed_lines(const std::string& path) {
  std::ifstream in(path);
  std::error_code ec;
  if (!in || std::filesystem::is_directory(path, ec)) return std::nullopt;
  std::vector<std::pair<int, std::string>> out;
  std::string line;
  for (int n = 1; std::getline(in, line); ++n) {
    while (!line.empty() && (line.back() == '\r' || line.back() == ' ' || line.back() == '\t')) line.pop_back();
    const std::size_t b = line.find_first_not_of(" \t");
    if (b == std::string::npos || line[b] == '#') continue;
    out.emplace_back(n, line.substr(b));
  }
  return out;
}

// Appends the URLs of a --seeds file; false when it cannot be read.
bool read_seed_file(const std::string& path, std::vector<std::string>* urls) {
  auto lines = listed_lines(path);
  if (!lines) return false;
  for (auto& [n, url] : *lines) urls->push_back(std::move(url));
  return true;
}

// Removes what a new crawl created when it kept nothing, so that the
// corrected command can run with the same paths.
void remove_created(const std::vector<std::pair<std::string, bool>>& files) {
  std::error_code ec;
  for (const auto& [path, existed] : files) {
    if (path.empty() || existed) continue;
    std::filesystem::remove(path, ec);
  }
}

}  // namespace

int cmd_crawl(int argc, char** argv) {
  CLI::App app{"Crawl the web for pages about a period (temporal crawl) or everything (general).", "cronista crawl"};
  CrawlArgs a;
  configure(app, a);
  if (auto code = parse(app, argc, argv)) return *code;

  std::vector<std::string> given(argv + 1, argv + argc);
  if (a.resume) {
    // The options of every earlier run, in order, then those given now.
    auto stored = crawler::read_stored_crawl(a.db);
    if (!stored.ok()) return fail("crawl", stored.status().message());
    if (!*stored) return fail("crawl", "database '" + a.db + "' holds no crawl to resume (drop --resume to start one)");
    if ((*stored)->unrecorded_args && (a.from.empty() || a.to.empty()))
      return fail("crawl", "database '" + a.db +
                               "' was written by an older cronista that did not record the crawl's options: give them "
                               "again with --resume (at least --from and --to)",
                  kExitUsage);
    CrawlArgs merged;
    std::vector<std::string> first_urls;  // the URLs and --seeds file of the first run
    std::string first_seeds_file;
    std::vector<std::vector<std::string>> layers;
    if (!(*stored)->unrecorded_args) layers = (*stored)->run_args;
    layers.push_back(given);
    for (std::size_t i = 0; i < layers.size(); ++i) {
      CLI::App layer{"", "cronista crawl"};
      configure(layer, merged);
      std::vector<std::string> reversed(layers[i].rbegin(), layers[i].rend());
      try {
        layer.parse(reversed);
      } catch (const CLI::ParseError& e) {
        return fail("crawl", std::string(i + 1 < layers.size() ? "the options recorded in the database: " : "") +
                                 e.what(), kExitUsage);
      }
      if (i == 0 && layers.size() > 1) {
        first_urls = merged.urls;
        first_seeds_file = merged.seeds;
      }
      if (i + 1 < layers.size()) merged.urls.clear();
    }
    merged.seeds.clear();
    merged.urls = (*stored)->seeds;
    if (!merged.frontier.empty()) {
      // A worker of a shared crawl stores as seeds only those it claimed
      // itself: it rejoins with every seed it was first given (their hosts
      // bound --same-host), the --seeds file's too while it can be read.
      if (!first_seeds_file.empty()) read_seed_file(first_seeds_file, &first_urls);
      std::unordered_set<std::string> known(merged.urls.begin(), merged.urls.end());
      for (const std::string& u : first_urls)
        if (known.insert(u).second) merged.urls.push_back(u);
    }
    a = std::move(merged);
  } else {
    if (a.from.empty() || a.to.empty())
      return fail("crawl", std::string(a.from.empty() ? "--from" : "--to") +
                               " is required for a new crawl (to continue one: --resume --db DB)", kExitUsage);
  }

  crawler::CrawlOptions o = a.o;
  if (!a.run_for.empty()) {
    const auto d = parse_duration(a.run_for);
    if (!d || *d <= 0)
      return fail("crawl", "--run-for '" + a.run_for + "': give a duration such as 90s, 10m, 6h or 1h30m", kExitUsage);
    o.run_for_s = *d;
  }
  if (!(a.fetch_rate >= 0) || !std::isfinite(a.fetch_rate))
    return fail("crawl", "--fetch-rate must be a number of requests per second, 0 or more", kExitUsage);
  if (!a.revisit_policy.empty()) {
    static const std::map<std::string, revisit::RevisitPolicy> kPolicies = {
        {"optimal", revisit::RevisitPolicy::kOptimal},
        {"uniform", revisit::RevisitPolicy::kUniform},
        {"proportional", revisit::RevisitPolicy::kProportional},
        {"classes", revisit::RevisitPolicy::kClasses},
        {"adaptive", revisit::RevisitPolicy::kAdaptive}};
    const auto it = kPolicies.find(a.revisit_policy);
    if (it == kPolicies.end())
      return fail("crawl", "--revisit-policy '" + a.revisit_policy +
                               "': choose optimal, uniform, proportional, classes or adaptive", kExitUsage);
    if (!a.revisit) return fail("crawl", "--revisit-policy needs --revisit", kExitUsage);
    o.revisit_policy = it->second;
  }
  if (!a.discovery_wait.empty()) {
    const auto d = parse_duration(a.discovery_wait);
    if (!d || *d <= 0)
      return fail("crawl", "--discovery-wait '" + a.discovery_wait + "': give a duration such as 5s, 2m or 1h",
                  kExitUsage);
    if (!a.revisit) return fail("crawl", "--discovery-wait needs --revisit", kExitUsage);
    o.discovery_wait_s = *d;
  }
  if (!a.rate_prior.empty()) {
    if (a.rate_prior != "learned" && a.rate_prior != "constant")
      return fail("crawl", "--rate-prior '" + a.rate_prior + "': choose learned or constant", kExitUsage);
    if (!a.revisit) return fail("crawl", "--rate-prior needs --revisit", kExitUsage);
    o.learned_rate_prior = a.rate_prior == "learned";
  }
  if (a.frontier.empty() != a.crawl_id.empty())
    return fail("crawl", "--frontier and --crawl-id go together", kExitUsage);
  if (!a.frontier.empty() && a.replicas == "detect")
    return fail("crawl", "--replicas detect is not available with --frontier (each worker sees only its own shard)",
                kExitUsage);
  if (!a.frontier.empty() && a.o.max_depth >= 0)
    return fail("crawl", "--max-depth is not available with --frontier", kExitUsage);
  auto period = temporal::Period::parse(a.from, a.to);
  if (!period.ok()) return fail("crawl", period.status().message(), kExitUsage);
  if (!a.seeds.empty() && !read_seed_file(a.seeds, &a.urls))
    return fail("crawl", "cannot read --seeds file '" + a.seeds + "'");
  if (!a.resolve_file.empty()) {
    auto lines = listed_lines(a.resolve_file);
    if (!lines) return fail("crawl", "cannot read --resolve-file '" + a.resolve_file + "'");
    for (auto& [n, entry] : *lines) {
      if (const auto why = crawler::invalid_resolve_entry(entry))
        return fail("crawl", "--resolve-file " + a.resolve_file + ":" + std::to_string(n) + ": '" + entry + "': " + *why,
                    kExitUsage);
      o.resolve.push_back(std::move(entry));
    }
  }
  if (a.urls.empty()) return fail("crawl", "no seeds: give URLs or --seeds FILE", kExitUsage);
  // Everything that can be checked is checked before the database exists.
  for (const std::string& s : a.urls) {
    auto u = crawler::CanonicalUrl::parse(s);
    if (!u.ok()) return fail("crawl", "seed '" + s + "': " + u.status().message(), kExitUsage);
  }
  {
    crawler::HostScope scope;
    for (const std::string& h : a.allow_hosts)
      if (Status st = scope.allow_host(h); !st.ok()) return fail("crawl", st.message(), kExitUsage);
  }
  for (const auto& [path, option] : {std::pair{a.warc, "--warc"}, std::pair{a.order_out, "--order-out"},
                                     std::pair{a.db, "--db"}})
    if (auto why = unwritable(path, option)) return fail("crawl", *why);

  o.seeds = a.urls;
  o.db = a.db;
  o.from = a.from;
  o.to = a.to;
  o.period = *period;
  o.temporal_mode = a.mode == "temporal";
  o.replicas_detect = a.frontier.empty() && a.replicas != "off";
  o.max_pages = a.max_pages;
  o.revisit = a.revisit;
  o.max_fetches = a.max_fetches;
  o.fetch_rate = a.fetch_rate;
  o.order_out = a.order_out;
  o.warc = a.warc;
  o.allow_hosts = a.allow_hosts;
  o.same_host = a.same_host;
  o.delay_ms = a.delay_ms;
  o.host_connections = a.host_connections;
  o.connections = a.connections;
  o.threshold = a.threshold;
  o.user_agent = a.user_agent;
  o.contact = a.contact;
  o.ca_file = a.ca_file;
  o.resume = a.resume;
  o.home = a.resources;
  o.genre = genre_named(a.genre);
  o.progress = !a.quiet;
  o.args = crawler::encode_args(recorded_args(given));

  std::error_code ec;
  const std::vector<std::pair<std::string, bool>> files = {
      {a.db, std::filesystem::exists(a.db, ec)},
      {a.db + "-wal", std::filesystem::exists(a.db + "-wal", ec)},
      {a.db + "-shm", std::filesystem::exists(a.db + "-shm", ec)},
      {a.warc, std::filesystem::exists(a.warc, ec)},
      {a.order_out, std::filesystem::exists(a.order_out, ec)}};
  const bool fresh = !files[0].second;

  if (!a.frontier.empty()) {
    shared_frontier::SharedFrontierOptions so;
    so.crawl_id = a.crawl_id;
    so.worker_id = a.worker_id;
    if (so.worker_id.empty()) {
      char host[256] = {0};
      ::gethostname(host, sizeof host - 1);
      so.worker_id = std::string(host) + ":" + std::filesystem::absolute(a.db, ec).string();
    }
    so.lease_ms = a.lease_ms;
    // Dead: silent for five leases (a loaded machine can stall a live
    // worker's heartbeat well beyond one lease).
    so.dead_after_ms = 5 * a.lease_ms;
    so.host_gap_ms = a.delay_ms;
    so.address_gap_ms = a.address_delay_ms;
    so.host_connections = a.host_connections;
    so.new_share = revisit::RevisitOptions{}.min_new_share;
    // What the crawl's guarantees rest on is given to every worker alike:
    // one request rate, one gap per host and per address, one judgement of
    // what is in scope. The first worker's values are the crawl's.
    const std::vector<std::pair<std::string, std::string>> settings = {
        {"--fetch-rate", fetch_rate_text(a.fetch_rate)},
        {"--delay-ms", std::to_string(a.delay_ms)},
        {"--address-delay-ms", std::to_string(a.address_delay_ms)},
        {"--mode", a.mode},
        {"--from/--to", o.period.from.to_string() + ".." + o.period.to.to_string()}};
    std::vector<shared_frontier::SharedFrontier::Clash> clashes;
    auto work = shared_frontier::open_crawl_work(a.frontier, so, settings, &clashes);
    if (!work.ok()) return fail("crawl", "--frontier " + a.frontier + ": " + work.status().message());
    if (!clashes.empty()) {
      std::string what;
      for (const auto& c : clashes)
        what += (what.empty() ? "" : ", ") + c.name + " " + c.given + " (the crawl's: " + c.crawl + ")";
      return fail("crawl", "crawl '" + a.crawl_id + "' was started with other settings: " + what +
                               "; every worker of a crawl is given the same --fetch-rate, --delay-ms, "
                               "--address-delay-ms, --mode, --from and --to",
                  kExitUsage);
    }
    o.shared = std::move(*work);
    o.shared_patience = std::chrono::seconds(a.frontier_patience);
  }

  struct sigaction sa {};
  sa.sa_handler = on_signal;
  sigemptyset(&sa.sa_mask);
  sigaction(SIGINT, &sa, nullptr);
  sigaction(SIGTERM, &sa, nullptr);

  if (!a.quiet) o.on_started = [&a, &o] { print_banner(a, o); };
  auto summary = crawler::run_crawl(o, &g_stop);
  auto outcome = crawler::crawl_outcome(a.db);
  const bool nothing_kept = fresh && (!outcome.ok() || outcome->pages == 0);
  if (!summary.ok()) {
    if (fresh && nothing_kept) remove_created(files);
    return fail("crawl", summary.status().message());
  }
  if (!outcome.ok()) return fail("crawl", outcome.status().message());
  print_summary(a, *summary, *outcome);
  const std::string resume_command = "cronista crawl --resume --db " + shell_word(a.db);
  if (const int sig = g_signal.load(); sig != 0 && summary->end_reason == "interrupted") {
    std::fprintf(stderr, "cronista crawl: interrupted by %s; to continue: %s\n", sig == SIGINT ? "SIGINT" : "SIGTERM",
                 resume_command.c_str());
    return 128 + sig;
  }
  if (summary->end_reason == "frontier-lost")
    return fail("crawl", "the shared frontier " + a.frontier + " did not answer for " +
                             std::to_string(a.frontier_patience) + " s; what was fetched is kept; to continue: " +
                             resume_command);
  if (outcome->pages == 0 && !a.frontier.empty() &&
      (summary->end_reason == "max-pages" || summary->end_reason == "frontier-empty")) {
    // A worker that joined a shared crawl whose work the others had done.
    if (nothing_kept) remove_created(files);
    std::fprintf(stderr, "cronista crawl: crawl '%s' ended (%s) with nothing left for this worker to download%s\n",
                 a.crawl_id.c_str(), summary->end_reason.c_str(), nothing_kept ? "; nothing was kept" : "");
    return kExitOk;
  }
  if (outcome->pages == 0) {
    if (nothing_kept) remove_created(files);
    std::string why;
    if (!outcome->seeds.empty()) why = ": " + outcome->seeds.front().url + " " + outcome->seeds.front().fate;
    if (outcome->seeds.size() > 1) why += " (and " + std::to_string(outcome->seeds.size() - 1) + " more seeds)";
    return fail("crawl", "no page could be fetched" + why +
                             (nothing_kept ? "; nothing was kept, so the same --db can be used again" : ""));
  }
  return kExitOk;
}

}  // namespace cronista::cli
