// Page analysis on worker threads (crawl.h): a fetched HTML response becomes
// a PageRecord (charset → UTF-8, HTML → text with links, tag, segment, scope
// of each segment, relevance) and the list of links to follow, resolved and
// scored here so the event loop does not parse them again.
#pragma once

#include <condition_variable>
#include <cstdint>
#include <deque>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include "crawler/crawl.h"
#include "crawler/crawl_store.h"
#include "crawler/fetcher.h"
#include "crawler/frontier.h"
#include "crawler/title_words.h"
#include "crawler/url.h"
#include "revisit/page_features.h"
#include "temporal/tagger.h"

namespace cronista::crawler {

// A link to follow (in scope, or any link in general mode), resolved on the
// worker so the event loop does not parse it again. In temporal mode a link
// of an in-scope boilerplate segment (a dated sidebar, a header) is followed
// only with CrawlOptions::follow_furniture, and with the lowest weight: it is
// queued without counting as a backlink, so it waits behind every link of
// in-scope main text.
struct FoundLink {
  CanonicalUrl url;
  bool counts = true;         // counts as a backlink of its target
  std::uint8_t penalty = 0;   // link context score (link_penalty)
  std::string anchor;         // temporal mode: for the topic penalty
  bool hub = false;           // a feed of the page (<link rel="alternate">), followed only when revisiting
};

// The topic penalty of a link (temporal mode, with link penalties): from 0
// when every known word of its anchor led to relevant pages so far, to
// kTopicPenalty when none did; kTopicPenalty / 2 when the anchor has no
// word seen often enough (TitleWords).
int topic_penalty(const TitleWords& words, std::string_view anchor);

struct AnalysisTask {
  FrontierEntry entry;
  std::int64_t revisit_page = -1;  // a revisit: the page's id in the revisit schedule
  std::unique_ptr<PageRecord> page;
  std::string body;
  std::string content_type;
  std::string last_modified;
};

struct AnalysisResult {
  FrontierEntry entry;
  std::int64_t revisit_page = -1;
  std::unique_ptr<PageRecord> page;
  std::vector<FoundLink> links;
};

class AnalysisPool {
 public:
  // `cues`: the words of the learned rate prior's features; with them, the
  // first download of a page in a revisiting crawl gets its features
  // (PageRecord::features).
  AnalysisPool(int threads, const temporal::Tagger* tagger, const CrawlOptions& options, Fetcher* waker,
               const revisit::FeatureCues* cues = nullptr)
      : tagger_(tagger), options_(options), waker_(waker), cues_(cues) {
    for (int i = 0; i < threads; ++i) threads_.emplace_back([this] { work(); });
  }
  ~AnalysisPool() {
    {
      std::lock_guard lk(mu_);
      stopping_ = true;
    }
    cv_.notify_all();
    for (auto& t : threads_) t.join();
  }
  void submit(AnalysisTask task) {
    {
      std::lock_guard lk(mu_);
      tasks_.push_back(std::move(task));
      ++pending_;
    }
    cv_.notify_one();
  }
  std::vector<AnalysisResult> take() {
    std::lock_guard lk(mu_);
    std::vector<AnalysisResult> out;
    out.reserve(results_.size());
    for (auto& r : results_) out.push_back(std::move(r));
    results_.clear();
    pending_ -= out.size();
    return out;
  }
  // Tasks submitted and not yet taken back.
  std::size_t pending() const {
    std::lock_guard lk(mu_);
    return pending_;
  }
  bool has_results() const {
    std::lock_guard lk(mu_);
    return !results_.empty();
  }

 private:
  void work();
  AnalysisResult analyse(AnalysisTask task) const;

  const temporal::Tagger* tagger_;
  const CrawlOptions& options_;
  Fetcher* waker_;
  const revisit::FeatureCues* cues_;
  mutable std::mutex mu_;
  std::condition_variable cv_;
  std::deque<AnalysisTask> tasks_;
  std::vector<AnalysisResult> results_;
  std::size_t pending_ = 0;
  bool stopping_ = false;
  std::vector<std::thread> threads_;
};

}  // namespace cronista::crawler
