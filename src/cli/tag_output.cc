#include "cli/tag_output.h"

#include <nlohmann/json.hpp>

#include "temporal/xml_escape.h"

namespace cronista::cli {

std::string render_tags(std::string_view input, const std::vector<temporal::TemporalExpression>& found,
                        const std::optional<temporal::Date>& dct, std::string_view format) {
  using temporal::to_string;
  if (format == "json") {
    nlohmann::ordered_json doc;
    doc["dct"] = dct ? nlohmann::ordered_json(dct->to_string()) : nlohmann::ordered_json(nullptr);
    auto list = nlohmann::ordered_json::array();
    for (const auto& e : found) {
      if (!e.in_timeml) continue;
      nlohmann::ordered_json j;
      j["start"] = e.start;
      j["end"] = e.end;
      j["text"] = e.text;
      j["type"] = std::string(to_string(e.type));
      j["value"] = e.value;
      auto ch = nlohmann::ordered_json::array();
      for (const auto& c : e.chronons) ch.push_back(c.to_string());
      j["chronons"] = ch;
      nlohmann::ordered_json h;
      h["type"] = std::string(to_string(e.harem_type));
      if (e.harem_subtype != temporal::HaremSubtype::None) h["subtype"] = std::string(to_string(e.harem_subtype));
      h["start"] = e.harem_start;
      h["end"] = e.harem_end;
      j["harem"] = h;
      j["reference"] = std::string(to_string(e.reference));
      j["resolved"] = e.resolved;
      if (!e.endpoints.empty()) {
        auto ends = nlohmann::ordered_json::array();
        for (const auto& p : e.endpoints)
          ends.push_back({{"start", p.start}, {"end", p.end}, {"text", p.text},
                          {"type", std::string(to_string(p.type))}, {"value", p.value}});
        j["endpoints"] = std::move(ends);
      }
      list.push_back(std::move(j));
    }
    doc["expressions"] = std::move(list);
    return doc.dump(2) + "\n";
  }
  const bool harem = format == "harem";
  std::string out;
  std::size_t pos = 0;
  int id = 0;
  for (const auto& e : found) {
    if (!(harem ? e.in_harem : e.in_timeml)) continue;
    const std::size_t s = harem ? e.harem_start : e.start;
    const std::size_t t = harem ? e.harem_end : e.end;
    if (s < pos || t > input.size()) continue;
    out += temporal::xml_escape(input.substr(pos, s - pos));
    ++id;
    if (harem) {
      out += "<EM ID=\"" + std::to_string(id) + "\" CATEG=\"TIME\" TYPE=\"" + std::string(to_string(e.harem_type)) +
             "\"";
      if (e.harem_subtype != temporal::HaremSubtype::None)
        out += " SUBTYPE=\"" + std::string(to_string(e.harem_subtype)) + "\"";
      out += ">" + temporal::xml_escape(input.substr(s, t - s)) + "</EM>";
    } else if (e.endpoints.size() == 2 && e.endpoints[0].start >= s && e.endpoints[1].end <= t &&
               e.endpoints[0].end <= e.endpoints[1].start) {
      // An interval is two TIMEX3s, one per end, as TimeML annotates it:
      // "entre <TIMEX3>1985</TIMEX3> e <TIMEX3>1987</TIMEX3>".
      std::size_t at = s;
      for (std::size_t k = 0; k < 2; ++k) {
        const auto& p = e.endpoints[k];
        if (k > 0) ++id;
        out += temporal::xml_escape(input.substr(at, p.start - at));
        out += "<TIMEX3 tid=\"t" + std::to_string(id) + "\" type=\"" + std::string(to_string(p.type)) +
               "\" value=\"" + temporal::xml_escape(p.value) + "\">" +
               temporal::xml_escape(input.substr(p.start, p.end - p.start)) + "</TIMEX3>";
        at = p.end;
      }
      out += temporal::xml_escape(input.substr(at, t - at));
    } else {
      out += "<TIMEX3 tid=\"t" + std::to_string(id) + "\" type=\"" + std::string(to_string(e.type)) + "\" value=\"" +
             temporal::xml_escape(e.value) + "\">" + temporal::xml_escape(input.substr(s, t - s)) + "</TIMEX3>";
    }
    pos = t;
  }
  out += temporal::xml_escape(input.substr(pos));
  return out;
}

}  // namespace cronista::cli
