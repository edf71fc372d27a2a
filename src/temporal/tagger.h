// The Portuguese temporal tagger: annotator (method.md §2.2) + date resolver
// (§2.3), loaded once from resources/pt and the pattern files, then used from
// any number of threads (tag() is const and keeps no mutable state).
//
//   auto tagger = Tagger::load(TaggerOptions{.home = "/path/to/cronista"});
//   if (!tagger.ok()) { report(tagger.status().message()); }
//   auto found = (*tagger)->tag(text, Date{1998, 2, 13});
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "temporal/chronon.h"
#include "temporal/expression.h"
#include "temporal/genre.h"
#include "temporal/status.h"

namespace cronista::temporal {

struct TaggerOptions {
  // Folder holding resources/pt/ and patterns/ (see default_home()).
  std::string home;
  // Pattern files to load, in order (later files layer over earlier ones).
  // Empty: <home>/patterns/pt.patterns and <home>/patterns/pt.manual.patterns.
  std::vector<std::string> pattern_files;
  // How expressions without tense or explicit anchor resolve (genre.h).
  Genre genre = Genre::News;
};

// The folder the program finds resources/ and patterns/ in: $CRONISTA_HOME if
// set, else the source tree the program was built from.
std::string default_home();

// What tagging leaves for the text that follows: the last date and the last
// quarter mentioned (-1 = a part not known), which anaphoric expressions
// ("no ano seguinte", "o trimestre") refer to. A long text tagged in pieces,
// one TagState passed from each piece to the next, resolves as it would
// whole (as long as no expression spans two pieces).
struct TagState {
  struct Point {
    int year = -1, month = -1, day = -1, quarter = -1;
  };
  std::optional<Point> anchor;
  std::optional<Point> quarter;
};

// A text scanned by Tagger::scan(): its candidate expressions found,
// checked and classified, not yet resolved.
class ScannedText {
 public:
  virtual ~ScannedText() = default;
};

class Tagger {
 public:
  virtual ~Tagger() = default;

  // Loads and compiles everything; a missing or malformed resource is an error
  // naming the file and line.
  static Result<std::unique_ptr<Tagger>> load(const TaggerOptions& options);

  // Finds, classifies and resolves the temporal expressions of a UTF-8 text.
  // `dct` anchors deictic expressions; anaphoric ones use the last date
  // mentioned before them. Offsets are byte offsets into `text`. Expressions
  // come sorted by start and never overlap.
  virtual std::vector<TemporalExpression> tag(std::string_view text,
                                              const std::optional<Date>& dct) const = 0;
  // The same, starting from and updating `state` (may be null). A tagger
  // that keeps no state between expressions may leave this as it is.
  virtual std::vector<TemporalExpression> tag(std::string_view text, const std::optional<Date>& dct,
                                              TagState* /*state*/) const {
    return tag(text, dct);
  }

  // tag() in two halves, for a long text tagged in pieces on several
  // threads. scan() is the order-free half (folding, pattern matching, the
  // checks of each expression's context): pieces may be scanned at once, on
  // any threads. resolve() is the half that depends on what came before
  // (dates resolved against the anchors of the earlier text): it takes the
  // pieces in order, each with the text given to scan(), one TagState
  // carried from each to the next. resolve(text, *scan(text), dct, state)
  // is tag(text, dct, state). A tagger that does not split its work may
  // leave these as they are (scan() does nothing, resolve() tags).
  virtual std::unique_ptr<ScannedText> scan(std::string_view /*text*/) const {
    return std::make_unique<ScannedText>();
  }
  virtual std::vector<TemporalExpression> resolve(std::string_view text, const ScannedText& /*scanned*/,
                                                  const std::optional<Date>& dct, TagState* state) const {
    return tag(text, dct, state);
  }
};

}  // namespace cronista::temporal
