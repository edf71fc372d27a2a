#include "corpus/html_dir_reader.h"

#include <array>
#include <cctype>

#include "corpus/text_dir_reader.h"

namespace cronista::corpus {

namespace {

bool is_html_name(std::string_view name) {
  const std::size_t dot = name.rfind('.');
  if (dot == std::string_view::npos) return false;
  std::string ext;
  for (char c : name.substr(dot + 1)) ext += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  static constexpr std::array<std::string_view, 4> kExtensions = {"html", "htm", "xhtml", "shtml"};
  for (std::string_view e : kExtensions)
    if (ext == e) return true;
  return false;
}

}  // namespace

Result<std::unique_ptr<CollectionReader>> open_html_dir(const std::string& path) {
  return open_file_tree(path, true, is_html_name, "HTML");
}

}  // namespace cronista::corpus
