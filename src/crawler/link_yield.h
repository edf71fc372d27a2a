// What the crawl has learned of its own links: for each band of priorities
// (frontier.h: backlinks and link penalty together), how many pages fetched
// through links of that band proved relevant. The scheduler's estimate of
// what the next link of a band is worth (crawl.h, the free-slot rule).
//
// Single-threaded: owned by the crawl loop.
#pragma once

#include <cstdint>
#include <utility>
#include <vector>

namespace cronista::crawler {

class LinkYield {
 public:
  // Priorities [k × band, (k + 1) × band) share what they learn.
  explicit LinkYield(int band = 10) : band_(band > 0 ? band : 1) {}
  // A page fetched through a link of this priority, relevant or not.
  void learn(int priority, bool relevant);
  // Pages learnt before (a resumed crawl's): `fetched` of this priority, `relevant` of them.
  void add(int priority, std::int64_t fetched, std::int64_t relevant);
  // The relevant share of the band's pages so far, with one relevant and one
  // irrelevant page assumed (Laplace): 0.5 for a band never fetched.
  double estimate(int priority) const;
  std::int64_t fetched(int priority) const;
  // The width of a band, and each band's pages fetched and relevant, from
  // priority 0 to the last band that learned anything.
  int band() const { return band_; }
  std::vector<std::pair<std::int64_t, std::int64_t>> counts() const;

 private:
  struct Band {
    std::int64_t fetched = 0, relevant = 0;
  };
  const Band* find(int priority) const;
  int band_;
  std::vector<Band> bands_;
};

}  // namespace cronista::crawler
