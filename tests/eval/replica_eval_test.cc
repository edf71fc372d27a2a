// eval-replicas' figures on a truth small enough to check by hand: five
// hosts, two true clusters, one right and one wrong detected cluster, pair
// scores with ties, requests counted in real SQLite crawl databases.
#include "eval/replica_eval.h"

#include <gtest/gtest.h>

#include <fstream>
#include <map>
#include <memory>
#include <set>

#include <nlohmann/json.hpp>

#include "sampleweb/sample_web.h"
#include "sampleweb/sample_web_server.h"
#include "sampleweb/sample_web_support.h"
#include "test_support.h"

namespace cronista::eval {
namespace {

using cronista::testing::TempDir;

constexpr const char* kTruth = R"({
 "port": 80,
 "hosts": [
  {"authority": "a.pt", "pages": [{"path": "/1", "content": "a.pt/1"}, {"path": "/2", "content": "a.pt/2"}]},
  {"authority": "www.a.pt", "pages": [{"path": "/1", "content": "a.pt/1"}, {"path": "/2", "content": "a.pt/2"}]},
  {"authority": "b.pt", "pages": [{"path": "/x", "content": "b.pt/x"}]},
  {"authority": "c.net", "pages": [{"path": "/x", "content": "b.pt/x"}]},
  {"authority": "d.pt", "pages": [{"path": "/x", "content": "d.pt/x"}, {"path": "/so", "content": "d.pt/so"}]}
 ],
 "clusters": [
  {"canonical": "a.pt", "replicas": [{"host": "www.a.pt", "kind": "alias"}]},
  {"canonical": "b.pt", "replicas": [{"host": "c.net", "kind": "partial"}]}
 ],
 "hard_negatives": [{"a": "a.pt", "b": "d.pt", "kind": "shared-address"}]
})";

void write(const std::string& path, const std::string& text) { std::ofstream(path, std::ios::binary) << text; }

// A crawl database holding `pages` rows with these URLs.
store::Database crawl_db(const std::string& path, const std::vector<std::string>& urls) {
  auto db = store::Database::open(path);
  EXPECT_TRUE(db.ok());
  EXPECT_TRUE(db->exec("CREATE TABLE pages (id INTEGER PRIMARY KEY, url TEXT NOT NULL)").ok());
  for (const auto& u : urls) EXPECT_TRUE(db->exec("INSERT INTO pages(url) VALUES ('" + u + "')").ok());
  return std::move(*db);
}

replicas::ScoredPair pair(std::size_t a, std::size_t b, double score, double normpaths) {
  replicas::ScoredPair p;
  p.evidence.a = a;
  p.evidence.b = b;
  p.score.score = score;
  p.normpaths = normpaths;
  return p;
}

TEST(RankFigures, TiesCountHalfForRocAndOneStepForPr) {
  // Positives 0.9 and 0.4; negatives 0.7, 0.2 and six at 0.
  const auto r = rank_figures({{0.9, true}, {0.7, false}, {0.4, true}, {0.2, false}, {0, false}, {0, false},
                               {0, false}, {0, false}, {0, false}, {0, false}});
  EXPECT_DOUBLE_EQ(r.roc_auc, 15.0 / 16.0);
  EXPECT_DOUBLE_EQ(r.pr_auc, 0.5 * 1.0 + 0.5 * 2.0 / 3.0);
  // One positive tied with one negative at the top: half a win; precision 1/2 at recall 1.
  const auto t = rank_figures({{0.5, true}, {0.5, false}});
  EXPECT_DOUBLE_EQ(t.roc_auc, 0.5);
  EXPECT_DOUBLE_EQ(t.pr_auc, 0.5);
  EXPECT_EQ(rank_figures({{1, true}}).roc_auc, 0.0);  // no negative: nothing to rank
}

TEST(ReplicaEval, FiguresOfAHandCheckableTruth) {
  TempDir tmp;
  write((tmp / "replicas.json").string(), kTruth);
  auto truth = read_replica_truth((tmp / "replicas.json").string());
  ASSERT_TRUE(truth.ok()) << truth.status().message();

  std::vector<replicas::SiteProfile> sites(5);
  const char* names[] = {"a.pt", "www.a.pt", "b.pt", "c.net", "d.pt"};
  for (std::size_t i = 0; i < 5; ++i) sites[i].authority = names[i];
  // Detected: {a.pt, www.a.pt} (right) and {b.pt, d.pt} (wrong); c.net missed.
  replicas::ReplicaReport report;
  report.pairs = {pair(0, 1, 0.9, 3), pair(2, 4, 0.7, 0), pair(2, 3, 0.4, 1), pair(0, 4, 0.2, 0)};
  replicas::ReplicaCluster ca;
  ca.canonical = 0;
  ca.replicas.push_back({1, "alias", "", 0.9, nullptr});
  replicas::ReplicaCluster cb;
  cb.canonical = 2;
  cb.replicas.push_back({4, "mirror", "", 0.7, nullptr});
  report.clusters = {ca, cb};

  auto db = crawl_db((tmp / "crawl.db").string(), {"http://a.pt/1", "http://a.pt/2", "http://www.a.pt/1",
                                                   "http://www.a.pt/2", "http://www.a.pt/", "http://c.net/x",
                                                   "http://c.net/y", "http://d.pt/x"});
  auto off = crawl_db((tmp / "off.db").string(), {"http://www.a.pt/1", "http://www.a.pt/2", "http://www.a.pt/3",
                                                  "http://www.a.pt/4", "http://c.net/x", "http://c.net/y",
                                                  "http://c.net/z", "http://c.net/w", "http://c.net/v",
                                                  "http://c.net/u"});
  auto e = evaluate_replicas(*truth, sites, report, db, &off);
  ASSERT_TRUE(e.ok()) << e.status().message();

  // True pairs (a, www.a), (b, c); detected (a, www.a), (b, d).
  EXPECT_EQ(e->pairwise.true_pairs, 2u);
  EXPECT_EQ(e->pairwise.detected_pairs, 2u);
  EXPECT_EQ(e->pairwise.correct_pairs, 1u);
  EXPECT_DOUBLE_EQ(e->pairwise.precision, 0.5);
  EXPECT_DOUBLE_EQ(e->pairwise.recall, 0.5);
  EXPECT_DOUBLE_EQ(e->pairwise.f1, 0.5);
  // Ten pairs of five hosts; the six that are no candidate score 0.
  EXPECT_EQ(e->detector.positives, 2u);
  EXPECT_EQ(e->detector.negatives, 8u);
  EXPECT_DOUBLE_EQ(e->detector.roc_auc, 15.0 / 16.0);
  EXPECT_DOUBLE_EQ(e->detector.pr_auc, 0.5 + 0.5 * 2.0 / 3.0);
  EXPECT_DOUBLE_EQ(e->normpaths.roc_auc, 1.0);
  EXPECT_DOUBLE_EQ(e->normpaths.pr_auc, 1.0);

  ASSERT_EQ(e->replicas.size(), 2u);
  EXPECT_TRUE(e->replicas[0].found);
  EXPECT_EQ(e->replicas[0].detected_kind, "alias");
  EXPECT_FALSE(e->replicas[1].found);
  EXPECT_DOUBLE_EQ(e->replicas[1].score, 0.4);
  ASSERT_EQ(e->hard_negatives.size(), 1u);
  EXPECT_FALSE(e->hard_negatives[0].merged);
  EXPECT_DOUBLE_EQ(e->hard_negatives[0].score, 0.2);

  // Requests on the truth's replica hosts: www.a.pt 3 and c.net 2, against 4 and 6 without detection.
  EXPECT_EQ(e->replica_requests, 5u);
  ASSERT_TRUE(e->baseline_replica_requests.has_value());
  EXPECT_EQ(*e->baseline_replica_requests, 10u);
  // d.pt merged into b.pt: both its pages are its own, left out; www.a.pt's are a.pt's.
  EXPECT_EQ(e->unique_pages_left_out, 2u);

  const std::string md = replica_evaluation_markdown(*e);
  EXPECT_NE(md.find("| precision | 0.5000 (1 of 2 detected pairs) |"), std::string::npos) << md;
  EXPECT_NE(md.find("without detection: 10, 50.0%"), std::string::npos) << md;
}

TEST(ReplicaEval, APrefixCopyCountsOnlyItsPagesUnderThePrefix) {
  TempDir tmp;
  write((tmp / "replicas.json").string(), R"({"clusters": [{"canonical": "b.pt", "replicas": [
    {"host": "m.org", "kind": "prefix", "prefix": "/espelho/b"}]}],
    "hosts": [{"authority": "b.pt", "pages": [{"path": "/x", "content": "b.pt/x"}]},
              {"authority": "m.org", "pages": [{"path": "/espelho/b/x", "content": "b.pt/x"},
                                               {"path": "/proprio", "content": "m.org/proprio"}]}]})");
  auto truth = read_replica_truth((tmp / "replicas.json").string());
  ASSERT_TRUE(truth.ok()) << truth.status().message();
  std::vector<replicas::SiteProfile> sites(2);
  sites[0].authority = "b.pt";
  sites[1].authority = "m.org";
  replicas::ReplicaReport report;
  report.pairs = {pair(0, 1, 0.95, 0)};
  replicas::ReplicaCluster c;
  c.canonical = 0;
  c.replicas.push_back({1, "prefix", "/espelho/b", 0.95, nullptr});
  report.clusters = {c};
  auto db = crawl_db((tmp / "crawl.db").string(), {"http://m.org/espelho/b/x", "http://m.org/espelho/bx",
                                                   "http://m.org/proprio"});
  auto e = evaluate_replicas(*truth, sites, report, db, nullptr);
  ASSERT_TRUE(e.ok()) << e.status().message();
  EXPECT_EQ(e->replica_requests, 1u);  // /espelho/bx is not under /espelho/b
  EXPECT_EQ(e->unique_pages_left_out, 0u);
  // A verification probe kept as a page is verification, not a request
  // beyond it.
  ASSERT_TRUE(db.exec("CREATE TABLE replica_probes (id INTEGER PRIMARY KEY, url TEXT NOT NULL)").ok());
  ASSERT_TRUE(db.exec("INSERT INTO pages(url) VALUES ('http://m.org/espelho/b/y'), ('http://m.org/espelho/b/z')").ok());
  ASSERT_TRUE(db.exec("INSERT INTO replica_probes(url) VALUES ('http://m.org/espelho/b/y')").ok());
  auto probed = evaluate_replicas(*truth, sites, report, db, nullptr);
  ASSERT_TRUE(probed.ok()) << probed.status().message();
  EXPECT_EQ(probed->replica_requests, 2u);  // /espelho/b/x and /espelho/b/z
  // Had the whole host been called a replica, its own page would be left out.
  report.clusters[0].replicas[0].prefix.clear();
  auto whole = evaluate_replicas(*truth, sites, report, db, nullptr);
  ASSERT_TRUE(whole.ok());
  EXPECT_EQ(whole->unique_pages_left_out, 1u);
}

TEST(ReplicaEvalCommand, ABadTruthFileIsAOneLineError) {
  TempDir tmp;
  write((tmp / "bad.json").string(), "{\"not\": \"a truth\"}");
  auto r = cronista::testing::run_cronista({"eval-replicas", "--truth", (tmp / "bad.json").string(), "--db",
                                            (tmp / "none.db").string()});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find("is not a replica truth file"), std::string::npos) << r.err;
  EXPECT_EQ(cronista::testing::count_lines(r.err), 1);
  auto missing = cronista::testing::run_cronista({"eval-replicas", "--truth", (tmp / "nada.json").string(), "--db",
                                                  (tmp / "none.db").string()});
  EXPECT_EQ(missing.exit_code, 1);
  EXPECT_EQ(cronista::testing::count_lines(missing.err), 1);
}

// The replica web of 200 pages (seed 3) generated in tmp/web and served on
// loopback; *o receives its options.
void serve_replica_web(const TempDir& tmp, sampleweb::SampleWebOptions* o,
                       std::unique_ptr<sampleweb::SampleWebServer>* server) {
  const int port = cronista::testing::free_loopback_port("127.0.0.9");
  *o = cronista::testing::sample_web_options(tmp / "web", 200, 3, port);
  o->replicas = true;
  ASSERT_TRUE(sampleweb::generate_sample_web(*o).ok());
  sampleweb::SampleWebServerOptions so;
  so.root = o->out_dir;
  auto loaded = sampleweb::SampleWebServer::load(so);
  ASSERT_TRUE(loaded.ok()) << loaded.status().message();
  *server = std::move(*loaded);
  ASSERT_TRUE((*server)->start().ok());
}

// The whole loop: the replica web generated and served on loopback, crawled
// through --resolve-file without detection (the study's offline setting),
// each host's address recorded, and eval-replicas finding every replica and
// merging no hard negative.
TEST(ReplicaEvalCommand, TheReplicaWebCrawledThroughResolveFileIsScored) {
  TempDir tmp;
  sampleweb::SampleWebOptions o;
  std::unique_ptr<sampleweb::SampleWebServer> server;
  serve_replica_web(tmp, &o, &server);
  if (::testing::Test::HasFatalFailure()) return;
  const std::string db = (tmp / "crawl.db").string();
  auto crawl = cronista::testing::run_cronista(
      {"crawl", "--mode", "general", "--from", "1939", "--to", "1945", "--seeds", o.out_dir + "/seeds-replicas.txt",
       "--resolve-file", o.out_dir + "/resolve.txt", "--db", db, "--max-pages", "3000", "--delay-ms", "0",
       "--replicas", "off"});
  server->stop();
  ASSERT_EQ(crawl.exit_code, 0) << crawl.err;

  const auto truth = nlohmann::json::parse(cronista::testing::read_file(tmp / "web" / "replicas.json"));
  {
    auto d = store::Database::open(db, /*read_only=*/true);
    ASSERT_TRUE(d.ok());
    for (const auto& h : truth["hosts"]) {
      auto st = d->prepare("SELECT address FROM hosts WHERE authority = ?");
      ASSERT_TRUE(st.ok());
      st->bind(1, h["authority"].get<std::string>());
      ASSERT_TRUE(st->step()) << h["authority"] << " was not crawled";
      EXPECT_EQ(st->column_text(0), h["address"].get<std::string>()) << h["authority"];
    }
  }
  auto r = cronista::testing::run_cronista({"eval-replicas", "--truth", o.out_dir + "/replicas.json", "--db", db,
                                            "--format", "json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto e = nlohmann::json::parse(r.out);
  EXPECT_EQ(e["truth_hosts_crawled"], truth["hosts"].size());
  for (const auto& f : e["replicas"]) {
    EXPECT_TRUE(f["found"].get<bool>()) << f.dump();
    EXPECT_EQ(f["detected_kind"], f["kind"]) << f.dump();
  }
  for (const auto& n : e["hard_negatives"]) EXPECT_FALSE(n["merged"].get<bool>()) << n.dump();
  EXPECT_DOUBLE_EQ(e["pairwise"]["precision"].get<double>(), 1.0);
  EXPECT_DOUBLE_EQ(e["pairwise"]["recall"].get<double>(), 1.0);
  EXPECT_EQ(e["unique_pages_left_out"], 0);
  EXPECT_GT(e["replica_requests"].get<int>(), 0);
}

// Detection during the crawl on the replica web: the decisions make up the
// true clusters (a prefix copy under its prefix),
// no hard negative is, no unique page is left out, and the replica hosts get
// fewer requests than in the same crawl with --replicas off (how many fewer
// depends on when the crawl reaches each copy: docs/replicas.md has the figures).
TEST(ReplicaEvalCommand, DetectionDuringTheCrawlDecidesEveryReplicaAndSparesTheirRequests) {
  TempDir tmp;
  sampleweb::SampleWebOptions o;
  std::unique_ptr<sampleweb::SampleWebServer> server;
  serve_replica_web(tmp, &o, &server);
  if (::testing::Test::HasFatalFailure()) return;
  auto crawl = [&](const std::string& db, const std::string& replicas) {
    return cronista::testing::run_cronista({"crawl", "--mode", "general", "--from", "1939", "--to", "1945", "--seeds",
                                            o.out_dir + "/seeds-replicas.txt", "--resolve-file",
                                            o.out_dir + "/resolve.txt", "--db", db, "--delay-ms", "10",
                                            "--replicas", replicas, "--quiet"});
  };
  const std::string detect_db = (tmp / "detect.db").string(), off_db = (tmp / "off.db").string();
  auto detect = crawl(detect_db, "detect");
  auto off = crawl(off_db, "off");
  server->stop();
  ASSERT_EQ(detect.exit_code, 0) << detect.err;
  ASSERT_EQ(off.exit_code, 0) << off.err;

  // Clusters as sets of hosts (which member the crawl made canonical
  // depends on the backlinks seen when it decided), and the prefix copies.
  const auto truth = nlohmann::json::parse(cronista::testing::read_file(tmp / "web" / "replicas.json"));
  std::set<std::set<std::string>> expected;
  std::set<std::string> expected_prefixes;  // "replica prefix"
  for (const auto& c : truth["clusters"]) {
    std::set<std::string> members{c["canonical"].get<std::string>()};
    for (const auto& r : c["replicas"]) {
      members.insert(r["host"].get<std::string>());
      if (r.contains("prefix")) expected_prefixes.insert(r["host"].get<std::string>() + " " + r["prefix"].get<std::string>());
    }
    expected.insert(members);
  }
  std::vector<std::set<std::string>> groups;
  std::set<std::string> prefixes;
  std::map<std::string, std::string> canonical_of;
  {
    auto d = store::Database::open(detect_db, /*read_only=*/true);
    ASSERT_TRUE(d.ok());
    auto st = d->prepare("SELECT replica, canonical, prefix FROM replica_decisions WHERE undone_at IS NULL");
    ASSERT_TRUE(st.ok());
    while (st->step()) {
      const std::string replica = st->column_text(0), canonical = st->column_text(1);
      canonical_of[replica] = canonical;
      if (!st->column_text(2).empty()) prefixes.insert(replica + " " + st->column_text(2));
      std::set<std::string> merged{replica, canonical};
      for (auto it = groups.begin(); it != groups.end();)
        if (it->count(replica) || it->count(canonical)) {
          merged.insert(it->begin(), it->end());
          it = groups.erase(it);
        } else {
          ++it;
        }
      groups.push_back(merged);
    }
  }
  std::string probes;  // shown when the clusters differ
  {
    auto d = store::Database::open(detect_db, /*read_only=*/true);
    ASSERT_TRUE(d.ok());
    auto st = d->prepare("SELECT url, status, agreed FROM replica_probes ORDER BY id");
    ASSERT_TRUE(st.ok());
    while (st->step()) probes += st->column_text(0) + " " + st->column_text(1) + " " + st->column_text(2) + "\n";
  }
  EXPECT_EQ(std::set<std::set<std::string>>(groups.begin(), groups.end()), expected) << probes;
  // Decisions lead to a host that is no replica: two hosts never replicate each other.
  for (const auto& [replica, canonical] : canonical_of) {
    std::string host = canonical;
    for (std::size_t hop = 0; hop <= canonical_of.size() && canonical_of.count(host); ++hop) host = canonical_of[host];
    EXPECT_FALSE(canonical_of.count(host)) << replica << " is in a cycle of decisions";
  }
  EXPECT_EQ(prefixes, expected_prefixes);

  auto r = cronista::testing::run_cronista({"eval-replicas", "--truth", o.out_dir + "/replicas.json", "--db",
                                            detect_db, "--baseline-db", off_db, "--format", "json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto e = nlohmann::json::parse(r.out);
  EXPECT_EQ(e["unique_pages_left_out"], 0);
  for (const auto& n : e["hard_negatives"]) EXPECT_FALSE(n["merged"].get<bool>()) << n.dump();
  const int with = e["replica_requests"].get<int>(), without = e["baseline_replica_requests"].get<int>();
  EXPECT_GT(without, 0);
  EXPECT_LT(with, without);
}

}  // namespace
}  // namespace cronista::eval
