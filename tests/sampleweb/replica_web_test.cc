// The replica web (`sample-web generate --replicas`): deterministic per
// seed, the sample web untouched by it, each kind of replica and each hard
// negative present in the files as the truth says, and named hosts sharing
// an address told apart by the Host header over real HTTP.
#include <gtest/gtest.h>
#include <httplib.h>

#include <filesystem>
#include <map>
#include <regex>
#include <set>

#include <nlohmann/json.hpp>

#include "sampleweb/sample_web.h"
#include "sampleweb/sample_web_server.h"
#include "sampleweb/sample_web_support.h"
#include "test_support.h"

namespace cronista::sampleweb {
namespace {

namespace fs = std::filesystem;
using cronista::testing::read_file;
using cronista::testing::TempDir;

SampleWebOptions replica_web(const fs::path& out, std::uint64_t seed = 1, int port = 18124) {
  SampleWebOptions o = cronista::testing::sample_web_options(out, 200, seed, port);
  o.replicas = true;
  return o;
}

// The routes of a named host: path → file contents.
std::map<std::string, std::string> host_pages(const fs::path& root, const std::string& authority) {
  const std::string name = authority.substr(0, authority.rfind(':'));
  std::map<std::string, std::string> out;
  std::istringstream routes(read_file(root / "sites" / name / "routes.tsv"));
  for (std::string line; std::getline(routes, line);) {
    if (line.empty() || line[0] == '#') continue;
    std::vector<std::string> f;
    std::stringstream ss(line);
    for (std::string part; std::getline(ss, part, '\t');) f.push_back(part);
    if (f.size() == 4 && f[1] == "200" && f[0] != "/robots.txt") out[f[0]] = read_file(root / "sites" / name / f[3]);
  }
  return out;
}

// The paragraphs of a page's main content (what a replica copies).
std::string main_text(const std::string& html) {
  const auto a = html.find("<main>"), b = html.find("</main>");
  std::string main = html.substr(a, b - a);
  std::string out;
  std::regex p("<p>([^<]*)</p>");
  for (auto it = std::sregex_iterator(main.begin(), main.end(), p); it != std::sregex_iterator(); ++it)
    out += (*it)[1].str() + "\n";
  return out;
}

struct Truth {
  nlohmann::json j;
  std::map<std::string, std::string> address;
  std::string replica(const std::string& kind) const {
    for (const auto& c : j["clusters"])
      for (const auto& m : c["replicas"])
        if (m["kind"] == kind) return m["host"];
    return "";
  }
  std::string canonical_of(const std::string& host) const {
    for (const auto& c : j["clusters"])
      for (const auto& m : c["replicas"])
        if (m["host"] == host) return c["canonical"];
    return "";
  }
  nlohmann::json negative(const std::string& kind) const {
    for (const auto& n : j["hard_negatives"])
      if (n["kind"] == kind) return n;
    return nullptr;
  }
};

Truth load(const fs::path& root) {
  Truth t;
  t.j = nlohmann::json::parse(read_file(root / "replicas.json"));
  for (const auto& h : t.j["hosts"]) t.address[h["authority"]] = h["address"];
  return t;
}

TEST(ReplicaWeb, SameSeedSameBytesAndTheSampleWebUnchanged) {
  TempDir a, b, plain, other;
  ASSERT_TRUE(generate_sample_web(replica_web(a.path())).ok());
  ASSERT_TRUE(generate_sample_web(replica_web(b.path())).ok());
  ASSERT_TRUE(generate_sample_web(replica_web(other.path(), 7)).ok());
  auto without = replica_web(plain.path());
  without.replicas = false;
  ASSERT_TRUE(generate_sample_web(without).ok());
  const auto fa = cronista::testing::files_below(a.path()), fb = cronista::testing::files_below(b.path());
  ASSERT_EQ(fa.size(), fb.size());
  for (const auto& [name, data] : fa) {
    auto it = fb.find(name);
    ASSERT_NE(it, fb.end()) << name;
    EXPECT_TRUE(it->second == data) << name << " differs between two runs with the same seed";
  }
  // Every file of the web without replicas is there, the same bytes, but web.json (its hosts list grows).
  for (const auto& [name, data] : cronista::testing::files_below(plain.path())) {
    if (name == "web.json") continue;
    auto it = fa.find(name);
    ASSERT_NE(it, fa.end()) << name;
    EXPECT_TRUE(it->second == data) << name << " changed with --replicas";
  }
  EXPECT_NE(read_file(a / "replicas.json"), read_file(other / "replicas.json"));
  EXPECT_FALSE(fs::exists(plain / "replicas.json"));
}

TEST(ReplicaWeb, EachKindOfReplicaCopiesItsOriginalAsTheTruthSays) {
  TempDir dir;
  auto summary = generate_sample_web(replica_web(dir.path()));
  ASSERT_TRUE(summary.ok()) << summary.status().message();
  EXPECT_EQ(summary->replicas, 5);
  const Truth t = load(dir.path());

  // alias: "www." + the name, the same address, every page's text the same, links naming the alias.
  const std::string alias = t.replica("alias"), original = t.canonical_of(alias);
  ASSERT_FALSE(alias.empty());
  EXPECT_EQ(alias, "www." + original);
  EXPECT_EQ(t.address.at(alias), t.address.at(original));
  const auto op = host_pages(dir.path(), original), ap = host_pages(dir.path(), alias);
  ASSERT_GE(op.size(), 20u);
  for (const auto& [path, html] : op) {
    if (path == "/") continue;  // the original's home links other sites
    ASSERT_TRUE(ap.count(path)) << path;
    EXPECT_EQ(main_text(ap.at(path)), main_text(html)) << path;
    EXPECT_NE(ap.at(path).find("href=\"http://" + alias + "/"), std::string::npos) << path;
    EXPECT_EQ(ap.at(path).find("href=\"http://" + original + "/"), std::string::npos) << path;
  }

  // tld: the same label under another suffix, another address, links naming its own host.
  const std::string tld = t.replica("tld");
  ASSERT_EQ(t.canonical_of(tld), original);
  EXPECT_EQ(tld.substr(0, tld.find('.')), original.substr(0, original.find('.')));
  EXPECT_NE(tld.find(".com.br:"), std::string::npos);
  EXPECT_NE(t.address.at(tld), t.address.at(original));
  const auto tp = host_pages(dir.path(), tld);
  for (const auto& [path, html] : tp) EXPECT_EQ(html.find("href=\"http://" + original), std::string::npos) << path;

  // prefix: every page of the original under /espelho/<label>/ of a host with pages of its own.
  const std::string holder = t.replica("prefix");
  const std::string copied = t.canonical_of(holder);
  std::string prefix;
  for (const auto& c : t.j["clusters"])
    for (const auto& m : c["replicas"])
      if (m["kind"] == "prefix") prefix = m["prefix"];
  EXPECT_EQ(prefix, "/espelho/" + copied.substr(0, copied.find('.')));
  const auto hp = host_pages(dir.path(), holder), cp = host_pages(dir.path(), copied);
  std::size_t own = 0;
  for (const auto& [path, html] : hp) own += path.rfind(prefix, 0) != 0;
  EXPECT_GE(own, 20u);
  for (const auto& [path, html] : cp) {
    if (path == "/") continue;
    ASSERT_TRUE(hp.count(prefix + path)) << prefix + path;
    EXPECT_EQ(main_text(hp.at(prefix + path)), main_text(html));
  }

  // partial: about half of the articles.
  const std::string partial = t.replica("partial");
  const auto pp = host_pages(dir.path(), partial), pc = host_pages(dir.path(), t.canonical_of(partial));
  auto articles = [](const std::map<std::string, std::string>& pages) {
    return std::count_if(pages.begin(), pages.end(), [](const auto& p) { return p.first.rfind("/artigos/", 0) == 0; });
  };
  EXPECT_GE(articles(pp) * 100, articles(pc) * 25);
  EXPECT_LE(articles(pp) * 100, articles(pc) * 75);
  for (const auto& [path, html] : pp)
    if (path.rfind("/artigos/", 0) == 0) {
      EXPECT_EQ(main_text(html), main_text(pc.at(path))) << path;
    }

  // stale: the older articles, each an older version of the text (a prefix of it).
  const std::string stale = t.replica("stale");
  const auto sp = host_pages(dir.path(), stale), sc = host_pages(dir.path(), t.canonical_of(stale));
  EXPECT_LT(articles(sp), articles(sc));
  int older = 0;
  for (const auto& [path, html] : sp) {
    if (path.rfind("/artigos/", 0) != 0) continue;
    const std::string now = main_text(sc.at(path)), then = main_text(html);
    EXPECT_NE(then, now) << path;
    older += now.size() > then.size();
  }
  EXPECT_EQ(older, articles(sp));
}

TEST(ReplicaWeb, HardNegativesShareAnAddressPathsOrATenthOfTheArticlesOnly) {
  TempDir dir;
  ASSERT_TRUE(generate_sample_web(replica_web(dir.path())).ok());
  const Truth t = load(dir.path());

  const auto shared = t.negative("shared-address");
  ASSERT_FALSE(shared.is_null());
  EXPECT_EQ(t.address.at(shared["a"]), t.address.at(shared["b"]));
  const auto sa = host_pages(dir.path(), shared["a"]), sb = host_pages(dir.path(), shared["b"]);
  for (const auto& [path, html] : sa)
    if (sb.count(path)) {
      EXPECT_NE(main_text(html), main_text(sb.at(path))) << path;
    }

  const auto common = t.negative("common-paths");
  ASSERT_FALSE(common.is_null());
  const auto ca = host_pages(dir.path(), common["a"]), cb = host_pages(dir.path(), common["b"]);
  for (const std::string path : {"/sobre.html", "/contactos.html"}) {
    ASSERT_TRUE(ca.count(path) && cb.count(path)) << path;
    EXPECT_NE(main_text(ca.at(path)), main_text(cb.at(path))) << path;
  }

  const auto republished = t.negative("republished-articles");
  ASSERT_FALSE(republished.is_null());
  const auto ra = host_pages(dir.path(), republished["a"]), rb = host_pages(dir.path(), republished["b"]);
  std::set<std::string> texts;
  std::size_t articles = 0;
  for (const auto& [path, html] : ra)
    if (path.rfind("/artigos/", 0) == 0) {
      texts.insert(main_text(html));
      ++articles;
    }
  std::size_t copies = 0, own = 0;
  for (const auto& [path, html] : rb) {
    if (texts.count(main_text(html))) {
      ++copies;
      EXPECT_EQ(path.rfind("/republicado/", 0), 0u) << path;
    }
    own += path.rfind("/artigos/", 0) == 0;
  }
  EXPECT_EQ(copies, (articles + 9) / 10);
  EXPECT_GE(own, 20u);
}

TEST(ReplicaWeb, ResolveLinesSeedsAndLinksReachEveryNamedHost) {
  TempDir dir;
  ASSERT_TRUE(generate_sample_web(replica_web(dir.path())).ok());
  const Truth t = load(dir.path());
  std::set<std::string> resolved;
  std::istringstream resolve(read_file(dir / "resolve.txt"));
  for (std::string line; std::getline(resolve, line);) {
    const auto last = line.rfind(':');
    resolved.insert(line.substr(0, last));
    EXPECT_EQ(line.substr(last + 1), t.address.at(line.substr(0, last))) << line;
  }
  EXPECT_EQ(resolved.size(), t.address.size());
  // Replicas are not seeds: they are reached through links.
  const std::string seeds = read_file(dir / "seeds-replicas.txt");
  std::set<std::string> linked;
  std::regex href("href=\"http://([^/\"]+)/");
  for (const auto& [authority, address] : t.address)
    for (const auto& [path, html] : host_pages(dir.path(), authority))
      for (auto it = std::sregex_iterator(html.begin(), html.end(), href); it != std::sregex_iterator(); ++it)
        if ((*it)[1].str() != authority) linked.insert((*it)[1].str());
  for (const auto& c : t.j["clusters"])
    for (const auto& m : c["replicas"]) {
      const std::string host = m["host"];
      EXPECT_EQ(seeds.find("http://" + host + "/"), std::string::npos) << host;
      EXPECT_TRUE(linked.count(host)) << host << " is linked from no other host";
    }
}

TEST(ReplicaWeb, NamedHostsOnOneAddressAreToldApartByTheHostHeader) {
  TempDir dir;
  const int port = cronista::testing::free_loopback_port("127.0.0.9");
  ASSERT_TRUE(generate_sample_web(replica_web(dir.path(), 1, port)).ok());
  const Truth t = load(dir.path());
  SampleWebServerOptions so;
  so.root = dir.path().string();
  auto server = SampleWebServer::load(so);
  ASSERT_TRUE(server.ok()) << server.status().message();
  ASSERT_TRUE((*server)->start().ok());
  EXPECT_EQ((*server)->host_count(), 7 + static_cast<int>(t.address.size()));
  const auto shared = t.negative("shared-address");
  for (const std::string& authority : {t.replica("alias"), t.canonical_of(t.replica("alias")),
                                      shared["a"].get<std::string>(), shared["b"].get<std::string>()}) {
    httplib::Client c(t.address.at(authority), port);
    c.set_connection_timeout(5, 0);
    auto res = c.Get("/contactos.html", {{"Host", authority}});
    ASSERT_TRUE(res) << authority;
    EXPECT_EQ(res->status, 200);
    EXPECT_EQ(res->body, host_pages(dir.path(), authority).at("/contactos.html")) << authority;
  }
  (*server)->stop();
}

}  // namespace
}  // namespace cronista::sampleweb
