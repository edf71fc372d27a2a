// Planning the living web (living_web.h) from the static web's pages, after
// the static web is written and with a random stream of its own, so that
// the static web's bytes do not depend on --living.
//
// Every page that answers 200 and that robots.txt allows is in the
// collection. Its change class follows its kind, imperfectly (the features a
// crawler sees — site, path form, links, validators — correlate with the
// class without deciding it); its rate is the class's mean rate times 2^u,
// u uniform in [-1, 1]; its process is Poisson (80%), periodic (10%) or
// Weibull (10%, shape 0.5 or 2) with that mean. The news sites' hubs (home,
// section pages, archive index) change when an article is published on them;
// publications are Poisson, busy and quiet periods alternating.
#include <algorithm>
#include <cmath>

#include "sampleweb/living_web.h"
#include "sampleweb/sample_web_generator.h"

namespace cronista::sampleweb::gen {

namespace {

constexpr std::int64_t kSecond = 1000;

// Mean interval between changes of each class, in seconds (0: never).
struct ChangeClass {
  const char* name;
  double mean_interval_s;
};
constexpr ChangeClass kClasses[] = {{"news", 300}, {"blog", 900}, {"encyclopedia", 2400}, {"static", 0}};
enum ClassIndex { kNews = 0, kBlogClass, kEncyclopedia, kStatic, kClassCount };

// What a page is, for the living web.
enum class LivingKind { NewsHub, Home, NewsContent, Article, Post, Edition, Index, Fixed, Count };

// Percent of each class by kind (news, blog, encyclopedia, static).
constexpr int kClassMix[static_cast<int>(LivingKind::Count)][kClassCount] = {
    {0, 0, 0, 0},       // NewsHub: publishing
    {70, 30, 0, 0},     // Home
    {60, 0, 25, 15},    // NewsContent
    {10, 0, 65, 25},    // Article
    {0, 70, 15, 15},    // Post
    {0, 0, 15, 85},     // Edition
    {0, 20, 40, 40},    // Index
    {0, 0, 0, 100},     // Fixed
};

// Validators and noise per site, in Site order.
struct HostBehaviour {
  Validators validators;
  bool clock, most_read, counter;
};
constexpr HostBehaviour kHostBehaviour[kSiteCount] = {
    {Validators::Honest, false, false, false},  // enciclopedia
    {Validators::Honest, true, true, true},     // jornal
    {Validators::Bogus, true, true, false},     // folha
    {Validators::Absent, false, false, true},   // blog
    {Validators::Honest, false, false, false},  // hemeroteca
    {Validators::Absent, true, false, false},   // calendario
    {Validators::Bogus, true, false, true},     // portal
};

// Publications: busy and quiet periods alternate, each kPeriodS long.
constexpr double kPeriodS = 600, kBusyGapS = 20, kQuietGapS = 120;
constexpr int kHubListSize = 10;
// A new article is edited 1-4 times, the k-th edit a mean kEditGapS * 2^k after the one before.
constexpr double kEditGapS = 45;

// The templates the server fills at request time (sites.txt lists).
constexpr const char* kTextLists[] = {"living-clock",  "living-counter", "living-most-read", "living-latest",
                                      "living-update", "living-today",   "living-edit",      "living-revision"};

double uniform01(Rng& r) { return static_cast<double>(r.next() >> 11) * 0x1.0p-53; }
double exponential(Rng& r, double mean) { return -mean * std::log1p(-uniform01(r)); }

// Changes happen on whole seconds, so that a Last-Modified (to the second)
// tells every version apart and an honest 304 is never wrong.
std::int64_t whole_seconds(double ms) { return static_cast<std::int64_t>(ms / kSecond) * kSecond; }

bool is_news_site(int site) { return site == kJornal || site == kFolha; }

LivingKind living_kind(const Page& p) {
  switch (p.kind) {
    case Kind::Home: return is_news_site(p.site) ? LivingKind::NewsHub : LivingKind::Home;
    case Kind::ListPage:
    case Kind::ArchiveIndex:
      if (is_news_site(p.site)) return LivingKind::NewsHub;
      return LivingKind::Index;
    case Kind::News:
    case Kind::Anniversary: return LivingKind::NewsContent;
    case Kind::Article: return LivingKind::Article;
    case Kind::Post: return LivingKind::Post;
    case Kind::Edition: return LivingKind::Edition;
    case Kind::YearPage:
    case Kind::YearIndex:
    case Kind::Archive:
    case Kind::Directory:
    case Kind::DirectoryIndex: return LivingKind::Index;
    default: return LivingKind::Fixed;
  }
}

// Change times in [0, horizon) of a renewal process with the given mean rate.
std::vector<std::int64_t> change_times(Rng& rng, const std::string& process, double rate, double shape,
                                       std::int64_t horizon) {
  std::vector<std::int64_t> out;
  if (rate <= 0) return out;
  const double mean_ms = 1000.0 / rate;
  if (process == "periodic") {
    for (double t = uniform01(rng) * mean_ms; t < static_cast<double>(horizon); t += mean_ms)
      out.push_back(whole_seconds(t));
    return out;
  }
  // Weibull of this shape with mean mean_ms: scale = mean / Γ(1 + 1/shape).
  const double scale = process == "weibull" ? mean_ms / std::tgamma(1 + 1 / shape) : 0;
  auto interval = [&] {
    if (process == "weibull") return scale * std::pow(-std::log1p(-uniform01(rng)), 1 / shape);
    return exponential(rng, mean_ms);
  };
  // The process has been running before 0: start at a random point of an interval.
  for (double t = uniform01(rng) * interval(); t < static_cast<double>(horizon); t += interval())
    out.push_back(whole_seconds(t));
  return out;
}

}  // namespace

Status Generator::write_living(SampleWebSummary* summary) {
  Rng rng(o_.seed ^ 0x6C6976696E67ULL);  // a stream apart from the static web's
  LivingTruth truth;
  truth.seed = o_.seed;
  truth.horizon_ms = static_cast<std::int64_t>(o_.living_horizon_s * kSecond);
  truth.hub_list_size = kHubListSize;
  for (int s = 0; s < kSiteCount; ++s) {
    const HostBehaviour& b = kHostBehaviour[s];
    truth.hosts.push_back({kSiteName[s], authority(s), b.validators, b.clock, b.most_read, b.counter, s == kHemeroteca});
  }
  for (const char* list : kTextLists) {
    auto it = c_.sentences.find(list);
    if (it == c_.sentences.end() || it->second.empty())
      return Status::Error("sites.txt has no [" + std::string(list) + "] list (the living web needs it)");
    truth.texts[list] = it->second;
  }
  const auto& headlines = c_.sentences.find("living-headline");
  if (headlines == c_.sentences.end() || headlines->second.empty())
    return Status::Error("sites.txt has no [living-headline] list (the living web needs it)");
  truth.months = c_.months;

  // The collection, in URL order.
  std::vector<int> ids;
  for (int id = 0; id < static_cast<int>(pages_.size()); ++id)
    if (pages_[id].status == 200 && !pages_[id].disallowed) ids.push_back(id);
  std::sort(ids.begin(), ids.end(), [&](int a, int b) { return url(a) < url(b); });
  std::map<int, int> living_of;  // generator page -> living page
  for (int id : ids) {
    const Page& p = pages_[id];
    LivingPage lp;
    lp.url = url(id);
    lp.path = p.path;
    lp.host = p.site;
    const LivingKind kind = living_kind(p);
    if (kind == LivingKind::NewsHub) {
      lp.change_class = "hub";
      lp.process = "publishing";
    } else {
      int roll = rng.uniform(0, 99), c = 0;
      while (c + 1 < kClassCount && roll >= kClassMix[static_cast<int>(kind)][c]) roll -= kClassMix[static_cast<int>(kind)][c++];
      lp.change_class = kClasses[c].name;
      if (kClasses[c].mean_interval_s <= 0) {
        lp.process = "never";
      } else {
        lp.rate = std::pow(2.0, 2 * uniform01(rng) - 1) / kClasses[c].mean_interval_s;
        const int form = rng.uniform(0, 9);
        lp.process = form < 8 ? "poisson" : form == 8 ? "periodic" : "weibull";
        const double shape = rng.percent(50) ? 0.5 : 2.0;
        lp.changes = change_times(rng, lp.process, lp.rate, shape, truth.horizon_ms);
      }
    }
    living_of[id] = static_cast<int>(truth.pages.size());
    truth.pages.push_back(std::move(lp));
  }

  // Publications of the news sites, merged by time.
  std::vector<LivingPage> articles;
  for (int site : {kJornal, kFolha}) {
    int home = -1, archive = -1;
    std::vector<int> sections;
    for (int id : ids) {
      const Page& p = pages_[id];
      if (p.site != site || living_kind(p) != LivingKind::NewsHub) continue;
      if (p.kind == Kind::Home) home = living_of[id];
      else if (p.kind == Kind::ArchiveIndex) archive = living_of[id];
      else sections.push_back(living_of[id]);
    }
    if (home < 0 || archive < 0 || sections.empty()) continue;
    int n = 0;
    double t = 0;
    while (true) {
      const std::int64_t period = static_cast<std::int64_t>(t / (kPeriodS * kSecond));
      const double period_end = static_cast<double>(period + 1) * kPeriodS * kSecond;
      const double next = t + exponential(rng, (period % 2 == 0 ? kBusyGapS : kQuietGapS) * kSecond);
      if (next >= period_end) {  // memoryless: start again at the period's end
        t = period_end;
        if (t >= static_cast<double>(truth.horizon_ms)) break;
        continue;
      }
      t = next;
      if (t >= static_cast<double>(truth.horizon_ms)) break;
      LivingPage a;
      a.change_class = "new-article";
      a.process = "edits";
      a.host = site;
      a.published = whole_seconds(t);
      const std::string& clause = rng.pick(headlines->second);
      a.title = upper_first(clause);
      a.path = "/ultimas/" + std::to_string(++n) + "-" + slugify(a.title) + ".html";
      a.url = base(site) + a.path;
      a.listed_on = {home, rng.pick(sections), archive};
      double e = t;
      const int edits = rng.uniform(1, 4);
      for (int k = 0; k < edits; ++k) {
        e += exponential(rng, kEditGapS * kSecond * std::pow(2.0, k));
        if (e < static_cast<double>(truth.horizon_ms)) a.changes.push_back(whole_seconds(e));
      }
      const double life_s = static_cast<double>(truth.horizon_ms - a.published) / kSecond;
      a.rate = life_s > 0 ? static_cast<double>(a.changes.size()) / life_s : 0;
      articles.push_back(std::move(a));
    }
  }
  std::stable_sort(articles.begin(), articles.end(),
                   [](const LivingPage& a, const LivingPage& b) { return a.published < b.published; });
  for (LivingPage& a : articles) {
    for (int hub : a.listed_on) truth.pages[static_cast<std::size_t>(hub)].changes.push_back(a.published);
    truth.pages.push_back(std::move(a));
  }
  const double horizon_s = static_cast<double>(truth.horizon_ms) / kSecond;
  for (LivingPage& p : truth.pages) {
    if (p.change_class != "hub") continue;
    std::sort(p.changes.begin(), p.changes.end());
    p.rate = horizon_s > 0 ? static_cast<double>(p.changes.size()) / horizon_s : 0;
  }
  truth.index();

  for (const LivingPage& p : truth.pages) {
    if (p.is_new()) {
      ++summary->living_new_articles;
      continue;
    }
    ++summary->living_pages;
    summary->living_changes += static_cast<int>(p.changes.size());
  }
  return write_file(std::filesystem::path(o_.out_dir) / kLivingTruthFile, truth.to_jsonl());
}

}  // namespace cronista::sampleweb::gen
