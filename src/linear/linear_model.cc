#include "linear/linear_model.h"

#include <linear.h>

namespace cronista::linear {
namespace {

void quiet(const char*) {}

std::vector<feature_node> nodes(const Row& row) {
  std::vector<feature_node> out;
  out.reserve(row.size() + 1);
  for (const Feature& f : row) out.push_back({f.index, f.value});
  out.push_back({-1, 0});
  return out;
}

}  // namespace

std::unique_ptr<Model> Model::fit(const std::vector<Row>& rows, const std::vector<double>& targets, int features,
                                  const FitOptions& options) {
  if (rows.empty() || rows.size() != targets.size()) return nullptr;
  std::vector<std::vector<feature_node>> x;
  std::vector<feature_node*> ptrs;
  x.reserve(rows.size());
  for (const Row& r : rows) {
    x.push_back(nodes(r));
    ptrs.push_back(x.back().data());
  }
  std::vector<double> y = targets;
  problem prob{};
  prob.l = static_cast<int>(rows.size());
  prob.n = features;
  prob.y = y.data();
  prob.x = ptrs.data();
  prob.bias = -1;  // a bias, if wanted, is a feature of the rows
  std::vector<int> weight_label;
  std::vector<double> weight;
  for (const auto& [label, w] : options.class_weights) {
    weight_label.push_back(label);
    weight.push_back(w);
  }
  parameter param{};
  param.solver_type = options.solver == Solver::kLogistic ? L2R_LR : L2R_L2LOSS_SVR;
  param.eps = options.eps;
  param.C = options.c;
  param.p = options.svr_epsilon;
  param.nr_weight = static_cast<int>(weight.size());
  param.weight_label = weight_label.empty() ? nullptr : weight_label.data();
  param.weight = weight.empty() ? nullptr : weight.data();
  set_print_string_function(&quiet);
  if (check_parameter(&prob, &param) != nullptr) return nullptr;
  ::model* m = ::train(&prob, &param);
  if (!m) return nullptr;
  return std::unique_ptr<Model>(new Model(m));
}

Model::~Model() {
  if (m_) free_and_destroy_model(&m_);
}

double Model::value(const Row& row) const {
  const auto x = nodes(row);
  return ::predict(m_, x.data());
}

double Model::probability(const Row& row, int label) const {
  const auto x = nodes(row);
  double p[2] = {0, 0};
  ::predict_probability(m_, x.data(), p);
  int labels[2] = {0, 0};
  get_labels(m_, labels);
  return labels[0] == label ? p[0] : p[1];
}

}  // namespace cronista::linear
