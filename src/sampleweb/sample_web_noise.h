// Numeric noise for the sample web's page furniture: an address line with a
// street number, a postal code and a telephone number, and a visit count, whose
// digits look like years of the periods crawled ("Rua da Paz, n.º 1941,
// 1943-117 Lisboa · Tel. 219 441 945") but are no dates. The words come from
// corpora/sample-web/sites.txt (the `address` and `visits` templates, the
// [street] and [place] lists). Deterministic: a function of the seed and the
// page only, drawing nothing from the generator's random stream, so adding it
// moves no other byte of the web.
#pragma once

#include <cstdint>
#include <string>

#include "sampleweb/sample_web_corpus.h"

namespace cronista::sampleweb {

// The address line of `site`'s furniture on page `page`; empty when the
// corpus has no address template or no streets or places.
std::string noise_address(const SampleCorpus& corpus, const std::string& site, std::uint64_t seed, int page);

// "Esta página teve 1944 visitas.": a count that looks like a year.
std::string noise_visits(const SampleCorpus& corpus, const std::string& site, std::uint64_t seed, int page);

}  // namespace cronista::sampleweb
