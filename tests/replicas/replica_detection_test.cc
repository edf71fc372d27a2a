// Replica detection on a small web of site profiles built from our own
// Portuguese sentences: every kind of replica, and the hard negatives that
// must never be merged.
#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "replicas/host_name.h"
#include "replicas/pair_evidence.h"
#include "replicas/replica_detection.h"
#include "replicas/shingles.h"
#include "revisit/content_signature.h"
#include "temporal/edit_distance.h"
#include "test_support.h"

namespace cronista::replicas {
namespace {

std::vector<std::string> sentences() {
  static const std::vector<std::string> all = [] {
    std::vector<std::string> out;
    std::ifstream in(cronista::testing::source_dir() + "/corpora/sample-web/filler.txt");
    for (std::string line; std::getline(in, line);)
      if (!line.empty() && line[0] != '#') out.push_back(line);
    return out;
  }();
  return all;
}

std::uint64_t mix(std::uint64_t x) {  // splitmix64's finaliser
  x += 0x9e3779b97f4a7c15ULL;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
  return x ^ (x >> 31);
}

// Article `n` of a family: six sentences drawn at random from the filler
// texts, so two articles share few; `version` > 0 redraws two of them (an
// older or newer edit).
std::string article(int family, int n, int version = 0) {
  const auto& s = sentences();
  std::string text;
  for (int k = 0; k < 6; ++k) {
    const std::uint64_t key = (static_cast<std::uint64_t>(family) << 40) ^ (static_cast<std::uint64_t>(n) << 16) ^
                              (static_cast<std::uint64_t>(k) << 8) ^ static_cast<std::uint64_t>(k < 2 ? version : 0);
    text += s[mix(key) % s.size()] + " ";
  }
  return text + "(" + std::to_string(family) + "-" + std::to_string(n) + ")";
}

SitePage page(const std::string& path, const std::string& text) {
  const auto sig = revisit::content_signature(text);
  return SitePage{path, sig.exact, sig.simhash, sig.words, shingle_sketch(text)};
}

struct Web {
  std::vector<SiteProfile> sites;
  std::size_t add(SiteProfile s) {
    s.first_seen = static_cast<long>(sites.size());
    sites.push_back(std::move(s));
    return sites.size() - 1;
  }
};

// The original: 40 articles, most backlinks.
SiteProfile original(const std::string& authority, const std::string& address) {
  SiteProfile s;
  s.authority = authority;
  s.address = address;
  for (int i = 0; i < 40; ++i) s.pages.push_back(page("/artigo/" + std::to_string(i) + ".html", article(1, i)));
  s.pages.push_back(page("/sobre.html", article(1, 100)));
  s.outlink_hosts = {authority, "pt.wikipedia.org", "www.publico.pt"};
  s.robots = "r1";
  return s;
}

SiteProfile own_site(const std::string& authority, const std::string& address, int family, int pages) {
  SiteProfile s;
  s.authority = authority;
  s.address = address;
  for (int i = 0; i < pages; ++i) s.pages.push_back(page("/noticia/" + std::to_string(i), article(family, i)));
  s.pages.push_back(page("/sobre.html", article(family, 100)));
  s.pages.push_back(page("/contactos.html", article(family, 101)));
  s.outlink_hosts = {authority, "www.rtp.pt"};
  s.robots = "r" + std::to_string(family);
  return s;
}

class ReplicaWeb : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_GT(sentences().size(), 40u) << "corpora/sample-web/filler.txt not found";
    SiteProfile orig = original("arquivo.pt:18080", "127.0.0.2");
    orig.backlinks = 120;
    idx_["orig"] = web_.add(orig);
    SiteProfile www = original("www.arquivo.pt:18080", "127.0.0.2");
    www.backlinks = 30;
    idx_["alias"] = web_.add(www);
    SiteProfile br = original("arquivo.com.br:18080", "127.0.0.3");
    br.outlink_hosts = {"arquivo.com.br:18080", "pt.wikipedia.org", "www.publico.pt"};
    br.backlinks = 4;
    idx_["tld"] = web_.add(br);
    // A copy under /espelho/arquivo of a host with pages of its own.
    SiteProfile mirror_host = own_site("espelhos.org:18080", "127.0.0.4", 2, 10);
    for (int i = 0; i < 40; ++i)
      mirror_host.pages.push_back(page("/espelho/arquivo/artigo/" + std::to_string(i) + ".html", article(1, i)));
    idx_["prefix"] = web_.add(mirror_host);
    // Half the pages.
    SiteProfile partial = original("copia-parcial.net:18080", "127.0.0.6");
    partial.pages.resize(20);
    idx_["partial"] = web_.add(partial);
    // An old copy: a third of the articles in an earlier version.
    SiteProfile stale = original("arquivo-antigo.org:18080", "127.0.0.7");
    for (int i = 0; i < 40; i += 3) stale.pages[i] = page("/artigo/" + std::to_string(i) + ".html", article(1, i, 1));
    idx_["stale"] = web_.add(stale);
    // Hard negatives: two unrelated sites on one address, sharing the
    // common paths /sobre.html and /contactos.html with others.
    idx_["shared_a"] = web_.add(own_site("jornal-da-beira.pt:18080", "127.0.0.5", 3, 30));
    idx_["shared_b"] = web_.add(own_site("blogue-do-minho.pt:18080", "127.0.0.5", 4, 30));
    // A site republishing a tenth of the original's articles under its own paths.
    SiteProfile agg = own_site("agregador.com.br:18080", "127.0.0.8", 5, 36);
    for (int i = 0; i < 4; ++i) agg.pages.push_back(page("/republicado/" + std::to_string(i), article(1, i * 10)));
    idx_["syndicated"] = web_.add(agg);
  }

  const ReplicaCluster* cluster_of(const ReplicaReport& r, std::size_t site) {
    for (const auto& c : r.clusters) {
      if (c.canonical == site) return &c;
      for (const auto& m : c.replicas)
        if (m.site == site) return &c;
    }
    return nullptr;
  }

  Web web_;
  std::map<std::string, std::size_t> idx_;
};

TEST_F(ReplicaWeb, EveryKindOfReplicaJoinsTheOriginalWithItsKind) {
  const auto report = detect_replicas(web_.sites);
  const ReplicaCluster* c = cluster_of(report, idx_["orig"]);
  ASSERT_NE(c, nullptr);
  EXPECT_EQ(c->canonical, idx_["orig"]);
  std::map<std::string, std::string> kinds;
  for (const auto& m : c->replicas) kinds[web_.sites[m.site].authority] = m.kind;
  EXPECT_EQ(kinds["www.arquivo.pt:18080"], "alias");
  EXPECT_EQ(kinds["arquivo.com.br:18080"], "tld");
  EXPECT_EQ(kinds["espelhos.org:18080"], "prefix");
  EXPECT_EQ(kinds["copia-parcial.net:18080"], "partial");
  EXPECT_EQ(kinds["arquivo-antigo.org:18080"], "stale");
  EXPECT_EQ(kinds.size(), 5u);
}

TEST_F(ReplicaWeb, APartialCopyIsNeverCanonicalEvenWithTheMostBacklinksAndSeenFirst) {
  web_.sites[idx_["partial"]].backlinks = 1000;
  web_.sites[idx_["partial"]].first_seen = -1;
  const auto report = detect_replicas(web_.sites);
  const ReplicaCluster* c = cluster_of(report, idx_["partial"]);
  ASSERT_NE(c, nullptr);
  EXPECT_EQ(c->canonical, idx_["orig"]);
}

TEST_F(ReplicaWeb, HardNegativesAreNeverMerged) {
  const auto report = detect_replicas(web_.sites);
  for (const char* negative : {"shared_a", "shared_b", "syndicated"})
    EXPECT_EQ(cluster_of(report, idx_[negative]), nullptr) << web_.sites[idx_[negative]].authority;
}

TEST_F(ReplicaWeb, APrefixCopyNamesItsPrefixAndIsNeverCanonical) {
  const auto report = detect_replicas(web_.sites);
  const ReplicaCluster* c = cluster_of(report, idx_["prefix"]);
  ASSERT_NE(c, nullptr);
  EXPECT_NE(c->canonical, idx_["prefix"]);
  for (const auto& m : c->replicas)
    if (m.site == idx_["prefix"]) {
      EXPECT_EQ(m.prefix, "/espelho/arquivo");
    }
}

TEST_F(ReplicaWeb, TheClassifierIsTrainedAndItsIterationsStop) {
  const auto report = detect_replicas(web_.sites);
  EXPECT_TRUE(report.training.trained) << report.training.note;
  EXPECT_GT(report.training.positives, 0u);
  EXPECT_GT(report.training.negatives, 0u);
  EXPECT_TRUE(report.training.pu_converged);
  EXPECT_TRUE(report.training.nu_converged);
}

TEST_F(ReplicaWeb, SitesSharingAnAddressOrACommonPathAreCandidates) {
  ReplicaIndex index(web_.sites);
  std::set<std::pair<std::size_t, std::size_t>> cands;
  for (auto p : index.candidates()) cands.insert(p);
  EXPECT_TRUE(cands.count({idx_["shared_a"], idx_["shared_b"]}));
  EXPECT_TRUE(cands.count({idx_["orig"], idx_["syndicated"]}));
}

TEST(ReplicaCandidates, SitesSharingNothingAreNeverPaired) {
  std::vector<SiteProfile> sites(3);
  sites[0].authority = "arquivo.pt";
  sites[0].pages = {page("/artigo/1", article(1, 1))};
  sites[1].authority = "www.arquivo.pt";
  sites[1].pages = {page("/outro/2", article(2, 2))};
  sites[2].authority = "museu-do-porto.org";
  sites[2].address = "127.0.0.9";
  sites[2].pages = {page("/colecao/3", article(3, 3))};
  ReplicaIndex index(sites);
  // Only the www variant pair: the museum shares no path, text, address or name.
  EXPECT_EQ(index.candidates(), (std::vector<std::pair<std::size_t, std::size_t>>{{0, 1}}));
}

TEST_F(ReplicaWeb, NormPathsCountsTuplesByHowFewSitesHoldThem) {
  ReplicaIndex index(web_.sites);
  // The partial copy shares 20 (path, text) tuples with the original; each
  // is held by the original, www, .com.br, the partial and the stale copy
  // (5 sites) except the stale copy's edited ones (7 of the 20: 4 sites).
  const double expected = 13.0 / 5 + 7.0 / 4;
  EXPECT_NEAR(index.normpaths_rsim(idx_["orig"], idx_["partial"]), expected, 1e-9);
}

TEST(HostNames, WwwAndPublicSuffixVariantsAreRecognised) {
  EXPECT_EQ(name_relation(parse_host_name("www.arquivo.pt:80"), parse_host_name("arquivo.pt")), NameRelation::kAlias);
  EXPECT_EQ(name_relation(parse_host_name("arquivo.pt"), parse_host_name("arquivo.com.br")), NameRelation::kOtherSuffix);
  EXPECT_EQ(name_relation(parse_host_name("www.arquivo.pt"), parse_host_name("arquivo.com.br")),
            NameRelation::kOtherSuffix);
  EXPECT_EQ(name_relation(parse_host_name("arquivo.pt"), parse_host_name("arquivista.pt")), NameRelation::kUnrelated);
  EXPECT_EQ(name_relation(parse_host_name("127.0.0.2:18080"), parse_host_name("127.0.0.2:18081")),
            NameRelation::kUnrelated);
  const HostName h = parse_host_name("Noticias.Jornal-Lusa.COM.BR:8080");
  EXPECT_EQ(h.registrable, "jornal-lusa.com.br");
  EXPECT_EQ(h.label, "jornal-lusa");
  EXPECT_EQ(h.port, "8080");
  EXPECT_EQ(host_tokens(h), (std::vector<std::string>{"noticias", "jornal", "lusa"}));
}

TEST(HostNames, EditDistanceCountsInsertionsDeletionsAndSubstitutions) {
  EXPECT_EQ(temporal::edit_distance("arquivo", "arquivos"), 1u);
  EXPECT_EQ(temporal::edit_distance("lisboa", "lisbia"), 1u);
  EXPECT_EQ(temporal::edit_distance("", "porto"), 5u);
}

}  // namespace
}  // namespace cronista::replicas
