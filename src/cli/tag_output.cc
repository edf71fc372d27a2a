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

JsonEmitter::JsonEmitter(std::string& out, bool pretty) : out_(out), pretty_(pretty) {}

void JsonEmitter::newline() {
  out_.push_back('\n');
  out_.append(2 * static_cast<std::size_t>(depth_), ' ');
}

void JsonEmitter::item() {
  if (after_key_) {
    after_key_ = false;
    return;
  }
  if (depth_ == 0) return;  // the document itself
  if (!first_) out_.push_back(',');
  if (pretty_) newline();
  first_ = false;
}

void JsonEmitter::open(char bracket) {
  item();
  out_.push_back(bracket);
  ++depth_;
  first_ = true;
}

void JsonEmitter::close(char bracket) {
  --depth_;
  if (!first_ && pretty_) newline();
  out_.push_back(bracket);
  first_ = false;
}

JsonEmitter& JsonEmitter::key(std::string_view k) {
  item();
  out_.push_back('"');
  out_.append(k);
  out_ += pretty_ ? "\": " : "\":";
  after_key_ = true;
  return *this;
}

void JsonEmitter::string(std::string_view v) {
  item();
  append_json_string(out_, v);
}

void JsonEmitter::number(std::size_t v) {
  item();
  append_number(out_, v);
}

void JsonEmitter::boolean(bool v) {
  item();
  out_ += v ? "true" : "false";
}

void JsonEmitter::null() {
  item();
  out_ += "null";
}

TagWriter::TagWriter(std::ostream& out, const Options& options)
    : out_(out), format_(options.format), scheme_(options.scheme), dct_(options.dct), json_(buf_, !options.line) {
  buf_.reserve(kFlushBytes + (kFlushBytes >> 2));
  switch (format_) {
    case TagFormat::Json:
      json_.open('{');
      for (const auto& [k, v] : options.head) json_.key(k).string(v);
      json_.key("dct");
      if (dct_) json_.string(dct_->to_string());
      else json_.null();
      if (scheme_ != eval::GoldScheme::TimeML) json_.key("scheme").string(eval::to_string(scheme_));
      json_.key("expressions").open('[');
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

bool TagWriter::mapped() const { return source_ != nullptr && source_->offsets != nullptr && !source_->offsets->empty(); }

// Offsets (and texts) in the input's terms: the piece's base added, or mapped
// back through the HTML source map.
void TagWriter::range(std::size_t b, std::size_t t, std::size_t* s, std::size_t* u) const {
  if (!mapped()) {
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
}

std::string_view TagWriter::text_of(std::size_t s, std::size_t u, std::string_view own) const {
  return mapped() ? source_->input.substr(s, u - s) : own;
}

void TagWriter::json_extent(std::size_t b, std::size_t t, std::string_view own) {
  std::size_t s, u;
  range(b, t, &s, &u);
  json_.key("start").number(s);
  json_.key("end").number(u);
  json_.key("text").string(text_of(s, u, own));
}

void TagWriter::json_expression(const temporal::TemporalExpression& e) {
  using temporal::to_string;
  ++count_;
  std::size_t hs, hu;
  range(e.harem_start, e.harem_end, &hs, &hu);
  json_.open('{');
  json_extent(e.start, e.end, e.text);
  json_.key("type").string(to_string(e.type));
  json_.key("value").string(e.value);
  json_.key("chronons").open('[');
  for (const auto& c : e.chronons) json_.string(c.to_string());
  json_.close(']');
  json_.key("harem").open('{');
  json_.key("type").string(to_string(e.harem_type));
  if (e.harem_subtype != temporal::HaremSubtype::None) json_.key("subtype").string(to_string(e.harem_subtype));
  json_.key("start").number(hs);
  json_.key("end").number(hu);
  json_.close('}');
  json_.key("reference").string(to_string(e.reference));
  json_.key("resolved").boolean(e.resolved);
  if (!e.endpoints.empty()) {
    json_.key("endpoints").open('[');
    for (const auto& p : e.endpoints) {
      json_.open('{');
      json_extent(p.start, p.end, p.text);
      json_.key("type").string(to_string(p.type));
      json_.key("value").string(p.value);
      json_.close('}');
    }
    json_.close(']');
  }
  json_.close('}');
}

void TagWriter::json_mention(const temporal::TemporalExpression& e, const eval::SchemeMention& m,
                             std::string_view text) {
  ++count_;
  const auto [tipo, subtipo] = harem_names(e, m, scheme_);
  json_.open('{');
  json_extent(m.start, m.end, text.substr(m.start, m.end - m.start));
  json_.key("type").string(tipo);
  if (!subtipo.empty()) json_.key("subtype").string(subtipo);
  json_.key("timex_type").string(temporal::to_string(m.timex));
  json_.key("value").string(m.value);
  json_.key("reference").string(temporal::to_string(e.reference));
  json_.key("resolved").boolean(e.resolved);
  json_.close('}');
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
    case TagFormat::Json:
      json_.close(']');
      json_.close('}');
      buf_.push_back('\n');
      break;
    case TagFormat::Timex3: buf_ += "</TEXT>\n</TimeML>\n"; break;
    case TagFormat::Harem: break;
  }
  out_.write(buf_.data(), static_cast<std::streamsize>(buf_.size()));
  buf_.clear();
  out_.flush();
  return out_.good();
}

}  // namespace cronista::cli
