// Value rules of the resolver that depend on the words around an expression,
// on real Portuguese sentences of both variants (pt-PT and pt-BR) with fixed
// document dates: durations tied to an event, the tense that picks the year of
// a month or the week of a weekday, quantities that are not years.
#include <gtest/gtest.h>

#include "temporal/tagger.h"
#include "test_support.h"

namespace cronista::temporal {
namespace {

const Tagger& tagger() {
  static const std::unique_ptr<Tagger> t = [] {
    auto r = Tagger::load(TaggerOptions{testing::source_dir(), {}});
    if (!r.ok()) {
      ADD_FAILURE() << r.status().message();
      return std::unique_ptr<Tagger>();
    }
    return std::move(*r);
  }();
  return *t;
}

struct Found {
  std::string text, type, value, harem_text;
};

std::vector<Found> tag(const std::string& text, Date dct) {
  std::vector<Found> out;
  for (const auto& e : tagger().tag(text, dct)) {
    if (!e.in_timeml) continue;
    out.push_back(Found{e.text, std::string(to_string(e.type)), e.value,
                        text.substr(e.harem_start, e.harem_end - e.harem_start)});
  }
  return out;
}

Found find(const std::vector<Found>& all, const std::string& what) {
  for (const auto& f : all)
    if (f.text == what) return f;
  std::string got;
  for (const auto& f : all) got += "[" + f.text + "] ";
  ADD_FAILURE() << "no expression '" << what << "'; found: " << got;
  return {};
}

bool has(const std::vector<Found>& all, const std::string& what) {
  for (const auto& f : all)
    if (f.text == what) return true;
  return false;
}

TEST(TaggerValues, AShiftFromAnEventIsADuration) {
  const Date dct{1998, 2, 13};
  auto r = tag("Esta medida vem apenas um mês depois de a Qantas ter suspendido os voos.", dct);
  Found month = find(r, "um mês");
  EXPECT_EQ(month.type, "DURATION");
  EXPECT_EQ(month.value, "P1M");
  EXPECT_EQ(month.harem_text, "um mês depois");  // HAREM keeps the signal
  r = tag("Os bancos devem esperar pelo menos 30 dias antes de concluírem a compra.", dct);
  EXPECT_EQ(find(r, "pelo menos 30 dias").value, "P30D");
  r = tag("A empresa faliu três anos depois que o fundador morreu.", dct);
  EXPECT_EQ(find(r, "três anos").type, "DURATION");
  // Without an event after it, the shift is a date counted from the last one.
  r = tag("Em 1990 casou. Dois anos depois mudou-se para o Brasil.", dct);
  EXPECT_EQ(find(r, "Dois anos depois").value, "1992");
}

}  // namespace
}  // namespace cronista::temporal
