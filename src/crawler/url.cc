// CanonicalUrl: RFC 3986 parsing (Appendix B split, then per-component
// validation), §5.2 reference resolution and §6 syntax-based normalization,
// plus the crawler's own rules (drop userinfo, fragment and empty query,
// optional tracking parameters and default documents).
//
// The approach is a single left-to-right pass per component into one output
// string reserved up front, with a 256-entry character-class table; the only
// slow path is a non-ASCII or "xn--" host, which goes through ICU's UTS #46
// (one immutable UIDNA object shared by all threads; ICU documents it as
// thread-safe). Everything is bounds-checked on string_views: hostile input
// gives a Result error, never undefined behaviour.
#include "crawler/url.h"

#include "crawler/ascii.h"

#include <arpa/inet.h>
#include <unicode/uidna.h>

#include <array>
#include <cstring>

namespace cronista::crawler {
namespace {

// ---- character classes -----------------------------------------------------

enum : std::uint8_t {
  kUnreserved = 1,   // ALPHA DIGIT - . _ ~
  kSubDelim = 2,     // ! $ & ' ( ) * + , ; =
  kPathChar = 4,     // may appear literally in a path: pchar / "/"
  kQueryChar = 8,    // may appear literally in a query: pchar / "/" / "?"
  kSchemeChar = 16,  // ALPHA DIGIT + - .
  kHostChar = 32,    // what we accept in a registered name: ALNUM - _ .
};

constexpr std::array<std::uint8_t, 256> make_classes() {
  std::array<std::uint8_t, 256> t{};
  for (int c = 0; c < 256; ++c) {
    const bool alpha = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
    const bool digit = c >= '0' && c <= '9';
    std::uint8_t f = 0;
    if (alpha || digit || c == '-' || c == '.' || c == '_' || c == '~') f |= kUnreserved;
    if (c == '!' || c == '$' || c == '&' || c == '\'' || c == '(' || c == ')' || c == '*' || c == '+' ||
        c == ',' || c == ';' || c == '=')
      f |= kSubDelim;
    if ((f & (kUnreserved | kSubDelim)) || c == ':' || c == '@' || c == '/') f |= kPathChar;
    if ((f & kPathChar) || c == '?') f |= kQueryChar;
    if (alpha || digit || c == '+' || c == '-' || c == '.') f |= kSchemeChar;
    if (alpha || digit || c == '-' || c == '_' || c == '.') f |= kHostChar;
    t[static_cast<std::size_t>(c)] = f;
  }
  return t;
}
constexpr std::array<std::uint8_t, 256> kClass = make_classes();

inline bool has(char c, std::uint8_t flag) { return kClass[static_cast<unsigned char>(c)] & flag; }

inline int hex_value(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

constexpr char kHexUpper[] = "0123456789ABCDEF";

inline void append_escape(std::string* out, unsigned char c) {
  out->push_back('%');
  out->push_back(kHexUpper[c >> 4]);
  out->push_back(kHexUpper[c & 15]);
}

bool istarts_with(std::string_view s, std::string_view prefix) {
  return s.size() >= prefix.size() && iequals(s.substr(0, prefix.size()), prefix);
}

// A short, printable rendering of a URL for error messages.
std::string quoted(std::string_view url) {
  constexpr std::size_t kMax = 160;
  std::string q = "'";
  for (std::size_t i = 0; i < url.size() && i < kMax; ++i) {
    const unsigned char c = static_cast<unsigned char>(url[i]);
    if (c < 0x20 || c == 0x7f) {
      append_escape(&q, c);
    } else {
      q.push_back(static_cast<char>(c));
    }
  }
  if (url.size() > kMax) q += "...";
  q += "'";
  return q;
}

// ---- generic RFC 3986 split (Appendix B) ----------------------------------

struct UriParts {
  std::string_view scheme;
  std::string_view authority;
  std::string_view path;
  std::string_view query;
  std::string_view fragment;
  bool has_scheme = false, has_authority = false, has_query = false, has_fragment = false;
};

UriParts split_reference(std::string_view s) {
  UriParts p;
  std::size_t i = 0;
  // scheme: ALPHA *( ALPHA / DIGIT / "+" / "-" / "." ) ":" before any / ? #
  if (!s.empty() && ((s[0] >= 'a' && s[0] <= 'z') || (s[0] >= 'A' && s[0] <= 'Z'))) {
    std::size_t j = 1;
    while (j < s.size() && has(s[j], kSchemeChar)) ++j;
    if (j < s.size() && s[j] == ':') {
      p.has_scheme = true;
      p.scheme = s.substr(0, j);
      i = j + 1;
    }
  }
  if (s.size() - i >= 2 && s[i] == '/' && s[i + 1] == '/') {
    const std::size_t begin = i + 2;
    std::size_t end = begin;
    while (end < s.size() && s[end] != '/' && s[end] != '?' && s[end] != '#') ++end;
    p.has_authority = true;
    p.authority = s.substr(begin, end - begin);
    i = end;
  }
  std::size_t end = i;
  while (end < s.size() && s[end] != '?' && s[end] != '#') ++end;
  p.path = s.substr(i, end - i);
  i = end;
  if (i < s.size() && s[i] == '?') {
    end = i + 1;
    while (end < s.size() && s[end] != '#') ++end;
    p.has_query = true;
    p.query = s.substr(i + 1, end - i - 1);
    i = end;
  }
  if (i < s.size() && s[i] == '#') {
    p.has_fragment = true;
    p.fragment = s.substr(i + 1);
  }
  return p;
}

// Removes the last segment (and its "/") from the part of `out` after
// `floor`, RFC 3986 §5.2.4 step C.
void pop_segment(std::string* out, std::size_t floor) {
  const std::size_t slash = out->rfind('/');
  out->resize(slash == std::string::npos || slash < floor ? floor : slash);
}

// Appends remove_dot_segments(in) to `out`.
void remove_dot_segments_into(std::string_view in, std::string* out) {
  const std::size_t floor = out->size();
  std::size_t i = 0;
  const std::size_t n = in.size();
  auto rest = [&](std::string_view what) { return in.substr(i) == what; };
  auto starts = [&](std::string_view what) { return in.substr(i, what.size()) == what; };
  while (i < n) {
    if (starts("../")) {
      i += 3;
    } else if (starts("./")) {
      i += 2;
    } else if (starts("/./")) {
      i += 2;
    } else if (rest("/.")) {
      out->push_back('/');
      break;
    } else if (starts("/../")) {
      i += 3;
      pop_segment(out, floor);
    } else if (rest("/..")) {
      pop_segment(out, floor);
      out->push_back('/');
      break;
    } else if (rest(".") || rest("..")) {
      break;
    } else {
      std::size_t j = in.find('/', i + (in[i] == '/' ? 1 : 0));
      if (j == std::string_view::npos) j = n;
      out->append(in.substr(i, j - i));
      i = j;
    }
  }
}

// §5.2.3 merge, then remove_dot_segments.
void merge_paths_into(const UriParts& base, std::string_view ref_path, std::string* out) {
  std::string merged;
  if (base.has_authority && base.path.empty()) {
    merged.reserve(ref_path.size() + 1);
    merged.push_back('/');
  } else {
    const std::size_t slash = base.path.rfind('/');
    if (slash != std::string_view::npos) merged.assign(base.path.substr(0, slash + 1));
  }
  merged.append(ref_path);
  remove_dot_segments_into(merged, out);
}

// The target of §5.2.2, with owned storage for the path.
struct Target {
  std::string_view scheme, authority, query, fragment;
  std::string path;
  bool has_scheme = false, has_authority = false, has_query = false, has_fragment = false;
};

Target resolve_parts(const UriParts& base, const UriParts& r) {
  Target t;
  if (r.has_scheme) {
    t.scheme = r.scheme;
    t.has_scheme = true;
    t.authority = r.authority;
    t.has_authority = r.has_authority;
    remove_dot_segments_into(r.path, &t.path);
    t.query = r.query;
    t.has_query = r.has_query;
  } else {
    if (r.has_authority) {
      t.authority = r.authority;
      t.has_authority = true;
      remove_dot_segments_into(r.path, &t.path);
      t.query = r.query;
      t.has_query = r.has_query;
    } else {
      if (r.path.empty()) {
        t.path.assign(base.path);
        if (r.has_query) {
          t.query = r.query;
          t.has_query = true;
        } else {
          t.query = base.query;
          t.has_query = base.has_query;
        }
      } else {
        if (r.path[0] == '/') {
          remove_dot_segments_into(r.path, &t.path);
        } else {
          merge_paths_into(base, r.path, &t.path);
        }
        t.query = r.query;
        t.has_query = r.has_query;
      }
      t.authority = base.authority;
      t.has_authority = base.has_authority;
    }
    t.scheme = base.scheme;
    t.has_scheme = base.has_scheme;
  }
  t.fragment = r.fragment;
  t.has_fragment = r.has_fragment;
  return t;
}

// ---- input clean-up -------------------------------------------------------

// Trims C0 controls and spaces at both ends, removes tabs and newlines inside
// (browsers do both with href values). Fails on any other control character.
// Returns a view into `storage` or into `in`.
Result<std::string_view> clean_input(std::string_view in, std::string* storage) {
  std::size_t b = 0, e = in.size();
  while (b < e && static_cast<unsigned char>(in[b]) <= 0x20) ++b;
  while (e > b && static_cast<unsigned char>(in[e - 1]) <= 0x20) --e;
  in = in.substr(b, e - b);
  if (in.size() > CanonicalUrl::kMaxLength)
    return Result<std::string_view>::Error("URL too long (" + std::to_string(in.size()) + " bytes, limit " +
                                           std::to_string(CanonicalUrl::kMaxLength) + "): " + quoted(in));
  bool needs_copy = false;
  for (char ch : in) {
    const unsigned char c = static_cast<unsigned char>(ch);
    if (c < 0x20 || c == 0x7f) {
      if (c == '\t' || c == '\n' || c == '\r') {
        needs_copy = true;
      } else {
        return Result<std::string_view>::Error("control character in URL " + quoted(in));
      }
    }
  }
  if (!needs_copy) return in;
  storage->clear();
  storage->reserve(in.size());
  for (char c : in)
    if (c != '\t' && c != '\n' && c != '\r') storage->push_back(c);
  return std::string_view(*storage);
}

// ---- component normalization ----------------------------------------------

// Appends `in` percent-encoding-normalised: escapes of unreserved characters
// decoded, other escapes upper-cased, characters outside `allowed` encoded.
bool normalize_component(std::string_view in, std::uint8_t allowed, std::string* out) {
  for (std::size_t i = 0; i < in.size(); ++i) {
    const char c = in[i];
    if (c == '%') {
      if (i + 2 >= in.size()) return false;  // fewer than two characters follow
      const int hi = hex_value(in[i + 1]), lo = hex_value(in[i + 2]);
      if (hi < 0 || lo < 0) return false;
      const char decoded = static_cast<char>(hi * 16 + lo);
      if (has(decoded, kUnreserved)) {
        out->push_back(decoded);
      } else {
        append_escape(out, static_cast<unsigned char>(decoded));
      }
      i += 2;
    } else if (has(c, allowed)) {
      out->push_back(c);
    } else {
      append_escape(out, static_cast<unsigned char>(c));
    }
  }
  return true;
}

bool is_tracking_param(std::string_view name) {
  static constexpr std::string_view kNames[] = {
      "gclid",    "gclsrc",     "dclid",      "gbraid", "wbraid",   "fbclid",  "msclkid",  "mc_eid",
      "mc_cid",   "igshid",     "yclid",      "_hsenc", "_hsmi",    "mkt_tok", "twclid",   "ttclid",
      "li_fat_id", "oly_anon_id", "oly_enc_id", "vero_id", "vero_conv", "wickedid", "_openstat", "srsltid"};
  if (istarts_with(name, "utm_")) return true;
  for (std::string_view n : kNames)
    if (iequals(name, n)) return true;
  return false;
}

// Removes tracking parameters from the query that starts at `query_begin`
// (the position after "?") in `url`.
void strip_tracking(std::string* url, std::size_t query_begin) {
  const std::string_view q = std::string_view(*url).substr(query_begin);
  // Fast check: nothing to do unless some parameter name is a tracking one.
  bool any = false;
  for (std::size_t b = 0; b <= q.size();) {
    std::size_t e = q.find('&', b);
    if (e == std::string_view::npos) e = q.size();
    const std::string_view param = q.substr(b, e - b);
    if (is_tracking_param(param.substr(0, param.find('=')))) {
      any = true;
      break;
    }
    b = e + 1;
  }
  if (!any) return;
  std::string kept;
  kept.reserve(q.size());
  for (std::size_t b = 0; b <= q.size();) {
    std::size_t e = q.find('&', b);
    if (e == std::string_view::npos) e = q.size();
    const std::string_view param = q.substr(b, e - b);
    if (!param.empty() && !is_tracking_param(param.substr(0, param.find('=')))) {
      if (!kept.empty()) kept.push_back('&');
      kept.append(param);
    }
    b = e + 1;
  }
  url->resize(query_begin);
  url->append(kept);
}

bool is_default_document(std::string_view segment) {
  static constexpr std::string_view kDocs[] = {"index.html",  "index.htm",   "index.php",  "index.shtml",
                                               "index.asp",   "index.aspx",  "index.jsp",  "index.cgi",
                                               "default.asp", "default.aspx", "default.htm", "default.html"};
  for (std::string_view d : kDocs)
    if (iequals(segment, d)) return true;
  return false;
}

const UIDNA* uts46() {
  static const UIDNA* idna = [] {
    UErrorCode err = U_ZERO_ERROR;
    UIDNA* p = uidna_openUTS46(UIDNA_NONTRANSITIONAL_TO_ASCII | UIDNA_CHECK_BIDI | UIDNA_CHECK_CONTEXTJ, &err);
    return U_FAILURE(err) ? nullptr : p;
  }();
  return idna;
}

// Hyphen placement errors are ignored, as browsers do (WHATWG CheckHyphens=false):
// real host names such as "r3---sn-abc.example.com" have them.
constexpr std::uint32_t kIgnoredIdnaErrors =
    UIDNA_ERROR_HYPHEN_3_4 | UIDNA_ERROR_LEADING_HYPHEN | UIDNA_ERROR_TRAILING_HYPHEN |
    UIDNA_ERROR_LABEL_TOO_LONG | UIDNA_ERROR_DOMAIN_NAME_TOO_LONG;

bool parse_ipv4(std::string_view host, std::string* out) {
  std::string result;
  int parts = 0;
  std::size_t i = 0;
  while (true) {
    std::size_t j = i;
    while (j < host.size() && host[j] >= '0' && host[j] <= '9') ++j;
    const std::size_t len = j - i;
    if (len == 0 || len > 3) return false;
    if (len > 1 && host[i] == '0') return false;  // leading zero: octal to browsers, ambiguous
    int v = 0;
    for (std::size_t k = i; k < j; ++k) v = v * 10 + (host[k] - '0');
    if (v > 255) return false;
    if (parts) result.push_back('.');
    result += std::to_string(v);
    ++parts;
    if (j == host.size()) break;
    if (host[j] != '.' || parts == 4) return false;
    i = j + 1;
  }
  if (parts != 4) return false;
  *out = std::move(result);
  return true;
}

// Canonical host into `out`; an error message on failure.
Status canonical_host(std::string_view raw, std::string_view url, std::string* out) {
  if (raw.empty()) return Status::Error("empty host in URL " + quoted(url));
  if (raw[0] == '[') {
    if (raw.size() < 3 || raw.back() != ']') return Status::Error("invalid IPv6 literal in URL " + quoted(url));
    const std::string inner(raw.substr(1, raw.size() - 2));
    if (inner[0] == 'v' || inner[0] == 'V')
      return Status::Error("unsupported IPvFuture host in URL " + quoted(url));
    if (inner.find('%') != std::string::npos)
      return Status::Error("IPv6 zone identifiers are not supported in URL " + quoted(url));
    in6_addr addr;
    if (inet_pton(AF_INET6, inner.c_str(), &addr) != 1)
      return Status::Error("invalid IPv6 address in URL " + quoted(url));
    char buf[INET6_ADDRSTRLEN];
    if (inet_ntop(AF_INET6, &addr, buf, sizeof buf) == nullptr)
      return Status::Error("invalid IPv6 address in URL " + quoted(url));
    out->push_back('[');
    out->append(buf);
    out->push_back(']');
    return Status::Ok();
  }

  // Registered name or IPv4: decode escapes, then ASCII fast path or UTS #46.
  std::string decoded;
  std::string_view host = raw;
  bool non_ascii = false, needs_idna = false;
  if (raw.find('%') != std::string_view::npos) {
    decoded.reserve(raw.size());
    for (std::size_t i = 0; i < raw.size(); ++i) {
      if (raw[i] == '%') {
        if (i + 2 >= raw.size()) return Status::Error("invalid percent escape in host of URL " + quoted(url));
        const int hi = hex_value(raw[i + 1]), lo = hex_value(raw[i + 2]);
        if (hi < 0 || lo < 0) return Status::Error("invalid percent escape in host of URL " + quoted(url));
        decoded.push_back(static_cast<char>(hi * 16 + lo));
        i += 2;
      } else {
        decoded.push_back(raw[i]);
      }
    }
    host = decoded;
  }
  if (!host.empty() && host.back() == '.') host.remove_suffix(1);  // "example.com." is example.com
  if (host.empty()) return Status::Error("empty host in URL " + quoted(url));
  for (char c : host) {
    const unsigned char u = static_cast<unsigned char>(c);
    if (u >= 0x80) {
      non_ascii = true;
    } else if (!has(c, kHostChar)) {
      return Status::Error("invalid character in host of URL " + quoted(url));
    }
  }
  if (!non_ascii) {
    for (std::size_t i = 0; i + 4 <= host.size(); ++i) {
      if ((i == 0 || host[i - 1] == '.') && istarts_with(host.substr(i), "xn--")) {
        needs_idna = true;
        break;
      }
    }
  }
  const std::size_t start = out->size();
  if (non_ascii || needs_idna) {
    const UIDNA* idna = uts46();
    if (idna == nullptr) return Status::Error("IDN support unavailable (ICU UTS #46) for URL " + quoted(url));
    char buf[512];
    UIDNAInfo info = UIDNA_INFO_INITIALIZER;
    UErrorCode err = U_ZERO_ERROR;
    const int32_t n = uidna_nameToASCII_UTF8(idna, host.data(), static_cast<int32_t>(host.size()), buf,
                                             sizeof buf, &info, &err);
    if (U_FAILURE(err) || (info.errors & ~kIgnoredIdnaErrors) != 0 || n <= 0)
      return Status::Error("invalid internationalized host in URL " + quoted(url));
    std::string_view ascii(buf, static_cast<std::size_t>(n));
    if (!ascii.empty() && ascii.back() == '.') ascii.remove_suffix(1);
    for (char c : ascii)
      if (!has(c, kHostChar)) return Status::Error("invalid character in host of URL " + quoted(url));
    out->append(ascii);
  } else {
    for (char c : host) out->push_back(ascii_lower(c));
  }
  // Label and name length limits (RFC 1035), no empty labels.
  const std::string_view result = std::string_view(*out).substr(start);
  if (result.empty() || result.size() > 253) return Status::Error("invalid host length in URL " + quoted(url));
  std::size_t label_begin = 0;
  for (std::size_t i = 0; i <= result.size(); ++i) {
    if (i == result.size() || result[i] == '.') {
      const std::size_t len = i - label_begin;
      if (len == 0 || len > 63) return Status::Error("invalid host label in URL " + quoted(url));
      label_begin = i + 1;
    }
  }
  // A name whose last label is numeric must be an IPv4 address.
  const std::size_t last_dot = result.rfind('.');
  const std::string_view last = result.substr(last_dot == std::string_view::npos ? 0 : last_dot + 1);
  bool numeric = !last.empty();
  for (char c : last) numeric = numeric && c >= '0' && c <= '9';
  if (numeric) {
    std::string ipv4;
    if (!parse_ipv4(result, &ipv4)) return Status::Error("invalid IPv4 address in URL " + quoted(url));
    out->resize(start);
    out->append(ipv4);
  }
  return Status::Ok();
}

// Builds the canonical URL from resolved parts.
struct Built {
  std::string url;
  std::size_t scheme_end = 0, host_begin = 0, host_end = 0, path_begin = 0, query_begin = 0;
  int port = 0;
};

Status build_canonical(std::string_view scheme, bool has_authority, std::string_view authority, std::string_view path,
                       bool has_query, std::string_view query, std::string_view original,
                       const CanonicalizeOptions& options, Built* b) {
  std::string& url = b->url;
  url.reserve(scheme.size() + authority.size() + path.size() + query.size() + 16);
  int default_port;
  if (iequals(scheme, "http")) {
    url = "http";
    default_port = 80;
  } else if (iequals(scheme, "https")) {
    url = "https";
    default_port = 443;
  } else {
    return Status::Error("unsupported URL scheme '" + std::string(scheme.substr(0, 32)) + "' in " + quoted(original));
  }
  b->scheme_end = url.size();
  url += "://";
  if (!has_authority) return Status::Error("missing host in URL " + quoted(original));

  // Authority: drop userinfo, split host and port.
  const std::size_t at = authority.rfind('@');
  std::string_view hostport = at == std::string_view::npos ? authority : authority.substr(at + 1);
  std::string_view host = hostport, port_text;
  bool has_port = false;
  if (!hostport.empty() && hostport[0] == '[') {
    const std::size_t close = hostport.find(']');
    if (close == std::string_view::npos) return Status::Error("invalid IPv6 literal in URL " + quoted(original));
    host = hostport.substr(0, close + 1);
    const std::string_view after = hostport.substr(close + 1);
    if (!after.empty()) {
      if (after[0] != ':') return Status::Error("invalid authority in URL " + quoted(original));
      has_port = true;
      port_text = after.substr(1);
    }
  } else {
    const std::size_t colon = hostport.rfind(':');
    if (colon != std::string_view::npos) {
      host = hostport.substr(0, colon);
      port_text = hostport.substr(colon + 1);
      has_port = true;
    }
  }
  int port = default_port;
  if (has_port && !port_text.empty()) {
    long v = 0;
    for (char c : port_text) {
      if (c < '0' || c > '9') return Status::Error("invalid port in URL " + quoted(original));
      v = v * 10 + (c - '0');
      if (v > 65535) return Status::Error("port out of range in URL " + quoted(original));
    }
    if (v == 0) return Status::Error("port out of range in URL " + quoted(original));
    port = static_cast<int>(v);
  }
  b->host_begin = url.size();
  if (Status s = canonical_host(host, original, &url); !s.ok()) return s;
  b->host_end = url.size();
  if (port != default_port) {
    url.push_back(':');
    url += std::to_string(port);
  }
  b->port = port;

  // Path: normalise escapes first (so %2E becomes "." and %7E "~"), then
  // remove dot segments (RFC 3986 §6.2.2).
  b->path_begin = url.size();
  if (path.empty()) {
    url.push_back('/');
  } else {
    std::string normalized;
    normalized.reserve(path.size() + 8);
    if (!normalize_component(path, kPathChar, &normalized))
      return Status::Error("invalid percent escape in path of URL " + quoted(original));
    if (normalized.find('.') != std::string::npos) {
      remove_dot_segments_into(normalized, &url);
    } else {
      url += normalized;
    }
    if (url.size() == b->path_begin || url[b->path_begin] != '/') url.insert(b->path_begin, 1, '/');
  }
  if (options.drop_default_documents) {
    const std::size_t slash = url.rfind('/');
    if (slash >= b->path_begin && is_default_document(std::string_view(url).substr(slash + 1)))
      url.resize(slash + 1);
  }
  b->query_begin = url.size();
  if (has_query && !query.empty()) {
    url.push_back('?');
    if (!normalize_component(query, kQueryChar, &url))
      return Status::Error("invalid percent escape in query of URL " + quoted(original));
    if (options.strip_tracking_params) strip_tracking(&url, b->query_begin + 1);
    if (url.size() == b->query_begin + 1) url.resize(b->query_begin);
  }
  if (url.size() > CanonicalUrl::kMaxLength)
    return Status::Error("URL too long after canonicalization: " + quoted(original));
  return Status::Ok();
}

void append_parts(std::string* out, const Target& t) {
  if (t.has_scheme) {
    out->append(t.scheme);
    out->push_back(':');
  }
  if (t.has_authority) {
    out->append("//");
    out->append(t.authority);
  }
  out->append(t.path);
  if (t.has_query) {
    out->push_back('?');
    out->append(t.query);
  }
  if (t.has_fragment) {
    out->push_back('#');
    out->append(t.fragment);
  }
}

}  // namespace

Result<CanonicalUrl> CanonicalUrl::from_components(std::string_view scheme, bool has_authority,
                                                   std::string_view authority, std::string_view path, bool has_query,
                                                   std::string_view query, std::string_view original,
                                                   const CanonicalizeOptions& options) {
  Built b;
  if (Status s = build_canonical(scheme, has_authority, authority, path, has_query, query, original, options, &b);
      !s.ok())
    return s;
  CanonicalUrl u;
  u.url_ = std::move(b.url);
  u.scheme_end_ = b.scheme_end;
  u.host_begin_ = b.host_begin;
  u.host_end_ = b.host_end;
  u.path_begin_ = b.path_begin;
  u.query_begin_ = b.query_begin;
  u.port_ = b.port;
  return u;
}

Result<CanonicalUrl> CanonicalUrl::parse(std::string_view absolute, const CanonicalizeOptions& options) {
  std::string storage;
  Result<std::string_view> cleaned = clean_input(absolute, &storage);
  if (!cleaned.ok()) return cleaned.status();
  const std::string_view in = *cleaned;
  if (in.empty()) return Result<CanonicalUrl>::Error("empty URL");
  const UriParts p = split_reference(in);
  if (!p.has_scheme) return Result<CanonicalUrl>::Error("not an absolute URL: " + quoted(in));
  return from_components(p.scheme, p.has_authority, p.authority, p.path, p.has_query, p.query, in, options);
}

Result<CanonicalUrl> CanonicalUrl::resolve(const CanonicalUrl& base, std::string_view reference,
                                           const CanonicalizeOptions& options) {
  std::string storage;
  Result<std::string_view> cleaned = clean_input(reference, &storage);
  if (!cleaned.ok()) return cleaned.status();
  const std::string_view in = *cleaned;
  const UriParts r = split_reference(in);
  const UriParts bp = split_reference(base.url_);
  // Resolution without dot removal (canonicalization does it once, after
  // decoding escapes): only the merge differs from §5.2.2.
  std::string merged;
  std::string_view scheme = bp.scheme, authority = bp.authority, path, query;
  bool has_authority = bp.has_authority, has_query;
  if (r.has_scheme) {
    scheme = r.scheme;
    authority = r.authority;
    has_authority = r.has_authority;
    path = r.path;
    query = r.query;
    has_query = r.has_query;
  } else if (r.has_authority) {
    authority = r.authority;
    has_authority = true;
    path = r.path;
    query = r.query;
    has_query = r.has_query;
  } else if (r.path.empty()) {
    path = bp.path;
    has_query = r.has_query || bp.has_query;
    query = r.has_query ? r.query : bp.query;
  } else {
    if (r.path[0] == '/') {
      path = r.path;
    } else {
      const std::size_t slash = bp.path.rfind('/');
      merged.reserve(slash + 1 + r.path.size());
      if (slash == std::string_view::npos) {
        merged.push_back('/');
      } else {
        merged.assign(bp.path.substr(0, slash + 1));
      }
      merged.append(r.path);
      path = merged;
    }
    query = r.query;
    has_query = r.has_query;
  }
  // A path that is still relative (e.g. "http:g") has no authority and fails below.
  return from_components(scheme, has_authority, authority, path, has_query, query, in, options);
}

std::string_view CanonicalUrl::scheme() const { return std::string_view(url_).substr(0, scheme_end_); }

std::string_view CanonicalUrl::host() const {
  return std::string_view(url_).substr(host_begin_, host_end_ - host_begin_);
}

int CanonicalUrl::port() const { return port_; }

std::string CanonicalUrl::authority() const { return url_.substr(host_begin_, path_begin_ - host_begin_); }

std::string_view CanonicalUrl::path_and_query() const { return std::string_view(url_).substr(path_begin_); }

std::string_view CanonicalUrl::path() const {
  return std::string_view(url_).substr(path_begin_, query_begin_ - path_begin_);
}

std::string_view CanonicalUrl::query() const {
  return query_begin_ < url_.size() ? std::string_view(url_).substr(query_begin_ + 1) : std::string_view();
}

std::string CanonicalUrl::robots_url() const { return url_.substr(0, path_begin_) + "/robots.txt"; }

std::string resolve_reference(std::string_view base, std::string_view reference) {
  const UriParts bp = split_reference(base);
  const UriParts r = split_reference(reference);
  const Target t = resolve_parts(bp, r);
  std::string out;
  out.reserve(base.size() + reference.size());
  append_parts(&out, t);
  return out;
}

std::string remove_dot_segments(std::string_view path) {
  std::string out;
  out.reserve(path.size());
  remove_dot_segments_into(path, &out);
  return out;
}

}  // namespace cronista::crawler
