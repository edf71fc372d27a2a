// Crawl evaluation on the time axis (crawl_eval.h): the oracle's timed walk,
// time curves of the runs, the time cut-offs table.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <deque>
#include <filesystem>
#include <fstream>
#include <limits>
#include <map>
#include <set>
#include <sstream>

#include <nlohmann/json.hpp>

#include "crawler/crawl_shards.h"
#include "crawler/robots.h"
#include "crawler/url.h"
#include "eval/crawl_eval.h"
#include "temporal/xml_escape.h"

namespace cronista::eval {

namespace {

std::string authority_of(const std::string& url) {
  auto u = crawler::CanonicalUrl::parse(url);
  return u.ok() ? u->authority() : std::string();
}

std::string fmt(double v, int decimals) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.*f", decimals, v);
  return buf;
}

}  // namespace

std::size_t TimeCurve::pages_by(double t) const {
  return static_cast<std::size_t>(std::upper_bound(seconds.begin(), seconds.end(), t) - seconds.begin());
}

int TimeCurve::relevant_by(double t) const {
  const std::size_t n = pages_by(t);
  return n == 0 ? 0 : relevant[n - 1];
}

std::vector<std::pair<std::string, double>> oracle_timeline(const CrawlTruth& truth,
                                                            const std::vector<std::string>& seeds,
                                                            const temporal::DayRange& scope, double horizon,
                                                            const HostGap& gap, const HostLatency& latency) {
  auto response = [&](const std::string& url) { return latency ? std::max(0.0, latency(url)) : 0.0; };
  struct Queued {
    std::string url;
    double found = 0;  // when its link was seen
    std::size_t seq = 0;
  };
  struct Host {
    std::deque<Queued> queue;
    double gap = 1;
    double latency = 0;  // a request's response time
    double free = 0;     // when politeness allows the next request
  };
  std::map<std::string, Host> hosts;
  std::set<std::string> seen;
  std::size_t seq = 0;
  auto push = [&](const std::string& url, double found) {
    if (!seen.insert(url).second) return;
    const std::string a = authority_of(url);
    auto [it, created] = hosts.try_emplace(a);
    if (created) {
      it->second.gap = gap(url);
      it->second.latency = response(url);
      it->second.free = it->second.latency + it->second.gap;  // robots.txt first, at time 0
    }
    it->second.queue.push_back(Queued{url, found, seq++});
  };
  for (const std::string& s : seeds) push(s, 0);

  std::vector<std::pair<std::string, double>> out;
  for (;;) {
    Host* best = nullptr;
    double best_t = std::numeric_limits<double>::infinity();
    std::size_t best_seq = 0;
    for (auto& [a, h] : hosts) {
      if (h.queue.empty()) continue;
      const double t = std::max(h.free, h.queue.front().found);
      if (t < best_t || (t == best_t && h.queue.front().seq < best_seq)) {
        best = &h;
        best_t = t;
        best_seq = h.queue.front().seq;
      }
    }
    if (best == nullptr || best_t > horizon) break;
    const Queued q = best->queue.front();
    best->queue.pop_front();
    const TruthPage* p = truth.find(q.url);
    if (p && p->disallowed) continue;  // robots.txt: never requested
    const double answered = best_t + best->latency;
    best->free = answered + best->gap;
    if (p && !p->location.empty()) {  // a redirect hop: a request, not a download
      push(p->location, answered);
      continue;
    }
    out.emplace_back(q.url, best_t);
    if (!p || p->status != 200) continue;
    for (const TruthSection& s : p->sections)
      if (section_in_scope(s, scope))
        for (const std::string& l : s.links) push(l, answered);
  }
  return out;
}

Result<HostLatency> crawl_latencies(const std::vector<std::string>& db_paths, double* mean_s) {
  using R = Result<HostLatency>;
  *mean_s = 0;
  auto db = crawler::open_shards(db_paths);
  if (!db) return db.status();
  auto st = db->prepare("SELECT url, duration_ms FROM pages WHERE status > 0 AND duration_ms > 0");
  if (!st) return R::Error("not a crawl database: " + st.status().message());
  std::map<std::string, std::pair<double, int>> by_authority;  // sum of seconds, responses
  double sum = 0;
  int n = 0;
  while (st->step()) {
    const double s = st->column_double(1) / 1000.0;
    auto& [host_sum, host_n] = by_authority[authority_of(st->column_text(0))];
    host_sum += s;
    ++host_n;
    sum += s;
    ++n;
  }
  if (!st->status().ok()) return R::Error("reading response times: " + st->status().message());
  const double mean = n ? sum / n : 0.0;
  *mean_s = mean;
  std::map<std::string, double> means;
  for (const auto& [authority, v] : by_authority) means[authority] = v.first / v.second;
  return HostLatency([mean, means](const std::string& url) {
    auto it = means.find(authority_of(url));
    return it == means.end() ? mean : it->second;
  });
}

HostGap sample_web_gaps(const std::string& truth_path, int delay_ms) {
  const double base = std::max(0, delay_ms) / 1000.0;
  std::map<std::string, double> by_authority;
  const std::filesystem::path dir = std::filesystem::path(truth_path).parent_path();
  std::ifstream in(dir / "web.json", std::ios::binary);
  if (in) {
    std::stringstream text;
    text << in.rdbuf();
    const nlohmann::json web = nlohmann::json::parse(text.str(), nullptr, false);
    if (web.is_object() && web.contains("hosts") && web["hosts"].is_array()) {
      for (const auto& h : web["hosts"]) {
        if (!h.is_object() || !h.contains("name") || !h["name"].is_string() || !h.contains("authority") ||
            !h["authority"].is_string())
          continue;
        std::ifstream robots(dir / "sites" / h["name"].get<std::string>() / "files" / "robots.txt", std::ios::binary);
        if (!robots) continue;
        std::stringstream body;
        body << robots.rdbuf();
        const auto delay = crawler::RobotsRules::parse(body.str(), "cronista").crawl_delay();
        if (delay) by_authority[h["authority"].get<std::string>()] = static_cast<double>(delay->count()) / 1000.0;
      }
    }
  }
  return [base, by_authority](const std::string& url) {
    auto it = by_authority.find(authority_of(url));
    return it == by_authority.end() ? base : std::max(base, it->second);
  };
}

TimeCurve time_curve(const CrawlTruth& truth, const temporal::DayRange& scope, const std::vector<std::string>& lines,
                     const std::vector<double>& seconds) {
  TimeCurve c;
  if (seconds.size() != lines.size() || lines.empty()) return c;
  std::vector<std::size_t> order(lines.size());
  for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return seconds[a] < seconds[b]; });
  std::set<std::string> seen;
  int relevant = 0;
  for (std::size_t i : order) {
    const std::string page = truth.resolve(lines[i]);
    const TruthPage* p = truth.find(page);
    if (seen.insert(page).second && p && !p->disallowed && truth.relevant(page, scope)) ++relevant;
    c.seconds.push_back(seconds[i]);
    c.relevant.push_back(relevant);
  }
  return c;
}

std::string time_cutoffs_csv(const CrawlEvaluation& e) {
  std::string out = "run,seconds,pages,relevant\n";
  for (const RunCurve& r : e.runs) {
    if (r.time.empty()) continue;
    for (double t : e.time_cutoffs) {
      if (t > r.time.seconds.back() && !r.oracle) break;
      out += r.name + "," + fmt(t, 0) + "," + std::to_string(r.time.pages_by(t)) + "," +
             std::to_string(r.time.relevant_by(t)) + "\n";
    }
  }
  return out;
}

std::string time_chart_svg(const CrawlEvaluation& e) {
  const int w = 640, h = 360, left = 70, top = 40, right = 30, bottom = 80;
  const int pw = w - left - right, ph = h - top - bottom;
  static const char* kColors[] = {"#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b", "#e377c2"};
  double tmax = 0, rmax = 0;
  for (const RunCurve& r : e.runs) {
    if (r.time.empty()) continue;
    tmax = std::max(tmax, r.time.seconds.back());
    rmax = std::max(rmax, static_cast<double>(r.time.relevant.back()));
  }
  // Round upper bounds: 1, 2 or 5 × 10^k.
  auto round_up = [](double v) {
    double x = 1;
    while (x < v) {
      if (x * 2 >= v) return x * 2;
      if (x * 5 >= v) return x * 5;
      x *= 10;
    }
    return x;
  };
  const double xmax = round_up(std::max(tmax, 1.0)), ymax = round_up(std::max(rmax, 1.0));
  std::ostringstream s;
  s << "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" << w << "\" height=\"" << h << "\" viewBox=\"0 0 " << w << " "
    << h << "\" font-family=\"sans-serif\" font-size=\"12\">\n<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n";
  s << "<text x=\"" << left + pw / 2 << "\" y=\"" << top - 15
    << "\" text-anchor=\"middle\" font-size=\"14\" font-weight=\"bold\">Relevant pages by crawling time (scope "
    << temporal::xml_escape(e.scope) << ")</text>\n";
  for (int k = 0; k <= 5; ++k) {
    const double y = top + ph - ph * k / 5.0, x = left + pw * k / 5.0;
    s << "<line x1=\"" << left << "\" y1=\"" << fmt(y, 1) << "\" x2=\"" << left + pw << "\" y2=\"" << fmt(y, 1)
      << "\" stroke=\"#ddd\"/>\n<text x=\"" << left - 6 << "\" y=\"" << fmt(y + 4, 1) << "\" text-anchor=\"end\">"
      << fmt(ymax * k / 5.0, 0) << "</text>\n<text x=\"" << fmt(x, 1) << "\" y=\"" << top + ph + 18
      << "\" text-anchor=\"middle\">" << fmt(xmax * k / 5.0, 0) << "</text>\n";
  }
  s << "<rect x=\"" << left << "\" y=\"" << top << "\" width=\"" << pw << "\" height=\"" << ph
    << "\" fill=\"none\" stroke=\"black\"/>\n<text x=\"" << left + pw / 2 << "\" y=\"" << top + ph + 36
    << "\" text-anchor=\"middle\">seconds of crawling</text>\n";
  int lx = left;
  for (std::size_t i = 0; i < e.runs.size(); ++i) {
    const RunCurve& r = e.runs[i];
    if (r.time.empty()) continue;
    const std::string color = r.oracle ? "#555555" : kColors[i % 7];
    const std::string dash = r.oracle ? " stroke-dasharray=\"6,4\"" : "";
    s << "<polyline fill=\"none\" stroke=\"" << color << "\" stroke-width=\"2\"" << dash << " points=\"";
    const std::size_t n = r.time.seconds.size(), step = std::max<std::size_t>(1, n / 400);
    auto point = [&](std::size_t j) {
      s << fmt(left + pw * r.time.seconds[j] / xmax, 1) << "," << fmt(top + ph - ph * r.time.relevant[j] / ymax, 1) << " ";
    };
    for (std::size_t j = 0; j < n; j += step) point(j);
    if ((n - 1) % step != 0) point(n - 1);
    s << "\"/>\n<line x1=\"" << lx << "\" y1=\"" << h - 20 << "\" x2=\"" << lx + 28 << "\" y2=\"" << h - 20
      << "\" stroke=\"" << color << "\" stroke-width=\"3\"" << dash << "/>\n";
    const std::string name = temporal::xml_escape(r.name);
    s << "<text x=\"" << lx + 34 << "\" y=\"" << h - 16 << "\">" << name << "</text>\n";
    lx += 60 + static_cast<int>(name.size()) * 7;
  }
  s << "</svg>\n";
  return s.str();
}

}  // namespace cronista::eval
