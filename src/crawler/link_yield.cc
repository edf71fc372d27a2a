// See link_yield.h.
#include "crawler/link_yield.h"

#include <algorithm>

namespace cronista::crawler {

void LinkYield::learn(int priority, bool relevant) {
  const auto i = static_cast<std::size_t>(std::max(0, priority) / band_);
  if (i >= bands_.size()) bands_.resize(i + 1);
  ++bands_[i].fetched;
  if (relevant) ++bands_[i].relevant;
}

void LinkYield::add(int priority, std::int64_t fetched, std::int64_t relevant) {
  const auto i = static_cast<std::size_t>(std::max(0, priority) / band_);
  if (i >= bands_.size()) bands_.resize(i + 1);
  bands_[i].fetched += std::max<std::int64_t>(0, fetched);
  bands_[i].relevant += std::clamp<std::int64_t>(relevant, 0, std::max<std::int64_t>(0, fetched));
}

const LinkYield::Band* LinkYield::find(int priority) const {
  const auto i = static_cast<std::size_t>(std::max(0, priority) / band_);
  return i < bands_.size() ? &bands_[i] : nullptr;
}

double LinkYield::estimate(int priority) const {
  const Band* b = find(priority);
  const double fetched = b ? static_cast<double>(b->fetched) : 0.0;
  const double relevant = b ? static_cast<double>(b->relevant) : 0.0;
  return (relevant + 1.0) / (fetched + 2.0);
}

std::vector<std::pair<std::int64_t, std::int64_t>> LinkYield::counts() const {
  std::vector<std::pair<std::int64_t, std::int64_t>> out;
  out.reserve(bands_.size());
  for (const Band& b : bands_) out.emplace_back(b.fetched, b.relevant);
  return out;
}

std::int64_t LinkYield::fetched(int priority) const {
  const Band* b = find(priority);
  return b ? b->fetched : 0;
}

}  // namespace cronista::crawler
