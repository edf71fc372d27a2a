// cronista tag: one document in, its temporal expressions out (contract.md):
// JSON (default), inline TIMEX3 or inline HAREM.
#include "cli/cli_common.h"
#include "cli/commands.h"
#include "cli/tag_output.h"
#include "temporal/tagger.h"
#include "temporal/text_fold.h"

namespace cronista::cli {

int cmd_tag(int argc, char** argv) {
  CLI::App app{"Find, classify and resolve the temporal expressions of one Portuguese document.", "cronista tag"};
  std::string format = "json", dct, input = "-", out, home;
  bool html = false, lenient = false;
  app.add_option("--format", format, "json, timex3 or harem")->check(CLI::IsMember({"json", "timex3", "harem"}));
  app.add_option("--dct", dct, "document creation time, YYYY-MM-DD")->check(date_validator());
  app.add_flag("--html", html, "the input is HTML");
  app.add_flag("--lenient", lenient, "replace invalid UTF-8 instead of failing");
  app.add_option("--out", out, "write here instead of stdout");
  app.add_option("--home", home, "folder holding resources/ and patterns/ (default: $CRONISTA_HOME or the source tree)");
  app.add_option("input", input, "input file, or - for stdin");
  if (auto code = parse(app, argc, argv)) return *code;

  auto data = read_input(input);
  if (!data.ok()) return fail("tag", data.status().message());
  std::string text = std::move(*data);
  const std::string what = input == "-" ? std::string("standard input") : "'" + input + "'";
  if (!temporal::valid_utf8(text)) {
    if (!lenient) return fail("tag", what + " is not valid UTF-8 (use --lenient to replace bad bytes)");
    text = temporal::replace_invalid_utf8(text);
  }
  auto tagger = temporal::Tagger::load(temporal::TaggerOptions{home, {}});
  if (!tagger.ok()) return fail("tag", tagger.status().message());

  std::optional<temporal::Date> date;
  if (!dct.empty()) date = temporal::Date::parse(dct);
  std::string result;
  if (html) return fail("tag", "--html needs the HTML reader, which this build does not include yet", kExitUsage);
  auto found = (*tagger)->tag(text, date);
  result = render_tags(text, found, date, format);
  if (Status s = write_output(out, result); !s.ok()) return fail("tag", s.message());
  return kExitOk;
}

}  // namespace cronista::cli
