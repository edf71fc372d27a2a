#include "revisit/revisit_schedule.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <utility>

namespace cronista::revisit {
namespace {

constexpr double kNever = std::numeric_limits<double>::infinity();
// Deployed crawlers' defaults (revisit_schedule.h, RevisitPolicy).
constexpr double kAdaptiveGrow = 0.4, kAdaptiveShrink = 0.2;
constexpr double kAdaptiveMinS = 60, kAdaptiveMaxS = 365.0 * 86400;
constexpr double kClassRatio[4] = {1, 3, 30, 97};
constexpr int kClassWindow[4] = {3, 2, 2, 1};
// The fitted prior weighs as at least a quarter and at most a thousand
// visits, and is fitted only over kMinFitPages pages with a history.
constexpr double kMinPriorVisits = 0.25, kMaxPriorVisits = 1000;
constexpr std::size_t kMinFitPages = 10;
// A page without a document is asked again after kRecheckS, the wait
// doubling with each answer without one, up to kMaxRecheckS (the optimum);
// the reference policies wait kRecheckS at least.
constexpr double kRecheckS = 60, kMaxRecheckS = 86400;
// A host's factor starts at 1 as if one change had been expected and seen.
constexpr double kHostPseudoChanges = 1;

}  // namespace

void RevisitSchedule::set_host_gap(std::uint32_t host, double gap_s) {
  if (host >= host_caps_.size()) host_caps_.resize(host + 1, kNever);
  host_caps_[host] = gap_s > 0 ? 1.0 / gap_s : kNever;
}

RevisitSchedule::PageId RevisitSchedule::add_page(std::uint32_t host, double weight, double prior_rate, double now,
                                                  double yield) {
  Page p;
  p.yield = std::max(0.0, yield);
  p.host = host;
  p.weight = std::max(0.0, weight);
  p.prior_rate = std::clamp(prior_rate, kMinRate, kMaxRate);
  p.last_visit = now;
  p.due = kNever;
  if (p.weight > 0 || p.yield > 0) p.frequency = provisional_;
  if (options_.policy == RevisitPolicy::kClasses && class_base_s_ > 0)
    p.frequency = p.weight > 0 ? 1.0 / (class_base_s_ * kClassRatio[p.klass]) : 0.0;
  pages_.push_back(std::move(p));
  if (host >= host_caps_.size()) host_caps_.resize(host + 1, kNever);
  const auto id = static_cast<PageId>(pages_.size() - 1);
  if (pages_[id].frequency > 0) schedule(id);
  return id;
}

void RevisitSchedule::record_visit(PageId id, double now, bool changed, std::size_t new_urls) {
  Page& p = pages_[id];
  const double interval = now - p.last_visit;
  if (interval > 0) {
    if (p.kept == kKeptObservations) {
      const float oldest = p.recent[p.oldest];
      const double t = std::abs(static_cast<double>(oldest));
      FoldedVisits& f = p.folded;
      if (oldest < 0) {
        f.changed_mean_interval = (f.changed_mean_interval * f.changed + t) / (f.changed + 1);
        ++f.changed;
      } else {
        f.unchanged_time += t;
      }
      ++f.visits;
      f.interval_sum += t;
      p.recent[p.oldest] = static_cast<float>(changed ? -interval : interval);
      p.oldest = static_cast<std::uint8_t>((p.oldest + 1) % kKeptObservations);
    } else {
      p.recent[p.kept++] = static_cast<float>(changed ? -interval : interval);
    }
  }
  const double a = options_.yield_memory;
  p.yield = (1 - a) * p.yield + a * static_cast<double>(new_urls);
  p.last_visit = now;
  if (interval > 0) adapt(p, changed);
  schedule(id);
}

VisitHistory RevisitSchedule::history(PageId id) const {
  const Page& p = pages_[id];
  VisitHistory h;
  h.folded = p.folded;
  h.yield = p.yield;
  const std::size_t first = p.kept == kKeptObservations ? p.oldest : 0;
  for (std::size_t k = 0; k < p.kept; ++k) {
    const float v = p.recent[(first + k) % kKeptObservations];
    h.recent.push_back(ChangeObservation{std::abs(static_cast<double>(v)), v < 0});
  }
  return h;
}

void RevisitSchedule::set_history(PageId id, const VisitHistory& h) {
  Page& p = pages_[id];
  p.folded = h.folded;
  p.yield = std::max(0.0, h.yield);
  p.kept = 0;
  p.oldest = 0;
  // Only the newest kKeptObservations are kept apart (a longer list folds
  // nothing: the sender keeps no more).
  const std::size_t skip = h.recent.size() > kKeptObservations ? h.recent.size() - kKeptObservations : 0;
  for (std::size_t k = skip; k < h.recent.size(); ++k) {
    const auto& o = h.recent[k];
    p.recent[p.kept++] = static_cast<float>(o.changed ? -o.interval_s : o.interval_s);
  }
}

void RevisitSchedule::add_announced(PageId id, std::size_t new_urls) {
  pages_[id].yield += options_.yield_memory * static_cast<double>(new_urls);
}

int RevisitSchedule::recent_changes(const Page& p, int n) const {
  int changes = 0;
  for (int k = 0; k < n && k < p.kept; ++k) {
    // The newest visit sits just before `oldest` once the ring is full.
    const std::size_t newest = p.kept == kKeptObservations ? (p.oldest + kKeptObservations - 1) % kKeptObservations
                                                           : static_cast<std::size_t>(p.kept - 1);
    const std::size_t i = (newest + kKeptObservations - static_cast<std::size_t>(k)) % kKeptObservations;
    if (p.recent[i] < 0) ++changes;
  }
  return changes;
}

void RevisitSchedule::adapt(Page& p, bool changed) {
  if (options_.policy == RevisitPolicy::kAdaptive && p.interval > 0) {
    const double next = p.interval * (changed ? 1 - kAdaptiveShrink : 1 + kAdaptiveGrow);
    p.interval = static_cast<float>(std::clamp(next, kAdaptiveMinS, kAdaptiveMaxS));
    p.frequency = 1.0 / p.interval;
  } else if (options_.policy == RevisitPolicy::kClasses) {
    if (p.since_move < 255) ++p.since_move;
    const int n = kClassWindow[p.klass];
    if (p.since_move >= n && p.kept >= n) {
      const double share = static_cast<double>(recent_changes(p, n)) / n;
      if (share >= 0.8 && p.klass > 0) {
        --p.klass;
        p.since_move = 0;
      } else if (share <= 0.2 && p.klass < 3) {
        ++p.klass;
        p.since_move = 0;
      }
    }
    if (class_base_s_ > 0) p.frequency = 1.0 / (class_base_s_ * kClassRatio[p.klass]);
  }
}

void RevisitSchedule::resolve_deployed(double budget) {
  if (budget <= 0) return;
  if (options_.policy == RevisitPolicy::kAdaptive) {
    const double uniform_s = static_cast<double>(pages_.size()) / budget;
    for (PageId i = 0; i < pages_.size(); ++i) {
      Page& p = pages_[i];
      if (p.interval <= 0) p.interval = static_cast<float>(std::clamp(uniform_s, kAdaptiveMinS, kAdaptiveMaxS));
      p.frequency = p.weight > 0 ? 1.0 / p.interval : 0.0;
      schedule(i);
    }
    return;
  }
  // kClasses: Σ 1 / (base · ratio[class]) = budget.
  double per_base = 0;
  for (const Page& p : pages_)
    if (p.weight > 0) per_base += 1.0 / kClassRatio[p.klass];
  class_base_s_ = per_base / budget;
  for (PageId i = 0; i < pages_.size(); ++i) {
    Page& p = pages_[i];
    p.frequency = p.weight > 0 && class_base_s_ > 0 ? 1.0 / (class_base_s_ * kClassRatio[p.klass]) : 0.0;
    schedule(i);
  }
}

void RevisitSchedule::rebase(PageId id, double now) {
  pages_[id].last_visit = now;
  schedule(id);
}

void RevisitSchedule::set_prior_rate(PageId id, double rate) {
  pages_[id].prior_rate = std::clamp(rate, kMinRate, kMaxRate);
}

void RevisitSchedule::set_weight(PageId id, double weight) { pages_[id].weight = std::max(0.0, weight); }

void RevisitSchedule::set_document(PageId id, bool present, double now) {
  Page& p = pages_[id];
  if (present && p.lost == 0) return;
  p.lost = present ? 0 : static_cast<std::uint8_t>(std::min(p.lost + 1, 63));
  if (!present) p.yield *= 1 - options_.yield_memory;  // an answer that announced nothing
  p.last_visit = now;
  // Under the optimum its freshness share is gone at once: a page that is
  // no hub waits for the recheck; a hub keeps its frequency until the next
  // resolve separates what discovery gives it.
  if (!present && freshness_weight(p) <= 0 && p.yield <= 0) p.frequency = 0;
  if (present && p.frequency <= 0 && freshness_weight(p) > 0 && options_.policy != RevisitPolicy::kClasses)
    p.frequency = provisional_;
  schedule(id);
}

double RevisitSchedule::freshness_weight(const Page& p) const {
  return p.lost > 0 && options_.policy == RevisitPolicy::kOptimal ? 0.0 : p.weight;
}

double RevisitSchedule::estimated_rate(PageId id) const {
  const Page& p = pages_[id];
  std::array<ChangeObservation, kKeptObservations> visits;
  for (std::size_t i = 0; i < p.kept; ++i)
    visits[i] = ChangeObservation{std::abs(static_cast<double>(p.recent[i])), p.recent[i] < 0};
  const double mean = prior_mean(p);
  double weight = options_.prior_weight;
  if (prior_shape_ > 0) {
    // α/μ seconds of pseudo-observation are α/(μτ) visits of the page's mean interval τ.
    const Exposure e = exposure(p);
    const double tau = e.visits > 0 ? e.seconds / e.visits : 1.0 / mean;
    weight = std::clamp(prior_shape_ / (mean * tau), kMinPriorVisits, kMaxPriorVisits);
  }
  return estimate_change_rate(std::span(visits.data(), p.kept), p.folded, RatePrior{mean, weight});
}

double RevisitSchedule::prior_mean(const Page& p) const {
  const double ratio = p.host < host_ratio_.size() ? host_ratio_[p.host] : 1.0;
  return std::clamp(p.prior_rate * ratio, kMinRate, kMaxRate);
}

RevisitSchedule::Exposure RevisitSchedule::exposure(const Page& p) const {
  Exposure e{static_cast<double>(p.folded.changed), p.folded.interval_sum, static_cast<double>(p.folded.visits)};
  for (std::size_t i = 0; i < p.kept; ++i) {
    e.seconds += std::abs(static_cast<double>(p.recent[i]));
    e.changes += p.recent[i] < 0 ? 1 : 0;
    e.visits += 1;
  }
  return e;
}

void RevisitSchedule::fit_prior() {
  prior_shape_ = 0;
  host_ratio_.assign(host_caps_.size(), 1.0);
  if (!options_.fit_prior) return;
  // The pages that count (a weight and some time observed), each history read once.
  std::vector<std::pair<const Page*, Exposure>> observed;
  for (const Page& p : pages_) {
    if (p.weight <= 0 || p.host >= host_caps_.size()) continue;
    const Exposure e = exposure(p);
    if (e.seconds > 0) observed.emplace_back(&p, e);
  }
  if (observed.size() < kMinFitPages) return;  // too little seen: the given priors, the fixed weight
  // The hosts' factors: changes seen over the changes the given priors expect.
  std::vector<double> seen(host_caps_.size(), 0.0), expected(host_caps_.size(), 0.0);
  for (const auto& [p, e] : observed) {
    seen[p->host] += e.changes;
    expected[p->host] += p->prior_rate * e.seconds;
  }
  for (std::size_t h = 0; h < seen.size(); ++h)
    host_ratio_[h] = (seen[h] + kHostPseudoChanges) / (expected[h] + kHostPseudoChanges);
  // The shape α of the rates around their prior means μ_i (the header comment).
  double explained = 0, spread = 0;
  for (const auto& [p, e] : observed) {
    const double mu = prior_mean(*p);
    const double d = e.changes / e.seconds - mu;
    explained += e.seconds * mu * mu;
    spread += e.seconds * d * d - mu;
  }
  // Pages that vary no more than counting does: all alike, the prior as heavy as allowed.
  prior_shape_ = spread > 0 ? explained / spread : std::numeric_limits<double>::infinity();
}

double RevisitSchedule::revisit_budget() const {
  if (pages_.empty()) return 0;
  const double reserve = std::min(options_.min_new_share * options_.budget, std::max(0.0, new_url_capacity_));
  const double rest = std::min(options_.budget - std::max(0.0, new_url_rate_), options_.budget - reserve);
  return std::max(rest, options_.min_revisit_share * options_.budget);
}

void RevisitSchedule::resolve() {
  const double budget = revisit_budget();
  provisional_ = pages_.empty() ? 0.0 : budget / static_cast<double>(pages_.size());
  if (options_.policy == RevisitPolicy::kAdaptive || options_.policy == RevisitPolicy::kClasses) {
    resolve_deployed(budget);
    return;
  }
  fit_prior();
  // Discovery first (the header comment): hubs by the square root of the
  // rate at which they announce new URLs, as much as the mean wait asks,
  // within hub_share of the budget and the host caps.
  std::vector<RevisitItem> items(pages_.size());
  double announced = 0, root_sum = 0;
  for (PageId i = 0; i < pages_.size(); ++i) {
    const Page& p = pages_[i];
    const double per_second = p.yield * std::max(p.frequency, provisional_);
    items[i] = RevisitItem{std::sqrt(per_second), 1.0, p.host};
    announced += per_second;
    root_sum += std::sqrt(per_second);
  }
  std::vector<double> caps = host_caps_;
  std::vector<double> discovery(pages_.size(), 0.0);
  double discovery_budget = 0;
  if (announced > 0) {
    discovery_budget = options_.hub_share * budget;
    if (options_.discovery_wait_s > 0)
      discovery_budget = std::min(discovery_budget, root_sum * root_sum / (2 * options_.discovery_wait_s * announced));
  }
  if (discovery_budget > 0) {
    discovery = proportional_allocation(items, caps, discovery_budget).frequency;
    for (PageId i = 0; i < pages_.size(); ++i)
      if (std::isfinite(caps[pages_[i].host])) caps[pages_[i].host] = std::max(0.0, caps[pages_[i].host] - discovery[i]);
  }
  // Freshness with the rest: what discovery did not spend (its hubs' hosts
  // capped) goes to freshness, so the budget is spent whole.
  double discovery_spent = 0;
  for (double f : discovery) discovery_spent += f;
  // The optimum counts the discovery visits towards freshness (a hub's
  // visits for its yield keep it fresh too) and adds only what they lack.
  for (PageId i = 0; i < pages_.size(); ++i)
    items[i] = RevisitItem{estimated_rate(i), freshness_weight(pages_[i]), pages_[i].host, discovery[i]};
  const double fresh_budget = std::max(0.0, budget - discovery_spent);
  Allocation fresh;
  switch (options_.policy) {
    case RevisitPolicy::kOptimal: fresh = optimal_allocation(items, caps, fresh_budget); break;
    case RevisitPolicy::kUniform: fresh = uniform_allocation(items, caps, fresh_budget); break;
    case RevisitPolicy::kProportional: fresh = proportional_allocation(items, caps, fresh_budget); break;
    case RevisitPolicy::kAdaptive:
    case RevisitPolicy::kClasses: break;  // resolve_deployed()
  }
  for (PageId i = 0; i < pages_.size(); ++i) {
    pages_[i].frequency = fresh.frequency[i] + discovery[i];
    schedule(i);
  }
}

void RevisitSchedule::schedule(PageId id) {
  Page& p = pages_[id];
  ++p.version;
  p.due = p.frequency > 0 ? p.last_visit + 1.0 / p.frequency : kNever;
  if (p.lost > 0) {
    if (options_.policy == RevisitPolicy::kOptimal) {
      const double wait = std::min(kRecheckS * std::ldexp(1.0, std::min<int>(p.lost - 1, 30)), kMaxRecheckS);
      p.due = std::min(p.due, p.last_visit + wait);
    } else if (std::isfinite(p.due)) {
      p.due = std::max(p.due, p.last_visit + kRecheckS);
    }
  }
  if (std::isfinite(p.due)) heap_.push(Due{p.due, id, p.version});
}

void RevisitSchedule::postpone(PageId id, double until) {
  Page& p = pages_[id];
  ++p.version;
  p.due = until;
  heap_.push(Due{p.due, id, p.version});
}

double RevisitSchedule::next_due_time() {
  while (!heap_.empty() && heap_.top().version != pages_[heap_.top().page].version) heap_.pop();
  return heap_.empty() ? kNever : heap_.top().at;
}

double RevisitSchedule::spare_from(PageId id) const {
  const Page& p = pages_[id];
  if (freshness_weight(p) <= 0 || p.frequency <= 0) return std::numeric_limits<double>::infinity();
  return p.last_visit + 0.5 / p.frequency;
}

std::optional<RevisitSchedule::PageId> RevisitSchedule::earliest_ready(const std::function<bool(PageId)>& ready,
                                                                      double now, std::size_t limit) {
  // Entries are taken off the heap in due order and put back (the page
  // chosen included: it stays scheduled); stale entries are dropped.
  std::vector<Due> looked;
  std::optional<PageId> chosen;
  while (!heap_.empty() && looked.size() < limit) {
    const Due d = heap_.top();
    heap_.pop();
    if (d.version != pages_[d.page].version) continue;
    looked.push_back(d);
    if (!std::isfinite(d.at)) break;  // postponed for good: nothing later is scheduled
    if (now >= spare_from(d.page) && ready(d.page)) {
      chosen = d.page;
      break;
    }
  }
  for (const Due& d : looked) heap_.push(d);
  return chosen;
}

std::optional<RevisitSchedule::PageId> RevisitSchedule::next_due(double now) {
  if (next_due_time() > now) return std::nullopt;
  return heap_.top().page;
}

}  // namespace cronista::revisit
