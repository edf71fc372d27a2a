// Candidate pairs of sites and the evidence that they are replicas.
//
// Candidates come from one pass over every site's pages through inverted
// indexes, never from all pairs: two sites are a candidate when they share a
// path (paths held by more than kMaxPathSites sites are boilerplate and
// skipped), a page with the same main-text signature, a near-equal simhash
// (four 16-bit bands: two simhashes within 3 bits agree on at least one
// band), an address, a name that differs only by "www." or the public
// suffix, or a whole-host redirect between them.
//
// The features of a pair are those of the replica study (Carvalho 2014) —
// host-name edit distance, weighted token cosine, the two address-group
// features, the weighted path cosine — with NormPaths' rsim, and what the
// study lacked: the share of shared paths whose main texts are near-equal,
// the share of the smaller site's texts found anywhere in the other, the
// overlap of the hosts they link to, equal robots.txt, redirects, and a
// path prefix under which one site copies the other ("/espelho/").
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "replicas/host_name.h"
#include "replicas/site_profile.h"

namespace cronista::replicas {

inline constexpr std::size_t kMaxPathSites = 100;
inline constexpr int kNearBits = 3;
// Two pages at the same path (after a prefix mapping) are versions of one
// document when their shingle resemblance (shingles.h) is at least this: a
// text that lost or gained a sentence in ten keeps about 0.85, an unrelated
// text on the same subject shares a clause. Without the same path only
// near-equal texts (kNearBits) count.
inline constexpr double kVersionResemblance = 0.5;
inline constexpr std::uint32_t kMinWordsForContent = 20;  // shorter texts prove nothing

struct PairFeatures {
  // The study's five.
  double name_distance = 1;  // edit distance of the www-less names / the longer one
  double name_tokens = 0;    // weighted cosine of the host-name tokens
  double same_address = 0;   // 1/(|G|-1) when both are in address group G, else 0
  double same_subnet = 0;    // the same for the first three octets
  double path_cosine = 0;    // weighted cosine of the path sets (after a prefix mapping)
  // NormPaths' rsim over (path, text) tuples, divided by the smaller site's page count.
  double rsim = 0;
  // Ours.
  double shared_path_text = 0;  // of the shared paths, the share whose texts are near-equal or versions of one
  double text_coverage = 0;     // of the smaller site's texts, the share found in the other (or a version at its path)
  double outlink_overlap = 0;   // Jaccard of the hosts linked (each site's own host as one token)
  double same_robots = 0;       // 1 when both robots.txt are known and equal
  double redirect = 0;          // 1 when one redirects to the other
  double name_alias = 0;        // 1 when the names differ by "www." only
  double name_other_suffix = 0; // 1 when they differ by the public suffix only
  double prefix_mapped = 0;     // 1 when one is a copy under a path prefix of the other

  static constexpr int kCount = 14;
  std::vector<double> values() const;
  static const char* name(int i);
};

struct PairEvidence {
  std::size_t a = 0, b = 0;  // site indices, a < b
  PairFeatures features;
  std::size_t shared_paths = 0;
  std::size_t near_equal_shared = 0;  // shared paths whose texts are near-equal or versions of one
  std::size_t versions_shared = 0;    // of those, versions only (not near-equal)
  std::size_t text_twins = 0;  // pages of the smaller site with a text twin in the other
  std::string prefix;          // "/espelho" when b (or a, see prefix_on_a) copies the other under it
  bool prefix_on_a = false;
};

// Near-equal main texts: the same signature, or simhashes within kNearBits
// for texts of 50 words or more.
bool near_equal(const SitePage& x, const SitePage& y);
// Two pages at one path are the same document: near-equal texts, or
// versions of one (kVersionResemblance).
bool same_document(const SitePage& x, const SitePage& y);

// The indexes over every site, built once; then candidates and evidence.
class ReplicaIndex {
 public:
  explicit ReplicaIndex(const std::vector<SiteProfile>& sites);

  // Candidate pairs (a < b), each once, in a stable order.
  std::vector<std::pair<std::size_t, std::size_t>> candidates() const;

  PairEvidence evidence(std::size_t a, std::size_t b) const;

  // NormPaths (da Costa Carvalho et al. 2007): Σ over the (path, text)
  // tuples both sites hold of 1/|sites holding the tuple|.
  double normpaths_rsim(std::size_t a, std::size_t b) const;

  const std::vector<SiteProfile>& sites() const { return sites_; }
  const HostName& name(std::size_t i) const { return names_[i]; }

 private:
  struct PageRef {
    std::uint32_t site;
    std::uint32_t page;
  };
  bool near_equal(const SitePage& x, const SitePage& y) const;
  // near_equal, or versions of one document (kVersionResemblance) — for pages at the same path.
  bool same_document(const SitePage& x, const SitePage& y) const;
  // A path prefix under which one site's pages repeat the other's.
  void find_prefix(std::size_t a, std::size_t b, PairEvidence* ev) const;

  const std::vector<SiteProfile>& sites_;
  std::vector<HostName> names_;
  std::vector<std::unordered_map<std::string, std::uint32_t>> path_index_;  // per site: path → page
  std::unordered_map<std::string, std::vector<std::uint32_t>> path_sites_;
  std::unordered_map<std::uint64_t, std::vector<PageRef>> text_pages_;
  std::map<std::pair<int, std::uint16_t>, std::vector<PageRef>> bands_;
  std::map<std::string, std::vector<std::uint32_t>> address_sites_, subnet_sites_;
  std::map<std::string, std::uint32_t> token_df_;
  std::map<std::string, std::vector<std::uint32_t>> label_sites_;
  std::unordered_map<std::string, std::size_t> tuple_sites_;  // "path\ttext" → sites holding it
  std::size_t max_path_df_ = 1;
};

}  // namespace cronista::replicas
