#include "eval/harem_reader.h"

#include <nlohmann/json.hpp>
#include <pugixml.hpp>

#include <filesystem>
#include <fstream>
#include <sstream>

namespace cronista::eval {

namespace {

bool is_ws(char c) { return c == ' ' || c == '\n' || c == '\t' || c == '\r'; }

// Appends text with white space collapsed.
void append_text(std::string* out, std::string_view s) {
  for (char c : s) {
    if (is_ws(c)) {
      if (!out->empty() && !is_ws(out->back())) out->push_back(' ');
    } else {
      out->push_back(c);
    }
  }
}

bool is_tempo(const pugi::xml_node& em, bool* vague, std::string* type) {
  const std::string categ = em.attribute("CATEG").as_string();
  if (categ.find("TEMPO") == std::string::npos) return false;
  // Parallel |-lists: take the TEMPO reading.
  auto split = [](const std::string& s) {
    std::vector<std::string> parts;
    std::size_t p = 0;
    while (true) {
      std::size_t q = s.find('|', p);
      parts.push_back(s.substr(p, q == std::string::npos ? std::string::npos : q - p));
      if (q == std::string::npos) break;
      p = q + 1;
    }
    return parts;
  };
  auto cats = split(categ), tipos = split(em.attribute("TIPO").as_string()),
       subs = split(em.attribute("SUBTIPO").as_string());
  std::size_t k = 0;
  while (k < cats.size() && cats[k] != "TEMPO") ++k;
  std::string tipo = k < tipos.size() ? tipos[k] : "";
  std::string sub = k < subs.size() ? subs[k] : "";
  *type = sub.empty() ? tipo : tipo + "/" + sub;
  *vague = cats.size() > 1 || tipo == "GENERICO";
  return true;
}

struct Builder {
  GoldDocument* doc;
  int next_group = 1;

  static void collect(const pugi::xml_node& n, std::string* text) {
    for (pugi::xml_node c = n.first_child(); c; c = c.next_sibling()) {
      if (c.type() == pugi::node_pcdata || c.type() == pugi::node_cdata) append_text(text, c.value());
      else if (c.type() == pugi::node_element) collect(c, text);
    }
  }

  void em(const pugi::xml_node& e, int group, int alternative, std::size_t base, std::string* text) {
    const std::size_t start = text->size();
    collect(e, text);
    std::size_t s = start, t = text->size();
    while (s < t && is_ws((*text)[s])) ++s;
    while (t > s && is_ws((*text)[t - 1])) --t;
    bool vague = false;
    std::string type;
    if (!is_tempo(e, &vague, &type) || s == t) return;
    GoldExpression g;
    g.start = base + s;
    g.end = base + t;
    g.text = text->substr(s, t - s);
    g.type = type;
    g.vague = vague;
    g.alt_group = group;
    g.alternative = alternative;
    doc->expressions.push_back(std::move(g));
  }

  // Walks DOC / P / OMITIDO content.
  void walk(const pugi::xml_node& node) {
    for (pugi::xml_node c = node.first_child(); c; c = c.next_sibling()) {
      if (c.type() == pugi::node_pcdata || c.type() == pugi::node_cdata) {
        append_text(&doc->text, c.value());
        continue;
      }
      if (c.type() != pugi::node_element) continue;
      const std::string_view name = c.name();
      if (name == "EM") {
        em(c, 0, 0, 0, &doc->text);
      } else if (name == "P") {
        walk(c);
        while (!doc->text.empty() && doc->text.back() == ' ') doc->text.pop_back();
        if (!doc->text.empty()) doc->text.push_back('\n');
      } else if (name == "OMITIDO") {
        const std::size_t s = doc->text.size();
        walk(c);
        doc->omitted.push_back(GoldRange{s, doc->text.size()});
      } else if (name == "ALT") {
        alt(c);
      } else {
        walk(c);
      }
    }
  }

  // <ALT>a | b</ALT>: each alternative is built on its own; the first one's
  // text goes into the document.
  void alt(const pugi::xml_node& node) {
    const int group = next_group++;
    std::vector<std::string> texts(1);
    std::vector<std::vector<GoldExpression>> found(1);
    GoldDocument scratch;
    auto flush_em = [&](const pugi::xml_node& e) {
      Builder b{&scratch};
      scratch.expressions.clear();
      b.em(e, group, static_cast<int>(texts.size()) - 1, 0, &texts.back());
      for (auto& g : scratch.expressions) found.back().push_back(g);
    };
    for (pugi::xml_node c = node.first_child(); c; c = c.next_sibling()) {
      if (c.type() == pugi::node_pcdata) {
        std::string_view v = c.value();
        while (true) {
          std::size_t bar = v.find('|');
          append_text(&texts.back(), v.substr(0, bar));
          if (bar == std::string_view::npos) break;
          texts.emplace_back();
          found.emplace_back();
          v.remove_prefix(bar + 1);
        }
      } else if (c.type() == pugi::node_element && std::string_view(c.name()) == "EM") {
        flush_em(c);
      } else if (c.type() == pugi::node_element) {
        collect(c, &texts.back());
      }
    }
    // Trim each alternative; expressions shift with the trimmed prefix.
    const std::size_t base = doc->text.size();
    std::size_t lead_space = 0;
    for (std::size_t a = 0; a < texts.size(); ++a) {
      std::string& t = texts[a];
      std::size_t s = 0;
      while (s < t.size() && is_ws(t[s])) ++s;
      std::size_t e = t.size();
      while (e > s && is_ws(t[e - 1])) --e;
      if (a == 0) {
        // Keep one separating space before the ALT's text when it had one.
        lead_space = (s > 0 && !doc->text.empty() && !is_ws(doc->text.back())) ? 1 : 0;
      }
      for (auto& g : found[a]) {
        if (g.start < s) continue;
        g.start = base + lead_space + (g.start - s);
        g.end = base + lead_space + (g.end - s);
        doc->expressions.push_back(g);
      }
      if (a == 0) {
        if (lead_space) doc->text.push_back(' ');
        doc->text += t.substr(s, e - s);
        if (e < t.size()) doc->text.push_back(' ');
      }
    }
    doc->alt_ranges.push_back(GoldRange{base, doc->text.size(), static_cast<int>(texts.size())});
  }
};

}  // namespace

Result<std::vector<GoldDocument>> parse_harem(std::string_view xml, const std::string& name,
                                              const std::unordered_map<std::string, temporal::Date>& dates) {
  using R = Result<std::vector<GoldDocument>>;
  pugi::xml_document x;
  pugi::xml_parse_result r = x.load_buffer(xml.data(), xml.size(), pugi::parse_default | pugi::parse_ws_pcdata);
  if (!r) return R::Error(name + ": not well-formed XML at byte " + std::to_string(r.offset) + ": " + r.description());
  pugi::xml_node root = x.document_element();
  if (std::string_view(root.name()) != "colHAREM") return R::Error(name + ": root element is not colHAREM");
  std::vector<GoldDocument> docs;
  const std::string version = root.attribute("versao").as_string();
  for (pugi::xml_node d = root.child("DOC"); d; d = d.next_sibling("DOC")) {
    GoldDocument doc;
    doc.id = d.attribute("DOCID").as_string();
    doc.collection_version = version;
    if (auto it = dates.find(doc.id); it != dates.end()) doc.dct = it->second;
    Builder b{&doc};
    b.walk(d);
    // Text offsets of expressions must hold their text.
    for (auto& g : doc.expressions) {
      if (g.end > doc.text.size()) g.end = doc.text.size();
      if (g.start > g.end) g.start = g.end;
    }
    docs.push_back(std::move(doc));
  }
  return docs;
}

Result<std::vector<GoldDocument>> read_harem(const std::string& path) {
  using R = Result<std::vector<GoldDocument>>;
  std::ifstream in(path, std::ios::binary);
  if (!in) return R::Error("cannot read '" + path + "'");
  std::ostringstream ss;
  ss << in.rdbuf();
  std::unordered_map<std::string, temporal::Date> dates;
  std::filesystem::path meta = std::filesystem::path(path);
  meta.replace_extension(".meta.json");
  if (std::ifstream m(meta, std::ios::binary); m) {
    nlohmann::json j = nlohmann::json::parse(m, nullptr, false);
    if (j.is_discarded() || !j.is_array()) return R::Error("'" + meta.string() + "' is not a JSON array");
    for (const auto& rec : j) {
      if (!rec.is_object() || !rec.contains("DOCID") || !rec.contains("DATA-CRIACAO")) continue;
      if (!rec["DOCID"].is_string() || !rec["DATA-CRIACAO"].is_string()) continue;
      std::string d = rec["DATA-CRIACAO"].get<std::string>();
      if (d.size() != 8) continue;
      if (auto date = temporal::Date::parse(d.substr(0, 4) + "-" + d.substr(4, 2) + "-" + d.substr(6, 2)))
        dates[rec["DOCID"].get<std::string>()] = *date;
    }
  }
  return parse_harem(ss.str(), path, dates);
}

}  // namespace cronista::eval
