#include "replicas/self_training.h"

#include <memory>

#include "linear/linear_model.h"

namespace cronista::replicas {
namespace {

// Rows in sparse form (index from 1), with a bias feature.
class Problem {
 public:
  explicit Problem(const std::vector<std::vector<double>>& x) {
    rows_.resize(x.size());
    for (std::size_t i = 0; i < x.size(); ++i) {
      for (std::size_t j = 0; j < x[i].size(); ++j) rows_[i].push_back({static_cast<int>(j + 1), x[i][j]});
      rows_[i].push_back({static_cast<int>(x[i].size() + 1), 1.0});  // bias feature
    }
    features_ = x.empty() ? 1 : static_cast<int>(x[0].size() + 1);
  }

  // Trains on the rows whose label is ±1 and returns P(+1) for every row.
  std::vector<double> fit_predict(const std::vector<int>& labels) {
    std::vector<double> y;
    std::vector<linear::Row> xs;
    double pos = 0, neg = 0;
    for (std::size_t i = 0; i < labels.size(); ++i) {
      if (labels[i] == 0) continue;
      y.push_back(labels[i]);
      xs.push_back(rows_[i]);
      (labels[i] > 0 ? pos : neg) += 1;
    }
    linear::FitOptions options;
    options.solver = linear::Solver::kLogistic;
    options.c = 10;
    options.class_weights = {{+1, (pos + neg) / (2 * pos)}, {-1, (pos + neg) / (2 * neg)}};
    std::vector<double> out(rows_.size(), 0.5);
    auto m = linear::Model::fit(xs, y, features_, options);
    if (!m) return out;
    for (std::size_t i = 0; i < rows_.size(); ++i) out[i] = m->probability(rows_[i], +1);
    return out;
  }

 private:
  std::vector<linear::Row> rows_;
  int features_ = 1;
};

// One side of the procedure: U starts at `start`; pairs whose probability
// crosses 0.5 towards the other side flip; until no flip.
std::vector<double> iterate(Problem& problem, const std::vector<int>& seeds, int start, int* iterations,
                            bool* converged, std::size_t* flipped) {
  std::vector<int> labels = seeds;
  for (auto& l : labels)
    if (l == 0) l = start;
  std::vector<double> p;
  *converged = false;
  *flipped = 0;
  for (*iterations = 1; *iterations <= kMaxIterations; ++*iterations) {
    p = problem.fit_predict(labels);
    std::size_t flips = 0;
    for (std::size_t i = 0; i < labels.size(); ++i) {
      if (seeds[i] != 0) continue;
      if (start < 0 && labels[i] < 0 && p[i] >= 0.5) labels[i] = +1, ++flips;
      if (start > 0 && labels[i] > 0 && p[i] < 0.5) labels[i] = -1, ++flips;
    }
    *flipped += flips;
    if (flips == 0) {
      *converged = true;
      break;
    }
  }
  if (*iterations > kMaxIterations) *iterations = kMaxIterations;
  return p;
}

}  // namespace

std::vector<PairScore> self_train(const std::vector<std::vector<double>>& features, const std::vector<int>& seeds,
                                  const std::vector<double>& fallback, SelfTrainingReport* report) {
  SelfTrainingReport r;
  for (int s : seeds) (s > 0 ? r.positives : s < 0 ? r.negatives : r.unlabeled)++;
  std::vector<PairScore> out(features.size());
  if (r.positives == 0 || r.negatives == 0) {
    r.note = r.positives == 0 ? "no obvious replica pair to learn from" : "no obvious non-replica pair to learn from";
    for (std::size_t i = 0; i < out.size(); ++i) out[i].pu = out[i].nu = out[i].score = fallback[i];
    if (report) *report = r;
    return out;
  }
  Problem problem(features);
  const auto pu = iterate(problem, seeds, -1, &r.pu_iterations, &r.pu_converged, &r.pu_flipped);
  const auto nu = iterate(problem, seeds, +1, &r.nu_iterations, &r.nu_converged, &r.nu_flipped);
  r.trained = true;
  for (std::size_t i = 0; i < out.size(); ++i) {
    out[i].pu = pu[i];
    out[i].nu = nu[i];
    out[i].score = 0.5 * (pu[i] + nu[i]);
  }
  if (report) *report = r;
  return out;
}

}  // namespace cronista::replicas
