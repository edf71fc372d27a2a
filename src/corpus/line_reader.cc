#include "corpus/line_reader.h"

#include <cerrno>
#include <cstring>

namespace cronista::corpus {

namespace {
constexpr unsigned kChunk = 1u << 16;
}

LineReader::~LineReader() {
  if (file_) gzclose(file_);
}

Status LineReader::open(const std::string& path) {
  path_ = path;
  file_ = gzopen(path.c_str(), "rb");
  if (!file_) return status_ = Status::Error("cannot open '" + path + "': " + std::strerror(errno));
  gzbuffer(file_, 1u << 17);
  return Status::Ok();
}

std::uint64_t LineReader::raw_offset() const {
  if (!file_) return 0;
  const auto off = gzoffset(file_);
  return off > 0 ? static_cast<std::uint64_t>(off) : 0;
}

bool LineReader::fill() {
  if (eof_ || !file_) return false;
  // Drop what was consumed, then append a chunk.
  buffer_offset_ += pos_;
  buffer_.erase(0, pos_);
  pos_ = 0;
  const std::size_t old = buffer_.size();
  buffer_.resize(old + kChunk);
  const int n = gzread(file_, buffer_.data() + old, kChunk);
  if (n < 0) {
    int err = 0;
    const char* msg = gzerror(file_, &err);
    status_ = Status::Error("cannot read '" + path_ + "': " + (msg ? msg : "read error"));
    buffer_.resize(old);
    eof_ = true;
    return false;
  }
  buffer_.resize(old + static_cast<std::size_t>(n));
  if (n == 0) eof_ = true;
  return n > 0;
}

bool LineReader::next(std::string* line, std::uint64_t* offset, bool* truncated) {
  if (truncated) *truncated = false;
  if (!file_) return false;
  line->clear();
  *offset = buffer_offset_ + pos_;  // fill() keeps buffer_offset_ + pos_ unchanged
  bool cut = false, any = false;
  for (;;) {
    if (pos_ >= buffer_.size() && !fill()) {
      if (!any) return false;
      break;  // last line without "\n"
    }
    const std::size_t nl = buffer_.find('\n', pos_);
    const std::size_t end = nl == std::string::npos ? buffer_.size() : nl;
    const std::size_t take = end - pos_;
    const std::size_t room = max_line - std::min(max_line, line->size());
    line->append(buffer_, pos_, std::min(take, room));
    if (take > room) cut = true;
    any = true;
    if (nl != std::string::npos) {
      pos_ = nl + 1;
      break;
    }
    pos_ = end;
  }
  if (!line->empty() && line->back() == '\r') line->pop_back();
  if (truncated) *truncated = cut;
  return true;
}

}  // namespace cronista::corpus
