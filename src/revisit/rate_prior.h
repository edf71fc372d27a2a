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
  std::vector<std::vector<double>> x_;
  std::vector<double> y_;  // log rates
  std::vector<double> mean_, scale_;
  double ymean_ = 0;
  std::unique_ptr<Model> model_;
};

// The learned prior of a revisiting crawl. It keeps each page's features
// from its first fetch (56 bytes a page, by the schedule's page id) and,
// when asked, trains a RatePriorModel on the pages whose histories can be
// trusted — at least kTrustedObservations visits compared with the one
// before, their estimated rate the target — at most kMaxExamples of them
// (evenly spaced by id), then predicts the prior of every page from its
// features. Until it has trained (kMinExamples trusted pages) it predicts
// nothing and the crawl keeps its constant prior.
class CrawlRatePrior {
 public:
  using PageId = std::uint32_t;
  static constexpr std::uint32_t kTrustedObservations = 4;
  static constexpr std::size_t kMaxExamples = 20000;

  void set_features(PageId page, const PageFeatures& features);
  bool has_features(PageId page) const { return page < known_.size() && known_[page]; }
  std::optional<PageFeatures> features(PageId page) const;

  // Trains on the pages of ids [0, pages) that have features and at least
  // kTrustedObservations observations (`observations(id)`), with target
  // `rate(id)`. False, and the last model kept, when too few pages qualify.
  bool train(PageId pages, const std::function<std::uint32_t(PageId)>& observations,
             const std::function<double(PageId)>& rate);
  bool trained() const { return model_ != nullptr; }
  std::size_t trained_on() const { return trained_on_; }

  // The predicted rate of a page with features, once trained.
  std::optional<double> predict(PageId page) const;

 private:
  std::vector<std::array<float, PageFeatures::kCount>> features_;
  std::vector<std::uint8_t> known_;
  std::unique_ptr<RatePriorModel> model_;
  std::size_t trained_on_ = 0;
};

}  // namespace cronista::revisit
