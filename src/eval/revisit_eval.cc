// Freshness, age, hit rate and discovery latency of a request sequence on
// the living web (revisit_eval.h).
//
// Approach: per page, walk its changes and its fetches in time order; between
// two events the page is either fresh (contributing its length to the
// freshness integral) or stale since a known change s0 (contributing
// ∫(t − s0) dt to the age integral). The integrals are exact, not sampled;
// only the chart's curve is sampled.
#include "eval/revisit_eval.h"

#include <algorithm>
#include <cmath>
#include <fstream>
#include <functional>
#include <map>
#include <sstream>

#include "eval/number_format.h"

namespace cronista::eval {

using sampleweb::LivingPage;
using sampleweb::LivingTruth;

namespace {

double percentile(const std::vector<double>& sorted, double q) {
  if (sorted.empty()) return 0;
  const double pos = q * static_cast<double>(sorted.size() - 1);
  const std::size_t lo = static_cast<std::size_t>(std::floor(pos));
  const std::size_t hi = std::min(sorted.size() - 1, lo + 1);
  return sorted[lo] + (sorted[hi] - sorted[lo]) * (pos - static_cast<double>(lo));
}

// The integrals of one page over the window.
struct PageIntegrals {
  double fresh_ms = 0;
  double age_ms2 = 0;  // ∫ age dt, in ms·ms
};

PageIntegrals integrate(const LivingPage& p, const std::vector<const ServedRequest*>& fetches, const RevisitWindow& w) {
  PageIntegrals out;
  const auto& ch = p.changes;
  int copy = -1;        // version of the copy; -1: never fetched
  std::size_t f = 0;    // next fetch
  // The copy at the window's start.
  while (f < fetches.size() && fetches[f]->t_ms <= w.from_ms) copy = fetches[f++]->version;
  std::size_t c = static_cast<std::size_t>(std::upper_bound(ch.begin(), ch.end(), w.from_ms) - ch.begin());
  std::int64_t at = w.from_ms;
  auto add = [&](std::int64_t until) {
    if (until <= at) return;
    const int current = static_cast<int>(c);
    if (copy == current) {
      out.fresh_ms += static_cast<double>(until - at);
    } else {
      // Stale since the first change the copy misses (a never-fetched page: since 0).
      const double since = copy >= 0 && static_cast<std::size_t>(copy) < ch.size()
                               ? static_cast<double>(ch[static_cast<std::size_t>(copy)])
                               : 0.0;
      out.age_ms2 += static_cast<double>(until - at) * ((static_cast<double>(at + until)) / 2 - since);
    }
    at = until;
  };
  while (true) {
    const std::int64_t next_change = c < ch.size() ? ch[c] : INT64_MAX;
    const std::int64_t next_fetch = f < fetches.size() ? fetches[f]->t_ms : INT64_MAX;
    const std::int64_t next = std::min(next_change, next_fetch);
    if (next >= w.to_ms) break;
    add(next);
    if (next_change <= next_fetch) {
      ++c;  // a change at the same instant as a fetch comes first: the fetch sees it
    } else {
      copy = fetches[f++]->version;
    }
  }
  add(w.to_ms);
  return out;
}

// Is the copy of page p fresh at t?
bool fresh_at(const LivingTruth& truth, int page, const std::vector<const ServedRequest*>& fetches, std::int64_t t) {
  auto it = std::upper_bound(fetches.begin(), fetches.end(), t,
                             [](std::int64_t v, const ServedRequest* r) { return v < r->t_ms; });
  if (it == fetches.begin()) return false;
  return (*(it - 1))->version == truth.version_at(page, t);
}

}  // namespace

Result<std::vector<ServedRequest>> read_request_log(const std::string& path, const LivingTruth& truth) {
  using R = Result<std::vector<ServedRequest>>;
  std::ifstream in(path, std::ios::binary);
  if (!in) return R::Error("cannot open '" + path + "'");
  std::map<std::string, int> host_of;
  for (std::size_t h = 0; h < truth.hosts.size(); ++h) host_of[truth.hosts[h].authority] = static_cast<int>(h);
  std::vector<ServedRequest> out;
  std::string line;
  int line_no = 0;
  bool living = false;
  while (std::getline(in, line)) {
    ++line_no;
    if (line_no == 1) {
      if (line.rfind("# cronista sample-web request log", 0) != 0)
        return R::Error(path + ":1: not a sample-web request log (sample-web serve --request-log)");
      living = line.find("living=1") != std::string::npos;
      continue;
    }
    if (line.empty() || line[0] == '#') continue;
    std::vector<std::string> f;
    std::stringstream ss(line);
    for (std::string part; std::getline(ss, part, '\t');) f.push_back(part);
    if (f.size() != 5) return R::Error(path + ":" + std::to_string(line_no) + ": expected 5 tab-separated fields");
    ServedRequest r;
    try {
      r.t_ms = std::stoll(f[0]);
      r.status = std::stoi(f[3]);
      r.version = std::stoi(f[4]);
    } catch (const std::exception&) {
      return R::Error(path + ":" + std::to_string(line_no) + ": bad number");
    }
    auto h = host_of.find(f[1]);
    if (h != host_of.end()) {
      r.host = h->second;
      auto p = truth.by_url.find("http://" + f[1] + f[2]);
      if (p != truth.by_url.end()) r.page = p->second;
    }
    out.push_back(r);
  }
  if (!living) return R::Error(path + ": the log is of a static web (serve it with --living)");
  std::stable_sort(out.begin(), out.end(), [](const ServedRequest& a, const ServedRequest& b) { return a.t_ms < b.t_ms; });
  return out;
}

Result<RevisitWindow> parse_window(const std::string& text) {
  const std::size_t dots = text.find("..");
  if (dots == std::string::npos) return Result<RevisitWindow>::Error("--window must be A..B (seconds), not '" + text + "'");
  try {
    std::size_t used_a = 0, used_b = 0;
    const double a = std::stod(text.substr(0, dots), &used_a), b = std::stod(text.substr(dots + 2), &used_b);
    if (used_a != dots || used_b != text.size() - dots - 2 || !(a >= 0) || !(b > a))
      return Result<RevisitWindow>::Error("--window must be A..B with 0 <= A < B, not '" + text + "'");
    return RevisitWindow{static_cast<std::int64_t>(std::llround(a * 1000)), static_cast<std::int64_t>(std::llround(b * 1000))};
  } catch (const std::exception&) {
    return Result<RevisitWindow>::Error("--window must be A..B (seconds), not '" + text + "'");
  }
}

RevisitFigures revisit_figures(const LivingTruth& truth, const std::vector<ServedRequest>& requests,
                               const RevisitWindow& w, const std::string& name) {
  RevisitFigures out;
  out.name = name;
  out.window = w;
  const double span = static_cast<double>(w.to_ms - w.from_ms);
  std::vector<std::vector<const ServedRequest*>> fetches(truth.pages.size());
  std::vector<std::int64_t> first_200(truth.pages.size(), -1);
  std::vector<int> last_version(truth.pages.size(), -2);
  std::map<int, std::pair<long, std::int64_t>> per_host;  // requests, smallest gap
  std::map<int, std::int64_t> last_at_host;
  long count_304 = 0;
  for (const ServedRequest& r : requests) {
    const bool in_window = r.t_ms >= w.from_ms && r.t_ms < w.to_ms;
    const bool fetch = r.page >= 0 && (r.status == 200 || r.status == 304);
    if (fetch) {
      const std::size_t p = static_cast<std::size_t>(r.page);
      if (in_window && last_version[p] != -2 && !truth.pages[p].is_new()) {
        ++out.revisits;
        if (r.status == 200 && r.version != last_version[p]) ++out.hits;
      }
      last_version[p] = r.version;
      fetches[p].push_back(&r);
      if (r.status == 200 && first_200[p] < 0) first_200[p] = r.t_ms;
    }
    if (!in_window) continue;
    ++out.requests;
    count_304 += r.status == 304;
    if (r.host >= 0) {
      auto& [n, gap] = per_host[r.host];
      ++n;
      auto last = last_at_host.find(r.host);
      if (last != last_at_host.end() && (gap < 0 || r.t_ms - last->second < gap)) gap = r.t_ms - last->second;
      if (n == 1) gap = -1;
      last_at_host[r.host] = r.t_ms;
    }
  }
  out.hit_rate = out.revisits ? static_cast<double>(out.hits) / static_cast<double>(out.revisits) : 0;
  out.share_304 = out.requests ? static_cast<double>(count_304) / static_cast<double>(out.requests) : 0;
  for (const auto& [h, v] : per_host)
    out.hosts.push_back({truth.hosts[static_cast<std::size_t>(h)].authority, v.first, v.second});

  // Freshness and age of the collection, per class.
  std::map<std::string, std::pair<int, std::pair<double, double>>> by_class;
  double fresh = 0, age = 0;
  std::vector<int> collection;
  for (int i = 0; i < static_cast<int>(truth.pages.size()); ++i) {
    const LivingPage& p = truth.pages[static_cast<std::size_t>(i)];
    if (p.is_new()) continue;
    collection.push_back(i);
    const PageIntegrals in = integrate(p, fetches[static_cast<std::size_t>(i)], w);
    auto& [n, sums] = by_class[p.change_class];
    ++n;
    sums.first += in.fresh_ms;
    sums.second += in.age_ms2;
    fresh += in.fresh_ms;
    age += in.age_ms2;
  }
  out.pages = static_cast<int>(collection.size());
  if (out.pages > 0 && span > 0) {
    out.freshness = fresh / span / out.pages;
    out.age_s = age / span / out.pages / 1000;
  }
  for (const auto& [cls, v] : by_class)
    out.classes.push_back({cls, v.first, v.second.first / span / v.first, v.second.second / span / v.first / 1000});
  const int samples = 100;
  for (int k = 0; k <= samples && out.pages > 0; ++k) {
    const std::int64_t t = w.from_ms + static_cast<std::int64_t>(span * k / samples);
    int n = 0;
    for (int i : collection) n += fresh_at(truth, i, fetches[static_cast<std::size_t>(i)], t);
    out.freshness_curve.push_back({static_cast<double>(t) / 1000, static_cast<double>(n) / out.pages});
  }

  // Discovery latency of the articles published in the window.
  DiscoveryLatency& lat = out.latency;
  std::vector<int> within(std::size(kLatencyBoundsS), 0);
  for (std::size_t i = 0; i < truth.pages.size(); ++i) {
    const LivingPage& p = truth.pages[i];
    if (!p.is_new() || p.published < w.from_ms || p.published >= w.to_ms) continue;
    ++lat.published;
    if (first_200[i] < 0) {
      ++lat.never;
      continue;
    }
    const double s = static_cast<double>(first_200[i] - p.published) / 1000;
    lat.latencies_s.push_back(s);
    for (std::size_t b = 0; b < std::size(kLatencyBoundsS); ++b) within[b] += s <= kLatencyBoundsS[b];
  }
  std::sort(lat.latencies_s.begin(), lat.latencies_s.end());
  if (!lat.latencies_s.empty()) {
    double sum = 0;
    for (double s : lat.latencies_s) sum += s;
    lat.mean_s = sum / static_cast<double>(lat.latencies_s.size());
    lat.median_s = percentile(lat.latencies_s, 0.5);
    lat.p90_s = percentile(lat.latencies_s, 0.9);
  }
  for (int n : within) lat.within.push_back(lat.published ? static_cast<double>(n) / lat.published : 0);
  return out;
}

std::string revisit_markdown(const std::vector<RevisitFigures>& runs, const std::string& setting) {
  std::ostringstream s;
  s << "# Revisit evaluation\n\n";
  if (!runs.empty())
    s << "Window " << fixed(static_cast<double>(runs[0].window.from_ms) / 1000, 1) << ".."
      << fixed(static_cast<double>(runs[0].window.to_ms) / 1000, 1) << " s; collection of " << runs[0].pages
      << " pages" << (setting.empty() ? "" : "; " + setting) << ".\n\n";
  s << "| run | freshness | age (s) | requests | hit rate | 304 share | published | never | latency mean (s) | median | p90 |";
  for (double b : kLatencyBoundsS) s << " ≤ " << b << " s |";
  s << "\n|---|---|---|---|---|---|---|---|---|---|---|";
  for (std::size_t b = 0; b < std::size(kLatencyBoundsS); ++b) s << "---|";
  s << "\n";
  for (const RevisitFigures& r : runs) {
    s << "| " << r.name << " | " << fixed(r.freshness, 3) << " | " << fixed(r.age_s, 1) << " | " << r.requests << " | "
      << fixed(r.hit_rate, 3) << " | " << fixed(r.share_304, 3) << " | " << r.latency.published << " | "
      << r.latency.never << " | " << fixed(r.latency.mean_s, 1) << " | " << fixed(r.latency.median_s, 1) << " | "
      << fixed(r.latency.p90_s, 1) << " |";
    for (double v : r.latency.within) s << " " << fixed(v, 3) << " |";
    s << "\n";
  }
  s << "\n## Freshness and age per change class\n\n| run | class | pages | freshness | age (s) |\n|---|---|---|---|---|\n";
  for (const RevisitFigures& r : runs)
    for (const ClassFreshness& c : r.classes)
      s << "| " << r.name << " | " << c.change_class << " | " << c.pages << " | " << fixed(c.freshness, 3) << " | "
        << fixed(c.age_s, 1) << " |\n";
  s << "\n## Requests per host\n\n| run | host | requests | smallest gap (ms) |\n|---|---|---|---|\n";
  for (const RevisitFigures& r : runs)
    for (const HostRequests& h : r.hosts)
      s << "| " << r.name << " | " << h.host << " | " << h.requests << " | "
        << (h.smallest_gap_ms < 0 ? std::string("-") : std::to_string(h.smallest_gap_ms)) << " |\n";
  return s.str();
}

std::string revisit_csv(const std::vector<RevisitFigures>& runs) {
  std::ostringstream s;
  s << "run,class,pages,freshness,age_s,requests,revisits,hits,hit_rate,share_304,published,never,latency_mean_s,"
       "latency_median_s,latency_p90_s";
  for (double b : kLatencyBoundsS) s << ",within_" << b << "s";
  s << "\n";
  for (const RevisitFigures& r : runs) {
    s << r.name << ",all," << r.pages << "," << fixed(r.freshness, 6) << "," << fixed(r.age_s, 3) << "," << r.requests
      << "," << r.revisits << "," << r.hits << "," << fixed(r.hit_rate, 6) << "," << fixed(r.share_304, 6) << ","
      << r.latency.published << "," << r.latency.never << "," << fixed(r.latency.mean_s, 3) << ","
      << fixed(r.latency.median_s, 3) << "," << fixed(r.latency.p90_s, 3);
    for (double v : r.latency.within) s << "," << fixed(v, 6);
    s << "\n";
    for (const ClassFreshness& c : r.classes)
      s << r.name << "," << c.change_class << "," << c.pages << "," << fixed(c.freshness, 6) << "," << fixed(c.age_s, 3)
        << ",,,,,,,,,," << std::string(std::size(kLatencyBoundsS), ',') << "\n";
  }
  return s.str();
}

std::string revisit_svg(const std::vector<RevisitFigures>& runs) {
  static const char* kColors[] = {"#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b", "#e377c2",
                                  "#17becf", "#bcbd22", "#7f7f7f", "#000000"};
  const int w = 440, h = 280, left = 60, top = 40, gap = 90;
  const int width = left + 2 * w + gap + 30, height = top + h + 60 + 20 * static_cast<int>((runs.size() + 3) / 4);
  std::ostringstream s;
  s << "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" << width << "\" height=\"" << height
    << "\" font-family=\"sans-serif\" font-size=\"12\">\n<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n";
  double t0 = 0, t1 = 1, lmax = 1;
  if (!runs.empty()) {
    t0 = static_cast<double>(runs[0].window.from_ms) / 1000;
    t1 = static_cast<double>(runs[0].window.to_ms) / 1000;
  }
  for (const RevisitFigures& r : runs)
    if (!r.latency.latencies_s.empty()) lmax = std::max(lmax, r.latency.latencies_s.back());
  // A panel: frame, title, axis labels; `curve` gives (x in [0,1], y in [0,1]) points.
  auto panel = [&](int x0, const std::string& title, const std::string& xlabel, double xmax_label,
                   const std::function<std::vector<std::pair<double, double>>(const RevisitFigures&)>& curve) {
    s << "<text x=\"" << x0 + w / 2 << "\" y=\"" << top - 15 << "\" text-anchor=\"middle\" font-weight=\"bold\">" << title
      << "</text>\n<rect x=\"" << x0 << "\" y=\"" << top << "\" width=\"" << w << "\" height=\"" << h
      << "\" fill=\"none\" stroke=\"black\"/>\n";
    const double xmin_label = xlabel == "s" ? t0 : 0;
    for (int k = 0; k <= 4; ++k) {
      s << "<text x=\"" << x0 - 6 << "\" y=\"" << top + h - h * k / 4 + 4 << "\" text-anchor=\"end\">" << k * 25
        << "%</text>\n<text x=\"" << x0 + w * k / 4 << "\" y=\"" << top + h + 16 << "\" text-anchor=\"middle\">"
        << fixed(xmin_label + (xmax_label - xmin_label) * k / 4, 0) << "</text>\n";
    }
    s << "<text x=\"" << x0 + w / 2 << "\" y=\"" << top + h + 34 << "\" text-anchor=\"middle\">" << xlabel << "</text>\n";
    for (std::size_t i = 0; i < runs.size(); ++i) {
      const auto points = curve(runs[i]);
      if (points.empty()) continue;
      s << "<polyline fill=\"none\" stroke-width=\"2\" stroke=\"" << kColors[i % std::size(kColors)] << "\" points=\"";
      for (const auto& [x, y] : points)
        s << fixed(x0 + w * std::clamp(x, 0.0, 1.0), 1) << "," << fixed(top + h - h * std::clamp(y, 0.0, 1.0), 1) << " ";
      s << "\"/>\n";
    }
  };
  panel(left, "Freshness of the collection over time", "s", t1, [&](const RevisitFigures& r) {
    std::vector<std::pair<double, double>> pts;
    for (const auto& [t, f] : r.freshness_curve) pts.push_back({(t - t0) / std::max(1e-9, t1 - t0), f});
    return pts;
  });
  panel(left + w + gap, "Discovery latency: share of new articles fetched", "latency (s)", lmax,
        [&](const RevisitFigures& r) {
          std::vector<std::pair<double, double>> pts;
          const double n = std::max(1, r.latency.published);
          for (std::size_t k = 0; k < r.latency.latencies_s.size(); ++k)
            pts.push_back({r.latency.latencies_s[k] / lmax, static_cast<double>(k + 1) / n});
          return pts;
        });
  for (std::size_t i = 0; i < runs.size(); ++i) {
    const int x = left + static_cast<int>(i % 4) * 200, y = top + h + 56 + 20 * static_cast<int>(i / 4);
    s << "<line x1=\"" << x << "\" y1=\"" << y - 4 << "\" x2=\"" << x + 24 << "\" y2=\"" << y - 4 << "\" stroke=\""
      << kColors[i % std::size(kColors)] << "\" stroke-width=\"3\"/><text x=\"" << x + 30 << "\" y=\"" << y << "\">"
      << runs[i].name << "</text>\n";
  }
  s << "</svg>\n";
  return s.str();
}

}  // namespace cronista::eval
