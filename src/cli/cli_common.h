// Conventions every cronista command shares (contract.md): --help → usage on
// stdout, exit 0; bad usage → one line on stderr, exit 2; runtime failure →
// one line on stderr, exit 1; machine output on stdout or --out.
#pragma once

#include <CLI/CLI.hpp>

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "temporal/chronon.h"
#include "temporal/genre.h"
#include "temporal/status.h"

namespace cronista::cli {

constexpr int kExitOk = 0;
constexpr int kExitFailure = 1;
constexpr int kExitUsage = 2;

// Parses argv for one command. Returns nullopt when parsing succeeded and the
// command should run; otherwise the exit code to return (help printed, or a
// usage error reported as "cronista <cmd>: <message>").
std::optional<int> parse(CLI::App& app, int argc, char** argv);

// Prints "cronista <command>: <message>" on stderr and returns `code`.
int fail(const std::string& command, const std::string& message, int code = kExitFailure);

// A command whose implementation has not landed: says so and exits 2.
int not_yet(const std::string& command, const std::string& what);

// Reads a whole file ("-" = stdin).
Result<std::string> read_input(const std::string& path);
// Writes to a file, or stdout when path is empty or "-".
Status write_output(const std::string& path, const std::string& data);
// Creates the folder dir if missing and writes each (name, data) into it.
Status write_outputs(const std::string& dir, const std::vector<std::pair<std::string, std::string>>& files);

// Help text of --patterns, the same on every command that loads the tagger.
inline constexpr const char* kPatternsHelp =
    "tagger pattern file, repeatable, later ones layered over earlier ones "
    "(default: patterns/pt.patterns and patterns/pt.manual.patterns)";

// CLI11 validators for counts and durations, with a plain message ("must be
// 0 or more, not -5") instead of CLI11's range with a 310-digit bound.
const CLI::Validator& non_negative();
const CLI::Validator& positive();

// CLI11 validator for --dct (YYYY-MM-DD, a real date).
const CLI::Validator& date_validator();

// --genre news|narrative|colloquial|scientific (temporal/genre.h), on every
// command that loads the tagger; `genre` holds the choice, "news" by default.
void add_genre_option(CLI::App& app, std::string& genre);
// The genre named by a value add_genre_option accepted.
temporal::Genre genre_named(const std::string& genre);

}  // namespace cronista::cli
