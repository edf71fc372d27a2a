// Runs tests/tools/warc-check.mjs, a checker built on warcio.js (an
// independent WARC parser), on a file. The checker's dependencies are
// installed by scripts/setup with npm; where node or they are missing the
// caller skips, naming what is missing.
#pragma once

#include <cstdlib>
#include <filesystem>
#include <string>

#include "test_support.h"

namespace cronista::testing {

struct WarcioCheck {
  std::string missing;  // non-empty: why the check cannot run here
  int exit_code = -1;
  std::string output;
};

inline WarcioCheck run_warcio_check(const std::string& warc_path, const TempDir& tmp) {
  WarcioCheck r;
  const std::string tools = source_dir() + "/tests/tools";
  if (std::system("node --version >/dev/null 2>&1") != 0) {
    r.missing = "node is not installed (Debian package nodejs)";
    return r;
  }
  if (!std::filesystem::exists(tools + "/node_modules/warcio/package.json")) {
    r.missing = "warcio.js is not installed in tests/tools (scripts/setup installs it with npm)";
    return r;
  }
  const std::string out = (tmp / "warc-check.out").string();
  const int rc = std::system(("node '" + tools + "/warc-check.mjs' '" + warc_path + "' >'" + out + "' 2>&1").c_str());
  r.exit_code = WIFEXITED(rc) ? WEXITSTATUS(rc) : -1;
  r.output = read_file(out);
  return r;
}

}  // namespace cronista::testing
