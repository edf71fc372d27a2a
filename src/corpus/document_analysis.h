// The analysis of one collection document, as the builder's workers run it:
// bytes → UTF-8 (crawler::decode_to_utf8, charset from the collection's
// Content-Type, the page's <meta> or detection) → TextDocument (html_document
// for HTML) → document date → Tagger → segment() → links resolved against the
// page's base and canonicalized. Pure apart from its inputs; const and
// thread-safe (the Tagger is shared read-only).
#pragma once

#include <vector>

#include "corpus/collection_reader.h"
#include "store/analysis_store.h"
#include "temporal/document.h"
#include "temporal/expression.h"
#include "temporal/segmenter.h"
#include "temporal/tagger.h"

namespace cronista::corpus {

// Everything the store and the XML output need of one document.
struct AnalysedDocument {
  store::DocumentInfo info;
  temporal::TextDocument text;  // source_offsets dropped after analysis
  std::vector<temporal::TemporalExpression> expressions;
  std::vector<temporal::Segment> segments;
  std::vector<store::LinkInfo> links;
  std::uint64_t input_bytes = 0;  // size of the document as read
};

class DocumentAnalysis {
 public:
  DocumentAnalysis(const temporal::Tagger& tagger, temporal::SegmentGranularity granularity)
      : tagger_(tagger), granularity_(granularity) {}

  // The document date, in order of trust: a creation date from the
  // collection's metadata, then one found in the page (<meta>, <time>:
  // "html-meta"), then a retrieval date from the metadata (WARC-Date,
  // dataRec), which still anchors deictic expressions.
  AnalysedDocument analyse(CollectionDocument document) const;

 private:
  const temporal::Tagger& tagger_;
  temporal::SegmentGranularity granularity_;
};

}  // namespace cronista::corpus
