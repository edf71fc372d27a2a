// The living web's truth: which process changes each page, every change time
// within the horizon, and the news sites' publications (living_web.h).
//
// Approach: every page of the collection gets a change class from its kind,
// imperfectly (an encyclopedia article is usually rarely edited, sometimes
// never, sometimes as often as news), then a rate around the class's mean
// (a factor 2^u, u uniform in [-1, 1]) and a process: Poisson mostly, some
// periodic, some Weibull with a shape below or above 1, all with that mean
// rate. Hubs of the news sites change when an article is published on them;
// publications are Poisson with busy and quiet periods that alternate. All
// draws come from one splitmix64 stream seeded by the seed, in page order.
#include "sampleweb/living_web.h"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <fstream>
#include <iterator>
#include <optional>
#include <sstream>

#include <nlohmann/json.hpp>

namespace cronista::sampleweb {

const char* validators_name(Validators v) {
  switch (v) {
    case Validators::Honest: return "honest";
    case Validators::Absent: return "absent";
    case Validators::Bogus: return "bogus";
  }
  return "absent";
}

namespace {

std::optional<Validators> validators_from(const std::string& s) {
  if (s == "honest") return Validators::Honest;
  if (s == "absent") return Validators::Absent;
  if (s == "bogus") return Validators::Bogus;
  return std::nullopt;
}

}  // namespace

int LivingTruth::version_at(int page, std::int64_t t) const {
  const auto& c = pages[static_cast<std::size_t>(page)].changes;
  return static_cast<int>(std::upper_bound(c.begin(), c.end(), t) - c.begin());
}

std::vector<int> LivingTruth::hub_items(int hub, std::int64_t t) const {
  std::vector<int> out;
  auto it = hub_articles_.find(hub);
  if (it == hub_articles_.end()) return out;
  const auto& articles = it->second;  // by publication time
  auto end = std::upper_bound(articles.begin(), articles.end(), t,
                              [&](std::int64_t v, int a) { return v < pages[static_cast<std::size_t>(a)].published; });
  for (auto i = end; i != articles.begin() && static_cast<int>(out.size()) < hub_list_size;) out.push_back(*--i);
  return out;
}

void LivingTruth::index() {
  by_url.clear();
  hub_articles_.clear();
  for (int i = 0; i < static_cast<int>(pages.size()); ++i) {
    by_url[pages[static_cast<std::size_t>(i)].url] = i;
    for (int hub : pages[static_cast<std::size_t>(i)].listed_on) hub_articles_[hub].push_back(i);
  }
  for (auto& [hub, articles] : hub_articles_)
    std::stable_sort(articles.begin(), articles.end(), [&](int a, int b) {
      return pages[static_cast<std::size_t>(a)].published < pages[static_cast<std::size_t>(b)].published;
    });
}

std::string LivingTruth::to_jsonl() const {
  nlohmann::ordered_json head;
  head["seed"] = seed;
  head["horizon_ms"] = horizon_ms;
  head["hub_list_size"] = hub_list_size;
  head["hosts"] = nlohmann::ordered_json::array();
  for (const LivingHost& h : hosts)
    head["hosts"].push_back({{"name", h.name},
                             {"authority", h.authority},
                             {"validators", validators_name(h.validators)},
                             {"clock", h.clock},
                             {"most_read", h.most_read},
                             {"counter", h.counter},
                             {"latin1", h.latin1}});
  head["months"] = months;
  head["texts"] = texts;
  std::string out = nlohmann::ordered_json{{"living", head}}.dump() + "\n";
  for (const LivingPage& p : pages) {
    nlohmann::ordered_json j;
    j["url"] = p.url;
    j["host"] = hosts[static_cast<std::size_t>(p.host)].name;
    j["class"] = p.change_class;
    j["process"] = p.process;
    j["rate"] = p.rate;
    if (p.is_new()) {
      j["published"] = p.published;
      j["title"] = p.title;
      nlohmann::ordered_json hubs = nlohmann::ordered_json::array();
      for (int h : p.listed_on) hubs.push_back(pages[static_cast<std::size_t>(h)].url);
      j["listed_on"] = hubs;
    }
    j["changes"] = p.changes;
    out += j.dump() + "\n";
  }
  return out;
}

Result<LivingTruth> LivingTruth::parse(const std::string& jsonl, const std::string& name) {
  using R = Result<LivingTruth>;
  LivingTruth t;
  std::istringstream in(jsonl);
  std::string line;
  int line_no = 0;
  std::map<std::string, int> host_of;
  std::vector<std::vector<std::string>> listed_urls;
  while (std::getline(in, line)) {
    ++line_no;
    if (line.empty()) continue;
    const std::string where = name + ":" + std::to_string(line_no) + ": ";
    nlohmann::json j = nlohmann::json::parse(line, nullptr, false);
    if (j.is_discarded() || !j.is_object()) return R::Error(where + "not a JSON object");
    try {
      if (line_no == 1) {
        if (!j.contains("living")) return R::Error(where + "not a living-web truth (no \"living\" header)");
        const auto& h = j["living"];
        t.seed = h.at("seed").get<std::uint64_t>();
        t.horizon_ms = h.at("horizon_ms").get<std::int64_t>();
        t.hub_list_size = h.at("hub_list_size").get<int>();
        t.months = h.at("months").get<std::vector<std::string>>();
        t.texts = h.at("texts").get<std::map<std::string, std::vector<std::string>>>();
        if (t.months.size() != 12) return R::Error(where + "needs twelve month names");
        for (const auto& hj : h.at("hosts")) {
          LivingHost host;
          host.name = hj.at("name").get<std::string>();
          host.authority = hj.at("authority").get<std::string>();
          auto v = validators_from(hj.at("validators").get<std::string>());
          if (!v) return R::Error(where + "unknown validators '" + hj.at("validators").get<std::string>() + "'");
          host.validators = *v;
          host.clock = hj.at("clock").get<bool>();
          host.most_read = hj.at("most_read").get<bool>();
          host.counter = hj.at("counter").get<bool>();
          host.latin1 = hj.at("latin1").get<bool>();
          host_of[host.name] = static_cast<int>(t.hosts.size());
          t.hosts.push_back(std::move(host));
        }
        continue;
      }
      LivingPage p;
      p.url = j.at("url").get<std::string>();
      const std::string host = j.at("host").get<std::string>();
      auto h = host_of.find(host);
      if (h == host_of.end()) return R::Error(where + "unknown host '" + host + "'");
      p.host = h->second;
      const std::string prefix = "http://" + t.hosts[static_cast<std::size_t>(p.host)].authority;
      if (p.url.compare(0, prefix.size(), prefix) != 0) return R::Error(where + "URL '" + p.url + "' is not on its host");
      p.path = p.url.substr(prefix.size());
      p.change_class = j.at("class").get<std::string>();
      p.process = j.at("process").get<std::string>();
      p.rate = j.at("rate").get<double>();
      p.changes = j.at("changes").get<std::vector<std::int64_t>>();
      if (!std::is_sorted(p.changes.begin(), p.changes.end())) return R::Error(where + "change times not sorted");
      std::vector<std::string> listed;
      if (p.is_new()) {
        p.published = j.at("published").get<std::int64_t>();
        p.title = j.at("title").get<std::string>();
        listed = j.at("listed_on").get<std::vector<std::string>>();
      }
      listed_urls.push_back(std::move(listed));
      t.pages.push_back(std::move(p));
    } catch (const nlohmann::json::exception& e) {
      return R::Error(where + "bad field (" + std::string(e.what()) + ")");
    }
  }
  if (t.hosts.empty()) return R::Error(name + ": empty living-web truth");
  t.index();
  for (std::size_t i = 0; i < t.pages.size(); ++i) {
    for (const std::string& u : listed_urls[i]) {
      auto it = t.by_url.find(u);
      if (it == t.by_url.end()) return R::Error(name + ": '" + t.pages[i].url + "' is listed on unknown page '" + u + "'");
      t.pages[i].listed_on.push_back(it->second);
    }
  }
  t.index();
  return t;
}

Result<LivingTruth> LivingTruth::load(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return Result<LivingTruth>::Error("cannot open '" + path + "': " + std::strerror(errno));
  return parse(std::string(std::istreambuf_iterator<char>(in), {}), path);
}

}  // namespace cronista::sampleweb
