// The segmented collection as XML (`cronista build --out`): the colCHAVE
// layout of method.md §5 (<colCHAVE><DOC><DOCNO/><DOCID/><DATE/><TEXT><P/>)
// extended with the segments, their chronons, temporal expressions and
// links. Layout: docs/collection-xml.md.
//
// The file grows with the database and survives interruption: each batch's
// documents are written and flushed before the batch's transaction commits,
// and that transaction records the file's committed length. A resumed build
// cuts the file back to that length (dropping documents whose transaction
// never committed, and the closing tag) and appends from there, so the file
// and the database always hold the same documents.
#pragma once

#include <cstdint>
#include <cstdio>
#include <memory>
#include <string>

#include "corpus/document_analysis.h"
#include "store/database.h"
#include "temporal/status.h"

namespace cronista::corpus {

// One <DOC> element (with a trailing newline).
std::string document_xml(const AnalysedDocument& doc, std::int64_t doc_id);

class CollectionXmlWriter {
 public:
  // Opens (or resumes) `path` for a build into `db`. When the database
  // already holds documents the file cannot have (a new file, or one that
  // was changed behind our back), *warning says so; they are not rewritten
  // (their text is not in the database).
  static Result<std::unique_ptr<CollectionXmlWriter>> open(store::Database& db, const std::string& path,
                                                           std::string* warning);
  ~CollectionXmlWriter();

  // Appends a document; it counts once checkpoint() ran in a transaction that commits.
  Status append(const AnalysedDocument& doc, std::int64_t doc_id);
  // Flushes the file and records its length; call inside the batch's transaction.
  Status checkpoint(store::Database& db);
  // Writes the closing tag.
  Status finish(store::Database& db);

 private:
  CollectionXmlWriter(std::FILE* f, std::string path, std::string key) : file_(f), path_(std::move(path)), key_(std::move(key)) {}
  std::FILE* file_;
  std::string path_;  // as given, for messages
  std::string key_;   // absolute path, the row in collection_xml
};

}  // namespace cronista::corpus
