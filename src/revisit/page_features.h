// What a page's first fetch shows of how often it changes: the features of
// the learned prior (rate_prior.h), read from the URL, the response's
// validators and the analysed document — its links, images and text, and
// what the tagger found in it: the newest date it mentions, an update line
// ("Atualizado em …"), the days "hoje" and "ontem" — in its main text only
// (page furniture, a site-wide footer or a clock, says nothing of the page).
//
// The words come from the tagger's resources (resources/pt/): UPDATE_CUE
// (updates.txt) for update lines, DEICTIC_DAY (deictics.txt) entries of
// value 0 or -1 for "today or yesterday".
#pragma once

#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "revisit/rate_prior.h"
#include "temporal/chronon.h"
#include "temporal/document.h"
#include "temporal/expression.h"
#include "temporal/lexicon.h"
#include "temporal/status.h"

namespace cronista::revisit {

class FeatureCues {
 public:
  // Fails when the lexicon has no UPDATE_CUE or DEICTIC_DAY class.
  static Result<FeatureCues> from(const temporal::Lexicon& lexicon);

  // Whether the folded text before an expression (`before`, ending where
  // its extent starts) ends with an update cue.
  bool update_line(std::string_view folded_before) const;
  // Whether an expression's folded text names today or yesterday.
  bool today_or_yesterday(std::string_view folded_expression) const;

 private:
  std::vector<std::string> update_;  // longest first
  std::vector<std::string> today_;   // DEICTIC_DAY phrases of value 0 or -1
  std::vector<std::string> other_days_;  // the other DEICTIC_DAY phrases ("antes de ontem")
};

// The features of a page fetched at `fetched` (its first download). `text`
// is the document's text the expressions' offsets refer to.
struct FirstFetch {
  std::string_view url;
  const temporal::TextDocument* doc = nullptr;
  std::span<const temporal::TemporalExpression> expressions;
  bool last_modified = false, etag = false;
  temporal::Date fetched;
};
PageFeatures page_features(const FirstFetch& fetch, const FeatureCues& cues);

// The host and section hashes of a URL (PageFeatures::host, section).
void set_url_categories(std::string_view url, PageFeatures& f);

// Stored form (a JSON object by feature name; a missing name reads as 0, so
// rows of an older feature set still load); nullopt on malformed text.
std::string features_json(const PageFeatures& f);
std::optional<PageFeatures> parse_features(std::string_view json);

}  // namespace cronista::revisit
