// A pair classifier trained without manual labels, after the replica study
// (Carvalho 2014) with its procedure stated and stopped explicitly.
//
// Seeds: obvious positives P (+1), obvious negatives N (-1), the rest U (0).
// - PU: U starts negative. Repeat: train a logistic regression (liblinear,
//   L2-regularised, classes weighted by their sizes) on the current labels;
//   every U pair still negative whose probability of being a replica is at
//   least 0.5 becomes positive. Stop when an iteration flips nothing (it has
//   converged: the labels are a fixed point of the model) or after
//   kMaxIterations (reported as not converged).
// - NU: the mirror image: U starts positive and pairs under 0.5 become
//   negative.
// The score of a pair is the mean of its PU and NU probabilities: PU alone
// leans to recall (everything like a known mirror joins), NU to precision.
// With no positive or no negative seed there is nothing to learn from; the
// score is then the mean of the content features (shared paths with
// near-equal texts, texts covered, path cosine), and the report says so.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

namespace cronista::replicas {

inline constexpr int kMaxIterations = 20;

struct SelfTrainingReport {
  std::size_t positives = 0, negatives = 0, unlabeled = 0;  // seeds
  int pu_iterations = 0, nu_iterations = 0;
  bool pu_converged = false, nu_converged = false;
  std::size_t pu_flipped = 0, nu_flipped = 0;  // U pairs that changed side
  bool trained = false;                         // false: the fallback score was used
  std::string note;                             // why not trained, when not
};

struct PairScore {
  double pu = 0, nu = 0, score = 0;
};

// `features[i]` the feature vector of pair i (values in [0, 1]); `seeds[i]`
// +1, -1 or 0. `fallback[i]` the score used when nothing can be trained.
std::vector<PairScore> self_train(const std::vector<std::vector<double>>& features, const std::vector<int>& seeds,
                                  const std::vector<double>& fallback, SelfTrainingReport* report);

}  // namespace cronista::replicas
