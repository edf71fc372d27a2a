#include "cli/cli_common.h"

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <iterator>
#include <sstream>

namespace cronista::cli {

std::optional<int> parse(CLI::App& app, int argc, char** argv) {
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
