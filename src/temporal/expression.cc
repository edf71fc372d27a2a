#include "temporal/expression.h"

namespace cronista::temporal {

std::string_view to_string(TimexType t) {
  switch (t) {
    case TimexType::Date: return "DATE";
    case TimexType::Time: return "TIME";
    case TimexType::Duration: return "DURATION";
    case TimexType::Set: return "SET";
  }
  return "DATE";
}

std::string_view to_string(HaremType t) {
  switch (t) {
    case HaremType::CalendarRef: return "CALENDAR_REF";
    case HaremType::Duration: return "DURATION";
    case HaremType::Frequency: return "FREQUENCY";
    case HaremType::Generic: return "GENERIC";
  }
  return "CALENDAR_REF";
}

std::string_view to_string(HaremSubtype t) {
  switch (t) {
    case HaremSubtype::None: return "";
    case HaremSubtype::Date: return "DATE";
    case HaremSubtype::Hour: return "HOUR";
    case HaremSubtype::Interval: return "INTERVAL";
  }
  return "";
}

std::string_view to_string(Reference r) {
  switch (r) {
    case Reference::Explicit: return "explicit";
    case Reference::Implicit: return "implicit";
    case Reference::Deictic: return "deictic";
    case Reference::Anaphoric: return "anaphoric";
    case Reference::Vague: return "vague";
  }
  return "explicit";
}

}  // namespace cronista::temporal
