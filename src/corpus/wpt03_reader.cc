// The WPT03 reader is a line-level state machine with a two-line lookahead
// (enough to recognise a record header: dashed line + "URL:" line).
#include "corpus/wpt03_reader.h"

#include <deque>
#include <filesystem>

#include "corpus/line_reader.h"

namespace cronista::corpus {

namespace {

std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
  return s;
}

bool is_dashed(std::string_view line) {
  line = trim(line);
  return line.size() >= 5 && line.find_first_not_of('-') == std::string_view::npos;
}

bool is_blank(std::string_view line) { return trim(line).empty(); }

struct Line {
  std::string text;
  std::uint64_t offset = 0;
  bool truncated = false;
};

class Wpt03Reader : public CollectionReader {
 public:
  explicit Wpt03Reader(std::vector<std::string> files) : files_(std::move(files)) {
    std::error_code ec;
    for (const std::string& f : files_) total_bytes_ += std::filesystem::file_size(f, ec);
  }

  bool next(CollectionDocument* doc) override {
    for (;;) {
      if (!lines_ && !open_next()) return false;
      if (!at_header()) {
        if (!peek(0)) {  // end of this file
          close_current();
          continue;
        }
        report_corrupt(file(), peek(0)->offset, "text outside any record (no dashed line + URL: header)");
        skip_to_header();
        continue;
      }
      if (read_record(doc)) return true;
    }
  }

 private:
  const std::string& file() const { return files_[index_ - 1]; }

  bool open_next() {
    while (index_ < files_.size()) {
      lines_ = std::make_unique<LineReader>();
      lines_->max_line = static_cast<std::size_t>(max_document_bytes);
      Status s = lines_->open(files_[index_++]);
      if (s.ok()) return true;
      report_corrupt(file(), 0, s.message());
      lines_.reset();
    }
    return false;
  }

  void close_current() {
    if (lines_ && !lines_->status().ok()) report_corrupt(file(), 0, lines_->status().message());
    std::error_code ec;
    done_bytes_ += std::filesystem::file_size(file(), ec);
    lines_.reset();
    lookahead_.clear();
  }

  std::uint64_t current_bytes() const override { return lines_ ? lines_->raw_offset() : 0; }

  // The i-th line ahead (0 = next), or nullptr at the end of the file.
  const Line* peek(std::size_t i) {
    while (lookahead_.size() <= i) {
      Line l;
      if (!lines_ || !lines_->next(&l.text, &l.offset, &l.truncated)) return nullptr;
      lookahead_.push_back(std::move(l));
    }
    return &lookahead_[i];
  }
  Line pop() {
    peek(0);
    Line l = std::move(lookahead_.front());
    lookahead_.pop_front();
    return l;
  }

  bool at_header() {
    const Line* a = peek(0);
    if (!a || !is_dashed(a->text)) return false;
    const Line* b = peek(1);
    return b && trim(b->text).substr(0, 4) == "URL:";
  }

  void skip_to_header() {
    while (peek(0) && !at_header()) pop();
  }

  void fail_record(std::uint64_t offset, const std::string& why) {
    report_corrupt(file(), offset, why);
    skip_to_header();
  }

  // Reads the record at the header; false when it was corrupt (reported).
  bool read_record(CollectionDocument* doc) {
    const std::uint64_t offset = pop().offset;  // dashed line
    const std::string url(trim(std::string_view(pop().text).substr(4)));
    if (!peek(0) || !is_dashed(peek(0)->text)) {
      fail_record(offset, "no dashed line after the URL line");
      return false;
    }
    pop();
    if (url.empty()) {
      fail_record(offset, "empty URL");
      return false;
    }
    *doc = CollectionDocument{};
    doc->key = url;
    doc->url = url;
    doc->file = file();
    doc->offset = offset;
    doc->source = std::filesystem::path(file()).stem().string();
    // Metadata until a blank line.
    for (;;) {
      const Line* l = peek(0);
      if (!l) {
        fail_record(offset, "record cut by the end of the file inside its metadata");
        return false;
      }
      if (is_blank(l->text)) {
        pop();
        break;
      }
      if (at_header()) {
        fail_record(offset, "record has no blank line after its metadata");
        return false;
      }
      std::string_view m = trim(l->text);
      const std::size_t comma = m.find(',');
      if (m.size() < 3 || m.front() != '(' || m.back() != ')' || comma == std::string_view::npos) {
        fail_record(offset, "malformed metadata line at offset " + std::to_string(l->offset) +
                                " (expected \"(Key, value)\")");
        return false;
      }
      doc->metadata.emplace_back(std::string(trim(m.substr(1, comma - 1))),
                                 std::string(trim(m.substr(comma + 1, m.size() - comma - 2))));
      pop();
    }
    // Text until the next record header.
    bool too_large = false;
    while (peek(0) && !at_header()) {
      Line l = pop();
      if (too_large) continue;
      if (l.truncated || doc->content.size() + l.text.size() + 1 > max_document_bytes) {
        too_large = true;
        doc->content.clear();
        doc->content.shrink_to_fit();
        continue;
      }
      doc->content += l.text;
      doc->content += '\n';
    }
    if (too_large) {
      report_corrupt(file(), offset, "record larger than " + std::to_string(max_document_bytes) + " bytes");
      return false;
    }
    while (!doc->content.empty() && (doc->content.back() == '\n' || doc->content.back() == ' '))
      doc->content.pop_back();
    for (const auto& [key, value] : doc->metadata) {
      if (key == "title") doc->title = value;
      else if (key == "Content-Type") doc->content_type = value;
    }
    for (const char* key : {"Last-Modified", "dataRec"}) {
      for (const auto& [k, v] : doc->metadata) {
        if (k != key || doc->date) continue;
        if (auto d = parse_collection_date(v)) {
          doc->date = d;
          doc->date_source = k == "dataRec" ? "wpt03-dataRec" : "wpt03-last-modified";
        }
      }
    }
    return true;
  }

  std::vector<std::string> files_;
  std::size_t index_ = 0;
  std::unique_ptr<LineReader> lines_;
  std::deque<Line> lookahead_;
};

}  // namespace

Result<std::unique_ptr<CollectionReader>> open_wpt03(const std::string& path) {
  auto files = list_collection_files(path, [](std::string_view) { return true; });
  if (!files.ok()) return files.status();
  if (files->empty()) return Result<std::unique_ptr<CollectionReader>>::Error("no WPT03 files in '" + path + "'");
  return std::unique_ptr<CollectionReader>(new Wpt03Reader(std::move(*files)));
}

}  // namespace cronista::corpus
