// Faults of the sample web that live in the bytes of a page: the Latin-1
// newspaper archive and the malformed HTML of old pages. (Which pages get
// them is decided in sample_web.cc; invalid UTF-8 is a paragraph written by
// sample_web_pages.cc; robots rules, redirects and 404s by the planner and
// the links.)
#include "sampleweb/sample_web_generator.h"

namespace cronista::sampleweb::gen {

// UTF-8 → ISO-8859-1; characters outside Latin-1 become '?'.
std::string to_latin1(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  for (std::size_t i = 0; i < s.size();) {
    const unsigned char c = static_cast<unsigned char>(s[i]);
    if (c < 0x80) {
      out += static_cast<char>(c);
      ++i;
    } else if ((c & 0xE0) == 0xC0 && i + 1 < s.size()) {
      const unsigned cp = ((c & 0x1Fu) << 6) | (static_cast<unsigned char>(s[i + 1]) & 0x3Fu);
      out += cp <= 0xFF ? static_cast<char>(cp) : '?';
      i += 2;
    } else {
      out += '?';
      i += (c & 0xF0) == 0xE0 ? 3 : (c & 0xF8) == 0xF0 ? 4 : 1;
    }
  }
  return out;
}

std::string malformed_html(const std::string& html) {
  // Browsers cope with all of this; so must the crawler.
  std::string bad;
  bad.reserve(html.size());
  for (std::size_t i = 0; i < html.size();) {
    if (html.compare(i, 4, "</p>") == 0 || html.compare(i, 5, "</li>") == 0) {
      i += html[i + 2] == 'p' ? 4 : 5;
    } else if (html.compare(i, 3, "<p>") == 0) {
      bad += "<P>";
      i += 3;
    } else {
      bad += html[i++];
    }
  }
  const std::size_t main_at = bad.find("<main>");
  if (main_at != std::string::npos) bad.insert(main_at + 6, "<div class=nao-fechado><span>");
  const std::size_t end = bad.find("</body>");
  if (end != std::string::npos) bad.insert(end, "</b></i></td>");
  return bad;
}

}  // namespace cronista::sampleweb::gen
