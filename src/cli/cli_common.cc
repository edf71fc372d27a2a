#include "cli/cli_common.h"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <iterator>
#include <sstream>

#include "temporal/edit_distance.h"

namespace cronista::cli {

namespace {

void long_names(const CLI::App& app, std::vector<std::string>& out) {
  for (const CLI::Option* o : app.get_options())
    for (const std::string& n : o->get_lnames()) out.push_back("--" + n);
  for (const CLI::App* sub : app.get_subcommands([](const CLI::App*) { return true; })) long_names(*sub, out);
}

// The first "--name" of argv that no option of the command (or of its
// subcommands) has, with the nearest option name as a suggestion; checked
// before parsing, so that a mistyped option is not reported as a missing one.
std::optional<std::string> unknown_option(const CLI::App& app, int argc, char** argv) {
  std::vector<std::string> names;
  long_names(app, names);
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg == "--") break;
    if (arg.size() < 3 || arg.compare(0, 2, "--") != 0) continue;
    const std::string name = arg.substr(0, arg.find('='));
    if (std::find(names.begin(), names.end(), name) != names.end()) continue;
    std::string best;
    std::size_t best_distance = 3;
    for (const std::string& n : names) {
      const std::size_t d = temporal::edit_distance(name, n);
      if (d < best_distance) best_distance = d, best = n;
    }
    return "unknown option '" + name + "'" + (best.empty() ? std::string() : " (did you mean " + best + "?)");
  }
  return std::nullopt;
}

// An empty list shows no default in --help (CLI11 would print "=[]").
void hide_empty_defaults(CLI::App& app) {
  for (CLI::Option* o : app.get_options())
    if (o->get_default_str() == "[]") o->default_str("");
  for (CLI::App* sub : app.get_subcommands([](CLI::App*) { return true; })) hide_empty_defaults(*sub);
}

}  // namespace

std::optional<int> parse(CLI::App& app, int argc, char** argv) {
  hide_empty_defaults(app);
  if (auto unknown = unknown_option(app, argc, argv)) {
    std::cerr << app.get_name() << ": " << *unknown << " (see --help)\n";
    return kExitUsage;
  }
  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp&) {
    std::cout << app.help();
    return kExitOk;
  } catch (const CLI::CallForAllHelp&) {
    std::cout << app.help("", CLI::AppFormatMode::All);
    return kExitOk;
  } catch (const CLI::ParseError& e) {
    std::string msg = e.what();
    for (char& c : msg)
      if (c == '\n') c = ' ';
    std::cerr << app.get_name() << ": " << msg << " (see --help)\n";
    return kExitUsage;
  }
  return std::nullopt;
}

int fail(const std::string& command, const std::string& message, int code) {
  std::cerr << "cronista " << command << ": " << message << "\n";
  return code;
}

int not_yet(const std::string& command, const std::string& what) {
  return fail(command, what + " is not implemented yet in this version", kExitUsage);
}

Result<std::string> read_input(const std::string& path) {
  if (path.empty() || path == "-") {
    std::string data((std::istreambuf_iterator<char>(std::cin)), std::istreambuf_iterator<char>());
    if (std::cin.bad()) return Result<std::string>::Error("cannot read standard input");
    return data;
  }
  // An ifstream opens a directory and reads nothing: say so instead.
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec)) return Result<std::string>::Error("'" + path + "' is a directory, not a file");
  std::ifstream in(path, std::ios::binary);
  if (!in) return Result<std::string>::Error("cannot open '" + path + "': " + std::strerror(errno));
  std::ostringstream ss;
  ss << in.rdbuf();
  if (in.bad()) return Result<std::string>::Error("cannot read '" + path + "'");
  return ss.str();
}

Status write_output(const std::string& path, const std::string& data) {
  if (path.empty() || path == "-") {
    std::cout << data;
    std::cout.flush();
    if (!std::cout) return Status::Error("cannot write to standard output");
    return Status::Ok();
  }
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  if (!out) return Status::Error("cannot write '" + path + "': " + std::strerror(errno));
  out << data;
  out.close();
  if (!out) return Status::Error("cannot write '" + path + "'");
  return Status::Ok();
}

void add_genre_option(CLI::App& app, std::string& genre) {
  app.add_option("--genre", genre,
                 "how undated expressions resolve: news (nearest, by tense; default), narrative (relative to the "
                 "last date the text gave), colloquial (the next one unless the tense says past), scientific "
                 "(no document date)")
      ->check(CLI::IsMember({"news", "narrative", "colloquial", "scientific"}));
}

temporal::Genre genre_named(const std::string& genre) {
  return temporal::parse_genre(genre).value_or(temporal::Genre::News);
}

Status write_outputs(const std::string& dir, const std::vector<std::pair<std::string, std::string>>& files) {
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  if (ec) return Status::Error("cannot create '" + dir + "': " + ec.message());
  for (const auto& [name, data] : files)
    if (Status st = write_output((std::filesystem::path(dir) / name).string(), data); !st.ok()) return st;
  return Status::Ok();
}

namespace {

// A number above `bound` (or equal to it unless `strict`).
CLI::Validator lower_bound(double bound, bool strict, const std::string& words, const std::string& name) {
  return CLI::Validator(
      [=](std::string& s) -> std::string {
        double d = 0;
        if (!CLI::detail::lexical_cast(s, d)) return "'" + s + "' is not a number";
        if (strict ? d <= bound : d < bound) return "must be " + words + ", not " + s;
        return {};
      },
      name);
}

}  // namespace

const CLI::Validator& non_negative() {
  static const CLI::Validator v = lower_bound(0, false, "0 or more", "N>=0");
  return v;
}

const CLI::Validator& positive() {
  static const CLI::Validator v = lower_bound(0, true, "more than 0", "N>0");
  return v;
}

const CLI::Validator& date_validator() {
  static const CLI::Validator v(
      [](std::string& s) -> std::string {
        if (!temporal::Date::parse(s)) return "'" + s + "' is not a date of the form YYYY-MM-DD";
        return {};
      },
      "YYYY-MM-DD");
  return v;
}

}  // namespace cronista::cli
