// Writing the sample web: every page's file and route, redirects and 404s,
// the calendar trap, robots.txt, web.json, hosts.txt, the truth file (the
// periods and links of every section of every page, and whether the page is
// relevant to the two reference scopes) and the seed lists.
#include "sampleweb/sample_web_generator.h"

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>

#include <nlohmann/json.hpp>

namespace cronista::sampleweb::gen {

namespace {

namespace fs = std::filesystem;

nlohmann::ordered_json sections_json(const std::vector<Section>& sections) {
  nlohmann::ordered_json out = nlohmann::ordered_json::array();
  for (const Section& s : sections) {
    nlohmann::ordered_json j;
    nlohmann::ordered_json periods = nlohmann::ordered_json::array();
    for (const DaySpan& d : s.periods) periods.push_back({iso(d.first), iso(d.last)});
    j["periods"] = periods;
    if (s.boilerplate) j["boilerplate"] = true;
    j["links"] = s.links;
    out.push_back(j);
  }
  return out;
}

bool relevant_for(const std::vector<Section>& sections, const DaySpan& scope) {
  for (const Section& s : sections) {
    if (s.boilerplate || s.periods.empty()) continue;
    bool inside = true;
    for (const DaySpan& d : s.periods)
      if (d.first < scope.first || scope.last < d.last) inside = false;
    if (inside) return true;
  }
  return false;
}

}  // namespace

Status write_file(const fs::path& path, const std::string& data) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  if (!out) return Status::Error("cannot write '" + path.string() + "': " + std::strerror(errno));
  out << data;
  out.close();
  if (!out) return Status::Error("cannot write '" + path.string() + "'");
  return Status::Ok();
}

Status Generator::write_all(SampleWebSummary* summary) {
  const fs::path root(o_.out_dir);
  std::error_code ec;
  fs::create_directories(root, ec);
  if (ec) return Status::Error("cannot create '" + root.string() + "': " + ec.message());

  const DaySpan scope_war{Date{1939, 1, 1}, Date{1945, 12, 31}};
  const DaySpan scope_2001{Date{2001, 1, 1}, Date{2001, 12, 31}};
  struct TruthLine {
    std::string url;
    std::string json;
  };
  std::vector<TruthLine> truth;
  std::vector<std::vector<std::string>> routes(kSiteCount);  // "path\tstatus\ttype\tvalue"
  std::vector<int> relevant_war, relevant_2001;

  for (int s = 0; s < kSiteCount; ++s) {
    fs::create_directories(root / "sites" / kSiteName[s] / "files", ec);
    if (ec) return Status::Error("cannot create '" + (root / "sites" / kSiteName[s]).string() + "': " + ec.message());
  }
  // Pages (rendering may add redirects and 404s to extras_, so pages first).
  const int page_count = static_cast<int>(pages_.size());
  for (int id = 0; id < page_count; ++id) {
    const Page& p = pages_[id];
    std::vector<Section> sections;
    const std::string html = render(id, &sections);
    char name[32];
    std::snprintf(name, sizeof name, "p%06d.html", id);
    if (Status st = write_file(root / "sites" / kSiteName[p.site] / "files" / name, html); !st.ok()) return st;
    const std::string ctype = p.site == kHemeroteca ? "text/html" : "text/html; charset=utf-8";
    routes[static_cast<std::size_t>(p.site)].push_back(p.path + "\t" + std::to_string(p.status) + "\t" + ctype +
                                                       "\tfiles/" + name);
    nlohmann::ordered_json j;
    j["url"] = url(id);
    j["host"] = authority(p.site);
    j["site"] = kSiteName[p.site];
    j["status"] = p.status;
    if (p.disallowed) j["disallowed"] = true;
    if (p.dct && is_content(p.kind)) j["dct"] = iso(*p.dct);
    if (p.site == kHemeroteca) j["charset"] = "iso-8859-1";
    if (p.malformed) j["malformed"] = true;
    if (p.bad_utf8) j["invalid_utf8"] = true;
    j["title"] = p.title;
    j["sections"] = sections_json(sections);
    const bool war = p.status == 200 && relevant_for(sections, scope_war);
    const bool y2001 = p.status == 200 && relevant_for(sections, scope_2001);
    j["relevant"] = {{"1939-1945", war}, {"2001", y2001}};
    if (war && !p.disallowed) relevant_war.push_back(id);
    if (y2001 && !p.disallowed) relevant_2001.push_back(id);
    summary->pages += p.status == 200;
    summary->relevant_1939_1945 += war;
    summary->relevant_2001 += y2001;
    truth.push_back({url(id), j.dump()});
  }
  // Redirects and deliberate 404s.
  for (const Extra& e : extras_) {
    nlohmann::ordered_json j;
    j["url"] = base(e.site) + e.path;
    j["host"] = authority(e.site);
    j["site"] = kSiteName[e.site];
    j["status"] = e.status;
    if (!e.location.empty()) {
      j["location"] = e.location;
      routes[static_cast<std::size_t>(e.site)].push_back(e.path + "\t" + std::to_string(e.status) + "\t-\t" + e.location);
      ++summary->redirects;
    } else {
      routes[static_cast<std::size_t>(e.site)].push_back(e.path + "\t404\t-\t-");
    }
    truth.push_back({base(e.site) + e.path, j.dump()});
  }
  // The calendar trap: a template, and truth for its first two years.
  std::vector<Section> trap_sections;
  const std::string trap = trap_template(&trap_sections);
  if (Status st = write_file(root / "sites" / "calendario" / "files" / "mes.html", trap); !st.ok()) return st;
  routes[kCalendario].push_back("/calendario/\ttrap\ttext/html; charset=utf-8\tfiles/mes.html");
  {
    std::string months;
    for (const std::string& m : c_.months) months += m + "\n";
    if (Status st = write_file(root / "sites" / "calendario" / "months.txt", months); !st.ok()) return st;
  }
  for (int k = 0; k < 24; ++k) {
    const int y = 2024 + (4 + k) / 12, m = (4 + k) % 12 + 1;
    const int ny = m == 12 ? y + 1 : y, nm = m == 12 ? 1 : m + 1;
    const std::string path = "/calendario/" + std::to_string(y) + "/" + two(m);
    std::vector<Section> sections = trap_sections;
    for (Section& s : sections) {
      if (!s.boilerplate) {
        s.periods = {month_span(y, m), month_span(ny, nm)};
        s.links = {base(kCalendario) + "/calendario/" + std::to_string(ny) + "/" + two(nm)};
      }
    }
    nlohmann::ordered_json j;
    j["url"] = base(kCalendario) + path;
    j["host"] = authority(kCalendario);
    j["site"] = "calendario";
    j["status"] = 200;
    j["trap"] = true;
    j["sections"] = sections_json(sections);
    j["relevant"] = {{"1939-1945", false}, {"2001", false}};
    truth.push_back({base(kCalendario) + path, j.dump()});
  }
  // robots.txt (none on the newspaper archive: its absence means "allow all").
  const std::map<int, std::string> robots = {
      {kEnc, "User-agent: *\nDisallow: /especial/\n"},
      {kJornal, "User-agent: BadBot\nDisallow: /\n\nUser-agent: *\nDisallow: /assinantes/\n"},
      {kFolha, "User-agent: *\nAllow: /\n"},
      {kBlog, "User-agent: *\nDisallow: /rascunhos/\n"},
      {kCalendario, "User-agent: *\nDisallow:\n"},
      {kPortal, "User-agent: *\nCrawl-delay: 1\nDisallow: /admin/\n"}};
  for (const auto& [s, body] : robots) {
    if (Status st = write_file(root / "sites" / kSiteName[s] / "files" / "robots.txt", body); !st.ok()) return st;
    routes[static_cast<std::size_t>(s)].push_back("/robots.txt\t200\ttext/plain; charset=utf-8\tfiles/robots.txt");
  }

  // Routes, hosts, web.json.
  nlohmann::ordered_json web;
  web["generator"] = "cronista sample-web";
  web["seed"] = o_.seed;
  web["pages"] = o_.pages;
  web["port"] = o_.port;
  web["hosts"] = nlohmann::ordered_json::array();
  std::string hosts;
  for (int s = 0; s < kSiteCount; ++s) {
    std::sort(routes[static_cast<std::size_t>(s)].begin(), routes[static_cast<std::size_t>(s)].end());
    std::string body = "# path\tstatus\tcontent-type\tfile or location\n";
    for (const std::string& r : routes[static_cast<std::size_t>(s)]) body += r + "\n";
    if (Status st = write_file(root / "sites" / kSiteName[s] / "routes.tsv", body); !st.ok()) return st;
    const std::string address = "127.0.0." + std::to_string(o_.first_host + s);
    web["hosts"].push_back({{"name", kSiteName[s]}, {"address", address}, {"authority", authority(s)},
                            {"title", c_.site_text(kSiteName[s], "title")}});
    hosts += base(s) + "/ " + kSiteName[s] + "\n";
  }
  summary->hosts = kSiteCount;
  if (Status st = write_file(root / "web.json", web.dump(2) + "\n"); !st.ok()) return st;
  if (Status st = write_file(root / "hosts.txt", hosts); !st.ok()) return st;

  std::sort(truth.begin(), truth.end(), [](const TruthLine& a, const TruthLine& b) { return a.url < b.url; });
  std::string truth_body;
  for (const TruthLine& t : truth) truth_body += t.json + "\n";
  if (Status st = write_file(root / "truth.jsonl", truth_body); !st.ok()) return st;

  // Seeds, like the original study's: ten pages about the period, year pages first.
  auto seeds = [&](int from_year, int to_year, const std::vector<int>& relevant) {
    std::vector<int> chosen;
    for (int y = from_year; y <= to_year; ++y)
      if (auto it = year_page_.find(y); it != year_page_.end()) chosen.push_back(it->second);
    std::vector<int> enc, other;
    for (int id : relevant) {
      if (!is_content(pages_[id].kind)) continue;
      (pages_[id].site == kEnc ? enc : other).push_back(id);
    }
    Rng pick(o_.seed ^ static_cast<std::uint64_t>(from_year));
    for (auto* pool : {&enc, &other}) {
      while (chosen.size() < (pool == &enc ? 7u : 10u) && !pool->empty()) {
        const std::size_t k = static_cast<std::size_t>(pick.uniform(0, static_cast<int>(pool->size()) - 1));
        if (std::find(chosen.begin(), chosen.end(), (*pool)[k]) == chosen.end()) chosen.push_back((*pool)[k]);
        pool->erase(pool->begin() + static_cast<long>(k));
      }
    }
    while (chosen.size() > 10) chosen.pop_back();
    std::string out;
    for (int id : chosen) out += url(id) + "\n";
    return out;
  };
  if (Status st = write_file(root / "seeds-1939-1945.txt", seeds(1939, 1945, relevant_war)); !st.ok()) return st;
  if (Status st = write_file(root / "seeds-2001.txt", seeds(2001, 2001, relevant_2001)); !st.ok()) return st;
  return Status::Ok();
}

}  // namespace cronista::sampleweb::gen
