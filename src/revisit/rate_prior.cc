#include "revisit/rate_prior.h"

#include <algorithm>
#include <cmath>

#include "linear/linear_model.h"
#include "revisit/change_rate.h"

namespace cronista::revisit {

std::vector<double> PageFeatures::values() const {
  return {std::log1p(url_depth),   dated_path, query,
          std::log1p(links),       std::log1p(images), std::log1p(mailto),
          std::log1p(text_bytes),  last_modified,      etag,
          std::log1p(newest_date_days), has_dates,     update_line,
          speaks_of_today,         std::log1p(link_density)};
}

// Each column's mean and standard deviation (1 for a constant column).
Scaling Scaling::of(const std::vector<std::vector<double>>& x) {
  Scaling s;
  if (x.empty()) return s;
  const std::size_t d = x[0].size();
  const double n = static_cast<double>(x.size());
  s.mean.assign(d, 0);
  s.scale.assign(d, 0);
  for (const auto& row : x)
    for (std::size_t j = 0; j < d; ++j) s.mean[j] += row[j] / n;
  for (const auto& row : x)
    for (std::size_t j = 0; j < d; ++j) s.scale[j] += (row[j] - s.mean[j]) * (row[j] - s.mean[j]) / n;
  for (auto& v : s.scale) v = v > 1e-12 ? std::sqrt(v) : 1.0;
  return s;
}

struct RatePriorModel::Model {
  std::unique_ptr<linear::Model> fitted;
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

linear::Row RatePriorModel::row(const std::vector<double>& v) const {
  linear::Row r;
  for (std::size_t j = 0; j < v.size(); ++j) r.push_back({static_cast<int>(j + 1), scaling_.apply(j, v[j])});
  return r;
}

bool RatePriorModel::train() {
  if (x_.size() < kMinExamples) return false;
  const std::size_t n = x_.size();
  scaling_ = Scaling::of(x_);
  double ymean = 0;
  for (double y : y_) ymean += y / static_cast<double>(n);
  std::vector<linear::Row> rows(n);
  std::vector<double> targets(n);
  for (std::size_t i = 0; i < n; ++i) {
    rows[i] = row(x_[i]);
    targets[i] = y_[i] - ymean;  // centred: the model needs no bias term
  }
  linear::FitOptions options;
  options.solver = linear::Solver::kRegression;
  options.eps = 0.001;
  auto fitted = linear::Model::fit(rows, targets, PageFeatures::kCount, options);
  if (!fitted) return false;
  model_ = std::make_unique<Model>(Model{std::move(fitted)});
  ymean_ = ymean;
  return true;
}

double RatePriorModel::predict(const PageFeatures& features) const {
  if (!model_) return constant_rate();
  const double y = model_->fitted->value(row(features.values())) + ymean_;
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
  std::unique_ptr<linear::Model> fitted;
  Scaling scaling;  // of the features, then ln t
  double log_t0 = 0;  // the median ln interval
  // Features 1..kCount, ln t, the bias, then the host's and the section's
  // buckets (liblinear wants the indices increasing).
  linear::Row row(const PageFeatures& f, double log_t) const {
    const std::vector<double> v = f.values();
    linear::Row r;
    for (std::size_t j = 0; j < v.size(); ++j) r.push_back({static_cast<int>(j + 1), scaling.apply(j, v[j])});
    const int n = static_cast<int>(v.size());
    r.push_back({n + 1, scaling.apply(v.size(), log_t)});
    r.push_back({n + 2, 1.0});
    if (f.host) r.push_back({n + 3 + static_cast<int>(f.host % kBuckets), 1.0});
    if (f.section) r.push_back({n + 3 + static_cast<int>(kBuckets + f.section % kBuckets), 1.0});
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
  const std::size_t n = kept_.size();
  auto fitted = std::make_unique<Model>();
  std::vector<std::vector<double>> x(n);
  std::vector<double> log_t(n), y(n);
  for (std::size_t i = 0; i < n; ++i) {
    x[i] = features(kept_[i].page)->values();
    x[i].push_back(kept_[i].log_interval);
    log_t[i] = kept_[i].log_interval;
    y[i] = kept_[i].changed ? 1 : -1;
  }
  fitted->scaling = Scaling::of(x);
  std::nth_element(log_t.begin(), log_t.begin() + static_cast<std::ptrdiff_t>(n / 2), log_t.end());
  fitted->log_t0 = log_t[n / 2];
  std::vector<linear::Row> rows(n);
  for (std::size_t i = 0; i < n; ++i) rows[i] = fitted->row(*features(kept_[i].page), kept_[i].log_interval);
  linear::FitOptions options;
  options.solver = linear::Solver::kLogistic;
  // Strong regularisation: a crawl's first minutes give few changes, and a
  // weaker one (C = 1, 10) overfitted them on the living sample web (seed 1).
  options.c = 0.1;
  fitted->fitted = linear::Model::fit(rows, y, PageFeatures::kCount + 2 + 2 * static_cast<int>(kBuckets), options);
  if (!fitted->fitted) return false;
  trained_on_ = n;
  model_ = std::move(fitted);
  return true;
}

std::optional<double> CrawlRatePrior::predict(PageId page) const {
  if (!model_ || !has_features(page)) return std::nullopt;
  const double changed = model_->fitted->probability(model_->row(*features(page), model_->log_t0), 1);
  const double t0 = std::exp(model_->log_t0);
  return std::clamp(-std::log1p(-std::min(changed, 1 - 1e-12)) / t0, kMinRate, kMaxRate);
}

}  // namespace cronista::revisit
