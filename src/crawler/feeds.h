// Pages that announce new content in a machine-readable list (freshness.md
// §5): RSS 2.0 and RSS 1.0 (RDF) feeds, Atom feeds, sitemaps and sitemap
// indexes. A crawl that revisits treats them as hubs: found through
// <link rel="alternate" type="application/rss+xml|atom+xml"> in a page,
// robots.txt `Sitemap:` lines (or a host's /sitemap.xml when they name none), fetched again by
// the new URLs they announce, and never part of the collection itself.
// Parsed with pugixml; a document is recognised by its root element, not by
// its Content-Type (servers send feeds as text/xml, application/xml,
// application/rss+xml or text/plain).
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace cronista::crawler {

enum class FeedKind { kRss, kAtom, kSitemap, kSitemapIndex };
std::string_view to_string(FeedKind kind);  // "rss", "atom", "sitemap", "sitemap-index"

struct Feed {
  FeedKind kind = FeedKind::kRss;
  // The URLs announced, as written (Atom's may be relative to the feed), in
  // document order, empty ones left out.
  std::vector<std::string> urls;
};

// The feed or sitemap in `body`, or nullopt when it is none (not XML, or
// another root element).
std::optional<Feed> parse_feed(std::string_view body);

// Whether a <link rel="alternate"> of this type names a feed.
bool is_feed_type(std::string_view type);

}  // namespace cronista::crawler
