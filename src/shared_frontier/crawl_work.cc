#include "shared_frontier/crawl_work.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <iterator>
#include <variant>

#include <nlohmann/json.hpp>

#include "crawler/frontier.h"

namespace cronista::shared_frontier {
namespace {

Claim to_claim(const crawler::SharedClaim& c) {
  Claim out;
  out.url = c.url;
  out.host = c.host;
  out.priority = c.priority;
  out.order = c.order;
  return out;
}

// A due time as the shared frontier keeps it (ms).
std::int64_t due_ms(double seconds) { return static_cast<std::int64_t>(seconds * 1000); }

// A page's copy as the shared frontier keeps it (JSON, opaque to it).
std::string copy_text(const crawler::SharedCopy& c) {
  nlohmann::json j = {{"etag", c.etag}, {"lm", c.last_modified}, {"sha", c.content_hash},
                      {"at", c.captured_at}, {"depth", c.depth}, {"last", c.last_visit}, {"rel", c.relevant}};
  if (c.signature) j["sig"] = {c.signature->exact, c.signature->simhash, c.signature->words};
  if (c.signature && c.signature->links != 0) j["links"] = c.signature->links;
  if (c.history) {
    // Visits as signed intervals (negative: a change), oldest first.
    nlohmann::json visits = nlohmann::json::array();
    for (const auto& o : c.history->recent) visits.push_back(o.changed ? -o.interval_s : o.interval_s);
    const revisit::FoldedVisits& f = c.history->folded;
    j["visits"] = visits;
    j["folded"] = {f.unchanged_time, f.changed, f.changed_mean_interval, f.visits, f.interval_sum};
    j["yield"] = c.history->yield;
  }
  return j.dump();
}

// A copy read back: what cannot be read is left empty (the revisit is then
// an unconditional request judged against no signature: it counts as a change).
crawler::SharedCopy copy_of(const std::string& text) {
  crawler::SharedCopy c;
  const auto j = nlohmann::json::parse(text, nullptr, false);
  if (!j.is_object()) return c;
  auto str = [&](const char* k) { return j.contains(k) && j[k].is_string() ? j[k].get<std::string>() : std::string(); };
  c.etag = str("etag");
  c.last_modified = str("lm");
  c.content_hash = str("sha");
  c.captured_at = str("at");
  if (j.contains("depth") && j["depth"].is_number_unsigned()) c.depth = j["depth"].get<std::uint16_t>();
  if (j.contains("last") && j["last"].is_number()) c.last_visit = j["last"].get<double>();
  if (j.contains("rel") && j["rel"].is_number_integer()) c.relevant = static_cast<std::int8_t>(std::clamp(j["rel"].get<int>(), -1, 1));
  if (j.contains("sig") && j["sig"].is_array() && j["sig"].size() == 3 && j["sig"][0].is_number_unsigned() &&
      j["sig"][1].is_number_unsigned() && j["sig"][2].is_number_unsigned())
    c.signature = revisit::ContentSignature{j["sig"][0].get<std::uint64_t>(), j["sig"][1].get<std::uint64_t>(),
                                            j["sig"][2].get<std::uint32_t>()};
  if (c.signature && j.contains("links") && j["links"].is_number_unsigned())
    c.signature->links = j["links"].get<std::uint64_t>();
  const auto& f = j.contains("folded") ? j["folded"] : nlohmann::json();
  if (j.contains("visits") && j["visits"].is_array() && f.is_array() && f.size() == 5 &&
      std::all_of(f.begin(), f.end(), [](const nlohmann::json& x) { return x.is_number() && x.get<double>() >= 0; }) &&
      j.contains("yield") && j["yield"].is_number()) {
    revisit::VisitHistory h;
    for (const auto& v : j["visits"])
      if (v.is_number()) h.recent.push_back(revisit::ChangeObservation{std::abs(v.get<double>()), v.get<double>() < 0});
    h.folded = revisit::FoldedVisits{f[0].get<double>(), f[1].get<std::uint32_t>(), f[2].get<double>(),
                                     f[3].get<std::uint32_t>(), f[4].get<double>()};
    h.yield = j["yield"].get<double>();
    c.history = std::move(h);
  }
  return c;
}

Result<crawler::SharedPull> pull_of(const Result<std::variant<std::vector<Claim>, NoClaim>>& r) {
  if (!r.ok()) return r.status();
  crawler::SharedPull pull;
  if (const auto* claims = std::get_if<std::vector<Claim>>(&*r)) {
    pull.why = crawler::SharedPull::Why::kClaimed;
    if (!claims->empty() && claims->front().next_ready_ms > 0)
      pull.wait = std::chrono::milliseconds(claims->front().next_ready_ms - claims->front().claimed_at_ms);
    for (const Claim& c : *claims)
      pull.claims.push_back(crawler::SharedClaim{c.url, c.host, c.priority,
                                                 c.copy ? std::optional(copy_of(*c.copy)) : std::nullopt, c.order});
    return pull;
  }
  const NoClaim& none = std::get<NoClaim>(*r);
  switch (none.why) {
    case NoClaim::Why::kBudgetSpent: pull.why = crawler::SharedPull::Why::kBudgetSpent; break;
    case NoClaim::Why::kEmpty: pull.why = crawler::SharedPull::Why::kEmpty; break;
    case NoClaim::Why::kWait:
      pull.why = crawler::SharedPull::Why::kWait;
      pull.wait = std::chrono::milliseconds(none.next_ready_ms - none.now_ms);
      break;
  }
  return pull;
}

class RedisWork : public crawler::SharedWork {
 public:
  explicit RedisWork(std::unique_ptr<SharedFrontier> f) : f_(std::move(f)) {}

  Status join(std::int64_t max_pages,
              const std::function<std::optional<bool>(const std::string& url)>& finished_here) override {
    if (max_pages > 0)
      if (Status s = f_->set_budget(max_pages); !s.ok()) return s;
    auto own = f_->own_claims();
    if (!own.ok()) return own.status();
    for (const Claim& c : *own) {
      const std::optional<bool> done = finished_here(c.url);
      if (!done) {
        if (Status s = f_->give_back(c); !s.ok()) return s;
      } else if (auto r = f_->complete(c, !*done); !r.ok()) {
        return r.status();
      }
    }
    return Status::Ok();
  }

  // One round trip (SharedFrontier::exchange). A queued URL offered again
  // moves up in the same call to the priority of its links counted over
  // all workers and the lowest penalty of them (QueuedUrl::penalty), as
  // the lone crawl's frontier ranks it.
  crawler::SharedReply exchange(const crawler::SharedExchange& x) override {
    SharedFrontier::Exchange e;
    e.add.reserve(x.offers.size());
    for (const auto& u : x.offers)
      e.add.push_back(QueuedUrl{u.url, u.host, "", crawler::priority_for(u.backlinks, u.penalty), u.backlinks,
                                u.order, u.penalty == crawler::kAnnouncedPenalty ? -1 : u.penalty});
    for (const auto& r : x.releases) e.releases.push_back(HostRelease{to_claim(r.claim), r.address, r.contacted});
    for (const auto& done : x.completions) {
      Settle st{to_claim(done.claim), !done.downloaded, std::nullopt};
      if (done.next) st.next = NextVisit{due_ms(done.next->due), copy_text(*done.next),
                                                 std::isfinite(done.next->spare_from) ? due_ms(done.next->spare_from)
                                                                                      : NextVisit::kNever};
      e.settles.push_back(std::move(st));
    }
    e.claims = static_cast<int>(x.claims);
    e.held = static_cast<int>(x.held);
    e.slot_rule = SlotRule{x.slot_rule.slack, static_cast<int>(x.slot_rule.lookahead.count()), x.slot_rule.band,
                           x.slot_rule.learnt, x.slot_rule.spare};
    for (const crawler::SharedTitle& t : x.titles) e.titles.push_back((t.relevant ? "1" : "0") + t.title);
    e.titles_from = x.read_titles ? static_cast<std::int64_t>(x.titles_from) : -1;
    auto r = f_->exchange(e);
    crawler::SharedReply out;
    out.offered = r.added;  // not known to be queued: the offers go again
    out.fresh = std::move(r.fresh);
    out.released = std::move(r.released);
    out.completed = std::move(r.settled);
    if (x.claims > 0) out.pull = pull_of(r.claimed);
    if (!r.titles.ok()) {
      out.titles = r.titles.status();
    } else {
      std::vector<crawler::SharedTitle> read;
      read.reserve(r.titles->size());
      for (const std::string& e : *r.titles)
        read.push_back(e.empty() ? crawler::SharedTitle{} : crawler::SharedTitle{e.substr(1), e[0] == '1'});
      out.titles = std::move(read);
      out.titles_end = static_cast<std::uint64_t>(std::max<std::int64_t>(0, r.titles_end));
    }
    return out;
  }

  Status give_back(const crawler::SharedClaim& c) override { return f_->give_back(to_claim(c)); }

  Status leave() override {
    auto r = f_->leave();
    return r.ok() ? Status::Ok() : r.status();
  }

  Result<std::vector<crawler::SharedClaim>> own_claims() override {
    auto own = f_->own_claims();
    if (!own.ok()) return own.status();
    std::vector<crawler::SharedClaim> out;
    for (const Claim& c : *own) out.push_back(crawler::SharedClaim{c.url, c.host, c.priority, std::nullopt, c.order});
    return out;
  }

  Result<std::optional<crawler::SharedRobots>> robots(const std::string& host) override {
    auto r = f_->robots(host);
    if (!r.ok()) return r.status();
    std::optional<crawler::SharedRobots> out;
    if (!*r) return out;
    const std::string& v = (*r)->value;
    const auto nl = v.find('\n');
    if (nl == std::string::npos) return out;  // not written by put_robots: fetch it again
    out.emplace();
    out->status = std::atoi(v.substr(0, nl).c_str());
    out->body = v.substr(nl + 1);
    if ((*r)->ttl_ms > 0) out->ttl = std::chrono::milliseconds((*r)->ttl_ms);
    return out;
  }

  Status share_robots(const std::string& host, const crawler::SharedRobots& robots,
                      std::chrono::milliseconds ttl) override {
    return f_->put_robots(host, std::to_string(robots.status) + "\n" + robots.body, ttl.count());
  }

  Status heartbeat(const std::vector<crawler::SharedClaim>& held) override {
    for (const auto& c : held)
      if (Status s = f_->renew(to_claim(c)); !s.ok()) return s;
    auto r = f_->heartbeat_and_reap();
    return r.ok() ? Status::Ok() : r.status();
  }

  Result<crawler::SharedView> view() override {
    auto v = f_->view();
    if (!v.ok()) return v.status();
    return crawler::SharedView{static_cast<std::size_t>(std::max<std::int64_t>(1, v->workers)),
                               v->new_claims, v->queued_hosts, v->scheduled, v->now_ms / 1000.0,
                               v->first_claim_ms / 1000.0, std::move(v->queued_host_sample)};
  }

  Result<std::chrono::microseconds> pace(double rate, double burst) override {
    auto wait = f_->pace(rate, burst);
    if (!wait.ok()) return wait.status();
    return std::chrono::microseconds(*wait);
  }

  Result<std::vector<std::size_t>> move_due(const std::vector<crawler::SharedMove>& moves) override {
    std::vector<DueMove> m;
    m.reserve(moves.size());
    for (const auto& x : moves) m.push_back(DueMove{x.url, due_ms(x.from), due_ms(x.to)});
    return f_->move_due(m);
  }

  // Three renewals per lease, and at least one a second.
  std::chrono::milliseconds heartbeat_every() const override {
    return std::chrono::milliseconds(std::clamp(f_->options().lease_ms / 3, 1, 1000));
  }

 private:
  std::unique_ptr<SharedFrontier> f_;
};

}  // namespace

Result<std::shared_ptr<crawler::SharedWork>> open_crawl_work(
    const std::string& uri, const SharedFrontierOptions& options,
    const std::vector<std::pair<std::string, std::string>>& settings, std::vector<SharedFrontier::Clash>* clashes) {
  auto f = SharedFrontier::connect(uri, options);
  if (!f.ok()) return f.status();
  if (!settings.empty()) {
    auto differ = (*f)->agree(settings);
    if (!differ.ok()) return differ.status();
    if (clashes) *clashes = std::move(*differ);
  }
  return std::shared_ptr<crawler::SharedWork>(std::make_shared<RedisWork>(std::move(*f)));
}

}  // namespace cronista::shared_frontier
