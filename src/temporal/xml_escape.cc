#include "temporal/xml_escape.h"

namespace cronista::temporal {

void append_xml_escaped(std::string* out, std::string_view s) {
  for (char c : s) {
    switch (c) {
      case '&': *out += "&amp;"; break;
      case '<': *out += "&lt;"; break;
      case '>': *out += "&gt;"; break;
      case '"': *out += "&quot;"; break;
      default:
        if (static_cast<unsigned char>(c) < 0x20 && c != '\t' && c != '\n' && c != '\r') *out += ' ';
        else *out += c;
    }
  }
}

std::string xml_escape(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  append_xml_escaped(&out, s);
  return out;
}

}  // namespace cronista::temporal
