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

#include <cstddef>
#include <memory>
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

}  // namespace cronista::revisit
