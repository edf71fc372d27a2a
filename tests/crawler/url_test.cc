// CanonicalUrl: RFC 3986 §5.4 reference resolution examples (normal and
// abnormal), §5.2.4 dot-segment removal, canonicalization rules, and hostile
// input that must give an error rather than a crash.
#include "crawler/url.h"

#include <gtest/gtest.h>

#include <random>
#include <string>
#include <utility>
#include <vector>

namespace cronista::crawler {
namespace {

std::string canon(std::string_view url, const CanonicalizeOptions& options = {}) {
  auto r = CanonicalUrl::parse(url, options);
  return r.ok() ? r->str() : "ERROR: " + r.status().message();
}

std::string canon_resolve(std::string_view base, std::string_view ref) {
  auto b = CanonicalUrl::parse(base);
  if (!b.ok()) return "BASE ERROR: " + b.status().message();
  auto r = CanonicalUrl::resolve(*b, ref);
  return r.ok() ? r->str() : "ERROR: " + r.status().message();
}

bool is_error(std::string_view url) { return !CanonicalUrl::parse(url).ok(); }

constexpr std::string_view kRfcBase = "http://a/b/c/d;p?q";

// RFC 3986 §5.4.1.
const std::vector<std::pair<std::string, std::string>> kNormalExamples = {
    {"g:h", "g:h"},
    {"g", "http://a/b/c/g"},
    {"./g", "http://a/b/c/g"},
    {"g/", "http://a/b/c/g/"},
    {"/g", "http://a/g"},
    {"//g", "http://g"},
    {"?y", "http://a/b/c/d;p?y"},
    {"g?y", "http://a/b/c/g?y"},
    {"#s", "http://a/b/c/d;p?q#s"},
    {"g#s", "http://a/b/c/g#s"},
    {"g?y#s", "http://a/b/c/g?y#s"},
    {";x", "http://a/b/c/;x"},
    {"g;x", "http://a/b/c/g;x"},
    {"g;x?y#s", "http://a/b/c/g;x?y#s"},
    {"", "http://a/b/c/d;p?q"},
    {".", "http://a/b/c/"},
    {"./", "http://a/b/c/"},
    {"..", "http://a/b/"},
    {"../", "http://a/b/"},
    {"../g", "http://a/b/g"},
    {"../..", "http://a/"},
    {"../../", "http://a/"},
    {"../../g", "http://a/g"},
};

// RFC 3986 §5.4.2 (strict parser for "http:g").
const std::vector<std::pair<std::string, std::string>> kAbnormalExamples = {
    {"../../../g", "http://a/g"},
    {"../../../../g", "http://a/g"},
    {"/./g", "http://a/g"},
    {"/../g", "http://a/g"},
    {"g.", "http://a/b/c/g."},
    {".g", "http://a/b/c/.g"},
    {"g..", "http://a/b/c/g.."},
    {"..g", "http://a/b/c/..g"},
    {"./../g", "http://a/b/g"},
    {"./g/.", "http://a/b/c/g/"},
    {"g/./h", "http://a/b/c/g/h"},
    {"g/../h", "http://a/b/c/h"},
    {"g;x=1/./y", "http://a/b/c/g;x=1/y"},
    {"g;x=1/../y", "http://a/b/c/y"},
    {"g?y/./x", "http://a/b/c/g?y/./x"},
    {"g?y/../x", "http://a/b/c/g?y/../x"},
    {"g#s/./x", "http://a/b/c/g#s/./x"},
    {"g#s/../x", "http://a/b/c/g#s/../x"},
    {"http:g", "http:g"},
};

TEST(ResolveReference, AllNormalExamplesOfRfc3986) {
  for (const auto& [ref, want] : kNormalExamples)
    EXPECT_EQ(resolve_reference(kRfcBase, ref), want) << "reference '" << ref << "'";
}

TEST(ResolveReference, AllAbnormalExamplesOfRfc3986) {
  for (const auto& [ref, want] : kAbnormalExamples)
    EXPECT_EQ(resolve_reference(kRfcBase, ref), want) << "reference '" << ref << "'";
}

// The canonical form of each RFC result is the result without its fragment.
TEST(CanonicalResolve, AgreesWithTheRfcExamplesMinusFragments) {
  auto all = kNormalExamples;
  all.insert(all.end(), kAbnormalExamples.begin(), kAbnormalExamples.end());
  for (const auto& [ref, want] : all) {
    if (want.rfind("http://", 0) != 0) continue;  // "g:h" and the strict "http:g"
    std::string expected = want.substr(0, want.find('#'));
    if (expected == "http://g") expected += "/";  // empty path becomes "/"
    EXPECT_EQ(canon_resolve(kRfcBase, ref), expected) << "reference '" << ref << "'";
  }
}

TEST(CanonicalResolve, NonHttpReferencesAreRejected) {
  EXPECT_NE(canon_resolve(kRfcBase, "g:h").find("unsupported URL scheme 'g'"), std::string::npos);
  EXPECT_NE(canon_resolve(kRfcBase, "http:g").find("missing host"), std::string::npos);
  for (const char* ref : {"mailto:redacao@publico.pt", "javascript:void(0)", "data:text/html,ol%C3%A1",
                          "ftp://ftp.debian.org/debian/", "tel:+351213000000"}) {
    EXPECT_EQ(canon_resolve("https://www.publico.pt/", ref).rfind("ERROR: unsupported URL scheme", 0), 0u) << ref;
  }
}

TEST(CanonicalResolve, NetworkPathReferenceKeepsTheBaseScheme) {
  EXPECT_EQ(canon_resolve("https://www.publico.pt/politica", "//imagens.publico.pt/a.jpg"),
            "https://imagens.publico.pt/a.jpg");
}

TEST(CanonicalResolve, HrefWhitespaceAndNewlinesAreIgnored) {
  EXPECT_EQ(canon_resolve("https://g1.globo.com/economia/", "  noticia\n/2020/10/11/texto.ghtml \t"),
            "https://g1.globo.com/economia/noticia/2020/10/11/texto.ghtml");
}

TEST(CanonicalResolve, QueryOnlyAndFragmentOnlyReferences) {
  EXPECT_EQ(canon_resolve("http://a/b?x=1", "#topo"), "http://a/b?x=1");
  EXPECT_EQ(canon_resolve("http://a/b?x=1", "?pagina=2"), "http://a/b?pagina=2");
}

TEST(RemoveDotSegments, ExamplesFromSection524) {
  EXPECT_EQ(remove_dot_segments("/a/b/c/./../../g"), "/a/g");
  EXPECT_EQ(remove_dot_segments("mid/content=5/../6"), "mid/6");
  EXPECT_EQ(remove_dot_segments("/.."), "/");
  EXPECT_EQ(remove_dot_segments(""), "");
}

TEST(Canonicalize, LowerCasesSchemeAndHostButNotPath) {
  EXPECT_EQ(canon("HTTP://WWW.Publico.PT/Politica/Noticia"), "http://www.publico.pt/Politica/Noticia");
}

TEST(Canonicalize, EmptyPathBecomesSlash) {
  EXPECT_EQ(canon("http://example.com"), "http://example.com/");
  EXPECT_EQ(canon("http://example.com?a=1"), "http://example.com/?a=1");
}

TEST(Canonicalize, DefaultPortsAreRemovedOthersKept) {
  EXPECT_EQ(canon("http://example.com:80/a"), "http://example.com/a");
  EXPECT_EQ(canon("https://example.com:443/a"), "https://example.com/a");
  EXPECT_EQ(canon("http://example.com:443/a"), "http://example.com:443/a");
  EXPECT_EQ(canon("https://example.com:8443/a"), "https://example.com:8443/a");
  EXPECT_EQ(canon("http://example.com:/a"), "http://example.com/a");
  EXPECT_EQ(canon("http://example.com:0080/a"), "http://example.com/a");
}

TEST(Canonicalize, FragmentIsDropped) {
  EXPECT_EQ(canon("https://www.publico.pt/2020/10/11/artigo#comentarios"), "https://www.publico.pt/2020/10/11/artigo");
}

TEST(Canonicalize, UserinfoIsDropped) {
  EXPECT_EQ(canon("http://joao:segredo@example.com/a"), "http://example.com/a");
  EXPECT_EQ(canon("http://a@b@example.com/"), "http://example.com/");
}

TEST(Canonicalize, DotSegmentsAreRemoved) {
  EXPECT_EQ(canon("http://example.com/a/./b/../c/"), "http://example.com/a/c/");
  EXPECT_EQ(canon("http://example.com/../../x"), "http://example.com/x");
  // Escaped dots are decoded first (they are unreserved), then removed.
  EXPECT_EQ(canon("http://example.com/a/%2E%2e/b"), "http://example.com/b");
}

TEST(Canonicalize, UnreservedEscapesAreDecodedOthersUpperCased) {
  EXPECT_EQ(canon("http://example.com/%7Ejoao/%61"), "http://example.com/~joao/a");
  EXPECT_EQ(canon("http://example.com/a%2fb?q=%c3%a9"), "http://example.com/a%2Fb?q=%C3%A9");
  EXPECT_EQ(canon("http://example.com/~joao"), canon("http://example.com/%7ejoao"));
}

TEST(Canonicalize, SpacesAndNonAsciiAreEncodedAsUtf8) {
  EXPECT_EQ(canon("http://example.com/notícias/são joão?q=ação"),
            "http://example.com/not%C3%ADcias/s%C3%A3o%20jo%C3%A3o?q=a%C3%A7%C3%A3o");
  EXPECT_EQ(canon("http://example.com/a\"b<c>{d}|e^f`g\\h"), "http://example.com/a%22b%3Cc%3E%7Bd%7D%7Ce%5Ef%60g%5Ch");
}

TEST(Canonicalize, ReservedCharactersStayLiteral) {
  EXPECT_EQ(canon("http://example.com/a:b@c;d=e,f!g$h'i(j)k*l+m?x=1&y=a/b?c"),
            "http://example.com/a:b@c;d=e,f!g$h'i(j)k*l+m?x=1&y=a/b?c");
}

TEST(Canonicalize, IdnHostsBecomePunycode) {
  EXPECT_EQ(canon("http://Açores.pt/ilhas"), "http://xn--aores-yra.pt/ilhas");
  EXPECT_EQ(canon("https://münchen.de/"), "https://xn--mnchen-3ya.de/");
  // UTS #46 non-transitional: ß is kept, not mapped to "ss".
  EXPECT_EQ(canon("http://faß.de/"), "http://xn--fa-hia.de/");
  // Already punycode, any case.
  EXPECT_EQ(canon("http://XN--AORES-YRA.pt/"), "http://xn--aores-yra.pt/");
  // Percent-encoded UTF-8 in the host.
  EXPECT_EQ(canon("http://a%C3%A7ores.pt/"), "http://xn--aores-yra.pt/");
}

TEST(Canonicalize, IpLiteralHosts) {
  EXPECT_EQ(canon("http://127.0.0.2:18080/pagina?x=1"), "http://127.0.0.2:18080/pagina?x=1");
  EXPECT_EQ(canon("http://[::1]:8080/"), "http://[::1]:8080/");
  EXPECT_EQ(canon("http://[2001:DB8:0:0:0:0:0:1]/"), "http://[2001:db8::1]/");
  EXPECT_TRUE(is_error("http://256.1.1.1/"));
  EXPECT_TRUE(is_error("http://1.2.3/"));
  EXPECT_TRUE(is_error("http://[::g]/"));
  EXPECT_TRUE(is_error("http://[::1/"));
  EXPECT_TRUE(is_error("http://[v1.x]/"));
}

TEST(Canonicalize, TrailingDotOfHostIsRemoved) { EXPECT_EQ(canon("http://publico.pt./a"), "http://publico.pt/a"); }

TEST(Canonicalize, TrackingParametersAreStrippedByDefault) {
  EXPECT_EQ(canon("https://www.publico.pt/a?utm_source=twitter&id=5&UTM_Medium=x&fbclid=abc&gclid=1&mc_eid=9"),
            "https://www.publico.pt/a?id=5");
  EXPECT_EQ(canon("https://www.publico.pt/a?utm_source=twitter"), "https://www.publico.pt/a");
  CanonicalizeOptions keep;
  keep.strip_tracking_params = false;
  EXPECT_EQ(canon("https://www.publico.pt/a?utm_source=twitter&id=5", keep),
            "https://www.publico.pt/a?utm_source=twitter&id=5");
  // A parameter that merely contains a tracking name is kept.
  EXPECT_EQ(canon("https://x.pt/a?not_utm_source=1&gclid_x=2"), "https://x.pt/a?not_utm_source=1&gclid_x=2");
}

TEST(Canonicalize, EmptyQueryIsDropped) { EXPECT_EQ(canon("http://example.com/a?"), "http://example.com/a"); }

TEST(Canonicalize, DefaultDocumentsOnlyWhenAsked) {
  CanonicalizeOptions drop;
  drop.drop_default_documents = true;
  EXPECT_EQ(canon("http://example.com/noticias/index.html", drop), "http://example.com/noticias/");
  EXPECT_EQ(canon("http://example.com/Index.PHP?p=2", drop), "http://example.com/?p=2");
  EXPECT_EQ(canon("http://example.com/noticias/index.html"), "http://example.com/noticias/index.html");
  EXPECT_EQ(canon("http://example.com/myindex.html", drop), "http://example.com/myindex.html");
}

TEST(Canonicalize, IsIdempotent) {
  for (const char* u : {"HTTP://Açores.pt:80/a/./b/%7e?utm_source=x&q=são joão#f", "http://[::1]:18080/x/../y",
                        "https://example.com/a%2fb%25c?x=%41"}) {
    const std::string once = canon(u);
    ASSERT_EQ(once.rfind("ERROR", 0), std::string::npos) << once;
    EXPECT_EQ(canon(once), once);
  }
}

TEST(Canonicalize, Accessors) {
  auto u = CanonicalUrl::parse("https://Example.com:8443/a/b?x=1#f");
  ASSERT_TRUE(u.ok()) << u.status().message();
  EXPECT_EQ(u->scheme(), "https");
  EXPECT_EQ(u->host(), "example.com");
  EXPECT_EQ(u->port(), 8443);
  EXPECT_EQ(u->authority(), "example.com:8443");
  EXPECT_EQ(u->path(), "/a/b");
  EXPECT_EQ(u->query(), "x=1");
  EXPECT_EQ(u->path_and_query(), "/a/b?x=1");
  EXPECT_EQ(u->robots_url(), "https://example.com:8443/robots.txt");

  auto v = CanonicalUrl::parse("http://127.0.0.2:80/");
  ASSERT_TRUE(v.ok());
  EXPECT_EQ(v->port(), 80);
  EXPECT_EQ(v->authority(), "127.0.0.2");
  EXPECT_EQ(v->query(), "");
}

TEST(Canonicalize, AuthorityIsThePolitenessKey) {
  auto a = CanonicalUrl::parse("http://127.0.0.2:18080/a");
  auto b = CanonicalUrl::parse("http://127.0.0.2:18081/a");
  auto c = CanonicalUrl::parse("HTTP://127.0.0.2:18080/b?x");
  ASSERT_TRUE(a.ok() && b.ok() && c.ok());
  EXPECT_NE(a->authority(), b->authority());
  EXPECT_EQ(a->authority(), c->authority());
}

TEST(Canonicalize, NonHttpSchemesAreRejected) {
  for (const char* u : {"mailto:joao@example.pt", "javascript:alert(1)", "data:text/plain,ol%C3%A1",
                        "ftp://ftp.example.pt/a", "file:///etc/passwd"}) {
    auto r = CanonicalUrl::parse(u);
    ASSERT_FALSE(r.ok()) << u;
    EXPECT_NE(r.status().message().find("unsupported URL scheme"), std::string::npos) << r.status().message();
  }
}

TEST(Canonicalize, RelativeInputIsNotAbsolute) {
  auto r = CanonicalUrl::parse("/noticias/2020");
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.status().message().find("not an absolute URL"), std::string::npos);
}

TEST(Canonicalize, HostileInputGivesClearErrors) {
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"http://example.com/" + std::string(9000, 'a'), "too long"},
      {std::string("http://example.com/a\x01" "b"), "control character"},
      {std::string("http://example.com/a\0b", 22), "control character"},
      {"http://example.com/a%zzb", "invalid percent escape"},
      {"http://example.com/a%4", "invalid percent escape"},
      {"http://example.com/?q=100%", "invalid percent escape"},
      {"http://example.com:99999/", "port out of range"},
      {"http://example.com:0/", "port out of range"},
      {"http://example.com:8o/", "invalid port"},
      {"http://example.com:-1/", "invalid port"},
      {"http:///a", "empty host"},
      {"http://:80/a", "empty host"},
      {"http://user@/a", "empty host"},
      {"http://exa mple.com/", "invalid character in host"},
      {"http://exa<mple.com/", "invalid character in host"},
      {"http://a..b.com/", "invalid host label"},
      {"http://" + std::string(64, 'a') + ".com/", "invalid host label"},
      {"http://%zz.com/", "invalid percent escape in host"},
      {"http://xn--a.com/", "invalid internationalized host"},
      {"", "empty URL"},
  };
  for (const auto& [url, want] : cases) {
    auto r = CanonicalUrl::parse(url);
    ASSERT_FALSE(r.ok()) << "accepted: " << url.substr(0, 80) << " as " << r->str();
    EXPECT_NE(r.status().message().find(want), std::string::npos)
        << "for " << url.substr(0, 80) << ": " << r.status().message();
    EXPECT_EQ(r.status().message().find('\n'), std::string::npos);
    EXPECT_LT(r.status().message().size(), 300u);
  }
}

TEST(Canonicalize, ArbitraryBytesNeverCrash) {
  // Every byte value in every position of a short URL: must return, ok or not.
  const std::string base = "http://a.pt:81/b?c#d";
  int ok = 0;
  for (std::size_t pos = 0; pos <= base.size(); ++pos) {
    for (int c = 0; c < 256; ++c) {
      std::string u = base;
      u.insert(pos, 1, static_cast<char>(c));
      auto r = CanonicalUrl::parse(u);
      if (r.ok()) {
        ++ok;
        auto again = CanonicalUrl::parse(r->str());
        ASSERT_TRUE(again.ok()) << r->str();
        EXPECT_EQ(again->str(), r->str());
      }
    }
  }
  EXPECT_GT(ok, 0);
}

}  // namespace
}  // namespace cronista::crawler

namespace cronista::crawler {
namespace {

// Random hrefs built from URL-ish pieces: whatever comes out must be
// canonical already (canonicalizing it again changes nothing) and keep the
// invariants the rest of the crawler relies on.
TEST(CanonicalResolve, RandomReferencesGiveStableCanonicalForms) {
  const std::vector<std::string> pieces = {
      "/", "./", "../", ".", "..", "a", "B", "%41", "%2e", "%2F", "%7e", "%zz", "%", "?", "#", "&", "=", "utm_source=x",
      "gclid=1", "ç", "ã", " ", "\t", "\\", ":", "@", "//", "http:", "https://", "HTTP://Açores.pt", "mailto:",
      "javascript:", "[::1]", ":8080", "127.0.0.2", "index.html", ";", "*", "+", "'", "\"", "<", "{", "|", "^"};
  auto base = CanonicalUrl::parse("http://www.exemplo.pt/noticias/2020/artigo.html?p=1");
  ASSERT_TRUE(base.ok());
  std::mt19937 rng(20261122);
  int ok = 0;
  for (int i = 0; i < 20000; ++i) {
    std::string ref;
    const int n = static_cast<int>(rng() % 8);
    for (int k = 0; k < n; ++k) ref += pieces[rng() % pieces.size()];
    auto r = CanonicalUrl::resolve(*base, ref);
    if (!r.ok()) {
      EXPECT_FALSE(r.status().message().empty());
      continue;
    }
    ++ok;
    const std::string& s = r->str();
    auto again = CanonicalUrl::parse(s);
    ASSERT_TRUE(again.ok()) << "'" << ref << "' → " << s << ": " << again.status().message();
    EXPECT_EQ(again->str(), s) << "'" << ref << "'";
    EXPECT_EQ(s.find('#'), std::string::npos) << s;
    EXPECT_EQ(s.find(' '), std::string::npos) << s;
    EXPECT_EQ(r->path().substr(0, 1), "/") << s;
    EXPECT_TRUE(r->scheme() == "http" || r->scheme() == "https") << s;
    EXPECT_EQ(r->str(), std::string(r->scheme()) + "://" + r->authority() + std::string(r->path_and_query()));
  }
  EXPECT_GT(ok, 10000);
}

}  // namespace
}  // namespace cronista::crawler
