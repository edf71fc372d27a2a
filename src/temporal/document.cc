#include "temporal/document.h"

namespace cronista::temporal {

TextDocument plain_text_document(std::string_view text) {
  TextDocument doc;
  doc.text.assign(text);
  // Blocks: runs of text separated by one or more blank lines.
  std::size_t i = 0;
  const std::size_t n = text.size();
  while (i < n) {
    while (i < n && (text[i] == '\n' || text[i] == '\r')) ++i;
    if (i >= n) break;
    std::size_t start = i, end = i;
    while (i < n) {
      std::size_t eol = text.find('\n', i);
      if (eol == std::string_view::npos) eol = n;
      std::string_view line = text.substr(i, eol - i);
      if (line.find_first_not_of(" \t\r") == std::string_view::npos) break;  // blank line
      end = eol;
      i = eol < n ? eol + 1 : n;
    }
    while (end > start && (text[end - 1] == '\r' || text[end - 1] == ' ' || text[end - 1] == '\t')) --end;
    if (end > start) doc.blocks.push_back(Block{start, end, false});
    while (i < n && text[i] != '\n') ++i;  // skip the blank line itself
  }
  return doc;
}

}  // namespace cronista::temporal
