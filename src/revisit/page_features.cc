#include "revisit/page_features.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cctype>
#include <utility>

#include "temporal/text_fold.h"

namespace cronista::revisit {
namespace {

struct Named {
  const char* name;
  double PageFeatures::*field;
};
constexpr Named kNamed[] = {
    {"url_depth", &PageFeatures::url_depth},
    {"dated_path", &PageFeatures::dated_path},
    {"query", &PageFeatures::query},
    {"links", &PageFeatures::links},
    {"images", &PageFeatures::images},
    {"mailto", &PageFeatures::mailto},
    {"text_bytes", &PageFeatures::text_bytes},
    {"last_modified", &PageFeatures::last_modified},
    {"etag", &PageFeatures::etag},
    {"newest_date_days", &PageFeatures::newest_date_days},
    {"has_dates", &PageFeatures::has_dates},
    {"update_line", &PageFeatures::update_line},
    {"speaks_of_today", &PageFeatures::speaks_of_today},
    {"link_density", &PageFeatures::link_density},
};
static_assert(std::size(kNamed) == PageFeatures::kCount);

bool is_digit(char c) { return c >= '0' && c <= '9'; }

// FNV-1a, 32 bits: stable across builds and runs (the hashes are stored).
std::uint32_t fnv1a(std::string_view s) {
  std::uint32_t h = 2166136261u;
  for (unsigned char c : s) {
    h ^= c;
    h *= 16777619u;
  }
  return h == 0 ? 1 : h;  // 0 means unknown
}

std::string_view authority_of(std::string_view url) {
  const std::size_t scheme = url.find("://");
  if (scheme == std::string_view::npos) return {};
  const std::size_t start = scheme + 3;
  const std::size_t end = url.find_first_of("/?#", start);
  return url.substr(start, end == std::string_view::npos ? std::string_view::npos : end - start);
}

// The path of a URL (after the authority, before the query or fragment),
// and whether it has a query.
std::pair<std::string_view, bool> path_of(std::string_view url) {
  std::size_t start = url.find("://");
  start = start == std::string_view::npos ? 0 : url.find('/', start + 3);
  if (start == std::string_view::npos) return {"/", false};
  std::string_view rest = url.substr(start);
  const std::size_t q = rest.find_first_of("?#");
  const bool query = q != std::string_view::npos && rest[q] == '?';
  return {rest.substr(0, q), query};
}

// Whether the segment is a year (four digits) followed by nothing or a
// month or day segment: /2024/, /2024/05/.
bool dated(const std::vector<std::string_view>& segments) {
  for (std::string_view s : segments)
    if (s.size() == 4 && std::all_of(s.begin(), s.end(), is_digit) && (s[0] == '1' || s[0] == '2')) return true;
  return false;
}

std::vector<std::string_view> split_words(std::string_view s) {
  std::vector<std::string_view> out;
  std::size_t i = 0;
  while (i < s.size()) {
    while (i < s.size() && (s[i] == ' ' || s[i] == ',' || s[i] == '.' || s[i] == ':' || s[i] == ';')) ++i;
    std::size_t j = i;
    while (j < s.size() && !(s[j] == ' ' || s[j] == ',' || s[j] == '.' || s[j] == ':' || s[j] == ';')) ++j;
    if (j > i) out.push_back(s.substr(i, j - i));
    i = j;
  }
  return out;
}

std::string join(const std::vector<std::string_view>& words, std::size_t from, std::size_t n) {
  std::string out;
  for (std::size_t k = from; k < from + n; ++k) {
    if (k > from) out += ' ';
    out += words[k];
  }
  return out;
}

}  // namespace

Result<FeatureCues> FeatureCues::from(const temporal::Lexicon& lexicon) {
  FeatureCues c;
  c.update_ = lexicon.phrases("UPDATE_CUE");
  if (c.update_.empty()) return Result<FeatureCues>::Error("the resources have no UPDATE_CUE words");
  std::sort(c.update_.begin(), c.update_.end(), [](const auto& a, const auto& b) { return a.size() > b.size(); });
  const auto& days = lexicon.phrases("DEICTIC_DAY");
  if (days.empty()) return Result<FeatureCues>::Error("the resources have no DEICTIC_DAY words");
  for (const std::string& d : days) {
    const std::string* v = lexicon.value(d, "DEICTIC_DAY");
    (v && (*v == "0" || *v == "-1") ? c.today_ : c.other_days_).push_back(d);
  }
  return c;
}

bool FeatureCues::update_line(std::string_view before) const {
  while (!before.empty() && (before.back() == ' ' || before.back() == ':' || before.back() == ',' ||
                             before.back() == '-' || before.back() == '('))
    before.remove_suffix(1);
  for (const std::string& cue : update_) {
    if (before.size() < cue.size() || before.substr(before.size() - cue.size()) != cue) continue;
    // A whole word: the cue starts the text or follows a non-letter.
    const std::size_t at = before.size() - cue.size();
    if (at == 0) return true;
    const unsigned char c = static_cast<unsigned char>(before[at - 1]);
    if (c < 0x80 && !std::isalnum(c)) return true;
  }
  return false;
}

bool FeatureCues::today_or_yesterday(std::string_view folded) const {
  // Longest phrases first at each word, so that "antes de ontem" is not "ontem".
  const auto words = split_words(folded);
  std::size_t longest = 1;
  for (const auto* list : {&today_, &other_days_})
    for (const std::string& p : *list) longest = std::max(longest, split_words(p).size());
  for (std::size_t i = 0; i < words.size();) {
    std::size_t step = 1;
    for (std::size_t n = std::min(longest, words.size() - i); n >= 1; --n) {
      const std::string phrase = join(words, i, n);
      if (std::find(today_.begin(), today_.end(), phrase) != today_.end()) return true;
      if (std::find(other_days_.begin(), other_days_.end(), phrase) != other_days_.end()) {
        step = n;
        break;
      }
    }
    i += step;
  }
  return false;
}

void set_url_categories(std::string_view url, PageFeatures& f) {
  const std::string_view authority = authority_of(url);
  if (authority.empty()) return;
  f.host = fnv1a(authority);
  // The section: the first segment of a path with more than one (a page at
  // the top, "/" or "/sobre", is the host's own).
  const std::string_view path = path_of(url).first;
  const std::size_t a = path.find_first_not_of('/');
  const std::size_t b = a == std::string_view::npos ? a : path.find('/', a);
  const std::string_view first = b == std::string_view::npos ? std::string_view() : path.substr(a, b - a);
  f.section = fnv1a(std::string(authority) + "/" + std::string(first));
}

PageFeatures page_features(const FirstFetch& fetch, const FeatureCues& cues) {
  PageFeatures f;
  const auto [path, query] = path_of(fetch.url);
  std::vector<std::string_view> segments;
  for (std::size_t i = 0; i < path.size();) {
    const std::size_t j = std::min(path.find('/', i), path.size());
    if (j > i) segments.push_back(path.substr(i, j - i));
    i = j + 1;
  }
  set_url_categories(fetch.url, f);
  f.url_depth = static_cast<double>(segments.size());
  f.dated_path = dated(segments) ? 1 : 0;
  f.query = query ? 1 : 0;
  f.last_modified = fetch.last_modified ? 1 : 0;
  f.etag = fetch.etag ? 1 : 0;
  if (!fetch.doc) return f;
  const temporal::TextDocument& doc = *fetch.doc;
  for (const temporal::Link& l : doc.links) {
    std::string_view href = l.href;
    if (href.size() >= 7 && temporal::fold_text(href.substr(0, 7)) == "mailto:")
      ++f.mailto;
    else
      ++f.links;
  }
  f.images = static_cast<double>(doc.images);
  std::size_t main = 0;
  for (const temporal::Block& b : doc.blocks)
    if (!b.boilerplate) main += b.end - b.start;
  f.text_bytes = static_cast<double>(doc.blocks.empty() ? doc.text.size() : main);
  f.link_density = f.links * 100.0 / std::max(1.0, static_cast<double>(doc.text.size()));

  const std::string folded = temporal::fold_text(doc.text);
  const temporal::DayNumber today = fetch.fetched.day_number();
  std::optional<temporal::DayNumber> newest;
  // What the tagger read in the main text: page furniture (a site-wide
  // "Última atualização" footer, a clock) says nothing of the page.
  const auto in_main = [&](std::size_t at) {
    if (doc.blocks.empty()) return true;
    for (const temporal::Block& b : doc.blocks)
      if (at >= b.start && at < b.end) return !b.boilerplate;
    return false;
  };
  for (const temporal::TemporalExpression& e : fetch.expressions) {
    if (!in_main(e.start)) continue;
    for (const temporal::Chronon& c : e.chronons) {
      const auto days = c.days();
      if (!days) continue;
      f.has_dates = 1;
      // The newest day the page mentions, no later than the fetch.
      const temporal::DayNumber last = std::min(days->last, today);
      if (days->first <= today && (!newest || last > *newest)) newest = last;
    }
    if (e.start <= folded.size() && e.end <= folded.size()) {
      const std::size_t from = std::min(e.start, e.harem_start);
      const std::size_t line = folded.rfind('\n', from == 0 ? 0 : from - 1);
      const std::size_t begin = line == std::string::npos ? 0 : line + 1;
      if (from >= begin && cues.update_line(std::string_view(folded).substr(begin, from - begin))) f.update_line = 1;
      if (cues.today_or_yesterday(std::string_view(folded).substr(e.start, e.end - e.start))) f.speaks_of_today = 1;
    }
  }
  if (newest) f.newest_date_days = static_cast<double>(today - *newest);
  return f;
}

std::string features_json(const PageFeatures& f) {
  nlohmann::json j = nlohmann::json::object();
  for (const Named& n : kNamed) j[n.name] = f.*(n.field);
  j["host"] = f.host;
  j["section"] = f.section;
  return j.dump();
}

std::optional<PageFeatures> parse_features(std::string_view text) {
  const nlohmann::json j = nlohmann::json::parse(text, nullptr, false);
  if (j.is_discarded() || !j.is_object()) return std::nullopt;
  PageFeatures f;
  for (const Named& n : kNamed) {
    auto it = j.find(n.name);
    if (it == j.end()) continue;
    if (!it->is_number()) return std::nullopt;
    f.*(n.field) = it->get<double>();
  }
  for (auto [name, field] : {std::pair{"host", &PageFeatures::host}, std::pair{"section", &PageFeatures::section}}) {
    auto it = j.find(name);
    if (it == j.end()) continue;
    if (!it->is_number_unsigned() || it->get<std::uint64_t>() > 0xffffffffu) return std::nullopt;
    f.*field = it->get<std::uint32_t>();
  }
  return f;
}

}  // namespace cronista::revisit
