// cronista learn: the co-occurrence processor over plain-text, folder and
// JSONL corpora, writing a pattern file (pattern_learner.h, contract.md).
#include <chrono>
#include <iostream>
#include <string>
#include <vector>

#include "cli/cli_common.h"
#include "cli/commands.h"
#include "temporal/lexicon.h"
#include "temporal/pattern_learner.h"
#include "temporal/pattern_set.h"
#include "temporal/tagger.h"
#include "temporal/text_fold.h"

namespace cronista::cli {

int cmd_learn(int argc, char** argv) {
  CLI::App app{"Learn temporal-expression patterns from a corpus (co-occurrence processor).", "cronista learn"};
  app.option_defaults()->always_capture_default();  // --help shows defaults
  std::vector<std::string> corpus;
  std::string resources, home, out;
  temporal::LearnerOptions options;
  bool quiet = false;
  app.add_option("--corpus", corpus, "text files, folders or JSONL files")->required();
  app.add_option("--resources", resources, "folder with the Portuguese word lists (default: HOME/resources/pt)");
  app.add_option("--home", home, "folder holding resources/pt (default: $CRONISTA_HOME or the source tree)")
      ->excludes("--resources");
  app.add_option("--window", options.window, "words before and after a marker")->check(CLI::Range(1, 8));
  app.add_option("--min-frequency", options.min_frequency, "drop patterns seen fewer times")
      ->check(CLI::Range(1L, 1000000000L));
  app.add_option("--examples", options.max_examples, "examples kept per pattern")->check(CLI::Range(0, 20));
  app.add_flag("--quiet", quiet, "no progress on stderr");
  app.add_option("--out", out, "pattern file to write")->required();
  if (auto code = parse(app, argc, argv)) return *code;

  if (resources.empty()) resources = (home.empty() ? temporal::default_home() : home) + "/resources/pt";
  auto lexicon = temporal::Lexicon::load(resources);
  if (!lexicon.ok()) return fail("learn", lexicon.status().message());

  const auto started = std::chrono::steady_clock::now();
  temporal::PatternLearner learner(*lexicon, options);
  long reported_mb = 0;
  // Damaged input is reported and skipped, never silently learned from: bad
  // bytes become U+FFFD (they cannot form a word), broken JSONL lines are
  // left out. Both are counted in a summary that --quiet does not hide.
  std::size_t skipped_lines = 0, repaired_documents = 0;
  std::string first_skipped;
  const Status read = temporal::for_each_corpus_text(
      corpus,
      [&](std::string_view text) {
        if (temporal::valid_utf8(text)) {
          learner.add_text(text);
        } else {
          ++repaired_documents;
          learner.add_text(temporal::replace_invalid_utf8(text));
        }
        const long mb = learner.stats().bytes >> 22;  // every 4 MiB
        if (!quiet && mb != reported_mb) {
          reported_mb = mb;
          std::cerr << "learn: " << (learner.stats().bytes >> 20) << " MiB, " << learner.stats().documents
                    << " documents\n";
        }
      },
      [&](const std::string& path) {
        if (!quiet) std::cerr << "learn: read " << path << "\n";
      },
      [&](const std::string& problem) {
        if (skipped_lines++ == 0) first_skipped = problem;
      });
  if (!read.ok()) return fail("learn", read.message());
  if (skipped_lines > 0)
    std::cerr << "learn: skipped " << skipped_lines << " malformed JSONL line(s), the first at " << first_skipped
              << "\n";
  if (repaired_documents > 0)
    std::cerr << "learn: replaced invalid UTF-8 in " << repaired_documents << " document(s)\n";
  if (learner.stats().documents == 0) return fail("learn", "no document read from the corpus");

  const std::vector<temporal::Pattern> patterns = learner.patterns();
  // An empty pattern file would silently switch the annotator's learned
  // patterns off: refuse to write one.
  if (patterns.empty())
    return fail("learn", "no pattern learned from " + std::to_string(learner.stats().documents) +
                             " documents (nothing written): give a larger corpus or a lower --min-frequency");
  const std::string file = temporal::format_pattern_file(patterns, learner.file_header());
  if (Status st = write_output(out, file); !st.ok()) return fail("learn", st.message());
  if (!quiet) {
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    const auto& s = learner.stats();
    std::cerr << "learn: " << s.documents << " documents, " << s.words << " words, " << s.candidates
              << " windows kept (" << s.pruned_negative << " dropped for negative words, " << s.pruned_grammar
              << " as senseless), " << s.distinct << " distinct forms, " << s.merged_groups << " alternations, "
              << s.patterns << " patterns written in " << seconds << " s\n";
  }
  return kExitOk;
}

}  // namespace cronista::cli
