// cronista tag: one document in, its temporal expressions out (contract.md):
// JSON (default), a TimeML document (inline TIMEX3) or inline HAREM, under
// the annotation scheme asked for. Several inputs, or --jsonl, make a batch:
// one JSON line per document, progress on stderr.
//
// Plain text is read, tagged and written piece by piece (TextPieces, about
// --piece-size bytes each, cut after a blank line where there is one), the
// tagger's anaphora anchors carried from piece to piece (TagState), so that
// memory stays bounded whatever the input's size. HTML is parsed whole (its
// size is bounded by html_limits.h) and its output streamed the same way.
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdint>
#include <condition_variable>
#include <deque>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <functional>
#include <iostream>
#include <mutex>
#include <thread>

#include "cli/cli_common.h"
#include "cli/commands.h"
#include "cli/tag_output.h"
#include "cli/text_input.h"
#include "temporal/html_text.h"
#include "temporal/tagger.h"

namespace cronista::cli {

namespace {

eval::GoldScheme parse_scheme(const std::string& s) {
  if (s == "first-harem") return eval::GoldScheme::FirstHarem;
  if (s == "second-harem") return eval::GoldScheme::Harem;
  return eval::GoldScheme::TimeML;
}

TagFormat parse_format(const std::string& s) {
  if (s == "timex3") return TagFormat::Timex3;
  if (s == "harem") return TagFormat::Harem;
  return TagFormat::Json;
}

std::string input_name(const std::string& path) { return path == "-" ? std::string("standard input") : "'" + path + "'"; }

struct TagRun {
  const temporal::Tagger* tagger = nullptr;
  std::ostream* sink = nullptr;
  TagWriter::Options writer;  // format, scheme, DCT (--dct), line
  bool html = false, lenient = false;
  std::string encoding;
  std::size_t piece_size = 0;
  // Batch progress: counts, and a call after each document.
  std::size_t documents = 0, bytes = 0;
  std::function<void()> tick = [] {};
};

// Tags one HTML page (whole, decoded) and writes it. JSON offsets refer to
// the page (its bytes, markup included, decoded to UTF-8 when it was in
// another charset); the inline formats mark up the extracted text, which
// stays well-formed whatever the page.
Status tag_page(TagRun& run, std::string page, const std::string& what, TagWriter::Options options) {
  auto decoded = decode_document(std::move(page), true, run.encoding, run.lenient, what);
  if (!decoded.ok()) return decoded.status();
  const temporal::TextDocument doc = temporal::html_document(*decoded);
  if (!options.dct && doc.dct) options.dct = doc.dct;
  const auto found = run.tagger->tag(doc.text, options.dct);
  TagWriter writer(*run.sink, options);
  const TagWriter::SourceMap map{*decoded, &doc.source_offsets};
  writer.write(doc.text, 0, found, options.format == TagFormat::Json ? &map : nullptr);
  run.bytes += decoded->size();
  if (!writer.finish()) return Status::Error("cannot write the output");
  return Status::Ok();
}

// Tags plain text piece by piece. On an input error the output stops short
// (no closing brackets) and the error says why.
Status tag_pieces(TagRun& run, TextPieces& pieces, const TagWriter::Options& options) {
  TagWriter writer(*run.sink, options);
  temporal::TagState state;
  std::string piece;
  for (;;) {
    auto more = pieces.next(&piece);
    if (!more.ok()) return more.status();
    if (!*more) break;
    writer.write(piece, pieces.offset(), run.tagger->tag(piece, options.dct, &state));
    run.bytes += piece.size();
    if (!writer.ok()) break;
  }
  if (!writer.finish()) return Status::Error("cannot write the output");
  return Status::Ok();
}

// Plain text read on a thread of its own, a few pieces ahead, and scanned
// (Tagger::scan) on `scanners` threads, while the caller resolves the pieces
// in order (Tagger::resolve, the anchors carried from piece to piece) and
// writes them. The output is what tag_pieces() writes. With `read_ahead`
// reading starts at construction, so it overlaps what the caller does before
// start() (loading the tagger): for files, whose reads never wait on another
// process; otherwise reading and scanning start at start().
class ParallelPieces {
 public:
  ParallelPieces(TextPieces& pieces, std::size_t scanners, bool read_ahead)
      : pieces_(pieces), scanners_count_(scanners), window_cap_(2 * scanners + 2) {
    if (read_ahead) reader_ = std::thread([this] { read(); });
  }
  ~ParallelPieces() {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      stop_ = true;
    }
    changed_.notify_all();
    if (reader_.joinable()) reader_.join();
    for (auto& t : scanners_) t.join();
  }
  ParallelPieces(const ParallelPieces&) = delete;
  ParallelPieces& operator=(const ParallelPieces&) = delete;

  void start(const temporal::Tagger* tagger) {
    tagger_ = tagger;
    if (!reader_.joinable()) reader_ = std::thread([this] { read(); });
    for (std::size_t i = 0; i < scanners_count_; ++i) scanners_.emplace_back([this] { scan(); });
  }

  struct Piece {
    std::string text;
    std::size_t offset = 0;
    std::unique_ptr<temporal::ScannedText> scanned;
  };
  // The next piece in order, once scanned; false at the end of the input or
  // at an input error (then *error says it). While the next piece is being
  // scanned, the caller scans a later one rather than wait.
  bool next(Piece* piece, Status* error) {
    std::unique_lock<std::mutex> lock(mutex_);
    for (;;) {
      changed_.wait(lock, [&] {
        return (!window_.empty() && window_.front().scanned) || (window_.empty() && read_all_) ||
               next_scan_ < first_ + window_.size();
      });
      if (!window_.empty() && window_.front().scanned) break;
      if (window_.empty() && read_all_) {
        *error = read_error_;
        return false;
      }
      scan_one(lock);
    }
    if (first_ == failed_at_) {
      *error = scan_error_;
      return false;
    }
    *piece = std::move(window_.front());
    window_.pop_front();
    ++first_;
    lock.unlock();
    changed_.notify_all();
    return true;
  }

 private:
  void read() {
    for (;;) {
      Piece p;
      auto more = pieces_.next(&p.text);
      p.offset = pieces_.offset();
      std::unique_lock<std::mutex> lock(mutex_);
      if (!more.ok() || !*more) {
        if (!more.ok()) read_error_ = more.status();
        read_all_ = true;
        lock.unlock();
        changed_.notify_all();
        return;
      }
      changed_.wait(lock, [&] { return stop_ || window_.size() < window_cap_; });
      if (stop_) return;
      window_.push_back(std::move(p));
      lock.unlock();
      changed_.notify_all();
    }
  }
  void scan() {
    std::unique_lock<std::mutex> lock(mutex_);
    for (;;) {
      changed_.wait(lock, [&] { return stop_ || next_scan_ < first_ + window_.size() || read_all_; });
      if (stop_) return;
      if (next_scan_ < first_ + window_.size()) scan_one(lock);
      else if (read_all_) return;
    }
  }
  // Scans the next piece not yet taken, the lock released meanwhile.
  void scan_one(std::unique_lock<std::mutex>& lock) {
    // A deque keeps its elements in place when others are added or taken.
    const std::size_t index = next_scan_++;
    Piece& p = window_[index - first_];
    lock.unlock();
    std::unique_ptr<temporal::ScannedText> scanned;
    Status failed = Status::Ok();
    try {
      scanned = tagger_->scan(p.text);
    } catch (const std::exception& e) {
      failed = Status::Error(std::string("tagging failed: ") + e.what());
    }
    lock.lock();
    if (!failed.ok()) {
      // Reported by next() in place of this piece.
      scan_error_ = failed;
      failed_at_ = std::min(failed_at_, index);
      scanned = std::make_unique<temporal::ScannedText>();
    }
    p.scanned = std::move(scanned);
    changed_.notify_all();
  }

  TextPieces& pieces_;
  const std::size_t scanners_count_, window_cap_;
  const temporal::Tagger* tagger_ = nullptr;
  std::mutex mutex_;
  std::condition_variable changed_;
  std::deque<Piece> window_;  // read, not yet taken by next(): pieces first_, first_ + 1…
  std::size_t first_ = 0, next_scan_ = 0;
  bool read_all_ = false, stop_ = false;
  Status read_error_ = Status::Ok();
  Status scan_error_ = Status::Ok();  // of piece failed_at_, the first whose scan failed
  std::size_t failed_at_ = SIZE_MAX;
  std::thread reader_;
  std::vector<std::thread> scanners_;
};

Status tag_pieces(TagRun& run, ParallelPieces& pieces, const TagWriter::Options& options) {
  TagWriter writer(*run.sink, options);
  temporal::TagState state;
  ParallelPieces::Piece piece;
  Status error = Status::Ok();
  while (pieces.next(&piece, &error)) {
    writer.write(piece.text, piece.offset, run.tagger->resolve(piece.text, *piece.scanned, options.dct, &state));
    run.bytes += piece.text.size();
    if (!writer.ok()) break;
  }
  if (!error.ok()) return error;
  if (!writer.finish()) return Status::Error("cannot write the output");
  return Status::Ok();
}

Status tag_file(TagRun& run, const std::string& path, TagWriter::Options options) {
  if (run.html) {
    auto data = read_input(path);
    if (!data.ok()) return data.status();
    return tag_page(run, std::move(*data), input_name(path), std::move(options));
  }
  auto pieces = TextPieces::open(path, run.encoding, run.lenient, run.piece_size);
  if (!pieces.ok()) return pieces.status();
  return tag_pieces(run, **pieces, options);
}

// One JSONL input: each line an object with "text" (and "id", "date"),
// tagged as one document; other lines are named on stderr and skipped.
Status tag_jsonl(TagRun& run, const std::string& path, std::size_t* skipped) {
  std::ifstream file;
  std::istream* in = &std::cin;
  if (path != "-") {
    file.open(path, std::ios::binary);
    if (!file) return Status::Error("cannot open '" + path + "': " + std::strerror(errno));
    in = &file;
  }
  std::string line;
  for (std::size_t number = 1; std::getline(*in, line); ++number) {
    if (line.find_first_not_of(" \t\r") == std::string::npos) continue;
    const std::string where = input_name(path) + " line " + std::to_string(number);
    const auto j = nlohmann::json::parse(line, nullptr, false);
    if (!j.is_object() || !j.contains("text") || !j["text"].is_string()) {
      std::cerr << "cronista tag: " << where << ": not an object with a \"text\" string (skipped)\n";
      ++*skipped;
      continue;
    }
    TagWriter::Options options = run.writer;
    std::string id = path + ":" + std::to_string(number);
    if (auto it = j.find("id"); it != j.end() && !it->is_null()) id = it->is_string() ? it->get<std::string>() : it->dump();
    options.head = {{"id", id}};
    if (auto it = j.find("date"); it != j.end() && it->is_string() && it->get<std::string>().size() >= 10)
      if (auto d = temporal::Date::parse(it->get<std::string>().substr(0, 10))) options.dct = d;
    std::string text = j["text"].get<std::string>();
    Status s = run.html ? tag_page(run, std::move(text), where, std::move(options)) : [&] {
      TagWriter writer(*run.sink, options);
      writer.write(text, 0, run.tagger->tag(text, options.dct));
      run.bytes += text.size();
      return writer.finish() ? Status::Ok() : Status::Error("cannot write the output");
    }();
    if (!s.ok()) return s;
    ++run.documents;
    run.tick();
  }
  if (in->bad()) return Status::Error("cannot read " + input_name(path));
  return Status::Ok();
}

}  // namespace

int cmd_tag(int argc, char** argv) {
  CLI::App app{"Find, classify and resolve the temporal expressions of Portuguese documents.", "cronista tag"};
  std::string format = "json", scheme, dct, out, home, encoding;
  std::vector<std::string> inputs, patterns;
  std::size_t piece_size = 1 << 20;
  bool html = false, lenient = false, jsonl = false, quiet = false;
  app.add_option("--format", format, "json, timex3 (a TimeML document) or harem (inline HAREM <EM>)")
      ->check(CLI::IsMember({"json", "timex3", "harem"}));
  app.add_option("--scheme", scheme,
                 "which expressions and extents are written, as eval-tagger scores them: timeml, second-harem "
                 "or first-harem (default: second-harem with --format harem, timeml otherwise)")
      ->check(CLI::IsMember({"timeml", "second-harem", "first-harem"}));
  app.add_option("--dct", dct, "document creation time, YYYY-MM-DD")->check(date_validator());
  app.add_flag("--html", html,
               "the input is HTML (its main text is tagged, decoded from the page's charset; the page's own date "
               "is the DCT unless --dct)");
  app.add_option("--encoding", encoding,
                 "character set of the input (default: UTF-8 for text; for HTML the page's declared or detected "
                 "one, which this overrides)");
  app.add_flag("--lenient", lenient, "replace bytes invalid in the input's character set instead of failing");
  app.add_flag("--jsonl", jsonl,
               "batch: the inputs are JSON Lines, one document per line ({\"text\", \"id\"?, \"date\"?}); "
               "one JSON line out per document");
  app.add_flag("--quiet", quiet, "no progress lines in batch mode");
  app.add_option("--out", out, "write here instead of stdout");
  app.add_option("--home", home, "folder holding resources/pt and patterns/ (default: $CRONISTA_HOME or the source tree)");
  std::string genre = "news";
  add_genre_option(app, genre);
  app.add_option("--patterns", patterns, kPatternsHelp)->allow_extra_args(false);
  std::size_t threads = std::max(1u, std::thread::hardware_concurrency());
  app.add_option("--threads", threads,
                 "plain text: threads that tag it, one resolving its pieces in order while the others find their "
                 "expressions (default: the machine's hardware threads; 1: all on one thread)")
      ->check(CLI::Range(std::size_t{1}, std::size_t{256}));
  app.add_option("--piece-size", piece_size, "plain text is tagged in pieces of about this many bytes (default: 1 MiB)")
      ->check(CLI::Range(std::size_t{1024}, std::size_t{1} << 30));
  app.add_option("inputs", inputs,
                 "input file, or - for stdin (default); several files make a batch: one JSON line per file");
  if (auto code = parse(app, argc, argv)) return *code;
  if (inputs.empty()) inputs.push_back("-");
  const bool batch = jsonl || inputs.size() > 1;
  if (batch && format != "json")
    return fail("tag", "a batch (several inputs or --jsonl) writes JSON Lines: --format " + format + " is for one document",
                kExitUsage);
  if (!encoding.empty())
    if (auto name = encoding_name(encoding); !name.ok()) return fail("tag", name.status().message(), kExitUsage);

  TagRun run;
  run.html = html;
  run.lenient = lenient;
  run.encoding = encoding;
  run.piece_size = piece_size;
  run.writer.format = parse_format(format);
  run.writer.scheme =
      scheme.empty() ? (format == "harem" ? eval::GoldScheme::Harem : eval::GoldScheme::TimeML) : parse_scheme(scheme);
  run.writer.line = batch;
  if (!dct.empty()) run.writer.dct = temporal::Date::parse(dct);

  // Everything that can fail before any output: the input opens, the tagger loads.
  // Declared before the pieces: their threads end before the tagger goes.
  std::unique_ptr<temporal::Tagger> tagger;
  std::unique_ptr<TextPieces> pieces;
  std::unique_ptr<ParallelPieces> parallel;
  std::string page;
  if (!batch) {
    if (html) {
      auto data = read_input(inputs[0]);
      if (!data.ok()) return fail("tag", data.status().message());
      page = std::move(*data);
    } else {
      auto opened = TextPieces::open(inputs[0], encoding, lenient, piece_size);
      if (!opened.ok()) return fail("tag", opened.status().message());
      pieces = std::move(*opened);
      // One thread resolves and writes (and scans while it waits); the
      // others scan. (Measured on two cores: one scanning thread beside it
      // is as fast as two, which wait on each other in RE2's DFA cache, and
      // costs less CPU.)
      if (threads > 1) parallel = std::make_unique<ParallelPieces>(*pieces, threads - 1, inputs[0] != "-");
    }
  }
  auto loaded = temporal::Tagger::load(temporal::TaggerOptions{home, patterns, genre_named(genre)});
  if (!loaded.ok()) return fail("tag", loaded.status().message());
  tagger = std::move(*loaded);
  run.tagger = tagger.get();
  if (parallel) parallel->start(run.tagger);

  std::ofstream file;
  if (!out.empty() && out != "-") {
    file.open(out, std::ios::binary | std::ios::trunc);
    if (!file) return fail("tag", "cannot write '" + out + "': " + std::strerror(errno));
  }
  run.sink = file.is_open() ? static_cast<std::ostream*>(&file) : &std::cout;
  auto failed = [&](const Status& s) {
    if (file.is_open()) {
      file.close();
      std::remove(out.c_str());
    }
    return fail("tag", s.message());
  };

  if (!batch) {
    Status s = html ? tag_page(run, std::move(page), input_name(inputs[0]), run.writer)
                    : parallel ? tag_pieces(run, *parallel, run.writer) : tag_pieces(run, *pieces, run.writer);
    return s.ok() ? kExitOk : failed(s);
  }

  // Batch: every input in turn; an input that fails is named and the others
  // go on (exit 1 at the end).
  using Clock = std::chrono::steady_clock;
  const auto start = Clock::now();
  auto last = start;
  std::size_t skipped = 0, failures = 0;
  auto progress = [&](bool final) {
    const double s = std::chrono::duration<double>(Clock::now() - start).count();
    char line[160];
    std::snprintf(line, sizeof line, "%zu documents, %.1f MB in %.1f s (%.1f MB/s)", run.documents, run.bytes / 1e6,
                  s, s > 0 ? run.bytes / 1e6 / s : 0.0);
    std::cerr << "cronista tag: " << line;
    if (final && skipped) std::cerr << "; " << skipped << " lines skipped";
    if (final && failures) std::cerr << "; " << failures << " inputs failed";
    std::cerr << "\n";
  };
  run.tick = [&] {
    if (quiet || Clock::now() - last < std::chrono::seconds(2)) return;
    last = Clock::now();
    progress(false);
  };
  for (const std::string& input : inputs) {
    Status s;
    if (jsonl) {
      s = tag_jsonl(run, input, &skipped);
    } else {
      TagWriter::Options options = run.writer;
      options.head = {{"file", input}};
      s = tag_file(run, input, std::move(options));
      if (s.ok()) ++run.documents;
    }
    if (!s.ok()) {
      ++failures;
      std::cerr << "cronista tag: " << s.message() << "\n";
      if (!*run.sink) return failed(Status::Error("cannot write the output"));
    }
    run.tick();
  }
  run.sink->flush();
  if (!*run.sink) return failed(Status::Error("cannot write the output"));
  if (!quiet || failures) progress(true);
  if (run.documents == 0) return fail("tag", "no document could be tagged");
  return failures ? kExitFailure : kExitOk;
}

}  // namespace cronista::cli
