// Feeds and sitemaps; see feeds.h.
#include "crawler/feeds.h"

#include <pugixml.hpp>

#include "crawler/ascii.h"

namespace cronista::crawler {
namespace {

// An element's name without its namespace prefix ("atom:link" → "link").
std::string_view local_name(const pugi::xml_node& n) {
  std::string_view name = n.name();
  const auto colon = name.find(':');
  return colon == std::string_view::npos ? name : name.substr(colon + 1);
}

std::string trimmed(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t' || s.front() == '\r' || s.front() == '\n'))
    s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r' || s.back() == '\n')) s.remove_suffix(1);
  return std::string(s);
}

// The text of the first child element named `name` of each child element
// named `item` of `parent`.
void child_texts(const pugi::xml_node& parent, std::string_view item, std::string_view name,
                 std::vector<std::string>* out) {
  for (const pugi::xml_node& i : parent.children()) {
    if (local_name(i) != item) continue;
    for (const pugi::xml_node& c : i.children()) {
      if (local_name(c) != name) continue;
      std::string url = trimmed(c.text().get());
      if (!url.empty()) out->push_back(std::move(url));
      break;
    }
  }
}

}  // namespace

std::string_view to_string(FeedKind kind) {
  switch (kind) {
    case FeedKind::kRss: return "rss";
    case FeedKind::kAtom: return "atom";
    case FeedKind::kSitemap: return "sitemap";
    case FeedKind::kSitemapIndex: return "sitemap-index";
  }
  return "rss";
}

bool is_feed_type(std::string_view type) {
  const std::string t = ascii_lowered(trimmed(type));
  return t == "application/rss+xml" || t == "application/atom+xml" || t == "application/rdf+xml";
}

std::optional<Feed> parse_feed(std::string_view body) {
  pugi::xml_document doc;
  if (!doc.load_buffer(body.data(), body.size(), pugi::parse_default)) return std::nullopt;
  const pugi::xml_node root = doc.document_element();
  const std::string_view name = local_name(root);
  Feed f;
  if (name == "rss") {
    f.kind = FeedKind::kRss;
    for (const pugi::xml_node& channel : root.children())
      if (local_name(channel) == "channel") child_texts(channel, "item", "link", &f.urls);
  } else if (name == "RDF") {
    f.kind = FeedKind::kRss;  // RSS 1.0: items are children of the root
    child_texts(root, "item", "link", &f.urls);
  } else if (name == "feed") {
    f.kind = FeedKind::kAtom;
    for (const pugi::xml_node& entry : root.children()) {
      if (local_name(entry) != "entry") continue;
      for (const pugi::xml_node& link : entry.children()) {
        if (local_name(link) != "link") continue;
        const std::string rel = ascii_lowered(trimmed(link.attribute("rel").value()));
        if (!rel.empty() && rel != "alternate") continue;
        std::string url = trimmed(link.attribute("href").value());
        if (!url.empty()) f.urls.push_back(std::move(url));
        break;
      }
    }
  } else if (name == "urlset") {
    f.kind = FeedKind::kSitemap;
    child_texts(root, "url", "loc", &f.urls);
  } else if (name == "sitemapindex") {
    f.kind = FeedKind::kSitemapIndex;
    child_texts(root, "sitemap", "loc", &f.urls);
  } else {
    return std::nullopt;
  }
  return f;
}

}  // namespace cronista::crawler
