// A real redis-server for tests: started on a unix socket in a temporary
// folder, with an append-only file, and stopped (or killed) by the test.
// It dies with the thread that started it, so a test killed from outside
// (ctest's timeout) leaves no server behind.
#pragma once

#include <fcntl.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <string>
#include <thread>

#include "shared_frontier/redis_connection.h"
#include "test_support.h"

namespace cronista::testing {

inline std::string redis_server_binary() {
  for (const char* p : {"/usr/bin/redis-server", "/usr/local/bin/redis-server"})
    if (::access(p, X_OK) == 0) return p;
  return {};
}

class RedisServer {
 public:
  RedisServer() { start(); }
  ~RedisServer() { stop(); }
  RedisServer(const RedisServer&) = delete;
  RedisServer& operator=(const RedisServer&) = delete;

  bool available() const { return !redis_server_binary().empty(); }
  bool running() const { return pid_ > 0; }
  std::string socket() const { return (dir_ / "redis.sock").string(); }
  std::string uri() const { return "unix://" + socket(); }

  // Starts (again) on the same folder: the append-only file brings the data back.
  void start() {
    const std::string bin = redis_server_binary();
    if (bin.empty() || pid_ > 0) return;
    std::filesystem::remove(socket());
    const pid_t parent = ::getpid();
    // Built before fork(): the child of a threaded process may not allocate.
    const std::string dir = dir_.path().string(), sock = socket();
    pid_ = ::fork();
    if (pid_ == 0) {
      if (::prctl(PR_SET_PDEATHSIG, SIGKILL) != 0 || ::getppid() != parent) ::_exit(126);
      const int null = ::open("/dev/null", O_WRONLY);
      ::dup2(null, 1);
      ::execl(bin.c_str(), bin.c_str(), "--port", "0", "--unixsocket", sock.c_str(), "--unixsocketperm", "700",
              "--dir", dir.c_str(), "--appendonly", "yes", "--appendfsync", "always", "--save", "",
              "--daemonize", "no", static_cast<char*>(nullptr));
      ::_exit(127);
    }
    for (int i = 0; i < 200; ++i) {  // up to 10 s for the socket to answer
      auto addr = shared_frontier::parse_redis_address(uri());
      if (addr.ok() && std::filesystem::exists(socket())) {
        auto c = shared_frontier::RedisConnection::open(*addr, 500);
        if (c.ok() && (*c)->command({"PING"}).ok()) return;
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
  }

  // SIGTERM (a clean shutdown) or SIGKILL (a crash), and wait for it.
  void stop(int signal = SIGTERM) {
    if (pid_ <= 0) return;
    ::kill(pid_, signal);
    int status = 0;
    ::waitpid(pid_, &status, 0);
    pid_ = -1;
  }

 private:
  TempDir dir_;
  pid_t pid_ = -1;
};

}  // namespace cronista::testing
