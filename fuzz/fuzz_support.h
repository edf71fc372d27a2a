// Shared bits of the libFuzzer harnesses: a check that aborts with a message
// (so a broken invariant is a crash the fuzzer keeps), and a scratch file for
// the readers that only take a path.
#pragma once

#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>
#include <unistd.h>

namespace cronista::fuzz {

#define FUZZ_CHECK(cond)                                                        \
  do {                                                                          \
    if (!(cond)) {                                                              \
      std::fprintf(stderr, "%s:%d: invariant broken: %s\n", __FILE__, __LINE__, #cond); \
      std::abort();                                                             \
    }                                                                           \
  } while (0)

// A per-process file under /dev/shm (or /tmp) rewritten with each input.
inline std::string write_scratch(std::string_view data, const char* suffix) {
  static const std::string dir = access("/dev/shm", W_OK) == 0 ? "/dev/shm" : "/tmp";
  std::string path = dir + "/cronista-fuzz-" + std::to_string(getpid()) + suffix;
  std::FILE* f = std::fopen(path.c_str(), "wb");
  if (f == nullptr) std::abort();
  if (!data.empty()) std::fwrite(data.data(), 1, data.size(), f);
  std::fclose(f);
  return path;
}

}  // namespace cronista::fuzz
