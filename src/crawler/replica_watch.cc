#include "crawler/replica_watch.h"

#include <algorithm>
#include <limits>
#include <nlohmann/json.hpp>

#include "replicas/pair_evidence.h"
#include "replicas/replica_detection.h"
#include "replicas/site_profiles_db.h"

namespace cronista::crawler {
namespace {

std::string origin_of(const std::string& url, const std::string& authority) {
  const auto scheme = url.find("://");
  return (scheme == std::string::npos ? std::string("http") : url.substr(0, scheme)) + "://" + authority;
}

replicas::SitePage page_of(const std::string& path, const revisit::ContentSignature* signature,
                           const std::vector<std::uint64_t>& sketch) {
  replicas::SitePage page;
  page.path = path;
  if (signature) {
    page.content = signature->exact;
    page.simhash = signature->simhash;
    page.words = static_cast<std::uint32_t>(signature->words);
    page.sketch = sketch;
  }
  return page;
}

std::string evidence_json(const replicas::ScoredPair& p) {
  nlohmann::json f = nlohmann::json::object();
  const auto values = p.evidence.features.values();
  for (int i = 0; i < replicas::PairFeatures::kCount; ++i)
    f[replicas::PairFeatures::name(i)] = values[static_cast<std::size_t>(i)];
  return nlohmann::json{{"features", f},
                        {"shared_paths", p.evidence.shared_paths},
                        {"near_equal_shared_paths", p.evidence.near_equal_shared},
                        {"text_twins", p.evidence.text_twins},
                        {"seed", p.seed > 0   ? "positive"
                                 : p.seed < 0 ? "negative"
                                              : "unlabeled"},
                        {"score", p.score.score}}
      .dump();
}

}  // namespace

std::size_t ReplicaWatch::site(const std::string& authority, const std::string& origin) {
  auto [it, fresh] = site_of_.emplace(authority, sites_.size());
  if (fresh) {
    sites_.emplace_back();
    sites_.back().authority = authority;
    sites_.back().first_seen = ++seen_order_;
    origins_.push_back(origin);
  }
  return it->second;
}

void ReplicaWatch::restore(const ReplicaDecisionRow& d) { decided_[d.replica] = Decision{d, 0}; }

void ReplicaWatch::restore(const ReplicaMoveRow& m) {
  if (moved_urls_.insert(m.url).second) moved_[m.replica].push_back(m);
}

void ReplicaWatch::note_moved(const std::string& url, std::uint16_t depth, std::uint8_t penalty,
                              std::vector<ReplicaMoveRow>* rows) {
  std::string authority, path;
  if (!replicas::split_url(url, &authority, &path) || !decided_.count(authority)) return;
  if (!moved_urls_.insert(url).second) return;
  ReplicaMoveRow m{authority, url, depth, penalty};
  moved_[authority].push_back(m);
  rows->push_back(std::move(m));
}

void ReplicaWatch::note_page(const std::string& url, const std::string& ip, const revisit::ContentSignature* signature,
                             const std::vector<std::uint64_t>& sketch, const std::vector<std::string>& links) {
  std::string authority, path;
  if (!replicas::split_url(url, &authority, &path)) return;
  const std::size_t s = site(authority, origin_of(url, authority));
  replicas::SiteProfile& profile = sites_[s];
  if (!ip.empty()) profile.address = ip;
  if (page_of_.emplace(std::make_pair(s, path), profile.pages.size()).second) {
    profile.pages.push_back(page_of(path, signature, sketch));
    // A text already seen on another host: a candidate worth a round soon.
    const replicas::SitePage& page = profile.pages.back();
    if (page.content != 0 && page.words >= replicas::kMinWordsForContent) {
      const std::size_t i = profile.pages.size() - 1;
      auto [it, fresh] = text_site_.emplace(page.content, std::make_pair(s, i));
      if (!fresh && it->second.first != s) {
        milestone_ = true;
        text_twin(s, i, it->second.first, it->second.second);
      }
    }
  }
  if (profile.pages.size() == kHostMilestone) milestone_ = true;
  std::set<std::string> hosts(profile.outlink_hosts.begin(), profile.outlink_hosts.end());
  if (linked_paths_.size() < sites_.size()) linked_paths_.resize(sites_.size());
  for (const std::string& link : links) {
    std::string to, to_path;
    if (!replicas::split_url(link, &to, &to_path)) continue;
    if (to == authority && linked_paths_[s].size() < kLinkedPathsKept) linked_paths_[s].insert(to_path);
    if (hosts.insert(to).second && to != authority) ++sites_[site(to, origin_of(link, to))].backlinks;
  }
  sites_[s].outlink_hosts.assign(hosts.begin(), hosts.end());
}

void ReplicaWatch::note_redirect(const std::string& from, const std::string& to) {
  std::string fa, fp, ta, tp;
  if (!replicas::split_url(from, &fa, &fp) || !replicas::split_url(to, &ta, &tp) || fa == ta || fp != "/") return;
  replicas::SiteProfile& profile = sites_[site(fa, origin_of(from, fa))];
  site(ta, origin_of(to, ta));
  if (std::find(profile.redirects_to.begin(), profile.redirects_to.end(), ta) == profile.redirects_to.end())
    profile.redirects_to.push_back(ta);
}

void ReplicaWatch::after_page(std::int64_t pages, std::vector<ReplicaDecisionRow>* rows) {
  const std::int64_t every = std::max(kMinPagesBetweenRounds, last_round_ / 10);
  const bool due = pages - last_round_ >= every ||
                   (milestone_ && pages - last_round_ >= std::max(kMinPagesAfterMilestone, last_round_ / 50));
  if (!due) return;
  milestone_ = false;
  last_round_ = pages;
  detect(pages, rows);
}

bool ReplicaWatch::last_round(std::int64_t pages, std::vector<ReplicaDecisionRow>* rows) {
  if (pages > last_round_) {
    last_round_ = pages;
    milestone_ = false;
    detect(pages, rows);
  }
  return verifying();
}

void ReplicaWatch::detect(std::int64_t pages, std::vector<ReplicaDecisionRow>* rows) {
  probe_early();
  const replicas::ReplicaReport report = replicas::detect_replicas(sites_);
  std::map<std::pair<std::string, std::string>, double> scores;  // (host, host) → pair score, both orders
  for (const auto& p : report.pairs) {
    const std::string& a = sites_[p.evidence.a].authority;
    const std::string& b = sites_[p.evidence.b].authority;
    scores[{a, b}] = scores[{b, a}] = p.score.score;
  }
  for (const auto& c : report.clusters) {
    const std::string& canonical = sites_[c.canonical].authority;
    for (const auto& m : c.replicas) {
      const std::string& replica = sites_[m.site].authority;
      // A canonical host that is itself decided or under verification as a
      // replica waits: two hosts never replicate each other.
      if (decided_.count(replica) || verifying_.count(replica) || early_.count(replica) || decided_.count(canonical) ||
          verifying_.count(canonical) || early_.count(canonical) || !m.pair)
        continue;
      // A pair verified not to be replicas is verified again once the
      // replica has twice the pages it had then.
      if (const auto it = rejected_.find({replica, canonical});
          it != rejected_.end() && sites_[m.site].pages.size() < 2 * it->second)
        continue;
      Verification v;
      v.canonical = canonical;
      v.canonical_origin = origins_[c.canonical];
      v.replica_origin = origins_[m.site];
      v.prefix = m.prefix;
      v.kind = m.kind;
      v.score = m.score;
      v.evidence = evidence_json(*m.pair);
      // Probes, in the order the crawl found the pages: first the replica's
      // pages asked of the canonical host (pages the crawl wants anyway; a
      // partial copy holds only pages of its canonical), then the
      // canonical's pages asked of the replica. Each at the same path (under
      // the prefix on the replica); pages without a text and the roots are
      // left out: an index lists what a copy holds, and differs even when
      // every page it lists is the same.
      const std::size_t r = m.site;
      for (const auto& page : sites_[r].pages) {
        if (page.words < replicas::kMinWordsForContent || page.path.compare(0, m.prefix.size(), m.prefix) != 0)
          continue;
        const std::string on_c = page.path.substr(m.prefix.size());
        if (on_c.empty() || on_c == "/" || on_c.front() != '/' || page_of_.count({c.canonical, on_c})) continue;
        Target t{origins_[c.canonical] + on_c, on_c, true};
        if (known_ && known_(t.url)) continue;
        v.paths.push_back(std::move(t));
      }
      // Of the canonical's pages, those the replica links to first: it
      // most likely holds them.
      const auto asked = asked_of(r, c.canonical, m.prefix, &v.served, &v.agreed);
      v.paths.insert(v.paths.end(), asked.begin(), asked.end());
      // Paths both served answer for as many probes as a batch holds.
      if (v.served < kProbes) v.send(replica, &probes_);
      if (v.sent == 0) {
        if (!conclude(replica, v, pages, rows)) rejected_[{replica, canonical}] = sites_[r].pages.size();
        continue;
      }
      verifying_.emplace(replica, std::move(v));
    }
  }
  // A decision the evidence no longer supports: the pair's score fell
  // under kUndoScore (a margin under the clustering threshold, so that a
  // pair decided near it does not flip with each retraining).
  std::vector<std::pair<std::string, double>> contradicted;
  for (const auto& [replica, d] : decided_) {
    if (!site_of_.count(replica) || !site_of_.count(d.row.canonical)) continue;
    const auto it = scores.find({replica, d.row.canonical});
    const double score = it == scores.end() ? 0 : it->second;
    if (score < kUndoScore) contradicted.emplace_back(replica, score);
  }
  for (const auto& [replica, score] : contradicted)
    undo(replica, "pair score with " + decided_[replica].row.canonical + " fell to " + std::to_string(score), rows);
  (void)pages;
}

std::vector<ReplicaWatch::Target> ReplicaWatch::asked_of(std::size_t r, std::size_t c, const std::string& prefix,
                                                        std::size_t* served, std::size_t* agreed) {
  std::vector<Target> linked, unlinked;
  if (linked_paths_.size() < sites_.size()) linked_paths_.resize(sites_.size());
  for (const auto& page : sites_[c].pages) {
    if (page.words < replicas::kMinWordsForContent || page.path == "/") continue;
    // A path both hosts served is evidence without a request.
    if (const auto on_r = page_of_.find({r, prefix + page.path}); on_r != page_of_.end()) {
      ++*served;
      if (replicas::same_document(page, sites_[r].pages[on_r->second])) ++*agreed;
      continue;
    }
    Target t{origins_[r] + prefix + page.path, page.path, false};
    if (known_ && known_(t.url)) continue;
    (linked_paths_[r].count(prefix + page.path) ? linked : unlinked).push_back(std::move(t));
  }
  linked.insert(linked.end(), unlinked.begin(), unlinked.end());
  return linked;
}

void ReplicaWatch::text_twin(std::size_t s, std::size_t i, std::size_t o, std::size_t j) {
  const std::string& here = sites_[s].pages[i].path;
  const std::string& there = sites_[o].pages[j].path;
  // The copy holds the longer path (the original's under a prefix); at the
  // same path, the host seen later.
  std::size_t r = s, c = o;
  std::string prefix;
  if (here.size() > there.size() && here.ends_with(there) && there.front() == '/') {
    prefix = here.substr(0, here.size() - there.size());
  } else if (there.size() > here.size() && there.ends_with(here) && here.front() == '/') {
    r = o, c = s;
    prefix = there.substr(0, there.size() - here.size());
  } else if (here != there) {
    return;
  }
  if (early_sent_[{r, c}] < kProbes) twins_.emplace(std::make_pair(r, c), prefix);
  probe_early();
}

void ReplicaWatch::probe_early() {
  for (auto it = twins_.begin(); it != twins_.end();) {
    const auto [r, c] = it->first;
    const std::string& replica = sites_[r].authority;
    const std::string& canonical = sites_[c].authority;
    if (decided_.count(replica) || decided_.count(canonical) || rejected_.count({replica, canonical})) {
      it = twins_.erase(it);
      continue;
    }
    if (!verifying_.count(replica) && !early_.count(replica) && !early_.count(canonical) &&
        start_early(r, c, it->second) && early_sent_[{r, c}] >= kProbes) {
      it = twins_.erase(it);
      continue;
    }
    ++it;
  }
}

bool ReplicaWatch::start_early(std::size_t r, std::size_t c, const std::string& prefix) {
  std::size_t served = 0, agreed = 0;
  const auto asked = asked_of(r, c, prefix, &served, &agreed);
  // Nothing of c to ask yet: tried again when c has more pages.
  if (asked.empty()) return false;
  std::size_t& sent = early_sent_[{r, c}];
  const std::string& replica = sites_[r].authority;
  const std::string& canonical = sites_[c].authority;
  Early& e = early_[replica];
  e.canonical = canonical;
  for (std::size_t k = 0; k < asked.size() && sent < kProbes; ++k, ++sent) {
    probes_.push_back(ReplicaProbe{asked[k].url, replica, origins_[c] + asked[k].canonical_path});
    e.urls.insert(asked[k].url);
  }
  return true;
}

void ReplicaWatch::Verification::send(const std::string& replica, std::vector<ReplicaProbe>* probes) {
  const std::size_t end = std::min(paths.size(), sent + kProbes);
  for (; sent < end; ++sent) {
    const Target& t = paths[sent];
    probes->push_back(ReplicaProbe{t.url, replica,
                                   t.on_canonical ? replica_origin + prefix + t.canonical_path
                                                  : canonical_origin + t.canonical_path});
  }
  ++batches;
}

ReplicaProbe ReplicaWatch::take_probe(std::size_t i) {
  ReplicaProbe p = std::move(probes_[i]);
  probes_.erase(probes_.begin() + static_cast<std::ptrdiff_t>(i));
  return p;
}

void ReplicaWatch::on_probe(const ReplicaProbe& probe, long status, const std::string& fetched_at,
                            const revisit::ContentSignature* signature, const std::vector<std::uint64_t>& sketch,
                            std::int64_t pages, std::vector<ReplicaDecisionRow>* rows,
                            std::vector<ReplicaProbeRow>* probe_rows) {
  if (auto e = early_.find(probe.replica); e != early_.end() && e->second.urls.erase(probe.url)) {
    // An early probe: its answer, a page of the replica, is in the
    // profiles already; once all have answered, a round.
    bool agreed = false;
    std::string c, path;
    if (status >= 200 && status < 300 && signature && replicas::split_url(probe.counterpart, &c, &path))
      if (const auto cs = site_of_.find(c); cs != site_of_.end())
        if (const auto p = page_of_.find({cs->second, path}); p != page_of_.end())
          agreed = replicas::same_document(sites_[cs->second].pages[p->second], page_of(path, signature, sketch));
    probe_rows->push_back(ReplicaProbeRow{probe.replica, e->second.canonical, probe.url, fetched_at, status, agreed});
    if (e->second.urls.empty()) {
      early_.erase(e);
      last_round_ = pages;
      milestone_ = false;
      detect(pages, rows);
    }
    return;
  }
  auto it = verifying_.find(probe.replica);
  if (it == verifying_.end()) return;
  Verification& v = it->second;
  ++v.answered;
  bool agreed = false;
  const auto target = std::find_if(v.paths.begin(), v.paths.end(), [&](const Target& t) { return t.url == probe.url; });
  if (status >= 200 && status < 300 && target != v.paths.end()) {
    ++v.served;
    // The page the probe's answer is compared with: on the other host.
    const auto other = site_of_.find(target->on_canonical ? probe.replica : v.canonical);
    const std::string other_path = target->on_canonical ? v.prefix + target->canonical_path : target->canonical_path;
    if (other != site_of_.end())
      if (auto p = page_of_.find({other->second, other_path}); p != page_of_.end())
        agreed = replicas::same_document(sites_[other->second].pages[p->second],
                                         page_of(target->canonical_path, signature, sketch));
  }
  if (agreed) ++v.agreed;
  probe_rows->push_back(ReplicaProbeRow{probe.replica, v.canonical, probe.url, fetched_at, status, agreed});
  if (v.answered < v.sent) return;
  if (v.served == 0 && v.batches < kProbeBatches && v.sent < v.paths.size()) {
    v.send(probe.replica, &probes_);
    return;
  }
  if (!conclude(probe.replica, v, pages, rows))
    rejected_[{probe.replica, v.canonical}] = sites_[site_of_.at(probe.replica)].pages.size();
  verifying_.erase(it);
}

bool ReplicaWatch::conclude(const std::string& replica, Verification& v, std::int64_t pages,
                            std::vector<ReplicaDecisionRow>* rows) {
  if (v.agreed < 1 || 3 * v.agreed < 2 * v.served) return false;
  // The canonical host was decided a replica meanwhile: a later round
  // clusters the pair again, with the canonical host of that decision.
  if (decided_.count(v.canonical)) return true;
  decide(replica, v, pages, rows);
  return true;
}

void ReplicaWatch::decide(const std::string& replica, Verification& v, std::int64_t pages,
                          std::vector<ReplicaDecisionRow>* rows) {
  ReplicaDecisionRow d;
  d.replica = replica;
  d.canonical = v.canonical;
  d.canonical_origin = v.canonical_origin;
  d.prefix = v.prefix;
  d.kind = v.kind;
  d.score = v.score;
  d.probes = static_cast<std::int64_t>(v.sent);
  d.probes_agreed = static_cast<std::int64_t>(v.agreed);
  d.pages_before = pages;
  nlohmann::json e = nlohmann::json::parse(v.evidence);
  e["probes"] = {{"sent", v.sent}, {"served", v.served}, {"agreed", v.agreed}};
  d.evidence = e.dump();
  d.decided_at = iso_time(std::chrono::system_clock::now());
  rows->push_back(d);
  decided_[replica] = Decision{std::move(d), 0};
}

void ReplicaWatch::undo(const std::string& replica, const std::string& reason, std::vector<ReplicaDecisionRow>* rows) {
  auto it = decided_.find(replica);
  if (it == decided_.end()) return;
  ReplicaDecisionRow d = it->second.row;
  d.undone_at = iso_time(std::chrono::system_clock::now());
  d.undo_reason = reason;
  // Undone for good: the pair is not verified again.
  rejected_[{replica, d.canonical}] = std::numeric_limits<std::size_t>::max() / 2;
  rows->push_back(std::move(d));
  decided_.erase(it);
  // What the decision moved goes back to the replica.
  if (auto m = moved_.find(replica); m != moved_.end()) {
    for (ReplicaMoveRow& row : m->second) {
      moved_urls_.erase(row.url);
      returned_.push_back(std::move(row));
    }
    moved_.erase(m);
  }
}

std::optional<std::string> ReplicaWatch::rewrite(const std::string& url) {
  std::string authority, path;
  if (decided_.empty() || !replicas::split_url(url, &authority, &path)) return std::nullopt;
  std::optional<std::string> out;
  // A canonical host decided a replica later: follow the chain (bounded).
  for (int hop = 0; hop < 4; ++hop) {
    const auto it = decided_.find(authority);
    if (it == decided_.end()) break;
    const ReplicaDecisionRow& d = it->second.row;
    if (!d.prefix.empty()) {
      if (path.compare(0, d.prefix.size(), d.prefix) != 0 ||
          (path.size() > d.prefix.size() && path[d.prefix.size()] != '/' && path[d.prefix.size()] != '?'))
        break;
      path = path.substr(d.prefix.size());
      if (path.empty() || path.front() != '/') path.insert(path.begin(), '/');
    }
    rewritten_[d.canonical_origin + path] = authority;
    authority = d.canonical;
    out = d.canonical_origin + path;
  }
  return out;
}

void ReplicaWatch::on_rewritten(const std::string& url, bool found, std::vector<ReplicaDecisionRow>* rows) {
  const auto r = rewritten_.find(url);
  if (r == rewritten_.end()) return;
  const std::string replica = r->second;
  rewritten_.erase(r);
  auto it = decided_.find(replica);
  if (it == decided_.end()) return;
  Decision& d = it->second;
  if (found) return;
  ++d.misses;
  if (d.misses >= kMissesToUndo)
    undo(replica, std::to_string(d.misses) + " rewritten URLs missing on " + d.row.canonical, rows);
}

}  // namespace cronista::crawler
