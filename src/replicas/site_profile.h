// What replica detection knows of one site (an authority, "host:port"):
// the pages fetched from it as (path, main-text signature), its address,
// the hosts it links to, its robots.txt and the whole-host redirects it
// answers with. The crawler and `cronista replicas` fill these from a crawl
// database; tests build them directly.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace cronista::replicas {

struct SitePage {
  std::string path;           // path and query, as crawled ("/artigo/x?id=3")
  std::uint64_t content = 0;  // exact signature of the main text (0: none)
  std::uint64_t simhash = 0;  // its 64-bit simhash
  std::uint32_t words = 0;    // words in the main text
  std::vector<std::uint64_t> sketch;  // its shingles' bottom-k sketch (shingles.h); empty when unknown
};

struct SiteProfile {
  std::string authority;                   // "www.arquivo.pt:18080"
  std::string address;                     // "127.0.0.2", "" when unknown
  std::vector<SitePage> pages;
  std::vector<std::string> outlink_hosts;  // authorities its pages link to (itself included)
  std::string robots;                      // a signature of its robots.txt, "" when unknown
  std::vector<std::string> redirects_to;   // authorities its root or most pages redirect to
  long backlinks = 0;                      // links from other pages to this site
  long first_seen = 0;                     // discovery order (smaller first)
};

}  // namespace cronista::replicas
