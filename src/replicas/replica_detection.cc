#include "replicas/replica_detection.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstdio>
#include <map>
#include <numeric>
#include <sstream>

namespace cronista::replicas {
namespace {

int seed_of(const PairEvidence& ev) {
  const PairFeatures& f = ev.features;
  if (f.name_alias > 0 || f.name_other_suffix > 0 || f.redirect > 0) return +1;
  if (ev.shared_paths >= 10 && f.shared_path_text >= 0.95 && f.text_coverage >= 0.9) return +1;
  // A shared address is no evidence against: virtual hosting puts unrelated
  // sites on one address (the study measured address features alone at ROC
  // AUC 0.51), so sites sharing one but no text are obvious negatives too.
  if (f.text_coverage == 0 && f.shared_path_text == 0 && f.rsim == 0 && f.prefix_mapped == 0) return -1;
  return 0;
}

struct UnionFind {
  std::vector<std::size_t> parent;
  explicit UnionFind(std::size_t n) : parent(n) { std::iota(parent.begin(), parent.end(), 0); }
  std::size_t find(std::size_t x) {
    while (parent[x] != x) x = parent[x] = parent[parent[x]];
    return x;
  }
  void unite(std::size_t a, std::size_t b) { parent[find(a)] = find(b); }
};

std::string kind_of(const ScoredPair& p, const std::vector<SiteProfile>& sites, std::size_t canonical) {
  const PairEvidence& ev = p.evidence;
  const PairFeatures& f = ev.features;
  if (!ev.prefix.empty()) return "prefix";
  if (f.name_alias > 0) return "alias";
  if (f.name_other_suffix > 0) return "tld";
  const double canonical_pages = static_cast<double>(std::max<std::size_t>(1, sites[canonical].pages.size()));
  // Stale: a fifth or more of the shared paths hold another text (an older version or another one).
  const std::size_t same_text = ev.near_equal_shared - ev.versions_shared;
  if (ev.shared_paths >= 3 && 5 * same_text < 4 * ev.shared_paths) return "stale";
  if (static_cast<double>(ev.shared_paths) / canonical_pages < 0.75) return "partial";
  return "mirror";
}

bool has_www(const HostName& h) { return without_www(h) != h.host; }

}  // namespace

ReplicaReport detect_replicas(const std::vector<SiteProfile>& sites) {
  ReplicaReport report;
  ReplicaIndex index(sites);
  const auto candidates = index.candidates();
  std::vector<std::vector<double>> x;
  std::vector<int> seeds;
  std::vector<double> fallback;
  for (const auto& [a, b] : candidates) {
    ScoredPair p;
    p.evidence = index.evidence(a, b);
    p.seed = seed_of(p.evidence);
    p.normpaths = index.normpaths_rsim(a, b);
    const PairFeatures& f = p.evidence.features;
    x.push_back(f.values());
    seeds.push_back(p.seed);
    fallback.push_back((f.shared_path_text + f.text_coverage + f.path_cosine) / 3);
    report.pairs.push_back(std::move(p));
  }
  const auto scores = self_train(x, seeds, fallback, &report.training);
  for (std::size_t i = 0; i < scores.size(); ++i) report.pairs[i].score = scores[i];

  // Clusters of the pairs judged replicas.
  UnionFind uf(sites.size());
  std::map<std::pair<std::size_t, std::size_t>, const ScoredPair*> by_pair;
  // Never canonical: a copy under a prefix, and a copy lacking a tenth or
  // more of the pages of a host it replicates (its canonical would leave
  // those pages out).
  std::vector<bool> prefix_copy(sites.size(), false), lesser_copy(sites.size(), false);
  for (const auto& p : report.pairs) {
    by_pair[{p.evidence.a, p.evidence.b}] = &p;
    if (p.score.score < 0.5) continue;
    uf.unite(p.evidence.a, p.evidence.b);
    if (!p.evidence.prefix.empty()) {
      prefix_copy[p.evidence.prefix_on_a ? p.evidence.a : p.evidence.b] = true;
      continue;
    }
    const std::size_t na = sites[p.evidence.a].pages.size(), nb = sites[p.evidence.b].pages.size();
    if (10 * na < 9 * nb) lesser_copy[p.evidence.a] = true;
    if (10 * nb < 9 * na) lesser_copy[p.evidence.b] = true;
  }
  std::map<std::size_t, std::vector<std::size_t>> groups;
  for (std::size_t s = 0; s < sites.size(); ++s) groups[uf.find(s)].push_back(s);
  for (auto& [root, members] : groups) {
    if (members.size() < 2) continue;
    auto better = [&](std::size_t x, std::size_t y) {
      if (prefix_copy[x] != prefix_copy[y]) return !prefix_copy[x];
      if (lesser_copy[x] != lesser_copy[y]) return !lesser_copy[x];
      if (sites[x].backlinks != sites[y].backlinks) return sites[x].backlinks > sites[y].backlinks;
      if (sites[x].first_seen != sites[y].first_seen) return sites[x].first_seen < sites[y].first_seen;
      const bool wx = has_www(index.name(x)), wy = has_www(index.name(y));
      if (wx != wy) return !wx;
      return sites[x].authority < sites[y].authority;
    };
    ReplicaCluster c;
    c.canonical = *std::min_element(members.begin(), members.end(), better);
    c.score = 1;
    for (std::size_t m : members) {
      if (m == c.canonical) continue;
      ClusterMember member;
      member.site = m;
      const auto it = by_pair.find({std::min(m, c.canonical), std::max(m, c.canonical)});
      if (it != by_pair.end()) {
        member.pair = it->second;
        member.score = it->second->score.score;
        member.kind = kind_of(*it->second, sites, c.canonical);
        member.prefix = it->second->evidence.prefix;
      } else {
        // Linked through another member: its best pair inside the cluster.
        for (const auto& p : report.pairs)
          if ((p.evidence.a == m || p.evidence.b == m) && uf.find(p.evidence.a) == root &&
              uf.find(p.evidence.b) == root)
            member.score = std::max(member.score, p.score.score);
        member.kind = "mirror";
      }
      c.score = std::min(c.score, member.score);
      c.replicas.push_back(std::move(member));
    }
    report.clusters.push_back(std::move(c));
  }
  std::sort(report.clusters.begin(), report.clusters.end(), [&](const ReplicaCluster& x, const ReplicaCluster& y) {
    return sites[x.canonical].authority < sites[y.canonical].authority;
  });
  return report;
}

namespace {

nlohmann::json features_json(const ScoredPair& p) {
  nlohmann::json f = nlohmann::json::object();
  const auto values = p.evidence.features.values();
  for (int i = 0; i < PairFeatures::kCount; ++i) f[PairFeatures::name(i)] = values[static_cast<std::size_t>(i)];
  return {{"features", f},
          {"shared_paths", p.evidence.shared_paths},
          {"near_equal_shared_paths", p.evidence.near_equal_shared},
          {"version_shared_paths", p.evidence.versions_shared},
          {"text_twins", p.evidence.text_twins},
          {"seed", p.seed > 0 ? "positive" : p.seed < 0 ? "negative" : "unlabeled"},
          {"pu", p.score.pu},
          {"nu", p.score.nu},
          {"normpaths_rsim", p.normpaths}};
}

std::string cluster_kind(const ReplicaCluster& c) {
  std::string kind;
  for (const auto& m : c.replicas)
    if (kind.empty()) kind = m.kind;
    else if (kind != m.kind) return "mixed";
  return kind;
}

}  // namespace

std::string replicas_json(const std::vector<SiteProfile>& sites, const ReplicaReport& report) {
  nlohmann::json clusters = nlohmann::json::array();
  for (const auto& c : report.clusters) {
    nlohmann::json replicas = nlohmann::json::array(), evidence = nlohmann::json::object();
    for (const auto& m : c.replicas) {
      replicas.push_back(sites[m.site].authority);
      nlohmann::json e = m.pair ? features_json(*m.pair) : nlohmann::json::object();
      e["kind"] = m.kind;
      e["score"] = m.score;
      if (!m.prefix.empty()) e["prefix"] = m.prefix;
      evidence[sites[m.site].authority] = e;
    }
    clusters.push_back({{"canonical", sites[c.canonical].authority},
                        {"replicas", replicas},
                        {"score", c.score},
                        {"kind", cluster_kind(c)},
                        {"evidence", evidence}});
  }
  nlohmann::json pairs = nlohmann::json::array();
  for (const auto& p : report.pairs) {
    nlohmann::json e = features_json(p);
    e["a"] = sites[p.evidence.a].authority;
    e["b"] = sites[p.evidence.b].authority;
    e["score"] = p.score.score;
    pairs.push_back(e);
  }
  const auto& t = report.training;
  nlohmann::json training = {{"seeds", {{"positive", t.positives}, {"negative", t.negatives}, {"unlabeled", t.unlabeled}}},
                             {"trained", t.trained},
                             {"pu", {{"iterations", t.pu_iterations}, {"converged", t.pu_converged}, {"flipped", t.pu_flipped}}},
                             {"nu", {{"iterations", t.nu_iterations}, {"converged", t.nu_converged}, {"flipped", t.nu_flipped}}}};
  if (!t.note.empty()) training["note"] = t.note;
  return nlohmann::json{{"clusters", clusters}, {"pairs", pairs}, {"training", training}}.dump(2) + "\n";
}

std::string replicas_markdown(const std::vector<SiteProfile>& sites, const ReplicaReport& report) {
  std::ostringstream out;
  out << "# Replica sites\n\n";
  out << sites.size() << " sites, " << report.pairs.size() << " candidate pairs, " << report.clusters.size()
      << " clusters of replicas.\n\n";
  if (report.clusters.empty()) out << "No replicas found.\n\n";
  char buf[64];
  for (const auto& c : report.clusters) {
    out << "## " << sites[c.canonical].authority << " (canonical)\n\n| replica | kind | score | shared paths | texts covered |\n|---|---|---:|---:|---:|\n";
    for (const auto& m : c.replicas) {
      std::snprintf(buf, sizeof buf, "%.3f", m.score);
      out << "| " << sites[m.site].authority << (m.prefix.empty() ? "" : " under " + m.prefix) << " | " << m.kind
          << " | " << buf << " | ";
      if (m.pair) {
        std::snprintf(buf, sizeof buf, "%.0f%%", 100 * m.pair->evidence.features.text_coverage);
        out << m.pair->evidence.shared_paths << " | " << buf << " |\n";
      } else {
        out << "– | – |\n";
      }
    }
    out << "\n";
  }
  const auto& t = report.training;
  out << "Classifier: " << t.positives << " obvious replica pairs, " << t.negatives << " obvious non-replica pairs, "
      << t.unlabeled << " learned; ";
  if (t.trained)
    out << "PU " << (t.pu_converged ? "converged" : "stopped") << " after " << t.pu_iterations << " iterations ("
        << t.pu_flipped << " flipped), NU " << (t.nu_converged ? "converged" : "stopped") << " after " << t.nu_iterations
        << " (" << t.nu_flipped << " flipped).\n";
  else
    out << "not trained (" << t.note << "); scores are the mean of the content features.\n";
  return out.str();
}

}  // namespace cronista::replicas
