// The analysis tables shared by crawl databases and collection databases:
// documents, their temporal expressions, segments, chronons and links. A
// crawl adds its own tables (runs, hosts, pages, frontier, history) beside
// these and points pages at documents; `cronista report` reads only these
// (plus the crawl tables when present). Schema: docs/schema.md.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "store/database.h"
#include "temporal/document.h"
#include "temporal/expression.h"
#include "temporal/genre.h"
#include "temporal/segmenter.h"
#include "temporal/status.h"

namespace cronista::store {

// What is known of a document besides its analysed text.
struct DocumentInfo {
  std::string key;  // unique within the database: a URL, a WPT03 id, a file path…
  std::string url;  // empty when it has none
  std::string source;  // the collection or crawl it came from
  std::optional<temporal::Date> dct;  // creation/publication date
  std::string dct_source;  // "http-last-modified", "meta", "wpt03-dataRec", "warc-date", "jsonl"…
  std::string title;
  std::int64_t size_bytes = 0;  // size of the original (HTML or text) document
};

// A link as stored: its resolved target, where it sits and whether its
// segment is in scope (null when no period applies).
struct LinkInfo {
  std::string target;  // canonical absolute URL
  std::string anchor;
  std::optional<std::size_t> position;  // byte offset of the anchor in the text
  std::optional<std::size_t> segment;  // index into the segments given
  std::optional<bool> in_scope;
};

struct StoredAnalysis {
  const temporal::TextDocument* doc = nullptr;
  const std::vector<temporal::TemporalExpression>* expressions = nullptr;
  const std::vector<temporal::Segment>* segments = nullptr;
  std::vector<LinkInfo> links;
  // Per segment, when a period applies (same size as *segments, or empty).
  std::vector<bool> segment_in_scope;
};

class AnalysisStore {
 public:
  // Creates the analysis tables if missing; checks the schema version.
  static Status ensure_schema(Database& db);

  // Records the genre the texts are tagged with (temporal/genre.h) on the
  // first run; a later run with another genre is refused, so that one
  // database never mixes two readings of the same words.
  static Status record_genre(Database& db, temporal::Genre genre);
  static Result<std::optional<temporal::Genre>> genre(Database& db);

  // Whether a document with this key is already stored (for resumable builds).
  static Result<bool> has_document(Database& db, const std::string& key);

  // Stores one document and its analysis; returns its id. Call inside a
  // Transaction for batching. Replaces an earlier document with the same key.
  static Result<std::int64_t> put(Database& db, const DocumentInfo& info, const StoredAnalysis& analysis);
};

}  // namespace cronista::store
