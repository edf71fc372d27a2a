// Charset sniffing and conversion to UTF-8 (see charset.h for the order of
// the evidence). UTF-8 input is validated and repaired by our own scanner
// (no ICU round trip on the common path); any other charset goes through
// ICU: ucnv with a callback that writes U+FFFD and counts, then UTF-16 →
// UTF-8. Detection uses ICU's ucsdet on the first 64 KiB with its HTML tag
// filter on, after a cheap UTF-8 check that settles most pages.
#include "crawler/charset.h"

#include "crawler/ascii.h"

#include <unicode/ucnv.h>
#include <unicode/ucnv_cb.h>
#include <unicode/ucsdet.h>
#include <unicode/ustring.h>

#include <cctype>
#include <cstring>
#include <memory>
#include <vector>

namespace cronista::crawler {
namespace {

constexpr std::size_t kPrescanBytes = 4096;
constexpr std::size_t kDetectBytes = 64 * 1024;

bool is_space(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\f' || c == '\r'; }

std::string_view trim(std::string_view s) {
  while (!s.empty() && is_space(s.front())) s.remove_prefix(1);
  while (!s.empty() && is_space(s.back())) s.remove_suffix(1);
  return s;
}

bool istarts_with(std::string_view s, std::string_view prefix) {
  if (s.size() < prefix.size()) return false;
  for (std::size_t i = 0; i < prefix.size(); ++i)
    if (ascii_lower(s[i]) != prefix[i]) return false;
  return true;
}

// ---- UTF-8 scanning -------------------------------------------------------

// Length of the well-formed UTF-8 sequence at p (n bytes available), or 0
// when ill-formed; then *bad is the length of the maximal subpart to replace
// by one U+FFFD (Unicode §3.9, "best practice").
inline std::size_t utf8_sequence(const unsigned char* p, std::size_t n, std::size_t* bad) {
  const unsigned char c = p[0];
  if (c < 0x80) return 1;
  auto cont = [&](std::size_t i, unsigned char lo, unsigned char hi) { return i < n && p[i] >= lo && p[i] <= hi; };
  if (c < 0xC2 || c > 0xF4) {
    *bad = 1;
    return 0;
  }
  if (c < 0xE0) {
    if (cont(1, 0x80, 0xBF)) return 2;
    *bad = 1;
    return 0;
  }
  if (c < 0xF0) {
    const unsigned char lo = c == 0xE0 ? 0xA0 : 0x80, hi = c == 0xED ? 0x9F : 0xBF;
    if (!cont(1, lo, hi)) {
      *bad = 1;
      return 0;
    }
    if (!cont(2, 0x80, 0xBF)) {
      *bad = 2;
      return 0;
    }
    return 3;
  }
  const unsigned char lo = c == 0xF0 ? 0x90 : 0x80, hi = c == 0xF4 ? 0x8F : 0xBF;
  if (!cont(1, lo, hi)) {
    *bad = 1;
    return 0;
  }
  if (!cont(2, 0x80, 0xBF)) {
    *bad = 2;
    return 0;
  }
  if (!cont(3, 0x80, 0xBF)) {
    *bad = 3;
    return 0;
  }
  return 4;
}

inline bool ascii_block(const unsigned char* p) {
  std::uint64_t v;
  std::memcpy(&v, p, 8);
  return (v & 0x8080808080808080ULL) == 0;
}

struct Utf8Stats {
  std::size_t multibyte = 0;  // well-formed sequences of 2-4 bytes
  std::size_t invalid = 0;    // maximal ill-formed subparts
};

Utf8Stats utf8_stats(std::string_view s, std::size_t limit) {
  Utf8Stats st;
  const auto* p = reinterpret_cast<const unsigned char*>(s.data());
  const std::size_t n = std::min(s.size(), limit);
  std::size_t i = 0;
  while (i < n) {
    if (i + 8 <= n && ascii_block(p + i)) {
      i += 8;
      continue;
    }
    std::size_t bad = 0;
    const std::size_t len = utf8_sequence(p + i, n - i, &bad);
    if (len == 0) {
      // A sequence cut by `limit` is not an error.
      if (n < s.size() && i + 4 > n) break;
      ++st.invalid;
      i += bad;
    } else {
      if (len > 1) ++st.multibyte;
      i += len;
    }
  }
  return st;
}

// ---- labels ---------------------------------------------------------------

struct LabelGroup {
  const char* name;     // canonical name we report (an ICU alias too)
  const char* labels;   // space-separated, lower case
};

// The WHATWG Encoding standard's labels for the encodings seen on the web,
// mapped to names ICU's converters accept.
constexpr LabelGroup kLabels[] = {
    {"UTF-8", "unicode-1-1-utf-8 unicode11utf8 unicode20utf8 utf-8 utf8 x-unicode20utf8"},
    {"windows-1252",
     "ansi_x3.4-1968 ascii cp1252 cp819 csisolatin1 ibm819 iso-8859-1 iso-ir-100 iso8859-1 iso88591 iso_8859-1 "
     "iso_8859-1:1987 l1 latin1 us-ascii windows-1252 x-cp1252 x-user-defined"},
    {"ISO-8859-15", "csisolatin9 iso-8859-15 iso8859-15 iso885915 iso_8859-15 l9 latin9 latin-9"},
    {"ISO-8859-2", "csisolatin2 iso-8859-2 iso-ir-101 iso8859-2 iso88592 iso_8859-2 iso_8859-2:1987 l2 latin2"},
    {"windows-1250", "cp1250 windows-1250 x-cp1250"},
    {"windows-1251", "cp1251 windows-1251 x-cp1251"},
    {"windows-1253", "cp1253 windows-1253 x-cp1253"},
    {"windows-1254",
     "cp1254 csisolatin5 iso-8859-9 iso-ir-148 iso8859-9 iso88599 iso_8859-9 iso_8859-9:1989 l5 latin5 "
     "windows-1254 x-cp1254"},
    {"windows-1255", "cp1255 windows-1255 x-cp1255"},
    {"windows-1256", "cp1256 windows-1256 x-cp1256"},
    {"windows-1257", "cp1257 windows-1257 x-cp1257"},
    {"windows-1258", "cp1258 windows-1258 x-cp1258"},
    {"KOI8-R", "cskoi8r koi koi8 koi8-r koi8_r"},
    {"KOI8-U", "koi8-ru koi8-u"},
    {"GBK", "chinese csgb2312 csiso58gb231280 gb2312 gb_2312 gb_2312-80 gbk iso-ir-58 x-gbk"},
    {"GB18030", "gb18030"},
    {"Big5", "big5 big5-hkscs cn-big5 csbig5 x-x-big5"},
    {"Shift_JIS", "csshiftjis ms932 ms_kanji shift-jis shift_jis sjis windows-31j x-sjis"},
    {"EUC-JP", "cseucpkdfmtjapanese euc-jp x-euc-jp"},
    {"ISO-2022-JP", "csiso2022jp iso-2022-jp"},
    {"EUC-KR",
     "cseuckr csksc56011987 euc-kr iso-ir-149 korean ks_c_5601-1987 ks_c_5601-1989 ksc5601 ksc_5601 windows-949"},
    {"UTF-16LE", "csunicode iso-10646-ucs-2 ucs-2 unicode unicodefeff utf-16 utf-16le"},
    {"UTF-16BE", "unicodefffe utf-16be"},
    {"macintosh", "csmacintosh mac macintosh x-mac-roman"},
};

std::string resolve_known_label(std::string_view label) {
  const std::string l = ascii_lowered(trim(label));
  if (l.empty()) return {};
  for (const LabelGroup& g : kLabels) {
    std::string_view labels = g.labels;
    while (!labels.empty()) {
      const std::size_t sp = labels.find(' ');
      const std::string_view one = labels.substr(0, sp);
      if (one == l) return g.name;
      if (sp == std::string_view::npos) break;
      labels.remove_prefix(sp + 1);
    }
  }
  return {};
}

// ---- HTML prescan (HTML5 §13.2.3.2, simplified) ----------------------------

struct Attribute {
  std::string name, value;
};

// Reads one attribute at *pos; false at ">" or the end.
bool next_attribute(std::string_view s, std::size_t* pos, Attribute* attr) {
  std::size_t i = *pos;
  while (i < s.size() && (is_space(s[i]) || s[i] == '/')) ++i;
  if (i >= s.size() || s[i] == '>') {
    *pos = i;
    return false;
  }
  attr->name.clear();
  attr->value.clear();
  while (i < s.size() && !is_space(s[i]) && s[i] != '/' && s[i] != '>' && !(s[i] == '=' && !attr->name.empty())) {
    attr->name.push_back(ascii_lower(s[i]));
    ++i;
  }
  while (i < s.size() && is_space(s[i])) ++i;
  if (i >= s.size() || s[i] != '=') {
    *pos = i;
    return true;
  }
  ++i;
  while (i < s.size() && is_space(s[i])) ++i;
  if (i < s.size() && (s[i] == '"' || s[i] == '\'')) {
    const char q = s[i++];
    const std::size_t end = s.find(q, i);
    const std::size_t stop = end == std::string_view::npos ? s.size() : end;
    for (std::size_t k = i; k < stop; ++k) attr->value.push_back(ascii_lower(s[k]));
    *pos = end == std::string_view::npos ? s.size() : end + 1;
    return true;
  }
  while (i < s.size() && !is_space(s[i]) && s[i] != '>') attr->value.push_back(ascii_lower(s[i++]));
  *pos = i;
  return true;
}

// "text/html; charset=foo" → "foo" (HTML5 "extracting a character encoding
// from a meta element"; also fine for HTTP headers).
std::string charset_in_content(std::string_view content) {
  std::size_t i = 0;
  while (true) {
    std::size_t found = std::string_view::npos;
    for (std::size_t k = i; k + 7 <= content.size(); ++k) {
      if (istarts_with(content.substr(k), "charset")) {
        found = k;
        break;
      }
    }
    if (found == std::string_view::npos) return {};
    i = found + 7;
    while (i < content.size() && is_space(content[i])) ++i;
    if (i >= content.size() || content[i] != '=') continue;
    ++i;
    while (i < content.size() && is_space(content[i])) ++i;
    if (i >= content.size()) return {};
    if (content[i] == '"' || content[i] == '\'') {
      const char q = content[i];
      const std::size_t end = content.find(q, i + 1);
      if (end == std::string_view::npos) return {};
      return std::string(content.substr(i + 1, end - i - 1));
    }
    std::size_t end = i;
    while (end < content.size() && !is_space(content[end]) && content[end] != ';') ++end;
    return std::string(content.substr(i, end - i));
  }
}

// ---- conversion -----------------------------------------------------------

struct ConverterDeleter {
  void operator()(UConverter* c) const { ucnv_close(c); }
};
using ConverterPtr = std::unique_ptr<UConverter, ConverterDeleter>;

void substitute_and_count(const void* context, UConverterToUnicodeArgs* args, const char*, int32_t,
                          UConverterCallbackReason reason, UErrorCode* err) {
  if (reason > UCNV_IRREGULAR) return;  // reset, close, clone
  ++*static_cast<std::size_t*>(const_cast<void*>(context));
  static const UChar kReplacement = 0xFFFD;
  *err = U_ZERO_ERROR;
  ucnv_cbToUWriteUChars(args, &kReplacement, 1, 0, err);
}

// Converts with ICU; false if ICU has no converter by that name.
bool convert_with_icu(std::string_view body, const std::string& charset, std::string* out, std::size_t* replaced) {
  UErrorCode err = U_ZERO_ERROR;
  ConverterPtr conv(ucnv_open(charset.c_str(), &err));
  if (U_FAILURE(err) || !conv) return false;
  std::size_t count = 0;
  ucnv_setToUCallBack(conv.get(), substitute_and_count, &count, nullptr, nullptr, &err);
  if (U_FAILURE(err)) return false;
  if (body.size() > static_cast<std::size_t>(INT32_MAX / 2 - 16)) body = body.substr(0, INT32_MAX / 2 - 16);
  std::u16string utf16(body.size() * 2 + 16, u'\0');
  err = U_ZERO_ERROR;
  int32_t n = ucnv_toUChars(conv.get(), reinterpret_cast<UChar*>(utf16.data()), static_cast<int32_t>(utf16.size()),
                            body.data(), static_cast<int32_t>(body.size()), &err);
  if (err == U_BUFFER_OVERFLOW_ERROR) {
    utf16.assign(static_cast<std::size_t>(n) + 1, u'\0');
    count = 0;
    ucnv_reset(conv.get());
    err = U_ZERO_ERROR;
    n = ucnv_toUChars(conv.get(), reinterpret_cast<UChar*>(utf16.data()), static_cast<int32_t>(utf16.size()),
                      body.data(), static_cast<int32_t>(body.size()), &err);
  }
  if (U_FAILURE(err)) return false;
  // UTF-16 → UTF-8; unpaired surrogates (possible from UTF-16 input) become U+FFFD.
  int32_t needed = 0;
  int32_t subs = 0;
  err = U_ZERO_ERROR;
  u_strToUTF8WithSub(nullptr, 0, &needed, reinterpret_cast<const UChar*>(utf16.data()), n, 0xFFFD, &subs, &err);
  if (err != U_BUFFER_OVERFLOW_ERROR && U_FAILURE(err)) return false;
  out->assign(static_cast<std::size_t>(needed), '\0');
  err = U_ZERO_ERROR;
  u_strToUTF8WithSub(out->data(), needed, &needed, reinterpret_cast<const UChar*>(utf16.data()), n, 0xFFFD, &subs,
                     &err);
  if (U_FAILURE(err) && err != U_STRING_NOT_TERMINATED_WARNING) return false;
  *replaced = count + static_cast<std::size_t>(subs);
  return true;
}

struct DetectorDeleter {
  void operator()(UCharsetDetector* d) const { ucsdet_close(d); }
};

// ICU's guess, resolved to our names; empty when it has none.
std::string detect_with_icu(std::string_view body) {
  UErrorCode err = U_ZERO_ERROR;
  std::unique_ptr<UCharsetDetector, DetectorDeleter> det(ucsdet_open(&err));
  if (U_FAILURE(err)) return {};
  ucsdet_enableInputFilter(det.get(), true);
  const std::string_view sample = body.substr(0, kDetectBytes);
  ucsdet_setText(det.get(), sample.data(), static_cast<int32_t>(sample.size()), &err);
  const UCharsetMatch* match = ucsdet_detect(det.get(), &err);
  if (U_FAILURE(err) || match == nullptr) return {};
  const char* name = ucsdet_getName(match, &err);
  if (U_FAILURE(err) || name == nullptr) return {};
  const std::string resolved = resolve_known_label(name);
  return resolved.empty() ? std::string(name) : resolved;
}

}  // namespace

bool is_valid_utf8(std::string_view s, std::size_t* bad_offset) {
  const auto* p = reinterpret_cast<const unsigned char*>(s.data());
  const std::size_t n = s.size();
  std::size_t i = 0;
  while (i < n) {
    if (i + 8 <= n && ascii_block(p + i)) {
      i += 8;
      continue;
    }
    std::size_t bad = 0;
    const std::size_t len = utf8_sequence(p + i, n - i, &bad);
    if (len == 0) {
      if (bad_offset) *bad_offset = i;
      return false;
    }
    i += len;
  }
  return true;
}

std::string sanitize_utf8(std::string_view s, std::size_t* replaced) {
  std::size_t count = 0;
  std::size_t first_bad = 0;
  if (is_valid_utf8(s, &first_bad)) {
    if (replaced) *replaced = 0;
    return std::string(s);
  }
  std::string out;
  out.reserve(s.size() + 16);
  out.append(s.substr(0, first_bad));
  const auto* p = reinterpret_cast<const unsigned char*>(s.data());
  std::size_t i = first_bad;
  while (i < s.size()) {
    std::size_t bad = 0;
    const std::size_t len = utf8_sequence(p + i, s.size() - i, &bad);
    if (len == 0) {
      out.append("\xEF\xBF\xBD");
      ++count;
      i += bad;
    } else {
      out.append(s.substr(i, len));
      i += len;
    }
  }
  if (replaced) *replaced = count;
  return out;
}

std::string charset_from_content_type(std::string_view content_type) {
  std::string v = charset_in_content(content_type);
  return std::string(trim(v));
}

std::string resolve_charset_label(std::string_view label) {
  std::string known = resolve_known_label(label);
  if (!known.empty()) return known;
  const std::string l(trim(label));
  if (l.empty() || l.size() > 64) return {};
  UErrorCode err = U_ZERO_ERROR;
  ConverterPtr conv(ucnv_open(l.c_str(), &err));
  if (U_FAILURE(err) || !conv) return {};
  const char* name = ucnv_getName(conv.get(), &err);
  if (U_FAILURE(err) || name == nullptr) return {};
  for (const char* standard : {"MIME", "IANA"}) {
    UErrorCode e2 = U_ZERO_ERROR;
    const char* std_name = ucnv_getStandardName(name, standard, &e2);
    if (U_SUCCESS(e2) && std_name != nullptr) return std_name;
  }
  return name;
}

std::string prescan_meta_charset(std::string_view html) {
  const std::string_view s = html.substr(0, kPrescanBytes);
  std::size_t pos = 0;
  Attribute attr;
  while (pos < s.size()) {
    const std::string_view rest = s.substr(pos);
    if (rest.substr(0, 4) == "<!--") {
      const std::size_t end = s.find("-->", pos + 4);
      if (end == std::string_view::npos) return {};
      pos = end + 3;
    } else if (istarts_with(rest, "<meta") && rest.size() > 5 && (is_space(rest[5]) || rest[5] == '/')) {
      pos += 5;
      bool got_pragma = false, need_pragma_known = false, need_pragma = false;
      std::string charset;
      std::vector<std::string> seen;
      while (next_attribute(s, &pos, &attr)) {
        bool dup = false;
        for (const auto& n : seen) dup = dup || n == attr.name;
        if (dup) continue;
        seen.push_back(attr.name);
        if (attr.name == "http-equiv") {
          if (attr.value == "content-type") got_pragma = true;
        } else if (attr.name == "content") {
          if (charset.empty()) {
            std::string c = charset_in_content(attr.value);
            if (!c.empty()) {
              charset = c;
              need_pragma_known = true;
              need_pragma = true;
            }
          }
        } else if (attr.name == "charset") {
          charset = attr.value;
          need_pragma_known = true;
          need_pragma = false;
        }
      }
      if (!need_pragma_known || (need_pragma && !got_pragma) || charset.empty()) continue;
      return std::string(trim(charset));
    } else if (rest.size() > 1 && rest[0] == '<' &&
               (std::isalpha(static_cast<unsigned char>(rest[1])) ||
                (rest[1] == '/' && rest.size() > 2 && std::isalpha(static_cast<unsigned char>(rest[2]))))) {
      pos += rest[1] == '/' ? 2 : 1;
      while (pos < s.size() && !is_space(s[pos]) && s[pos] != '>') ++pos;
      while (next_attribute(s, &pos, &attr)) {
      }
      ++pos;
    } else if (rest.size() > 1 && rest[0] == '<' && (rest[1] == '!' || rest[1] == '/' || rest[1] == '?')) {
      const std::size_t end = s.find('>', pos + 2);
      if (end == std::string_view::npos) return {};
      pos = end + 1;
    } else {
      ++pos;
    }
  }
  return {};
}

DecodedText decode_to_utf8(std::string_view body, std::string_view content_type) {
  DecodedText out;
  std::string charset;
  std::string from;

  // 1. Byte order mark.
  if (body.substr(0, 3) == "\xEF\xBB\xBF") {
    charset = "UTF-8";
    body.remove_prefix(3);
  } else if (body.substr(0, 2) == "\xFF\xFE") {
    charset = "UTF-16LE";
    body.remove_prefix(2);
  } else if (body.substr(0, 2) == "\xFE\xFF") {
    charset = "UTF-16BE";
    body.remove_prefix(2);
  }
  if (!charset.empty()) from = "bom";

  // 2. HTTP header, 3. <meta>.
  if (charset.empty()) {
    charset = resolve_charset_label(charset_from_content_type(content_type));
    if (!charset.empty()) from = "header";
  }
  if (charset.empty()) {
    charset = resolve_charset_label(prescan_meta_charset(body));
    // A document that could declare itself in ASCII is not UTF-16 (HTML5).
    if (charset == "UTF-16LE" || charset == "UTF-16BE") charset = "UTF-8";
    if (!charset.empty()) from = "meta";
  }

  // Declarations contradicted by the bytes, and no declaration at all.
  if (from == "header" || from == "meta" || from.empty()) {
    const Utf8Stats st = utf8_stats(body, kDetectBytes);
    const bool looks_utf8 = st.invalid == 0 ? true : st.multibyte > st.invalid;
    if (from.empty()) {
      if (st.invalid == 0) {
        charset = "UTF-8";
        from = st.multibyte > 0 ? "detected" : "default";
      } else if (looks_utf8) {
        charset = "UTF-8";
        from = "detected";
      }
    } else if (charset == "UTF-8" && !looks_utf8) {
      charset.clear();
    } else if (charset != "UTF-8" && charset != "UTF-16LE" && charset != "UTF-16BE" && st.invalid == 0 &&
               st.multibyte > 0) {
      // Legacy text (single- or multi-byte) that happens to be well-formed
      // UTF-8 throughout is vanishingly rare; a page re-saved as UTF-8 that
      // kept its old declaration is common.
      charset = "UTF-8";
      from = "detected";
    }
    if (charset.empty()) {
      charset = detect_with_icu(body);
      from = "detected";
      if (charset.empty() || charset == "UTF-8") {
        charset = "windows-1252";
        from = "default";
      }
    }
  }

  out.charset = charset;
  out.charset_from = from;
  if (charset == "UTF-8") {
    out.utf8 = sanitize_utf8(body, &out.replaced);
    return out;
  }
  if (!convert_with_icu(body, charset, &out.utf8, &out.replaced)) {
    out.charset = "windows-1252";
    out.charset_from = "default";
    convert_with_icu(body, out.charset, &out.utf8, &out.replaced);
  }
  return out;
}

}  // namespace cronista::crawler
