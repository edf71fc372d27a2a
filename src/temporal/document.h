// The text model the tagger and the segmenter work on: UTF-8 text with its
// block (paragraph) structure and, for HTML, the links at their positions.
// Plain text and HTML (html_text.h) both become a TextDocument.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "temporal/chronon.h"

namespace cronista::temporal {

// A block of the text: a paragraph, list item, heading, table cell…
struct Block {
  std::size_t start = 0;  // byte offsets into TextDocument::text, end exclusive
  std::size_t end = 0;
  // Navigation, header, footer, sidebar and other page furniture, when the
  // HTML lets us tell (nav/header/footer/aside elements, roles, common class
  // names). Kept, so that a general crawl still sees their links.
  bool boilerplate = false;
};

struct Link {
  std::size_t start = 0;  // the anchor text's byte range in TextDocument::text
  std::size_t end = 0;
  std::string href;    // as written in the page (not resolved)
  std::string anchor;  // anchor text, whitespace-collapsed
  bool boilerplate = false;
};

struct TextDocument {
  std::string text;  // blocks separated by "\n\n"
  std::vector<Block> blocks;
  std::vector<Link> links;
  // For HTML: source_offsets[i] is the byte offset in the HTML input of text
  // byte i (size text.size() + 1, last = input size). Empty for plain text,
  // where text offsets are input offsets.
  std::vector<std::size_t> source_offsets;
  std::string title;
  std::string base_href;  // <base href>, if any
  // Creation/publication date found in the document itself (<meta>, <time>).
  std::optional<Date> dct;
  // <link rel="alternate" href type>: (href as written, type), in order
  // (feeds of the page: application/rss+xml, application/atom+xml).
  std::vector<std::pair<std::string, std::string>> alternates;
  // <img> elements of an HTML document.
  std::size_t images = 0;

  // Maps a text offset back to an input offset (identity for plain text).
  std::size_t source_offset(std::size_t text_offset) const {
    if (source_offsets.empty()) return text_offset;
    return text_offset < source_offsets.size() ? source_offsets[text_offset] : source_offsets.back();
  }
};

// Plain text: the text as is; blocks are separated by blank lines.
TextDocument plain_text_document(std::string_view text);

}  // namespace cronista::temporal
