// Web archives as collections: the response records (and text resource
// records) of WARC/1.0 and 1.1 files, plain, gzip per record or whole-file
// gzip, read with crawler::WarcReader. PATH is a file or a folder of *.warc
// and *.warc.gz files. Only successful (2xx) HTML, XHTML and plain-text
// payloads become documents; other records are passed over silently. The
// key is the WARC-Record-ID (a capture, so revisits of one URL stay apart);
// the document date is the HTTP Last-Modified ("http-last-modified", a
// creation date) or else the WARC-Date ("warc-date", a retrieval date). The
// HTTP Content-Type travels with the body for charset decoding.
#pragma once

#include <memory>
#include <string>

#include "corpus/collection_reader.h"

namespace cronista::corpus {

Result<std::unique_ptr<CollectionReader>> open_warc_collection(const std::string& path);

}  // namespace cronista::corpus
