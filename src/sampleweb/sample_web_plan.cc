// Sites and page kinds of the sample web: which content pages exist (an
// encyclopedia article, a news item or an anniversary piece, a blog post, a
// digitised newspaper edition, each about one fact), and the structure
// around them (homes, year pages, archives, section lists, the directory,
// the disallowed, huge and failing pages), with their paths.
#include "sampleweb/sample_web_generator.h"

#include <algorithm>
#include <set>
#include <sstream>

namespace cronista::sampleweb::gen {

Page make_page(int site, Kind kind, std::string path, std::string title) {
  Page p;
  p.site = site;
  p.kind = kind;
  p.path = std::move(path);
  p.title = std::move(title);
  return p;
}

int Generator::pick_fact() { return rng_.pick(fact_picks_); }

int Generator::add_page(Page p) {
  path_index_[p.site][p.path] = static_cast<int>(pages_.size());
  pages_.push_back(std::move(p));
  return static_cast<int>(pages_.size()) - 1;
}

std::string Generator::unique_path(int site, const std::string& path) {
  if (!path_index_[site].count(path)) return path;
  // Insert a counter before the extension, or at the end.
  const std::size_t slash = path.find_last_of('/');
  const std::size_t dot = path.find('.', slash == std::string::npos ? 0 : slash);
  const bool trailing_slash = !path.empty() && path.back() == '/';
  for (int n = 2;; ++n) {
    std::string candidate;
    if (trailing_slash) {
      candidate = path.substr(0, path.size() - 1) + "-" + std::to_string(n) + "/";
    } else if (dot != std::string::npos) {
      candidate = path.substr(0, dot) + "-" + std::to_string(n) + path.substr(dot);
    } else {
      candidate = path + "-" + std::to_string(n);
    }
    if (!path_index_[site].count(candidate)) return candidate;
  }
}

bool Generator::plan_content_page(int site) {
  static const Date kOnlineFirst{1996, 1, 2}, kOnlineLast{2024, 12, 30};
  for (int attempt = 0; attempt < 60; ++attempt) {
    const int fi = pick_fact();
    const Fact& f = c_.facts[static_cast<std::size_t>(fi)];
    const Date first = f.when.span.first;
    Page p;
    p.site = site;
    p.fact = fi;
    p.center = f.when.span.mid();
    const std::string slug = slugify(f.title);
    switch (site) {
      case kEnc: {
        p.kind = Kind::Article;
        const int n = articles_per_fact_[fi]++;
        p.title = f.title;
        if (n > 0) {
          std::vector<std::string> q;
          std::stringstream ss(c_.site_text("enciclopedia", "qualifiers"));
          for (std::string item; std::getline(ss, item, '|');) q.push_back(item);
          if (q.empty()) q.push_back("2");
          const std::size_t k = static_cast<std::size_t>(n - 1);
          p.title += " — " + q[k % q.size()];
          if (k >= q.size()) p.title += ", " + q[(k / q.size()) % q.size()];
        }
        p.path = unique_path(site, "/wiki/" + slugify(p.title));
        break;
      }
      case kJornal:
      case kFolha: {
        std::vector<std::string> patterns;
        std::stringstream ss(c_.site_text(kSiteName[site], "title_patterns"));
        for (std::string item; std::getline(ss, item, '|');) patterns.push_back(item);
        if (f.when.grain == DateGrain::Day && first >= kOnlineFirst && first <= kOnlineLast && rng_.percent(75)) {
          p.kind = Kind::News;
          p.dct = Date::from_day_number(first.day_number() + 1);
          p.title = f.title;
        } else {
          if (f.when.grain == DateGrain::DayRange || f.when.grain == DateGrain::YearRange) continue;
          std::vector<int> choices;
          for (int k : {10, 20, 25, 30, 40, 50, 60, 70, 75, 80, 100}) {
            const int y = first.year + k;
            if (y >= 1996 && y <= 2024) choices.push_back(k);
          }
          if (choices.empty()) continue;
          p.kind = Kind::Anniversary;
          p.years_ago = rng_.pick(choices);
          const int y = first.year + p.years_ago;
          const int m = f.when.grain == DateGrain::Year ? rng_.uniform(1, 12) : first.month;
          const int d = f.when.grain == DateGrain::Day ? std::min(first.day, temporal::days_in_month(y, m))
                                                       : rng_.uniform(1, 28);
          p.dct = Date{y, m, d};
          p.title = fill(patterns.size() > 1 ? patterns[static_cast<std::size_t>(rng_.uniform(1, static_cast<int>(patterns.size()) - 1))]
                                             : "{title}",
                         {{"title", f.title}});
        }
        const Date& dct = *p.dct;
        std::string path = site == kJornal ? "/" + std::to_string(dct.year) + "/" + two(dct.month) + "/" + two(dct.day) +
                                                 "/" + slug + ".html"
                                           : "/" + std::to_string(dct.year) + "/" + two(dct.month) + "/" + slug + ".shtml";
        if (site == kJornal && rng_.percent(4)) {
          path = "/assinantes" + path;
          p.disallowed = true;
        }
        p.path = unique_path(site, path);
        break;
      }
      case kBlog: {
        p.kind = Kind::Post;
        const DayNumber lo = Date{2008, 1, 1}.day_number(), hi = Date{2024, 12, 31}.day_number();
        const DayNumber from = std::max(lo, f.when.span.last.day_number() + 2);
        if (from > hi) continue;
        p.dct = Date::from_day_number(rng_.uniform(from, hi));
        std::vector<std::string> patterns;
        std::stringstream ss(c_.site_text("blog", "title_patterns"));
        for (std::string item; std::getline(ss, item, '|');) patterns.push_back(item);
        p.title = fill(patterns.empty() ? "{title}" : rng_.pick(patterns), {{"title", f.title}});
        p.path = unique_path(site, "/" + std::to_string(p.dct->year) + "/" + two(p.dct->month) + "/" + slug + "/");
        break;
      }
      case kHemeroteca: {
        if (f.when.grain != DateGrain::Day || first.year < 1850 || first.year >= 1990) continue;
        p.kind = Kind::Edition;
        p.dct = Date::from_day_number(first.day_number() + 1);
        std::vector<std::string> papers;
        std::stringstream ss(c_.site_text("hemeroteca", "newspapers"));
        for (std::string item; std::getline(ss, item, '|');) papers.push_back(item);
        p.title = f.title + " - " + (papers.empty() ? std::string("Jornal") : rng_.pick(papers));
        p.path = unique_path(site, "/jornal/" + std::to_string(p.dct->year) + "/" + two(p.dct->month) + "/" +
                                       two(p.dct->day) + "/pagina-1.html");
        break;
      }
      default:
        return false;
    }
    add_page(std::move(p));
    return true;
  }
  return false;
}

void Generator::plan_structure() {
  // Homes.
  for (int s = 0; s < kSiteCount; ++s) {
    Page home = make_page(s, Kind::Home, "/", c_.site_text(kSiteName[s], "title"));
    add_page(home);
  }
  // Encyclopedia: year pages for every year of a day/month/year-dated article.
  std::map<int, std::vector<int>> enc_by_year;
  for (int id : content_of_site_[kEnc]) {
    const Fact& f = c_.facts[static_cast<std::size_t>(pages_[id].fact)];
    if (f.when.grain == DateGrain::Day || f.when.grain == DateGrain::Month) enc_by_year[f.when.span.first.year].push_back(id);
  }
  Page years = make_page(kEnc, Kind::YearIndex, "/wiki/anos", c_.site_text("enciclopedia", "year_title"));
  const int years_id = add_page(years);
  for (auto& [y, ids] : enc_by_year) {
    Page p;
    p.site = kEnc;
    p.kind = Kind::YearPage;
    p.year = y;
    p.path = "/wiki/ano/" + std::to_string(y);
    p.title = std::to_string(y);
    p.center = year_span(y).mid();
    // One line per fact, the first article about it.
    std::set<int> facts_seen;
    for (int id : ids)
      if (facts_seen.insert(pages_[id].fact).second) p.items.push_back(id);
    std::stable_sort(p.items.begin(), p.items.end(), [&](int a, int b) {
      return c_.facts[static_cast<std::size_t>(pages_[a].fact)].when.span.first <
             c_.facts[static_cast<std::size_t>(pages_[b].fact)].when.span.first;
    });
    year_page_[y] = add_page(p);
    pages_[years_id].items.push_back(year_page_[y]);
  }
  // Encyclopedia furniture: search (disallowed), random article (redirect), the huge page.
  Page search = make_page(kEnc, Kind::Disallowed, "/especial/pesquisa", c_.site_text("enciclopedia", "search_title"));
  search.disallowed = true;
  add_page(search);
  Page huge = make_page(kEnc, Kind::Huge, "/wiki/cronologia-completa", c_.site_text("enciclopedia", "huge_title"));
  add_page(huge);
  if (!content_of_site_[kEnc].empty())
    extras_.push_back({kEnc, "/especial/aleatorio", 302, url(rng_.pick(content_of_site_[kEnc]))});

  // Archives by publication year (news, blog, newspaper archive).
  struct ArchiveSpec {
    int site;
    const char* index;
    const char* prefix;
  };
  for (const ArchiveSpec& a : {ArchiveSpec{kJornal, "/arquivo/", "/arquivo/"}, ArchiveSpec{kFolha, "/memoria/", "/memoria/"},
                               ArchiveSpec{kBlog, "/arquivo/", "/arquivo/"}, ArchiveSpec{kHemeroteca, "/titulos/", "/ano/"}}) {
    std::map<int, std::vector<int>> by_year;
    for (int id : content_of_site_[a.site])
      if (!pages_[id].disallowed) by_year[pages_[id].dct->year].push_back(id);
    Page index = make_page(a.site, Kind::ArchiveIndex, a.index, c_.site_text(kSiteName[a.site], "archive_title"));
    const int index_id = add_page(index);
    for (auto& [y, ids] : by_year) {
      std::sort(ids.begin(), ids.end(), [&](int x, int z) {
        return std::make_pair(*pages_[x].dct, pages_[x].path) < std::make_pair(*pages_[z].dct, pages_[z].path);
      });
      Page p;
      p.site = a.site;
      p.kind = Kind::Archive;
      p.year = y;
      p.path = std::string(a.prefix) + std::to_string(y) + "/";
      p.title = c_.site_text(kSiteName[a.site], "archive_title");
      p.items = ids;
      const int archive_id = add_page(p);  // may reallocate pages_: add first, then index
      pages_[index_id].items.push_back(archive_id);
    }
  }
  // Section pages of the news sites and the blog's tags: plain lists.
  auto list_page = [&](int site, const std::string& path, const std::string& label) {
    Page p = make_page(site, Kind::ListPage, path, label);
    p.label = label;
    for (int i = 0; i < 20 && !content_of_site_[site].empty(); ++i) p.items.push_back(random_content_page(site));
    add_page(p);
  };
  auto nav_labels = [&](int site) {
    std::vector<std::string> out;
    std::stringstream ss(c_.site_text(kSiteName[site], "nav"));
    for (std::string item; std::getline(ss, item, '|');) out.push_back(item);
    return out;
  };
  {
    auto l = nav_labels(kJornal);
    for (std::size_t i = 1; i + 2 < l.size(); ++i) list_page(kJornal, "/seccao/" + slugify(l[i]), l[i]);
    l = nav_labels(kFolha);
    for (std::size_t i = 1; i + 2 < l.size(); ++i) list_page(kFolha, "/secao/" + slugify(l[i]), l[i]);
    l = nav_labels(kBlog);
    if (l.size() > 2) list_page(kBlog, "/etiquetas", l[2]);
  }
  Page about = make_page(kBlog, Kind::About, "/sobre", c_.site_text("blog", "about"));
  add_page(about);
  for (int i = 1; i <= 3; ++i) {
    Page draft =
        make_page(kBlog, Kind::Disallowed, "/rascunhos/" + std::to_string(i) + "/", c_.site_text("blog", "draft_title"));
    draft.disallowed = true;
    add_page(draft);
  }
  // Calendar: the holidays page (the endless months are served from a template).
  Page holidays = make_page(kCalendario, Kind::Holidays, "/feriados", c_.site_text("calendario", "holidays_title"));
  holidays.year = 2024;
  add_page(holidays);
  // Portal: a directory by category, linking through redirect chains.
  Page dir_index = make_page(kPortal, Kind::DirectoryIndex, "/diretorio/", c_.site_text("portal", "title"));
  const int dir_index_id = add_page(dir_index);
  const int directory_pages = std::max(static_cast<int>(c_.files.size()), o_.pages / 50);
  std::map<int, std::vector<int>> content_by_file;
  for (int id : content_by_center_) content_by_file[c_.facts[static_cast<std::size_t>(pages_[id].fact)].file].push_back(id);
  for (int i = 0; i < directory_pages; ++i) {
    const int file = i % static_cast<int>(c_.files.size());
    Page p;
    p.site = kPortal;
    p.kind = Kind::Directory;
    p.category = file;
    p.title = c_.files[static_cast<std::size_t>(file)].category;
    p.path = "/diretorio/" + c_.files[static_cast<std::size_t>(file)].name + "/" +
             std::to_string(i / static_cast<int>(c_.files.size()) + 1);
    const auto& pool = content_by_file[file];
    for (int k = 0; k < 20 && !pool.empty(); ++k) p.items.push_back(rng_.pick(pool));
    const int directory_id = add_page(p);
    pages_[dir_index_id].items.push_back(directory_id);
  }
  Page error = make_page(kPortal, Kind::ServerError, "/novidades", c_.site_text("portal", "error_title"));
  error.status = 500;
  add_page(error);
  Page old = make_page(kPortal, Kind::ListPage, "/antigo", c_.site_text("portal", "tagline"));
  old.label = old.title;
  old.malformed = true;
  for (int i = 0; i < 15 && !content_by_center_.empty(); ++i) old.items.push_back(random_content_page());
  add_page(old);
}

}  // namespace cronista::sampleweb::gen
