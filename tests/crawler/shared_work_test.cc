// The crawl loop's side of a shared frontier (crawler/shared_work.h) against
// a frontier in memory that can lose a reply: a claim the frontier made but
// whose reply never reached the worker must not stay in flight for ever
// (the crawl could then never end: the frontier answers "empty" or "budget
// spent" only when no URL is in flight).
#include <gtest/gtest.h>

#include <algorithm>
#include <deque>
#include <map>
#include <string>
#include <thread>
#include <vector>

#include "crawler/shared_work.h"

namespace cronista::crawler {
namespace {

class MemoryWork : public SharedWork {
 public:
  std::deque<SharedClaim> queue;
  std::map<std::string, SharedClaim> inflight;
  int budget = 0;
  bool lose_next_reply = false;  // the next exchange is applied but its reply lost
  bool down = false;             // the next calls fail before reaching the frontier
  std::vector<std::string> given_back;
  std::vector<SharedCompletion> completed;  // as they arrived
  std::vector<SharedTitle> titles;          // the crawl's log of page titles
  std::chrono::milliseconds wait{1};        // a "wait" reply's time
  std::chrono::milliseconds next_ready{0};  // with claims: when the next host is ready (0: not said)
  std::vector<std::pair<std::string, std::size_t>> offered;  // each URL offered, with its trip's claims
  std::vector<SharedRelease> releases;                       // as they arrived

  Status join(std::int64_t, const std::function<std::optional<bool>(const std::string&)>&) override {
    return Status::Ok();
  }
  SharedReply exchange(const SharedExchange& x) override {
    SharedReply r;
    if (down) {
      r.offered = Status::Error("lost");
      r.released.assign(x.releases.size(), Status::Error("lost"));
      r.completed.assign(x.completions.size(), Status::Error("lost"));
      r.pull = Status::Error("lost");
      r.titles = Status::Error("lost");
      return r;
    }
    for (const SharedUrl& u : x.offers) offered.emplace_back(u.url, x.claims);
    titles.insert(titles.end(), x.titles.begin(), x.titles.end());
    r.titles_end = titles.size();
    if (x.read_titles)
      r.titles = std::vector<SharedTitle>(titles.begin() + static_cast<std::ptrdiff_t>(std::min(x.titles_from, titles.size())),
                                          titles.end());
    r.released.assign(x.releases.size(), Status::Ok());
    releases.insert(releases.end(), x.releases.begin(), x.releases.end());
    r.completed.assign(x.completions.size(), Status::Ok());
    for (const SharedCompletion& c : x.completions) {
      completed.push_back(c);
      inflight.erase(c.claim.url);
      if (!c.downloaded) ++budget;
    }
    SharedPull pull;
    for (std::size_t i = 0; i < x.claims && !queue.empty() && budget > 0; ++i) {
      pull.claims.push_back(queue.front());
      inflight[queue.front().url] = queue.front();
      queue.pop_front();
      --budget;
    }
    if (!pull.claims.empty()) pull.why = SharedPull::Why::kClaimed, pull.wait = next_ready;
    else if (!inflight.empty()) pull.why = SharedPull::Why::kWait, pull.wait = wait;
    else pull.why = budget > 0 ? SharedPull::Why::kEmpty : SharedPull::Why::kBudgetSpent;
    if (lose_next_reply) {
      lose_next_reply = false;
      std::fill(r.released.begin(), r.released.end(), Status::Error("lost"));
      std::fill(r.completed.begin(), r.completed.end(), Status::Error("lost"));
      r.pull = Status::Error("connection lost before the reply");
      return r;
    }
    r.pull = pull;
    return r;
  }
  Status give_back(const SharedClaim& c) override {
    if (down) return Status::Error("lost");
    if (inflight.erase(c.url)) {
      queue.push_front(c);
      ++budget;
      given_back.push_back(c.url);
    }
    return Status::Ok();
  }
  Result<std::vector<SharedClaim>> own_claims() override {
    if (down) return Status::Error("lost");
    std::vector<SharedClaim> out;
    for (const auto& [url, c] : inflight) out.push_back(c);
    return out;
  }
  Result<std::optional<SharedRobots>> robots(const std::string&) override { return std::optional<SharedRobots>{}; }
  Status share_robots(const std::string&, const SharedRobots&, std::chrono::milliseconds) override { return Status::Ok(); }
  Status heartbeat(const std::vector<SharedClaim>&) override { return Status::Ok(); }
  std::chrono::milliseconds heartbeat_every() const override { return std::chrono::milliseconds(100); }
  Status leave() override {
    left = inflight.empty();
    return Status::Ok();
  }
  bool left = false;
  Result<SharedView> view() override { return SharedView{}; }
  Result<std::chrono::microseconds> pace(double, double) override {
    if (down) return Status::Error("lost");
    return std::chrono::microseconds(0);
  }
  Result<std::vector<std::size_t>> move_due(const std::vector<SharedMove>&) override {
    return std::vector<std::size_t>{};
  }
};

// A frontier in memory with n URLs of `host` queued and a budget of n.
std::shared_ptr<MemoryWork> queued_work(const std::string& host, int n) {
  auto work = std::make_shared<MemoryWork>();
  for (int i = 0; i < n; ++i)
    work->queue.push_back(SharedClaim{"http://" + host + "/" + std::to_string(i), host, i, std::nullopt});
  work->budget = n;
  return work;
}

// A pump of the worker and the pump that takes its reply, keeping every
// claim it is handed.
std::vector<SharedClaim> claims_of_pump(SharedCrawl& crawl, std::size_t want) {
  std::vector<SharedClaim> got;
  const auto take = [&](const SharedClaim& c) {
    got.push_back(c);
    return true;
  };
  crawl.pump(want, take);
  crawl.quiet();
  crawl.pump(want, take);  // the reply is taken (unless the first pump found it in already)
  return got;
}

// Drives the worker the way the crawl loop does: pump, fetch what was
// claimed, store it and say so, until the crawl ends or `turns` run out.
// The round trip a pump starts has its reply before the turn ends (quiet()),
// so that the next pump takes it.
std::optional<std::string> run(SharedCrawl& crawl, std::vector<std::string>& fetched, int turns) {
  std::uint64_t job = 0;
  for (int turn = 0; turn < turns; ++turn) {
    std::vector<SharedClaim> got;
    crawl.pump(4, [&](const SharedClaim& c) {
      got.push_back(c);
      return true;
    });
    crawl.quiet();
    for (const SharedClaim& c : got) {
      fetched.push_back(c.url);
      crawl.transfer_ended(c.url);
      crawl.finished(c.url, true, ++job);
    }
    crawl.committed(job);
    if (auto why = crawl.ended(true)) return why;
    std::this_thread::sleep_until(crawl.next_try());
  }
  return std::nullopt;
}

TEST(SharedCrawlLoop, AClaimWhoseReplyWasLostGoesBackAndTheCrawlSpendsItsBudget) {
  auto work = queued_work("a.example", 6);
  SharedCrawl crawl(work, std::chrono::seconds(30));
  // The first exchange claims four URLs, but its reply is lost.
  work->lose_next_reply = true;
  std::vector<std::string> fetched;
  crawl.pump(4, [&](const SharedClaim& c) {
    fetched.push_back(c.url);
    return true;
  });
  crawl.quiet();
  EXPECT_TRUE(fetched.empty());
  EXPECT_EQ(work->inflight.size(), 4u);
  // The worker goes on: the four return to the queue, every URL is fetched
  // once, and the crawl ends with its budget spent.
  std::this_thread::sleep_until(crawl.next_try());
  const auto why = run(crawl, fetched, 200);
  ASSERT_TRUE(why.has_value());
  EXPECT_EQ(*why, "max-pages");
  EXPECT_EQ(work->given_back.size(), 4u);
  EXPECT_TRUE(work->inflight.empty());
  std::sort(fetched.begin(), fetched.end());
  EXPECT_EQ(std::adjacent_find(fetched.begin(), fetched.end()), fetched.end());
  EXPECT_EQ(fetched.size(), 6u);
  // A clean stop with nothing held: the worker leaves the crawl's workers.
  EXPECT_EQ(crawl.stop(), 0u);
  EXPECT_TRUE(work->left);
}

// A claim whose transfer ended releases its host as contacted, with the
// address reached; one finished without a transfer (robots.txt forbade it,
// say) releases it as not contacted, so that the host waits no gap for it.
TEST(SharedCrawlLoop, AHostIsReleasedAsContactedOnlyByAClaimWhoseTransferEnded) {
  auto work = queued_work("c.example", 2);
  SharedCrawl crawl(work, std::chrono::seconds(30));
  const std::vector<SharedClaim> got = claims_of_pump(crawl, 2);
  ASSERT_EQ(got.size(), 2u);
  crawl.transfer_ended(got[0].url, "10.6.6.6");
  crawl.finished(got[0].url, true, 1);
  crawl.finished(got[1].url, false, 1);
  crawl.committed(1);
  crawl.stop();
  ASSERT_EQ(work->releases.size(), 2u);
  EXPECT_EQ(work->releases[0].claim.url, got[0].url);
  EXPECT_TRUE(work->releases[0].contacted);
  EXPECT_EQ(work->releases[0].address, "10.6.6.6");
  EXPECT_EQ(work->releases[1].claim.url, got[1].url);
  EXPECT_FALSE(work->releases[1].contacted);
}

// A worker that got fewer URLs than it asked for asks again when the
// frontier says the next host will be ready, not after the fixed pause.
TEST(SharedCrawlLoop, AWorkerThatTookEveryReadyHostAsksAgainWhenTheNextIsReady) {
  auto work = std::make_shared<MemoryWork>();
  work->queue.push_back(SharedClaim{"http://d.example/0", "d.example", 0, std::nullopt});
  work->budget = 5;
  work->next_ready = std::chrono::milliseconds(3);
  SharedCrawl crawl(work, std::chrono::seconds(30));
  ASSERT_EQ(claims_of_pump(crawl, 4).size(), 1u);
  EXPECT_LE(crawl.next_try(), std::chrono::steady_clock::now() + std::chrono::milliseconds(3));
  // Not said: the fixed pause.
  work->queue.push_back(SharedClaim{"http://d.example/1", "d.example", 1, std::nullopt});
  work->next_ready = std::chrono::milliseconds(0);
  std::this_thread::sleep_until(crawl.next_try());
  const auto before = std::chrono::steady_clock::now();
  ASSERT_EQ(claims_of_pump(crawl, 4).size(), 1u);
  EXPECT_GE(crawl.next_try(), before + std::chrono::milliseconds(20));
}

TEST(SharedCrawlLoop, ClaimsTheWorkerKnowsAreNotGivenBackWhenAReplyIsLost) {
  auto work = queued_work("b.example", 3);
  SharedCrawl crawl(work, std::chrono::seconds(30));
  const std::vector<SharedClaim> got = claims_of_pump(crawl, 1);
  ASSERT_EQ(got.size(), 1u);
  // While that one is being fetched, a claim's reply is lost: only the
  // unknown claim goes back, the one being fetched stays this worker's.
  work->lose_next_reply = true;
  std::this_thread::sleep_until(crawl.next_try());
  crawl.pump(2, [](const SharedClaim&) { return true; });
  crawl.quiet();
  crawl.pump(2, [](const SharedClaim&) { return true; });  // the lost reply is taken
  std::this_thread::sleep_until(crawl.next_try());
  crawl.pump(1, [](const SharedClaim&) { return true; });
  crawl.quiet();
  EXPECT_EQ(work->given_back, std::vector<std::string>{"http://b.example/1"});
  EXPECT_TRUE(work->inflight.count(got[0].url));
}

// Links found while the worker waits to claim again (the frontier said
// "wait") go at once, in a round trip that claims nothing: a worker whose
// host comes free sooner may claim them.
TEST(SharedCrawlLoop, LinksFoundWhileTheWorkerWaitsToClaimGoAtOnce) {
  auto work = std::make_shared<MemoryWork>();
  work->queue.push_back(SharedClaim{"http://d.example/capa", "d.example", 0, std::nullopt});
  work->budget = 5;
  work->wait = std::chrono::milliseconds(50);
  SharedCrawl crawl(work, std::chrono::seconds(30));
  ASSERT_EQ(claims_of_pump(crawl, 2).size(), 1u);
  std::this_thread::sleep_until(crawl.next_try());
  crawl.pump(2, [](const SharedClaim&) { return true; });  // the queue is empty: "wait"
  crawl.quiet();
  crawl.pump(2, [](const SharedClaim&) { return true; });  // the "wait" is taken
  ASSERT_EQ(work->offered.size(), 0u);
  crawl.offer("http://d.example/artigo", "d.example", true, 0, 0, 0);
  const bool waiting = std::chrono::steady_clock::now() < crawl.next_try();
  crawl.pump(2, [](const SharedClaim&) { return true; });
  crawl.quiet();
  if (!waiting) GTEST_SKIP() << "the machine took longer than the wait: nothing to tell";
  ASSERT_EQ(work->offered.size(), 1u);
  EXPECT_EQ(work->offered[0].first, "http://d.example/artigo");
  EXPECT_EQ(work->offered[0].second, 0u);  // no claim before the wait is over
}

// A page's next visit can still change until the shared frontier has it
// (a solve after the visit moved its due time, a hub's yield was learnt):
// before its store job commits and after, until its completion is sent;
// what is sent is the newest.
TEST(SharedCrawlLoop, ANextVisitChangedBeforeItsCompletionIsSentGoesAsChanged) {
  auto work = std::make_shared<MemoryWork>();
  work->queue.push_back(SharedClaim{"http://c.example/capa", "c.example", 0, std::nullopt});
  work->budget = 1;
  SharedCrawl crawl(work, std::chrono::seconds(30));
  const std::vector<SharedClaim> got = claims_of_pump(crawl, 1);
  ASSERT_EQ(got.size(), 1u);
  const std::string url = got[0].url;
  SharedCopy next;
  next.due = 1000;
  crawl.schedule(url, next);
  crawl.transfer_ended(url);
  crawl.finished(url, true, 1);
  ASSERT_NE(crawl.pending(url), nullptr);
  crawl.pending(url)->due = 900;  // before the commit
  crawl.committed(1);
  ASSERT_NE(crawl.pending(url), nullptr);
  crawl.pending(url)->due = 800;  // committed, not yet sent
  std::this_thread::sleep_until(crawl.next_try());
  crawl.pump(0, [](const SharedClaim&) { return true; });
  crawl.quiet();
  crawl.pump(0, [](const SharedClaim&) { return true; });  // takes the reply
  EXPECT_EQ(crawl.pending(url), nullptr);  // sent: Redis keeps it now
  ASSERT_EQ(work->completed.size(), 1u);
  ASSERT_TRUE(work->completed[0].next.has_value());
  EXPECT_DOUBLE_EQ(work->completed[0].next->due, 800);
}

}  // namespace
}  // namespace cronista::crawler

namespace cronista::crawler {
namespace {

// Page titles told while the shared frontier does not answer wait and go
// with the next trip that reaches it; each title the other workers put in
// the crawl's log is handed over once, in the log's order, whatever the
// trips it took, and the worker's own (learnt when told) are not.
TEST(SharedCrawlLoop, TitlesToldWhileTheFrontierIsDownGoLaterAndTheOthersComeBackOnce) {
  auto work = std::make_shared<MemoryWork>();
  work->budget = 1;
  SharedCrawl crawl(work, std::chrono::seconds(30));
  crawl.share_titles();
  work->titles.push_back(SharedTitle{"Outro trabalhador: a guerra em 1943", true});
  work->down = true;
  crawl.learn_title("Racionamento em Lisboa", true);
  claims_of_pump(crawl, 1);
  EXPECT_EQ(work->titles.size(), 1u);
  EXPECT_TRUE(crawl.take_titles().empty());
  work->down = false;
  crawl.learn_title("Futebol de domingo", false);
  std::this_thread::sleep_until(crawl.next_try());
  claims_of_pump(crawl, 1);
  std::this_thread::sleep_until(crawl.next_try());
  claims_of_pump(crawl, 1);  // nothing new in the log: nothing handed over again
  auto taken = [&] {
    std::vector<std::string> got;
    for (const SharedTitle& t : crawl.take_titles()) got.push_back((t.relevant ? "+" : "-") + t.title);
    return got;
  };
  EXPECT_EQ(taken(), (std::vector<std::string>{"+Outro trabalhador: a guerra em 1943"}));
  EXPECT_EQ(work->titles.size(), 3u);
  // The others' titles logged before and after its own, read in one trip
  // with its own in between: the others' come, in the log's order.
  work->titles.push_back(SharedTitle{"Terceiro: o armistício de 1945", true});
  crawl.learn_title("Receitas de bacalhau", false);
  std::this_thread::sleep_until(crawl.next_try());
  claims_of_pump(crawl, 1);
  work->titles.push_back(SharedTitle{"Terceiro: a bolsa hoje", false});
  std::this_thread::sleep_until(crawl.next_try());
  claims_of_pump(crawl, 1);
  EXPECT_EQ(taken(), (std::vector<std::string>{"+Terceiro: o armistício de 1945", "-Terceiro: a bolsa hoje"}));
  EXPECT_EQ(work->titles.size(), 6u);
}

}  // namespace
}  // namespace cronista::crawler
