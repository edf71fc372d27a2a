// The genre of a text, as HeidelTime has document types: it decides how an
// expression with neither tense nor explicit anchor resolves ("segunda-feira",
// "no Natal", "às 3", "no dia 12", "em março").
//
//   news        the occurrence nearest the document date, moved to the past or
//               the future by the verb's tense (the default; TimeML news);
//   narrative   as news, but relative to the last date the text mentioned,
//               not to its publication date (histories, novels, biographies);
//   colloquial  the next occurrence unless the tense says past (messages,
//               forums, agendas, assistants: "sábado tem jogo");
//   scientific  the document date anchors nothing: deictic expressions stay
//               relative to the text's own dates or unresolved.
#pragma once

#include <optional>
#include <string_view>

namespace cronista::temporal {

enum class Genre { News, Narrative, Colloquial, Scientific };

std::string_view to_string(Genre g);  // "news", "narrative", "colloquial", "scientific"
std::optional<Genre> parse_genre(std::string_view name);

}  // namespace cronista::temporal
