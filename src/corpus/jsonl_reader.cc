#include "corpus/jsonl_reader.h"

#include <filesystem>
#include <nlohmann/json.hpp>

#include "corpus/line_reader.h"

namespace cronista::corpus {

namespace {

bool ends_with(std::string_view s, std::string_view suffix) {
  return s.size() >= suffix.size() && s.substr(s.size() - suffix.size()) == suffix;
}

std::string scalar_text(const nlohmann::json& v) {
  if (v.is_string()) return v.get<std::string>();
  if (v.is_number_integer()) return std::to_string(v.get<long long>());
  return v.dump();
}

class JsonlReader : public CollectionReader {
 public:
  explicit JsonlReader(std::vector<std::string> files) : files_(std::move(files)) {
    std::error_code ec;
    for (const std::string& f : files_) total_bytes_ += std::filesystem::file_size(f, ec);
  }

  bool next(CollectionDocument* doc) override {
    std::string line;
    for (;;) {
      if (!lines_ && !open_next()) return false;
      std::uint64_t offset = 0;
      bool truncated = false;
      if (!lines_->next(&line, &offset, &truncated)) {
        if (!lines_->status().ok()) report_corrupt(file(), offset, lines_->status().message());
        std::error_code ec;
        done_bytes_ += std::filesystem::file_size(file(), ec);
        lines_.reset();
        continue;
      }
      ++line_number_;
      if (line.find_first_not_of(" \t\r") == std::string::npos) continue;
      if (truncated) {
        report_corrupt(file(), offset, "line longer than " + std::to_string(max_document_bytes) + " bytes");
        continue;
      }
      if (parse(line, offset, doc)) return true;
    }
  }

 private:
  const std::string& file() const { return files_[index_ - 1]; }
  std::uint64_t current_bytes() const override { return lines_ ? lines_->raw_offset() : 0; }

  bool open_next() {
    while (index_ < files_.size()) {
      lines_ = std::make_unique<LineReader>();
      lines_->max_line = static_cast<std::size_t>(max_document_bytes);
      line_number_ = 0;
      Status s = lines_->open(files_[index_++]);
      if (s.ok()) return true;
      report_corrupt(file(), 0, s.message());
      lines_.reset();
    }
    return false;
  }

  bool parse(const std::string& line, std::uint64_t offset, CollectionDocument* doc) {
    nlohmann::json j = nlohmann::json::parse(line, nullptr, /*allow_exceptions=*/false);
    if (j.is_discarded()) {
      report_corrupt(file(), offset, "line " + std::to_string(line_number_) + " is not valid JSON");
      return false;
    }
    if (!j.is_object()) {
      report_corrupt(file(), offset, "line " + std::to_string(line_number_) + " is not a JSON object");
      return false;
    }
    *doc = CollectionDocument{};
    if (auto t = j.find("text"); t != j.end() && t->is_string()) {
      doc->content = t->get<std::string>();
    } else if (auto h = j.find("html"); h != j.end() && h->is_string()) {
      doc->content = h->get<std::string>();
      doc->is_html = true;
      // JSON strings are Unicode: a <meta charset> inside the page must not
      // make the decoder read it as something else.
      doc->content_type = "text/html; charset=utf-8";
    } else {
      report_corrupt(file(), offset, "line " + std::to_string(line_number_) + " has no \"text\" string");
      return false;
    }
    doc->file = file();
    doc->offset = offset;
    if (auto id = j.find("id"); id != j.end() && (id->is_string() || id->is_number_integer()))
      doc->key = scalar_text(*id);
    else
      doc->key = std::filesystem::path(file()).filename().string() + ":" + std::to_string(line_number_);
    if (auto u = j.find("url"); u != j.end() && u->is_string()) doc->url = u->get<std::string>();
    if (auto t = j.find("title"); t != j.end() && t->is_string()) doc->title = t->get<std::string>();
    if (auto s = j.find("source"); s != j.end() && s->is_string()) doc->source = s->get<std::string>();
    else doc->source = std::filesystem::path(file()).stem().string();
    const nlohmann::json* date = nullptr;
    if (auto d = j.find("date"); d != j.end() && d->is_string()) date = &*d;
    else if (auto m = j.find("meta"); m != j.end() && m->is_object())
      if (auto md = m->find("date"); md != m->end() && md->is_string()) date = &*md;
    if (date) {
      if (auto d = parse_collection_date(date->get_ref<const std::string&>())) {
        doc->date = d;
        doc->date_source = "jsonl";
      }
    }
    for (auto& [k, v] : j.items()) {
      if (k == "text" || k == "html" || k == "id" || k == "url" || k == "title" || k == "source" || k == "date") continue;
      doc->metadata.emplace_back(k, scalar_text(v));
    }
    return true;
  }

  std::vector<std::string> files_;
  std::size_t index_ = 0;
  std::uint64_t line_number_ = 0;
  std::unique_ptr<LineReader> lines_;
};

}  // namespace

Result<std::unique_ptr<CollectionReader>> open_jsonl(const std::string& path) {
  auto files = list_collection_files(path, [](std::string_view name) {
    return ends_with(name, ".jsonl") || ends_with(name, ".jsonl.gz") || ends_with(name, ".json") ||
           ends_with(name, ".ndjson");
  });
  if (!files.ok()) return files.status();
  if (files->empty()) return Result<std::unique_ptr<CollectionReader>>::Error("no JSONL files in '" + path + "'");
  return std::unique_ptr<CollectionReader>(new JsonlReader(std::move(*files)));
}

}  // namespace cronista::corpus
