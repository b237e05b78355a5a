// libFuzzer target: string input given as UTF-16 units (cpp/core/utf16_input.h).
//
// The input's bytes, taken two at a time, are the units (any value: lone surrogates,
// pairs, pairs cut by the end). For the scalar, SWAR64 and SIMD128 kernels, with the
// units apart (in a buffer of exactly n units, so AddressSanitizer reports any read past
// them) and in place (at utf16_input_gap(n) after the output, as js/src/memory.ts puts
// them):
//   1. the output is what the reference encoder (tests/support/utf8_reference.h) makes of
//      the units, TextEncoder's way (each lone surrogate as U+FFFD), byte for byte;
//   2. it is well-formed UTF-8 (utf8::validate), at most 3 bytes a unit;
//   3. the in-place output never overtakes the units: the result equals the apart one;
//   4. transcoded back by utf8_to_utf16 (cpp/core/utf8_to_utf16.h: outputs on Node 20),
//      from a buffer of exactly its bytes into one of as many units, it gives the units
//      again, each lone surrogate as U+FFFD.
//
// Built by CMake with -DWASMJSON_FUZZ=ON (clang); run through scripts/fuzz.sh.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "core/utf16_input.h"
#include "core/utf8.h"
#include "core/utf8_to_utf16.h"
#include "kernels/kernel_scalar.h"
#include "kernels/kernel_simd128.h"
#include "kernels/kernel_swar64.h"

// The reference encoder is left out of coverage (it is not the code under test).
#define WASMJSON_REFERENCE_FN __attribute__((no_sanitize("coverage")))
#include "../support/utf8_reference.h"

using namespace wasmjson;

namespace {

void fail(const char* what, const char* kernel) {
  std::fprintf(stderr, "fuzz_utf16_input: %s (%s)\n", what, kernel);
  std::abort();
}

template <class K>
void check(const std::vector<uint16_t>& units, const std::string& want, const std::vector<uint16_t>& well_formed) {
  size_t n = units.size();
  // Apart: exactly n units on the heap.
  uint16_t* apart = static_cast<uint16_t*>(std::malloc(n * 2 + 1));
  if (n) std::memcpy(apart, units.data(), n * 2);
  std::vector<uint8_t> out(3 * n + 16);
  size_t len = utf16_to_utf8<K>(apart, n, out.data());
  std::free(apart);
  if (len > 3 * n) fail("more than 3 bytes a unit", K::name);
  if (std::string(out.begin(), out.begin() + len) != want) fail("output differs from the reference", K::name);
  if (utf8::validate<scalar_kernel>(out.data(), len) != len) fail("output is not well-formed UTF-8", K::name);
  // Back to units, each buffer exactly as long as the contract asks.
  uint8_t* text = static_cast<uint8_t*>(std::malloc(len + 1));
  if (len) std::memcpy(text, out.data(), len);
  uint16_t* back = static_cast<uint16_t*>(std::malloc(len * 2 + 1));
  size_t m = utf8_to_utf16<K>(text, text + len, back);
  bool same = m == well_formed.size() && (m == 0 || std::memcmp(back, well_formed.data(), m * 2) == 0);
  std::free(text);
  std::free(back);
  if (!same) fail("utf8_to_utf16 does not give the units back", K::name);
  // In place, as JS lays it out (plus the padding every input buffer has).
  size_t gap = utf16_input_gap(n);
  if (gap % 2 || gap < n + 16) fail("bad gap", K::name);
  std::vector<uint8_t> region(gap + 2 * n + kPadding);
  if (n) std::memcpy(region.data() + gap, units.data(), n * 2);
  len = utf16_to_utf8<K>(reinterpret_cast<const uint16_t*>(region.data() + gap), n, region.data());
  if (std::string(region.begin(), region.begin() + len) != want) fail("in-place output differs", K::name);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::vector<uint16_t> units(size / 2);
  for (size_t i = 0; i < units.size(); ++i) units[i] = static_cast<uint16_t>(data[2 * i] | (data[2 * i + 1] << 8));
  std::string want = utf8_reference::encode_utf16(units.data(), units.size());
  std::vector<uint16_t> well_formed(units);
  for (size_t i = 0; i < units.size(); ++i) {
    bool high = units[i] >= 0xD800 && units[i] < 0xDC00;
    if (high && i + 1 < units.size() && units[i + 1] >= 0xDC00 && units[i + 1] < 0xE000) {
      ++i;
    } else if (high || (units[i] >= 0xDC00 && units[i] < 0xE000)) {
      well_formed[i] = 0xFFFD;
    }
  }
  check<scalar_kernel>(units, want, well_formed);
  check<swar64_kernel>(units, want, well_formed);
  check<simd128_kernel>(units, want, well_formed);
  return 0;
}
