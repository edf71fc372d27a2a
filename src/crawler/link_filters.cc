// Link filters: see link_filters.h for the rules. Everything works on the
// canonical URL string in one pass; the calendar detector keys its counters
// by a 64-bit FNV-1a hash of the pattern so memory stays a few dozen bytes
// per pattern.
#include "crawler/link_filters.h"

#include "crawler/ascii.h"

#include <algorithm>
#include <chrono>
#include <ctime>

namespace cronista::crawler {
namespace {

bool is_digit(char c) { return c >= '0' && c <= '9'; }

std::uint64_t fnv1a(std::string_view s) {
  std::uint64_t h = 1469598103934665603ULL;
  for (char c : s) {
    h ^= static_cast<unsigned char>(c);
    h *= 1099511628211ULL;
  }
  return h;
}

std::vector<std::string_view> segments_of(std::string_view path) {
  std::vector<std::string_view> out;
  std::size_t i = 0;
  while (i < path.size()) {
    if (path[i] == '/') {
      ++i;
      continue;
    }
    std::size_t j = path.find('/', i);
    if (j == std::string_view::npos) j = path.size();
    out.push_back(path.substr(i, j - i));
    i = j;
  }
  return out;
}

int this_year() {
  const std::time_t t = std::chrono::system_clock::to_time_t(std::chrono::system_clock::now());
  std::tm tm{};
  gmtime_r(&t, &tm);
  return tm.tm_year + 1900;
}

}  // namespace

// ---- host scope -------------------------------------------------------------

void HostScope::add_seed(const CanonicalUrl& seed) {
  std::string a = seed.authority();
  for (const auto& s : seed_authorities_)
    if (s == a) return;
  seed_authorities_.push_back(std::move(a));
}

Status HostScope::allow_host(std::string_view pattern) {
  Pattern p;
  std::string_view text = pattern;
  if (text.substr(0, 2) == "*.") {
    p.subdomains = true;
    text.remove_prefix(2);
  } else if (text.substr(0, 1) == ".") {
    p.subdomains = true;
    text.remove_prefix(1);
  }
  // Let CanonicalUrl validate and canonicalize the host (IDN, case, port).
  auto url = CanonicalUrl::parse("http://" + std::string(text) + "/");
  if (text.empty() || text.find_first_of("/?#@") != std::string_view::npos || !url.ok())
    return Status::Error("--allow-host: not a host name: '" + std::string(pattern) + "'");
  p.host = std::string(url->host());
  const std::size_t close = text.rfind(']');
  const std::size_t colon = text.rfind(':');
  const bool has_port = colon != std::string_view::npos && (close == std::string_view::npos || colon > close);
  p.port = has_port ? url->port() : 0;
  patterns_.push_back(std::move(p));
  return Status::Ok();
}

bool HostScope::allows(const CanonicalUrl& url) const {
  if (!restricted()) return true;
  {  // --same-host, or --allow-host, which adds hosts to the seeds' own
    const std::string a = url.authority();
    for (const auto& s : seed_authorities_)
      if (s == a) return true;
  }
  const std::string_view host = url.host();
  for (const Pattern& p : patterns_) {
    if (p.port != 0 && p.port != url.port()) continue;
    if (host == p.host) return true;
    if (p.subdomains && host.size() > p.host.size() + 1 && host.substr(host.size() - p.host.size()) == p.host &&
        host[host.size() - p.host.size() - 1] == '.')
      return true;
  }
  return false;
}

// ---- extensions -------------------------------------------------------------

bool surely_not_html(std::string_view path) {
  static constexpr std::string_view kExtensions[] = {
      // images
      "jpg", "jpeg", "jpe", "png", "gif", "webp", "avif", "bmp", "tif", "tiff", "svg", "svgz", "ico", "heic", "psd",
      "eps", "raw",
      // audio and video
      "mp3", "m4a", "aac", "ogg", "oga", "opus", "wav", "flac", "wma", "mid", "midi", "mp4", "m4v", "mov", "avi",
      "wmv", "flv", "webm", "mkv", "mpg", "mpeg", "3gp", "ogv", "ts", "m3u8",
      // archives and packages
      "zip", "gz", "tgz", "bz2", "xz", "zst", "7z", "rar", "tar", "jar", "war", "apk", "deb", "rpm", "dmg", "iso",
      "img", "msi", "exe", "bin", "dll", "so",
      // documents and data
      "pdf", "ps", "doc", "docx", "xls", "xlsx", "ppt", "pptx", "odt", "ods", "odp", "rtf", "epub", "mobi", "csv",
      "tsv", "json", "xml", "rss", "atom", "txt", "torrent", "ics", "vcf",
      // web assets
      "css", "js", "mjs", "map", "woff", "woff2", "ttf", "otf", "eot", "swf", "wasm"};
  const std::size_t slash = path.rfind('/');
  const std::string_view last = slash == std::string_view::npos ? path : path.substr(slash + 1);
  const std::size_t dot = last.rfind('.');
  if (dot == std::string_view::npos || dot + 1 >= last.size() || last.size() - dot - 1 > 8) return false;
  const std::string ext = ascii_lowered(last.substr(dot + 1));
  for (std::string_view e : kExtensions)
    if (ext == e) return true;
  return false;
}

// ---- static traps -------------------------------------------------------------

std::optional<std::string_view> static_trap_reason(const CanonicalUrl& url, const TrapLimits& limits) {
  if (url.str().size() > limits.max_url_length) return "long-url";
  const std::vector<std::string_view> segs = segments_of(url.path());
  if (static_cast<int>(segs.size()) > limits.max_path_depth) return "deep-path";
  const int repeats = std::max(2, limits.max_consecutive_repeats);
  const std::size_t n = segs.size();
  for (std::size_t k = 1; k <= 4 && k * static_cast<std::size_t>(repeats) <= n; ++k) {
    // Run of k segments starting at i repeated `repeats` times.
    for (std::size_t i = 0; i + k * static_cast<std::size_t>(repeats) <= n; ++i) {
      bool repeated = true;
      for (std::size_t r = 1; r < static_cast<std::size_t>(repeats) && repeated; ++r)
        for (std::size_t j = 0; j < k && repeated; ++j) repeated = segs[i + j] == segs[i + r * k + j];
      if (repeated) return "repeated-segments";
    }
  }
  for (std::size_t i = 0; i < n; ++i) {
    int count = 0;
    for (std::size_t j = 0; j < n; ++j) count += segs[j] == segs[i];
    if (count > limits.max_segment_occurrences) return "repeated-segments";
  }
  return std::nullopt;
}

// ---- calendar traps -------------------------------------------------------------

CalendarTrapDetector::Limits::Limits() : latest_year(this_year() + 1) {}

std::optional<std::string> CalendarTrapDetector::pattern_of(const CanonicalUrl& url, int* max_year) {
  const std::string_view text = url.path_and_query();
  bool year = false, small = false, compact = false;
  int latest = 0;
  std::string pattern = url.authority();
  pattern.reserve(pattern.size() + text.size());
  std::size_t i = 0;
  while (i < text.size()) {
    if (!is_digit(text[i])) {
      pattern.push_back(text[i++]);
      continue;
    }
    std::size_t j = i;
    while (j < text.size() && is_digit(text[j])) ++j;
    const std::string_view run = text.substr(i, j - i);
    auto value = [&](std::size_t from, std::size_t len) {
      int v = 0;
      for (std::size_t k = from; k < from + len; ++k) v = v * 10 + (run[k] - '0');
      return v;
    };
    if (run.size() <= 2) {
      const int v = value(0, run.size());
      if (v >= 1 && v <= 31) small = true;
    } else if (run.size() == 4) {
      const int v = value(0, 4);
      if (v >= 1900 && v <= 2199) {
        year = true;
        latest = std::max(latest, v);
      }
    } else if (run.size() == 6 || run.size() == 8) {
      const int y = value(0, 4), m = value(4, 2);
      const int d = run.size() == 8 ? value(6, 2) : 1;
      if (y >= 1900 && y <= 2199 && m >= 1 && m <= 12 && d >= 1 && d <= 31) {
        compact = true;
        latest = std::max(latest, y);
      }
    }
    pattern.push_back('#');
    i = j;
  }
  if (!((year && small) || compact)) return std::nullopt;
  if (max_year) *max_year = latest;
  return pattern;
}

std::optional<std::string_view> CalendarTrapDetector::check(const CanonicalUrl& url) {
  int year = 0;
  const auto pattern = pattern_of(url, &year);
  if (!pattern) return std::nullopt;
  if (year > limits_.latest_year) return "calendar-future";
  Counters* c = tracked(*pattern);
  if (c == nullptr) return std::nullopt;
  if (auto reason = trap_reason(*c)) return reason;
  ++c->urls;
  return std::nullopt;
}

CalendarTrapDetector::Counters* CalendarTrapDetector::tracked(std::string_view pattern) {
  const std::uint64_t key = fnv1a(pattern);
  auto it = patterns_.find(key);
  if (it == patterns_.end()) {
    if (patterns_.size() >= limits_.max_patterns) return nullptr;
    it = patterns_.emplace(key, Counters{}).first;
  }
  return &it->second;
}

std::optional<std::string_view> CalendarTrapDetector::trap_reason(const Counters& c) const {
  if (c.out_of_scope_run >= static_cast<std::uint32_t>(limits_.max_out_of_scope_run)) return "calendar-out-of-scope";
  const std::uint64_t bound = static_cast<std::uint64_t>(std::max(0, limits_.max_urls_per_pattern)) +
                              static_cast<std::uint64_t>(std::max(0, limits_.urls_per_in_scope_page)) * c.in_scope;
  if (c.urls >= bound) return "calendar-flood";
  return std::nullopt;
}

std::optional<std::string_view> CalendarTrapDetector::flagged(const CanonicalUrl& url) const {
  int year = 0;
  const auto pattern = pattern_of(url, &year);
  if (!pattern) return std::nullopt;
  if (year > limits_.latest_year) return "calendar-future";
  auto it = patterns_.find(fnv1a(*pattern));
  if (it == patterns_.end()) return std::nullopt;
  return trap_reason(it->second);
}

void CalendarTrapDetector::count_again(std::string_view url) {
  // A calendar-like URL has a year or a compact date: a run of 4 digits or more.
  std::size_t run = 0;
  for (char c : url) {
    run = is_digit(c) ? run + 1 : 0;
    if (run == 4) break;
  }
  if (run < 4) return;
  auto u = CanonicalUrl::parse(url);
  if (!u.ok()) return;
  int year = 0;
  const auto pattern = pattern_of(*u, &year);
  if (!pattern || year > limits_.latest_year) return;  // check() counts neither
  if (Counters* c = tracked(*pattern); c != nullptr && c->urls < UINT32_MAX) ++c->urls;
}

void CalendarTrapDetector::record_scope(const CanonicalUrl& url, bool in_scope) {
  const auto pattern = pattern_of(url);
  if (!pattern) return;
  auto it = patterns_.find(fnv1a(*pattern));
  if (it == patterns_.end()) return;
  if (in_scope) {
    it->second.out_of_scope_run = 0;
    ++it->second.in_scope;
  } else {
    ++it->second.out_of_scope_run;
  }
}

// ---- redirect aliases ------------------------------------------------------------

std::string RedirectAliases::template_of(const CanonicalUrl& url) {
  const std::string_view text = url.path_and_query();
  std::string out = std::string(url.scheme()) + "://" + url.authority();
  out.reserve(out.size() + text.size());
  bool query = false, value = false;
  for (std::size_t i = 0; i < text.size();) {
    const char c = text[i];
    if (value && c != '&') {  // a query value: one "*" for all of it
      ++i;
      continue;
    }
    value = false;
    if (c == '?' && !query) {
      query = true;
    } else if (query && c == '=') {
      out += "=*";
      value = true;
      ++i;
      continue;
    } else if (is_digit(c)) {
      while (i < text.size() && is_digit(text[i])) ++i;
      out.push_back('#');
      continue;
    }
    out.push_back(c);
    ++i;
  }
  return out;
}

bool RedirectAliases::judged(const Counters& c) const {
  return c.chains >= static_cast<std::uint32_t>(std::max(1, limits_.min_chains)) &&
         static_cast<double>(c.known) >= limits_.known_share * static_cast<double>(c.chains);
}

void RedirectAliases::end_chain(const std::vector<std::uint64_t>& templates, bool known) {
  for (std::uint64_t key : templates) {
    auto it = templates_.find(key);
    if (it == templates_.end()) {
      if (templates_.size() >= limits_.max_templates) continue;
      it = templates_.emplace(key, Counters{}).first;
    }
    Counters& c = it->second;
    const bool was = judged(c);
    ++c.chains;
    if (known) ++c.known;
    judged_count_ += judged(c) ? (was ? 0 : 1) : (was ? -1 : 0);
  }
}

void RedirectAliases::on_redirect(const CanonicalUrl& url, const std::string& target, bool target_known) {
  std::vector<std::uint64_t> chain;
  if (auto it = pending_.find(url.str()); it != pending_.end()) {
    chain = std::move(it->second);
    pending_.erase(it);
  }
  const std::uint64_t key = fnv1a(template_of(url));
  if (std::find(chain.begin(), chain.end(), key) == chain.end()) chain.push_back(key);
  if (target_known) {
    end_chain(chain, true);
  } else if (pending_.size() < limits_.max_pending) {
    pending_[target] = std::move(chain);
  }
}

void RedirectAliases::on_end(const std::string& url) {
  auto it = pending_.find(url);
  if (it == pending_.end()) return;
  end_chain(it->second, false);
  pending_.erase(it);
}

bool RedirectAliases::drop(const CanonicalUrl& url) {
  if (judged_count_ == 0) return false;  // no template to build on the dispatch path
  auto it = templates_.find(fnv1a(template_of(url)));
  if (it == templates_.end() || !judged(it->second)) return false;
  const int every = std::max(1, limits_.explore_every);
  return ++it->second.asked % static_cast<std::uint32_t>(every) != 0;
}

std::size_t RedirectAliases::judged_templates() const { return static_cast<std::size_t>(judged_count_); }

}  // namespace cronista::crawler
