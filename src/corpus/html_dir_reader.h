// Folders of HTML files (*.html, *.htm, *.xhtml, *.shtml, any case),
// recursively, in path order; the key is the path relative to the folder.
// The document date comes later, from the page itself (<meta>, <time>), when
// the analysis parses it.
#pragma once

#include <memory>
#include <string>

#include "corpus/collection_reader.h"

namespace cronista::corpus {

Result<std::unique_ptr<CollectionReader>> open_html_dir(const std::string& path);

}  // namespace cronista::corpus
