#include <cstdlib>
#include <string>

#include "temporal/tagger.h"

namespace cronista::temporal {

std::string default_home() {
  if (const char* env = std::getenv("CRONISTA_HOME"); env != nullptr && *env != '\0') return env;
  return CRONISTA_DEFAULT_HOME;
}

}  // namespace cronista::temporal
