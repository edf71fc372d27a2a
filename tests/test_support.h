// Helpers shared by the test programs: running the real cronista binary,
// temporary folders, locating the source tree and ../shared/data.
#pragma once

#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <random>
#include <sstream>
#include <string>
#include <vector>

namespace cronista::testing {

struct ProcessResult {
  int exit_code = -1;
  std::string out;
  std::string err;
};

inline std::string read_file(const std::filesystem::path& p) {
  std::ifstream in(p, std::ios::binary);
  return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

inline void write_file(const std::filesystem::path& p, const std::string& data) {
  std::ofstream out(p, std::ios::binary | std::ios::trunc);
  out << data;
}

// A fresh folder removed at scope exit.
class TempDir {
 public:
  TempDir() {
    std::random_device rd;
    path_ = std::filesystem::temp_directory_path() / ("cronista-test-" + std::to_string(::getpid()) + "-" +
                                                       std::to_string(rd()));
    std::filesystem::create_directories(path_);
  }
  ~TempDir() {
    std::error_code ec;
    std::filesystem::remove_all(path_, ec);
  }
  const std::filesystem::path& path() const { return path_; }
  std::filesystem::path operator/(const std::string& name) const { return path_ / name; }

 private:
  std::filesystem::path path_;
};

// A port the kernel just handed out on this loopback address (in practice
// free on the other 127.0.0.x addresses too, as the sample web needs).
// Every file below root, by path relative to it, with its bytes.
inline std::map<std::string, std::string> files_below(const std::filesystem::path& root) {
  std::map<std::string, std::string> out;
  for (const auto& e : std::filesystem::recursive_directory_iterator(root))
    if (e.is_regular_file()) out[std::filesystem::relative(e.path(), root).string()] = read_file(e.path());
  return out;
}

inline int free_loopback_port(const char* address = "127.0.0.2") {
  const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  if (fd < 0) return 0;
  sockaddr_in a{};
  a.sin_family = AF_INET;
  a.sin_port = 0;
  ::inet_pton(AF_INET, address, &a.sin_addr);
  int port = 0;
  socklen_t len = sizeof a;
  if (::bind(fd, reinterpret_cast<sockaddr*>(&a), sizeof a) == 0 &&
      ::getsockname(fd, reinterpret_cast<sockaddr*>(&a), &len) == 0)
    port = ntohs(a.sin_port);
  ::close(fd);
  return port;
}

inline std::string source_dir() { return CRONISTA_SOURCE_DIR; }
inline std::string cronista_binary() { return CRONISTA_BINARY; }

// The sample web's filler sentences (corpora/sample-web/filler.txt): real
// Portuguese text for tests to build pages from.
inline std::vector<std::string> sample_web_filler() {
  std::vector<std::string> out;
  std::ifstream in(source_dir() + "/corpora/sample-web/filler.txt");
  for (std::string line; std::getline(in, line);)
    if (!line.empty() && line[0] != '#') out.push_back(line);
  return out;
}

// ../shared/data beside the checkout, or $CRONISTA_SHARED_DATA; empty if absent.
inline std::string shared_data_dir() {
  if (const char* env = std::getenv("CRONISTA_SHARED_DATA"); env && *env) return env;
  std::filesystem::path p = std::filesystem::path(CRONISTA_SOURCE_DIR) / ".." / "shared" / "data";
  std::error_code ec;
  if (std::filesystem::is_directory(p, ec)) return std::filesystem::canonical(p, ec).string();
  return {};
}

// Starts the cronista binary with args, its standard streams redirected to
// these files (stdout and stderr created or truncated); returns its pid.
// Everything the child needs is built before fork(): the test process has
// threads (loopback servers), and a child of a threaded process may only
// make async-signal-safe calls before exec (an allocation there can wait
// forever on a lock another thread held at the fork).
inline pid_t start_cronista(const std::vector<std::string>& args, const std::string& stdin_path,
                            const std::string& stdout_path, const std::string& stderr_path) {
  std::vector<std::string> all{cronista_binary()};
  all.insert(all.end(), args.begin(), args.end());
  std::vector<char*> argv;
  for (auto& a : all) argv.push_back(a.data());
  argv.push_back(nullptr);
  const char* in_path = stdin_path.c_str();
  const char* out_path = stdout_path.c_str();
  const char* err_path = stderr_path.c_str();
  pid_t pid = ::fork();
  if (pid == 0) {
    int in = ::open(in_path, O_RDONLY);
    int out = ::open(out_path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    int err = ::open(err_path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    ::dup2(in, 0);
    ::dup2(out, 1);
    ::dup2(err, 2);
    ::execv(argv[0], argv.data());
    ::_exit(127);
  }
  return pid;
}

// Runs the cronista binary with args; stdin from `input` (empty: /dev/null).
inline ProcessResult run_cronista(const std::vector<std::string>& args, const std::string& input = {}) {
  TempDir tmp;
  const auto in_path = tmp / "stdin", out_path = tmp / "stdout", err_path = tmp / "stderr";
  write_file(in_path, input);
  const pid_t pid = start_cronista(args, in_path.string(), out_path.string(), err_path.string());
  ProcessResult r;
  int status = 0;
  ::waitpid(pid, &status, 0);
  r.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  r.out = read_file(out_path);
  r.err = read_file(err_path);
  return r;
}

inline int count_lines(const std::string& s) {
  int n = 0;
  for (char c : s) n += c == '\n';
  return n;
}

}  // namespace cronista::testing
