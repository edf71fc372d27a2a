// Links of the sample web: a paragraph links mostly to pages whose date lies
// within a year of its own; some links go through redirect chains or to
// removed pages (404); hrefs are written absolute, root-relative, relative
// or with a fragment, as real sites mix them.
#include "sampleweb/sample_web_generator.h"

#include <algorithm>
#include <set>

namespace cronista::sampleweb::gen {

int Generator::near_page(DayNumber mid) {
  const DayNumber t = mid + rng_.uniform(-365, 365);
  auto it = std::lower_bound(content_by_center_.begin(), content_by_center_.end(), t,
                             [&](int id, DayNumber v) { return pages_[id].center < v; });
  if (it == content_by_center_.end()) --it;
  const DayNumber c = pages_[*it].center;
  auto lo = std::lower_bound(content_by_center_.begin(), content_by_center_.end(), c,
                             [&](int id, DayNumber v) { return pages_[id].center < v; });
  auto hi = std::upper_bound(content_by_center_.begin(), content_by_center_.end(), c,
                             [&](DayNumber v, int id) { return v < pages_[id].center; });
  return *(lo + rng_.uniform(0, static_cast<int>(hi - lo) - 1));
}

int Generator::random_content_page(int site) {
  if (site >= 0 && !content_of_site_[site].empty()) return rng_.pick(content_of_site_[site]);
  return rng_.pick(content_by_center_);
}

std::string Generator::link_url(int target) {
  const std::string final_url = url(target);
  const Page& t = pages_[target];
  const int roll = rng_.uniform(0, 999);
  if (roll < 10) {
    // A link to a page that was removed: 404.
    Extra e{t.site, "", 404, ""};
    e.path = unique_path(t.site, t.path.back() == '/' ? t.path + "removido" : t.path + "-removido");
    path_index_[t.site][e.path] = -1;
    extras_.push_back(e);
    return base(t.site) + e.path;
  }
  if (roll < 50 && t.kind == Kind::Article) {
    // An old address: /artigo/<slug> → 301 → /wiki/<slug>.
    auto known = alias_of_.find(final_url);
    if (known != alias_of_.end()) return known->second;
    const std::string path = "/artigo/" + t.path.substr(std::string("/wiki/").size());
    extras_.push_back({t.site, path, 301, final_url});
    path_index_[t.site][path] = -1;
    return alias_of_[final_url] = base(t.site) + path;
  }
  if (roll < 70 && (t.kind == Kind::News || t.kind == Kind::Anniversary) && !t.disallowed) {
    // A short link through two redirects: /n/<id> → 302 → /r/<id> → 301 → the article.
    const std::string id = std::to_string(++jump_counter_);
    extras_.push_back({t.site, "/r/" + id, 301, final_url});
    extras_.push_back({t.site, "/n/" + id, 302, base(t.site) + "/r/" + id});
    return base(t.site) + "/n/" + id;
  }
  return final_url;
}

std::string Generator::href(int from_page, const std::string& absolute) {
  const Page& from = pages_[from_page];
  const std::string own = base(from.site);
  const int roll = rng_.uniform(0, 99);
  if (absolute.compare(0, own.size(), own) != 0 || absolute.size() == own.size() || absolute[own.size()] != '/') {
    return roll < 5 ? absolute + "#topo" : absolute;
  }
  const std::string path = absolute.substr(own.size());
  if (roll < 55) return path;
  if (roll < 80) return absolute;
  if (roll < 90) return path + "#seccao";
  // Relative to the current folder when both live in the same one.
  const std::size_t a = from.path.find_last_of('/'), b = path.find_last_of('/');
  if (a == b && from.path.compare(0, a + 1, path, 0, b + 1) == 0 && b + 1 < path.size()) return path.substr(b + 1);
  return path;
}

void Generator::add_links(int page, Block& b, const std::vector<DaySpan>& periods, int count) {
  if (count <= 0 || content_by_center_.empty()) return;
  std::vector<std::string> anchors;
  std::set<int> used;
  for (int i = 0; i < count; ++i) {
    int target;
    if (periods.empty() || rng_.percent(12)) {
      target = random_content_page();
    } else {
      const DaySpan& p = periods[static_cast<std::size_t>(rng_.uniform(0, static_cast<int>(periods.size()) - 1))];
      if (rng_.percent(8) && p.first.year == p.last.year && year_page_.count(p.first.year)) {
        // The year page, with the year as anchor: the year joins the paragraph's periods.
        target = year_page_[p.first.year];
        if (!used.insert(target).second) continue;
        const std::string u = url(target);
        anchors.push_back(anchor(page, u, pages_[target].title));
        b.section.links.push_back(u);
        b.section.periods.push_back(year_span(p.first.year));
        continue;
      }
      target = near_page(p.mid());
    }
    if (target == page || !used.insert(target).second) continue;
    const std::string u = link_url(target);
    anchors.push_back(anchor(page, u, pages_[target].title));
    b.section.links.push_back(u);
  }
  if (anchors.empty()) return;
  b.html += " " + temporal::xml_escape(c_.site_text(kSiteName[pages_[page].site], "related")) + ": ";
  for (std::size_t i = 0; i < anchors.size(); ++i) b.html += (i ? ", " : "") + anchors[i];
  b.html += ".";
}

}  // namespace cronista::sampleweb::gen
