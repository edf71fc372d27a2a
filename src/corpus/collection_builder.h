// Building a collection database (`cronista build`): read a collection,
// analyse every document (tag, segment) on all cores, store the results.
//
//   reader thread ──▶ work queue ──▶ N analysis threads ──▶ results ──▶ writer thread ──▶ SQLite (+ XML)
//
// Memory stays flat whatever the input size: the reader may only run a fixed
// window of documents (and bytes) ahead of the writer, so at most that many
// documents are in memory at once, and the writer stores them in reading
// order (a small reorder buffer), which makes the database and the XML
// deterministic for a given input. The writer batches documents into
// transactions. Building is resumable: a document whose key is already in
// the database is skipped without being analysed, and an interrupted build
// (even kill -9) loses at most its last uncommitted batch. Corrupt records
// and documents whose analysis fails are reported and skipped.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>

#include "corpus/collection_reader.h"
#include "corpus/document_analysis.h"
#include "temporal/segmenter.h"
#include "temporal/status.h"
#include "temporal/tagger.h"

namespace cronista::corpus {

struct BuildOptions {
  std::string input;
  CollectionFormat format = CollectionFormat::Jsonl;
  std::string db_path;
  std::string xml_out;  // empty: no XML
  int threads = 0;      // analysis threads; 0 = all cores
  temporal::SegmentGranularity granularity = temporal::SegmentGranularity::Sentence;
  temporal::Genre genre = temporal::Genre::News;  // the tagger's; recorded in the database
  // Documents and input bytes allowed between the reader and the writer.
  std::size_t window_documents = 0;  // 0 = 32 per analysis thread
  std::uint64_t window_bytes = 64ull << 20;
  std::size_t batch_documents = 500;  // documents per transaction
  std::uint64_t max_document_bytes = 64ull << 20;
  // Progress lines ("… docs/s, MB/s, ETA") and warnings go here; empty = silent.
  std::function<void(const std::string&)> progress;
  double progress_interval_seconds = 2.0;
};

struct BuildStats {
  std::uint64_t documents_read = 0;     // records read from the collection
  std::uint64_t documents_built = 0;    // analysed and stored by this run
  std::uint64_t documents_skipped = 0;  // already in the database
  std::uint64_t documents_failed = 0;   // corrupt records, failed analyses, repeated keys
  std::uint64_t input_bytes = 0;        // bytes of input consumed
  std::uint64_t text_bytes = 0;         // bytes of analysed text of the built documents
  double seconds = 0;
};

// Runs a whole build. Errors: the input cannot be opened, the database cannot
// be opened or written, the XML file cannot be written.
Result<BuildStats> build_collection(const BuildOptions& options, const temporal::Tagger& tagger);

// "12.3 MB/s" style helpers shared with the command's summary line.
std::string format_build_summary(const BuildStats& stats);

}  // namespace cronista::corpus
