// A page's change rate before it has a history: predicted from what one
// fetch shows (the Barbosa study's features and ours), learned from the
// crawl's own pages whose histories are long enough to trust.
//
// The model is a linear regression of log λ on the features (liblinear's
// L2-regularised support vector regression, L2R_L2LOSS_SVR), the features
// standardised and counts taken as log(1 + n). Until it has been trained on
// at least `kMinExamples` pages it predicts the mean log rate seen so far
// (the constant prior), and it says which it does.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <vector>

#include "linear/linear_model.h"

namespace cronista::revisit {

struct PageFeatures {
  double url_depth = 0;         // path segments
  double dated_path = 0;        // 1 when the path holds a /YYYY/ or /YYYY/MM/ part
  double query = 0;             // 1 when the URL has a query
  double links = 0;             // <a href> count
  double images = 0;            // <img> count
  double mailto = 0;            // mailto: links
  double text_bytes = 0;        // main text size
  double last_modified = 0;     // 1 when the server sent Last-Modified
  double etag = 0;              // 1 when it sent an ETag
  double newest_date_days = 0;  // days from the newest date the tagger read on the page to the fetch (0: none)
  double has_dates = 0;         // 1 when the tagger read any date
  double update_line = 0;       // 1 when the page says when it was updated ("Atualizado em …")
  double speaks_of_today = 0;   // 1 when it speaks of today or yesterday ("hoje", "ontem")
  double link_density = 0;      // links per 100 bytes of text: hubs and indexes are dense

  static constexpr int kCount = 14;
  std::vector<double> values() const;  // transformed (log1p of counts and sizes)

  // Categories, not numbers (not in values()): 32-bit hashes (FNV-1a) of the
  // page's host and of its section (the host and the first path segment:
  // /wiki/, /2024/, /ultimas/), 0 when unknown. CrawlRatePrior learns a
  // weight for each (hashed into buckets); RatePriorModel ignores them.
  std::uint32_t host = 0;
  std::uint32_t section = 0;
};

// Each feature's mean and standard deviation over a training set, to
// standardise it (1 for a constant feature).
struct Scaling {
  std::vector<double> mean, scale;
  static Scaling of(const std::vector<std::vector<double>>& x);
  double apply(std::size_t j, double v) const { return (v - mean[j]) / scale[j]; }
};

class RatePriorModel {
 public:
  static constexpr std::size_t kMinExamples = 20;

  RatePriorModel();
  ~RatePriorModel();
  RatePriorModel(const RatePriorModel&) = delete;
  RatePriorModel& operator=(const RatePriorModel&) = delete;

  // A page whose rate is known well enough (a long history's estimate).
  void add_example(const PageFeatures& features, double rate);
  std::size_t examples() const { return x_.size(); }

  // Fits the regression on every example so far; false (and the constant
  // prior kept) with fewer than kMinExamples.
  bool train();
  bool trained() const { return model_ != nullptr; }

  // The predicted rate (changes per second), or the constant prior.
  double predict(const PageFeatures& features) const;
  double constant_rate() const;

 private:
  struct Model;
  linear::Row row(const std::vector<double>& values) const;
  std::vector<std::vector<double>> x_;
  std::vector<double> y_;  // log rates
  Scaling scaling_;
  double ymean_ = 0;
  std::unique_ptr<Model> model_;
};

// The learned prior of a revisiting crawl, trained on the crawl's visits
// themselves rather than on per-page estimates: a page whose history is
// long enough to estimate is a page the schedule chose to visit often (a
// fast one), so learning from those alone teaches the model that every
// page is fast. Each visit compared with the one before is an example —
// the page's features and ln t (t the interval since that visit), labelled
// changed or not — for a logistic regression (liblinear's L2-regularised
// L2R_LR, C = 0.1), which for a Poisson page approximates
//   P(change within t) = 1 − e^{−λt},  logit P ≈ ln λ + ln t  (small λt).
// The predicted rate of a page is then the one that gives its predicted
// change probability over the median interval t0 of the examples:
// λ = −ln(1 − P(t0)) / t0. Every visit counts alike, whichever page; a page
// the schedule rarely visits still contributes what it was seen to do.
//
// Besides the numeric features, the page's host and section (their hashes
// in kBuckets buckets each) are categories with a weight of their own, so
// that what a site or a part of it does is learned from its other pages.
//
// Memory: each page's features from its first fetch (64 bytes a page, by
// the schedule's page id), and at most kMaxExamples observations, a uniform
// sample of all so far (reservoir sampling, 12 bytes each). It trains only
// with at least kMinChanges changed and kMinChanges unchanged observations;
// until then it predicts nothing and the crawl keeps its constant prior.
class CrawlRatePrior {
 public:
  using PageId = std::uint32_t;
  static constexpr std::size_t kMaxExamples = 20000;
  static constexpr std::size_t kMinChanges = 10;
  static constexpr std::uint32_t kBuckets = 4096;

  CrawlRatePrior();
  ~CrawlRatePrior();
  CrawlRatePrior(CrawlRatePrior&&) noexcept;
  CrawlRatePrior& operator=(CrawlRatePrior&&) noexcept;

  void set_features(PageId page, const PageFeatures& features);
  bool has_features(PageId page) const { return page < known_.size() && known_[page]; }
  std::optional<PageFeatures> features(PageId page) const;

  // A visit of `page` after `interval_s` seconds that saw a change or not
  // (ignored when the page has no features or the interval is not > 0).
  void add_observation(PageId page, double interval_s, bool changed);
  std::size_t observations() const { return seen_; }
  std::size_t changes() const { return changes_; }

  // Fits the model on the observations kept; false (and the last model
  // kept) when there are too few changed or unchanged ones.
  bool train();
  bool trained() const { return model_ != nullptr; }
  std::size_t trained_on() const { return trained_on_; }

  // The predicted rate of a page with features, once trained.
  std::optional<double> predict(PageId page) const;

 private:
  struct Observation {
    PageId page;
    float log_interval;
    bool changed;
  };
  struct Model;
  std::vector<std::array<float, PageFeatures::kCount>> features_;
  std::vector<std::array<std::uint32_t, 2>> categories_;  // host, section
  std::vector<std::uint8_t> known_;
  std::vector<Observation> kept_;
  std::size_t seen_ = 0, changes_ = 0, unchanged_ = 0;
  std::uint64_t rng_ = 0x9e3779b97f4a7c15ULL;  // the reservoir's choices (splitmix64)
  std::unique_ptr<Model> model_;
  std::size_t trained_on_ = 0;
};

}  // namespace cronista::revisit
