// Writing the replica web (sample_web_replicas.h): the named sites, their
// copies, the hard negatives and the truth.
#include "sampleweb/sample_web_replicas.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <tuple>

#include <nlohmann/json.hpp>

#include "sampleweb/sample_web_generator.h"
#include "sampleweb/sample_web_noise.h"

namespace cronista::sampleweb {
namespace {

namespace fs = std::filesystem;
using gen::Rng;
using temporal::xml_escape;

struct Article {
  std::string path;  // "/artigos/slug.html"
  std::string title;
  std::vector<std::vector<std::string>> paragraphs;  // sentences
  std::vector<int> related;                          // other articles of the same site
};

// A site's own content: what its copies copy.
struct Origin {
  std::string name;       // host name of the original: "memoria-lusa.pt"
  std::string title;      // shown in the furniture
  std::string furniture;  // the sample-web site whose furniture words it uses
  std::string robots;
  std::vector<Article> articles;
};

// Part of a host: an origin's articles under a path prefix.
struct Section {
  int origin = 0;
  std::string prefix;        // "" or "/espelho/gazeta"
  std::vector<int> articles; // indices into the origin's articles
  bool stale = false;        // an older version: each text without its final sentence
  bool republished = false;  // under the host's own paths (/republicado/<file>), listed on its home
};

struct NamedHost {
  std::string name, address;
  int own = 0;  // the origin whose furniture and robots.txt the host shows
  std::vector<Section> sections;
  std::vector<std::string> blogroll;  // host names its home links to
};

std::string article_path(const Section& s, const Article& a) {
  if (s.republished) return "/republicado" + a.path.substr(a.path.rfind('/'));
  return s.prefix + a.path;
}

std::string join_sentences(const std::vector<std::string>& sentences) {
  std::string out;
  for (const std::string& s : sentences) out += (out.empty() ? "" : " ") + s;
  return out;
}

class ReplicaWeb {
 public:
  ReplicaWeb(const SampleCorpus& c, const SampleWebOptions& o, int first_address)
      : c_(c), o_(o), rng_(o.seed * 31 + 16), first_address_(first_address) {}

  Result<ReplicaWebSummary> run();

 private:
  std::string authority(const std::string& name) const { return name + ":" + std::to_string(o_.port); }
  std::string base(const std::string& name) const { return "http://" + authority(name); }
  std::string address(int k) const { return "127.0.0." + std::to_string(first_address_ + k); }
  int make_origin(const std::string& name, const std::string& title, int articles);
  std::vector<int> all_articles(int origin) const;
  void plan();
  std::string page(const NamedHost& h, const Section& s, const std::string& title,
                   const std::vector<std::string>& body_html, const std::string& path) const;
  Status write_host(const NamedHost& h, nlohmann::ordered_json* truth_pages, ReplicaWebSummary* summary);

  const SampleCorpus& c_;
  const SampleWebOptions& o_;
  Rng rng_;
  int first_address_;
  std::vector<Origin> origins_;
  std::vector<NamedHost> hosts_;
  nlohmann::ordered_json clusters_ = nlohmann::ordered_json::array();
  nlohmann::ordered_json negatives_ = nlohmann::ordered_json::array();
  std::vector<std::string> seeds_;
};

int ReplicaWeb::make_origin(const std::string& name, const std::string& title, int articles) {
  Origin o;
  o.name = name;
  o.title = title;
  static const char* const kFurniture[] = {"jornal", "folha", "blog", "enciclopedia", "hemeroteca"};
  o.furniture = kFurniture[origins_.size() % 5];
  o.robots = "User-agent: *\nDisallow: /" + gen::slugify(c_.site_text(o.furniture, "sidebar")) + "/\n";
  std::set<std::string> paths;
  for (int k = 0; k < articles; ++k) {
    const Fact& f = c_.facts[static_cast<std::size_t>(rng_.uniform(0, static_cast<int>(c_.facts.size()) - 1))];
    Article a;
    a.title = f.title;
    std::string slug = gen::slugify(f.title);
    a.path = "/artigos/" + slug + ".html";
    for (int n = 2; !paths.insert(a.path).second; ++n) a.path = "/artigos/" + slug + "-" + std::to_string(n) + ".html";
    a.paragraphs.push_back({gen::upper_first(f.clause) + ".", rng_.pick(c_.filler)});
    a.paragraphs.push_back({rng_.pick(c_.filler), rng_.pick(c_.filler), rng_.pick(c_.filler)});
    a.paragraphs.push_back({rng_.pick(c_.filler), rng_.pick(c_.filler), rng_.pick(c_.filler)});
    o.articles.push_back(std::move(a));
  }
  for (int k = 0; k < articles; ++k)
    for (int j = 0; j < 3; ++j) {
      const int r = rng_.uniform(0, articles - 1);
      if (r != k) o.articles[static_cast<std::size_t>(k)].related.push_back(r);
    }
  origins_.push_back(std::move(o));
  return static_cast<int>(origins_.size()) - 1;
}

std::vector<int> ReplicaWeb::all_articles(int origin) const {
  std::vector<int> out(origins_[static_cast<std::size_t>(origin)].articles.size());
  for (std::size_t i = 0; i < out.size(); ++i) out[i] = static_cast<int>(i);
  return out;
}

void ReplicaWeb::plan() {
  // Names: the corpus's site titles and fact categories, slugified, in an
  // order drawn from the seed.
  std::vector<std::pair<std::string, std::string>> names;  // (label, title)
  std::set<std::string> seen;
  auto add_name = [&](const std::string& title) {
    const std::string label = gen::slugify(title);
    if (!label.empty() && seen.insert(label).second) names.push_back({label, title});
  };
  for (const auto& [site, keys] : c_.sites)
    if (auto it = keys.find("title"); it != keys.end()) add_name(it->second);
  for (const FactFile& f : c_.files) add_name(f.category);
  for (std::size_t i = names.size(); i > 1; --i)
    std::swap(names[i - 1], names[static_cast<std::size_t>(rng_.uniform(0, static_cast<int>(i) - 1))]);
  std::size_t next_name = 0;
  auto name = [&](const std::string& suffix) {
    const auto& [label, title] = names[next_name++ % names.size()];
    return std::make_pair(label + "." + suffix, title);
  };
  const int n = std::clamp(o_.pages / 60, 20, 60);

  auto original = [&](int addr, const std::string& suffix = "pt") {
    auto [host, title] = name(suffix);
    const int origin = make_origin(host, title, n);
    NamedHost h;
    h.name = host;
    h.address = address(addr);
    h.own = origin;
    h.sections.push_back(Section{origin, "", all_articles(origin)});
    hosts_.push_back(h);
    seeds_.push_back(base(host) + "/");
    return static_cast<int>(hosts_.size()) - 1;
  };
  auto copy = [&](int of, const std::string& host, int addr, Section s) {
    NamedHost h;
    h.name = host;
    h.address = address(addr);
    h.own = hosts_[static_cast<std::size_t>(of)].own;
    h.sections.push_back(std::move(s));
    hosts_.push_back(h);
    return static_cast<int>(hosts_.size()) - 1;
  };
  auto member = [&](int host, const std::string& kind, const std::string& prefix = "") {
    nlohmann::ordered_json m = {{"host", authority(hosts_[static_cast<std::size_t>(host)].name)}, {"kind", kind}};
    if (!prefix.empty()) m["prefix"] = prefix;
    return m;
  };
  auto label_of = [](const std::string& host) { return host.substr(0, host.find('.')); };

  // An original with its www alias (same address) and a copy under another suffix.
  const int a = original(0);
  const std::string a_name = hosts_[static_cast<std::size_t>(a)].name;
  const int origin_a = hosts_[static_cast<std::size_t>(a)].own;
  const int www = copy(a, "www." + a_name, 0, Section{origin_a, "", all_articles(origin_a)});
  const int tld = copy(a, label_of(a_name) + ".com.br", 1, Section{origin_a, "", all_articles(origin_a)});
  clusters_.push_back({{"canonical", authority(a_name)}, {"replicas", {member(www, "alias"), member(tld, "tld")}}});

  // An original copied whole under a prefix of a site with its own articles.
  const int b = original(2);
  const int holder = original(3);
  const std::string prefix = "/espelho/" + label_of(hosts_[static_cast<std::size_t>(b)].name);
  {
    const int origin_b = hosts_[static_cast<std::size_t>(b)].own;
    hosts_[static_cast<std::size_t>(holder)].sections.push_back(Section{origin_b, prefix, all_articles(origin_b)});
    seeds_.pop_back();  // the holder is reached by links
  }
  clusters_.push_back({{"canonical", authority(hosts_[static_cast<std::size_t>(b)].name)},
                       {"replicas", {member(holder, "prefix", prefix)}}});

  // A partial copy: about half the articles, under an unrelated name.
  const int c = original(4);
  {
    const int origin_c = hosts_[static_cast<std::size_t>(c)].own;
    Section half{origin_c, "", {}};
    for (int i : all_articles(origin_c))
      if (rng_.percent(50)) half.articles.push_back(i);
    const int partial = copy(c, name("net").first, 5, half);
    clusters_.push_back({{"canonical", authority(hosts_[static_cast<std::size_t>(c)].name)},
                         {"replicas", {member(partial, "partial")}}});
  }

  // A stale copy: the older four fifths of the articles, each without its final sentence.
  const int d = original(6);
  {
    const int origin_d = hosts_[static_cast<std::size_t>(d)].own;
    Section old{origin_d, "", all_articles(origin_d), /*stale=*/true};
    old.articles.resize(old.articles.size() * 4 / 5);
    const int stale = copy(d, name("org").first, 7, old);
    clusters_.push_back({{"canonical", authority(hosts_[static_cast<std::size_t>(d)].name)},
                         {"replicas", {member(stale, "stale")}}});
  }

  // Not replicas: two unrelated sites on one address; a site sharing the
  // common paths of every site; a site republishing a tenth of A's articles.
  const int e = original(8);
  const int f = original(8);
  const int g = original(9);
  const int h = original(10);
  {
    Section some{origin_a, "", {}, false, /*republished=*/true};
    const auto all = all_articles(origin_a);
    for (std::size_t i = 0; i < all.size(); i += 10) some.articles.push_back(all[i]);
    hosts_[static_cast<std::size_t>(h)].sections.push_back(some);
  }
  auto pair = [&](int x, int y, const std::string& kind) {
    negatives_.push_back({{"a", authority(hosts_[static_cast<std::size_t>(x)].name)},
                          {"b", authority(hosts_[static_cast<std::size_t>(y)].name)}, {"kind", kind}});
  };
  pair(e, f, "shared-address");
  pair(e, g, "common-paths");
  pair(a, h, "republished-articles");

  // Links between homes: the originals link A often, its www alias twice,
  // the other copies once.
  auto link = [&](int from, int to) { hosts_[static_cast<std::size_t>(from)].blogroll.push_back(hosts_[static_cast<std::size_t>(to)].name); };
  for (int x : {b, c, d, e, f, g, h}) link(x, a);
  link(e, www);
  link(g, www);
  link(c, tld);
  link(b, holder);
  link(f, holder);
  link(d, c + 1);  // the partial copy, planned right after C
  link(g, d + 1);  // the stale copy, right after D
  link(a, b);
  link(h, c);
  link(e, d);
}

std::string ReplicaWeb::page(const NamedHost& h, const Section& s, const std::string& title,
                             const std::vector<std::string>& body_html, const std::string& path) const {
  const Origin& own = origins_[static_cast<std::size_t>(s.republished ? h.own : s.origin)];
  const std::string& furniture = own.furniture;
  const std::string root = base(h.name) + (s.republished ? "" : s.prefix);
  std::string nav;
  {
    std::stringstream ss(c_.site_text(furniture, "nav"));
    std::string first;
    std::getline(ss, first, '|');
    nav = "<a href=\"" + root + "/\">" + xml_escape(first) + "</a> · <a href=\"" + root + "/sobre.html\">" +
          xml_escape(c_.site_text(furniture, "about")) + "</a> · <a href=\"" + root + "/contactos.html\">" +
          xml_escape(c_.site_text(furniture, "tagline")) + "</a>";
  }
  const std::string footer = gen::fill(c_.site_text(furniture, "footer"), {{"yyyy", "2024"}, {"site", h.name}});
  std::string out = "<!DOCTYPE html>\n<html lang=\"pt\"><head><meta charset=\"utf-8\"><title>" + xml_escape(title) +
                    " — " + xml_escape(own.title) + "</title></head>\n<body><header><p>" + xml_escape(own.title) +
                    "</p><nav>" + nav + "</nav></header>\n<main><h1>" + xml_escape(title) + "</h1>\n";
  for (const std::string& b : body_html) out += b + "\n";
  out += "</main>\n<footer><p>" + xml_escape(footer) + "</p><p><a href=\"" + base(h.name) + path + "\">" +
         xml_escape(h.name) + "</a></p></footer></body></html>\n";
  return out;
}

Status ReplicaWeb::write_host(const NamedHost& h, nlohmann::ordered_json* truth_pages, ReplicaWebSummary* summary) {
  const fs::path dir = fs::path(o_.out_dir) / "sites" / h.name;
  std::error_code ec;
  fs::create_directories(dir / "files", ec);
  if (ec) return Status::Error("cannot create '" + dir.string() + "': " + ec.message());
  std::vector<std::string> routes;
  int file_no = 0;
  auto emit = [&](const std::string& path, const std::string& html, const std::string& content) -> Status {
    char fname[32];
    std::snprintf(fname, sizeof fname, "r%04d.html", file_no++);
    if (Status st = gen::write_file(dir / "files" / fname, html); !st.ok()) return st;
    routes.push_back(path + "\t200\ttext/html; charset=utf-8\tfiles/" + fname);
    nlohmann::ordered_json p = {{"path", path}};
    if (!content.empty()) p["content"] = content;
    truth_pages->push_back(p);
    ++summary->pages;
    return Status::Ok();
  };
  std::vector<std::string> republished_items;
  for (const Section& s : h.sections) {
    const Origin& o = origins_[static_cast<std::size_t>(s.origin)];
    std::vector<std::string> items;
    for (int i : s.articles) {
      const Article& a = o.articles[static_cast<std::size_t>(i)];
      const std::string path = article_path(s, a);
      std::vector<std::string> body;
      for (std::size_t p = 0; p < a.paragraphs.size(); ++p) {
        std::vector<std::string> sentences = a.paragraphs[p];
        if (s.stale && p + 1 == a.paragraphs.size() && sentences.size() > 1) sentences.pop_back();
        body.push_back("<p>" + xml_escape(join_sentences(sentences)) + "</p>");
      }
      if (!s.republished) {
        std::string related = "<p>" + xml_escape(c_.site_text(o.furniture, "related")) + ":";
        bool any = false;
        // The same links in every copy, to pages a partial or stale copy may lack.
        for (int r : a.related) {
          const Article& t = o.articles[static_cast<std::size_t>(r)];
          related += " <a href=\"" + base(h.name) + article_path(s, t) + "\">" + xml_escape(t.title) + "</a>";
          any = true;
        }
        if (any) body.push_back(related + "</p>");
      }
      if (Status st = emit(path, page(h, s, a.title, body, path), authority(o.name) + a.path); !st.ok()) return st;
      (s.republished ? republished_items : items)
          .push_back("<li><a href=\"" + base(h.name) + path + "\">" + xml_escape(a.title) + "</a></li>");
    }
    if (s.republished) continue;
    // The section's home (its articles, the republished ones, the links to
    // other sites), about and contacts pages.
    std::string list;
    for (const auto& it : items) list += it;
    if (s.prefix.empty()) {
      for (const auto& it : republished_items) list += it;
      for (const Section& other : h.sections)  // copies this host keeps under a prefix
        if (!other.prefix.empty())
          list += "<li><a href=\"" + base(h.name) + other.prefix + "/\">" +
                  xml_escape(origins_[static_cast<std::size_t>(other.origin)].title) + "</a></li>";
    }
    std::vector<std::string> home = {"<p>" + xml_escape(c_.site_text(o.furniture, "tagline")) + "</p>",
                                     "<ul>" + list + "</ul>"};
    std::string roll;
    if (s.prefix.empty())
      for (const std::string& other : h.blogroll)
        roll += "<li><a href=\"" + base(other) + "/\">" + xml_escape(other) + "</a></li>";
    if (!roll.empty())
      home.push_back("<aside><p>" + xml_escape(c_.site_text(o.furniture, "sidebar")) + "</p><ul>" + roll + "</ul></aside>");
    Rng text(o_.seed * 131 + static_cast<std::uint64_t>(s.origin));
    const std::vector<std::string> about = {
        "<p>" + xml_escape(o.title + ". " + c_.site_text(o.furniture, "tagline") + ".") + "</p>",
        "<p>" + xml_escape(text.pick(c_.filler) + " " + text.pick(c_.filler)) + "</p>"};
    const std::vector<std::string> contacts = {
        "<p>" + xml_escape(noise_address(c_, o.furniture, o_.seed, s.origin)) + "</p>",
        "<p>" + xml_escape(text.pick(c_.filler)) + "</p>"};
    for (const auto& [path, title, blocks] :
         {std::tuple<std::string, std::string, const std::vector<std::string>*>{"/sobre.html", c_.site_text(o.furniture, "about"), &about},
          {"/contactos.html", o.title, &contacts},
          {"/", o.title, &home}})
      if (Status st = emit(s.prefix + path, page(h, s, title, *blocks, s.prefix + path), authority(o.name) + path); !st.ok())
        return st;
  }
  {
    const Origin& own = origins_[static_cast<std::size_t>(h.own)];
    if (Status st = gen::write_file(dir / "files" / "robots.txt", own.robots); !st.ok()) return st;
    routes.push_back("/robots.txt\t200\ttext/plain; charset=utf-8\tfiles/robots.txt");
  }
  std::sort(routes.begin(), routes.end());
  std::string body = "# path\tstatus\tcontent-type\tfile or location\n";
  for (const std::string& r : routes) body += r + "\n";
  return gen::write_file(dir / "routes.tsv", body);
}

Result<ReplicaWebSummary> ReplicaWeb::run() {
  using R = Result<ReplicaWebSummary>;
  if (c_.facts.empty() || c_.filler.empty()) return R::Error("the corpus has no facts or no filler sentences");
  plan();
  // Republished articles first: the host's home lists them.
  for (NamedHost& h : hosts_)
    std::stable_sort(h.sections.begin(), h.sections.end(),
                     [](const Section& x, const Section& y) { return x.republished > y.republished; });

  const fs::path root(o_.out_dir);
  std::ifstream in(root / "web.json", std::ios::binary);
  std::stringstream web_text;
  web_text << in.rdbuf();
  nlohmann::ordered_json web = nlohmann::ordered_json::parse(web_text.str(), nullptr, false);
  if (web.is_discarded() || !web.contains("hosts")) return R::Error("'" + (root / "web.json").string() + "' is not a sample web description");

  ReplicaWebSummary summary;
  nlohmann::ordered_json truth;
  truth["port"] = o_.port;
  truth["hosts"] = nlohmann::ordered_json::array();
  std::string resolve, hosts_file;
  std::map<std::string, std::vector<std::string>> names_of_address;
  for (const NamedHost& h : hosts_) {
    nlohmann::ordered_json pages = nlohmann::ordered_json::array();
    if (Status st = write_host(h, &pages, &summary); !st.ok()) return st;
    truth["hosts"].push_back({{"authority", authority(h.name)}, {"address", h.address}, {"pages", pages}});
    web["hosts"].push_back({{"name", h.name}, {"address", h.address}, {"authority", authority(h.name)},
                            {"title", origins_[static_cast<std::size_t>(h.own)].title}});
    resolve += authority(h.name) + ":" + h.address + "\n";
    names_of_address[h.address].push_back(h.name);
    ++summary.hosts;
  }
  for (const auto& [addr, names] : names_of_address) {
    hosts_file += addr;
    for (const std::string& n : names) hosts_file += " " + n;
    hosts_file += "\n";
  }
  truth["clusters"] = clusters_;
  truth["hard_negatives"] = negatives_;
  summary.clusters = static_cast<int>(clusters_.size());
  for (const auto& c : clusters_) summary.replicas += static_cast<int>(c["replicas"].size());
  summary.hard_negatives = static_cast<int>(negatives_.size());
  std::string seeds;
  for (const std::string& s : seeds_) seeds += s + "\n";
  if (Status st = gen::write_file(root / "web.json", web.dump(2) + "\n"); !st.ok()) return st;
  if (Status st = gen::write_file(root / "replicas.json", truth.dump(1) + "\n"); !st.ok()) return st;
  if (Status st = gen::write_file(root / "resolve.txt", resolve); !st.ok()) return st;
  if (Status st = gen::write_file(root / "hosts.replicas", hosts_file); !st.ok()) return st;
  if (Status st = gen::write_file(root / "seeds-replicas.txt", seeds); !st.ok()) return st;
  return summary;
}

}  // namespace

Result<ReplicaWebSummary> write_replica_web(const SampleCorpus& corpus, const SampleWebOptions& options,
                                            int first_address) {
  if (first_address < 2 || first_address + kReplicaWebAddresses > 255)
    return Result<ReplicaWebSummary>::Error("replica web addresses out of range");
  ReplicaWeb w(corpus, options, first_address);
  return w.run();
}

}  // namespace cronista::sampleweb
