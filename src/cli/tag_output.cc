#include "cli/tag_output.h"

#include <charconv>

#include "temporal/xml_escape.h"

namespace cronista::cli {

namespace {

constexpr std::size_t kFlushBytes = 1 << 20;

void append_number(std::string& out, std::size_t n) {
  char digits[24];
  auto r = std::to_chars(digits, digits + sizeof digits, n);
  out.append(digits, r.ptr);
}

// The HAREM TIPO and SUBTIPO of a mention ("TEMPO_CALEND", "DATA"): the
// scheme's own label, or for TimeML mentions the Second HAREM label of the
// expression (of its end, for an interval written as two).
std::pair<std::string, std::string> harem_names(const temporal::TemporalExpression& e, const eval::SchemeMention& m,
                                                eval::GoldScheme scheme) {
  std::string label = m.type;
  if (scheme == eval::GoldScheme::TimeML) {
    const bool end_of_interval = e.endpoints.size() == 2 && (m.start != e.start || m.end != e.end);
    label = end_of_interval ? (m.timex == temporal::TimexType::Time ? "TEMPO_CALEND/HORA" : "TEMPO_CALEND/DATA")
                            : eval::harem_label(e);
  }
  const std::size_t slash = label.find('/');
  if (slash == std::string::npos) return {label, ""};
  return {label.substr(0, slash), label.substr(slash + 1)};
}

}  // namespace

void append_json_string(std::string& out, std::string_view s) {
  static constexpr char kHex[] = "0123456789abcdef";
  out.push_back('"');
  std::size_t run = 0;  // start of the bytes not yet copied
  for (std::size_t i = 0; i < s.size(); ++i) {
    const auto c = static_cast<unsigned char>(s[i]);
    if (c >= 0x20 && c != '"' && c != '\\') continue;
    out.append(s.data() + run, i - run);
    run = i + 1;
    switch (c) {
      case '"': out += "\\\""; break;
      case '\\': out += "\\\\"; break;
      case '\b': out += "\\b"; break;
      case '\f': out += "\\f"; break;
      case '\n': out += "\\n"; break;
      case '\r': out += "\\r"; break;
      case '\t': out += "\\t"; break;
      default:
        out += "\\u00";
        out.push_back(kHex[c >> 4]);
        out.push_back(kHex[c & 15]);
    }
  }
  out.append(s.data() + run, s.size() - run);
  out.push_back('"');
}

TagWriter::TagWriter(std::ostream& out, TagFormat format, eval::GoldScheme scheme,
                     const std::optional<temporal::Date>& dct)
    : out_(out), format_(format), scheme_(scheme), dct_(dct) {
  buf_.reserve(kFlushBytes + (kFlushBytes >> 2));
  switch (format_) {
    case TagFormat::Json:
      buf_ += "{\n  \"dct\": ";
      if (dct_) append_json_string(buf_, dct_->to_string());
      else buf_ += "null";
      buf_ += ",\n";
      if (scheme_ != eval::GoldScheme::TimeML) {
        buf_ += "  \"scheme\": ";
        append_json_string(buf_, eval::to_string(scheme_));
        buf_ += ",\n";
      }
      buf_ += "  \"expressions\": [";
      break;
    case TagFormat::Timex3:
      // TimeML 1.2.1: the document creation time is a TIMEX3 in a DCT
      // element, the text in TEXT (whose content is exactly the input).
      buf_ += "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<TimeML>\n";
      if (dct_) {
        const std::string d = dct_->to_string();
        buf_ += "<DCT><TIMEX3 tid=\"t0\" type=\"DATE\" value=\"" + d +
                "\" temporalFunction=\"false\" functionInDocument=\"CREATION_TIME\">" + d + "</TIMEX3></DCT>\n";
      }
      buf_ += "<TEXT>";
      break;
    case TagFormat::Harem: break;
  }
}

void TagWriter::flush_if_full() {
  if (buf_.size() < kFlushBytes) return;
  out_.write(buf_.data(), static_cast<std::streamsize>(buf_.size()));
  buf_.clear();
}

void TagWriter::write(std::string_view text, std::size_t base, const std::vector<temporal::TemporalExpression>& found,
                      const SourceMap* source) {
  source_ = source;
  base_ = base;
  if (format_ == TagFormat::Json) {
    for (const auto& e : found) {
      if (scheme_ == eval::GoldScheme::TimeML) {
        if (e.in_timeml) json_expression(e);
      } else {
        for (const auto& m : eval::scheme_mentions(e, scheme_, text))
          if (m.start < m.end && m.end <= text.size()) json_mention(e, m, text);
      }
      flush_if_full();
    }
    return;
  }
  // Inline forms: the piece's text with the mentions marked up, in order;
  // a mention that overlaps one already written is left out.
  std::size_t pos = 0;
  for (const auto& e : found) {
    for (const auto& m : eval::scheme_mentions(e, scheme_, text)) {
      if (m.start < pos || m.start >= m.end || m.end > text.size()) continue;
      buf_ += temporal::xml_escape(text.substr(pos, m.start - pos));
      inline_mention(e, m, text);
      pos = m.end;
    }
    flush_if_full();
  }
  buf_ += temporal::xml_escape(text.substr(pos));
  flush_if_full();
}

void TagWriter::json_expression(const temporal::TemporalExpression& e) {
  using temporal::to_string;
  // Offsets (and texts) in the input's terms: the piece's base added, or
  // mapped back through the HTML source map.
  auto range = [this](std::size_t b, std::size_t t, std::size_t* s, std::size_t* u) {
    if (source_ == nullptr || source_->offsets == nullptr || source_->offsets->empty()) {
      *s = base_ + b;
      *u = base_ + t;
      return;
    }
    const auto& map = *source_->offsets;
    auto at = [&map](std::size_t o) { return o < map.size() ? map[o] : map.back(); };
    *s = at(b);
    *u = t > b ? at(t - 1) + 1 : *s;
    if (*u > source_->input.size()) *u = source_->input.size();
    if (*s > *u) *s = *u;
  };
  auto text_of = [this](std::size_t s, std::size_t u, const std::string& own) -> std::string_view {
    if (source_ == nullptr || source_->offsets == nullptr || source_->offsets->empty()) return own;
    return source_->input.substr(s, u - s);
  };
  std::size_t s, u, hs, hu;
  range(e.start, e.end, &s, &u);
  range(e.harem_start, e.harem_end, &hs, &hu);
  buf_ += count_++ ? ",\n    {\n      \"start\": " : "\n    {\n      \"start\": ";
  append_number(buf_, s);
  buf_ += ",\n      \"end\": ";
  append_number(buf_, u);
  buf_ += ",\n      \"text\": ";
  append_json_string(buf_, text_of(s, u, e.text));
  buf_ += ",\n      \"type\": \"";
  buf_ += to_string(e.type);
  buf_ += "\",\n      \"value\": ";
  append_json_string(buf_, e.value);
  buf_ += ",\n      \"chronons\": [";
  for (std::size_t k = 0; k < e.chronons.size(); ++k) {
    buf_ += k ? ",\n        " : "\n        ";
    append_json_string(buf_, e.chronons[k].to_string());
  }
  buf_ += e.chronons.empty() ? "]" : "\n      ]";
  buf_ += ",\n      \"harem\": {\n        \"type\": \"";
  buf_ += to_string(e.harem_type);
  buf_ += "\",\n";
  if (e.harem_subtype != temporal::HaremSubtype::None) {
    buf_ += "        \"subtype\": \"";
    buf_ += to_string(e.harem_subtype);
    buf_ += "\",\n";
  }
  buf_ += "        \"start\": ";
  append_number(buf_, hs);
  buf_ += ",\n        \"end\": ";
  append_number(buf_, hu);
  buf_ += "\n      },\n      \"reference\": \"";
  buf_ += to_string(e.reference);
  buf_ += "\",\n      \"resolved\": ";
  buf_ += e.resolved ? "true" : "false";
  if (!e.endpoints.empty()) {
    buf_ += ",\n      \"endpoints\": [";
    for (std::size_t k = 0; k < e.endpoints.size(); ++k) {
      const auto& p = e.endpoints[k];
      std::size_t ps, pu;
      range(p.start, p.end, &ps, &pu);
      buf_ += k ? ",\n        {\n          \"start\": " : "\n        {\n          \"start\": ";
      append_number(buf_, ps);
      buf_ += ",\n          \"end\": ";
      append_number(buf_, pu);
      buf_ += ",\n          \"text\": ";
      append_json_string(buf_, text_of(ps, pu, p.text));
      buf_ += ",\n          \"type\": \"";
      buf_ += to_string(p.type);
      buf_ += "\",\n          \"value\": ";
      append_json_string(buf_, p.value);
      buf_ += "\n        }";
    }
    buf_ += "\n      ]";
  }
  buf_ += "\n    }";
}

void TagWriter::json_mention(const temporal::TemporalExpression& e, const eval::SchemeMention& m,
                             std::string_view text) {
  std::size_t s = base_ + m.start, u = base_ + m.end;
  std::string_view shown = text.substr(m.start, m.end - m.start);
  if (source_ != nullptr && source_->offsets != nullptr && !source_->offsets->empty()) {
    const auto& map = *source_->offsets;
    auto at = [&map](std::size_t o) { return o < map.size() ? map[o] : map.back(); };
    s = at(m.start);
    u = std::min(at(m.end - 1) + 1, source_->input.size());
    if (s > u) s = u;
    shown = source_->input.substr(s, u - s);
  }
  const auto [tipo, subtipo] = harem_names(e, m, scheme_);
  buf_ += count_++ ? ",\n    {\n      \"start\": " : "\n    {\n      \"start\": ";
  append_number(buf_, s);
  buf_ += ",\n      \"end\": ";
  append_number(buf_, u);
  buf_ += ",\n      \"text\": ";
  append_json_string(buf_, shown);
  buf_ += ",\n      \"type\": ";
  append_json_string(buf_, tipo);
  if (!subtipo.empty()) {
    buf_ += ",\n      \"subtype\": ";
    append_json_string(buf_, subtipo);
  }
  buf_ += ",\n      \"timex_type\": \"";
  buf_ += temporal::to_string(m.timex);
  buf_ += "\",\n      \"value\": ";
  append_json_string(buf_, m.value);
  buf_ += ",\n      \"reference\": \"";
  buf_ += temporal::to_string(e.reference);
  buf_ += "\",\n      \"resolved\": ";
  buf_ += e.resolved ? "true" : "false";
  buf_ += "\n    }";
}

void TagWriter::inline_mention(const temporal::TemporalExpression& e, const eval::SchemeMention& m,
                               std::string_view text) {
  ++count_;
  const std::string inner = temporal::xml_escape(text.substr(m.start, m.end - m.start));
  if (format_ == TagFormat::Harem) {
    const auto [tipo, subtipo] = harem_names(e, m, scheme_);
    buf_ += "<EM ID=\"";
    append_number(buf_, count_);
    buf_ += "\" CATEG=\"TEMPO\" TIPO=\"" + tipo + "\"";
    if (!subtipo.empty()) buf_ += " SUBTIPO=\"" + subtipo + "\"";
    buf_ += ">" + inner + "</EM>";
    return;
  }
  buf_ += "<TIMEX3 tid=\"t";
  append_number(buf_, count_);
  buf_ += "\" type=\"";
  buf_ += temporal::to_string(m.timex);
  buf_ += "\" value=\"" + temporal::xml_escape(m.value) + "\"";
  // Values computed from another time (the document's or one mentioned
  // before) are temporal functions; those of the document's time anchor on it.
  if (e.reference != temporal::Reference::Explicit && e.reference != temporal::Reference::Vague) {
    buf_ += " temporalFunction=\"true\"";
    if (e.reference == temporal::Reference::Deictic && dct_) buf_ += " anchorTimeID=\"t0\"";
  }
  buf_ += ">" + inner + "</TIMEX3>";
}

bool TagWriter::finish() {
  switch (format_) {
    case TagFormat::Json: buf_ += count_ ? "\n  ]\n}\n" : "]\n}\n"; break;
    case TagFormat::Timex3: buf_ += "</TEXT>\n</TimeML>\n"; break;
    case TagFormat::Harem: break;
  }
  out_.write(buf_.data(), static_cast<std::streamsize>(buf_.size()));
  buf_.clear();
  out_.flush();
  return out_.good();
}

}  // namespace cronista::cli
