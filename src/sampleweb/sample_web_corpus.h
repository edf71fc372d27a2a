// The texts the sample web is written from (corpora/sample-web/, format in
// its README.md): facts with their dates, free paragraphs with their true
// periods, date forms, number words, holidays, filler sentences and the
// words of each site's furniture. Loading checks what the generator relies
// on (every fact has a parseable date, titles carry no digits or month
// names, every form section exists) and names the file and line at fault.
#pragma once

#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "temporal/chronon.h"
#include "temporal/status.h"

namespace cronista::sampleweb {

// An inclusive run of days.
struct DaySpan {
  temporal::Date first;
  temporal::Date last;
  temporal::DayNumber mid() const { return (first.day_number() + last.day_number()) / 2; }
  friend bool operator==(const DaySpan&, const DaySpan&) = default;
};

// How precisely a fact's date is known, which decides how it can be written.
enum class DateGrain { Day, Month, Year, DayRange, YearRange };

struct DateSpec {
  DaySpan span;
  DateGrain grain = DateGrain::Day;
  // "YYYY", "YYYY-MM", "YYYY-MM-DD", or two of them joined by "..".
  static Result<DateSpec> parse(std::string_view text);
};

struct Fact {
  DateSpec when;
  std::string title;   // short, no dates: used as a page title and link anchor
  std::string clause;  // lower-case start, no final stop: "a Alemanha invadiu a Polónia"
  int file = 0;        // index into SampleCorpus::files
};

// A hand-written paragraph with its dates in the text and its true periods.
struct FreeParagraph {
  std::vector<DaySpan> periods;
  std::string text;
  int file = 0;
};

struct FactFile {
  std::string name;      // file stem: "segunda-guerra"
  std::string category;  // "Segunda Guerra Mundial"
  int weight = 1;
  std::string variant;   // "pt-PT" or "pt-BR"
};

struct SampleCorpus {
  std::vector<std::string> months;                 // 12 lower-case names
  std::map<int, std::string> number_words;         // 2 → "dois"
  std::map<std::string, std::string> holidays;     // "12-25" → "Natal"
  std::map<std::string, std::vector<std::string>> forms;  // section → templates
  std::vector<std::string> filler;
  std::map<std::string, std::map<std::string, std::string>> sites;  // site → key → text
  std::map<std::string, std::vector<std::string>> sentences;        // list name → sentences
  std::vector<FactFile> files;
  std::vector<Fact> facts;          // sorted by the middle of their span, then title
  std::vector<FreeParagraph> free;  // sorted by the middle of their first period

  static Result<SampleCorpus> load(const std::string& dir);

  // A site's text for `key`, else the [site default] one; empty when neither has it.
  const std::string& site_text(const std::string& site, const std::string& key) const;
};

}  // namespace cronista::sampleweb
