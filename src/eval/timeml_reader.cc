#include "eval/timeml_reader.h"

#include <pugixml.hpp>

#include <filesystem>
#include <fstream>
#include <sstream>

namespace cronista::eval {

namespace {

struct Walker {
  GoldDocument* doc;
  bool dct_is_text = true;
  void walk(const pugi::xml_node& node) {
    for (pugi::xml_node c = node.first_child(); c; c = c.next_sibling()) {
      if (c.type() == pugi::node_pcdata || c.type() == pugi::node_cdata) {
        doc->text += c.value();
      } else if (c.type() == pugi::node_element) {
        const std::string_view name = c.name();
        if (name == "TLINK" || name == "SLINK" || name == "ALINK" || name == "MAKEINSTANCE") continue;
        const std::size_t start = doc->text.size();
        walk(c);
        if (name == "s") doc->scored.push_back(GoldRange{start, doc->text.size(), 0});
        if (name == "TIMEX3") {
          const std::string_view fn = c.attribute("functionInDocument").as_string();
          const std::string value = c.attribute("value").as_string();
          if (fn == "CREATION_TIME") {
            if (value.size() >= 10) doc->dct = temporal::Date::parse(value.substr(0, 10));
            continue;
          }
          GoldExpression e;
          e.start = start;
          e.end = doc->text.size();
          e.text = doc->text.substr(start, e.end - start);
          e.type = c.attribute("type").as_string();
          e.value = value;
          doc->expressions.push_back(std::move(e));
        }
      }
    }
  }
};

}  // namespace

Result<GoldDocument> parse_timeml(std::string_view xml, const std::string& name) {
  pugi::xml_document x;
  pugi::xml_parse_result r = x.load_buffer(xml.data(), xml.size(), pugi::parse_default | pugi::parse_ws_pcdata);
  if (!r) return Result<GoldDocument>::Error(name + ": not well-formed XML at byte " + std::to_string(r.offset) +
                                             ": " + r.description());
  GoldDocument doc;
  doc.id = std::filesystem::path(name).stem().string();
  Walker w{&doc};
  w.walk(x.document_element());
  return doc;
}

Result<GoldDocument> read_timeml(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return Result<GoldDocument>::Error("cannot read '" + path + "'");
  std::ostringstream ss;
  ss << in.rdbuf();
  return parse_timeml(ss.str(), path);
}

}  // namespace cronista::eval
