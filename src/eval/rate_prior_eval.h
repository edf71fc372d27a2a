// How well a page's change rate is known before it has a history: the
// learned prior (revisit/rate_prior.h) against the constant prior, on a
// crawl of the living sample web, against the truth's rates.
//
// From a revisit crawl's database: each page's features from its first
// fetch and its visits (changed or not, and when). Cross-validated: the
// pages are split into folds (by a hash of the URL, or one fold per host);
// for each fold the model is trained the way the crawl trains it — on every
// visit of the other folds' pages (revisit/rate_prior.h, CrawlRatePrior) —
// and predicts every page of the fold from its first fetch alone. The
// constant prior is the crawl's: the changes per second pooled over the
// other folds' visits (revisit::pooled_prior_rate). A third line fits a
// regression of ln λ on the same features (RatePriorModel) to the true
// rates of the other folds' pages: what the features could give with
// perfect targets. No page of a fold is ever in its training.
//
// Error of log λ: ln max(predicted, f) − ln max(true, f), where the floor f
// is one change an hour by default (the living web's default horizon: a
// static page, rate 0, counts as f; so does a prediction below f): mean
// absolute and root mean square, over every page with features, and by
// change class.
#pragma once

#include <string>
#include <vector>

#include "sampleweb/living_web.h"
#include "temporal/status.h"

namespace cronista::eval {

struct RatePriorEvalOptions {
  int folds = 5;         // folds by URL hash (when !by_host)
  bool by_host = false;  // one fold per host instead
  double floor_rate = 1.0 / 3600;  // f, changes per second
};

struct PriorErrorRow {
  std::string prior;  // "constant", "learned", "learned on true rates"
  std::string change_class;  // "all" or the truth's class
  std::size_t pages = 0;
  double mae = 0, rmse = 0;
};

struct RatePriorEval {
  std::size_t pages = 0;          // collection pages with first-fetch features
  std::size_t observations = 0;   // their visits compared with the one before
  std::size_t folds_trained = 0;  // folds whose model trained (the others fall back to the constant)
  double floor_rate = 0;          // f, changes per second
  std::vector<PriorErrorRow> rows;
};

Result<RatePriorEval> evaluate_rate_prior(const std::string& crawl_db, const sampleweb::LivingTruth& truth,
                                          const RatePriorEvalOptions& options);

std::string rate_prior_markdown(const RatePriorEval& e);
std::string rate_prior_csv(const RatePriorEval& e);

}  // namespace cronista::eval
