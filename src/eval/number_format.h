// Numbers as the evaluators' tables and CSV files write them.
#pragma once

#include <cstdio>
#include <string>

namespace cronista::eval {

// `v` with `decimals` digits after the point ("%.*f").
inline std::string fixed(double v, int decimals = 4) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*f", decimals, v);
  return buf;
}

}  // namespace cronista::eval
