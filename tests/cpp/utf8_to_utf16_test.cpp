// utf8_to_utf16 (the serializer's output as UTF-16 units, for Node 20) against the units
// the text was made from, for every kernel: ASCII runs across kernel steps and cut by the
// end, single ASCII bytes between non-ASCII text, backslashes (where the widening stops),
// 2-, 3- and 4-byte characters, surrogate code points as WTF-8. Nothing is read or
// stored past either end (the text sits at the end of its buffer; ASan checks the reads).
#include <random>
#include <string>
#include <vector>

#include "../../cpp/core/utf8_to_utf16.h"
#include "../support/utf16_texts.h"
#include "../support/utf8_reference.h"
#include "kernels.h"

using namespace wasmjson;

template <class K>
class Utf8ToUtf16Test : public ::testing::Test {};
TYPED_TEST_SUITE(Utf8ToUtf16Test, AllKernels, KernelNames);

namespace {

constexpr uint16_t kUntouched = 0xAAAA;

// The text at the very end of a buffer of its own (a read past it is ASan's to find);
// the units written, and none stored past the text's length.
template <class K>
void expect_units(const std::vector<uint16_t>& units, const std::string& label) {
  // WTF-8: each lone surrogate as the 3 bytes of its code point.
  std::string text = utf8_reference::encode_utf16(units.data(), units.size(), true);
  std::vector<uint8_t> in(text.begin(), text.end());
  std::vector<uint16_t> out(text.size() + 8, kUntouched);
  size_t n = utf8_to_utf16<K>(in.data(), in.data() + in.size(), out.data());
  ASSERT_EQ(std::vector<uint16_t>(out.begin(), out.begin() + static_cast<ptrdiff_t>(n)), units) << label;
  for (size_t i = text.size(); i < out.size(); ++i) ASSERT_EQ(out[i], kUntouched) << label << ": stored at " << i;
}

}  // namespace

TYPED_TEST(Utf8ToUtf16Test, EveryKindOfCharacterAtEveryPositionAndLength) {
  using K = TypeParam;
  test::each_placed_unit([](const std::vector<uint16_t>& units, const std::string& label) { expect_units<K>(units, label); });
}

TYPED_TEST(Utf8ToUtf16Test, RandomTextsOfMixedRuns) {
  using K = TypeParam;
  std::mt19937_64 rng(20261205);
  for (int round = 0; round < 3000; ++round) {
    expect_units<K>(test::random_units(rng), "round " + std::to_string(round));
  }
}
