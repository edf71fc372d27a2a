// cronista tag: one document in, its temporal expressions out (contract.md):
// JSON (default), a TimeML document (inline TIMEX3) or inline HAREM, under
// the annotation scheme asked for.
//
// Plain text is read, tagged and written piece by piece (TextPieces, about
// --piece-size bytes each, cut after a blank line where there is one), the
// tagger's anaphora anchors carried from piece to piece (TagState), so that
// memory stays bounded whatever the input's size. HTML is parsed whole (its
// size is bounded by html_limits.h) and its output streamed the same way.
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <iostream>

#include "cli/cli_common.h"
#include "cli/commands.h"
#include "cli/tag_output.h"
#include "cli/text_input.h"
#include "temporal/html_text.h"
#include "temporal/tagger.h"

namespace cronista::cli {

namespace {

eval::GoldScheme parse_scheme(const std::string& s) {
  if (s == "first-harem") return eval::GoldScheme::FirstHarem;
  if (s == "second-harem") return eval::GoldScheme::Harem;
  return eval::GoldScheme::TimeML;
}

TagFormat parse_format(const std::string& s) {
  if (s == "timex3") return TagFormat::Timex3;
  if (s == "harem") return TagFormat::Harem;
  return TagFormat::Json;
}

}  // namespace

int cmd_tag(int argc, char** argv) {
  CLI::App app{"Find, classify and resolve the temporal expressions of one Portuguese document.", "cronista tag"};
  std::string format = "json", scheme, dct, input = "-", out, home, encoding;
  std::vector<std::string> patterns;
  std::size_t piece_size = 1 << 20;
  bool html = false, lenient = false;
  app.add_option("--format", format, "json, timex3 (a TimeML document) or harem (inline HAREM <EM>)")
      ->check(CLI::IsMember({"json", "timex3", "harem"}));
  app.add_option("--scheme", scheme,
                 "which expressions and extents are written, as eval-tagger scores them: timeml, second-harem "
                 "or first-harem (default: second-harem with --format harem, timeml otherwise)")
      ->check(CLI::IsMember({"timeml", "second-harem", "first-harem"}));
  app.add_option("--dct", dct, "document creation time, YYYY-MM-DD")->check(date_validator());
  app.add_flag("--html", html,
               "the input is HTML (its main text is tagged, decoded from the page's charset; the page's own date "
               "is the DCT unless --dct)");
  app.add_option("--encoding", encoding,
                 "character set of the input (default: UTF-8 for text; for HTML the page's declared or detected "
                 "one, which this overrides)");
  app.add_flag("--lenient", lenient, "replace bytes invalid in the input's character set instead of failing");
  app.add_option("--out", out, "write here instead of stdout");
  app.add_option("--home", home, "folder holding resources/pt and patterns/ (default: $CRONISTA_HOME or the source tree)");
  app.add_option("--patterns", patterns, kPatternsHelp)->allow_extra_args(false);
  app.add_option("--piece-size", piece_size, "plain text is tagged in pieces of about this many bytes")
      ->check(CLI::Range(std::size_t{1024}, std::size_t{1} << 30));
  app.add_option("input", input, "input file, or - for stdin");
  if (auto code = parse(app, argc, argv)) return *code;
  if (!encoding.empty())
    if (auto name = encoding_name(encoding); !name.ok()) return fail("tag", name.status().message(), kExitUsage);
  const eval::GoldScheme sch =
      scheme.empty() ? (format == "harem" ? eval::GoldScheme::Harem : eval::GoldScheme::TimeML) : parse_scheme(scheme);

  // Everything that can fail before any output: the input opens, the tagger loads.
  std::unique_ptr<TextPieces> pieces;
  std::string page;
  const std::string what = input == "-" ? std::string("standard input") : "'" + input + "'";
  if (html) {
    auto data = read_input(input);
    if (!data.ok()) return fail("tag", data.status().message());
    auto decoded = decode_document(std::move(*data), true, encoding, lenient, what);
    if (!decoded.ok()) return fail("tag", decoded.status().message());
    page = std::move(*decoded);
  } else {
    auto opened = TextPieces::open(input, encoding, lenient, piece_size);
    if (!opened.ok()) return fail("tag", opened.status().message());
    pieces = std::move(*opened);
  }
  auto tagger = temporal::Tagger::load(temporal::TaggerOptions{home, patterns});
  if (!tagger.ok()) return fail("tag", tagger.status().message());

  std::ofstream file;
  if (!out.empty() && out != "-") {
    file.open(out, std::ios::binary | std::ios::trunc);
    if (!file) return fail("tag", "cannot write '" + out + "': " + std::strerror(errno));
  }
  std::ostream& sink = file.is_open() ? static_cast<std::ostream&>(file) : std::cout;
  std::optional<temporal::Date> date;
  if (!dct.empty()) date = temporal::Date::parse(dct);

  if (html) {
    // JSON offsets refer to the page (its bytes, markup included, decoded to
    // UTF-8 when it was in another charset); the inline formats mark up the
    // extracted text, which stays well-formed whatever the page.
    const temporal::TextDocument doc = temporal::html_document(page);
    if (!date && doc.dct) date = doc.dct;
    const auto found = (*tagger)->tag(doc.text, date);
    TagWriter writer(sink, parse_format(format), sch, date);
    const TagWriter::SourceMap map{page, &doc.source_offsets};
    writer.write(doc.text, 0, found, format == "json" ? &map : nullptr);
    if (!writer.finish()) return fail("tag", "cannot write " + (out.empty() ? std::string("to standard output") : "'" + out + "'"));
    return kExitOk;
  }

  TagWriter writer(sink, parse_format(format), sch, date);
  temporal::TagState state;
  std::string piece;
  for (;;) {
    auto more = pieces->next(&piece);
    if (!more.ok()) {
      // The output stops short (no closing brackets): the error says why.
      if (file.is_open()) {
        file.close();
        std::remove(out.c_str());
      }
      return fail("tag", more.status().message());
    }
    if (!*more) break;
    writer.write(piece, pieces->offset(), (*tagger)->tag(piece, date, &state));
    if (!writer.ok()) break;
  }
  if (!writer.finish()) return fail("tag", "cannot write " + (out.empty() ? std::string("to standard output") : "'" + out + "'"));
  return kExitOk;
}

}  // namespace cronista::cli
