// Requests per second of the living sample web's server (sample-web serve
// --living --request-log): a 2,000-page living web served on loopback ports
// of 127.0.0.2-8, clients with keep-alive connections asking for random pages
// of the collection (all hosts, noise, validators, hubs, new articles), the
// request log written. Client and server share the machine's cores, so the
// figure is a lower bound for the server alone. Run:
//   build/living_server_bench --benchmark_counters_tabular=true
// (items_per_second is requests per second, summed over the client threads).
#include <benchmark/benchmark.h>
#include <httplib.h>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "sampleweb/living_web.h"
#include "sampleweb/sample_web.h"
#include "sampleweb/sample_web_server.h"

namespace {

namespace fs = std::filesystem;
using namespace cronista::sampleweb;

struct Target {
  std::string address;
  std::string path;
};

// A port free on 127.0.0.2 (the kernel's choice).
int free_port() {
  const int s = ::socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in a{};
  a.sin_family = AF_INET;
  a.sin_port = 0;
  ::inet_pton(AF_INET, "127.0.0.2", &a.sin_addr);
  ::bind(s, reinterpret_cast<sockaddr*>(&a), sizeof a);
  socklen_t len = sizeof a;
  ::getsockname(s, reinterpret_cast<sockaddr*>(&a), &len);
  ::close(s);
  return ntohs(a.sin_port);
}

struct LivingFixture {
  fs::path dir;
  int port = 0;
  std::unique_ptr<SampleWebServer> server;
  std::vector<Target> targets;

  LivingFixture() {
    dir = fs::temp_directory_path() / ("cronista-living-bench-" + std::to_string(::getpid()));
    port = free_port();
    SampleWebOptions o;
    o.corpora_dir = std::string(CRONISTA_SOURCE_DIR) + "/corpora/sample-web";
    o.out_dir = dir.string();
    o.pages = 2000;
    o.port = port;
    o.living = true;
    o.living_horizon_s = 600;
    if (auto g = generate_sample_web(o); !g) {
      std::fprintf(stderr, "living_server_bench: %s\n", g.status().message().c_str());
      std::exit(1);
    }
    auto truth = LivingTruth::load((dir / kLivingTruthFile).string());
    if (!truth) std::exit(1);
    for (const LivingPage& p : truth->pages) {
      const std::string& authority = truth->hosts[static_cast<std::size_t>(p.host)].authority;
      targets.push_back({authority.substr(0, authority.find(':')), p.path});
    }
    SampleWebServerOptions so;
    so.root = dir.string();
    so.living = true;
    so.request_log = (dir / "requests.log").string();
    auto s = SampleWebServer::load(so);
    if (!s || !(*s)->start().ok()) {
      std::fprintf(stderr, "living_server_bench: cannot serve the web\n");
      std::exit(1);
    }
    server = std::move(*s);
  }
  ~LivingFixture() {
    server->stop();
    std::error_code ec;
    fs::remove_all(dir, ec);
  }
};

LivingFixture& fixture() {
  static LivingFixture f;
  return f;
}

void BM_LivingRequests(benchmark::State& state) {
  LivingFixture& f = fixture();
  std::vector<std::unique_ptr<httplib::Client>> clients;
  for (int h = 2; h <= 8; ++h) {
    auto c = std::make_unique<httplib::Client>("127.0.0." + std::to_string(h), f.port);
    c->set_keep_alive(true);
    clients.push_back(std::move(c));
  }
  std::size_t i = static_cast<std::size_t>(state.thread_index()) * 7919;
  std::size_t bytes = 0;
  for (auto _ : state) {
    const Target& t = f.targets[(i = i * 6364136223846793005ULL + 1442695040888963407ULL) % f.targets.size()];
    auto res = clients[static_cast<std::size_t>(t.address.back() - '2')]->Get(t.path);
    if (!res) {
      state.SkipWithError("request failed");
      break;
    }
    bytes += res->body.size();
  }
  state.SetItemsProcessed(state.iterations());
  state.SetBytesProcessed(static_cast<std::int64_t>(bytes));
}
BENCHMARK(BM_LivingRequests)->Threads(1)->Threads(2)->Threads(4)->UseRealTime()->MinTime(3.0);

}  // namespace

BENCHMARK_MAIN();
