// A revisiting crawl's change verdicts against the living web's truth
// (change_detection.h).
#include "eval/change_detection.h"

#include <algorithm>
#include <map>
#include <optional>
#include <sstream>

#include "crawler/crawl_store.h"
#include "eval/number_format.h"

namespace cronista::eval {
namespace {

// A full download of a page, as a database holds it.
struct Download {
  std::int64_t at_ms = 0;
  std::optional<bool> verdict;  // pages.changed of a revisit
};

Status read_downloads(const std::string& db, const sampleweb::LivingTruth& truth,
                      std::map<int, std::vector<Download>>* out) {
  auto store = crawler::open_existing_crawl(db);
  if (!store.ok()) return store.status();
  return (*store)->visits([&](const crawler::StoredVisit& v) {
    if (v.status != 200) return;
    auto page = truth.by_url.find(v.url);
    if (page == truth.by_url.end()) return;
    const auto ms = crawler::iso_ms(v.fetched_at);
    if (!ms) return;
    Download d;
    d.at_ms = *ms;
    if (v.revisit) d.verdict = v.changed;
    (*out)[page->second].push_back(d);
  });
}

}  // namespace

Result<ChangeDetection> change_detection(const sampleweb::LivingTruth& truth, const std::vector<ServedRequest>& log,
                                         const std::vector<std::string>& dbs) {
  std::map<int, std::vector<Download>> downloads;
  for (const std::string& db : dbs)
    if (Status s = read_downloads(db, truth, &downloads); !s.ok()) return s;
  // Shards of one crawl: each page's downloads in fetch order.
  for (auto& [page, d] : downloads)
    std::stable_sort(d.begin(), d.end(), [](const Download& a, const Download& b) { return a.at_ms < b.at_ms; });
  std::map<int, std::vector<int>> served;  // page -> versions of its 200s, in time order
  for (const ServedRequest& r : log)
    if (r.page >= 0 && r.status == 200) served[r.page].push_back(r.version);

  ChangeDetection out;
  std::map<std::string, ChangeCounts> by_class;
  ChangeCounts all;
  all.change_class = "all";
  for (const auto& [page, d] : downloads) {
    ++out.pages;
    const auto s = served.find(page);
    if (s == served.end() || s->second.size() != d.size()) {
      ++out.unmatched_pages;
      continue;
    }
    const std::string& cls = truth.pages[static_cast<std::size_t>(page)].change_class;
    ChangeCounts& c = by_class[cls];
    c.change_class = cls;
    for (std::size_t i = 1; i < d.size(); ++i) {
      if (!d[i].verdict) continue;
      const bool changed = s->second[i] != s->second[i - 1];
      for (ChangeCounts* k : {&c, &all}) {
        ++k->judged;
        if (changed) {
          ++k->changed;
          if (*d[i].verdict) ++k->called_changed;
        } else {
          ++k->unchanged;
          if (*d[i].verdict) ++k->called_unchanged_changed;
        }
      }
    }
  }
  out.classes.push_back(all);
  for (auto& [name, c] : by_class) out.classes.push_back(c);
  return out;
}

std::string change_detection_markdown(const ChangeDetection& d) {
  std::ostringstream md;
  md << "\n## Changes the crawl saw\n\n"
     << "Each full download of a page downloaded before, judged changed or not by the crawl, against the "
        "versions the server sent then and at the download before.\n\n"
     << "| class | judged | changed | called changed | recall | unchanged | called changed | false rate |\n"
     << "|---|---|---|---|---|---|---|---|\n";
  for (const ChangeCounts& c : d.classes)
    md << "| " << c.change_class << " | " << c.judged << " | " << c.changed << " | " << c.called_changed << " | "
       << fixed(c.recall(), 3) << " | " << c.unchanged << " | " << c.called_unchanged_changed << " | "
       << fixed(c.false_rate(), 3) << " |\n";
  md << "\n" << d.pages << " pages downloaded";
  if (d.unmatched_pages)
    md << "; " << d.unmatched_pages
       << " left out, their downloads and the log's 200 responses differing in number";
  md << ".\n";
  return md.str();
}

std::string change_detection_csv(const ChangeDetection& d) {
  std::ostringstream csv;
  csv << "class,judged,changed,called_changed,recall,unchanged,called_unchanged_changed,false_rate\n";
  for (const ChangeCounts& c : d.classes)
    csv << c.change_class << ',' << c.judged << ',' << c.changed << ',' << c.called_changed << ','
        << fixed(c.recall(), 6) << ',' << c.unchanged << ',' << c.called_unchanged_changed << ','
        << fixed(c.false_rate(), 6) << '\n';
  return csv.str();
}

}  // namespace cronista::eval
