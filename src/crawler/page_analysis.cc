// Page analysis; see page_analysis.h.
#include "crawler/page_analysis.h"

#include <curl/curl.h>

#include <algorithm>
#include <cmath>
#include <ctime>
#include <optional>

#include "crawler/charset.h"
#include "crawler/feeds.h"
#include "replicas/shingles.h"
#include "revisit/content_signature.h"
#include "temporal/html_text.h"
#include "temporal/segmenter.h"

namespace cronista::crawler {

namespace {

std::optional<temporal::Date> http_date(const std::string& value) {
  if (value.empty()) return std::nullopt;
  const time_t t = curl_getdate(value.c_str(), nullptr);
  if (t < 0) return std::nullopt;
  std::tm tm{};
  gmtime_r(&t, &tm);
  return temporal::Date{tm.tm_year + 1900, tm.tm_mon + 1, tm.tm_mday};
}

constexpr int kTopicPenalty = 40;

// How far inside the period a segment (or an anchor) speaks, in days: the
// mean, over its expressions (`which`) with a placeable moment, of the distance from the moment's
// middle to the nearer end of the period (0 at or beyond an end).
double margin_days(const std::vector<std::size_t>& which, const std::vector<temporal::TemporalExpression>& expressions,
                   const temporal::DayRange& period) {
  double sum = 0;
  int n = 0;
  for (std::size_t i : which) {
    if (i >= expressions.size()) continue;
    std::optional<temporal::DayRange> hull;
    for (const temporal::Chronon& c : expressions[i].chronons) {
      const auto r = c.days();
      if (!r) continue;
      if (!hull) hull = r;
      hull->first = std::min(hull->first, r->first);
      hull->last = std::max(hull->last, r->last);
    }
    if (!hull) continue;
    const double mid = (static_cast<double>(hull->first) + hull->last) / 2;
    sum += std::max(0.0, std::min(mid - period.first, period.last - mid));
    ++n;
  }
  return n == 0 ? 0.0 : sum / n;
}

// The temporal crawl's link score. Pages link mostly to pages about times
// near the linking text, so a link in a segment about the middle of the
// period more likely leads into it than one in a segment about its first
// or last weeks: the penalty falls linearly from max_penalty (a segment at
// an end of the period) to 0 (a segment a year or more inside it).
std::uint8_t link_penalty(double margin, int max_penalty) {
  constexpr double kReachDays = 365;
  const double p = max_penalty * std::max(0.0, 1.0 - margin / kReachDays);
  return static_cast<std::uint8_t>(std::clamp(std::lround(p), 0L, 255L));
}

// A link in a paragraph with no date of its own is in scope only through
// the dated paragraph before it (segmenter.h): weaker evidence, so it waits
// behind every link of a dated paragraph with as many backlinks (a penalty
// of 50 takes one backlink's priority, 50, to the level of none, 100).
constexpr std::uint8_t kUndatedBlockPenalty = 50;

// What the dates written in a link's own anchor text say ("1942", "a
// batalha de 6 de junho de 1944"): nothing (no placeable date), or whether
// they all lie in the period. A dated anchor names the target's time more
// directly than the paragraph around it, so it decides: a link to "1950" in
// a paragraph about 1944 is not followed, a link to "1942" in a list of
// years from 1938 to 1946 is.
enum class AnchorDates { None, In, Out };

struct AnchorVerdict {
  AnchorDates dates = AnchorDates::None;
  std::vector<std::size_t> expressions;  // those inside the anchor
};

std::vector<AnchorVerdict> anchor_verdicts(const temporal::TextDocument& doc,
                                           const std::vector<temporal::TemporalExpression>& expressions,
                                           const temporal::Period& period) {
  std::vector<std::pair<std::size_t, std::size_t>> by_start;  // (start, index)
  by_start.reserve(expressions.size());
  for (std::size_t i = 0; i < expressions.size(); ++i) by_start.emplace_back(expressions[i].start, i);
  std::sort(by_start.begin(), by_start.end());
  std::vector<AnchorVerdict> out(doc.links.size());
  for (std::size_t l = 0; l < doc.links.size(); ++l) {
    const temporal::Link& link = doc.links[l];
    bool placeable = false, all_in = true;
    auto it = std::lower_bound(by_start.begin(), by_start.end(), std::make_pair(link.start, std::size_t{0}));
    for (; it != by_start.end() && it->first < link.end; ++it) {
      const temporal::TemporalExpression& e = expressions[it->second];
      if (e.end > link.end) continue;
      bool used = false;
      for (const temporal::Chronon& c : e.chronons) {
        if (!c.days()) continue;
        placeable = used = true;
        all_in = all_in && temporal::chronon_in_period(c, period);
      }
      if (used) out[l].expressions.push_back(it->second);
    }
    if (placeable) out[l].dates = all_in ? AnchorDates::In : AnchorDates::Out;
  }
  return out;
}

// The month a URL's path dates its page to (/YYYY/MM/ or /YYYY/MM/DD/, as
// news sites and archives publish by date), or nullopt.
std::optional<temporal::DayRange> url_month(std::string_view path) {
  auto digit = [&](std::size_t i) { return i < path.size() && path[i] >= '0' && path[i] <= '9'; };
  for (std::size_t i = 0; i + 8 <= path.size(); ++i) {
    if (path[i] != '/' || !digit(i + 1) || !digit(i + 2) || !digit(i + 3) || !digit(i + 4) || path[i + 5] != '/' ||
        !digit(i + 6) || !digit(i + 7) || (i + 8 < path.size() && path[i + 8] != '/'))
      continue;
    const int year = std::stoi(std::string(path.substr(i + 1, 4)));
    const int month = std::stoi(std::string(path.substr(i + 6, 2)));
    if (year < 1900 || year > 2199 || month < 1 || month > 12) continue;
    return temporal::DayRange{temporal::Date{year, month, 1}.day_number(),
                              temporal::Date{year, month, temporal::days_in_month(year, month)}.day_number()};
  }
  return std::nullopt;
}

// A page published before the period begins speaks of it at most as a
// future (a plan, a forecast), so a link to a URL dated before the period
// waits behind the links of dated paragraphs with as many backlinks.
constexpr int kPublishedBeforePenalty = 50;

// For each link of the document, whether the block holding it has an
// expression with a placeable date.
std::vector<bool> links_in_dated_blocks(const temporal::TextDocument& doc,
                                        const std::vector<temporal::TemporalExpression>& expressions) {
  std::vector<std::size_t> starts;
  starts.reserve(doc.blocks.size());
  for (const temporal::Block& b : doc.blocks) starts.push_back(b.start);
  auto block_of = [&](std::size_t at) -> std::optional<std::size_t> {
    const auto it = std::upper_bound(starts.begin(), starts.end(), at);
    if (it == starts.begin()) return std::nullopt;
    const std::size_t b = static_cast<std::size_t>(it - starts.begin()) - 1;
    return at < doc.blocks[b].end ? std::optional<std::size_t>(b) : std::nullopt;
  };
  std::vector<bool> dated(doc.blocks.size(), false);
  for (const temporal::TemporalExpression& e : expressions) {
    if (std::none_of(e.chronons.begin(), e.chronons.end(), [](const temporal::Chronon& c) { return c.days(); }))
      continue;
    if (auto b = block_of(e.start)) dated[*b] = true;
  }
  std::vector<bool> out(doc.links.size(), false);
  for (std::size_t l = 0; l < doc.links.size(); ++l)
    if (auto b = block_of(doc.links[l].start)) out[l] = dated[*b];
  return out;
}

}  // namespace

int topic_penalty(const TitleWords& words, std::string_view anchor) {
  const std::optional<double> e = words.estimate(anchor);
  if (!e) return kTopicPenalty / 2;
  return static_cast<int>(std::lround(kTopicPenalty * (1.0 - *e)));
}

void AnalysisPool::work() {
  for (;;) {
    AnalysisTask task;
    {
      std::unique_lock lk(mu_);
      cv_.wait(lk, [&] { return stopping_ || !tasks_.empty(); });
      if (tasks_.empty()) return;
      task = std::move(tasks_.front());
      tasks_.pop_front();
    }
    AnalysisResult r = analyse(std::move(task));
    {
      std::lock_guard lk(mu_);
      results_.push_back(std::move(r));
    }
    waker_->wake();
  }
}

AnalysisResult AnalysisPool::analyse(AnalysisTask task) const {
  AnalysisResult r;
  r.entry = std::move(task.entry);
  r.revisit_page = task.revisit_page;
  r.page = std::move(task.page);
  PageRecord& p = *r.page;
  DecodedText decoded = decode_to_utf8(task.body, task.content_type);
  p.charset = decoded.charset;
  p.charset_from = decoded.charset_from;
  p.replaced_bytes = static_cast<std::int64_t>(decoded.replaced);

  p.doc = temporal::html_document(decoded.utf8);
  std::optional<temporal::Date> dct = p.doc.dct;
  std::string dct_source = dct ? "html" : "";
  if (!dct) {
    dct = http_date(task.last_modified);
    if (dct) dct_source = "http-last-modified";
  }
  if (tagger_) p.expressions = tagger_->tag(p.doc.text, dct);
  p.segments_found = temporal::segment(p.doc, p.expressions);

  std::vector<std::optional<std::size_t>> segment_of(p.doc.links.size());
  p.segment_in_scope.resize(p.segments_found.size());
  bool relevant = false;
  for (std::size_t i = 0; i < p.segments_found.size(); ++i) {
    const temporal::Segment& s = p.segments_found[i];
    const bool in = temporal::segment_in_scope(s, options_.period, options_.threshold);
    p.segment_in_scope[i] = in;
    // Relevance rests on main text: a dated header, footer or sidebar (page
    // furniture) never makes a page relevant, whatever its dates.
    relevant = relevant || (in && !s.boilerplate);
    p.segments_in_scope += in ? 1 : 0;
    p.chronons += static_cast<std::int64_t>(s.chronons.size());
    for (std::size_t l : s.links)
      if (l < segment_of.size()) segment_of[l] = i;
  }
  p.segments = static_cast<std::int64_t>(p.segments_found.size());
  p.relevant = relevant;
  std::vector<std::uint8_t> penalties(p.segments_found.size(), 0);
  std::vector<bool> dated_block(p.doc.links.size(), true);
  if (options_.temporal_mode && options_.max_link_penalty > 0) dated_block = links_in_dated_blocks(p.doc, p.expressions);
  if (options_.temporal_mode)
    for (std::size_t i = 0; i < p.segments_found.size(); ++i)
      if (p.segment_in_scope[i])
        penalties[i] = link_penalty(margin_days(p.segments_found[i].expressions, p.expressions,
                                                options_.period.days()),
                                    options_.max_link_penalty);
  std::vector<AnchorVerdict> anchors(p.doc.links.size());
  if (options_.temporal_mode) anchors = anchor_verdicts(p.doc, p.expressions, options_.period);

  auto page_url = CanonicalUrl::parse(p.url);
  std::optional<CanonicalUrl> base;
  if (page_url.ok()) {
    base = *page_url;
    if (!p.doc.base_href.empty()) {
      auto b = CanonicalUrl::resolve(*page_url, p.doc.base_href);
      if (b.ok()) base = *b;
    }
  }
  std::vector<std::string> main_links;  // the targets of the main text's links (a revisit's change)
  for (std::size_t j = 0; j < p.doc.links.size() && base; ++j) {
    const temporal::Link& link = p.doc.links[j];
    auto target = CanonicalUrl::resolve(*base, link.href);
    if (!target.ok()) continue;  // mailto:, javascript:, malformed…
    if (!link.boilerplate) main_links.push_back(target->str());
    store::LinkInfo info;
    info.target = target->str();
    info.anchor = link.anchor;
    info.position = link.start;
    info.segment = segment_of[j];
    const bool segment_in = segment_of[j] && p.segment_in_scope[*segment_of[j]];
    const AnchorDates anchor = anchors[j].dates;
    info.in_scope = anchor == AnchorDates::None ? segment_in : anchor == AnchorDates::In;
    const bool furniture = segment_of[j] && p.segments_found[*segment_of[j]].boilerplate;
    // The links of page furniture are not in-scope links of the temporal
    // crawl: followed (last) only when asked to go on past the scope.
    const bool kept = !options_.temporal_mode || (*info.in_scope && (!furniture || options_.follow_furniture));
    if (kept) {
      FoundLink found{*target, !options_.temporal_mode || !furniture, 0, {}};
      if (options_.temporal_mode && options_.max_link_penalty > 0) found.anchor = link.anchor;
      if (options_.temporal_mode) {
        const int penalty =
            anchor == AnchorDates::In
                ? link_penalty(margin_days(anchors[j].expressions, p.expressions, options_.period.days()),
                               options_.max_link_penalty)
                : penalties[*segment_of[j]] + (dated_block[j] ? 0 : kUndatedBlockPenalty);
        const auto published = url_month(target->path());
        const int before = published && published->last < options_.period.days().first && options_.max_link_penalty > 0
                               ? kPublishedBeforePenalty
                               : 0;
        found.penalty = static_cast<std::uint8_t>(std::min(penalty + before, 255));
      }
      r.links.push_back(std::move(found));
    }
    p.link_rows.push_back(std::move(info));
  }
  p.links = static_cast<std::int64_t>(p.link_rows.size());
  // A revisiting crawl watches the page's feeds (feeds.h), whatever its scope.
  if (options_.revisit && base)
    for (const auto& [href, type] : p.doc.alternates) {
      if (!is_feed_type(type)) continue;
      auto target = CanonicalUrl::resolve(*base, href);
      if (target.ok()) r.links.push_back(FoundLink{*target, false, 0, {}, true});
    }
  // What counts as a change on a revisit: the main text, page furniture
  // (clocks, counters, "most read" boxes) left out.
  {
    std::string main_text;
    for (const temporal::Block& b : p.doc.blocks)
      if (!b.boilerplate) main_text.append(p.doc.text, b.start, b.end - b.start).push_back('\n');
    p.main_signature = revisit::content_signature(main_text);
    p.main_signature->links = revisit::link_set_signature(std::move(main_links));
    if (options_.replicas_detect) p.main_sketch = replicas::shingle_sketch(main_text);
  }
  // A page's first download in a revisiting crawl: what it shows of how
  // often it changes (the learned rate prior).
  if (cues_ && task.revisit_page < 0) {
    revisit::FirstFetch first;
    first.url = p.url;
    first.doc = &p.doc;
    first.expressions = p.expressions;
    first.last_modified = !p.last_modified.empty();
    first.etag = !p.etag.empty();
    const auto day = temporal::Chronon::parse(std::string_view(p.fetched_at).substr(0, 10));
    const auto days = day ? day->days() : std::nullopt;
    if (days) first.fetched = temporal::Date::from_day_number(days->first);
    p.features = revisit::page_features(first, *cues_);
  }
  // The store needs the text (its size) and nothing else of the document;
  // the offset map alone is eight bytes per byte of text.
  p.doc.source_offsets = {};
  p.doc.blocks = {};
  p.doc.links = {};
  p.doc.alternates = {};

  p.analysed = true;
  p.info.key = p.url;
  p.info.url = p.url;
  p.info.source = "crawl";
  p.info.dct = dct;
  p.info.dct_source = dct_source;
  p.info.title = p.doc.title;
  p.info.size_bytes = p.size;
  return r;
}

}  // namespace cronista::crawler
