#include "revisit/rate_prior.h"

#include <linear.h>

#include <algorithm>
#include <cmath>

#include "revisit/change_rate.h"

namespace cronista::revisit {
namespace {

void quiet(const char*) {}

}  // namespace

std::vector<double> PageFeatures::values() const {
  return {std::log1p(url_depth),   dated_path, query,
          std::log1p(links),       std::log1p(images), std::log1p(mailto),
          std::log1p(text_bytes),  last_modified,      etag,
          std::log1p(newest_date_days), has_dates,     update_line,
          speaks_of_today,         std::log1p(link_density)};
}

struct RatePriorModel::Model {
  model* m = nullptr;
  ~Model() {
    if (m) free_and_destroy_model(&m);
  }
};

RatePriorModel::RatePriorModel() = default;
RatePriorModel::~RatePriorModel() = default;

void RatePriorModel::add_example(const PageFeatures& features, double rate) {
  x_.push_back(features.values());
  y_.push_back(std::log(std::clamp(rate, kMinRate, kMaxRate)));
}

double RatePriorModel::constant_rate() const {
  if (y_.empty()) return 1.0 / 86400;
  double s = 0;
  for (double y : y_) s += y;
  return std::exp(s / static_cast<double>(y_.size()));
}

bool RatePriorModel::train() {
  if (x_.size() < kMinExamples) return false;
  const std::size_t n = x_.size(), d = PageFeatures::kCount;
  mean_.assign(d, 0);
  scale_.assign(d, 0);
  for (const auto& row : x_)
    for (std::size_t j = 0; j < d; ++j) mean_[j] += row[j] / static_cast<double>(n);
  for (const auto& row : x_)
    for (std::size_t j = 0; j < d; ++j) scale_[j] += (row[j] - mean_[j]) * (row[j] - mean_[j]) / static_cast<double>(n);
  for (auto& s : scale_) s = s > 1e-12 ? std::sqrt(s) : 1.0;
  double ymean = 0;
  for (double y : y_) ymean += y / static_cast<double>(n);

  std::vector<std::vector<feature_node>> rows(n);
  std::vector<feature_node*> ptrs(n);
  std::vector<double> targets(n);
  for (std::size_t i = 0; i < n; ++i) {
    for (std::size_t j = 0; j < d; ++j) rows[i].push_back({static_cast<int>(j + 1), (x_[i][j] - mean_[j]) / scale_[j]});
    rows[i].push_back({-1, 0});
    ptrs[i] = rows[i].data();
    targets[i] = y_[i] - ymean;  // centred: the model needs no bias term
  }
  problem prob{};
  prob.l = static_cast<int>(n);
  prob.n = static_cast<int>(d);
  prob.y = targets.data();
  prob.x = ptrs.data();
  prob.bias = -1;
  parameter param{};
  param.solver_type = L2R_L2LOSS_SVR;
  param.eps = 0.001;
  param.C = 1.0;
  param.p = 0.1;
  set_print_string_function(&quiet);
  if (check_parameter(&prob, &param) != nullptr) return false;
  auto fitted = std::make_unique<Model>();
  fitted->m = ::train(&prob, &param);
  if (!fitted->m) return false;
  model_ = std::move(fitted);
  ymean_ = ymean;
  return true;
}

double RatePriorModel::predict(const PageFeatures& features) const {
  if (!model_) return constant_rate();
  const auto v = features.values();
  std::vector<feature_node> row;
  for (std::size_t j = 0; j < v.size(); ++j) row.push_back({static_cast<int>(j + 1), (v[j] - mean_[j]) / scale_[j]});
  row.push_back({-1, 0});
  const double y = ::predict(model_->m, row.data()) + ymean_;
  return std::clamp(std::exp(y), kMinRate, kMaxRate);
}

namespace {

constexpr double PageFeatures::*kFields[] = {
    &PageFeatures::url_depth,     &PageFeatures::dated_path,   &PageFeatures::query,
    &PageFeatures::links,         &PageFeatures::images,       &PageFeatures::mailto,
    &PageFeatures::text_bytes,    &PageFeatures::last_modified, &PageFeatures::etag,
    &PageFeatures::newest_date_days, &PageFeatures::has_dates, &PageFeatures::update_line,
    &PageFeatures::speaks_of_today, &PageFeatures::link_density};
static_assert(std::size(kFields) == PageFeatures::kCount);

}  // namespace

void CrawlRatePrior::set_features(PageId page, const PageFeatures& f) {
  if (page >= features_.size()) {
    features_.resize(page + 1);
    known_.resize(page + 1, 0);
  }
  for (int j = 0; j < PageFeatures::kCount; ++j) features_[page][j] = static_cast<float>(f.*kFields[j]);
  known_[page] = 1;
}

std::optional<PageFeatures> CrawlRatePrior::features(PageId page) const {
  if (!has_features(page)) return std::nullopt;
  PageFeatures f;
  for (int j = 0; j < PageFeatures::kCount; ++j) f.*kFields[j] = features_[page][j];
  return f;
}

bool CrawlRatePrior::train(PageId pages, const std::function<std::uint32_t(PageId)>& observations,
                           const std::function<double(PageId)>& rate) {
  std::vector<PageId> trusted;
  for (PageId id = 0; id < pages; ++id)
    if (has_features(id) && observations(id) >= kTrustedObservations) trusted.push_back(id);
  if (trusted.size() < RatePriorModel::kMinExamples) return false;
  auto model = std::make_unique<RatePriorModel>();
  const double step = std::max(1.0, static_cast<double>(trusted.size()) / static_cast<double>(kMaxExamples));
  for (double k = 0; k < static_cast<double>(trusted.size()); k += step) {
    const PageId id = trusted[static_cast<std::size_t>(k)];
    model->add_example(*features(id), rate(id));
  }
  if (!model->train()) return false;
  trained_on_ = model->examples();
  model_ = std::move(model);
  return true;
}

std::optional<double> CrawlRatePrior::predict(PageId page) const {
  if (!model_ || !has_features(page)) return std::nullopt;
  return model_->predict(*features(page));
}

}  // namespace cronista::revisit
