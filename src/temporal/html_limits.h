// Bounds on what an HTML page may cost, applied to the source before it is
// parsed: how deeply elements nest, how many elements and how many links.
//
// Depth: gumbo (0.10) looks through its whole stack of open elements for
// most start tags, so parsing takes time quadratic in the nesting depth: a
// page of 100k nested <div> does not parse in minutes. Browsers bound the
// depth of the tree they build (Blink re-parents elements beyond depth 512
// to the 512th); this does the same one step earlier. One linear pass over
// the tags follows the stack of open elements approximately (end tags close
// what they match, and the tags that close an open <p>, <li>, table cell or
// row, or heading do so) and, past `max_depth` open elements, drops the
// start tags that would nest deeper, with their matching end tags. The text
// between them stays, in the element at the depth limit. Elements that never
// nest inside themselves (p, li, dt, dd, headings, table rows and cells, a,
// option) are not dropped for depth, so no link is lost to it.
//
// Size: gumbo's tree costs ~150 bytes per node, and each link ~100 more in
// the TextDocument, so a 35 MB page of a million links needed over 1 GB.
// Past `max_elements` elements (comments and doctypes count) every further
// tag and comment is dropped (raw-text elements such as <script> with their
// content) and the rest of the page is read as text in the element open at
// that point; past `max_links` <a> elements further <a> tags are dropped
// and their anchor text stays. A crawler gains nothing from the 100,001st
// link of one page, and ordinary pages have a few thousand elements (the 250
// pages of the htmldate set at most 4,437), so the defaults only bite on
// generated or hostile pages.
//
// Formatting: the tree builder reopens every formatting element left open
// (b, i, font…; up to three identical ones) before each run of text, so
// "<p><b id=1>x</p><p><b id=2>x</p>…" builds a number of elements quadratic
// in the page's length (3,000 such paragraphs: 28 s, 1.7 GB). Formatting
// start tags that would leave more than `max_formatting` open are dropped;
// bold and italics carry no text.
//
// Attributes: gumbo compares each attribute with all the earlier ones of
// its tag (quadratic: 100k attributes on one tag take minutes); attributes
// past `max_attributes` are blanked out with spaces.
//
// A dropped block element or line break leaves a space, so that words do
// not run together; an inline one leaves nothing (see BoundedMarkup). Pages
// within every limit are not touched at all.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace cronista::temporal {

struct MarkupLimits {
  std::size_t max_depth = 512;        // Blink's parser limit
  std::size_t max_elements = 200000;  // elements of the page kept as markup
  std::size_t max_links = 100000;     // <a> elements kept as links
  std::size_t max_attributes = 128;   // per tag
  std::size_t max_formatting = 16;    // formatting elements left open (b, i, font…)
};

// Maps offsets of a rewritten text back to the text it was made from, in
// pieces: a run copies bytes one for one, a replacement maps all its bytes
// to one source offset. Lookups are fastest in increasing order (a cursor
// remembers the last piece), so one map must not be shared between threads.
class OffsetMap {
 public:
  // Bytes from `to` on come from `from` on, one for one (`run`), or all
  // from `from`; `to` must not decrease from one call to the next.
  void add(std::size_t to, std::size_t from, bool run);
  bool empty() const { return pieces_.empty(); }
  std::size_t pieces() const { return pieces_.size(); }
  // The source offset of rewritten offset `at` (identity when empty).
  std::size_t operator()(std::size_t at) const;

 private:
  // 16 bytes: the kind of piece is the top bit of `from_kind`.
  struct Piece {
    std::size_t to, from_kind;
    std::size_t from() const { return from_kind & ~kRunBit; }
    bool run() const { return (from_kind & kRunBit) != 0; }
  };
  static constexpr std::size_t kRunBit = std::size_t{1} << (sizeof(std::size_t) * 8 - 1);
  std::vector<Piece> pieces_;
  mutable std::size_t cursor_ = 0;
};

// What bound_markup() made: the page with every dropped tag overwritten by
// NUL bytes (after a space, for a block element or line break). The tree
// builder ignores NUL characters in the body, and the page keeps its length,
// so offsets into it are offsets into the input.
struct BoundedMarkup {
  std::string html;
  std::size_t dropped_tags = 0;
};

// False (and *out untouched) when the page is within the limits; otherwise
// true with the bounded page in *out.
bool bound_markup(std::string_view html, const MarkupLimits& limits, BoundedMarkup* out);

}  // namespace cronista::temporal
