// URLs: RFC 3986 parsing and reference resolution, and the canonical form
// the crawler keys everything on (method.md §3 plus IDN → punycode, default
// ports and dot segments removed, percent-encoding normalised: unreserved
// characters decoded, hex upper-cased; fragment dropped; optional removal of
// tracking parameters such as utm_*). Only http and https are crawlable.
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

  friend bool operator==(const CanonicalUrl& a, const CanonicalUrl& b) { return a.url_ == b.url_; }
  friend bool operator<(const CanonicalUrl& a, const CanonicalUrl& b) { return a.url_ < b.url_; }

 private:
  std::string url_;
  std::size_t scheme_end_ = 0, host_begin_ = 0, host_end_ = 0, path_begin_ = 0, query_begin_ = 0;
  int port_ = 0;
};

}  // namespace cronista::crawler
