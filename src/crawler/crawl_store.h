// The crawl's database: the crawl tables (runs, hosts, urls, frontier, pages,
// redirects, history) beside the analysis tables of store/analysis_store.h,
// in one SQLite file (WAL). Schema: docs/schema.md.
//
// All writes go through one writer thread fed by submit(): jobs are applied
// in order and committed in batches (every N jobs or T milliseconds). A
// fetched page, its analysis, the frontier changes it causes, its history
// row and its "downloaded" mark travel in ONE job and so in one transaction:
// after a kill -9 the database holds each page either completely or not at
// all, which is what makes --resume lose nothing and repeat nothing. The
// --order-out file is appended only after a commit, from what was committed;
// on resume it is rewritten from the history table, so it always equals it.
// WARC records are written by the writer thread too, before the commit.
//
// Reads the crawl loop needs while the writer runs (refilling a host window
// from the frontier table) go through a second, read-only connection
// (SpillReader), which sees committed data only.
#pragma once

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include "crawler/frontier.h"
#include "crawler/warc.h"
#include "revisit/content_signature.h"
#include "revisit/rate_prior.h"
#include "store/analysis_store.h"
#include "store/database.h"
#include "temporal/genre.h"
#include "temporal/status.h"

namespace cronista::crawler {

// One row of `pages` plus what travels with it.
struct PageRecord {
  std::string url;
  std::string final_url;
  long status = 0;
  std::string error_kind;  // "" or timeout, dns, connect, tls, too-large, protocol, other, http-4xx, http-5xx…
  std::string error;
  std::string fetched_at;  // ISO 8601 UTC
  double duration_ms = 0;
  std::string http_version;
  std::string headers;  // raw response head
  std::int64_t size = 0;
  std::string content_hash;  // sha1 hex of the body
  std::string content_type, charset, charset_from;
  std::int64_t replaced_bytes = 0;
  std::string last_modified, etag;
  std::optional<bool> relevant;  // null when not analysed
  std::int64_t segments = 0, segments_in_scope = 0, chronons = 0, links = 0, links_kept = 0;
  std::int64_t depth = 0, backlinks = 0, attempts = 0;
  bool history = false;  // a download: goes to history and --order-out
  // Redirect hop: where it points (also a row in `redirects`).
  std::string redirect_to;

  // Change detection (revisit/content_signature.h): the main text's
  // signature of an analysed page; whether this fetch revisits a page
  // downloaded before, and then whether its main text changed (a 304 did
  // not); how many of its links the crawl had never seen.
  std::optional<revisit::ContentSignature> main_signature;
  std::vector<std::uint64_t> main_sketch;  // its shingles' sketch, for replica detection (replicas/shingles.h)
  bool revisit = false;
  std::optional<bool> changed;
  std::optional<std::int64_t> new_urls;
  // A first download: the frontier priority it was fetched at (the link it
  // came through), what the crawl's link yields learn from.
  std::optional<std::int64_t> link_priority;
  // A page's first download in a revisiting crawl: what it shows of how
  // often it changes (revisit/page_features.h), the learned prior's input.
  std::optional<revisit::PageFeatures> features;
  // The WARC record for a revisit: a revisit record referring to the
  // earlier capture instead of a response record.
  WarcRevisit warc_revisit = WarcRevisit::kNone;
  std::string warc_refers_to_uri, warc_refers_to_date;

  // Analysis, when the page was HTML and analysed.
  bool analysed = false;
  store::DocumentInfo info;
  temporal::TextDocument doc;
  std::vector<temporal::TemporalExpression> expressions;
  std::vector<temporal::Segment> segments_found;
  std::vector<store::LinkInfo> link_rows;
  std::vector<bool> segment_in_scope;

  // WARC exchange (written when the store has a WarcWriter): the request as
  // sent, the response head as received, the content-decoded body.
  std::string warc_request, warc_response_head, body, ip;
};

struct HostRow {
  std::uint32_t id = 0;
  std::string authority, origin;
  std::string robots_outcome;  // set when robots.txt was fetched
  std::int64_t crawl_delay_ms = 0;
};

// A robots.txt response, kept in the WARC as Heritrix keeps it (no page row).
struct RobotsRecord {
  std::string url, fetched_at, request, response_head, body, ip;
};

// A replica decision of the crawl (replica_watch.h): `replica` is fetched
// no more and its URLs go to `canonical` (under `prefix` only, when set).
// Written again when it is undone (undone_at, undo_reason).
struct ReplicaDecisionRow {
  std::string replica, canonical;  // authorities ("host:port")
  std::string canonical_origin;    // "http://host:port"
  std::string prefix, kind;
  double score = 0;
  std::int64_t probes = 0, probes_agreed = 0;
  std::int64_t pages_before = 0;  // pages the crawl had downloaded when it decided
  std::string evidence;           // JSON: the pair's features and the probes' outcome
  std::string decided_at, undone_at, undo_reason;
};

// A verification probe: one known path of the canonical host asked of the replica.
struct ReplicaProbeRow {
  std::string replica, canonical, url, fetched_at;
  long status = 0;
  bool agreed = false;  // the replica answered with the same document
};

// A URL of a decided replica moved onto its canonical host: queued again
// on the replica if the decision is undone.
struct ReplicaMoveRow {
  std::string replica, url;  // the replica's authority, the URL on it
  std::uint16_t depth = 0;
  std::uint8_t penalty = 0;
};

struct StoreJob {
  std::uint64_t id = 0;  // assigned by submit()
  std::size_t bytes = 0;  // estimated memory held, set by submit()
  std::vector<HostRow> hosts;
  std::vector<ReplicaDecisionRow> replica_decisions;
  std::vector<ReplicaProbeRow> replica_probes;
  std::vector<ReplicaMoveRow> replica_moves;
  std::vector<FrontierOp> ops;
  std::unique_ptr<PageRecord> page;
  std::unique_ptr<RobotsRecord> robots;
};

struct RunInfo {
  std::int64_t id = 0;
  std::string mode, from, to, args;
  double threshold = 0.99;
};

struct CrawlStoreOptions {
  std::string order_out;  // --order-out, empty for none
  std::string warc;       // --warc, empty for none
  std::size_t batch_jobs = 256;
  std::chrono::milliseconds batch_time{250};
  std::string software = "cronista/0.1";
  temporal::Genre genre = temporal::Genre::News;  // recorded in the database (AnalysisStore::record_genre)
};

// What load() finds in the database. URLs are streamed to a visitor, not
// collected: a resumed crawl may hold millions.
struct ResumeState {
  std::vector<HostRow> hosts;  // in id order
  struct Url {
    std::string_view url;   // the canonical URL (valid during the call)
    std::uint64_t key = 0;  // url_key() of the canonical URL
    std::uint32_t host = 0, seq = 0, backlinks = 0;
    std::uint16_t depth = 0;
    std::uint8_t penalty = 0;  // link penalty (FrontierEntry::penalty)
    UrlState state = UrlState::Queued;
  };
  std::int64_t pages = 0, relevant = 0;
  // The downloads by the priority they were fetched at: {priority, pages,
  // relevant of them} (rows written before the column existed have none).
  struct LinkYieldRow {
    std::int64_t priority = 0, pages = 0, relevant = 0;
  };
  std::vector<LinkYieldRow> link_yields;
  // A download (a history row), streamed in download order after every
  // URL: what the crawl learnt from the page. Views valid during the call.
  struct Download {
    std::string_view url;
    std::optional<bool> relevant;  // nullopt: not analysed
    std::string_view title;        // of the page's analysis (the latest, after a changed revisit)
  };
};

// One fetch of a downloaded HTML page (its first download or a revisit
// answered 200 or 304), as stored: what a resumed revisit crawl rebuilds its
// schedule from.
struct StoredVisit {
  std::string url;
  std::uint32_t host = 0;
  std::uint16_t depth = 0;
  std::string fetched_at;
  long status = 0;
  bool revisit = false;
  std::optional<bool> changed;
  std::optional<revisit::ContentSignature> signature;  // null in rows of an older cronista
  std::string etag, last_modified, content_hash;
  std::optional<bool> relevant;
  std::int64_t new_urls = 0;
  std::optional<revisit::PageFeatures> features;  // of a first download, when stored
};

class CrawlStore {
 public:
  // Opens (creating) the database and its schema. Does not start writing.
  static Result<std::unique_ptr<CrawlStore>> open(const std::string& db_path, const CrawlStoreOptions& options);
  ~CrawlStore();

  // The run to resume (the last one), if the database holds a crawl.
  Result<std::optional<RunInfo>> last_run();
  // Starts a run row; `resumed_from` is the run continued, 0 for a new crawl.
  Result<std::int64_t> begin_run(const RunInfo& run, std::int64_t resumed_from);
  // Loads hosts and URLs for a resumed crawl. Backlinks are recounted from
  // the links table: distinct pages linking each URL (kept links only when
  // kept_only).
  // Hosts are handed to on_host in id order, before any URL; the
  // downloads to on_download in download order, after every URL.
  Result<ResumeState> load(bool kept_only, const std::function<void(const ResumeState::Url&)>& on_url,
                           const std::function<void(const HostRow&)>& on_host,
                           const std::function<void(const ResumeState::Download&)>& on_download);

  // Every visit of a downloaded HTML page, in fetch order (before start()).
  Status visits(const std::function<void(const StoredVisit&)>& on_visit);

  // The replica decisions in force (not undone), in decision order (before start()).
  Result<std::vector<ReplicaDecisionRow>> replica_decisions();
  // The URLs moved by the decisions in force.
  Result<std::vector<ReplicaMoveRow>> replica_moves();

  // Starts the writer thread; opens the order file and the WARC.
  // `on_commit` runs on the writer thread after each commit.
  Status start(std::function<void(std::uint64_t committed_job)> on_commit);
  // Queues a job; returns its id. Thread-safe.
  std::uint64_t submit(StoreJob job);
  // Jobs waiting to be written, and an estimate of the memory they hold
  // (back-pressure for the crawl loop).
  std::size_t backlog() const;
  std::size_t backlog_bytes() const;
  std::uint64_t committed() const { return committed_.load(); }
  // Commits the jobs queued now without waiting for more to fill the batch
  // (a worker of a shared crawl with nothing else to do waits on them).
  // Thread-safe.
  void commit_soon();
  // Writes everything queued, closes the run (end reason), the WARC and the
  // order file, stops the writer. The first write error, if any.
  Status finish(const std::string& end_reason);
  // The first error of the writer thread (it stops writing after one).
  Status error() const;

  // Reads queued entries of one host (for Frontier refills).
  FrontierSpill* spill();

 private:
  explicit CrawlStore(const CrawlStoreOptions& options);
  void writer_loop();
  Status apply(StoreJob& job, std::vector<std::string>* order_lines);
  // One fetch into the WARC: a response record and its request.
  Status write_warc(std::string_view url, std::string_view fetched_at, std::string_view ip, std::string_view request,
                    std::string_view response_head, std::string_view body, const PageRecord* revisit = nullptr);
  Status prepare_statements();
  Status rewrite_order_file();
  // "URL<TAB>seconds": the crawling time (earlier runs included, the time
  // between runs not) when the download's transfer started.
  static std::string order_line(const std::string& url, const std::string& fetched_at, std::int64_t run_start_ms,
                                double run_offset);

  class Spill;
  CrawlStoreOptions options_;
  std::string path_;
  store::Database db_;
  std::unique_ptr<FrontierSpill> spill_;
  std::unique_ptr<WarcWriter> warc_;
  std::FILE* order_ = nullptr;
  std::int64_t run_id_ = 0;
  std::int64_t run_start_ms_ = 0;  // this run's started_at
  double run_offset_ = 0;          // seconds crawled by the earlier runs

  struct Statements;
  std::unique_ptr<Statements> st_;

  mutable std::mutex mu_;
  std::condition_variable cv_;
  std::deque<StoreJob> queue_;
  std::size_t queue_bytes_ = 0;
  std::uint64_t next_job_ = 1;
  bool stopping_ = false;
  bool hurry_ = false;  // commit_soon(): the batch ends when the queue is empty
  std::thread writer_;
  std::atomic<std::uint64_t> committed_{0};
  std::function<void(std::uint64_t)> on_commit_;
  Status error_;
  std::atomic<bool> failed_{false};
};

// An existing crawl database opened to be read (by an evaluator): a file
// that is missing or is not a crawl database (no crawl_meta table, checked
// read-only first, so that it stays as it is) is a one-line error.
Result<std::unique_ptr<CrawlStore>> open_existing_crawl(const std::string& db_path);

// ISO 8601 UTC with milliseconds: "2026-11-22T08:30:43.123Z".
std::string iso_time(std::chrono::system_clock::time_point t);
// Milliseconds since the epoch of an iso_time() string, or nullopt.
std::optional<std::int64_t> iso_ms(const std::string& s);
// The WARC-Date of a fetch whose fetched_at is an iso_time(): to the second.
std::string warc_date(std::string_view fetched_at);

}  // namespace cronista::crawler
