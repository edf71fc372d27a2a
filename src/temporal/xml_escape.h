// Escaping text for XML and HTML output (element content and attribute
// values): & < > " become entities; the C0 control characters XML 1.0
// forbids even as references (all but tab, newline and carriage return)
// become spaces, so the output is always well-formed.
#pragma once

#include <string>
#include <string_view>

namespace cronista::temporal {

void append_xml_escaped(std::string* out, std::string_view s);
std::string xml_escape(std::string_view s);

}  // namespace cronista::temporal
