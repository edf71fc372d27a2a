#include "eval/rate_prior_eval.h"

#include <algorithm>
#include <cmath>
#include <functional>
#include <map>
#include <optional>
#include <sstream>

#include "crawler/crawl_store.h"
#include "revisit/change_rate.h"
#include "revisit/content_signature.h"
#include "revisit/page_features.h"
#include "revisit/rate_prior.h"

namespace cronista::eval {
namespace {

// A page of the collection as the crawl saw it.
struct Seen {
  int truth = -1;  // index into LivingTruth::pages
  std::optional<revisit::PageFeatures> features;
  std::vector<revisit::ChangeObservation> history;
  double last_at = -1;
  std::optional<revisit::ContentSignature> signature;
};

// The visits of a crawl database, page by page, read as the crawl reads
// them on --resume: a visit compared with the one before (a 304: no change;
// a revisit: its stored verdict; a download again: the signatures) is an
// observation; one that cannot be compared starts the page's clock again.
Result<std::vector<Seen>> read_crawl(const std::string& db, const sampleweb::LivingTruth& truth) {
  auto store = crawler::open_existing_crawl(db);
  if (!store.ok()) return store.status();
  auto last = (*store)->last_run();
  if (!last.ok()) return last.status();
  if (!*last) return Result<std::vector<Seen>>::Error("database '" + db + "' holds no crawl");
  std::vector<Seen> pages;
  std::map<std::string, std::size_t> index;
  Status st = (*store)->visits([&](const crawler::StoredVisit& v) {
    const auto ms = crawler::iso_ms(v.fetched_at);
    if (!ms) return;
    const double at = static_cast<double>(*ms) / 1000.0;
    auto it = index.find(v.url);
    if (it == index.end()) {
      auto t = truth.by_url.find(v.url);
      if (t == truth.by_url.end() || v.revisit) return;
      Seen s;
      s.truth = t->second;
      s.features = v.features;
      // Features stored before the host and section were kept: from the URL.
      if (s.features && !s.features->host) revisit::set_url_categories(v.url, *s.features);
      s.last_at = at;
      s.signature = v.signature;
      index.emplace(v.url, pages.size());
      pages.push_back(std::move(s));
      return;
    }
    Seen& s = pages[it->second];
    std::optional<bool> changed = v.changed;
    if (v.status == 304) changed = false;
    else if (!v.revisit && s.signature && v.signature) changed = revisit::is_change(*s.signature, *v.signature);
    if (changed && at > s.last_at) s.history.push_back({at - s.last_at, *changed});
    if (v.status != 304 && (!changed || *changed)) s.signature = v.signature;
    s.last_at = at;
  });
  if (!st.ok()) return st;
  return pages;
}

struct Errors {
  std::size_t n = 0;
  double abs = 0, sq = 0;
  void add(double e) {
    ++n;
    abs += std::abs(e);
    sq += e * e;
  }
};

}  // namespace

Result<RatePriorEval> evaluate_rate_prior(const std::string& crawl_db, const sampleweb::LivingTruth& truth,
                                          const RatePriorEvalOptions& options) {
  if (!(options.floor_rate > 0)) return Result<RatePriorEval>::Error("the floor rate must be above 0");
  auto read = read_crawl(crawl_db, truth);
  if (!read.ok()) return read.status();
  std::vector<Seen> pages;
  for (Seen& s : *read)
    if (s.features) pages.push_back(std::move(s));
  if (pages.empty())
    return Result<RatePriorEval>::Error("no page of '" + crawl_db +
                                        "' has first-fetch features and is in the truth (a crawl with --revisit "
                                        "of this living web?)");
  RatePriorEval out;
  out.pages = pages.size();
  out.floor_rate = options.floor_rate;
  const auto fold_of = [&](const Seen& s) {
    const auto& p = truth.pages[static_cast<std::size_t>(s.truth)];
    if (options.by_host) return p.host;
    return static_cast<int>(std::hash<std::string>{}(p.url) % static_cast<std::size_t>(std::max(2, options.folds)));
  };
  int folds = options.by_host ? static_cast<int>(truth.hosts.size()) : std::max(2, options.folds);
  for (const Seen& s : pages) out.observations += s.history.size();

  using PageId = revisit::CrawlRatePrior::PageId;
  // By prior, by class ("all" too): the errors.
  std::map<std::string, std::map<std::string, Errors>> errors;
  const auto truth_rate = [&](const Seen& s) {
    return std::max(truth.pages[static_cast<std::size_t>(s.truth)].rate, out.floor_rate);
  };
  const auto add = [&](const std::string& prior, const Seen& s, double predicted) {
    const double e = std::log(std::max(predicted, out.floor_rate)) - std::log(truth_rate(s));
    errors[prior]["all"].add(e);
    errors[prior][truth.pages[static_cast<std::size_t>(s.truth)].change_class].add(e);
  };
  for (int fold = 0; fold < folds; ++fold) {
    // The crawl's constant: every observation of the training pages pooled.
    double changes = 0, seconds = 0;
    std::size_t observed = 0;
    for (const Seen& s : pages) {
      if (fold_of(s) == fold || s.history.empty()) continue;
      ++observed;
      for (const auto& o : s.history) {
        seconds += o.interval_s;
        changes += o.changed ? 1 : 0;
      }
    }
    const double constant = revisit::pooled_prior_rate(changes, seconds, observed);
    // The crawl's model: every visit of the training pages.
    revisit::CrawlRatePrior learned;
    revisit::RatePriorModel oracle;
    for (PageId id = 0; id < pages.size(); ++id) {
      learned.set_features(id, *pages[id].features);
      if (fold_of(pages[id]) == fold) continue;
      for (const auto& o : pages[id].history) learned.add_observation(id, o.interval_s, o.changed);
      oracle.add_example(*pages[id].features, truth_rate(pages[id]));
    }
    const bool trained = learned.train();
    const bool oracle_trained = oracle.train();
    if (trained) ++out.folds_trained;
    for (PageId id = 0; id < pages.size(); ++id) {
      const Seen& s = pages[id];
      if (fold_of(s) != fold) continue;
      add("constant", s, constant);
      add("learned", s, trained ? *learned.predict(id) : constant);
      add("learned on true rates", s, oracle_trained ? oracle.predict(*s.features) : constant);
    }
  }
  for (const char* prior : {"constant", "learned", "learned on true rates"})
    for (const auto& [cls, e] : errors[prior])
      out.rows.push_back(PriorErrorRow{prior, cls, e.n, e.abs / static_cast<double>(e.n),
                                       std::sqrt(e.sq / static_cast<double>(e.n))});
  return out;
}

std::string rate_prior_markdown(const RatePriorEval& e) {
  std::ostringstream o;
  o << "# Error of log λ of the prior, from the first fetch alone\n\n"
    << e.pages << " pages with first-fetch features, " << e.observations
    << " visits compared with the one before (the model learns from those of the other folds); "
    << e.folds_trained << " folds trained. Rates below " << e.floor_rate
    << " changes/s (static pages among them) count as that.\n\n"
    << "| prior | class | pages | MAE | RMSE |\n|---|---|---:|---:|---:|\n";
  o.setf(std::ios::fixed);
  o.precision(3);
  for (const PriorErrorRow& r : e.rows)
    o << "| " << r.prior << " | " << r.change_class << " | " << r.pages << " | " << r.mae << " | " << r.rmse << " |\n";
  return o.str();
}

std::string rate_prior_csv(const RatePriorEval& e) {
  std::ostringstream o;
  o << "prior,class,pages,mae,rmse\n";
  o.precision(6);
  for (const PriorErrorRow& r : e.rows)
    o << r.prior << "," << r.change_class << "," << r.pages << "," << r.mae << "," << r.rmse << "\n";
  return o.str();
}

}  // namespace cronista::eval
