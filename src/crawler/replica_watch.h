// Replica detection during the crawl (`crawl --replicas detect`).
//
// The watch keeps a site profile (replicas/site_profile.h) of every host the
// crawl downloads from: each page's path and main-text signature and
// sketch, the host's address, the hosts it links to, whole-host redirects.
// Detection (replicas/replica_detection.h: candidates from inverted indexes,
// never all pairs) runs in rounds: after a number of pages that grows with
// the crawl (a tenth of what was downloaded, kMinPagesBetweenRounds at
// least), sooner (a fiftieth, kMinPagesAfterMilestone at least) when a host
// reaches its kHostMilestone-th page or a page's main text is already held
// by another host, and once more when the frontier runs dry. Rounds grow
// geometrically apart: a crawl of N pages runs at most about 50 ln(N) of
// them, each one pass over the profiles.
//
// A host is probed early, before any round clusters it, when one of its
// first pages has the main text of a page of another host at the same
// path or at that path under a prefix (the longer path is the copy's, R;
// at the same path the host seen later): R is held and kProbes pages of C
// are asked of R (under the prefix), those R links to first (when C has
// fewer to ask yet, the rest at a later round). Their answers
// are pages of R like any other; once all have answered a round runs at
// once, so that a copy is clustered from its twins after a few requests
// rather than after the pages the crawl would fetch of it meanwhile. A pair
// gets kProbes early probes at most; the decision itself is taken as below.
//
// A pair that detection clusters (replica R, canonical C) is verified
// before anything is decided: R is held (no fetches of its own) and probes
// compare pages at one path on both hosts (under the prefix on R): pages R
// served asked of C first (pages the crawl wants anyway; a partial copy
// holds only pages of C), then pages C served asked of R (those R links to
// first), in the order the crawl found them, pages without a text and the
// roots left out; kProbes at a time, another kProbes while none was served
// (a copy lacks many), kProbeBatches batches at most. Paths both hosts
// served already count as probes answered, without a request; with kProbes
// of them no probe is sent. R is a replica when at least one path was
// served by both with the same document (replicas::same_document) and two
// thirds of those served by both agreed. A pair found not to be
// replicas is verified again once R has twice the pages it had then.
// Probes are requests like any other (robots.txt and the host's politeness
// apply) and are recorded as probes, not pages.
//
// A decision stops R's fetches: R's queued and future URLs are rewritten
// onto C (same path, or the path under the prefix with the prefix removed),
// each carrying its backlinks. A decision is undone when later evidence
// contradicts it: a later round scores the pair under kUndoScore, or
// rewritten URLs are missing on C (kMissesToUndo answers 404/410 there: a
// replica serves every path of its canonical, so R holds pages C lacks);
// the pair is not decided again. Decisions and their undoing are stored
// with their evidence (docs/schema.md: replica_decisions, replica_probes);
// a resumed crawl restores the decisions in force. The URLs a decision
// moved are stored with it (replica_moves); undone, it gives them back:
// they are queued again on the replica.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <utility>
#include <vector>

#include "crawler/crawl_store.h"
#include "replicas/site_profile.h"
#include "revisit/content_signature.h"

namespace cronista::crawler {

inline constexpr std::int64_t kMinPagesBetweenRounds = 16;
inline constexpr std::size_t kHostMilestone = 3;
inline constexpr std::int64_t kMinPagesAfterMilestone = 2;
inline constexpr double kUndoScore = 0.25;
inline constexpr std::size_t kProbes = 3;
inline constexpr int kProbeBatches = 3;  // batches of kProbes while the replica serves none of them
inline constexpr int kMissesToUndo = 2;
inline constexpr std::size_t kLinkedPathsKept = 1024;  // per host: the paths of its own it links to, for probes

// A request the watch wants made: a probe of the pair of `replica` at
// `url` (on the replica or on its canonical host).
struct ReplicaProbe {
  std::string url;
  std::string replica;      // authority
  std::string counterpart;  // the same page's URL on the other host of the pair
};

class ReplicaWatch {
 public:
  // Whether the crawl has a URL downloaded or under way (not yet noted
  // here): such a URL is not asked by a probe.
  void set_known(std::function<bool(const std::string& url)> known) { known_ = std::move(known); }

  // A decision in force from an earlier run.
  void restore(const ReplicaDecisionRow& d);
  // A URL a decision in force moved, from an earlier run.
  void restore(const ReplicaMoveRow& m);

  // A downloaded HTML page: its URL, the address that answered, its main
  // text (signature and shingle sketch) and the URLs it links to.
  void note_page(const std::string& url, const std::string& ip, const revisit::ContentSignature* signature,
                 const std::vector<std::uint64_t>& sketch, const std::vector<std::string>& links);
  // A redirect answered by `from` to `to`.
  void note_redirect(const std::string& from, const std::string& to);

  // After a page: runs a detection round when one is due; decisions and
  // undoings go to *rows.
  void after_page(std::int64_t pages, std::vector<ReplicaDecisionRow>* rows);

  // The crawl ran out of URLs: a last round over what came since the
  // previous one. True when it left probes to send (the crawl goes on).
  bool last_round(std::int64_t pages, std::vector<ReplicaDecisionRow>* rows);
  bool verifying() const { return !verifying_.empty() || !early_.empty(); }

  // Probes waiting to be sent; the crawl takes them when their host's
  // politeness allows (take_probe).
  const std::vector<ReplicaProbe>& probes() const { return probes_; }
  ReplicaProbe take_probe(std::size_t i);
  // A probe's answer: status, and the main text when it was an analysed page.
  void on_probe(const ReplicaProbe& probe, long status, const std::string& fetched_at,
                const revisit::ContentSignature* signature, const std::vector<std::uint64_t>& sketch,
                std::int64_t pages, std::vector<ReplicaDecisionRow>* rows, std::vector<ReplicaProbeRow>* probe_rows);

  // The URL on the canonical host for a URL of a decided replica, or
  // nullopt; the watch remembers it until its answer (on_rewritten).
  std::optional<std::string> rewrite(const std::string& url);
  // A host under verification: nothing of its own is fetched.
  bool held(const std::string& authority) const {
    return verifying_.count(authority) > 0 || early_.count(authority) > 0;
  }
  // The answer to a URL that a decision rewrote: `found` false for 404/410.
  void on_rewritten(const std::string& url, bool found, std::vector<ReplicaDecisionRow>* rows);
  bool rewritten(const std::string& url) const { return rewritten_.count(url) > 0; }
  // A URL of a decided replica (`url`, at `depth`, with the link penalty
  // it had) that the crawl moved onto the canonical host: remembered, and
  // stored (*rows) the first time, so that undoing the decision gives it back.
  void note_moved(const std::string& url, std::uint16_t depth, std::uint8_t penalty,
                  std::vector<ReplicaMoveRow>* rows);
  // The URLs of decisions undone since the last call, to queue again on their hosts.
  std::vector<ReplicaMoveRow> take_returned() { return std::exchange(returned_, {}); }
  bool has_returned() const { return !returned_.empty(); }

  std::size_t decisions() const { return decided_.size(); }

 private:
  struct Target {
    std::string url;             // the probe's URL
    std::string canonical_path;  // the path on the canonical host
    bool on_canonical = false;   // asked of the canonical host (a page the replica served)
  };
  struct Verification {
    std::string canonical, canonical_origin, replica_origin, prefix, kind;
    double score = 0;
    std::string evidence;  // the pair's features (JSON)
    std::size_t sent = 0, answered = 0, served = 0, agreed = 0;
    std::vector<Target> paths;  // what to probe, in order; the first `sent` are sent
    int batches = 0;
    void send(const std::string& replica, std::vector<ReplicaProbe>* probes);
  };
  struct Decision {
    ReplicaDecisionRow row;
    int misses = 0;
  };
  struct Early {  // a host probed early (R), with the probes sent and answered
    std::string canonical;
    std::set<std::string> urls;  // the probes not answered yet
  };
  std::size_t site(const std::string& authority, const std::string& origin);
  // The pages of site c (with a text, not the root) that site r has not
  // served under `prefix`, to ask of r: those r links to first. Paths both
  // served count in *served and *agreed (when the pages are the same document).
  std::vector<Target> asked_of(std::size_t r, std::size_t c, const std::string& prefix, std::size_t* served,
                               std::size_t* agreed);
  // A page of site s (page i) with the main text of page j of site o.
  void text_twin(std::size_t s, std::size_t i, std::size_t o, std::size_t j);
  // Early probes for the twins waiting (twins_) whose pair is free; each
  // started pair leaves the list.
  void probe_early();
  bool start_early(std::size_t r, std::size_t c, const std::string& prefix);
  void detect(std::int64_t pages, std::vector<ReplicaDecisionRow>* rows);
  void undo(const std::string& replica, const std::string& reason, std::vector<ReplicaDecisionRow>* rows);
  // Decides when the probes agree; false when they do not.
  bool conclude(const std::string& replica, Verification& v, std::int64_t pages, std::vector<ReplicaDecisionRow>* rows);
  void decide(const std::string& replica, Verification& v, std::int64_t pages, std::vector<ReplicaDecisionRow>* rows);

  std::vector<replicas::SiteProfile> sites_;
  std::vector<std::string> origins_;
  std::unordered_map<std::string, std::size_t> site_of_;
  std::map<std::pair<std::size_t, std::string>, std::size_t> page_of_;  // (site, path) → page
  std::map<std::string, Verification> verifying_;                       // by replica authority
  std::map<std::string, Decision> decided_;                             // by replica authority
  // (replica, canonical) verified not replicas → the replica's pages then
  std::map<std::pair<std::string, std::string>, std::size_t> rejected_;
  std::vector<ReplicaProbe> probes_;
  std::function<bool(const std::string& url)> known_;
  std::unordered_map<std::string, std::string> rewritten_;    // rewritten URL → replica
  std::map<std::string, std::vector<ReplicaMoveRow>> moved_;  // by replica: its URLs moved by the decision
  std::unordered_set<std::string> moved_urls_;
  std::vector<ReplicaMoveRow> returned_;  // moved URLs of decisions undone
  std::vector<std::unordered_set<std::string>> linked_paths_;  // by site: paths of its own its pages link to
  // main-text signature → the first (site, page) holding it
  std::unordered_map<std::uint64_t, std::pair<std::size_t, std::size_t>> text_site_;
  std::map<std::string, Early> early_;                   // by replica authority
  std::map<std::pair<std::size_t, std::size_t>, std::size_t> early_sent_;  // (r, c) → early probes sent
  std::map<std::pair<std::size_t, std::size_t>, std::string> twins_;  // (r, c) → prefix: to probe early
  std::int64_t last_round_ = 0;
  bool milestone_ = false;
  long seen_order_ = 0;
};

}  // namespace cronista::crawler
