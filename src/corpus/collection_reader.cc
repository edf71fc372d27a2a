#include "corpus/collection_reader.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <filesystem>

#include "corpus/html_dir_reader.h"
#include "corpus/jsonl_reader.h"
#include "corpus/text_dir_reader.h"
#include "corpus/warc_collection_reader.h"
#include "corpus/wpt03_reader.h"

namespace cronista::corpus {

namespace fs = std::filesystem;
using temporal::Date;

void CollectionReader::report_corrupt(const std::string& file, std::uint64_t offset, const std::string& why) {
  ++corrupt_;
  if (on_error) on_error(file + ": offset " + std::to_string(offset) + ": " + why);
}

Result<CollectionFormat> parse_collection_format(std::string_view name) {
  if (name == "wpt03") return CollectionFormat::Wpt03;
  if (name == "warc") return CollectionFormat::Warc;
  if (name == "html-dir") return CollectionFormat::HtmlDir;
  if (name == "text-dir") return CollectionFormat::TextDir;
  if (name == "jsonl") return CollectionFormat::Jsonl;
  return Result<CollectionFormat>::Error("unknown collection format '" + std::string(name) +
                                         "' (wpt03, warc, html-dir, text-dir or jsonl)");
}

Result<std::unique_ptr<CollectionReader>> open_collection(const std::string& path, CollectionFormat format) {
  switch (format) {
    case CollectionFormat::Wpt03: return open_wpt03(path);
    case CollectionFormat::Jsonl: return open_jsonl(path);
    case CollectionFormat::HtmlDir: return open_html_dir(path);
    case CollectionFormat::TextDir: return open_text_dir(path);
    case CollectionFormat::Warc: return open_warc_collection(path);
  }
  return Result<std::unique_ptr<CollectionReader>>::Error("unknown collection format");
}

Result<std::vector<std::string>> list_collection_files(const std::string& root,
                                                       const std::function<bool(std::string_view)>& accept) {
  std::error_code ec;
  const fs::file_status st = fs::status(root, ec);
  if (ec || !fs::exists(st)) return Result<std::vector<std::string>>::Error("no such file or folder '" + root + "'");
  std::vector<std::string> files;
  if (fs::is_regular_file(st)) {
    files.push_back(root);
    return files;
  }
  if (!fs::is_directory(st)) return Result<std::vector<std::string>>::Error("'" + root + "' is not a file or folder");
  fs::recursive_directory_iterator it(root, fs::directory_options::skip_permission_denied, ec), end;
  if (ec) return Result<std::vector<std::string>>::Error("cannot read folder '" + root + "': " + ec.message());
  for (; it != end; it.increment(ec)) {
    if (ec) return Result<std::vector<std::string>>::Error("cannot read folder '" + root + "': " + ec.message());
    const std::string name = it->path().filename().string();
    if (!name.empty() && name[0] == '.') {
      if (it->is_directory(ec)) it.disable_recursion_pending();
      continue;
    }
    if (it->is_regular_file(ec) && accept(name)) files.push_back(it->path().string());
  }
  std::sort(files.begin(), files.end());
  return files;
}

namespace {

bool digits(std::string_view s) {
  return !s.empty() && std::all_of(s.begin(), s.end(), [](char c) { return c >= '0' && c <= '9'; });
}
int number(std::string_view s) {
  int v = 0;
  for (char c : s) v = v * 10 + (c - '0');
  return v;
}
std::optional<Date> make_date(int y, int m, int d) {
  Date date{y, m, d};
  if (y < 1000 || y > 9999 || !date.valid()) return std::nullopt;
  return date;
}

// HTTP-date (RFC 9110 IMF-fixdate and the obsolete RFC 850 / asctime forms):
// the English month abbreviations are part of the protocol.
std::optional<Date> parse_http_date(std::string_view s) {
  static constexpr std::array<std::string_view, 12> kMonths = {"jan", "feb", "mar", "apr", "may", "jun",
                                                               "jul", "aug", "sep", "oct", "nov", "dec"};
  std::vector<std::string_view> words;
  std::size_t i = 0;
  while (i < s.size()) {
    while (i < s.size() && (s[i] == ' ' || s[i] == ',' || s[i] == '-')) ++i;
    std::size_t j = i;
    while (j < s.size() && s[j] != ' ' && s[j] != ',' && s[j] != '-') ++j;
    if (j > i) words.push_back(s.substr(i, j - i));
    i = j;
  }
  int day = -1, month = -1, year = -1;
  for (std::string_view w : words) {
    if (w.size() >= 3 && month < 0) {
      std::string lower;
      for (char c : w.substr(0, 3)) lower += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
      auto it = std::find(kMonths.begin(), kMonths.end(), lower);
      if (it != kMonths.end() && (w.size() == 3 || std::isalpha(static_cast<unsigned char>(w[3])))) {
        month = static_cast<int>(it - kMonths.begin()) + 1;
        continue;
      }
    }
    if (digits(w) && w.size() <= 2 && day < 0) day = number(w);
    else if (digits(w) && w.size() == 4 && year < 0) year = number(w);
    else if (digits(w) && w.size() == 2 && year < 0 && day >= 0) year = number(w) + (number(w) < 70 ? 2000 : 1900);
  }
  if (day < 0 || month < 0 || year < 0) return std::nullopt;
  return make_date(year, month, day);
}

}  // namespace

std::optional<Date> parse_collection_date(std::string_view s) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front()))) s.remove_prefix(1);
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.remove_suffix(1);
  if (s.empty()) return std::nullopt;
  // The date part ends at a space or a 'T' (ISO time).
  std::string_view head = s.substr(0, s.find_first_of(" T"));
  if (head.size() == 10 && (head[2] == '/' || head[2] == '-' || head[2] == '.') && head[5] == head[2] &&
      digits(head.substr(0, 2)) && digits(head.substr(3, 2)) && digits(head.substr(6, 4)))
    return make_date(number(head.substr(6, 4)), number(head.substr(3, 2)), number(head.substr(0, 2)));
  if (head.size() == 10 && (head[4] == '-' || head[4] == '/') && head[7] == head[4] && digits(head.substr(0, 4)) &&
      digits(head.substr(5, 2)) && digits(head.substr(8, 2)))
    return make_date(number(head.substr(0, 4)), number(head.substr(5, 2)), number(head.substr(8, 2)));
  if ((head.size() == 8 || head.size() == 14) && digits(head))
    return make_date(number(head.substr(0, 4)), number(head.substr(4, 2)), number(head.substr(6, 2)));
  return parse_http_date(s);
}

}  // namespace cronista::corpus
