// WPT03 dumps (method.md §5), plain or gzip-compressed, one file or a folder
// of them. A record:
//
//   ------------------------------------------------------------
//   URL: http://www.example.pt/
//   ------------------------------------------------------------
//   (Content-Type, text/html)
//   (Last-Modified, 12/05/2003)
//   (dataRec, 15/05/2003)
//   (title, Página inicial)
//
//   the text of the page…
//
// A record starts where a dashed line is followed by a "URL:" line, so dashed
// lines inside the text do not cut it. The key is the URL. Document date:
// Last-Modified (a creation date, "wpt03-last-modified"), else dataRec (the
// retrieval date, "wpt03-dataRec"). Corrupt records (no dashed line after the
// URL, an empty URL, a malformed metadata line, metadata cut by the end of
// the file, a record over the size cap) are reported and skipped.
#pragma once

#include <memory>
#include <string>

#include "corpus/collection_reader.h"

namespace cronista::corpus {

// PATH: a file, or a folder whose files (any name) are all WPT03 dumps.
Result<std::unique_ptr<CollectionReader>> open_wpt03(const std::string& path);

}  // namespace cronista::corpus
