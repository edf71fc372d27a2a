// Replaying reference revisit policies on the living web (revisit_simulation.h).
//
// Deployed crawlers' defaults (freshness.md §2): Nutch's AdaptiveFetchSchedule
// multiplies a page's interval by 1 + 0.4 when it has not changed and by
// 1 − 0.2 when it has, within [60 s, 365 days]; StormCrawler's
// AdaptiveScheduler grows it by 50% when unchanged and moves it halfway to its
// minimum (60 s here) when changed. Both start at the uniform interval N/B.
// The Barbosa scheme revisits each of four classes at the study's mean
// intervals (1 : 3 : 30 : 97), scaled so that the fastest class is the living
// web's fastest page class; every page starts in the second class, moves one
// class up when at least 80% of its last n visits saw a change and down when
// at most 20% did (n = 3/2/2/1 from the fastest class to the slowest).
// Two tiers: the hubs every 15 s (or slower, so as to take at most half the
// budget), every other page at the uniform interval of the rest.
#include "eval/revisit_simulation.h"

#include <algorithm>
#include <cmath>
#include <deque>
#include <limits>
#include <queue>
#include <set>
#include <span>

#include "revisit/allocation.h"
#include "revisit/change_rate.h"
#include "revisit/revisit_schedule.h"

namespace cronista::eval {

using sampleweb::LivingPage;
using sampleweb::LivingTruth;

namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr double kMinAdaptiveS = 60, kMaxAdaptiveS = 365.0 * 86400;
constexpr double kNutchIncrease = 0.4, kNutchDecrease = 0.2, kStormGrow = 0.5;
constexpr double kBarbosaRatio[4] = {1, 3, 30, 97};
constexpr double kBarbosaFastestS = 300;  // the living web's news class
constexpr int kBarbosaWindow[4] = {3, 2, 2, 1};
constexpr double kHubPeriodS = 15;
constexpr double kResolveEveryS = 10;  // as the crawl (src/crawler/crawl.cc)

struct Scheduled {
  double due_ms;
  int page;
  bool operator>(const Scheduled& o) const { return due_ms != o.due_ms ? due_ms > o.due_ms : page > o.page; }
};

}  // namespace

const std::vector<std::string>& revisit_policy_names() {
  static const std::vector<std::string> kNames = {"uniform",    "proportional", "optimal",  "nutch-body", "nutch-main",
                                                  "storm-body", "storm-main",   "barbosa",  "two-tiers",  "estimated"};
  return kNames;
}

Result<RevisitPolicy> parse_revisit_policy(const std::string& name) {
  const auto& names = revisit_policy_names();
  for (std::size_t i = 0; i < names.size(); ++i)
    if (names[i] == name) return static_cast<RevisitPolicy>(i);
  std::string all;
  for (const auto& n : names) all += (all.empty() ? "" : ", ") + n;
  return Result<RevisitPolicy>::Error("unknown policy '" + name + "' (" + all + " or all)");
}

std::vector<ServedRequest> simulate_policy(const LivingTruth& truth, RevisitPolicy policy, const SimulationOptions& o) {
  std::vector<ServedRequest> out;
  std::vector<int> collection;
  for (int i = 0; i < static_cast<int>(truth.pages.size()); ++i)
    if (!truth.pages[static_cast<std::size_t>(i)].is_new()) collection.push_back(i);
  const double n = static_cast<double>(collection.size());
  if (collection.empty() || o.budget_per_s <= 0) return out;
  const double uniform_ms = n / o.budget_per_s * 1000;
  const std::size_t pages = truth.pages.size();

  // Per page: the revisit interval (ms; infinite = never), the copy's version, history.
  std::vector<double> interval(pages, kInf);
  std::vector<int> copy(pages, -1);
  std::vector<int> barbosa_class(pages, 1);
  std::vector<std::deque<bool>> history(pages);
  std::vector<bool> hub(pages, false);
  int hubs = 0;
  for (int i : collection) {
    hub[static_cast<std::size_t>(i)] = truth.pages[static_cast<std::size_t>(i)].change_class == "hub";
    hubs += hub[static_cast<std::size_t>(i)] ? 1 : 0;
  }

  // The allocations of src/revisit/ under the same caps (one request per gap per host).
  auto allocated = [&](revisit::Allocation (*allocate)(std::span<const revisit::RevisitItem>, std::span<const double>,
                                                       double)) {
    std::vector<revisit::RevisitItem> items;
    for (int i : collection) {
      const LivingPage& p = truth.pages[static_cast<std::size_t>(i)];
      items.push_back({p.rate, 1, static_cast<std::uint32_t>(p.host)});
    }
    const std::vector<double> caps(truth.hosts.size(), o.delay_ms > 0 ? 1000.0 / static_cast<double>(o.delay_ms) : kInf);
    const revisit::Allocation a = allocate(items, caps, o.budget_per_s);
    for (std::size_t k = 0; k < collection.size(); ++k)
      interval[static_cast<std::size_t>(collection[k])] = a.frequency[k] > 0 ? 1000 / a.frequency[k] : kInf;
  };
  switch (policy) {
    case RevisitPolicy::Uniform: allocated(revisit::uniform_allocation); break;
    case RevisitPolicy::Proportional: allocated(revisit::proportional_allocation); break;
    case RevisitPolicy::Optimal: allocated(revisit::optimal_allocation); break;
    case RevisitPolicy::NutchBody:
    case RevisitPolicy::NutchMain:
    case RevisitPolicy::StormBody:
    case RevisitPolicy::StormMain:
      for (int i : collection) interval[static_cast<std::size_t>(i)] = uniform_ms;
      break;
    case RevisitPolicy::Barbosa:
      for (int i : collection) interval[static_cast<std::size_t>(i)] = kBarbosaFastestS * 1000 * kBarbosaRatio[1];
      break;
    case RevisitPolicy::Estimated: break;  // the schedule's own due times, below
    case RevisitPolicy::TwoTiers: {
      // Hubs every kHubPeriodS, or slower when that would take more than half the budget.
      const double hot_period_s = std::max(kHubPeriodS, hubs / (o.budget_per_s / 2));
      const double cold = o.budget_per_s - hubs / hot_period_s;
      for (int i : collection)
        interval[static_cast<std::size_t>(i)] =
            hub[static_cast<std::size_t>(i)] ? hot_period_s * 1000 : (n - hubs) / cold * 1000;
      break;
    }
  }

  // Every page fetched once at the start; first revisits spread over one interval.
  std::vector<std::priority_queue<Scheduled, std::vector<Scheduled>, std::greater<>>> queue(truth.hosts.size());

  // `estimated`: the crawler's schedule, its pages in collection order.
  const bool estimated = policy == RevisitPolicy::Estimated;
  revisit::RevisitOptions ro;
  ro.budget = o.budget_per_s;
  ro.policy = revisit::RevisitPolicy::kOptimal;
  revisit::RevisitSchedule schedule(ro);
  std::vector<int> schedule_id(pages, -1);
  double pooled_changes = 0, pooled_seconds = 0;
  std::vector<bool> observed(collection.size(), false);
  std::size_t pooled_pages = 0;
  double next_resolve_ms = 0;
  auto resolve = [&] {
    const double prior = revisit::pooled_prior_rate(pooled_changes, pooled_seconds, pooled_pages);
    for (revisit::RevisitSchedule::PageId id = 0; id < schedule.size(); ++id) schedule.set_prior_rate(id, prior);
    schedule.resolve();
    for (auto& q : queue) q = {};
    for (std::size_t k = 0; k < collection.size(); ++k) {
      const double due = schedule.due(static_cast<revisit::RevisitSchedule::PageId>(k));
      const int i = collection[k];
      if (std::isfinite(due)) queue[static_cast<std::size_t>(truth.pages[static_cast<std::size_t>(i)].host)].push({due * 1000, i});
    }
  };
  if (estimated) {
    for (std::size_t h = 0; h < truth.hosts.size(); ++h)
      schedule.set_host_gap(static_cast<std::uint32_t>(h), static_cast<double>(o.delay_ms) / 1000);
    for (std::size_t k = 0; k < collection.size(); ++k) {
      const int i = collection[k];
      schedule_id[static_cast<std::size_t>(i)] = static_cast<int>(
          schedule.add_page(static_cast<std::uint32_t>(truth.pages[static_cast<std::size_t>(i)].host), 1,
                            revisit::pooled_prior_rate(0, 0, 0), 0));
    }
  }

  for (std::size_t k = 0; k < collection.size(); ++k) {
    const int i = collection[k];
    const LivingPage& p = truth.pages[static_cast<std::size_t>(i)];
    copy[static_cast<std::size_t>(i)] = truth.version_at(i, 0);
    out.push_back({-1, p.host, i, 200, copy[static_cast<std::size_t>(i)]});
    if (estimated) continue;
    const double first = interval[static_cast<std::size_t>(i)] * (static_cast<double>(k) + 1) / n;
    if (std::isfinite(first)) queue[static_cast<std::size_t>(p.host)].push({first, i});
  }
  std::set<int> known;
  std::vector<std::deque<int>> discovered(truth.hosts.size());
  std::vector<double> host_free(truth.hosts.size(), 0);
  auto discover = [&](int hub_page, std::int64_t t) {
    std::size_t found = 0;
    for (int a : truth.hub_items(hub_page, t))
      if (known.insert(a).second) {
        discovered[static_cast<std::size_t>(truth.pages[static_cast<std::size_t>(a)].host)].push_back(a);
        ++found;
      }
    return found;
  };
  for (int i : collection)
    if (hub[static_cast<std::size_t>(i)]) discover(i, 0);

  const double slot_ms = 1000 / o.budget_per_s;
  for (double t = 0; t < static_cast<double>(o.end_ms); t += slot_ms) {
    if (estimated && t >= next_resolve_ms) {
      resolve();
      next_resolve_ms = t + kResolveEveryS * 1000;
    }
    // The most overdue page on a free host; newly found articles first.
    int best_host = -1;
    double best_due = kInf;
    for (std::size_t h = 0; h < truth.hosts.size(); ++h) {
      if (host_free[h] > t) continue;
      // `estimated`: a visit brought forward (below) leaves its old due time behind.
      while (estimated && !queue[h].empty() &&
             queue[h].top().due_ms !=
                 schedule.due(static_cast<revisit::RevisitSchedule::PageId>(
                     schedule_id[static_cast<std::size_t>(queue[h].top().page)])) * 1000)
        queue[h].pop();
      double due = kInf;
      if (!discovered[h].empty()) due = -1;
      else if (!queue[h].empty() && queue[h].top().due_ms <= t) due = queue[h].top().due_ms;
      if (due < best_due) best_due = due, best_host = static_cast<int>(h);
    }
    Scheduled s{};
    if (best_host >= 0 && discovered[static_cast<std::size_t>(best_host)].empty()) {
      s = queue[static_cast<std::size_t>(best_host)].top();
      queue[static_cast<std::size_t>(best_host)].pop();
    } else if (best_host < 0) {
      // `estimated` spends every slot as the crawl does (revisit_schedule.h,
      // work-conserving): with nothing due on a free host, the page due
      // earliest on a free host is visited ahead of time.
      if (!estimated) continue;
      const auto early = schedule.earliest_ready([&](revisit::RevisitSchedule::PageId id) {
        return host_free[static_cast<std::size_t>(truth.pages[static_cast<std::size_t>(collection[id])].host)] <= t;
      }, t / 1000);
      if (!early) continue;
      s = Scheduled{schedule.due(*early) * 1000, collection[*early]};
      best_host = truth.pages[static_cast<std::size_t>(s.page)].host;
    }
    const std::size_t h = static_cast<std::size_t>(best_host);
    const std::int64_t now = static_cast<std::int64_t>(t);
    host_free[h] = t + static_cast<double>(o.delay_ms);
    if (!discovered[h].empty()) {
      const int a = discovered[h].front();
      discovered[h].pop_front();
      out.push_back({now, best_host, a, 200, truth.version_at(a, now)});
      continue;
    }
    const std::size_t i = static_cast<std::size_t>(s.page);
    const int version = truth.version_at(s.page, now);
    const bool main_changed = version != copy[i];
    const bool body_changed = main_changed || truth.hosts[h].noisy();
    copy[i] = version;
    out.push_back({now, best_host, s.page, 200, version});
    const std::size_t announced = hub[i] ? discover(s.page, now) : 0;
    if (estimated) {
      const auto id = static_cast<revisit::RevisitSchedule::PageId>(schedule_id[i]);
      const double at = t / 1000;
      const double interval = at - schedule.last_visit(id);
      if (interval > 0) {
        pooled_seconds += interval;
        pooled_changes += main_changed ? 1 : 0;
        if (!observed[id]) observed[id] = true, ++pooled_pages;
      }
      schedule.record_visit(id, at, main_changed, announced);
      const double due = schedule.due(id);
      if (std::isfinite(due)) queue[h].push({due * 1000, s.page});
      continue;
    }
    double& iv = interval[i];
    double next_due = t + iv;
    switch (policy) {
      case RevisitPolicy::Uniform:
      case RevisitPolicy::Proportional:
      case RevisitPolicy::Optimal:
      case RevisitPolicy::TwoTiers:
        next_due = std::max(t, s.due_ms + iv);  // keep the page's place in the cycle
        break;
      case RevisitPolicy::NutchBody:
      case RevisitPolicy::NutchMain: {
        const bool changed = policy == RevisitPolicy::NutchBody ? body_changed : main_changed;
        iv = std::clamp(iv * (changed ? 1 - kNutchDecrease : 1 + kNutchIncrease), kMinAdaptiveS * 1000, kMaxAdaptiveS * 1000);
        next_due = t + iv;
        break;
      }
      case RevisitPolicy::StormBody:
      case RevisitPolicy::StormMain: {
        const bool changed = policy == RevisitPolicy::StormBody ? body_changed : main_changed;
        iv = changed ? iv - (iv - kMinAdaptiveS * 1000) / 2 : std::min(iv * (1 + kStormGrow), kMaxAdaptiveS * 1000);
        next_due = t + iv;
        break;
      }
      case RevisitPolicy::Estimated: break;
      case RevisitPolicy::Barbosa: {
        auto& hist = history[i];
        int& c = barbosa_class[i];
        hist.push_back(body_changed);
        const std::size_t window = static_cast<std::size_t>(kBarbosaWindow[c]);
        while (hist.size() > window) hist.pop_front();
        if (hist.size() == window) {
          const double share = static_cast<double>(std::count(hist.begin(), hist.end(), true)) / static_cast<double>(window);
          const int before = c;
          if (share >= 0.8 && c > 0) --c;
          else if (share <= 0.2 && c < 3) ++c;
          if (c != before) hist.clear();
        }
        iv = kBarbosaFastestS * 1000 * kBarbosaRatio[c];
        next_due = t + iv;
        break;
      }
    }
    if (std::isfinite(next_due)) queue[h].push({next_due, s.page});
  }
  return out;
}

}  // namespace cronista::eval
