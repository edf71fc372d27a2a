// The build pipeline. Threads: one reader, N analysers, one writer, and the
// calling thread, which reports progress until the writer is done. The
// reader admits a document only while the window (documents and bytes
// between reading and storing) has room; the writer frees the room as it
// stores, in reading order, so memory is bounded by the window whatever the
// size of the collection.
#include "corpus/collection_builder.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <deque>
#include <map>
#include <mutex>
#include <optional>
#include <thread>

#include "corpus/collection_xml.h"
#include "store/analysis_store.h"
#include "store/database.h"

namespace cronista::corpus {

namespace {

using Clock = std::chrono::steady_clock;

// An unbounded MPMC queue; the window bounds what is in it.
template <typename T>
class Channel {
 public:
  void push(T v) {
    {
      std::lock_guard<std::mutex> l(mu_);
      items_.push_back(std::move(v));
    }
    cv_.notify_one();
  }
  // False once closed and empty.
  bool pop(T* out) {
    std::unique_lock<std::mutex> l(mu_);
    cv_.wait(l, [&] { return closed_ || !items_.empty(); });
    if (items_.empty()) return false;
    *out = std::move(items_.front());
    items_.pop_front();
    return true;
  }
  void close() {
    {
      std::lock_guard<std::mutex> l(mu_);
      closed_ = true;
    }
    cv_.notify_all();
  }

 private:
  std::mutex mu_;
  std::condition_variable cv_;
  std::deque<T> items_;
  bool closed_ = false;
};

struct WorkItem {
  std::uint64_t seq = 0;
  std::uint64_t bytes = 0;
  CollectionDocument doc;
};

struct ResultItem {
  std::uint64_t seq = 0;
  std::uint64_t bytes = 0;
  std::string where;  // "FILE: offset N", for messages
  std::optional<AnalysedDocument> doc;
  std::string error;  // when doc is empty
};

std::string mb(std::uint64_t bytes) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f", static_cast<double>(bytes) / 1e6);
  return buf;
}

std::string hms(double seconds) {
  const auto s = static_cast<long long>(seconds + 0.5);
  char buf[32];
  std::snprintf(buf, sizeof buf, "%lld:%02lld:%02lld", s / 3600, (s / 60) % 60, s % 60);
  return buf;
}

class Build {
 public:
  Build(const BuildOptions& o, const temporal::Tagger& tagger)
      : options_(o), analysis_(tagger, o.granularity) {
    threads_ = o.threads > 0 ? o.threads : static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
    window_docs_ = o.window_documents > 0 ? o.window_documents : static_cast<std::size_t>(32 * threads_);
    workers_running_ = threads_;
  }

  Result<BuildStats> run() {
    auto reader = open_collection(options_.input, options_.format);
    if (!reader.ok()) return reader.status();
    reader_ = std::move(reader.value());
    reader_->max_document_bytes = options_.max_document_bytes;
    reader_->on_error = [this](const std::string& m) { log("skipped " + m); };

    auto db = store::Database::open(options_.db_path);
    if (!db.ok()) return db.status();
    db_ = std::move(db.value());
    // A crawl database has its own runs, frontier and pages; documents added
    // to it by a build would pass for crawled pages.
    auto crawled = db_.has_table("crawl_meta");
    if (!crawled.ok()) return Status::Error("database '" + options_.db_path + "': " + crawled.status().message());
    if (*crawled)
      return Status::Error("database '" + options_.db_path +
                           "' holds a crawl made by `cronista crawl`, not a collection: give the build its own --db");
    if (Status s = store::AnalysisStore::ensure_schema(db_); !s.ok()) return s;
    if (Status s = store::AnalysisStore::record_genre(db_, options_.genre); !s.ok()) return s;
    if (!options_.xml_out.empty()) {
      std::string warning;
      auto xml = CollectionXmlWriter::open(db_, options_.xml_out, &warning);
      if (!xml.ok()) return xml.status();
      xml_ = std::move(xml.value());
      if (!warning.empty()) log(warning);
    }
    auto lookup = store::Database::open(options_.db_path, /*read_only=*/true);
    if (!lookup.ok()) return lookup.status();
    lookup_ = std::move(lookup.value());

    start_ = Clock::now();
    std::thread reader_thread([this] { read_loop(); });
    std::vector<std::thread> workers;
    for (int i = 0; i < threads_; ++i) workers.emplace_back([this] { analyse_loop(); });
    std::thread writer_thread([this] { write_loop(); });

    {
      std::unique_lock<std::mutex> l(done_mu_);
      const auto interval = std::chrono::duration<double>(options_.progress_interval_seconds);
      while (!writer_done_) {
        if (done_cv_.wait_for(l, interval, [&] { return writer_done_; })) break;
        l.unlock();
        report_progress();
        l.lock();
      }
    }
    reader_thread.join();
    for (std::thread& t : workers) t.join();
    writer_thread.join();
    report_progress();  // the final figures, whatever the interval

    if (error_.ok() && !reader_->status().ok()) error_ = reader_->status();
    if (error_.ok() && xml_) error_ = xml_->finish(db_);
    if (!error_.ok()) return error_;
    stats_.documents_failed += reader_->corrupt_records();
    stats_.documents_skipped = skipped_.load();
    stats_.input_bytes = reader_->bytes_read();
    stats_.seconds = std::chrono::duration<double>(Clock::now() - start_).count();
    return stats_;
  }

 private:
  void log(const std::string& line) {
    if (!options_.progress) return;
    std::lock_guard<std::mutex> l(log_mu_);
    options_.progress(line);
  }

  void fail(Status s) {
    {
      std::lock_guard<std::mutex> l(window_mu_);
      if (error_.ok()) error_ = std::move(s);
      abort_ = true;
    }
    window_cv_.notify_all();
  }

  void report_progress() {
    const double elapsed = std::chrono::duration<double>(Clock::now() - start_).count();
    const std::uint64_t bytes = bytes_read_.load(), total = reader_->total_bytes();
    const std::uint64_t built = built_.load(), skipped = skipped_.load();
    const double byte_rate = elapsed > 0 ? static_cast<double>(bytes) / elapsed : 0;
    const double doc_rate = elapsed > 0 ? static_cast<double>(built + skipped) / elapsed : 0;
    char buf[256];
    std::snprintf(buf, sizeof buf, "%llu documents built, %llu skipped; %s of %s MB; %.0f docs/s, %s MB/s; ETA %s",
                  static_cast<unsigned long long>(built), static_cast<unsigned long long>(skipped), mb(bytes).c_str(),
                  mb(total).c_str(), doc_rate, mb(static_cast<std::uint64_t>(byte_rate)).c_str(),
                  byte_rate > 0 && total > bytes ? hms(static_cast<double>(total - bytes) / byte_rate).c_str() : "-");
    log(buf);
  }

  bool already_built(const std::string& key) {
    if (!lookup_stmt_) {
      auto st = lookup_.prepare("SELECT 1 FROM documents WHERE key = ?");
      if (!st.ok()) {
        fail(st.status());
        return false;
      }
      lookup_stmt_.emplace(std::move(st.value()));
    }
    lookup_stmt_->reset();
    lookup_stmt_->bind(1, key);
    const bool found = lookup_stmt_->step();
    if (!lookup_stmt_->status().ok()) fail(lookup_stmt_->status());
    lookup_stmt_->reset();
    return found;
  }

  void read_loop() {
    CollectionDocument doc;
    std::uint64_t seq = 0;
    while (reader_->next(&doc)) {
      ++stats_.documents_read;
      bytes_read_.store(reader_->bytes_read());
      if (already_built(doc.key)) {
        ++skipped_;
        continue;
      }
      const std::uint64_t bytes = doc.content.size();
      {
        std::unique_lock<std::mutex> l(window_mu_);
        window_cv_.wait(l, [&] {
          return abort_ || in_flight_docs_ == 0 ||
                 (in_flight_docs_ < window_docs_ && in_flight_bytes_ + bytes <= options_.window_bytes);
        });
        if (abort_) break;
        ++in_flight_docs_;
        in_flight_bytes_ += bytes;
      }
      work_.push(WorkItem{seq++, bytes, std::move(doc)});
      doc = CollectionDocument{};
    }
    bytes_read_.store(reader_->bytes_read());
    work_.close();
  }

  void analyse_loop() {
    WorkItem item;
    while (work_.pop(&item)) {
      ResultItem r{item.seq, item.bytes, item.doc.file + ": offset " + std::to_string(item.doc.offset),
                   std::nullopt, {}};
      if (!abort_.load()) {
        try {
          r.doc = analysis_.analyse(std::move(item.doc));
        } catch (const std::exception& e) {
          r.error = r.where + ": analysis failed: " + e.what();
        }
      }
      results_.push(std::move(r));
    }
    if (--workers_running_ == 0) results_.close();
  }

  void write_loop() {
    std::map<std::uint64_t, ResultItem> pending;
    std::uint64_t next = 0;
    std::optional<store::Transaction> tx;
    std::size_t in_batch = 0;
    auto batch_started = Clock::now();
    auto commit = [&]() -> bool {
      if (!tx) return true;
      if (xml_) {
        if (Status s = xml_->checkpoint(db_); !s.ok()) {
          fail(s);
          return false;
        }
      }
      if (Status s = tx->commit(); !s.ok()) {
        fail(Status::Error("database '" + db_.path() + "': " + s.message()));
        return false;
      }
      tx.reset();
      in_batch = 0;
      return true;
    };
    ResultItem r;
    while (results_.pop(&r)) {
      const std::uint64_t seq = r.seq;
      pending.emplace(seq, std::move(r));
      while (!pending.empty() && pending.begin()->first == next) {
        ResultItem item = std::move(pending.begin()->second);
        pending.erase(pending.begin());
        ++next;
        if (!abort_.load()) store_one(item, tx, in_batch, batch_started);
        {
          std::lock_guard<std::mutex> l(window_mu_);
          --in_flight_docs_;
          in_flight_bytes_ -= item.bytes;
        }
        window_cv_.notify_one();
        if (!abort_.load() && tx &&
            (in_batch >= options_.batch_documents || Clock::now() - batch_started > std::chrono::seconds(1)))
          commit();
      }
    }
    if (!abort_.load()) commit();
    {
      std::lock_guard<std::mutex> l(done_mu_);
      writer_done_ = true;
    }
    done_cv_.notify_all();
  }

  void store_one(ResultItem& item, std::optional<store::Transaction>& tx, std::size_t& in_batch,
                 Clock::time_point& batch_started) {
    if (!item.doc) {
      if (!item.error.empty()) {
        ++stats_.documents_failed;
        log("skipped " + item.error);
      }
      return;
    }
    if (!tx) {
      tx.emplace(db_);
      if (!tx->begin_status().ok()) {
        fail(tx->begin_status());
        return;
      }
      batch_started = Clock::now();
    }
    AnalysedDocument& d = *item.doc;
    // A key read twice in one run (a WPT03 dump listing a URL twice): the
    // first record stays, as a later run would keep it too.
    if (!key_stmt_) {
      auto st = db_.prepare("SELECT 1 FROM documents WHERE key = ?");
      if (!st.ok()) {
        fail(Status::Error("database '" + db_.path() + "': " + st.status().message()));
        return;
      }
      key_stmt_.emplace(std::move(st.value()));
    }
    key_stmt_->reset();
    key_stmt_->bind(1, d.info.key);
    const bool seen = key_stmt_->step();
    if (!key_stmt_->status().ok()) {
      fail(Status::Error("database '" + db_.path() + "': " + key_stmt_->status().message()));
      return;
    }
    key_stmt_->reset();
    if (seen) {
      ++stats_.documents_failed;
      log("skipped " + item.where + ": duplicate key '" + d.info.key + "', the first record is kept");
      return;
    }
    store::StoredAnalysis a{&d.text, &d.expressions, &d.segments, d.links, {}};
    auto id = store::AnalysisStore::put(db_, d.info, a);
    if (!id.ok()) {
      fail(Status::Error("database '" + db_.path() + "': " + id.status().message()));
      return;
    }
    if (xml_) {
      if (Status s = xml_->append(d, *id); !s.ok()) {
        fail(s);
        return;
      }
    }
    ++in_batch;
    ++built_;
    ++stats_.documents_built;
    stats_.text_bytes += d.text.text.size();
  }

  const BuildOptions& options_;
  DocumentAnalysis analysis_;
  int threads_ = 1;
  std::size_t window_docs_ = 32;

  std::unique_ptr<CollectionReader> reader_;
  store::Database db_;      // the writer's connection
  store::Database lookup_;  // the reader's connection, for resumption
  std::optional<store::Statement> lookup_stmt_;
  std::optional<store::Statement> key_stmt_;  // the writer's, on db_
  std::unique_ptr<CollectionXmlWriter> xml_;

  Channel<WorkItem> work_;
  Channel<ResultItem> results_;
  std::atomic<int> workers_running_{0};  // the last one to finish closes results_

  std::mutex window_mu_;
  std::condition_variable window_cv_;
  std::size_t in_flight_docs_ = 0;
  std::uint64_t in_flight_bytes_ = 0;
  std::atomic<bool> abort_{false};
  Status error_;

  std::mutex done_mu_;
  std::condition_variable done_cv_;
  bool writer_done_ = false;

  std::mutex log_mu_;
  Clock::time_point start_;
  std::atomic<std::uint64_t> bytes_read_{0}, built_{0}, skipped_{0};
  BuildStats stats_;
};

}  // namespace

Result<BuildStats> build_collection(const BuildOptions& options, const temporal::Tagger& tagger) {
  Build build(options, tagger);
  return build.run();
}

std::string format_build_summary(const BuildStats& s) {
  const double secs = s.seconds > 0 ? s.seconds : 1e-9;
  char buf[320];
  std::snprintf(buf, sizeof buf,
                "%llu documents built, %llu already in the database, %llu skipped as corrupt; %s MB of input in "
                "%.2f s: %.1f docs/s, %.2f MB/s (text %.2f MB/s)",
                static_cast<unsigned long long>(s.documents_built), static_cast<unsigned long long>(s.documents_skipped),
                static_cast<unsigned long long>(s.documents_failed), mb(s.input_bytes).c_str(), s.seconds,
                static_cast<double>(s.documents_built) / secs, static_cast<double>(s.input_bytes) / 1e6 / secs,
                static_cast<double>(s.text_bytes) / 1e6 / secs);
  return buf;
}

}  // namespace cronista::corpus
