#include "corpus/warc_collection_reader.h"

#include <cctype>
#include <filesystem>

#include "crawler/warc.h"

namespace cronista::corpus {

namespace {

bool ends_with(std::string_view s, std::string_view suffix) {
  return s.size() >= suffix.size() && s.substr(s.size() - suffix.size()) == suffix;
}

std::string lower(std::string_view s) {
  std::string out;
  for (char c : s) out += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

// What a payload is, from its media type (and a glance at the body when
// there is none): 1 = HTML, 0 = plain text, -1 = neither.
int payload_kind(std::string_view content_type, std::string_view body) {
  std::string media = lower(content_type.substr(0, content_type.find(';')));
  while (!media.empty() && media.back() == ' ') media.pop_back();
  while (!media.empty() && media.front() == ' ') media.erase(0, 1);
  if (media == "text/html" || media == "application/xhtml+xml") return 1;
  if (media == "text/plain") return 0;
  if (media.empty()) {
    std::size_t i = body.find_first_not_of(" \t\r\n");
    if (i != std::string_view::npos && body[i] == '<') return 1;
  }
  return -1;
}

// "http://host/robots.txt" (a query or fragment aside).
bool is_robots_txt(std::string_view uri) {
  uri = uri.substr(0, uri.find_first_of("?#"));
  const std::size_t scheme = uri.find("://");
  if (scheme == std::string_view::npos) return false;
  const std::size_t path = uri.find('/', scheme + 3);
  return path != std::string_view::npos && uri.substr(path) == "/robots.txt";
}

class WarcCollectionReader : public CollectionReader {
 public:
  explicit WarcCollectionReader(std::vector<std::string> files) : files_(std::move(files)) {
    std::error_code ec;
    for (const std::string& f : files_) total_bytes_ += std::filesystem::file_size(f, ec);
  }

  bool next(CollectionDocument* doc) override {
    crawler::WarcRecord record;
    for (;;) {
      if (!warc_ && !open_next()) return false;
      if (!warc_->next(&record)) {
        std::error_code ec;
        done_bytes_ += std::filesystem::file_size(file(), ec);
        position_ = 0;
        warc_.reset();
        continue;
      }
      position_ = record.offset;
      if (to_document(record, doc)) return true;
    }
  }

 private:
  const std::string& file() const { return files_[index_ - 1]; }
  std::uint64_t current_bytes() const override { return position_; }

  bool open_next() {
    while (index_ < files_.size()) {
      auto r = crawler::WarcReader::open(files_[index_++]);
      if (!r.ok()) {
        report_corrupt(file(), 0, r.status().message());
        continue;
      }
      warc_ = std::move(r.value());
      const std::string name = file();
      warc_->on_error = [this, name](const std::string& message) {
        ++corrupt_;
        if (on_error) on_error(message.rfind(name, 0) == 0 ? message : name + ": " + message);
      };
      return true;
    }
    return false;
  }

  bool to_document(const crawler::WarcRecord& record, CollectionDocument* doc) {
    const bool response = record.type == "response";
    if (!response && record.type != "resource") return false;
    // A crawler's robots.txt (cronista and Heritrix keep them) is no document.
    if (is_robots_txt(record.header("WARC-Target-URI"))) return false;
    std::string content_type, last_modified, body;
    if (response) {
      auto http = crawler::parse_http_response(record.block);
      if (!http.ok()) {
        report_corrupt(file(), record.offset, "response record without a valid HTTP message: " +
                                                  http.status().message());
        return false;
      }
      if (http->status < 200 || http->status > 299) return false;
      content_type = http->header("Content-Type");
      last_modified = http->header("Last-Modified");
      body = std::move(http->body);
    } else {
      content_type = record.header("Content-Type");
      body = record.block;
    }
    const int kind = payload_kind(content_type, body);
    if (kind < 0) return false;
    if (body.size() > max_document_bytes) {
      report_corrupt(file(), record.offset, "payload larger than " + std::to_string(max_document_bytes) + " bytes");
      return false;
    }
    *doc = CollectionDocument{};
    doc->content = std::move(body);
    doc->is_html = kind == 1;
    doc->content_type = content_type;
    std::string uri = record.header("WARC-Target-URI");
    if (uri.size() >= 2 && uri.front() == '<' && uri.back() == '>') uri = uri.substr(1, uri.size() - 2);
    doc->url = uri;
    doc->key = record.header("WARC-Record-ID");
    if (doc->key.empty()) doc->key = std::filesystem::path(file()).filename().string() + "@" + std::to_string(record.offset);
    doc->file = file();
    doc->offset = record.offset;
    doc->source = std::filesystem::path(file()).filename().string();
    if (auto d = parse_collection_date(last_modified)) {
      doc->date = d;
      doc->date_source = "http-last-modified";
    } else if (auto w = parse_collection_date(record.header("WARC-Date"))) {
      doc->date = w;
      doc->date_source = "warc-date";
    }
    doc->metadata.emplace_back("WARC-Date", record.header("WARC-Date"));
    if (!content_type.empty()) doc->metadata.emplace_back("Content-Type", content_type);
    return true;
  }

  std::vector<std::string> files_;
  std::size_t index_ = 0;
  std::unique_ptr<crawler::WarcReader> warc_;
  std::uint64_t position_ = 0;
};

}  // namespace

Result<std::unique_ptr<CollectionReader>> open_warc_collection(const std::string& path) {
  auto files = list_collection_files(path, [](std::string_view name) {
    return ends_with(name, ".warc") || ends_with(name, ".warc.gz");
  });
  if (!files.ok()) return files.status();
  if (files->empty()) return Result<std::unique_ptr<CollectionReader>>::Error("no WARC files in '" + path + "'");
  return std::unique_ptr<CollectionReader>(new WarcCollectionReader(std::move(*files)));
}

}  // namespace cronista::corpus
