// Reads HAREM golden collections (colHAREM/DOC/EM XML): one GoldDocument per
// DOC, whose gold expressions are the EMs whose CATEG includes TEMPO.
//
// Text: white space runs become one space (the Second HAREM files are
// pretty-printed), and a paragraph (<P>) ends with a newline. <ALT> keeps the
// first alternative's text; the TEMPO EMs of every alternative are gold, each
// tagged with its ALT group and alternative so that scoring can keep the best
// one. <OMITIDO> text is kept but its range is excluded from scoring.
// Publication dates come from a "<file stem>.meta.json" beside the XML
// (DATA-CRIACAO, YYYYMMDD), when there is one.
#pragma once

#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "eval/gold.h"
#include "temporal/status.h"

namespace cronista::eval {

// `dates` maps DOCID to a publication date.
Result<std::vector<GoldDocument>> parse_harem(std::string_view xml, const std::string& name,
                                              const std::unordered_map<std::string, temporal::Date>& dates);
// Reads the XML and, if present, its .meta.json.
Result<std::vector<GoldDocument>> read_harem(const std::string& path);

}  // namespace cronista::eval
