// Byte-preserving folding and UTF-8 checks.
#include "temporal/text_fold.h"

#include <gtest/gtest.h>

namespace cronista::temporal {
namespace {

TEST(TextFold, LowerCasesAccentedCapitalsKeepingOffsets) {
  const std::string in = "ÉPOCA Março ÂNGULO Ç\tÀS";
  const std::string out = fold_text(in);
  EXPECT_EQ(out.size(), in.size());
  EXPECT_EQ(out, "época março ângulo ç às");
}

TEST(TextFold, EveryAsciiByteFoldsAsAloneWhereverItFallsInARun) {
  // Long runs of ASCII are folded several bytes at a time: each of the 128
  // ASCII bytes, at each offset of a run and next to accented letters, folds
  // as it does alone (capitals to small letters, white space to ' ').
  auto alone = [](unsigned char c) -> char {
    if (c >= 'A' && c <= 'Z') return static_cast<char>(c + 32);
    if (c == '\t' || c == '\n' || c == '\v' || c == '\f' || c == '\r') return ' ';
    return static_cast<char>(c);
  };
  for (std::size_t offset = 0; offset < 9; ++offset) {
    std::string in = std::string(offset, 'X') + "Não";
    std::string expected = std::string(offset, 'x') + "não";
    for (int c = 0; c < 128; ++c) {
      in.push_back(static_cast<char>(c));
      expected.push_back(alone(static_cast<unsigned char>(c)));
    }
    in += "ÀS 9H EM MARÇO";
    expected += "às 9h em março";
    EXPECT_EQ(fold_text(in), expected) << "offset " << offset;
  }
}

TEST(TextFold, NoBreakSpaceBecomesTwoSpaces) {
  EXPECT_EQ(fold_text("6\xC2\xA0" "de junho"), "6  de junho");
}

TEST(TextFold, MultiplicationSignIsNotALetter) {
  EXPECT_EQ(fold_text("3\xC3\x97" "4"), "3\xC3\x97" "4");
}

TEST(Utf8, ValidatesAndReplacesBadBytesOneForOne) {
  EXPECT_TRUE(valid_utf8("Ontem, às 17h30, em São Paulo"));
  EXPECT_FALSE(valid_utf8("Mar\xE7o"));        // Latin-1, not UTF-8
  EXPECT_FALSE(valid_utf8("\xC0\xAF"));        // overlong
  EXPECT_FALSE(valid_utf8("\xED\xA0\x80"));    // surrogate
  const std::string fixed = replace_invalid_utf8("Mar\xE7o de 1998");
  EXPECT_EQ(fixed, "Mar?o de 1998");
  EXPECT_TRUE(valid_utf8(fixed));
}

}  // namespace
}  // namespace cronista::temporal
