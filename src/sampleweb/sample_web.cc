// Generating the sample web (see sample_web.h and docs/sample-web.md): the
// entry point and the order of the work. sample_web_generator.h lists the
// files that do each part.
//
// Approach: first decide every page (site, kind, the fact it is about, its
// publication date, its path), then write each page's HTML and, beside it,
// the truth: the sections of the page (paragraphs, list items, page
// furniture) with the periods their text states and the links they hold.
// A sentence and its truth come from the same call, so they cannot drift
// apart: `explicit_sentence` picks a date form from forms.txt and returns the
// text together with the day span that form denotes ("Em junho de 1944" →
// 1944-06-01…1944-06-30, whatever the fact's exact day).
//
// Locality: pages are ordered by the middle of their fact's date; a link in
// a paragraph goes, most of the time, to a page whose date lies within a
// year of the paragraph's, so a crawler that follows only in-scope
// paragraphs stays near the scope. Furniture links go anywhere.
#include "sampleweb/sample_web.h"

#include <algorithm>

#include "sampleweb/sample_web_generator.h"
#include "sampleweb/sample_web_replicas.h"
#include "temporal/tagger.h"

namespace cronista::sampleweb {

std::string default_sample_corpora_dir() { return temporal::default_home() + "/corpora/sample-web"; }

namespace gen {

Result<SampleWebSummary> Generator::run() {
  for (std::size_t i = 0; i < c_.facts.size(); ++i) {
    const int w = c_.files[static_cast<std::size_t>(c_.facts[i].file)].weight;
    // Each file's weight is shared among its facts: scale by 100 / count.
    const int count = static_cast<int>(std::count_if(c_.facts.begin(), c_.facts.end(),
                                                     [&](const Fact& f) { return f.file == c_.facts[i].file; }));
    const int copies = std::max(1, (w * 100) / std::max(1, count));
    if (w > 0)
      for (int k = 0; k < copies; ++k) fact_picks_.push_back(static_cast<int>(i));
  }
  if (fact_picks_.empty()) return Result<SampleWebSummary>::Error("no fact has a positive weight");

  // Content pages, site by weight; then their order by date.
  int total_weight = 0;
  for (int w : kSiteWeight) total_weight += w;
  for (int i = 0; i < o_.pages; ++i) {
    int roll = rng_.uniform(0, total_weight - 1), site = 0;
    while (roll >= kSiteWeight[site]) roll -= kSiteWeight[site++];
    if (!plan_content_page(site)) plan_content_page(kEnc);
  }
  articles_of_fact_.assign(c_.facts.size(), -1);
  for (int id = 0; id < static_cast<int>(pages_.size()); ++id) {
    content_by_center_.push_back(id);
    content_of_site_[pages_[id].site].push_back(id);
    if (pages_[id].kind == Kind::Article && articles_of_fact_[static_cast<std::size_t>(pages_[id].fact)] < 0)
      articles_of_fact_[static_cast<std::size_t>(pages_[id].fact)] = id;
  }
  std::stable_sort(content_by_center_.begin(), content_by_center_.end(),
                   [&](int a, int b) { return pages_[a].center < pages_[b].center; });
  // Faulty content pages: some malformed, some with invalid UTF-8 on the Brazilian site.
  for (int id : content_by_center_) {
    if (rng_.percent(2)) pages_[id].malformed = true;
    if (pages_[id].site == kFolha && rng_.percent(1)) pages_[id].bad_utf8 = true;
  }
  if (!content_of_site_[kFolha].empty()) pages_[content_of_site_[kFolha].front()].bad_utf8 = true;
  plan_structure();

  SampleWebSummary summary;
  if (Status st = write_all(&summary); !st.ok()) return st;
  if (o_.living)
    if (Status st = write_living(&summary); !st.ok()) return st;
  if (o_.replicas) {
    auto r = write_replica_web(c_, o_, o_.first_host + kSiteCount);
    if (!r) return r.status();
    summary.replica_hosts = r->hosts;
    summary.replica_pages = r->pages;
    summary.replica_clusters = r->clusters;
    summary.replicas = r->replicas;
    summary.replica_negatives = r->hard_negatives;
  }
  return summary;
}

}  // namespace gen

Result<SampleWebSummary> generate_sample_web(const SampleWebOptions& options) {
  if (options.pages < 50) return Result<SampleWebSummary>::Error("--pages must be at least 50");
  if (options.living && !(options.living_horizon_s >= 1 && options.living_horizon_s <= 7 * 86400))
    return Result<SampleWebSummary>::Error("--duration must be 1-604800 seconds");
  if (options.port < 1 || options.port > 65535) return Result<SampleWebSummary>::Error("--port must be 1-65535");
  if (options.first_host < 2 ||
      options.first_host + gen::kSiteCount + (options.replicas ? kReplicaWebAddresses : 0) > 255)
    return Result<SampleWebSummary>::Error("first host address out of range");
  auto corpus = SampleCorpus::load(options.corpora_dir.empty() ? default_sample_corpora_dir() : options.corpora_dir);
  if (!corpus) return corpus.status();
  gen::Generator g(*corpus, options);
  return g.run();
}

}  // namespace cronista::sampleweb
