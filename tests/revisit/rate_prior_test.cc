// The change-rate prior from page features: trained on a synthetic
// population whose rates depend, imperfectly, on what one fetch shows.
#include <gtest/gtest.h>

#include <cmath>
#include <iostream>
#include <random>

#include "revisit/rate_prior.h"

namespace cronista::revisit {
namespace {

struct Example {
  PageFeatures f;
  double rate;
};

// Five kinds of page (home and section pages, fresh news, blog posts,
// encyclopedia articles, static pages), with features that overlap between
// kinds and rates scattered around each kind's (log-normal, σ = 0.7).
Example draw(std::mt19937_64& rng) {
  std::uniform_int_distribution<int> kind(0, 4);
  std::normal_distribution<double> noise(0, 0.7);
  std::uniform_real_distribution<double> u(0, 1);
  Example e;
  PageFeatures& f = e.f;
  double base;
  switch (kind(rng)) {
    case 0:  // home and section pages
      f.url_depth = u(rng) < 0.5 ? 0 : 1, f.links = 80 + 120 * u(rng), f.images = 10 + 20 * u(rng);
      f.text_bytes = 3000 + 4000 * u(rng), f.speaks_of_today = u(rng) < 0.8, f.has_dates = 1;
      f.newest_date_days = u(rng) < 0.9 ? 0 : 1, base = 1.0 / 120;
      break;
    case 1:  // news articles of the last days
      f.url_depth = 3, f.dated_path = u(rng) < 0.8, f.links = 20 + 30 * u(rng), f.images = 1 + 3 * u(rng);
      f.text_bytes = 2000 + 5000 * u(rng), f.has_dates = 1, f.newest_date_days = 5 * u(rng);
      f.update_line = u(rng) < 0.4, f.speaks_of_today = u(rng) < 0.3, base = 1.0 / 1800;
      break;
    case 2:  // blog posts gaining comments
      f.url_depth = 2 + (u(rng) < 0.5), f.links = 15 + 20 * u(rng), f.mailto = u(rng) < 0.5;
      f.text_bytes = 1500 + 3000 * u(rng), f.has_dates = u(rng) < 0.8, f.newest_date_days = 30 + 300 * u(rng);
      base = 1.0 / 7200;
      break;
    case 3:  // encyclopedia articles
      f.url_depth = 2, f.links = 40 + 60 * u(rng), f.images = 2 * u(rng), f.text_bytes = 8000 + 20000 * u(rng);
      f.has_dates = 1, f.newest_date_days = 3650 + 20000 * u(rng), f.last_modified = u(rng) < 0.7;
      f.etag = f.last_modified, base = 1.0 / 86400;
      break;
    default:  // static pages
      f.url_depth = 1, f.links = 5 + 10 * u(rng), f.text_bytes = 500 + 1000 * u(rng);
      f.last_modified = u(rng) < 0.9, f.etag = u(rng) < 0.9, base = 1.0 / (30 * 86400);
  }
  f.link_density = f.text_bytes > 0 ? 100 * f.links / f.text_bytes : 0;
  e.rate = base * std::exp(noise(rng));
  return e;
}

TEST(RatePrior, BeforeTrainingItPredictsTheMeanLogRate) {
  RatePriorModel m;
  PageFeatures f;
  m.add_example(f, 1.0 / 100);
  m.add_example(f, 1.0 / 10000);
  EXPECT_FALSE(m.train());
  EXPECT_NEAR(m.predict(f), 1.0 / 1000, 1e-9);
}

TEST(RatePrior, TheFeaturePriorBeatsTheConstantPriorOnTheErrorOfLogRate) {
  std::mt19937_64 rng(9);
  RatePriorModel m;
  for (int i = 0; i < 500; ++i) {
    const auto e = draw(rng);
    m.add_example(e.f, e.rate);
  }
  ASSERT_TRUE(m.train());
  double model_error = 0, constant_error = 0;
  const int n = 500;
  for (int i = 0; i < n; ++i) {
    const auto e = draw(rng);
    model_error += std::abs(std::log(m.predict(e.f)) - std::log(e.rate)) / n;
    constant_error += std::abs(std::log(m.constant_rate()) - std::log(e.rate)) / n;
  }
  // The kinds span 5.5 orders of magnitude; the noise alone leaves ~0.56.
  std::cerr << "log-rate error: model " << model_error << ", constant " << constant_error << "\n";
  EXPECT_LT(model_error, 0.5 * constant_error) << "model " << model_error << ", constant " << constant_error;
}

}  // namespace
}  // namespace cronista::revisit
