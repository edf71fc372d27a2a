// JSON Lines collections, plain or gzip-compressed, one file or a folder of
// *.jsonl / *.jsonl.gz / *.json files: one object per line,
//
//   {"id": "noticia-1", "text": "…", "date": "2020-10-31", "url": "http://…"}
//
// "text" (plain text) or "html" is required; "id" (string or number) is the
// key, else FILE:LINE; "date" (or "meta": {"date": …}) is the document date
// ("jsonl"); "url", "title" and "source" are optional. Other fields (such as
// the raw corpora's "genre", "variant" and "meta") are kept as metadata.
// A line that is not a JSON object with a text is reported and skipped.
#pragma once

#include <memory>
#include <string>

#include "corpus/collection_reader.h"

namespace cronista::corpus {

Result<std::unique_ptr<CollectionReader>> open_jsonl(const std::string& path);

}  // namespace cronista::corpus
