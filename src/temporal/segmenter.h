// Temporal segmentation (method.md §2.4): a document is cut into segments,
// maximal runs of sentences (or paragraphs) that speak of the same moment(s).
// Sentences without dates join the segment they continue. Each segment
// carries its chronons, its byte range and the links inside it.
#pragma once

#include <cstddef>
#include <vector>

#include "temporal/chronon.h"
#include "temporal/document.h"
#include "temporal/expression.h"

namespace cronista::temporal {

enum class SegmentGranularity { Sentence, Paragraph };

struct Segment {
  std::size_t start = 0;  // byte offsets into TextDocument::text, end exclusive
  std::size_t end = 0;
  std::vector<Chronon> chronons;
  std::vector<std::size_t> expressions;  // indices into the expressions given
  std::vector<std::size_t> links;        // indices into TextDocument::links
  bool boilerplate = false;              // made of boilerplate blocks only
};

std::vector<Segment> segment(const TextDocument& doc, const std::vector<TemporalExpression>& expressions,
                             SegmentGranularity granularity = SegmentGranularity::Sentence);

// What "the same moment(s)" means, precisely (the rule segment() applies):
//
//   - Units are sentences (SentenceSplitter, never across a block) or
//     blocks. A sentence boundary that would cut an expression is dropped.
//   - An expression's *moment* is the day range of its chronons (the hull of
//     both for an interval); chronons without a known year, durations, sets
//     and vague references have none.
//   - Two moments are *close* with a gap g when their day ranges overlap,
//     or when both span at most g days and at most g days lie between them.
//     Inside a block g is max_gap_days: 1944 and 6 June 1944 are close
//     (overlap); 5 and 9 June 1944 are close; June and July 1944, or 1944
//     and 1945, are not. Across a block boundary (the unit opens a new
//     paragraph) g is max_block_gap_days, by default -1: a dated paragraph
//     never continues a dated segment (0 would let overlapping moments
//     continue it). So a paragraph about 30 December 2000 and the next one
//     about 2 January 2001 are two segments, and one out-of-period date (or
//     an interval running past the period's end) does not sink a
//     neighbouring paragraph's scope; as in the original tool, dated
//     paragraphs are segments of their own, cut further into sentences.
//   - A unit continues the current segment unless (a) its boilerplate flag
//     differs from the segment's, (b) it opens a boilerplate block (page
//     furniture never inherits the dates of the block before it: an
//     undated menu after a dated header stays undated), or (c) both the
//     unit and the segment have moments and some moment of the unit is
//     close to none of the segment's. So main-text units without moments
//     join the segment they continue, and the first dated unit joins the
//     undated text before it (a title, a lead) instead of leaving it alone.
//
// Invariants of the result: segments are ordered and contiguous and cover
// [0, doc.text.size()) exactly, so every byte of a non-empty text is in
// exactly one segment (the white space between units belongs to the unit
// before it; leading white space to the first); an empty text has no
// segments. Every expression is listed by the segment holding its start,
// every link by the segment holding its start (a link starting at the very
// end of the text belongs to the last segment). No segment mixes
// boilerplate and main-text blocks.
class SentenceSplitter;

struct SegmenterOptions {
  SegmentGranularity granularity = SegmentGranularity::Sentence;
  int max_gap_days = 7;        // between moments of units of one block
  int max_block_gap_days = -1;  // across a block boundary (-1: never, 0: overlap only)
  // nullptr: default_sentence_splitter() (resources/pt/abbreviations.txt).
  const SentenceSplitter* splitter = nullptr;
};

std::vector<Segment> segment(const TextDocument& doc, const std::vector<TemporalExpression>& expressions,
                             const SegmenterOptions& options);

}  // namespace cronista::temporal
