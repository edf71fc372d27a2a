// HTML to TextDocument (see html_text.h).
//
// Approach: the input is first made valid UTF-8 (gumbo requires it): invalid
// bytes become U+FFFD and a leading byte-order mark is dropped, remembering
// where each sanitized byte came from. Then the markup is bounded
// (html_limits.h): nesting deeper than 512 open elements is cut, because
// gumbo's time grows with the square of the depth, and past 200,000 elements
// or 100,000 links further tags are dropped, because gumbo's tree costs
// ~150 bytes a node. gumbo builds the HTML5 tree; one
// iterative walk (no recursion, so deeply nested pages cannot exhaust the
// stack) turns it into text:
//   - script, style, template, noscript, svg, math, form controls and the
//     head's content are dropped (the head only yields title, base, meta);
//   - block elements and <br> end the current block; blocks are joined by
//     "\n\n"; inside a block, runs of white space (including U+00A0) become
//     one space; soft hyphens and zero-width spaces are dropped;
//   - <a href> becomes a Link whose range is its anchor text in the output;
//   - nav/aside/footer elements, header outside an article, ARIA landmark
//     roles of page furniture and class/id names that say navigation, menu,
//     footer, sidebar, breadcrumb or cookie mark their blocks and links as
//     boilerplate; a change of boilerplate status always ends a block.
// Source offsets: every text byte remembers the input byte it came from.
// Inside a text node the decoded text is aligned with gumbo's original_text
// (entities map to their '&', CR LF to its LF); synthetic spaces and block
// separators take the offset of the white space or element that caused
// them. Tree order may differ from source order (foster parenting, adoption
// agency), so a final pass makes the offsets non-decreasing.
// Document date: <meta> names that mean "published" (and an RDF dc:date),
// then JSON-LD "datePublished", then microdata/RDFa datePublished, then
// <time pubdate>, then the first <time datetime>, then a /YYYY/MM/DD/ date
// in the canonical URL, then "datePublished"/"publishedDate" in other script
// data; failing all those, a modification date (meta or JSON-LD), and last
// the first /YYYY/MM/DD/ link of the main text (a blog's permalink).
#include "temporal/html_text.h"

#include <gumbo.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstring>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_set>
#include <vector>

#include "temporal/html_limits.h"

namespace cronista::temporal {
namespace {

// ---------------------------------------------------------------- UTF-8 ----

// Length of the valid UTF-8 sequence at s[i], or 0 when invalid (overlong
// forms, surrogates and code points above U+10FFFF are invalid).
std::size_t valid_sequence_length(std::string_view s, std::size_t i) {
  const auto b = [&](std::size_t k) { return static_cast<unsigned char>(s[k]); };
  const unsigned char c = b(i);
  const std::size_t left = s.size() - i;
  if (c < 0x80) return 1;
  if (c < 0xC2) return 0;
  if (c < 0xE0) return left >= 2 && (b(i + 1) & 0xC0) == 0x80 ? 2 : 0;
  if (c < 0xF0) {
    if (left < 3 || (b(i + 1) & 0xC0) != 0x80 || (b(i + 2) & 0xC0) != 0x80) return 0;
    if (c == 0xE0 && b(i + 1) < 0xA0) return 0;   // overlong
    if (c == 0xED && b(i + 1) >= 0xA0) return 0;  // surrogate
    return 3;
  }
  if (c < 0xF5) {
    if (left < 4 || (b(i + 1) & 0xC0) != 0x80 || (b(i + 2) & 0xC0) != 0x80 || (b(i + 3) & 0xC0) != 0x80) return 0;
    if (c == 0xF0 && b(i + 1) < 0x90) return 0;  // overlong
    if (c == 0xF4 && b(i + 1) >= 0x90) return 0;  // above U+10FFFF
    return 4;
  }
  return 0;
}

// The input made parseable: valid UTF-8, no leading BOM, within the markup
// limits (which keep offsets). input_offset() maps an offset of `view` to an
// input offset.
struct SanitizedInput {
  std::string_view view;
  std::string storage;
  OffsetMap origin;  // storage (sanitized) to input; empty: identity

  std::size_t input_offset(std::size_t at) const { return origin(at); }
};

SanitizedInput sanitize(std::string_view html) {
  SanitizedInput out;
  const bool bom = html.size() >= 3 && html.compare(0, 3, "\xEF\xBB\xBF") == 0;
  bool valid = true;
  for (std::size_t i = 0; i < html.size();) {
    if (static_cast<unsigned char>(html[i]) < 0x80) {
      ++i;
      continue;
    }
    const std::size_t n = valid_sequence_length(html, i);
    if (n == 0) {
      valid = false;
      break;
    }
    i += n;
  }
  if (valid && !bom) {
    out.view = html;
    return out;
  }
  out.storage.reserve(html.size() + 16);
  std::size_t i = bom ? 3 : 0;
  while (i < html.size()) {
    const std::size_t n = valid_sequence_length(html, i);
    if (n == 0) {
      out.origin.add(out.storage.size(), i, false);
      out.storage.append("\xEF\xBF\xBD");
      ++i;
    } else {
      out.origin.add(out.storage.size(), i, true);
      out.storage.append(html.substr(i, n));
      i += n;
    }
  }
  out.origin.add(out.storage.size(), html.size(), false);
  out.view = out.storage;
  return out;
}

// ------------------------------------------------------------- elements ----

enum class Role { Inline, Block, Skip };

Role role_of(GumboTag tag) {
  switch (tag) {
    case GUMBO_TAG_SCRIPT:
    case GUMBO_TAG_STYLE:
    case GUMBO_TAG_TEMPLATE:
    case GUMBO_TAG_NOSCRIPT:
    case GUMBO_TAG_SVG:
    case GUMBO_TAG_MATH:
    case GUMBO_TAG_HEAD:
    case GUMBO_TAG_IFRAME:
    case GUMBO_TAG_OBJECT:
    case GUMBO_TAG_EMBED:
    case GUMBO_TAG_CANVAS:
    case GUMBO_TAG_AUDIO:
    case GUMBO_TAG_VIDEO:
    case GUMBO_TAG_SELECT:
    case GUMBO_TAG_TEXTAREA:
    case GUMBO_TAG_BUTTON:
    case GUMBO_TAG_DATALIST:
      return Role::Skip;
    case GUMBO_TAG_ADDRESS:
    case GUMBO_TAG_ARTICLE:
    case GUMBO_TAG_ASIDE:
    case GUMBO_TAG_BLOCKQUOTE:
    case GUMBO_TAG_BODY:
    case GUMBO_TAG_BR:
    case GUMBO_TAG_CAPTION:
    case GUMBO_TAG_CENTER:
    case GUMBO_TAG_DD:
    case GUMBO_TAG_DETAILS:
    case GUMBO_TAG_DIR:
    case GUMBO_TAG_DIV:
    case GUMBO_TAG_DL:
    case GUMBO_TAG_DT:
    case GUMBO_TAG_FIELDSET:
    case GUMBO_TAG_FIGCAPTION:
    case GUMBO_TAG_FIGURE:
    case GUMBO_TAG_FOOTER:
    case GUMBO_TAG_FORM:
    case GUMBO_TAG_H1:
    case GUMBO_TAG_H2:
    case GUMBO_TAG_H3:
    case GUMBO_TAG_H4:
    case GUMBO_TAG_H5:
    case GUMBO_TAG_H6:
    case GUMBO_TAG_HEADER:
    case GUMBO_TAG_HGROUP:
    case GUMBO_TAG_HR:
    case GUMBO_TAG_HTML:
    case GUMBO_TAG_LEGEND:
    case GUMBO_TAG_LI:
    case GUMBO_TAG_LISTING:
    case GUMBO_TAG_MAIN:
    case GUMBO_TAG_MENU:
    case GUMBO_TAG_NAV:
    case GUMBO_TAG_OL:
    case GUMBO_TAG_P:
    case GUMBO_TAG_PLAINTEXT:
    case GUMBO_TAG_PRE:
    case GUMBO_TAG_SECTION:
    case GUMBO_TAG_SUMMARY:
    case GUMBO_TAG_TABLE:
    case GUMBO_TAG_TBODY:
    case GUMBO_TAG_TD:
    case GUMBO_TAG_TFOOT:
    case GUMBO_TAG_TH:
    case GUMBO_TAG_THEAD:
    case GUMBO_TAG_TR:
    case GUMBO_TAG_UL:
    case GUMBO_TAG_XMP:
      return Role::Block;
    default:
      return Role::Inline;
  }
}

std::string_view attribute(const GumboElement& e, const char* name) {
  const GumboAttribute* a = gumbo_get_attribute(&e.attributes, name);
  return a != nullptr && a->value != nullptr ? std::string_view(a->value) : std::string_view();
}

bool has_attribute(const GumboElement& e, const char* name) {
  return gumbo_get_attribute(&e.attributes, name) != nullptr;
}

std::string ascii_lower(std::string_view s) {
  std::string r(s);
  for (char& c : r)
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
  return r;
}

std::string_view trim(std::string_view s) {
  const char* ws = " \t\n\r\f\v";
  const std::size_t b = s.find_first_not_of(ws);
  if (b == std::string_view::npos) return {};
  return s.substr(b, s.find_last_not_of(ws) - b + 1);
}

bool is_alnum(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9'); }

// Whether a class or id value names page furniture: one of its words (split
// at anything but letters and digits) is, starts with or ends with a
// furniture word. Words right after "has"/"with"/"no" ("has-sidebar" on a
// page wrapper) describe the layout, not the element, and do not count.
bool furniture_name(std::string_view value) {
  static constexpr std::array<std::string_view, 6> kStems = {"nav", "menu", "footer", "sidebar", "breadcrumb",
                                                               "cookie"};
  const std::string v = ascii_lower(value);
  std::string_view previous;
  std::size_t i = 0;
  while (i < v.size()) {
    while (i < v.size() && !is_alnum(v[i])) ++i;
    std::size_t j = i;
    while (j < v.size() && is_alnum(v[j])) ++j;
    const std::string_view word(v.data() + i, j - i);
    if (!word.empty() && previous != "has" && previous != "with" && previous != "no") {
      for (std::string_view stem : kStems) {
        if (word.size() >= stem.size() &&
            (word.substr(0, stem.size()) == stem || word.substr(word.size() - stem.size()) == stem))
          return true;
      }
    }
    previous = word;
    i = j;
  }
  return false;
}

bool furniture_role(std::string_view role) {
  const std::string r = ascii_lower(trim(role));
  return r == "navigation" || r == "menu" || r == "menubar" || r == "contentinfo" || r == "complementary" ||
         r == "banner";
}

// -------------------------------------------------------------- dates ----

bool digits(std::string_view s, std::size_t at, std::size_t n) {
  if (at + n > s.size()) return false;
  for (std::size_t k = at; k < at + n; ++k)
    if (s[k] < '0' || s[k] > '9') return false;
  return true;
}

int number(std::string_view s, std::size_t at, std::size_t n) {
  int v = 0;
  for (std::size_t k = at; k < at + n; ++k) v = v * 10 + (s[k] - '0');
  return v;
}

std::optional<Date> checked(int y, int m, int d) {
  Date date{y, m, d};
  if (y < 1000 || y > 2999 || !date.valid()) return std::nullopt;
  return date;
}

// The first date written YYYY-MM-DD or YYYY/MM/DD (not inside a longer
// number), or a value that starts with YYYYMMDD, or an RFC 1123 / RFC 850
// date ("Wed, 16 Oct 2019"; month abbreviations are the HTTP protocol's).
std::optional<Date> find_date(std::string_view s) {
  for (std::size_t i = 0; i + 10 <= s.size(); ++i) {
    if (i > 0 && s[i - 1] >= '0' && s[i - 1] <= '9') continue;
    if (digits(s, i, 4) && (s[i + 4] == '-' || s[i + 4] == '/') && digits(s, i + 5, 2) && s[i + 7] == s[i + 4] &&
        digits(s, i + 8, 2) && !digits(s, i + 10, 1)) {
      if (auto d = checked(number(s, i, 4), number(s, i + 5, 2), number(s, i + 8, 2))) return d;
    }
  }
  const std::string_view t = trim(s);
  if (digits(t, 0, 8) && !digits(t, 8, 1)) {
    if (auto d = checked(number(t, 0, 4), number(t, 4, 2), number(t, 6, 2))) return d;
  }
  static constexpr std::array<std::string_view, 12> kHttpMonths = {"Jan", "Feb", "Mar", "Apr", "May", "Jun",
                                                                    "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"};
  // "16 Oct 2019" or "16-Oct-2019" anywhere in a short value.
  if (t.size() <= 64) {
    for (std::size_t i = 0; i + 10 <= t.size(); ++i) {
      std::size_t dl = digits(t, i, 2) ? 2 : digits(t, i, 1) ? 1 : 0;
      if (dl == 0 || (i > 0 && digits(t, i - 1, 1))) continue;
      std::size_t m = i + dl;
      if (m + 9 > t.size() || (t[m] != ' ' && t[m] != '-')) continue;
      for (int k = 0; k < 12; ++k) {
        if (t.substr(m + 1, 3) == kHttpMonths[k] && (t[m + 4] == ' ' || t[m + 4] == '-') && digits(t, m + 5, 4)) {
          if (auto d = checked(number(t, m + 5, 4), k + 1, number(t, i, dl))) return d;
        }
      }
    }
  }
  return std::nullopt;
}

// <meta> names (name=, property=, itemprop= or http-equiv=, lower-cased)
// that give the publication or creation date of the page.
bool published_meta(std::string_view key) {
  static constexpr std::array<std::string_view, 36> kNames = {
      "article:published_time",   "article:published",     "og:published_time",
      "og:article:published_time", "published_time",       "article.published",
      "date",                     "dc.date",               "dc.date.issued",
      "dc.date.created",          "dcterms.created",       "dcterms.issued",
      "dcterms.date",             "dc.created",            "dc.issued",
      "pubdate",                  "publishdate",           "publish-date",
      "publish_date",             "publication_date",      "publication-date",
      "sailthru.date",            "parsely-pub-date",      "citation_publication_date",
      "citation_date",            "citation_online_date",  "datepublished",
      "originalpublicationdate",  "original-publish-date", "cxenseparse:recs:publishtime",
      "bt:pubdate",               "article_date_original", "created",
      "release_date",             "sw-pubdate",            "dc:date"};
  return std::find(kNames.begin(), kNames.end(), key) != kNames.end();
}

// <meta> names that give the last modification: a fallback only.
bool modified_meta(std::string_view key) {
  return key == "article:modified_time" || key == "og:updated_time" || key == "last-modified" ||
         key == "datemodified" || key == "dcterms.modified" || key == "dc.date.modified";
}

// schema.org properties (microdata itemprop= or RDFa property=) that give
// the publication or creation date.
bool published_item(std::string_view key) {
  return key == "datepublished" || key == "datecreated" || key == "uploaddate" || key == "schema:datepublished" ||
         key == "schema:datecreated";
}

// Dates found in the page, by kind; the first of the best kind wins.
struct DateEvidence {
  std::optional<Date> meta, json_ld, itemprop, time_pubdate, time_any, url, script, modified, link_url;

  // Publication evidence first; a modification date, then a dated link in
  // the main text, only when nothing says when the page was published.
  std::optional<Date> best() const {
    for (const auto* d : {&meta, &json_ld, &itemprop, &time_pubdate, &time_any, &url, &script, &modified, &link_url})
      if (*d) return *d;
    return std::nullopt;
  }
};

void set_first(std::optional<Date>& slot, const std::optional<Date>& d) {
  if (!slot && d) slot = d;
}

// The date of the first "key": "2019-10-16..." in JSON (JSON-LD or a
// page's own script data).
std::optional<Date> json_date(std::string_view script, std::string_view quoted_key) {
  std::size_t at = 0;
  while ((at = script.find(quoted_key, at)) != std::string_view::npos) {
    at += quoted_key.size();
    std::size_t k = at;
    while (k < script.size() && (script[k] == ' ' || script[k] == '\t' || script[k] == '\n' || script[k] == '\r'))
      ++k;
    if (k >= script.size() || script[k] != ':') continue;
    if (auto d = find_date(script.substr(k + 1, std::min<std::size_t>(48, script.size() - k - 1)))) return d;
  }
  return std::nullopt;
}

// A /YYYY/MM/DD/ date in a URL path.
std::optional<Date> url_date(std::string_view url) {
  for (std::size_t i = 0; i + 11 <= url.size(); ++i) {
    if (url[i] == '/' && digits(url, i + 1, 4) && url[i + 5] == '/' && digits(url, i + 6, 2) &&
        i + 11 <= url.size() && url[i + 8] == '/' && digits(url, i + 9, 2) &&
        (i + 11 == url.size() || !digits(url, i + 11, 1))) {
      if (auto d = checked(number(url, i + 1, 4), number(url, i + 6, 2), number(url, i + 9, 2))) return d;
    }
  }
  return std::nullopt;
}

// -------------------------------------------------------------- builder ----

class TextBuilder {
 public:
  explicit TextBuilder(const SanitizedInput& input) : input_(input) {}

  // Ends the current block; `source` is where the cause sits in the input.
  void break_block(std::size_t source) {
    if (in_block_) {
      doc_.blocks.push_back(Block{block_start_, doc_.text.size(), block_boilerplate_});
      in_block_ = false;
    }
    pending_space_ = false;
    break_source_ = source;
  }

  void set_boilerplate(bool b, std::size_t source) {
    if (b != boilerplate_) {
      break_block(source);
      boilerplate_ = b;
    }
  }
  bool boilerplate() const { return boilerplate_; }

  // Appends the decoded text of a text node, aligning it with the source.
  void add_text(const GumboText& t) {
    const std::string_view decoded(t.text != nullptr ? t.text : "");
    const std::string_view original(t.original_text.data != nullptr ? t.original_text.data : "",
                                    t.original_text.data != nullptr ? t.original_text.length : 0);
    const std::size_t base = t.start_pos.offset;
    std::size_t o = 0;  // position in original
    std::size_t j = 0;
    while (j < decoded.size()) {
      // Align: skip CRs the tokenizer removed and NULs the tree builder
      // ignored (html_limits.h writes them over dropped tags); an entity
      // maps to its '&'.
      while (o < original.size() && ((original[o] == '\r' && decoded[j] != '\r') ||
                                     (original[o] == '\0' && decoded[j] != '\0')))
        ++o;
      std::size_t src = base + std::min(o, original.size());
      std::size_t n = 1;
      const unsigned char c = static_cast<unsigned char>(decoded[j]);
      if (c >= 0x80) n = std::max<std::size_t>(1, valid_sequence_length(decoded, j));
      // A character reference ("&amp;", "&#8212;", legacy "&nbsp") maps to
      // its '&'; a '&' that starts none is literal.
      std::size_t reference_end = o;
      if (o < original.size() && original[o] == '&') {
        std::size_t k = o + 1;
        while (k < original.size() && (is_alnum(original[k]) || original[k] == '#')) ++k;
        if (k < original.size() && original[k] == ';' && k > o + 1) {
          reference_end = k + 1;
        } else if (decoded[j] != '&') {
          reference_end = k;
        }
      }
      if (reference_end > o) {
        o = reference_end;
      } else if (o < original.size() && original.compare(o, n, decoded.substr(j, n)) == 0) {
        o += n;
      }
      add_char(decoded.substr(j, n), src);
      j += n;
    }
  }

  void open_link(std::string href) {
    Link l;
    l.href = std::string(trim(href));
    l.boilerplate = boilerplate_;
    open_links_.push_back(doc_.links.size());
    unstarted_.push_back(doc_.links.size());
    doc_.links.push_back(std::move(l));
  }

  void close_link() {
    if (open_links_.empty()) return;
    Link& l = doc_.links[open_links_.back()];
    open_links_.pop_back();
    auto it = std::find(unstarted_.begin(), unstarted_.end(), &l - doc_.links.data());
    if (it != unstarted_.end()) {
      unstarted_.erase(it);
      l.start = doc_.text.size();
    }
    l.end = std::max(l.start, doc_.text.size());
  }

  TextDocument finish(std::size_t input_size) {
    break_block(input_size);
    while (!open_links_.empty()) close_link();
    // One offset per text byte, allocated once: a page's text can be tens
    // of MB and its offsets eight times that.
    doc_.source_offsets.resize(doc_.text.size() + 1);
    std::size_t high = 0;
    for (std::size_t i = 0; i < doc_.text.size(); ++i) {
      high = std::max(high, std::min(input_.input_offset(offsets_(i)), input_size));
      doc_.source_offsets[i] = high;
    }
    doc_.source_offsets.back() = input_size;
    offsets_ = OffsetMap();
    for (Link& l : doc_.links) {
      std::string a = doc_.text.substr(l.start, l.end - l.start);
      std::string collapsed;
      bool space = false;
      for (char c : a) {
        if (c == ' ' || c == '\n') {
          space = !collapsed.empty();
        } else {
          if (space) collapsed.push_back(' ');
          space = false;
          collapsed.push_back(c);
        }
      }
      l.anchor = std::move(collapsed);
    }
    return std::move(doc_);
  }

  TextDocument& doc() { return doc_; }

 private:
  static bool is_space(std::string_view ch) {
    if (ch.size() == 1) {
      const char c = ch[0];
      return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v';
    }
    return ch == "\xC2\xA0";  // no-break space
  }
  static bool is_invisible(std::string_view ch) {
    return ch == "\xC2\xAD" || ch == "\xE2\x80\x8B" || ch == "\xEF\xBB\xBF" || ch == std::string_view("\0", 1);
  }

  void append(std::string_view bytes, std::size_t source) {
    doc_.text.append(bytes);
    // A single byte may continue a run of bytes copied one for one; the
    // bytes of one character or separator all map to one source byte.
    offsets_.add(doc_.text.size() - bytes.size(), source, bytes.size() == 1);
    last_source_ = source;
  }

  void add_char(std::string_view ch, std::size_t source) {
    if (is_invisible(ch)) return;
    if (is_space(ch)) {
      if (in_block_ && !pending_space_) {
        pending_space_ = true;
        space_source_ = source;
      }
      return;
    }
    if (!in_block_) {
      if (!doc_.text.empty()) append("\n\n", std::max(break_source_, last_source_));
      in_block_ = true;
      block_start_ = doc_.text.size();
      block_boilerplate_ = boilerplate_;
    } else if (pending_space_) {
      append(" ", space_source_);
    }
    pending_space_ = false;
    for (std::size_t idx : unstarted_) doc_.links[idx].start = doc_.text.size();
    unstarted_.clear();
    append(ch, source);
  }

  const SanitizedInput& input_;
  TextDocument doc_;
  OffsetMap offsets_;  // text offsets to sanitized offsets
  std::size_t last_source_ = 0;  // of the last text byte
  bool in_block_ = false;
  std::size_t block_start_ = 0;
  bool block_boilerplate_ = false;
  bool boilerplate_ = false;
  bool pending_space_ = false;
  std::size_t space_source_ = 0;
  std::size_t break_source_ = 0;
  std::vector<std::size_t> open_links_;
  std::vector<std::size_t> unstarted_;
};

// Collects title, base and dates from the head (and from anywhere for
// <meta>, which some pages put in the body).
void read_meta(const GumboElement& e, DateEvidence& dates) {
  const std::string_view content = attribute(e, "content");
  for (const char* key_attr : {"name", "property", "itemprop", "http-equiv"}) {
    const std::string key = ascii_lower(trim(attribute(e, key_attr)));
    if (key.empty()) continue;
    if (published_meta(key)) set_first(dates.meta, find_date(content));
    if (modified_meta(key)) set_first(dates.modified, find_date(content));
    if (published_item(key)) set_first(dates.itemprop, find_date(content));
    if (key == "og:url") set_first(dates.url, url_date(content));
  }
}

std::string node_text(const GumboNode* node) {
  std::string out;
  std::vector<const GumboNode*> stack{node};
  while (!stack.empty()) {
    const GumboNode* n = stack.back();
    stack.pop_back();
    if (n->type == GUMBO_NODE_TEXT || n->type == GUMBO_NODE_WHITESPACE || n->type == GUMBO_NODE_CDATA) {
      if (n->v.text.text != nullptr) out += n->v.text.text;
    } else if (n->type == GUMBO_NODE_ELEMENT || n->type == GUMBO_NODE_TEMPLATE) {
      const GumboVector& ch = n->v.element.children;
      for (unsigned k = ch.length; k > 0; --k) stack.push_back(static_cast<const GumboNode*>(ch.data[k - 1]));
    }
  }
  return out;
}

std::string collapse_spaces(std::string_view s) {
  std::string out;
  bool space = false;
  for (char c : s) {
    if (c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f') {
      space = !out.empty();
    } else {
      if (space) out.push_back(' ');
      space = false;
      out.push_back(c);
    }
  }
  return out;
}

// The elements that contain a <main>, an <article> or an <h1>: never page
// furniture, whatever their class says.
std::unordered_set<const GumboNode*> main_content_holders(const GumboNode* root) {
  std::unordered_set<const GumboNode*> holders;
  std::vector<const GumboNode*> stack{root};
  while (!stack.empty()) {
    const GumboNode* n = stack.back();
    stack.pop_back();
    if (n->type != GUMBO_NODE_ELEMENT) continue;
    const GumboTag tag = n->v.element.tag;
    if (tag == GUMBO_TAG_MAIN || tag == GUMBO_TAG_ARTICLE || tag == GUMBO_TAG_H1) {
      for (const GumboNode* p = n->parent; p != nullptr && holders.insert(p).second; p = p->parent) {
      }
    }
    const GumboVector& ch = n->v.element.children;
    for (unsigned k = 0; k < ch.length; ++k) stack.push_back(static_cast<const GumboNode*>(ch.data[k]));
  }
  return holders;
}

// Bytes of visible, non-space text under a node (dropped subtrees excluded).
std::size_t visible_text_size(const GumboNode* root) {
  std::size_t size = 0;
  std::vector<const GumboNode*> stack{root};
  while (!stack.empty()) {
    const GumboNode* n = stack.back();
    stack.pop_back();
    if (n->type == GUMBO_NODE_TEXT || n->type == GUMBO_NODE_CDATA) {
      for (const char* c = n->v.text.text; c != nullptr && *c != '\0'; ++c)
        size += *c != ' ' && *c != '\n' && *c != '\t' && *c != '\r';
    } else if (n->type == GUMBO_NODE_ELEMENT && role_of(n->v.element.tag) != Role::Skip) {
      const GumboVector& ch = n->v.element.children;
      for (unsigned k = 0; k < ch.length; ++k) stack.push_back(static_cast<const GumboNode*>(ch.data[k]));
    }
  }
  return size;
}

// Whether a subtree holds prose: three paragraphs of 150 bytes or more.
// Menus, link lists and cookie notices do not; article bodies do.
bool holds_prose(const GumboNode* root) {
  int long_paragraphs = 0;
  std::vector<const GumboNode*> stack{root};
  while (!stack.empty()) {
    const GumboNode* n = stack.back();
    stack.pop_back();
    if (n->type != GUMBO_NODE_ELEMENT || role_of(n->v.element.tag) == Role::Skip) continue;
    if (n->v.element.tag == GUMBO_TAG_P) {
      if (visible_text_size(n) >= 150 && ++long_paragraphs >= 3) return true;
      continue;
    }
    const GumboVector& ch = n->v.element.children;
    for (unsigned k = 0; k < ch.length; ++k) stack.push_back(static_cast<const GumboNode*>(ch.data[k]));
  }
  return false;
}

// What the walk needs to know about an open element when it is left.
struct Frame {
  const GumboNode* node;
  bool entered;  // children pushed; on the second visit the element closes
  bool was_boilerplate;
  bool link;
  int article_depth_before;
  bool silent;  // inside a dropped subtree: metadata only, no text
};

TextDocument convert(const SanitizedInput& input, std::size_t input_size) {
  GumboOptions options = kGumboDefaultOptions;
  options.max_errors = 0;
  GumboOutput* output = gumbo_parse_with_options(&options, input.view.data(), input.view.size());
  TextBuilder builder(input);
  DateEvidence dates;
  TextDocument& doc = builder.doc();
  int article_depth = 0;
  const std::unordered_set<const GumboNode*> holds_main_content = main_content_holders(output->root);
  long page_text_size = -1;  // computed when first needed

  std::vector<Frame> stack;
  stack.push_back(Frame{output->root, false, false, false, 0, false});
  while (!stack.empty()) {
    Frame& f = stack.back();
    const GumboNode* node = f.node;
    if (node->type == GUMBO_NODE_TEXT || node->type == GUMBO_NODE_WHITESPACE || node->type == GUMBO_NODE_CDATA) {
      if (!f.silent) builder.add_text(node->v.text);
      stack.pop_back();
      continue;
    }
    if (node->type != GUMBO_NODE_ELEMENT && node->type != GUMBO_NODE_TEMPLATE) {
      stack.pop_back();
      continue;
    }
    const GumboElement& e = node->v.element;
    if (f.entered) {
      // Leaving the element.
      if (f.silent || role_of(e.tag) == Role::Skip || e.tag_namespace != GUMBO_NAMESPACE_HTML) {
        stack.pop_back();
        continue;
      }
      if (f.link) builder.close_link();
      if (role_of(e.tag) == Role::Block) builder.break_block(e.end_pos.offset);
      builder.set_boilerplate(f.was_boilerplate, e.end_pos.offset);
      article_depth = f.article_depth_before;
      stack.pop_back();
      continue;
    }
    f.entered = true;
    f.was_boilerplate = builder.boilerplate();
    f.article_depth_before = article_depth;

    // Head-ish elements that carry metadata, wherever they appear.
    switch (e.tag) {
      case GUMBO_TAG_TITLE:
        if (doc.title.empty() && e.tag_namespace == GUMBO_NAMESPACE_HTML) doc.title = collapse_spaces(node_text(node));
        break;
      case GUMBO_TAG_BASE:
        if (doc.base_href.empty() && has_attribute(e, "href")) doc.base_href = std::string(trim(attribute(e, "href")));
        break;
      case GUMBO_TAG_META:
        read_meta(e, dates);
        break;
      case GUMBO_TAG_IMG:
        ++doc.images;
        break;
      case GUMBO_TAG_LINK: {
        const std::string rel = ascii_lower(trim(attribute(e, "rel")));
        if (rel == "canonical") set_first(dates.url, url_date(attribute(e, "href")));
        if (rel == "alternate" && has_attribute(e, "href"))
          doc.alternates.emplace_back(std::string(trim(attribute(e, "href"))), std::string(trim(attribute(e, "type"))));
        break;
      }
      case GUMBO_TAG_SCRIPT:
        {
          const std::string code = node_text(node);
          if (ascii_lower(trim(attribute(e, "type"))) == "application/ld+json") {
            set_first(dates.json_ld, json_date(code, "\"datePublished\""));
          } else {
            set_first(dates.script, json_date(code, "\"datePublished\""));
            set_first(dates.script, json_date(code, "\"publishedDate\""));
          }
          set_first(dates.modified, json_date(code, "\"dateModified\""));
        }
        break;
      case GUMBO_TAG_TIME: {
        std::string_view dt = attribute(e, "datetime");
        if (dt.empty()) dt = attribute(e, "content");
        const std::optional<Date> d = find_date(dt.empty() ? std::string_view(node_text(node)) : dt);
        if (has_attribute(e, "pubdate")) set_first(dates.time_pubdate, d);
        if (!dt.empty()) set_first(dates.time_any, d);
        break;
      }
      default:
        break;
    }
    if (has_attribute(e, "dc:date")) set_first(dates.meta, find_date(attribute(e, "dc:date")));
    if (e.tag != GUMBO_TAG_META && (published_item(ascii_lower(trim(attribute(e, "itemprop")))) ||
                                    published_item(ascii_lower(trim(attribute(e, "property")))))) {
      std::string_view v = attribute(e, "datetime");
      if (v.empty()) v = attribute(e, "content");
      if (v.empty()) v = attribute(e, "title");
      set_first(dates.itemprop, find_date(v.empty() ? std::string_view(node_text(node)) : v));
    }

    const Role role = role_of(e.tag);
    if (f.silent || role == Role::Skip || e.tag_namespace != GUMBO_NAMESPACE_HTML) {
      // Skipped subtrees yield no text but may still hold metadata (<meta>
      // and <title> in the head, JSON-LD in a script).
      if (e.tag != GUMBO_TAG_SCRIPT && e.tag != GUMBO_TAG_STYLE) {
        const GumboVector& ch = e.children;
        for (unsigned k = ch.length; k > 0; --k)
          stack.push_back(Frame{static_cast<const GumboNode*>(ch.data[k - 1]), false, false, false, 0, true});
      }
      continue;  // entered: popped on its second visit
    }

    bool furniture = false;
    switch (e.tag) {
      case GUMBO_TAG_NAV:
      case GUMBO_TAG_ASIDE:
      case GUMBO_TAG_FOOTER:
        furniture = true;
        break;
      case GUMBO_TAG_HEADER:
        furniture = article_depth == 0;
        break;
      case GUMBO_TAG_ARTICLE:
      case GUMBO_TAG_MAIN:
        ++article_depth;
        break;
      default:
        break;
    }
    if (has_attribute(e, "role") && furniture_role(attribute(e, "role"))) furniture = true;
    // Names are weaker evidence than tags and roles: a layout wrapper named
    // after its sidebar or menu ("sidebar-and-content") still holds the
    // page, so a named element that contains the main heading or article, a
    // third of the page's text or several paragraphs of prose is not
    // furniture.
    if (!furniture && !builder.boilerplate() && e.tag != GUMBO_TAG_HTML && e.tag != GUMBO_TAG_BODY &&
        e.tag != GUMBO_TAG_MAIN && e.tag != GUMBO_TAG_ARTICLE &&
        (furniture_name(attribute(e, "class")) || furniture_name(attribute(e, "id"))) &&
        holds_main_content.count(node) == 0) {
      if (page_text_size < 0) page_text_size = static_cast<long>(visible_text_size(output->root));
      furniture = 3 * static_cast<long>(visible_text_size(node)) <= page_text_size && !holds_prose(node);
    }
    if (furniture && holds_main_content.count(node) > 0) furniture = false;

    if (role == Role::Block) builder.break_block(e.start_pos.offset);
    if (furniture) builder.set_boilerplate(true, e.start_pos.offset);
    if (e.tag == GUMBO_TAG_A && has_attribute(e, "href")) {
      if (!f.silent && !builder.boilerplate()) set_first(dates.link_url, url_date(attribute(e, "href")));
      builder.open_link(std::string(attribute(e, "href")));
      f.link = true;
    }
    const GumboVector& ch = e.children;
    for (unsigned k = ch.length; k > 0; --k)
      stack.push_back(Frame{static_cast<const GumboNode*>(ch.data[k - 1]), false, false, false, 0, false});
  }
  TextDocument result = builder.finish(input_size);
  result.dct = dates.best();
  gumbo_destroy_output(&options, output);
  return result;
}

}  // namespace

TextDocument html_document(std::string_view html) {
  SanitizedInput input = sanitize(html);
  BoundedMarkup bounded;
  if (bound_markup(input.view, MarkupLimits{}, &bounded)) {
    input.storage = std::move(bounded.html);
    input.view = input.storage;
  }
  return convert(input, html.size());
}

}  // namespace cronista::temporal
