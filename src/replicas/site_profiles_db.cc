#include "replicas/site_profiles_db.h"

#include <algorithm>
#include <map>
#include <set>
#include <unordered_map>

#include "replicas/pair_evidence.h"
#include "replicas/shingles.h"
#include "revisit/content_signature.h"

namespace cronista::replicas {
bool split_url(const std::string& url, std::string* authority, std::string* path) {
  const auto scheme = url.find("://");
  if (scheme == std::string::npos) return false;
  const auto start = scheme + 3;
  const auto slash = url.find_first_of("/?#", start);
  *authority = url.substr(start, slash == std::string::npos ? std::string::npos : slash - start);
  *path = slash == std::string::npos ? "/" : url.substr(slash);
  if (const auto hash = path->find('#'); hash != std::string::npos) path->resize(hash);
  if (path->empty() || path->front() != '/') path->insert(path->begin(), '/');
  return !authority->empty();
}

Result<SiteProfiles> read_site_profiles(store::Database& db) {
  SiteProfiles out;
  auto has_docs = db.has_table("documents");
  if (!has_docs.ok()) return has_docs.status();
  if (!*has_docs) return Result<SiteProfiles>::Error("database '" + db.path() + "' holds no analysed documents");
  auto text_col = db.has_column("segments", "text");
  if (!text_col.ok()) return text_col.status();
  auto crawl = db.has_table("pages");
  if (!crawl.ok()) return crawl.status();

  std::unordered_map<std::string, std::size_t> site_of;
  auto site = [&](const std::string& authority) -> SiteProfile& {
    auto [it, fresh] = site_of.emplace(authority, out.sites.size());
    if (fresh) {
      out.sites.emplace_back();
      out.sites.back().authority = authority;
      out.sites.back().first_seen = static_cast<long>(out.sites.size());
    }
    return out.sites[it->second];
  };

  // Documents and their main texts.
  std::unordered_map<std::int64_t, std::string> doc_site;
  {
    const std::string sql =
        *text_col ? "SELECT d.id, d.url, group_concat(s.text, ' ') FROM documents d "
                    "LEFT JOIN (SELECT doc_id, text FROM segments WHERE boilerplate = 0 ORDER BY doc_id, ordinal) s "
                    "ON s.doc_id = d.id WHERE d.url IS NOT NULL GROUP BY d.id ORDER BY d.id"
                  : "SELECT d.id, d.url, NULL FROM documents d WHERE d.url IS NOT NULL ORDER BY d.id";
    auto st = db.prepare(sql);
    if (!st.ok()) return st.status();
    while (st->step()) {
      std::string authority, path;
      if (!split_url(st->column_text(1), &authority, &path)) continue;
      ++out.documents;
      SitePage page;
      page.path = path;
      if (*text_col && !st->column_is_null(2)) {
        const auto sig = revisit::content_signature(st->column_text(2));
        page.content = sig.exact;
        page.simhash = sig.simhash;
        page.words = sig.words;
        page.sketch = shingle_sketch(st->column_text(2));
      }
      doc_site[st->column_int(0)] = authority;
      site(authority).pages.push_back(std::move(page));
    }
    if (!st->status().ok()) return st->status();
  }
  out.main_text = *text_col;

  if (*crawl && !*text_col) {
    // Whole-body hashes: the texts are unknown, the bodies' SHA-1 stands in.
    auto st = db.prepare(
        "SELECT p.url, p.content_hash FROM pages p WHERE p.document_id IS NOT NULL AND p.content_hash IS NOT NULL");
    if (!st.ok()) return st.status();
    std::map<std::pair<std::string, std::string>, std::uint64_t> body;  // (authority, path) → hash
    while (st->step()) {
      std::string authority, path;
      const std::string hex = st->column_text(1).substr(0, 16);
      if (!split_url(st->column_text(0), &authority, &path) || hex.size() < 16 ||
          hex.find_first_not_of("0123456789abcdefABCDEF") != std::string::npos)
        continue;
      body[{authority, path}] = std::stoull(hex, nullptr, 16);
    }
    if (!st->status().ok()) return st->status();
    for (auto& s : out.sites)
      for (auto& p : s.pages)
        if (auto it = body.find({s.authority, p.path}); it != body.end()) {
          p.content = it->second;
          p.words = kMinWordsForContent;  // a body counts as content; no simhash
        }
  }

  // Links: the hosts each site links to, and backlinks from other sites.
  {
    auto st = db.prepare("SELECT doc_id, target FROM links");
    if (!st.ok()) return st.status();
    std::map<std::size_t, std::set<std::string>> linked;
    while (st->step()) {
      const auto from = doc_site.find(st->column_int(0));
      std::string authority, path;
      if (from == doc_site.end() || !split_url(st->column_text(1), &authority, &path)) continue;
      linked[site_of[from->second]].insert(authority);
      if (authority != from->second)
        if (auto it = site_of.find(authority); it != site_of.end()) ++out.sites[it->second].backlinks;
    }
    if (!st->status().ok()) return st->status();
    for (auto& [s, hosts] : linked) out.sites[s].outlink_hosts.assign(hosts.begin(), hosts.end());
  }

  if (*crawl) {
    // Whole-host redirects: a site's root, or most of its redirects, leading to another host.
    auto st = db.prepare("SELECT from_url, to_url FROM redirects");
    if (st.ok()) {
      std::map<std::pair<std::string, std::string>, int> counts;
      std::map<std::string, int> from_total;
      std::set<std::pair<std::string, std::string>> root;
      while (st->step()) {
        std::string fa, fp, ta, tp;
        if (!split_url(st->column_text(0), &fa, &fp) || !split_url(st->column_text(1), &ta, &tp) || fa == ta) continue;
        ++counts[{fa, ta}];
        ++from_total[fa];
        if (fp == "/") root.insert({fa, ta});
      }
      for (const auto& [pair, n] : counts)
        if (root.count(pair) || 2 * n >= from_total[pair.first])
          if (auto it = site_of.find(pair.first); it != site_of.end())
            out.sites[it->second].redirects_to.push_back(pair.second);
    }
    auto addr = db.has_column("hosts", "address");
    if (addr.ok() && *addr) {
      auto hs = db.prepare("SELECT authority, address FROM hosts WHERE address IS NOT NULL");
      if (hs.ok())
        while (hs->step())
          if (auto it = site_of.find(hs->column_text(0)); it != site_of.end()) out.sites[it->second].address = hs->column_text(1);
    }
  }
  return out;
}

}  // namespace cronista::replicas
