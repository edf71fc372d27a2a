#include "corpus/document_analysis.h"

#include "corpus/report.h"
#include "crawler/charset.h"
#include "crawler/url.h"
#include "temporal/html_text.h"

namespace cronista::corpus {

AnalysedDocument DocumentAnalysis::analyse(CollectionDocument d) const {
  AnalysedDocument a;
  a.input_bytes = d.content.size();
  if (d.is_html) {
    crawler::DecodedText utf8 = crawler::decode_to_utf8(d.content, d.content_type);
    d.content.clear();
    d.content.shrink_to_fit();
    a.text = temporal::html_document(utf8.utf8);
  } else if (crawler::is_valid_utf8(d.content)) {
    a.text = temporal::plain_text_document(d.content);
  } else {
    crawler::DecodedText utf8 = crawler::decode_to_utf8(d.content, d.content_type);
    a.text = temporal::plain_text_document(utf8.utf8);
  }
  d.content.clear();
  d.content.shrink_to_fit();
  a.text.source_offsets.clear();
  a.text.source_offsets.shrink_to_fit();

  store::DocumentInfo& info = a.info;
  info.key = d.key;
  info.source = d.source;
  info.title = !d.title.empty() ? d.title : a.text.title;
  info.size_bytes = static_cast<std::int64_t>(a.input_bytes);
  if (d.date && is_creation_date_source(d.date_source)) {
    info.dct = d.date;
    info.dct_source = d.date_source;
  } else if (a.text.dct) {
    info.dct = a.text.dct;
    info.dct_source = "html-meta";
  } else if (d.date) {
    info.dct = d.date;
    info.dct_source = d.date_source;
  }

  // The document URL in canonical form, so that links match it (6.11).
  std::optional<crawler::CanonicalUrl> base;
  if (!d.url.empty()) {
    auto canonical = crawler::CanonicalUrl::parse(d.url);
    if (canonical.ok()) {
      info.url = canonical->str();
      base = *canonical;
    } else {
      info.url = d.url;
    }
  }
  if (!a.text.base_href.empty()) {
    auto b = base ? crawler::CanonicalUrl::resolve(*base, a.text.base_href) : crawler::CanonicalUrl::parse(a.text.base_href);
    if (b.ok()) base = *b;
  }

  a.expressions = tagger_.tag(a.text.text, info.dct);
  a.segments = temporal::segment(a.text, a.expressions, granularity_);

  std::vector<std::optional<std::size_t>> segment_of(a.text.links.size());
  for (std::size_t s = 0; s < a.segments.size(); ++s)
    for (std::size_t l : a.segments[s].links)
      if (l < segment_of.size()) segment_of[l] = s;
  for (std::size_t i = 0; i < a.text.links.size(); ++i) {
    const temporal::Link& link = a.text.links[i];
    auto target = base ? crawler::CanonicalUrl::resolve(*base, link.href) : crawler::CanonicalUrl::parse(link.href);
    if (!target.ok()) continue;  // mailto:, javascript:, relative links of a page without a URL…
    a.links.push_back(store::LinkInfo{target->str(), link.anchor, link.start, segment_of[i], std::nullopt});
  }
  return a;
}

}  // namespace cronista::corpus
