#include "replicas/pair_evidence.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <set>
#include <unordered_set>

#include "replicas/shingles.h"
#include "temporal/edit_distance.h"

namespace cronista::replicas {
namespace {

constexpr std::size_t kMaxBucket = 64;  // a text or band shared by more sites is boilerplate

std::string subnet_of(const std::string& address) {
  const auto dot = address.rfind('.');
  if (dot == std::string::npos || address.find(':') != std::string::npos) return {};
  return address.substr(0, dot);
}

// Study's group feature: 1/(|G| - 1) for a group of size |G| ≥ 2.
double group_feature(const std::map<std::string, std::vector<std::uint32_t>>& groups, const std::string& key) {
  if (key.empty()) return 0;
  const auto it = groups.find(key);
  if (it == groups.end() || it->second.size() < 2) return 0;
  return 1.0 / static_cast<double>(it->second.size() - 1);
}

}  // namespace

std::vector<double> PairFeatures::values() const {
  return {name_distance, name_tokens,     same_address,    same_subnet, path_cosine,
          rsim,          shared_path_text, text_coverage, outlink_overlap, same_robots,
          redirect,      name_alias,      name_other_suffix, prefix_mapped};
}

const char* PairFeatures::name(int i) {
  static const char* kNames[kCount] = {"name_distance", "name_tokens",      "same_address",   "same_subnet",
                                       "path_cosine",   "rsim",             "shared_path_text", "text_coverage",
                                       "outlink_overlap", "same_robots",    "redirect",       "name_alias",
                                       "name_other_suffix", "prefix_mapped"};
  return i >= 0 && i < kCount ? kNames[i] : "";
}

ReplicaIndex::ReplicaIndex(const std::vector<SiteProfile>& sites) : sites_(sites) {
  names_.reserve(sites.size());
  path_index_.resize(sites.size());
  for (std::uint32_t s = 0; s < sites.size(); ++s) {
    const SiteProfile& site = sites[s];
    names_.push_back(parse_host_name(site.authority));
    std::set<std::string> tokens;
    for (auto& t : host_tokens(names_.back())) tokens.insert(t);
    for (const auto& t : tokens) ++token_df_[t];
    label_sites_[names_.back().address ? names_.back().host : names_.back().label].push_back(s);
    if (!site.address.empty()) {
      address_sites_[site.address].push_back(s);
      if (auto net = subnet_of(site.address); !net.empty()) subnet_sites_[net].push_back(s);
    }
    std::set<std::uint64_t> texts_here;
    for (std::uint32_t p = 0; p < site.pages.size(); ++p) {
      const SitePage& page = site.pages[p];
      if (!path_index_[s].emplace(page.path, p).second) continue;  // a path counts once per site
      path_sites_[page.path].push_back(s);
      if (page.content != 0 && page.words >= kMinWordsForContent) {
        if (texts_here.insert(page.content).second) text_pages_[page.content].push_back({s, p});
        for (int band = 0; band < 4; ++band)
          bands_[{band, static_cast<std::uint16_t>(page.simhash >> (16 * band))}].push_back({s, p});
        ++tuple_sites_[page.path + '\t' + std::to_string(page.content)];
      }
    }
  }
  for (const auto& [path, holders] : path_sites_) max_path_df_ = std::max(max_path_df_, holders.size());
}

std::vector<std::pair<std::size_t, std::size_t>> ReplicaIndex::candidates() const {
  std::set<std::pair<std::size_t, std::size_t>> out;
  auto add_group = [&](const auto& members, auto site_of) {
    if (members.size() < 2 || members.size() > kMaxPathSites) return;
    for (std::size_t i = 0; i < members.size(); ++i)
      for (std::size_t j = i + 1; j < members.size(); ++j) {
        const std::size_t a = site_of(members[i]), b = site_of(members[j]);
        if (a != b) out.emplace(std::min(a, b), std::max(a, b));
      }
  };
  auto site_id = [](std::uint32_t s) { return static_cast<std::size_t>(s); };
  auto page_site = [](const PageRef& r) { return static_cast<std::size_t>(r.site); };
  for (const auto& [path, holders] : path_sites_) add_group(holders, site_id);
  for (const auto& [text, refs] : text_pages_)
    if (refs.size() <= kMaxBucket) add_group(refs, page_site);
  for (const auto& [band, refs] : bands_)
    if (refs.size() <= kMaxBucket) add_group(refs, page_site);
  for (const auto& [address, holders] : address_sites_) add_group(holders, site_id);
  for (const auto& [label, holders] : label_sites_) add_group(holders, site_id);
  std::unordered_map<std::string, std::size_t> by_authority;
  for (std::size_t s = 0; s < sites_.size(); ++s) by_authority.emplace(sites_[s].authority, s);
  for (std::size_t s = 0; s < sites_.size(); ++s)
    for (const auto& target : sites_[s].redirects_to)
      if (auto it = by_authority.find(target); it != by_authority.end() && it->second != s)
        out.emplace(std::min(s, it->second), std::max(s, it->second));
  return {out.begin(), out.end()};
}

bool near_equal(const SitePage& x, const SitePage& y) {
  if (x.content == 0 || y.content == 0) return false;
  if (x.content == y.content) return true;
  return x.words >= 50 && y.words >= 50 && std::popcount(x.simhash ^ y.simhash) <= kNearBits;
}

bool ReplicaIndex::near_equal(const SitePage& x, const SitePage& y) const { return replicas::near_equal(x, y); }

bool ReplicaIndex::same_document(const SitePage& x, const SitePage& y) const { return replicas::same_document(x, y); }

bool same_document(const SitePage& x, const SitePage& y) {
  if (near_equal(x, y)) return true;
  return x.words >= kMinWordsForContent && y.words >= kMinWordsForContent &&
         resemblance(x.sketch, y.sketch) >= kVersionResemblance;
}

void ReplicaIndex::find_prefix(std::size_t a, std::size_t b, PairEvidence* ev) const {
  // Votes for "b holds a's page p at PREFIX + p" (and the reverse), from
  // pages with the same text at different paths.
  std::map<std::pair<bool, std::string>, std::size_t> votes;
  std::size_t twins = 0;
  for (const SitePage& pa : sites_[a].pages) {
    if (pa.content == 0 || pa.words < kMinWordsForContent) continue;
    const auto it = text_pages_.find(pa.content);
    if (it == text_pages_.end()) continue;
    for (const PageRef& r : it->second) {
      if (r.site != b) continue;
      const std::string& qb = sites_[b].pages[r.page].path;
      if (qb == pa.path) continue;
      ++twins;
      if (qb.size() > pa.path.size() && qb.ends_with(pa.path) && pa.path.front() == '/')
        ++votes[{false, qb.substr(0, qb.size() - pa.path.size())}];
      else if (pa.path.size() > qb.size() && pa.path.ends_with(qb) && qb.front() == '/')
        ++votes[{true, pa.path.substr(0, pa.path.size() - qb.size())}];
    }
  }
  std::pair<bool, std::string> best;
  std::size_t best_votes = 0;
  for (const auto& [key, n] : votes)
    if (n > best_votes) best = key, best_votes = n;
  if (best_votes >= 3 && best_votes * 2 >= twins && best.second.front() == '/') {
    ev->prefix = best.second;
    ev->prefix_on_a = best.first;
  }
}

PairEvidence ReplicaIndex::evidence(std::size_t a, std::size_t b) const {
  if (a > b) std::swap(a, b);
  PairEvidence ev;
  ev.a = a;
  ev.b = b;
  PairFeatures& f = ev.features;
  const HostName &na = names_[a], &nb = names_[b];

  const std::string wa = without_www(na), wb = without_www(nb);
  f.name_distance = static_cast<double>(temporal::edit_distance(wa, wb)) / static_cast<double>(std::max<std::size_t>(1, std::max(wa.size(), wb.size())));
  {
    std::map<std::string, double> va, vb;
    auto weight = [&](const std::string& t) {
      const auto df = token_df_.count(t) ? token_df_.at(t) : 1u;
      return std::log(static_cast<double>(std::max<std::size_t>(2, t.size()))) / (1 + std::log(static_cast<double>(df)));
    };
    for (auto& t : host_tokens(na)) va[t] = weight(t);
    for (auto& t : host_tokens(nb)) vb[t] = weight(t);
    double dot = 0, xa = 0, xb = 0;
    for (auto& [t, w] : va) {
      xa += w * w;
      if (auto it = vb.find(t); it != vb.end()) dot += w * it->second;
    }
    for (auto& [t, w] : vb) xb += w * w;
    f.name_tokens = xa > 0 && xb > 0 ? dot / std::sqrt(xa * xb) : 0;
  }
  const std::string &addr_a = sites_[a].address, &addr_b = sites_[b].address;
  if (!addr_a.empty() && addr_a == addr_b) f.same_address = group_feature(address_sites_, addr_a);
  if (const auto net = subnet_of(addr_a); !net.empty() && net == subnet_of(addr_b))
    f.same_subnet = group_feature(subnet_sites_, net);
  const NameRelation rel = name_relation(na, nb);
  f.name_alias = rel == NameRelation::kAlias;
  f.name_other_suffix = rel == NameRelation::kOtherSuffix;

  find_prefix(a, b, &ev);
  f.prefix_mapped = ev.prefix.empty() ? 0 : 1;
  // The copy's paths as the original's: strip the prefix from the side that holds it.
  const std::size_t copy = ev.prefix.empty() ? b : (ev.prefix_on_a ? a : b);
  const std::size_t orig = copy == a ? b : a;
  auto mapped = [&](const std::string& path) -> std::optional<std::string> {
    if (ev.prefix.empty()) return path;
    if (!path.starts_with(ev.prefix)) return std::nullopt;
    return path.substr(ev.prefix.size());
  };

  // Paths: weighted cosine, shared paths with near-equal texts, NormPaths.
  auto path_weight = [&](const std::string& p) {
    const auto it = path_sites_.find(p);
    const double df = it == path_sites_.end() ? 1.0 : static_cast<double>(it->second.size());
    return 1 + std::log(static_cast<double>(max_path_df_) / df);
  };
  double dot = 0, norm_orig = 0, norm_copy = 0;
  for (const auto& [p, page] : path_index_[orig]) {
    const auto it = path_sites_.find(p);
    if (it != path_sites_.end() && it->second.size() > kMaxPathSites) continue;
    const double w = path_weight(p);
    norm_orig += w * w;
  }
  for (const auto& [p, page_copy] : path_index_[copy]) {
    const auto m = mapped(p);
    if (!m) continue;
    const auto it = path_sites_.find(*m);
    if (it != path_sites_.end() && it->second.size() > kMaxPathSites) continue;
    const double w = path_weight(*m);
    norm_copy += w * w;
    const auto in_orig = path_index_[orig].find(*m);
    if (in_orig == path_index_[orig].end()) continue;
    dot += w * w;
    ++ev.shared_paths;
    const SitePage &x = sites_[orig].pages[in_orig->second], &y = sites_[copy].pages[page_copy];
    if (near_equal(x, y)) {
      ++ev.near_equal_shared;
    } else if (same_document(x, y)) {
      ++ev.near_equal_shared;
      ++ev.versions_shared;
    }
  }
  f.path_cosine = norm_orig > 0 && norm_copy > 0 ? dot / std::sqrt(norm_orig * norm_copy) : 0;
  f.shared_path_text = ev.shared_paths ? static_cast<double>(ev.near_equal_shared) / static_cast<double>(ev.shared_paths) : 0;
  const std::size_t smaller_pages = std::max<std::size_t>(1, std::min(path_index_[a].size(), path_index_[b].size()));
  f.rsim = normpaths_rsim(a, b) / static_cast<double>(smaller_pages);

  // Texts of the smaller site found anywhere in the other.
  const std::size_t small = path_index_[a].size() <= path_index_[b].size() ? a : b, large = small == a ? b : a;
  std::size_t with_text = 0;
  for (const SitePage& p : sites_[small].pages) {
    if (p.content == 0 || p.words < kMinWordsForContent) continue;
    ++with_text;
    bool found = false;
    if (auto it = text_pages_.find(p.content); it != text_pages_.end())
      found = std::any_of(it->second.begin(), it->second.end(), [&](const PageRef& r) { return r.site == large; });
    // The page at the same path of the other site (its prefix mapped), in another version.
    if (!found) {
      std::string there = p.path;
      if (!ev.prefix.empty()) {
        if (small == copy && p.path.starts_with(ev.prefix)) there = p.path.substr(ev.prefix.size());
        if (small == orig) there = ev.prefix + p.path;
      }
      if (auto it = path_index_[large].find(there); it != path_index_[large].end())
        found = same_document(p, sites_[large].pages[it->second]);
    }
    for (int band = 0; band < 4 && !found && p.words >= 50; ++band) {
      const auto it = bands_.find({band, static_cast<std::uint16_t>(p.simhash >> (16 * band))});
      if (it == bands_.end() || it->second.size() > kMaxBucket) continue;
      for (const PageRef& r : it->second)
        if (r.site == large && near_equal(p, sites_[large].pages[r.page])) {
          found = true;
          break;
        }
    }
    ev.text_twins += found;
  }
  f.text_coverage = with_text ? static_cast<double>(ev.text_twins) / static_cast<double>(with_text) : 0;

  // Linked hosts, each site's own authority (and its partner's) as one token.
  auto linked = [&](std::size_t s) {
    std::unordered_set<std::string> out;
    for (const auto& h : sites_[s].outlink_hosts)
      out.insert(h == sites_[a].authority || h == sites_[b].authority ? std::string("\x01self") : h);
    return out;
  };
  const auto la = linked(a), lb = linked(b);
  std::size_t common = 0;
  for (const auto& h : la) common += lb.count(h);
  const std::size_t uni = la.size() + lb.size() - common;
  f.outlink_overlap = uni ? static_cast<double>(common) / static_cast<double>(uni) : 0;

  f.same_robots = !sites_[a].robots.empty() && sites_[a].robots == sites_[b].robots;
  auto redirects = [&](std::size_t from, std::size_t to) {
    const auto& r = sites_[from].redirects_to;
    return std::find(r.begin(), r.end(), sites_[to].authority) != r.end();
  };
  f.redirect = redirects(a, b) || redirects(b, a);
  return ev;
}

double ReplicaIndex::normpaths_rsim(std::size_t a, std::size_t b) const {
  double rsim = 0;
  for (const SitePage& p : sites_[a].pages) {
    if (p.content == 0 || p.words < kMinWordsForContent) continue;
    const auto in_b = path_index_[b].find(p.path);
    if (in_b == path_index_[b].end() || sites_[b].pages[in_b->second].content != p.content) continue;
    const auto it = tuple_sites_.find(p.path + '\t' + std::to_string(p.content));
    if (it != tuple_sites_.end() && it->second > 0) rsim += 1.0 / static_cast<double>(it->second);
  }
  return rsim;
}

}  // namespace cronista::replicas
