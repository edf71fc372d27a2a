// Replica detection over a set of sites: candidates, evidence, the
// self-trained classifier, clusters and their canonical hosts.
//
// Obvious positives seed the classifier: names that differ by "www." or the
// public suffix only, a whole-host redirect, or at least 10 shared paths
// whose texts are near-equal for 95% of them covering 90% of the smaller
// site. Obvious negatives: no text in common anywhere, no near-equal shared
// path, no name relation (an address shared without any text is virtual
// hosting). Pairs scoring 0.5 or more join clusters (union-find). A cluster's canonical host has the most backlinks,
// then was seen first, then has no "www."; a site that copies another under
// a path prefix is never canonical, and only its pages under the prefix are
// the replica; nor is a copy holding under nine tenths of the pages of a
// host it replicates (a partial or stale copy), which would leave the
// missing pages out.
#pragma once

#include <string>
#include <vector>

#include "replicas/pair_evidence.h"
#include "replicas/self_training.h"
#include "replicas/site_profile.h"

namespace cronista::replicas {

struct ScoredPair {
  PairEvidence evidence;
  PairScore score;
  int seed = 0;             // +1 obvious positive, -1 obvious negative, 0 learned
  double normpaths = 0;     // NormPaths' rsim, the baseline's score
};

struct ClusterMember {
  std::size_t site = 0;
  std::string kind;    // alias, tld, prefix, partial, stale, mirror
  std::string prefix;  // for kind "prefix": the replica's pages under it copy the canonical's
  double score = 0;    // the best pair score linking it to the cluster
  const ScoredPair* pair = nullptr;  // the evidence with the canonical host, when a pair was scored
};

struct ReplicaCluster {
  std::size_t canonical = 0;
  std::vector<ClusterMember> replicas;
  double score = 0;  // the lowest pair score along the cluster's links
};

struct ReplicaReport {
  std::vector<ScoredPair> pairs;  // every candidate pair
  std::vector<ReplicaCluster> clusters;
  SelfTrainingReport training;
};

ReplicaReport detect_replicas(const std::vector<SiteProfile>& sites);

// The report as JSON: {"clusters": [{"canonical", "replicas", "score",
// "kind", "evidence"}], "pairs": [...], "training": {...}}, and as Markdown.
std::string replicas_json(const std::vector<SiteProfile>& sites, const ReplicaReport& report);
std::string replicas_markdown(const std::vector<SiteProfile>& sites, const ReplicaReport& report);

}  // namespace cronista::replicas
