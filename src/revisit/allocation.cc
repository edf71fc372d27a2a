#include "revisit/allocation.h"

#include <boost/math/special_functions/lambert_w.hpp>

#include <algorithm>
#include <cmath>
#include <limits>

namespace cronista::revisit {
namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();
// Stands for "as often as the caps allow" where the optimum wants f → ∞.
constexpr double kUnbounded = 1e12;
constexpr int kSteps = 80;

// The frequency at which a page's marginal freshness, weighted, equals
// `level` (see the header comment), less the page's floor; 0 where even
// the first fetch beyond the floor is worth less than that.
double frequency_at(const RevisitItem& it, double level) {
  if (!(it.rate > 0) || !(it.weight > 0)) return 0.0;
  const double ratio = it.weight / it.rate;  // the marginal value at f = 0
  if (ratio <= level) return 0.0;
  const double y = level / ratio;  // in [0, 1)
  const double min_z = -std::exp(-1.0);
  const double z = std::clamp(-(1.0 - y) / std::exp(1.0), min_z, -std::numeric_limits<double>::min());
  if (z <= min_z) return kUnbounded;
  const double r = -1.0 - boost::math::lambert_wm1(z);
  if (!(r > 0)) return kUnbounded;
  return std::max(0.0, std::min(kUnbounded, it.rate / r) - std::max(0.0, it.floor));
}

struct Hosts {
  std::vector<std::vector<std::size_t>> members;  // item indices per host
};

Hosts group(std::span<const RevisitItem> items, std::size_t host_count) {
  Hosts h;
  h.members.resize(host_count);
  for (std::size_t i = 0; i < items.size(); ++i) {
    const std::size_t host = items[i].host;
    if (host >= h.members.size()) h.members.resize(host + 1);
    h.members[host].push_back(i);
  }
  return h;
}

double cap_of(std::span<const double> caps, std::size_t host) {
  return host < caps.size() && caps[host] >= 0 ? caps[host] : kInf;
}

// Largest marginal value at f = 0 among `idx`: above it every page gets 0.
double top_ratio(std::span<const RevisitItem> items, const std::vector<std::size_t>& idx) {
  double top = 0;
  for (std::size_t i : idx)
    if (items[i].rate > 0 && items[i].weight > 0) top = std::max(top, items[i].weight / items[i].rate);
  return top;
}

double sum_at(std::span<const RevisitItem> items, const std::vector<std::size_t>& idx, double level) {
  double s = 0;
  for (std::size_t i : idx) s += frequency_at(items[i], level);
  return s;
}

// The level in (0, top] at which a decreasing `total(level)` equals
// `target`, by bisection on log level.
template <typename F>
double solve_level(F total, double top, double target) {
  double lo = std::log(top) - 80.0, hi = std::log(top);
  for (int step = 0; step < kSteps; ++step) {
    const double mid = 0.5 * (lo + hi);
    if (total(std::exp(mid)) > target) lo = mid;
    else hi = mid;
  }
  return std::exp(hi);  // the side whose total stays within the target
}

// Water-filling for the reference policies: f_i = a_i · min(level, c_h/A_h).
Allocation fill(std::span<const RevisitItem> items, std::span<const double> caps, double budget,
                const std::vector<double>& share) {
  Allocation out;
  out.frequency.assign(items.size(), 0.0);
  const Hosts hosts = group(items, caps.size());
  std::vector<double> host_share(hosts.members.size(), 0.0);
  for (std::size_t h = 0; h < hosts.members.size(); ++h)
    for (std::size_t i : hosts.members[h]) host_share[h] += share[i];
  auto total = [&](double level) {
    double t = 0;
    for (std::size_t h = 0; h < host_share.size(); ++h)
      if (host_share[h] > 0) t += std::min(level * host_share[h], cap_of(caps, h));
    return t;
  };
  double level = 0;
  if (budget > 0) {
    double hi = 1.0;
    for (int i = 0; i < 200 && total(hi) < budget; ++i) hi *= 2;
    if (total(hi) < budget) {
      level = kInf;  // the caps bind everywhere
    } else {
      double lo = 0;
      for (int step = 0; step < 100; ++step) {
        const double mid = 0.5 * (lo + hi);
        (total(mid) < budget ? lo : hi) = mid;
      }
      level = lo;
    }
  }
  for (std::size_t h = 0; h < hosts.members.size(); ++h) {
    if (host_share[h] <= 0) continue;
    const double per_share = std::min(level, cap_of(caps, h) / host_share[h]);
    for (std::size_t i : hosts.members[h]) out.frequency[i] = share[i] * per_share;
  }
  return out;
}

}  // namespace

double fixed_interval_freshness(double rate, double frequency) {
  if (!(rate > 0)) return 1.0;
  if (!(frequency > 0)) return 0.0;
  const double r = rate / frequency;
  if (r < 1e-9) return 1.0 - r / 2;
  return -std::expm1(-r) / r;
}

double fixed_interval_age(double rate, double frequency) {
  if (!(rate > 0)) return 0.0;
  if (!(frequency > 0)) return kInf;
  const double r = rate / frequency;
  if (r < 1e-4) return (r / 6.0) / frequency;  // the series 1/2 - 1/r + (1 - e^{-r})/r² ≈ r/6
  return (0.5 - 1.0 / r + (-std::expm1(-r)) / (r * r)) / frequency;
}

Allocation optimal_allocation(std::span<const RevisitItem> items, std::span<const double> host_caps, double budget) {
  Allocation out;
  out.frequency.assign(items.size(), 0.0);
  if (items.empty() || !(budget > 0)) return out;
  const Hosts hosts = group(items, host_caps.size());

  // M_h: the level from which host h's cap binds (0 for an uncapped host).
  std::vector<double> host_level(hosts.members.size(), 0.0);
  double cap_total = 0, top = 0;
  bool all_capped = true;
  for (std::size_t h = 0; h < hosts.members.size(); ++h) {
    const double t = top_ratio(items, hosts.members[h]);
    if (t <= 0) continue;
    top = std::max(top, t);
    const double cap = cap_of(host_caps, h);
    if (std::isinf(cap)) {
      all_capped = false;
      continue;
    }
    cap_total += cap;
    host_level[h] = solve_level([&](double level) { return sum_at(items, hosts.members[h], level); }, t, cap);
  }
  if (top <= 0) return out;

  auto level_of = [&](std::size_t h, double m) { return std::max(m, host_level[h]); };
  double m = 0;
  if (!(all_capped && cap_total <= budget)) {
    m = solve_level(
        [&](double level) {
          double s = 0;
          for (std::size_t h = 0; h < hosts.members.size(); ++h)
            if (!hosts.members[h].empty()) s += sum_at(items, hosts.members[h], level_of(h, level));
          return s;
        },
        top, budget);
  }
  out.multiplier = m;
  for (std::size_t h = 0; h < hosts.members.size(); ++h)
    for (std::size_t i : hosts.members[h]) out.frequency[i] = frequency_at(items[i], level_of(h, m));
  return out;
}

Allocation uniform_allocation(std::span<const RevisitItem> items, std::span<const double> host_caps, double budget) {
  std::vector<double> share(items.size());
  for (std::size_t i = 0; i < items.size(); ++i) share[i] = items[i].weight > 0 ? 1.0 : 0.0;
  return fill(items, host_caps, budget, share);
}

Allocation proportional_allocation(std::span<const RevisitItem> items, std::span<const double> host_caps,
                                   double budget) {
  std::vector<double> share(items.size());
  for (std::size_t i = 0; i < items.size(); ++i)
    share[i] = items[i].weight > 0 && items[i].rate > 0 ? items[i].rate : 0.0;
  return fill(items, host_caps, budget, share);
}

}  // namespace cronista::revisit
