#include "eval/replica_eval.h"

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <sstream>

#include <nlohmann/json.hpp>

#include "eval/number_format.h"
#include "replicas/site_profiles_db.h"

namespace cronista::eval {
namespace {

bool under(const std::string& path, const std::string& prefix) {
  return prefix.empty() || (path.compare(0, prefix.size(), prefix) == 0 &&
                            (path.size() == prefix.size() || path[prefix.size()] == '/'));
}

// Requests (pages rows) to the truth's replica hosts, under the prefix for a
// prefix copy; probes (replica_probes), kept as pages too, are verification.
Result<std::size_t> replica_requests(const ReplicaTruth& truth, store::Database& db) {
  auto has_pages = db.has_table("pages");
  if (!has_pages.ok()) return has_pages.status();
  if (!*has_pages) return std::size_t{0};
  std::map<std::string, std::string> prefix_of;
  for (const auto& c : truth.clusters)
    for (const auto& m : c.replicas) prefix_of[m.authority] = m.prefix;
  auto has_probes = db.has_table("replica_probes");
  if (!has_probes.ok()) return has_probes.status();
  auto st = db.prepare(*has_probes ? "SELECT url FROM pages WHERE url NOT IN (SELECT url FROM replica_probes)"
                                   : "SELECT url FROM pages");
  if (!st.ok()) return st.status();
  std::size_t n = 0;
  while (st->step()) {
    std::string authority, path;
    if (!replicas::split_url(st->column_text(0), &authority, &path)) continue;
    if (auto it = prefix_of.find(authority); it != prefix_of.end() && under(path, it->second)) ++n;
  }
  if (!st->status().ok()) return st->status();
  return n;
}

}  // namespace

int ReplicaTruth::cluster_of(const std::string& authority) const {
  for (std::size_t i = 0; i < clusters.size(); ++i) {
    if (clusters[i].canonical == authority) return static_cast<int>(i);
    for (const auto& m : clusters[i].replicas)
      if (m.authority == authority) return static_cast<int>(i);
  }
  return -1;
}

Result<ReplicaTruth> read_replica_truth(const std::string& path) {
  using R = Result<ReplicaTruth>;
  std::ifstream in(path, std::ios::binary);
  if (!in) return R::Error("cannot read --truth file '" + path + "'");
  std::stringstream text;
  text << in.rdbuf();
  const nlohmann::json j = nlohmann::json::parse(text.str(), nullptr, false);
  if (j.is_discarded() || !j.is_object() || !j.contains("clusters") || !j["clusters"].is_array())
    return R::Error("'" + path + "' is not a replica truth file (replicas.json of `sample-web generate --replicas`)");
  ReplicaTruth t;
  try {
    for (const auto& c : j["clusters"]) {
      ReplicaTruthCluster cluster;
      cluster.canonical = c.at("canonical").get<std::string>();
      for (const auto& m : c.at("replicas"))
        cluster.replicas.push_back({m.at("host").get<std::string>(), m.at("kind").get<std::string>(),
                                    m.value("prefix", std::string())});
      t.clusters.push_back(std::move(cluster));
    }
    if (j.contains("hard_negatives"))
      for (const auto& n : j["hard_negatives"])
        t.hard_negatives.push_back({n.at("a").get<std::string>(), n.at("b").get<std::string>(), n.value("kind", "")});
    if (j.contains("hosts"))
      for (const auto& h : j["hosts"]) {
        auto& pages = t.pages[h.at("authority").get<std::string>()];
        for (const auto& p : h.at("pages")) pages[p.at("path").get<std::string>()] = p.value("content", std::string());
      }
  } catch (const nlohmann::json::exception& e) {
    return R::Error("'" + path + "': " + e.what());
  }
  return t;
}

RankFigures rank_figures(const std::vector<std::pair<double, bool>>& scored) {
  RankFigures r;
  for (const auto& [s, label] : scored) (label ? r.positives : r.negatives) += 1;
  if (r.positives == 0 || r.negatives == 0) return r;
  std::vector<std::pair<double, bool>> v = scored;
  std::sort(v.begin(), v.end(), [](const auto& x, const auto& y) { return x.first > y.first; });
  // ROC AUC: the share of (positive, negative) pairs ranked right, ties half.
  // PR AUC: average precision, a group of tied scores taken as one step.
  double wins = 0, ap = 0;
  std::size_t neg_below = r.negatives, tp = 0, seen = 0;
  for (std::size_t i = 0; i < v.size();) {
    std::size_t j = i, pos = 0, neg = 0;
    while (j < v.size() && v[j].first == v[i].first) (v[j++].second ? pos : neg) += 1;
    neg_below -= neg;
    wins += static_cast<double>(pos) * (static_cast<double>(neg_below) + 0.5 * static_cast<double>(neg));
    tp += pos;
    seen += pos + neg;
    ap += static_cast<double>(pos) / static_cast<double>(r.positives) * static_cast<double>(tp) /
          static_cast<double>(seen);
    i = j;
  }
  r.roc_auc = wins / (static_cast<double>(r.positives) * static_cast<double>(r.negatives));
  r.pr_auc = ap;
  return r;
}

Result<ReplicaEvaluation> evaluate_replicas(const ReplicaTruth& truth, const std::vector<replicas::SiteProfile>& sites,
                                            const replicas::ReplicaReport& report, store::Database& db,
                                            store::Database* baseline) {
  ReplicaEvaluation e;
  e.hosts = sites.size();
  e.candidate_pairs = report.pairs.size();
  std::map<std::string, std::size_t> index;
  for (std::size_t i = 0; i < sites.size(); ++i) index[sites[i].authority] = i;
  for (const auto& [authority, pages] : truth.pages) e.truth_hosts_crawled += index.count(authority);

  // The detected cluster of each site (its canonical), and the detected prefix of a replica.
  std::vector<std::size_t> detected(sites.size());
  for (std::size_t i = 0; i < sites.size(); ++i) detected[i] = i;
  std::map<std::size_t, std::string> detected_prefix, detected_kind;
  for (const auto& c : report.clusters)
    for (const auto& m : c.replicas) {
      detected[m.site] = c.canonical;
      detected_prefix[m.site] = m.prefix;
      detected_kind[m.site] = m.kind;
    }
  std::map<std::pair<std::size_t, std::size_t>, const replicas::ScoredPair*> scored;
  for (const auto& p : report.pairs) scored[{p.evidence.a, p.evidence.b}] = &p;
  auto pair_of = [&](std::size_t x, std::size_t y) -> const replicas::ScoredPair* {
    auto it = scored.find({std::min(x, y), std::max(x, y)});
    return it == scored.end() ? nullptr : it->second;
  };

  std::vector<std::pair<double, bool>> by_detector, by_normpaths;
  for (std::size_t x = 0; x < sites.size(); ++x)
    for (std::size_t y = x + 1; y < sites.size(); ++y) {
      const int cx = truth.cluster_of(sites[x].authority), cy = truth.cluster_of(sites[y].authority);
      const bool positive = cx >= 0 && cx == cy;
      const bool merged = detected[x] == detected[y];
      e.pairwise.true_pairs += positive;
      e.pairwise.detected_pairs += merged;
      e.pairwise.correct_pairs += positive && merged;
      const auto* p = pair_of(x, y);
      by_detector.push_back({p ? p->score.score : 0.0, positive});
      by_normpaths.push_back({p ? p->normpaths : 0.0, positive});
    }
  auto ratio = [](std::size_t a, std::size_t b) { return b == 0 ? 0.0 : static_cast<double>(a) / static_cast<double>(b); };
  e.pairwise.precision = ratio(e.pairwise.correct_pairs, e.pairwise.detected_pairs);
  e.pairwise.recall = ratio(e.pairwise.correct_pairs, e.pairwise.true_pairs);
  const double pr = e.pairwise.precision + e.pairwise.recall;
  e.pairwise.f1 = pr > 0 ? 2 * e.pairwise.precision * e.pairwise.recall / pr : 0;
  e.detector = rank_figures(by_detector);
  e.normpaths = rank_figures(by_normpaths);

  // Two hosts of the truth as the crawl saw them: both crawled, merged, their pair.
  struct Judged {
    bool crawled = false, merged = false;
    const replicas::ScoredPair* pair = nullptr;
    std::size_t b = 0;
  };
  auto judge = [&](const std::string& x, const std::string& y) {
    Judged j;
    const auto a = index.find(x), b = index.find(y);
    j.crawled = a != index.end() && b != index.end();
    if (!j.crawled) return j;
    j.merged = detected[a->second] == detected[b->second];
    j.pair = pair_of(a->second, b->second);
    j.b = b->second;
    return j;
  };
  for (const auto& c : truth.clusters)
    for (const auto& m : c.replicas) {
      ReplicaEvaluation::Found f;
      f.canonical = c.canonical;
      f.replica = m.authority;
      f.kind = m.kind;
      const Judged j = judge(c.canonical, m.authority);
      f.crawled = j.crawled;
      f.found = j.merged;
      if (j.pair) f.score = j.pair->score.score, f.normpaths = j.pair->normpaths;
      if (auto k = detected_kind.find(j.b); f.found && k != detected_kind.end()) f.detected_kind = k->second;
      e.replicas.push_back(f);
    }
  for (const auto& n : truth.hard_negatives) {
    const Judged j = judge(n.a, n.b);
    e.hard_negatives.push_back({n.a, n.b, n.kind, j.crawled, j.merged, j.pair ? j.pair->score.score : 0.0});
  }

  // Unique pages a crawl following the decisions would leave out.
  for (const auto& c : report.clusters) {
    const auto canonical_pages = truth.pages.find(sites[c.canonical].authority);
    std::set<std::string> held;
    if (canonical_pages != truth.pages.end())
      for (const auto& [path, content] : canonical_pages->second) held.insert(content.empty() ? path : content);
    for (const auto& m : c.replicas) {
      const auto pages = truth.pages.find(sites[m.site].authority);
      if (pages == truth.pages.end()) continue;
      for (const auto& [path, content] : pages->second)
        if (under(path, m.prefix) && !held.count(content.empty() ? sites[m.site].authority + path : content)) {
          ++e.unique_pages_left_out;
          if (e.left_out_examples.size() < 5) e.left_out_examples.push_back(sites[m.site].authority + path);
        }
    }
  }

  auto requests = replica_requests(truth, db);
  if (!requests.ok()) return requests.status();
  e.replica_requests = *requests;
  if (baseline) {
    auto b = replica_requests(truth, *baseline);
    if (!b.ok()) return b.status();
    e.baseline_replica_requests = *b;
  }
  return e;
}

std::string replica_evaluation_markdown(const ReplicaEvaluation& e) {
  std::string out = "# Replica detection against the truth\n\n";
  out += std::to_string(e.hosts) + " hosts crawled (" + std::to_string(e.truth_hosts_crawled) +
         " of them in the truth), " + std::to_string(e.candidate_pairs) + " candidate pairs.\n\n";
  out += "| clusters, pairwise | value |\n|---|---|\n";
  out += "| precision | " + fixed(e.pairwise.precision) + " (" + std::to_string(e.pairwise.correct_pairs) + " of " +
         std::to_string(e.pairwise.detected_pairs) + " detected pairs) |\n";
  out += "| recall | " + fixed(e.pairwise.recall) + " (" + std::to_string(e.pairwise.correct_pairs) + " of " +
         std::to_string(e.pairwise.true_pairs) + " true pairs) |\n";
  out += "| F1 | " + fixed(e.pairwise.f1) + " |\n\n";
  out += "| pair scores (" + std::to_string(e.detector.positives) + " positive, " + std::to_string(e.detector.negatives) +
         " negative pairs) | ROC AUC | PR AUC |\n|---|---|---|\n";
  out += "| detector | " + fixed(e.detector.roc_auc) + " | " + fixed(e.detector.pr_auc) + " |\n";
  out += "| NormPaths rsim (baseline) | " + fixed(e.normpaths.roc_auc) + " | " + fixed(e.normpaths.pr_auc) + " |\n\n";
  out += "| replica | of | kind | found | detected as | score | NormPaths |\n|---|---|---|---|---|---|---|\n";
  for (const auto& f : e.replicas)
    out += "| " + f.replica + " | " + f.canonical + " | " + f.kind + " | " +
           (f.crawled ? (f.found ? "yes" : "no") : "not crawled") + " | " + f.detected_kind + " | " + fixed(f.score, 3) +
           " | " + fixed(f.normpaths, 3) + " |\n";
  out += "\n| hard negative | and | kind | merged | score |\n|---|---|---|---|---|\n";
  for (const auto& n : e.hard_negatives)
    out += "| " + n.a + " | " + n.b + " | " + n.kind + " | " + (n.crawled ? (n.merged ? "YES" : "no") : "not crawled") +
           " | " + fixed(n.score, 3) + " |\n";
  out += "\nRequests to replica hosts: " + std::to_string(e.replica_requests);
  if (e.baseline_replica_requests)
    out += " (without detection: " + std::to_string(*e.baseline_replica_requests) + ", " +
           (*e.baseline_replica_requests ? fixed(100.0 * static_cast<double>(e.replica_requests) /
                                                     static_cast<double>(*e.baseline_replica_requests), 1) + "%"
                                         : std::string("-")) +
           ")";
  out += ".\nUnique pages wrongly left out: " + std::to_string(e.unique_pages_left_out);
  for (std::size_t i = 0; i < e.left_out_examples.size(); ++i) out += (i ? ", " : " (") + e.left_out_examples[i];
  out += e.left_out_examples.empty() ? ".\n" : ").\n";
  return out;
}

std::string replica_evaluation_json(const ReplicaEvaluation& e) {
  nlohmann::ordered_json j;
  j["hosts"] = e.hosts;
  j["truth_hosts_crawled"] = e.truth_hosts_crawled;
  j["candidate_pairs"] = e.candidate_pairs;
  j["pairwise"] = {{"precision", e.pairwise.precision}, {"recall", e.pairwise.recall}, {"f1", e.pairwise.f1},
                   {"true_pairs", e.pairwise.true_pairs}, {"detected_pairs", e.pairwise.detected_pairs},
                   {"correct_pairs", e.pairwise.correct_pairs}};
  j["detector"] = {{"roc_auc", e.detector.roc_auc}, {"pr_auc", e.detector.pr_auc},
                   {"positives", e.detector.positives}, {"negatives", e.detector.negatives}};
  j["normpaths"] = {{"roc_auc", e.normpaths.roc_auc}, {"pr_auc", e.normpaths.pr_auc}};
  j["replicas"] = nlohmann::ordered_json::array();
  for (const auto& f : e.replicas)
    j["replicas"].push_back({{"replica", f.replica}, {"canonical", f.canonical}, {"kind", f.kind},
                             {"crawled", f.crawled}, {"found", f.found}, {"detected_kind", f.detected_kind},
                             {"score", f.score}, {"normpaths", f.normpaths}});
  j["hard_negatives"] = nlohmann::ordered_json::array();
  for (const auto& n : e.hard_negatives)
    j["hard_negatives"].push_back(
        {{"a", n.a}, {"b", n.b}, {"kind", n.kind}, {"crawled", n.crawled}, {"merged", n.merged}, {"score", n.score}});
  j["replica_requests"] = e.replica_requests;
  if (e.baseline_replica_requests) j["baseline_replica_requests"] = *e.baseline_replica_requests;
  j["unique_pages_left_out"] = e.unique_pages_left_out;
  return j.dump(2) + "\n";
}

}  // namespace cronista::eval
