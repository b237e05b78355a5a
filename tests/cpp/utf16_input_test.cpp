// utf16_to_utf8 (string input given as UTF-16) against a reference encoder, for every
// kernel: ASCII runs across kernel steps, 2-, 3- and 4-byte characters, lone surrogates
// (U+FFFD, as TextEncoder writes them), and the in-place layout JS uses.
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "../../cpp/core/utf16_input.h"
#include "../support/utf16_texts.h"
#include "../support/utf8_reference.h"
#include "kernels.h"

using namespace wasmjson;

template <class K>
class Utf16InputTest : public ::testing::Test {};
TYPED_TEST_SUITE(Utf16InputTest, AllKernels, KernelNames);

namespace {

// Both layouts: units in a buffer of their own (garbage after them), and in place at
// utf16_input_gap(n) after the output, as js/src/memory.ts puts them.
template <class K>
void expect_transcodes(const std::vector<uint16_t>& units, const std::string& label) {
  std::string want = utf8_reference::encode_utf16(units.data(), units.size());
  size_t n = units.size();
  std::vector<uint16_t> apart(n + 64, 0xD800);
  std::copy(units.begin(), units.end(), apart.begin());
  std::vector<uint8_t> out(3 * n + 16 + kPadding, 0xAA);
  size_t len = utf16_to_utf8<K>(apart.data(), n, out.data());
  ASSERT_EQ(std::string(out.begin(), out.begin() + len), want) << label << " (apart)";

  size_t gap = utf16_input_gap(n);
  ASSERT_EQ(gap % 2, 0u);
  ASSERT_GE(gap, n + 16);
  std::vector<uint8_t> region(gap + 2 * n + kPadding, 0xAA);
  if (n) std::memcpy(region.data() + gap, units.data(), 2 * n);
  len = utf16_to_utf8<K>(reinterpret_cast<const uint16_t*>(region.data() + gap), n, region.data());
  ASSERT_EQ(std::string(region.begin(), region.begin() + len), want) << label << " (in place)";
}

}  // namespace

TYPED_TEST(Utf16InputTest, EveryKindOfUnitAtEveryPositionAndLength) {
  using K = TypeParam;
  test::each_placed_unit([](const std::vector<uint16_t>& units, const std::string& label) { expect_transcodes<K>(units, label); });
}

TYPED_TEST(Utf16InputTest, RandomTextsOfMixedRuns) {
  using K = TypeParam;
  std::mt19937_64 rng(20261130);
  for (int round = 0; round < 3000; ++round) {
    expect_transcodes<K>(test::random_units(rng), "round " + std::to_string(round));
  }
}
