// Temporal segmentation (segmenter.h states the rule and its invariants).
//
// Three passes, each linear (plus a sort and binary searches): cut the
// blocks into units (sentences or blocks) and glue back the units an
// expression straddles; give each unit the moments of the expressions that
// start in it; walk the units once, starting a segment whenever the unit's
// boilerplate status changes, it opens a boilerplate block, or it brings a
// moment far from all of the current segment's (farther than max_gap_days
// inside a block; across a block boundary, by max_block_gap_days: by
// default any dated unit opening a block starts a segment). A segment's
// moments are compared pairwise with the unit's; both lists are short (a
// few dates per sentence or paragraph), so the cost stays proportional to
// the number of expressions in practice.
#include "temporal/segmenter.h"

#include <algorithm>
#include <optional>

#include "temporal/sentence_splitter.h"

namespace cronista::temporal {
namespace {

struct Unit {
  std::size_t start = 0;  // trimmed extent
  std::size_t end = 0;
  std::size_t block = 0;
  bool boilerplate = false;
};

// The day range an expression speaks of: the hull of its placeable
// chronons; none for durations, sets, vague references, unknown years.
std::optional<DayRange> moment_of(const TemporalExpression& e) {
  std::optional<DayRange> hull;
  for (const Chronon& c : e.chronons) {
    const std::optional<DayRange> r = c.days();
    if (!r) continue;
    if (!hull) {
      hull = r;
    } else {
      hull->first = std::min(hull->first, r->first);
      hull->last = std::max(hull->last, r->last);
    }
  }
  return hull;
}

bool close(const DayRange& a, const DayRange& b, int max_gap_days) {
  if (a.first <= b.last && b.first <= a.last) return true;  // overlap
  const long gap = a.last < b.first ? static_cast<long>(b.first) - a.last - 1 : static_cast<long>(a.first) - b.last - 1;
  const long span_a = static_cast<long>(a.last) - a.first + 1, span_b = static_cast<long>(b.last) - b.first + 1;
  return gap <= max_gap_days && span_a <= max_gap_days && span_b <= max_gap_days;
}

std::vector<Unit> cut_units(const TextDocument& doc, const SegmenterOptions& options) {
  std::vector<Block> blocks = doc.blocks;
  if (blocks.empty()) blocks.push_back(Block{0, doc.text.size(), false});
  const SentenceSplitter& splitter = options.splitter != nullptr ? *options.splitter : default_sentence_splitter();
  std::vector<Unit> units;
  for (std::size_t b = 0; b < blocks.size(); ++b) {
    const Block& block = blocks[b];
    const std::size_t end = std::min(block.end, doc.text.size());
    if (block.start >= end) continue;
    if (options.granularity == SegmentGranularity::Paragraph) {
      units.push_back(Unit{block.start, end, b, block.boilerplate});
      continue;
    }
    for (const TextSpan& s : splitter.split(doc.text, block.start, end))
      units.push_back(Unit{s.start, s.end, b, block.boilerplate});
  }
  return units;
}

// Glues back units of one block that an expression straddles (a sentence
// boundary must never cut a temporal expression).
std::vector<Unit> glue_straddled(std::vector<Unit> units, const std::vector<TemporalExpression>& expressions) {
  if (units.size() < 2 || expressions.empty()) return units;
  std::vector<std::pair<std::size_t, std::size_t>> spans;
  spans.reserve(expressions.size());
  for (const TemporalExpression& e : expressions)
    if (e.end > e.start) spans.emplace_back(e.start, e.end);
  std::sort(spans.begin(), spans.end());
  // reach[i]: the furthest end among spans[0..i].
  std::vector<std::size_t> reach(spans.size());
  for (std::size_t i = 0; i < spans.size(); ++i) reach[i] = std::max(spans[i].second, i > 0 ? reach[i - 1] : 0);
  std::vector<Unit> out;
  out.push_back(units[0]);
  for (std::size_t k = 1; k < units.size(); ++k) {
    const std::size_t boundary = units[k].start;
    // Spans starting before the boundary: does one reach past it?
    const auto it = std::lower_bound(spans.begin(), spans.end(), std::make_pair(boundary, std::size_t{0}));
    const bool straddled = it != spans.begin() && reach[static_cast<std::size_t>(it - spans.begin()) - 1] > boundary;
    if (straddled && units[k].block == out.back().block) {
      out.back().end = std::max(out.back().end, units[k].end);
    } else {
      out.push_back(units[k]);
    }
  }
  return out;
}

// Index of the range (given by sorted starts, the first being 0) holding `at`.
std::size_t holder(const std::vector<std::size_t>& starts, std::size_t at) {
  const auto it = std::upper_bound(starts.begin(), starts.end(), at);
  return it == starts.begin() ? 0 : static_cast<std::size_t>(it - starts.begin()) - 1;
}

}  // namespace

std::vector<Segment> segment(const TextDocument& doc, const std::vector<TemporalExpression>& expressions,
                             SegmentGranularity granularity) {
  SegmenterOptions options;
  options.granularity = granularity;
  return segment(doc, expressions, options);
}

std::vector<Segment> segment(const TextDocument& doc, const std::vector<TemporalExpression>& expressions,
                             const SegmenterOptions& options) {
  const std::size_t n = doc.text.size();
  if (n == 0) return {};
  std::vector<Unit> units = glue_straddled(cut_units(doc, options), expressions);
  if (units.empty()) units.push_back(Unit{0, n, 0, false});  // white space only

  // Units tile the text: each runs to the next one's start.
  std::vector<std::size_t> unit_starts(units.size());
  for (std::size_t k = 0; k < units.size(); ++k) unit_starts[k] = k == 0 ? 0 : units[k].start;

  // Expressions (in index order) per unit, with their moments.
  std::vector<std::vector<std::size_t>> unit_expressions(units.size());
  std::vector<std::optional<DayRange>> moments(expressions.size());
  for (std::size_t i = 0; i < expressions.size(); ++i) {
    moments[i] = moment_of(expressions[i]);
    unit_expressions[holder(unit_starts, std::min(expressions[i].start, n))].push_back(i);
  }

  std::vector<Segment> segments;
  std::vector<DayRange> segment_moments;
  for (std::size_t k = 0; k < units.size(); ++k) {
    std::vector<DayRange> unit_moments;
    for (std::size_t i : unit_expressions[k])
      if (moments[i]) unit_moments.push_back(*moments[i]);
    const bool new_block = k == 0 || units[k].block != units[k - 1].block;
    bool starts_segment = segments.empty() || segments.back().boilerplate != units[k].boilerplate ||
                          (new_block && units[k].boilerplate);
    if (!starts_segment && !unit_moments.empty() && !segment_moments.empty()) {
      const int gap = new_block ? options.max_block_gap_days : options.max_gap_days;
      if (gap < 0) starts_segment = true;
      for (const DayRange& m : unit_moments) {
        if (starts_segment) break;
        const bool near = std::any_of(segment_moments.begin(), segment_moments.end(),
                                      [&](const DayRange& s) { return close(m, s, gap); });
        if (!near) {
          starts_segment = true;
          break;
        }
      }
    }
    if (starts_segment) {
      Segment s;
      s.start = unit_starts[k];
      s.boilerplate = units[k].boilerplate;
      segments.push_back(std::move(s));
      segment_moments.clear();
    }
    Segment& s = segments.back();
    s.end = k + 1 < units.size() ? unit_starts[k + 1] : n;
    for (std::size_t i : unit_expressions[k]) {
      s.expressions.push_back(i);
      s.chronons.insert(s.chronons.end(), expressions[i].chronons.begin(), expressions[i].chronons.end());
    }
    segment_moments.insert(segment_moments.end(), unit_moments.begin(), unit_moments.end());
  }

  std::vector<std::size_t> segment_starts(segments.size());
  for (std::size_t k = 0; k < segments.size(); ++k) segment_starts[k] = segments[k].start;
  for (std::size_t l = 0; l < doc.links.size(); ++l)
    segments[holder(segment_starts, std::min(doc.links[l].start, n))].links.push_back(l);
  return segments;
}

}  // namespace cronista::temporal
