// Replica detection against a truth (the replica web's replicas.json,
// sample_web_replicas.h): what `cronista eval-replicas` reports.
//
// - Pairwise precision, recall and F1 of the clusters over the hosts the
//   crawl holds: a pair of hosts is positive when the truth puts both in one
//   cluster, detected when the detector does.
// - ROC AUC and precision-recall AUC (average precision) of the pair scores
//   over every pair of crawled hosts (a pair that is no candidate scores 0),
//   for the detector and for NormPaths' rsim on the same crawl; ties count
//   half (Mann-Whitney) for ROC and as one step for PR.
// - Each truth replica: found or not, with its pair score; each hard-negative
//   pair: merged or not.
// - Requests spent on replica hosts (pages rows whose URL is on a truth
//   replica, under the prefix for a prefix copy), in the crawl and, when
//   given, in a crawl of the same web without detection.
// - Unique pages wrongly left out: pages of a host detected as a replica
//   (under the detected prefix for a prefix copy) whose content the truth
//   holds on no page of the detected canonical host.
#pragma once

#include <map>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "replicas/replica_detection.h"
#include "replicas/site_profile.h"
#include "store/database.h"
#include "temporal/status.h"

namespace cronista::eval {

struct ReplicaTruthMember {
  std::string authority, kind, prefix;
};

struct ReplicaTruthCluster {
  std::string canonical;
  std::vector<ReplicaTruthMember> replicas;
};

struct ReplicaTruth {
  std::vector<ReplicaTruthCluster> clusters;
  struct Negative {
    std::string a, b, kind;
  };
  std::vector<Negative> hard_negatives;
  // authority → path → content key (the original's "authority/path").
  std::map<std::string, std::map<std::string, std::string>> pages;

  // The cluster index of an authority, or -1.
  int cluster_of(const std::string& authority) const;
};

Result<ReplicaTruth> read_replica_truth(const std::string& path);

// Area under the ROC curve and average precision of scores against labels.
struct RankFigures {
  double roc_auc = 0, pr_auc = 0;
  std::size_t positives = 0, negatives = 0;
};
RankFigures rank_figures(const std::vector<std::pair<double, bool>>& scored);

struct PairwiseFigures {
  std::size_t true_pairs = 0, detected_pairs = 0, correct_pairs = 0;
  double precision = 0, recall = 0, f1 = 0;
};

struct ReplicaEvaluation {
  std::size_t hosts = 0, truth_hosts_crawled = 0, candidate_pairs = 0;
  PairwiseFigures pairwise;
  RankFigures detector, normpaths;
  struct Found {
    std::string canonical, replica, kind, detected_kind;
    bool crawled = false, found = false;
    double score = 0, normpaths = 0;
  };
  std::vector<Found> replicas;
  struct NegativeOutcome {
    std::string a, b, kind;
    bool crawled = false, merged = false;
    double score = 0;
  };
  std::vector<NegativeOutcome> hard_negatives;
  std::size_t replica_requests = 0;
  std::optional<std::size_t> baseline_replica_requests;
  std::size_t unique_pages_left_out = 0;
  std::vector<std::string> left_out_examples;  // a few "authority/path"
};

// `sites` and `report` from replicas::read_site_profiles and
// replicas::detect_replicas on `db`; `baseline` a crawl without detection.
Result<ReplicaEvaluation> evaluate_replicas(const ReplicaTruth& truth, const std::vector<replicas::SiteProfile>& sites,
                                            const replicas::ReplicaReport& report, store::Database& db,
                                            store::Database* baseline);

std::string replica_evaluation_markdown(const ReplicaEvaluation& e);
std::string replica_evaluation_json(const ReplicaEvaluation& e);

}  // namespace cronista::eval
