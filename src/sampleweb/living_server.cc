// Answering requests to the living web (living_server.h).
#include "sampleweb/living_server.h"

#include <algorithm>
#include <cstdio>
#include <ctime>

#include "sampleweb/sample_web_generator.h"

namespace cronista::sampleweb {

namespace {

constexpr const char* kWeekdays[] = {"Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"};
constexpr const char* kMonths[] = {"Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"};

std::tm utc(std::int64_t unix_ms) {
  const std::time_t s = static_cast<std::time_t>(unix_ms / 1000);
  std::tm tm{};
  gmtime_r(&s, &tm);
  return tm;
}

std::string two(int v) { return (v < 10 ? "0" : "") + std::to_string(v); }

// The path's last segment as words: "/ultimas/3-o-museu.html" -> "3 o museu".
std::string words_of(const std::string& path) {
  std::string s = path;
  while (!s.empty() && s.back() == '/') s.pop_back();
  s = s.substr(s.find_last_of('/') + 1);
  if (const std::size_t dot = s.find('.'); dot != std::string::npos) s.resize(dot);
  std::replace(s.begin(), s.end(), '-', ' ');
  return s.empty() ? path : s;
}

std::size_t find_or_npos(const std::string& s, const char* what) { return s.find(what); }

}  // namespace

std::string http_date(std::int64_t unix_ms) {
  const std::tm tm = utc(unix_ms);
  char buf[40];
  std::snprintf(buf, sizeof buf, "%s, %02d %s %04d %02d:%02d:%02d GMT", kWeekdays[tm.tm_wday], tm.tm_mday,
                kMonths[tm.tm_mon], tm.tm_year + 1900, tm.tm_hour, tm.tm_min, tm.tm_sec);
  return buf;
}

std::optional<std::int64_t> parse_http_date(const std::string& s) {
  char wd[4] = {}, mon[4] = {};
  int d = 0, y = 0, h = 0, mi = 0, sec = 0;
  if (std::sscanf(s.c_str(), "%3[A-Za-z], %d %3s %d %d:%d:%d GMT", wd, &d, mon, &y, &h, &mi, &sec) != 7) return std::nullopt;
  std::tm tm{};
  tm.tm_mday = d;
  tm.tm_year = y - 1900;
  tm.tm_hour = h;
  tm.tm_min = mi;
  tm.tm_sec = sec;
  tm.tm_mon = -1;
  for (int m = 0; m < 12; ++m)
    if (std::string(mon) == kMonths[m]) tm.tm_mon = m;
  if (tm.tm_mon < 0 || d < 1 || d > 31 || h > 23 || mi > 59 || sec > 60) return std::nullopt;
  return static_cast<std::int64_t>(timegm(&tm)) * 1000;
}

Result<std::unique_ptr<LivingSite>> LivingSite::load(const std::string& root, const StaticPage& static_page) {
  using R = Result<std::unique_ptr<LivingSite>>;
  auto truth = LivingTruth::load(root + "/" + kLivingTruthFile);
  if (!truth) return R::Error(truth.status().message() + " (generate the web with --living)");
  std::unique_ptr<LivingSite> site(new LivingSite());
  site->truth_ = std::move(*truth);
  const LivingTruth& t = site->truth_;
  for (const char* list : {"living-clock", "living-counter", "living-most-read", "living-latest", "living-update",
                           "living-today", "living-edit", "living-revision"})
    if (!t.texts.count(list) || t.texts.at(list).empty())
      return R::Error(root + "/" + kLivingTruthFile + ": no \"" + list + "\" texts");
  site->page_of_path_.resize(t.hosts.size());
  site->pages_of_host_.resize(t.hosts.size());
  site->served_.resize(t.pages.size());
  site->visits_ = std::make_unique<std::atomic<long>[]>(t.pages.size());
  std::vector<int> home_of_host(t.hosts.size(), -1);
  for (int i = 0; i < static_cast<int>(t.pages.size()); ++i) {
    const LivingPage& p = t.pages[static_cast<std::size_t>(i)];
    site->page_of_path_[static_cast<std::size_t>(p.host)][p.path] = i;
    if (p.is_new()) continue;
    site->pages_of_host_[static_cast<std::size_t>(p.host)].push_back(i);
    if (p.path == "/") home_of_host[static_cast<std::size_t>(p.host)] = i;
    auto page = static_page(t.hosts[static_cast<std::size_t>(p.host)].name, p.path);
    if (!page) return R::Error("the living web names '" + p.url + "', which the static web does not serve");
    Served& s = site->served_[static_cast<std::size_t>(i)];
    s.body = std::move(page->first);
    s.content_type = std::move(page->second);
    const std::size_t h1 = s.body.find("</h1>\n");
    if (h1 == std::string::npos) return R::Error("'" + p.url + "' has no <h1> to put its living content after");
    s.main_at = h1 + 6;
    s.footer_at = find_or_npos(s.body, "</footer>");
    s.body_end = find_or_npos(s.body, "</body>");
  }
  for (int i = 0; i < static_cast<int>(t.pages.size()); ++i) {
    const LivingPage& p = t.pages[static_cast<std::size_t>(i)];
    if (!p.is_new()) continue;
    const int home = home_of_host[static_cast<std::size_t>(p.host)];
    if (home < 0) return R::Error("'" + p.url + "' is on a host without a home page");
    site->served_[static_cast<std::size_t>(i)].content_type = site->served_[static_cast<std::size_t>(home)].content_type;
  }
  return site;
}

std::string LivingSite::text(const std::string& list, std::size_t pick) const {
  const auto& v = truth_.texts.at(list);
  return v[pick % v.size()];
}

std::string LivingSite::main_content(int page, int version, std::int64_t t) const {
  const LivingPage& p = truth_.pages[static_cast<std::size_t>(page)];
  if (p.change_class == "hub") {
    std::string out = "<section class=\"ultimas\"><h2>" + temporal::xml_escape(text("living-latest", 0)) + "</h2><ul>";
    for (int a : truth_.hub_items(page, t)) {
      const LivingPage& article = truth_.pages[static_cast<std::size_t>(a)];
      out += "<li><a href=\"" + temporal::xml_escape(article.path) + "\">" + temporal::xml_escape(article.title) + "</a></li>";
    }
    return out + "</ul></section>\n";
  }
  if (version == 0) return {};
  const std::tm tm = utc(start_unix_ms_ + p.changes[static_cast<std::size_t>(version - 1)]);
  const gen::Vars vars = {{"d", std::to_string(tm.tm_mday)}, {"month", truth_.months[static_cast<std::size_t>(tm.tm_mon)]},
                          {"yyyy", std::to_string(tm.tm_year + 1900)}, {"hh", two(tm.tm_hour)},
                          {"mi", two(tm.tm_min)}, {"ss", two(tm.tm_sec)}, {"n", std::to_string(version)}};
  return "<p class=\"atualizado\">" + temporal::xml_escape(gen::fill(text("living-update", 0), vars)) + "</p>\n<p>" +
         temporal::xml_escape(text("living-revision", static_cast<std::size_t>(page) * 7 + static_cast<std::size_t>(version))) +
         "</p>\n";
}

std::string LivingSite::new_article(int page, int version) const {
  const LivingPage& p = truth_.pages[static_cast<std::size_t>(page)];
  auto vars_at = [&](std::int64_t t) {
    const std::tm tm = utc(start_unix_ms_ + t);
    return gen::Vars{{"d", std::to_string(tm.tm_mday)}, {"month", truth_.months[static_cast<std::size_t>(tm.tm_mon)]},
                     {"yyyy", std::to_string(tm.tm_year + 1900)}, {"hh", two(tm.tm_hour)}, {"mi", two(tm.tm_min)},
                     {"ss", two(tm.tm_sec)}};
  };
  std::string main = "<h1>" + temporal::xml_escape(p.title) + "</h1>\n<p>" +
                     temporal::xml_escape(gen::fill(text("living-today", static_cast<std::size_t>(page)), vars_at(p.published)) +
                                          " " + gen::lower_first(p.title) + ".") +
                     "</p>\n";
  for (int k = 0; k < version; ++k)
    main += "<p>" +
            temporal::xml_escape(gen::fill(text("living-edit", static_cast<std::size_t>(page + k)),
                                           vars_at(p.changes[static_cast<std::size_t>(k)]))) +
            "</p>\n";
  return main;
}

std::string LivingSite::noise_footer(int page, std::int64_t now_unix_ms) {
  const LivingHost& h = truth_.hosts[static_cast<std::size_t>(truth_.pages[static_cast<std::size_t>(page)].host)];
  std::string out;
  if (h.clock) {
    const std::tm tm = utc(now_unix_ms);
    out += "<p class=\"relogio\">" +
           temporal::xml_escape(gen::fill(text("living-clock", 0),
                                          {{"hh", two(tm.tm_hour)}, {"mi", two(tm.tm_min)}, {"ss", two(tm.tm_sec)}})) +
           "</p>";
  }
  if (h.counter) {
    const long n = ++visits_[static_cast<std::size_t>(page)];
    out += "<p class=\"visitas\">" + temporal::xml_escape(gen::fill(text("living-counter", 0), {{"n", std::to_string(n)}})) + "</p>";
  }
  return out;
}

std::string LivingSite::most_read_box(int page) {
  const LivingPage& p = truth_.pages[static_cast<std::size_t>(page)];
  if (!truth_.hosts[static_cast<std::size_t>(p.host)].most_read) return {};
  const auto& pool = pages_of_host_[static_cast<std::size_t>(p.host)];
  const long r = requests_++;
  std::string out = "<aside class=\"mais-lidas\"><h2>" + temporal::xml_escape(text("living-most-read", 0)) + "</h2><ul>";
  for (long k = 0; k < 5 && !pool.empty(); ++k) {
    const LivingPage& other = truth_.pages[static_cast<std::size_t>(pool[static_cast<std::size_t>((r * 5 + k) % static_cast<long>(pool.size()))])];
    out += "<li><a href=\"" + temporal::xml_escape(other.path) + "\">" + temporal::xml_escape(words_of(other.path)) + "</a></li>";
  }
  return out + "</ul></aside>\n";
}

std::optional<LivingResponse> LivingSite::respond(const LivingRequest& req) {
  int host = -1;
  for (std::size_t h = 0; h < truth_.hosts.size(); ++h)
    if (truth_.hosts[h].name == req.host) host = static_cast<int>(h);
  if (host < 0) return std::nullopt;
  const auto& paths = page_of_path_[static_cast<std::size_t>(host)];
  auto it = paths.find(req.path);
  if (it == paths.end()) return std::nullopt;
  const int page = it->second;
  const LivingPage& p = truth_.pages[static_cast<std::size_t>(page)];
  const LivingHost& h = truth_.hosts[static_cast<std::size_t>(host)];
  const std::int64_t t = std::max<std::int64_t>(0, req.t_ms);
  LivingResponse res;
  if (p.is_new() && t < p.published) {
    res.status = 404;
    res.version = -1;
    res.content_type = "text/html; charset=utf-8";
    res.body = "<!DOCTYPE html><html><head><title>404</title></head><body><h1>404</h1></body></html>\n";
    return res;
  }
  const int version = truth_.version_at(page, t);
  res.version = version;
  const Served& s = served_[static_cast<std::size_t>(page)];
  res.content_type = s.content_type;
  const std::int64_t now_unix_ms = start_unix_ms_ + t;
  if (h.validators == Validators::Honest) {
    const std::int64_t last = version > 0 ? p.changes[static_cast<std::size_t>(version - 1)] : p.published;
    const std::string etag = "\"" + std::to_string(page) + "-" + std::to_string(version) + "\"";
    res.headers.push_back({"ETag", etag});
    res.headers.push_back({"Last-Modified", http_date(start_unix_ms_ + last)});
    bool unchanged = false;
    if (!req.if_none_match.empty()) {
      unchanged = req.if_none_match.find(etag) != std::string::npos || req.if_none_match == "*";
    } else if (!req.if_modified_since.empty()) {
      // Changes happen on whole seconds after a whole-second start, so the
      // second of Last-Modified tells versions apart.
      const auto since = parse_http_date(req.if_modified_since);
      unchanged = since && (start_unix_ms_ + last) / 1000 * 1000 <= *since;
    }
    if (unchanged) {
      res.status = 304;
      return res;
    }
  } else if (h.validators == Validators::Bogus) {
    res.headers.push_back({"Last-Modified", http_date(now_unix_ms)});
  }
  auto local = [&](std::string text) { return h.latin1 ? gen::to_latin1(text) : text; };
  std::string page_bytes;
  std::size_t main_at = s.main_at, footer_at = s.footer_at, body_end = s.body_end;
  const std::string* bytes = &s.body;
  if (p.is_new()) {
    // The home page's furniture around the article.
    const int home = page_of_path_[static_cast<std::size_t>(host)].at("/");
    const std::string& shell = served_[static_cast<std::size_t>(home)].body;
    const std::size_t open = shell.find("<main><article>\n"), close = shell.find("</article></main>");
    const std::size_t title_open = shell.find("<title>"), title_close = shell.find("</title>");
    if (open == std::string::npos || close == std::string::npos || title_open == std::string::npos ||
        title_close == std::string::npos || title_close > open)
      return std::nullopt;
    page_bytes = shell.substr(0, title_open + 7) + local(temporal::xml_escape(p.title)) +
                 shell.substr(title_close, open + 16 - title_close) + local(new_article(page, version));
    main_at = page_bytes.size();
    page_bytes += shell.substr(close);
    footer_at = page_bytes.find("</footer>");
    body_end = page_bytes.find("</body>");
    bytes = &page_bytes;
  }
  const std::string main = p.is_new() ? std::string() : local(main_content(page, version, t));
  const std::string footer = local(noise_footer(page, now_unix_ms));
  const std::string box = local(most_read_box(page));
  std::string& out = res.body;
  out.reserve(bytes->size() + main.size() + footer.size() + box.size());
  const std::size_t end = bytes->size();
  const std::size_t f = footer_at == std::string::npos ? end : footer_at;
  const std::size_t b = body_end == std::string::npos ? end : body_end;
  out.append(*bytes, 0, main_at);
  out += main;
  out.append(*bytes, main_at, std::max(main_at, f) - main_at);
  out += footer;
  out.append(*bytes, std::max(main_at, f), std::max(f, b) - std::max(main_at, f));
  out += box;
  out.append(*bytes, std::max(f, b), end - std::max(f, b));
  return res;
}

}  // namespace cronista::sampleweb
