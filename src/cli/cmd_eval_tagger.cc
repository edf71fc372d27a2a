// cronista eval-tagger: scores the tagger against TimeML (.tml) and HAREM
// (.xml) gold files (eval/tagger_eval.h). Folders are searched for both.
// Each gold file is scored under its annotation scheme: TimeML for .tml,
// First or Second HAREM for .xml as the collection's `versao` says, unless
// --scheme forces one for every file.
#include <algorithm>
#include <filesystem>
#include <set>

#include "cli/cli_common.h"
#include "cli/commands.h"
#include "eval/harem_reader.h"
#include "eval/tagger_eval.h"
#include "eval/timeml_reader.h"
#include "temporal/tagger.h"

namespace cronista::cli {

namespace {

std::set<std::string> split_ids(const std::vector<std::string>& items) {
  std::set<std::string> out;
  for (const auto& item : items) {
    std::size_t p = 0;
    while (p <= item.size()) {
      std::size_t q = item.find_first_of(", ", p);
      if (q == std::string::npos) q = item.size();
      if (q > p) out.insert(item.substr(p, q - p));
      p = q + 1;
    }
  }
  return out;
}

}  // namespace

int cmd_eval_tagger(int argc, char** argv) {
  CLI::App app{"Score the tagger against TimeML (.tml) or HAREM gold annotations.", "cronista eval-tagger"};
  app.option_defaults()->always_capture_default();  // --help shows defaults
  std::vector<std::string> gold, only, skip;
  std::string format = "text", out, home, scheme = "auto";
  bool errors = false;
  app.add_option("--gold", gold, "gold files or folders (.tml = TimeML, .xml = HAREM)")->required();
  app.add_flag("--errors", errors, "list misses, false alarms, extent and value errors");
  app.add_option("--format", format, "text or json")->check(CLI::IsMember({"text", "json"}));
  app.add_option("--only", only, "score only these documents (ids or file stems, comma-separated)");
  app.add_option("--skip", skip, "leave out these documents (ids or file stems, comma-separated)");
  std::string genre = "news";
  add_genre_option(app, genre);
  app.add_option("--home", home, "folder holding resources/pt and patterns/ (default: $CRONISTA_HOME or the source tree)");
  app.add_option("--scheme", scheme,
                 "annotation scheme to score under: auto (from the file), timeml, second-harem or first-harem")
      ->check(CLI::IsMember({"auto", "timeml", "second-harem", "first-harem"}));
  app.add_option("--out", out, "write here instead of stdout");
  if (auto code = parse(app, argc, argv)) return *code;

  namespace fs = std::filesystem;
  std::vector<std::string> tml, xml;
  for (const auto& g : gold) {
    std::error_code ec;
    if (fs::is_directory(g, ec)) {
      for (const auto& e : fs::recursive_directory_iterator(g, ec)) {
        if (!e.is_regular_file()) continue;
        if (e.path().extension() == ".tml") tml.push_back(e.path().string());
        else if (e.path().extension() == ".xml") xml.push_back(e.path().string());
      }
    } else if (fs::is_regular_file(g, ec)) {
      if (fs::path(g).extension() == ".tml") tml.push_back(g);
      else if (fs::path(g).extension() == ".xml") xml.push_back(g);
      else return fail("eval-tagger", "--gold '" + g + "' is neither .tml (TimeML) nor .xml (HAREM)", kExitUsage);
    } else {
      return fail("eval-tagger", "--gold '" + g + "' not found", kExitUsage);
    }
  }
  std::sort(tml.begin(), tml.end());
  std::sort(xml.begin(), xml.end());
  if (tml.empty() && xml.empty()) return fail("eval-tagger", "no .tml or .xml gold files found", kExitUsage);
  const std::set<std::string> only_ids = split_ids(only), skip_ids = split_ids(skip);
  std::set<std::string> seen_ids;
  auto wanted = [&](const std::string& id) {
    seen_ids.insert(id);
    if (!only_ids.empty() && !only_ids.count(id)) return false;
    return !skip_ids.count(id);
  };

  auto tagger = temporal::Tagger::load(temporal::TaggerOptions{home, {}, genre_named(genre)});
  if (!tagger.ok()) return fail("eval-tagger", tagger.status().message());

  auto forced = [&scheme](eval::GoldScheme from_file) {
    if (scheme == "timeml") return eval::GoldScheme::TimeML;
    if (scheme == "second-harem") return eval::GoldScheme::Harem;
    if (scheme == "first-harem") return eval::GoldScheme::FirstHarem;
    return from_file;
  };
  std::vector<eval::EvalReport> reports;
  if (!tml.empty()) {
    std::vector<eval::GoldDocument> docs;
    for (const auto& f : tml) {
      auto d = eval::read_timeml(f);
      if (!d.ok()) return fail("eval-tagger", d.status().message());
      if (wanted(d->id)) docs.push_back(std::move(*d));
    }
    if (!docs.empty()) reports.push_back(eval::evaluate(docs, forced(eval::GoldScheme::TimeML), **tagger, errors));
    if (!docs.empty())
      reports.back().name = tml.size() == 1 ? fs::path(tml[0]).filename().string() : std::string("(.tml files)");
  }
  // One report per HAREM file: the collections follow different guidelines
  // (the First HAREM marks named times only, without prepositions).
  for (const auto& f : xml) {
    auto d = eval::read_harem(f);
    if (!d.ok()) return fail("eval-tagger", d.status().message());
    std::vector<eval::GoldDocument> docs;
    for (auto& doc : *d)
      if (wanted(doc.id)) docs.push_back(std::move(doc));
    if (docs.empty()) continue;
    const eval::GoldScheme from_file = eval::harem_scheme(docs.front().collection_version);
    reports.push_back(eval::evaluate(docs, forced(from_file), **tagger, errors));
    reports.back().name = fs::path(f).filename().string();
  }
  // An --only or --skip id that names no document is a mistake (a typo, the
  // wrong gold folder) that would otherwise print zeros or score everything.
  for (const auto* ids : {&only_ids, &skip_ids}) {
    std::string unknown;
    for (const std::string& id : *ids)
      if (!seen_ids.count(id)) unknown += (unknown.empty() ? "'" : ", '") + id + "'";
    if (!unknown.empty())
      return fail("eval-tagger",
                  std::string(ids == &only_ids ? "--only" : "--skip") + ": no gold document has the id " + unknown +
                      " (ids are the .tml file stems and the HAREM DOC ids; e.g. '" +
                      (seen_ids.empty() ? std::string() : *seen_ids.begin()) + "')",
                  kExitUsage);
  }
  std::string text;
  if (format == "json") {
    text = eval::format_report_json(reports, errors);
  } else {
    for (std::size_t i = 0; i < reports.size(); ++i) {
      if (i) text += "\n";
      text += eval::format_report_text(reports[i], errors);
    }
  }
  if (Status s = write_output(out, text); !s.ok()) return fail("eval-tagger", s.message());
  return kExitOk;
}

}  // namespace cronista::cli
