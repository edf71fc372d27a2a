// cronista segment: one document in, its temporal segments out (contract.md).
//
// Plain text or HTML (--html) → TextDocument → tagger → segmenter. Offsets in
// the output are byte offsets into the input (for HTML, mapped back through
// TextDocument::source_offsets). The document date is --dct, or the one the
// HTML metadata gives. Links (HTML only) are resolved against --base-url and
// the page's <base href>, and canonicalized; links that cannot be resolved
// to an http(s) URL are left out. Without any base they are given as written.
#include <nlohmann/json.hpp>

#include <optional>
#include <string>
#include <vector>

#include "cli/cli_common.h"
#include "cli/commands.h"
#include "cli/text_input.h"
#include "crawler/url.h"
#include "temporal/document.h"
#include "temporal/html_text.h"
#include "temporal/segmenter.h"
#include "temporal/tagger.h"
#include "temporal/xml_escape.h"

namespace cronista::cli {
namespace {

using temporal::Segment;
using temporal::TextDocument;

// The links of a segment as output: resolved and canonical when a base is
// known, as written otherwise.
std::vector<std::string> segment_links(const TextDocument& doc, const Segment& s,
                                       const std::optional<crawler::CanonicalUrl>& base) {
  std::vector<std::string> out;
  for (std::size_t i : s.links) {
    const std::string& href = doc.links[i].href;
    if (!base) {
      out.push_back(href);
      continue;
    }
    auto resolved = crawler::CanonicalUrl::resolve(*base, href);
    if (resolved.ok()) out.push_back(resolved->str());
  }
  return out;
}

}  // namespace

int cmd_segment(int argc, char** argv) {
  CLI::App app{"Cut one Portuguese document into temporal segments.", "cronista segment"};
  std::string format = "json", dct, input = "-", out, granularity = "sentence", base_url, home, encoding;
  bool html = false, lenient = false;
  int max_gap_days = temporal::SegmenterOptions{}.max_gap_days;
  app.add_option("--format", format, "json or xml")->check(CLI::IsMember({"json", "xml"}));
  app.add_option("--dct", dct, "document creation time, YYYY-MM-DD")->check(date_validator());
  app.add_flag("--html", html, "the input is HTML");
  app.add_option("--encoding", encoding,
                 "character set of the input (default: UTF-8 for text; for HTML the page's declared or detected "
                 "one, which this overrides)");
  app.add_flag("--lenient", lenient, "replace bytes invalid in the input's character set instead of failing");
  app.add_option("--granularity", granularity, "sentence or paragraph")
      ->check(CLI::IsMember({"sentence", "paragraph"}));
  app.add_option("--max-gap-days", max_gap_days,
                 "dates at most this many days apart (and no longer than that) count as one moment")
      ->check(CLI::Range(0, 100000));
  app.add_option("--base-url", base_url, "resolve links against this URL");
  app.add_option("--out", out, "write here instead of stdout");
  std::string genre = "news";
  add_genre_option(app, genre);
  app.add_option("--home", home, "folder holding resources/pt and patterns/ (default: $CRONISTA_HOME or the source tree)");
  app.add_option("input", input, "input file, or - for stdin");
  if (auto code = parse(app, argc, argv)) return *code;
  if (!encoding.empty())
    if (auto name = encoding_name(encoding); !name.ok()) return fail("segment", name.status().message(), kExitUsage);

  std::optional<crawler::CanonicalUrl> base;
  if (!base_url.empty()) {
    auto parsed = crawler::CanonicalUrl::parse(base_url);
    if (!parsed.ok()) return fail("segment", "--base-url: " + parsed.status().message(), kExitUsage);
    base = *parsed;
  }

  auto data = read_input(input);
  if (!data.ok()) return fail("segment", data.status().message());
  // HTML in its own charset, decoded as build and crawl decode it; offsets
  // are then those of the page in UTF-8 (the input's own when it is UTF-8).
  auto decoded = decode_document(std::move(data).value(), html, encoding, lenient,
                                 input == "-" ? std::string("standard input") : "'" + input + "'");
  if (!decoded.ok()) return fail("segment", decoded.status().message());
  const std::string text = std::move(decoded).value();

  auto tagger = temporal::Tagger::load(temporal::TaggerOptions{home, {}, genre_named(genre)});
  if (!tagger.ok()) return fail("segment", tagger.status().message());

  const TextDocument doc = html ? temporal::html_document(text) : temporal::plain_text_document(text);
  std::optional<temporal::Date> document_date = doc.dct;
  if (!dct.empty()) document_date = temporal::Date::parse(dct);

  if (html && !doc.base_href.empty()) {
    if (base) {
      auto rebased = crawler::CanonicalUrl::resolve(*base, doc.base_href);
      if (rebased.ok()) base = *rebased;
    } else if (auto absolute = crawler::CanonicalUrl::parse(doc.base_href); absolute.ok()) {
      base = *absolute;
    }
  }

  const auto expressions = (*tagger)->tag(doc.text, document_date);
  temporal::SegmenterOptions options;
  options.granularity =
      granularity == "paragraph" ? temporal::SegmentGranularity::Paragraph : temporal::SegmentGranularity::Sentence;
  options.max_gap_days = max_gap_days;
  const std::vector<Segment> segments = temporal::segment(doc, expressions, options);

  std::string rendered;
  if (format == "json") {
    nlohmann::ordered_json j;
    j["dct"] = document_date ? nlohmann::ordered_json(document_date->to_string()) : nlohmann::ordered_json(nullptr);
    j["segments"] = nlohmann::ordered_json::array();
    for (const Segment& s : segments) {
      nlohmann::ordered_json o;
      o["start"] = doc.source_offset(s.start);
      o["end"] = doc.source_offset(s.end);
      o["chronons"] = nlohmann::ordered_json::array();
      for (const auto& c : s.chronons) o["chronons"].push_back(c.to_string());
      if (html) {
        o["links"] = segment_links(doc, s, base);
        o["boilerplate"] = s.boilerplate;
      }
      j["segments"].push_back(std::move(o));
    }
    rendered = j.dump(-1, ' ', false, nlohmann::ordered_json::error_handler_t::replace) + "\n";
  } else {
    rendered = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<segments";
    if (document_date) rendered += " dct=\"" + document_date->to_string() + "\"";
    rendered += ">\n";
    for (std::size_t k = 0; k < segments.size(); ++k) {
      const Segment& s = segments[k];
      rendered += "  <segment id=\"" + std::to_string(k + 1) + "\" start=\"" +
                  std::to_string(doc.source_offset(s.start)) + "\" end=\"" +
                  std::to_string(doc.source_offset(s.end)) + "\"";
      if (html && s.boilerplate) rendered += " boilerplate=\"true\"";
      rendered += ">\n";
      for (const auto& c : s.chronons) rendered += "    <chronon>" + c.to_string() + "</chronon>\n";
      if (html)
        for (const std::string& l : segment_links(doc, s, base)) rendered += "    <link>" + temporal::xml_escape(l) + "</link>\n";
      rendered += "    <text>" + temporal::xml_escape(std::string_view(doc.text).substr(s.start, s.end - s.start)) + "</text>\n";
      rendered += "  </segment>\n";
    }
    rendered += "</segments>\n";
  }
  if (Status st = write_output(out, rendered); !st.ok()) return fail("segment", st.message());
  return kExitOk;
}

}  // namespace cronista::cli
