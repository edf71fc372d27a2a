#include "corpus/text_dir_reader.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>

namespace cronista::corpus {

namespace fs = std::filesystem;

namespace {

class FileTreeReader : public CollectionReader {
 public:
  FileTreeReader(std::string root, std::vector<std::string> files, bool is_html)
      : root_(std::move(root)), files_(std::move(files)), is_html_(is_html) {
    std::error_code ec;
    for (const std::string& f : files_) total_bytes_ += fs::file_size(f, ec);
  }

  bool next(CollectionDocument* doc) override {
    while (index_ < files_.size()) {
      const std::string& path = files_[index_++];
      std::error_code ec;
      const std::uint64_t size = fs::file_size(path, ec);
      done_bytes_ += ec ? 0 : size;
      if (ec) {
        report_corrupt(path, 0, "cannot read: " + ec.message());
        continue;
      }
      if (size > max_document_bytes) {
        report_corrupt(path, 0, "file larger than " + std::to_string(max_document_bytes) + " bytes");
        continue;
      }
      *doc = CollectionDocument{};
      if (Status s = read_whole(path, size, &doc->content); !s.ok()) {
        report_corrupt(path, 0, s.message());
        continue;
      }
      doc->is_html = is_html_;
      fs::path rel = fs::path(path).lexically_relative(root_);
      doc->key = rel.empty() || rel == "." ? fs::path(path).filename().generic_string() : rel.generic_string();
      doc->file = path;
      doc->offset = 0;
      doc->source = fs::path(root_).filename().string();
      return true;
    }
    return false;
  }

 private:
  static Status read_whole(const std::string& path, std::uint64_t size, std::string* out) {
    std::FILE* f = std::fopen(path.c_str(), "rb");
    if (!f) return Status::Error(std::string("cannot open: ") + std::strerror(errno));
    out->resize(static_cast<std::size_t>(size));
    const std::size_t n = out->empty() ? 0 : std::fread(out->data(), 1, out->size(), f);
    const bool err = std::ferror(f) != 0;
    std::fclose(f);
    if (err) return Status::Error("read error");
    out->resize(n);
    return Status::Ok();
  }

  std::string root_;
  std::vector<std::string> files_;
  bool is_html_;
  std::size_t index_ = 0;
};

}  // namespace

Result<std::unique_ptr<CollectionReader>> open_file_tree(const std::string& path, bool is_html,
                                                         const std::function<bool(std::string_view)>& accept,
                                                         std::string_view what) {
  auto files = list_collection_files(path, accept);
  if (!files.ok()) return files.status();
  if (files->empty())
    return Result<std::unique_ptr<CollectionReader>>::Error("no " + std::string(what) + " files in '" + path + "'");
  std::error_code ec;
  const std::string root = fs::is_directory(path, ec) ? path : fs::path(path).parent_path().string();
  return std::unique_ptr<CollectionReader>(new FileTreeReader(root, std::move(*files), is_html));
}

Result<std::unique_ptr<CollectionReader>> open_text_dir(const std::string& path) {
  return open_file_tree(path, false, [](std::string_view) { return true; }, "text");
}

}  // namespace cronista::corpus
