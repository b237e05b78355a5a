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
//   3. the in-place output never overtakes the units: the result equals the apart one.
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
void check(const std::vector<uint16_t>& units, const std::string& want) {
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
  check<scalar_kernel>(units, want);
  check<swar64_kernel>(units, want);
  check<simd128_kernel>(units, want);
  return 0;
}
