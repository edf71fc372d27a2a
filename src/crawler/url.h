// URLs: RFC 3986 parsing and reference resolution, and the canonical form
// the crawler keys everything on (method.md §3 plus IDN → punycode, default
// ports and dot segments removed, percent-encoding normalised: unreserved
// characters decoded, hex upper-cased; fragment dropped; optional removal of
// tracking parameters such as utm_*). Only http and https are crawlable.
//
// The canonical string is: scheme "://" host [":" port] path ["?" query],
// where the scheme and host are lower case, the host is ASCII (IDN labels in
// punycode per UTS #46, IPv4 in dotted decimal, IPv6 in RFC 5952 form inside
// brackets), the port is absent when it is the scheme's default, the path
// starts with "/" and has no dot segments, and path and query are
// percent-encoded consistently: unreserved characters decoded, other escapes
// in upper-case hex, and every byte that may not appear literally (space,
// control, non-ASCII as UTF-8 bytes, "<>\"^`{|}") encoded. Userinfo and
// the fragment are dropped; an empty query ("?") is dropped.
//
// Leading and trailing whitespace is trimmed and tabs/newlines inside are
// removed (as browsers do with hrefs); other control characters, invalid
// percent escapes, bad ports and hosts, and URLs over 8 KiB are errors.
// Parsing never reads out of bounds and never throws.
#pragma once

#include <string>
#include <string_view>

#include "temporal/status.h"

namespace cronista::crawler {

struct CanonicalizeOptions {
  bool strip_tracking_params = true;  // utm_*, gclid, fbclid…
  bool drop_default_documents = false;  // /index.html → /
};

class CanonicalUrl {
 public:
  // Longest accepted input (and canonical output), in bytes.
  static constexpr std::size_t kMaxLength = 8192;

  // Parses an absolute URL and canonicalizes it. Errors: not absolute, not
  // http(s), bad host, bad port, overlong (> 8 KiB).
  static Result<CanonicalUrl> parse(std::string_view absolute, const CanonicalizeOptions& options = {});
  // Resolves `reference` (as found in an href) against `base` (RFC 3986 §5)
  // and canonicalizes the result.
  static Result<CanonicalUrl> resolve(const CanonicalUrl& base, std::string_view reference,
                                      const CanonicalizeOptions& options = {});

  const std::string& str() const { return url_; }
  std::string_view scheme() const;  // "http" or "https"
  std::string_view host() const;    // lower-case, punycode; IPv6 in brackets
  int port() const;                 // explicit or default (80/443)
  // "host" or "host:port" when the port is not the default: the politeness
  // key (one queue per authority).
  std::string authority() const;
  std::string_view path_and_query() const;  // "/a/b?x=1"
  std::string_view path() const;
  std::string_view query() const;  // without the "?"; empty when none
  // "scheme://authority/robots.txt" for this URL's authority.
  std::string robots_url() const;

  friend bool operator==(const CanonicalUrl& a, const CanonicalUrl& b) { return a.url_ == b.url_; }
  friend bool operator<(const CanonicalUrl& a, const CanonicalUrl& b) { return a.url_ < b.url_; }

 private:
  // Canonicalizes the components of a parsed or resolved reference
  // (`original` is the input, for error messages).
  static Result<CanonicalUrl> from_components(std::string_view scheme, bool has_authority, std::string_view authority,
                                              std::string_view path, bool has_query, std::string_view query,
                                              std::string_view original, const CanonicalizeOptions& options);

  std::string url_;
  std::size_t scheme_end_ = 0, host_begin_ = 0, host_end_ = 0, path_begin_ = 0, query_begin_ = 0;
  int port_ = 0;
};

// RFC 3986 §5.2 reference resolution on plain strings, with no
// canonicalization: the result keeps the fragment, case and escapes, exactly
// as the RFC's examples (§5.4) spell them. `base` should be absolute.
std::string resolve_reference(std::string_view base, std::string_view reference);

// RFC 3986 §5.2.4 remove_dot_segments.
std::string remove_dot_segments(std::string_view path);

}  // namespace cronista::crawler
