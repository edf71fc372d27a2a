#include "temporal/genre.h"

namespace cronista::temporal {

std::string_view to_string(Genre g) {
  switch (g) {
    case Genre::News: return "news";
    case Genre::Narrative: return "narrative";
    case Genre::Colloquial: return "colloquial";
    case Genre::Scientific: return "scientific";
  }
  return "news";
}

std::optional<Genre> parse_genre(std::string_view name) {
  for (Genre g : {Genre::News, Genre::Narrative, Genre::Colloquial, Genre::Scientific})
    if (to_string(g) == name) return g;
  return std::nullopt;
}

}  // namespace cronista::temporal
