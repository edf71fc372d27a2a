// Redis memory of a shared frontier: queues N URLs (default 1,000,000) over
// H hosts (default 5,000), each found as one link, through the crawl's own add script, in batches as
// a worker sends them, under a crawl id of its own, and prints Redis's
// used_memory before and after (INFO memory), the bytes per URL and per
// million URLs, and the rate of the adds; then claims and completes a
// sample of them to report the rate of claims. The crawl's keys are
// deleted at the end. Run against a Redis of your own (bench/shared_crawl_bench.sh
// starts one on a unix socket):
//   build/shared_frontier_bench --frontier unix:///tmp/r.sock [--urls N] [--hosts H] [--claims N]
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <string>
#include <variant>
#include <vector>

#include "shared_frontier/redis_connection.h"
#include "shared_frontier/shared_frontier.h"

namespace {

using cronista::shared_frontier::Claim;
using cronista::shared_frontier::QueuedUrl;
using cronista::shared_frontier::RedisConnection;
using cronista::shared_frontier::SharedFrontier;
using cronista::shared_frontier::SharedFrontierOptions;
using Clock = std::chrono::steady_clock;

long long used_memory(RedisConnection& redis) {
  auto r = redis.command({"INFO", "memory"});
  if (!r.ok()) return -1;
  const std::string key = "used_memory:";
  const auto at = r->str.find(key);
  return at == std::string::npos ? -1 : std::atoll(r->str.c_str() + at + key.size());
}

int fail(const std::string& what) {
  std::fprintf(stderr, "shared_frontier_bench: %s\n", what.c_str());
  return 1;
}

}  // namespace

int main(int argc, char** argv) {
  std::string uri;
  long long urls = 1000000, hosts = 5000, claims = 20000;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (i + 1 >= argc) return fail("'" + a + "' needs a value");
    if (a == "--frontier") uri = argv[++i];
    else if (a == "--urls") urls = std::atoll(argv[++i]);
    else if (a == "--hosts") hosts = std::atoll(argv[++i]);
    else if (a == "--claims") claims = std::atoll(argv[++i]);
    else return fail("unknown option '" + a + "'");
  }
  if (uri.empty() || urls <= 0 || hosts <= 0 || claims < 0)
    return fail("usage: shared_frontier_bench --frontier URI [--urls N] [--hosts H] [--claims N]");

  auto address = cronista::shared_frontier::parse_redis_address(uri);
  if (!address.ok()) return fail(address.status().message());
  auto redis = RedisConnection::open(*address);
  if (!redis.ok()) return fail(redis.status().message());
  SharedFrontierOptions o;
  o.crawl_id = "memory-bench-" + std::to_string(std::chrono::system_clock::now().time_since_epoch().count());
  o.worker_id = "bench";
  o.host_gap_ms = 0;
  auto f = SharedFrontier::connect(uri, o);
  if (!f.ok()) return fail(f.status().message());

  const long long before = used_memory(**redis);
  // URLs shaped like a Portuguese news site's: host, section, date, slug, id.
  const char* sections[] = {"politica", "sociedade", "cultura", "economia", "desporto", "mundo"};
  std::mt19937_64 rng(1944);
  std::vector<QueuedUrl> batch;
  long long chars = 0;
  const auto t0 = Clock::now();
  for (long long i = 0; i < urls; ++i) {
    const long long h = static_cast<long long>(rng() % static_cast<unsigned long long>(hosts));
    QueuedUrl u;
    u.host = "www.jornal" + std::to_string(h) + ".pt";
    u.url = "https://" + u.host + "/" + sections[rng() % 6] + "/" + std::to_string(1939 + rng() % 7) + "/n" +
            std::to_string(i) + ".html";
    u.priority = static_cast<std::int64_t>(rng() % 64);
    u.backlinks = 1;  // found as a link on a page, as a crawl's URLs are (its count is kept while queued)
    chars += static_cast<long long>(u.url.size());
    batch.push_back(std::move(u));
    if (batch.size() == 256 || i + 1 == urls) {
      auto r = (*f)->add(batch);
      if (!r.ok()) return fail(r.status().message());
      batch.clear();
    }
  }
  const double add_s = std::chrono::duration<double>(Clock::now() - t0).count();
  const long long after = used_memory(**redis);

  long long claimed = 0;
  const auto t1 = Clock::now();
  for (; claimed < claims; ++claimed) {
    auto c = (*f)->claim();
    if (!c.ok()) return fail(c.status().message());
    const auto* got = std::get_if<Claim>(&*c);
    if (!got) break;
    if (auto r = (*f)->complete(*got); !r.ok()) return fail(r.status().message());
  }
  const double claim_s = std::chrono::duration<double>(Clock::now() - t1).count();

  const double per_url = static_cast<double>(after - before) / static_cast<double>(urls);
  std::printf("urls queued            %lld over %lld hosts, %.1f characters on average\n", urls, hosts,
              static_cast<double>(chars) / static_cast<double>(urls));
  std::printf("redis used_memory      %.1f MB before, %.1f MB after\n", before / 1e6, after / 1e6);
  std::printf("bytes per queued URL   %.1f\n", per_url);
  std::printf("MB per million URLs    %.1f\n", per_url * 1e6 / 1e6);
  std::printf("adds per second        %.0f (batches of 256)\n", static_cast<double>(urls) / add_s);
  if (claimed > 0)
    std::printf("claim+complete per s   %.0f (%lld, one at a time)\n", static_cast<double>(claimed) / claim_s, claimed);

  // The bench crawl's keys go (SCAN, so the server is never blocked long).
  std::string cursor = "0";
  do {
    auto r = (*redis)->command({"SCAN", cursor, "MATCH", "cronista:" + o.crawl_id + ":*", "COUNT", "1000"});
    if (!r.ok() || r->elements.size() < 2) break;
    cursor = r->elements[0].str;
    for (const auto& key : r->elements[1].elements) (void)(*redis)->command({"UNLINK", key.str});
  } while (cursor != "0");
  return 0;
}
