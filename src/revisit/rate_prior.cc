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
    categories_.resize(page + 1);
    known_.resize(page + 1, 0);
  }
  for (int j = 0; j < PageFeatures::kCount; ++j) features_[page][j] = static_cast<float>(f.*kFields[j]);
  categories_[page] = {f.host, f.section};
  known_[page] = 1;
}

std::optional<PageFeatures> CrawlRatePrior::features(PageId page) const {
  if (!has_features(page)) return std::nullopt;
  PageFeatures f;
  for (int j = 0; j < PageFeatures::kCount; ++j) f.*kFields[j] = features_[page][j];
  f.host = categories_[page][0];
  f.section = categories_[page][1];
  return f;
}

namespace {

std::uint64_t splitmix64(std::uint64_t& state) {
  std::uint64_t z = (state += 0x9e3779b97f4a7c15ULL);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

}  // namespace

struct CrawlRatePrior::Model {
  model* m = nullptr;
  std::vector<double> mean, scale;  // of the features, then ln t
  double log_t0 = 0;                // the median ln interval
  ~Model() {
    if (m) free_and_destroy_model(&m);
  }
  // Features 1..kCount, ln t, the bias, then the host's and the section's
  // buckets (liblinear wants the indices increasing), and the end mark.
  std::vector<feature_node> row(const PageFeatures& f, double log_t) const {
    const std::vector<double> v = f.values();
    std::vector<feature_node> r;
    for (std::size_t j = 0; j < v.size(); ++j) r.push_back({static_cast<int>(j + 1), (v[j] - mean[j]) / scale[j]});
    const int n = static_cast<int>(v.size());
    r.push_back({n + 1, (log_t - mean[v.size()]) / scale[v.size()]});
    r.push_back({n + 2, 1.0});
    if (f.host) r.push_back({n + 3 + static_cast<int>(f.host % kBuckets), 1.0});
    if (f.section) r.push_back({n + 3 + static_cast<int>(kBuckets + f.section % kBuckets), 1.0});
    r.push_back({-1, 0});
    return r;
  }
};

CrawlRatePrior::CrawlRatePrior() = default;
CrawlRatePrior::~CrawlRatePrior() = default;
CrawlRatePrior::CrawlRatePrior(CrawlRatePrior&&) noexcept = default;
CrawlRatePrior& CrawlRatePrior::operator=(CrawlRatePrior&&) noexcept = default;

void CrawlRatePrior::add_observation(PageId page, double interval_s, bool changed) {
  if (!has_features(page) || !(interval_s > 0) || !std::isfinite(interval_s)) return;
  ++seen_;
  const Observation o{page, static_cast<float>(std::log(interval_s)), changed};
  if (kept_.size() < kMaxExamples) {
    kept_.push_back(o);
  } else {
    // Reservoir sampling: the kept ones stay a uniform sample of all seen.
    const std::uint64_t k = splitmix64(rng_) % seen_;
    if (k >= kMaxExamples) return;
    const Observation& out = kept_[k];
    (out.changed ? changes_ : unchanged_) -= 1;
    kept_[k] = o;
  }
  (changed ? changes_ : unchanged_) += 1;
}

bool CrawlRatePrior::train() {
  if (changes_ < kMinChanges || unchanged_ < kMinChanges) return false;
  const std::size_t n = kept_.size(), d = PageFeatures::kCount + 1;
  std::vector<std::vector<double>> x(n);
  std::vector<double> y(n);
  auto fitted = std::make_unique<Model>();
  fitted->mean.assign(d, 0);
  fitted->scale.assign(d, 0);
  std::vector<double> log_t(n);
  for (std::size_t i = 0; i < n; ++i) {
    x[i] = features(kept_[i].page)->values();
    x[i].push_back(kept_[i].log_interval);
    log_t[i] = kept_[i].log_interval;
    y[i] = kept_[i].changed ? 1 : -1;
    for (std::size_t j = 0; j < d; ++j) fitted->mean[j] += x[i][j] / static_cast<double>(n);
  }
  for (const auto& r : x)
    for (std::size_t j = 0; j < d; ++j)
      fitted->scale[j] += (r[j] - fitted->mean[j]) * (r[j] - fitted->mean[j]) / static_cast<double>(n);
  for (auto& sc : fitted->scale) sc = sc > 1e-12 ? std::sqrt(sc) : 1.0;
  std::nth_element(log_t.begin(), log_t.begin() + static_cast<std::ptrdiff_t>(n / 2), log_t.end());
  fitted->log_t0 = log_t[n / 2];

  std::vector<std::vector<feature_node>> rows(n);
  std::vector<feature_node*> ptrs(n);
  for (std::size_t i = 0; i < n; ++i) {
    rows[i] = fitted->row(*features(kept_[i].page), kept_[i].log_interval);
    ptrs[i] = rows[i].data();
  }
  problem prob{};
  prob.l = static_cast<int>(n);
  prob.n = static_cast<int>(d + 1 + 2 * kBuckets);
  prob.y = y.data();
  prob.x = ptrs.data();
  prob.bias = -1;  // the bias is the last feature above
  parameter param{};
  param.solver_type = L2R_LR;
  param.eps = 0.01;
  // Strong regularisation: a crawl's first minutes give few changes, and a
  // weaker one (C = 1, 10) overfitted them on the living sample web (seed 1).
  param.C = 0.1;
  set_print_string_function(&quiet);
  if (check_parameter(&prob, &param) != nullptr) return false;
  fitted->m = ::train(&prob, &param);
  if (!fitted->m) return false;
  trained_on_ = n;
  model_ = std::move(fitted);
  return true;
}

std::optional<double> CrawlRatePrior::predict(PageId page) const {
  if (!model_ || !has_features(page)) return std::nullopt;
  const auto row = model_->row(*features(page), model_->log_t0);
  double p[2] = {0, 0};
  ::predict_probability(model_->m, row.data(), p);
  // liblinear orders the probabilities by its labels, the first seen first.
  const double changed = model_->m->label[0] == 1 ? p[0] : p[1];
  const double t0 = std::exp(model_->log_t0);
  return std::clamp(-std::log1p(-std::min(changed, 1 - 1e-12)) / t0, kMinRate, kMaxRate);
}

}  // namespace cronista::revisit
