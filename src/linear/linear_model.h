// A linear model fitted by liblinear: L2-regularised logistic regression or
// support vector regression over rows in sparse form. The one place the
// project calls liblinear (its training messages are silenced); the learned
// rate prior (revisit/) and the replica pair classifier (replicas/) use it.
#pragma once

#include <memory>
#include <utility>
#include <vector>

struct model;

namespace cronista::linear {

// A feature of a row: its index (from 1, increasing along the row) and value.
struct Feature {
  int index = 0;
  double value = 0;
};
using Row = std::vector<Feature>;

enum class Solver {
  kLogistic,    // L2R_LR; labels ±1
  kRegression,  // L2R_L2LOSS_SVR
};

struct FitOptions {
  Solver solver = Solver::kLogistic;
  double c = 1.0;            // the cost of errors against the regularisation
  double eps = 0.01;         // stopping tolerance
  double svr_epsilon = 0.1;  // kRegression: the loss's insensitive zone
  std::vector<std::pair<int, double>> class_weights;  // kLogistic: (label, weight)
};

class Model {
 public:
  // `features`: the highest index any row uses. nullptr when the problem is
  // malformed (no row, a bad parameter) or liblinear fails.
  static std::unique_ptr<Model> fit(const std::vector<Row>& rows, const std::vector<double>& targets, int features,
                                    const FitOptions& options);
  ~Model();
  Model(const Model&) = delete;
  Model& operator=(const Model&) = delete;

  // kRegression: the predicted value.
  double value(const Row& row) const;
  // kLogistic: the probability of `label`.
  double probability(const Row& row, int label) const;

 private:
  explicit Model(::model* m) : m_(m) {}
  ::model* m_;
};

}  // namespace cronista::linear
