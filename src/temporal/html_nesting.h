// A bound on how deeply elements nest, applied to the HTML source before it
// is parsed.
//
// gumbo (0.10) looks through its whole stack of open elements for most start
// tags, so parsing takes time quadratic in the nesting depth: a page of 100k
// nested <div> does not parse in minutes. Browsers bound the depth of the
// tree they build (Blink re-parents elements beyond depth 512 to the 512th);
// this does the same one step earlier, in one linear pass over the tags: it
// follows the stack of open elements approximately (end tags close what they
// match, and the tags that close an open <p>, <li>, table cell or row, or
// heading do so), and past `max_depth` open elements it drops the start tags
// that would nest deeper, with their matching end tags. The text between
// them stays, so it ends up in the element at the depth limit; a dropped
// block element leaves a space so that words do not run together. Elements
// that never nest inside themselves (p, li, dt, dd, headings, table rows and
// cells, a, option) are never dropped, so no link is lost. Pages that stay
// under the limit are not touched at all.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace cronista::temporal {

// What html_depth_cut() did: `html` is the input with the excess tags
// removed and `origin[i]` the input offset of its byte i (size html.size()
// + 1, last = input size).
struct DepthCut {
  std::string html;
  std::vector<std::size_t> origin;
  std::size_t dropped_tags = 0;
};

// The nesting depth html_document() allows (Blink's parser limit).
inline constexpr std::size_t kMaxHtmlDepth = 512;

// False (and *cut untouched) when no start tag would open deeper than
// `max_depth`; otherwise true with the cut page in *cut.
bool html_depth_cut(std::string_view html, std::size_t max_depth, DepthCut* cut);

}  // namespace cronista::temporal
