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

}  // namespace cronista::temporal
