// cronista tag: one document in, its temporal expressions out (contract.md):
// JSON (default), inline TIMEX3 or inline HAREM.
#include "cli/cli_common.h"
#include "cli/commands.h"
#include "cli/tag_output.h"
#include "temporal/html_text.h"
#include "temporal/tagger.h"
#include "temporal/text_fold.h"

namespace cronista::cli {

int cmd_tag(int argc, char** argv) {
  CLI::App app{"Find, classify and resolve the temporal expressions of one Portuguese document.", "cronista tag"};
  std::string format = "json", dct, input = "-", out, home;
  bool html = false, lenient = false;
  app.add_option("--format", format, "json, timex3 or harem")->check(CLI::IsMember({"json", "timex3", "harem"}));
  app.add_option("--dct", dct, "document creation time, YYYY-MM-DD")->check(date_validator());
  app.add_flag("--html", html, "the input is HTML (its main text is tagged; the page's own date is the DCT unless --dct)");
  app.add_flag("--lenient", lenient, "replace invalid UTF-8 instead of failing");
  app.add_option("--out", out, "write here instead of stdout");
  std::string genre = "news";
  add_genre_option(app, genre);
  app.add_option("--home", home, "folder holding resources/pt and patterns/ (default: $CRONISTA_HOME or the source tree)");
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
  auto tagger = temporal::Tagger::load(temporal::TaggerOptions{home, {}, genre_named(genre)});
  if (!tagger.ok()) return fail("tag", tagger.status().message());

  std::optional<temporal::Date> date;
  if (!dct.empty()) date = temporal::Date::parse(dct);
  std::string result;
  if (html) {
    // The main text of the page is tagged. JSON offsets refer to the HTML
    // input (its bytes, markup included, are the "text"); the inline formats
    // mark up the extracted text, which stays well-formed whatever the page.
    temporal::TextDocument doc = temporal::html_document(text);
    if (!date && doc.dct) date = doc.dct;
    auto found = (*tagger)->tag(doc.text, date);
    if (format == "json") {
      auto to_input = [&doc](std::size_t b, std::size_t e, std::size_t* s, std::size_t* t) {
        *s = doc.source_offset(b);
        *t = e > b ? doc.source_offset(e - 1) + 1 : *s;
      };
      for (auto& e : found) {
        to_input(e.start, e.end, &e.start, &e.end);
        to_input(e.harem_start, e.harem_end, &e.harem_start, &e.harem_end);
        if (e.end > text.size()) e.end = text.size();
        e.text = text.substr(e.start, e.end - e.start);
        for (auto& p : e.endpoints) {
          to_input(p.start, p.end, &p.start, &p.end);
          if (p.end > text.size()) p.end = text.size();
          p.text = text.substr(p.start, p.end - p.start);
        }
      }
      result = render_tags(text, found, date, format);
    } else {
      result = render_tags(doc.text, found, date, format);
    }
  } else {
    auto found = (*tagger)->tag(text, date);
    result = render_tags(text, found, date, format);
  }
  if (Status s = write_output(out, result); !s.ok()) return fail("tag", s.message());
  return kExitOk;
}

}  // namespace cronista::cli
