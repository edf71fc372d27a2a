// HTML to TextDocument, with gumbo (HTML5 parsing, so malformed pages parse
// as browsers would). Scripts, styles and templates are dropped; block
// elements become blocks; <a href> become links at their place in the text;
// navigation/header/footer/aside are kept but marked boilerplate. The
// document date is read from <meta> (article:published_time, date, DC.date…),
// JSON-LD "datePublished", microdata/RDFa datePublished, <time datetime> and,
// last, a /YYYY/MM/DD/ canonical URL (html_text.cc gives the order).
#pragma once

#include <string_view>

#include "temporal/document.h"

namespace cronista::temporal {

// `html` must be UTF-8 (charset conversion is the fetcher's job); invalid
// bytes are replaced by U+FFFD in the text. Never fails: garbage in gives
// whatever text gumbo recovers. Time and memory stay linear in the input:
// nesting past 512 open elements, elements past 200,000 and links past
// 100,000 are not parsed as markup, their text is kept (html_limits.h).
TextDocument html_document(std::string_view html);

}  // namespace cronista::temporal
