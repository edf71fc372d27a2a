// The bounds of html_limits.h.
//
// One pass over the source: a small tokenizer finds start and end tags (it
// skips comments, doctypes, quoted attribute values and the content of
// script, style and the other raw-text elements), and an approximate stack
// of open elements follows the HTML5 tree builder's main rules (per tag, the
// positions of its open elements, so that every step is constant time):
//   - an end tag of a "special" element (div, ul, table…) pops to the
//     element it names if no scope boundary (table, cell, caption…) lies in
//     between; of a formatting element (b, font…) removes just that element
//     when a special element is open above it (the adoption agency keeps
//     that one open) and pops to it otherwise; of any other element pops to
//     it only if no special element lies in between; otherwise it is
//     ignored, as the tree builder ignores it; </form> closes the form
//     alone, and a form inside a form is ignored;
//   - block start tags close an open <p>; <li>, <dt>/<dd>, <option> and
//     headings close their open sibling; table rows, cells and sections
//     clear the stack back to their table context; <a> closes an open <a>
//     as the adoption agency does (special elements inside it stay open);
//   - void elements, and "/>" inside svg or math, open nothing; html, head
//     and body merge into the ones already open; rows and cells outside a
//     table are ignored.
// Elements and links are counted on the way. The simulation is not the tree
// builder: ordinary pages, however sloppy, must stay far below the depth
// limit (tests/temporal/html_limits_test.cc), and hostile nesting it cannot
// follow goes to gumbo as is.
#include "temporal/html_limits.h"

#include <gumbo.h>

#include <algorithm>
#include <cstdint>
#include <initializer_list>
#include <unordered_map>
#include <utility>

namespace cronista::temporal {
namespace {

bool is_alpha(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }
bool is_space(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f'; }
char lower(char c) { return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c; }

bool is_void(GumboTag t) {
  switch (t) {
    case GUMBO_TAG_AREA: case GUMBO_TAG_BASE: case GUMBO_TAG_BASEFONT: case GUMBO_TAG_BGSOUND:
    case GUMBO_TAG_BR: case GUMBO_TAG_COL: case GUMBO_TAG_EMBED: case GUMBO_TAG_FRAME:
    case GUMBO_TAG_HR: case GUMBO_TAG_IMAGE: case GUMBO_TAG_IMG: case GUMBO_TAG_INPUT:
    case GUMBO_TAG_KEYGEN: case GUMBO_TAG_LINK: case GUMBO_TAG_META: case GUMBO_TAG_PARAM:
    case GUMBO_TAG_SOURCE: case GUMBO_TAG_TRACK: case GUMBO_TAG_WBR:
      return true;
    default:
      return false;
  }
}

// Elements whose content is not markup; their end tag is searched for.
bool is_raw_text(GumboTag t) {
  switch (t) {
    case GUMBO_TAG_SCRIPT: case GUMBO_TAG_STYLE: case GUMBO_TAG_XMP: case GUMBO_TAG_IFRAME:
    case GUMBO_TAG_NOEMBED: case GUMBO_TAG_NOFRAMES: case GUMBO_TAG_NOSCRIPT: case GUMBO_TAG_TEXTAREA:
    case GUMBO_TAG_TITLE:
      return true;
    default:
      return false;
  }
}

// Boundaries of "has an element in scope".
bool is_scope_boundary(GumboTag t) {
  switch (t) {
    case GUMBO_TAG_APPLET: case GUMBO_TAG_CAPTION: case GUMBO_TAG_HTML: case GUMBO_TAG_TABLE:
    case GUMBO_TAG_TD: case GUMBO_TAG_TH: case GUMBO_TAG_MARQUEE: case GUMBO_TAG_OBJECT:
    case GUMBO_TAG_TEMPLATE: case GUMBO_TAG_SVG: case GUMBO_TAG_MATH: case GUMBO_TAG_FOREIGNOBJECT:
      return true;
    default:
      return false;
  }
}

bool is_formatting(GumboTag t) {
  switch (t) {
    case GUMBO_TAG_A: case GUMBO_TAG_B: case GUMBO_TAG_BIG: case GUMBO_TAG_CODE: case GUMBO_TAG_EM:
    case GUMBO_TAG_FONT: case GUMBO_TAG_I: case GUMBO_TAG_NOBR: case GUMBO_TAG_S: case GUMBO_TAG_SMALL:
    case GUMBO_TAG_STRIKE: case GUMBO_TAG_STRONG: case GUMBO_TAG_TT: case GUMBO_TAG_U:
      return true;
    default:
      return false;
  }
}

// The tree builder's "special" category (the elements that can be open).
bool is_special(GumboTag t) {
  switch (t) {
    case GUMBO_TAG_ADDRESS: case GUMBO_TAG_APPLET: case GUMBO_TAG_ARTICLE: case GUMBO_TAG_ASIDE:
    case GUMBO_TAG_BLOCKQUOTE: case GUMBO_TAG_BODY: case GUMBO_TAG_BUTTON: case GUMBO_TAG_CAPTION:
    case GUMBO_TAG_CENTER: case GUMBO_TAG_COLGROUP: case GUMBO_TAG_DD: case GUMBO_TAG_DETAILS:
    case GUMBO_TAG_DIR: case GUMBO_TAG_DIV: case GUMBO_TAG_DL: case GUMBO_TAG_DT:
    case GUMBO_TAG_FIELDSET: case GUMBO_TAG_FIGCAPTION: case GUMBO_TAG_FIGURE: case GUMBO_TAG_FOOTER:
    case GUMBO_TAG_FORM: case GUMBO_TAG_FRAMESET: case GUMBO_TAG_H1: case GUMBO_TAG_H2:
    case GUMBO_TAG_H3: case GUMBO_TAG_H4: case GUMBO_TAG_H5: case GUMBO_TAG_H6: case GUMBO_TAG_HEAD:
    case GUMBO_TAG_HEADER: case GUMBO_TAG_HGROUP: case GUMBO_TAG_HTML: case GUMBO_TAG_LI:
    case GUMBO_TAG_LISTING: case GUMBO_TAG_MAIN: case GUMBO_TAG_MARQUEE: case GUMBO_TAG_MENU:
    case GUMBO_TAG_NAV: case GUMBO_TAG_OBJECT: case GUMBO_TAG_OL: case GUMBO_TAG_P:
    case GUMBO_TAG_PLAINTEXT: case GUMBO_TAG_PRE: case GUMBO_TAG_SECTION: case GUMBO_TAG_SELECT:
    case GUMBO_TAG_SUMMARY: case GUMBO_TAG_TABLE: case GUMBO_TAG_TBODY: case GUMBO_TAG_TD:
    case GUMBO_TAG_TEMPLATE: case GUMBO_TAG_TFOOT: case GUMBO_TAG_TH: case GUMBO_TAG_THEAD:
    case GUMBO_TAG_TR: case GUMBO_TAG_UL: case GUMBO_TAG_SVG: case GUMBO_TAG_MATH:
    case GUMBO_TAG_FOREIGNOBJECT:
      return true;
    default:
      return false;
  }
}

// Start tags that close an open <p> ("close a p element").
bool closes_p(GumboTag t) {
  switch (t) {
    case GUMBO_TAG_ADDRESS: case GUMBO_TAG_ARTICLE: case GUMBO_TAG_ASIDE: case GUMBO_TAG_BLOCKQUOTE:
    case GUMBO_TAG_CENTER: case GUMBO_TAG_DETAILS: case GUMBO_TAG_DIR: case GUMBO_TAG_DIV:
    case GUMBO_TAG_DL: case GUMBO_TAG_FIELDSET: case GUMBO_TAG_FIGCAPTION: case GUMBO_TAG_FIGURE:
    case GUMBO_TAG_FOOTER: case GUMBO_TAG_HEADER: case GUMBO_TAG_HGROUP: case GUMBO_TAG_MAIN:
    case GUMBO_TAG_MENU: case GUMBO_TAG_NAV: case GUMBO_TAG_OL: case GUMBO_TAG_P:
    case GUMBO_TAG_SECTION: case GUMBO_TAG_SUMMARY: case GUMBO_TAG_UL: case GUMBO_TAG_H1:
    case GUMBO_TAG_H2: case GUMBO_TAG_H3: case GUMBO_TAG_H4: case GUMBO_TAG_H5: case GUMBO_TAG_H6:
    case GUMBO_TAG_PRE: case GUMBO_TAG_LISTING: case GUMBO_TAG_FORM: case GUMBO_TAG_LI: case GUMBO_TAG_DD:
    case GUMBO_TAG_DT: case GUMBO_TAG_PLAINTEXT: case GUMBO_TAG_TABLE: case GUMBO_TAG_XMP:
      return true;
    default:
      return false;
  }
}

bool is_heading(GumboTag t) {
  return t == GUMBO_TAG_H1 || t == GUMBO_TAG_H2 || t == GUMBO_TAG_H3 || t == GUMBO_TAG_H4 || t == GUMBO_TAG_H5 ||
         t == GUMBO_TAG_H6;
}

// Elements that never nest inside themselves: never dropped.
bool self_limiting(GumboTag t) {
  switch (t) {
    case GUMBO_TAG_A: case GUMBO_TAG_P: case GUMBO_TAG_LI: case GUMBO_TAG_DT: case GUMBO_TAG_DD:
    case GUMBO_TAG_TR: case GUMBO_TAG_TD: case GUMBO_TAG_TH: case GUMBO_TAG_TBODY: case GUMBO_TAG_THEAD:
    case GUMBO_TAG_TFOOT: case GUMBO_TAG_CAPTION: case GUMBO_TAG_COLGROUP: case GUMBO_TAG_OPTION:
    case GUMBO_TAG_OPTGROUP:
      return true;
    default:
      return is_heading(t);
  }
}

// Whether a dropped tag leaves a space: block elements and line breaks
// separate words, inline ones do not.
bool leaves_space(GumboTag t) {
  return t == GUMBO_TAG_BR || t == GUMBO_TAG_HR ||
         (t != GUMBO_TAG_UNKNOWN && is_special(t) && t != GUMBO_TAG_BUTTON && t != GUMBO_TAG_SELECT);
}

// The list of active formatting elements (b, i, font… left open), which
// the tree builder reopens, all of them, before each run of text: without a
// bound, "<p><b id=1>x</p><p><b id=2>x</p>…" builds a number of elements
// quadratic in the page's length. Approximate like OpenElements: no markers
// (table cells and captions would clear the list), so it may count more
// entries than there are, which only costs formatting. <a> and <nobr> are
// left out: a new one closes the old one.
class ActiveFormatting {
 public:
  ActiveFormatting() : by_tag_(GUMBO_TAG_LAST) {}

  static bool tracked(GumboTag t) { return is_formatting(t) && t != GUMBO_TAG_A && t != GUMBO_TAG_NOBR; }
  std::size_t size() const { return size_; }
  static std::uint64_t key(GumboTag t, std::string_view attributes) {
    return std::hash<std::string_view>{}(attributes) * 31 + static_cast<std::uint64_t>(t);
  }
  // Noah's Ark: a fourth identical entry replaces the first, so adds none.
  bool adds(std::uint64_t k) const {
    const auto it = identical_.find(k);
    return it == identical_.end() || it->second < 3;
  }
  void add(GumboTag t, std::uint64_t k) {
    if (!adds(k)) return;
    ++identical_[k];
    by_tag_[t].push_back(k);
    ++size_;
  }
  // An end tag removes the last entry of its tag, open or not.
  void remove_last(GumboTag t) {
    if (by_tag_[t].empty()) return;
    const std::uint64_t k = by_tag_[t].back();
    by_tag_[t].pop_back();
    if (--identical_[k] == 0) identical_.erase(k);
    --size_;
  }

 private:
  std::vector<std::vector<std::uint64_t>> by_tag_;
  std::unordered_map<std::uint64_t, int> identical_;
  std::size_t size_ = 0;
};

// The approximate stack of open elements. Ids are GumboTag values, and
// unknown (custom) element names get ids of their own past GUMBO_TAG_LAST
// (the first kMaxUnknownNames of them; later ones share one).
class OpenElements {
 public:
  OpenElements() : tops_(GUMBO_TAG_LAST + 2) {}

  std::uint32_t id(GumboTag tag, std::string_view name) {
    if (tag != GUMBO_TAG_UNKNOWN) return static_cast<std::uint32_t>(tag);
    std::string key;
    key.reserve(name.size());
    for (char c : name) key.push_back(lower(c));
    if (auto it = unknown_.find(key); it != unknown_.end()) return it->second;
    if (unknown_.size() >= kMaxUnknownNames) return GUMBO_TAG_LAST + 1;
    const auto fresh = static_cast<std::uint32_t>(tops_.size());
    tops_.emplace_back();
    unknown_.emplace(std::move(key), fresh);
    return fresh;
  }

  std::size_t depth() const { return live_; }
  // Position of the innermost open element with this id, -1 if none.
  long top(std::uint32_t id) const { return tops_[id].empty() ? -1 : static_cast<long>(tops_[id].back()); }
  long top(GumboTag t) const { return top(static_cast<std::uint32_t>(t)); }
  long top_special() { return innermost_live(specials_); }
  long top_boundary() { return innermost_live(boundaries_); }
  bool current_is(GumboTag t) const {
    return !entries_.empty() && entries_.back().id == static_cast<std::uint32_t>(t);
  }

  void push(std::uint32_t id) {
    const auto pos = static_cast<std::uint32_t>(entries_.size());
    entries_.push_back(Entry{id, true});
    tops_[id].push_back(pos);
    if (id < GUMBO_TAG_LAST && is_special(static_cast<GumboTag>(id))) specials_.push_back(pos);
    if (id < GUMBO_TAG_LAST && is_scope_boundary(static_cast<GumboTag>(id))) boundaries_.push_back(pos);
    ++live_;
  }

  // Pops every element at position `pos` and above.
  void pop_to(long pos) {
    if (pos < 0) return;
    while (entries_.size() > static_cast<std::size_t>(pos)) pop_entry();
    drop_dead_top();
  }
  // Pops everything above position `pos`.
  void pop_above(long pos) { pop_to(pos + 1); }

  // Formatting elements popped (not by their own end tag) since the last
  // call: still in the list of active formatting elements, so reopened, as
  // copies, before the next text.
  std::size_t take_formatting_popped() { return std::exchange(formatting_popped_, 0); }
  void forget_one_formatting_popped() {
    if (formatting_popped_ > 0) --formatting_popped_;
  }

  // Removes the innermost element with this id only, leaving the elements
  // above it open.
  void remove_top(std::uint32_t id) {
    const std::uint32_t pos = tops_[id].back();
    tops_[id].pop_back();
    entries_[pos].live = false;
    --live_;
    drop_dead_top();
  }

 private:
  static constexpr std::size_t kMaxUnknownNames = 1024;

  void pop_entry() {
    const Entry e = entries_.back();
    entries_.pop_back();
    const auto at = static_cast<std::uint32_t>(entries_.size());
    if (!specials_.empty() && specials_.back() == at) specials_.pop_back();
    if (!boundaries_.empty() && boundaries_.back() == at) boundaries_.pop_back();
    if (e.live) {
      tops_[e.id].pop_back();
      --live_;
      if (e.id < GUMBO_TAG_LAST && ActiveFormatting::tracked(static_cast<GumboTag>(e.id))) ++formatting_popped_;
    }
  }
  // Keeps the innermost entry a live one.
  void drop_dead_top() {
    while (!entries_.empty() && !entries_.back().live) pop_entry();
  }
  // The last position of `positions` that holds a live element (removed
  // ones are forgotten on the way), -1 if none.
  long innermost_live(std::vector<std::uint32_t>& positions) const {
    while (!positions.empty() && !entries_[positions.back()].live) positions.pop_back();
    return positions.empty() ? -1 : static_cast<long>(positions.back());
  }

  struct Entry {
    std::uint32_t id;
    bool live;
  };
  std::vector<Entry> entries_;
  std::vector<std::vector<std::uint32_t>> tops_;
  std::vector<std::uint32_t> specials_, boundaries_;
  std::unordered_map<std::string, std::uint32_t> unknown_;
  std::size_t live_ = 0;
  std::size_t formatting_popped_ = 0;
};

// Bytes [start, end) overwritten: by NULs (a dropped tag or comment, after
// a space if `space`), or by spaces (attributes past the limit, inside a tag).
struct Drop {
  std::size_t start, end;
  bool space;
  char fill = '\0';
};

// Offset of the '>' that ends the tag whose attributes start at `i` (quoted
// values skipped); npos at the end of input. *self_closing: the tag ends "/>".
std::size_t tag_end(std::string_view s, std::size_t i, bool* self_closing, std::size_t max_attributes,
                    std::size_t* excess) {
  *self_closing = false;
  *excess = std::string_view::npos;
  std::size_t attributes = 0;
  while (i < s.size()) {
    const char c = s[i];
    if (c == '>') return i;
    if (c == '/') {
      *self_closing = i + 1 < s.size() && s[i + 1] == '>';
      ++i;
      continue;
    }
    if (is_space(c)) {
      ++i;
      continue;
    }
    // An attribute name, then maybe "= value".
    if (++attributes > max_attributes && *excess == std::string_view::npos) *excess = i;
    ++i;  // the first character may be anything, even '='
    while (i < s.size() && !is_space(s[i]) && s[i] != '/' && s[i] != '>' && s[i] != '=') ++i;
    std::size_t k = i;
    while (k < s.size() && is_space(s[k])) ++k;
    if (k < s.size() && s[k] == '=') {
      ++k;
      while (k < s.size() && is_space(s[k])) ++k;
      if (k < s.size() && (s[k] == '"' || s[k] == '\'')) {
        const std::size_t close = s.find(s[k], k + 1);
        if (close == std::string_view::npos) return std::string_view::npos;
        i = close + 1;
      } else {
        while (k < s.size() && !is_space(s[k]) && s[k] != '>') ++k;
        i = k;
      }
    }
  }
  return std::string_view::npos;
}

// Start of the end tag "</name" (any case) at or after `from`; npos if none.
std::size_t raw_text_end(std::string_view s, std::size_t from, std::string_view name) {
  for (std::size_t at = s.find("</", from); at != std::string_view::npos; at = s.find("</", at + 2)) {
    std::size_t k = 0;
    while (k < name.size() && at + 2 + k < s.size() && lower(s[at + 2 + k]) == lower(name[k])) ++k;
    if (k == name.size()) {
      const std::size_t after = at + 2 + k;
      if (after >= s.size() || is_space(s[after]) || s[after] == '/' || s[after] == '>') return at;
    }
  }
  return std::string_view::npos;
}

}  // namespace

void OffsetMap::add(std::size_t to, std::size_t from, bool run) {
  if (!pieces_.empty()) {
    const Piece& last = pieces_.back();
    if (last.run() && run && last.from() + (to - last.to) == from) return;  // continues the run
  }
  pieces_.push_back(Piece{to, from | (run ? kRunBit : 0)});
}

std::size_t OffsetMap::operator()(std::size_t at) const {
  if (pieces_.empty()) return at;
  std::size_t c = cursor_ < pieces_.size() ? cursor_ : 0;
  if (pieces_[c].to > at) {
    c = 0;  // lookups mostly go forward; a step back searches
    if (pieces_[0].to <= at) {
      c = static_cast<std::size_t>(
              std::upper_bound(pieces_.begin(), pieces_.end(), at,
                               [](std::size_t v, const Piece& p) { return v < p.to; }) -
              pieces_.begin()) -
          1;
    }
  } else {
    int steps = 0;
    while (c + 1 < pieces_.size() && pieces_[c + 1].to <= at) {
      if (++steps > 8) {
        c = static_cast<std::size_t>(
                std::upper_bound(pieces_.begin() + static_cast<long>(c), pieces_.end(), at,
                                 [](std::size_t v, const Piece& p) { return v < p.to; }) -
                pieces_.begin()) -
            1;
        break;
      }
      ++c;
    }
  }
  cursor_ = c;
  const Piece& p = pieces_[c];
  if (p.to > at || !p.run()) return p.from();
  return p.from() + (at - p.to);
}

bool bound_markup(std::string_view html, const MarkupLimits& limits, BoundedMarkup* out) {
  OpenElements open;
  // A dropped tag is overwritten in a copy of the page (made at the first
  // drop) by NUL bytes, which the tree builder ignores in the body, after a
  // space when it separated words. So the bounded page has the offsets of
  // the input.
  std::size_t dropped = 0;
  auto drop = [&](const Drop& d) {
    if (dropped++ == 0) out->html.assign(html.data(), html.size());
    std::fill(out->html.begin() + static_cast<long>(d.start), out->html.begin() + static_cast<long>(d.end), d.fill);
    if (d.space) out->html[d.start] = ' ';
  };
  // Dropped start tags whose end tag has not come yet, per id.
  std::unordered_map<std::uint32_t, std::size_t> pending;
  std::size_t elements = 0, links = 0;
  ActiveFormatting formatting;
  std::size_t off_stack = 0;  // entries of `formatting` whose element is closed
  std::size_t i = 0;
  const std::size_t n = html.size();
  while (i < n) {
    const std::size_t lt = html.find('<', i);
    if (lt == std::string_view::npos || lt + 1 >= n) break;
    // Text since the last tag: the tree builder first reopens, as copies,
    // the formatting elements closed while still in the list.
    off_stack = std::min(off_stack + open.take_formatting_popped(), formatting.size());
    if (off_stack > 0) {
      bool text = false;
      for (std::size_t k = i; k < lt && !text; ++k) text = !is_space(html[k]);
      if (text) {
        elements += off_stack;
        for (; off_stack > 0; --off_stack) open.push(GUMBO_TAG_B);
      }
    }
    const char c = html[lt + 1];
    if (c == '!' || c == '?') {
      // A comment, doctype or processing instruction: one node each, so
      // they count as elements; past the limit they go.
      std::size_t end;
      if (html.compare(lt, 4, "<!--") == 0) {
        if (html.compare(lt + 4, 1, ">") == 0 || html.compare(lt + 4, 2, "->") == 0) {
          end = html.find('>', lt + 4) + 1;  // "<!-->", "<!--->"
        } else {
          const std::size_t close = html.find("-->", lt + 4);
          end = close == std::string_view::npos ? n : close + 3;
        }
      } else {
        const std::size_t close = html.find('>', lt + 2);
        end = close == std::string_view::npos ? n : close + 1;
      }
      if (elements >= limits.max_elements) drop(Drop{lt, end, false});
      else ++elements;
      i = end;
      continue;
    }
    const bool end_tag = c == '/';
    const std::size_t name_start = lt + (end_tag ? 2 : 1);
    if (name_start >= n || !is_alpha(html[name_start])) {
      if (end_tag) {  // "</>" or "</ …>": dropped by the tokenizer
        const std::size_t close = html.find('>', name_start);
        if (close == std::string_view::npos) break;
        i = close + 1;
      } else {
        i = lt + 1;  // a literal '<'
      }
      continue;
    }
    std::size_t name_end = name_start;
    while (name_end < n && !is_space(html[name_end]) && html[name_end] != '/' && html[name_end] != '>') ++name_end;
    const std::string_view name = html.substr(name_start, name_end - name_start);
    bool self_closing = false;
    std::size_t excess = 0;
    const std::size_t gt = tag_end(html, name_end, &self_closing, limits.max_attributes, &excess);
    if (gt == std::string_view::npos) break;  // an unfinished tag: the tokenizer drops it
    if (excess != std::string_view::npos) drop(Drop{excess, self_closing ? gt - 1 : gt, false, ' '});
    const std::size_t after = gt + 1;
    const GumboTag tag = gumbo_tagn_enum(name.data(), static_cast<unsigned>(name.size()));
    const std::uint32_t id = open.id(tag, name);
    i = after;

    if (end_tag) {
      if (auto p = pending.find(id); p != pending.end() && p->second > 0) {
        --p->second;
        drop(Drop{lt, after, leaves_space(tag)});
        continue;
      }
      const long at = open.top(id);
      if (ActiveFormatting::tracked(tag)) {
        formatting.remove_last(tag);
        if (at < 0 && off_stack > 0) --off_stack;  // its entry was a closed one
      }
      if (at < 0 || tag == GUMBO_TAG_HTML || tag == GUMBO_TAG_BODY || tag == GUMBO_TAG_HEAD) continue;
      if (tag == GUMBO_TAG_FORM) {
        // Closes the form alone; what was opened inside it stays open.
        if (at > open.top_boundary()) open.remove_top(id);
      } else if (tag != GUMBO_TAG_UNKNOWN && is_special(tag)) {
        if (is_scope_boundary(tag) || at > open.top_boundary()) open.pop_to(at);
      } else if (tag != GUMBO_TAG_UNKNOWN && is_formatting(tag)) {
        if (at > open.top_boundary()) {
          if (open.top_special() > at) {
            open.remove_top(id);
          } else {
            open.pop_to(at);
            open.forget_one_formatting_popped();  // closed by its own end tag
          }
        }
      } else if (at > open.top_special()) {
        open.pop_to(at);
      }
      continue;
    }

    // A start tag.
    if (tag == GUMBO_TAG_HTML || tag == GUMBO_TAG_HEAD || tag == GUMBO_TAG_BODY) continue;
    const bool full = elements >= limits.max_elements;
    const bool foreign = open.top(GUMBO_TAG_SVG) >= 0 || open.top(GUMBO_TAG_MATH) >= 0;
    if (is_void(tag) || (self_closing && foreign)) {
      if (full) drop(Drop{lt, after, leaves_space(tag)});
      else ++elements;
      continue;
    }
    if (tag == GUMBO_TAG_PLAINTEXT) break;
    if (is_raw_text(tag) && !foreign) {
      // Not pushed: its content is skipped up to its end tag; past the
      // element limit it goes whole (its content is no text anyway).
      const std::size_t close = raw_text_end(html, after, name);
      const std::size_t close_end = close == std::string_view::npos ? n : html.find('>', close);
      if (full) {
        drop(Drop{lt, close_end == std::string_view::npos ? n : close_end + 1, false});
      } else {
        ++elements;
      }
      if (close == std::string_view::npos) break;
      i = full && close_end != std::string_view::npos ? close_end + 1 : close;
      continue;
    }
    if (full || (tag == GUMBO_TAG_A && links >= limits.max_links)) {
      ++pending[id];
      drop(Drop{lt, after, leaves_space(tag)});
      continue;
    }
    if (tag == GUMBO_TAG_A) ++links;
    if (ActiveFormatting::tracked(tag)) {
      const std::uint64_t k = ActiveFormatting::key(tag, html.substr(name_end, gt - name_end));
      if (formatting.adds(k) && formatting.size() >= limits.max_formatting) {
        ++pending[id];
        drop(Drop{lt, after, false});
        continue;
      }
      formatting.add(tag, k);
    }
    const long table = open.top(GUMBO_TAG_TABLE);
    switch (tag) {
      case GUMBO_TAG_TD:
      case GUMBO_TAG_TH:
        if (table < 0) continue;
        open.pop_above(std::max(open.top(GUMBO_TAG_TR), table));
        break;
      case GUMBO_TAG_TR:
        if (table < 0) continue;
        open.pop_above(std::max({open.top(GUMBO_TAG_TBODY), open.top(GUMBO_TAG_THEAD), open.top(GUMBO_TAG_TFOOT),
                                 table}));
        break;
      case GUMBO_TAG_TBODY:
      case GUMBO_TAG_THEAD:
      case GUMBO_TAG_TFOOT:
      case GUMBO_TAG_CAPTION:
      case GUMBO_TAG_COLGROUP:
        if (table < 0) continue;
        open.pop_above(table);
        break;
      case GUMBO_TAG_LI: {
        const long li = open.top(GUMBO_TAG_LI);
        if (li >= 0 && li > std::max({open.top(GUMBO_TAG_UL), open.top(GUMBO_TAG_OL), open.top(GUMBO_TAG_MENU),
                                      open.top_boundary()}))
          open.pop_to(li);
        break;
      }
      case GUMBO_TAG_DT:
      case GUMBO_TAG_DD: {
        const long d = std::max(open.top(GUMBO_TAG_DT), open.top(GUMBO_TAG_DD));
        if (d >= 0 && d > std::max(open.top(GUMBO_TAG_DL), open.top_boundary())) open.pop_to(d);
        break;
      }
      case GUMBO_TAG_A:
      case GUMBO_TAG_NOBR: {
        // The adoption agency closes the open one; special elements opened
        // inside it stay open.
        const long a = open.top(id);
        if (a >= 0 && a > open.top_boundary()) {
          if (open.top_special() > a) open.remove_top(id);
          else open.pop_to(a);
        }
        break;
      }
      case GUMBO_TAG_FORM:
        if (open.top(GUMBO_TAG_FORM) >= 0) continue;  // a form inside a form is ignored
        break;
      case GUMBO_TAG_OPTION:
      case GUMBO_TAG_OPTGROUP:
        if (open.current_is(GUMBO_TAG_OPTION)) open.pop_to(open.top(GUMBO_TAG_OPTION));
        if (tag == GUMBO_TAG_OPTGROUP && open.current_is(GUMBO_TAG_OPTGROUP))
          open.pop_to(open.top(GUMBO_TAG_OPTGROUP));
        break;
      default:
        break;
    }
    if (!foreign && tag != GUMBO_TAG_UNKNOWN && closes_p(tag)) {
      const long p = open.top(GUMBO_TAG_P);
      if (p >= 0 && p > std::max(open.top(GUMBO_TAG_BUTTON), open.top_boundary())) open.pop_to(p);
    }
    if (is_heading(tag)) {
      for (GumboTag h : {GUMBO_TAG_H1, GUMBO_TAG_H2, GUMBO_TAG_H3, GUMBO_TAG_H4, GUMBO_TAG_H5, GUMBO_TAG_H6})
        if (open.current_is(h)) open.pop_to(open.top(h));
    }
    if (open.depth() >= limits.max_depth && (tag == GUMBO_TAG_UNKNOWN || !self_limiting(tag))) {
      ++pending[id];
      drop(Drop{lt, after, leaves_space(tag)});
      continue;
    }
    open.push(id);
    ++elements;
  }
  if (dropped == 0) return false;
  out->dropped_tags = dropped;
  return true;
}

}  // namespace cronista::temporal
