// Folders of plain-text files: every non-hidden regular file under the
// folder (recursively, in path order) is one document whose key is its path
// relative to the folder. No document date: a file's modification time says
// when it was copied, not when it was written.
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <string_view>

#include "corpus/collection_reader.h"

namespace cronista::corpus {

Result<std::unique_ptr<CollectionReader>> open_text_dir(const std::string& path);

// The folder reader behind both text-dir and html-dir: files accepted by
// `accept` (given the file name), each one document.
Result<std::unique_ptr<CollectionReader>> open_file_tree(const std::string& path, bool is_html,
                                                         const std::function<bool(std::string_view)>& accept,
                                                         std::string_view what);

}  // namespace cronista::corpus
