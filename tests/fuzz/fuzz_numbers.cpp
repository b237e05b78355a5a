// libFuzzer target: numbers both ways, on their own.
//
// Writing (the serializer's number formatter, cpp/core/writer_number.h):
//   - the first 8 bytes as a double (any bit pattern; finite ones only, as JSON.stringify
//     writes null for the rest): write_number, given exactly kMaxNumberLength bytes of
//     room (AddressSanitizer sees any store past it), writes at most 25 bytes, exactly
//     the text of an independent Number::toString reference (fewest digits that read
//     back, the closest of those, the spec's layout; built from printf and strtod), and
//     that text reads back to the same bits with fast_float and as a JSON document
//     through parse() with every kernel (-0 writes "0", which reads back as +0);
//   - the same 8 bytes as an int64: write_integer writes what printf("%lld") does.
// Reading (parse(), cpp/core/number_value.h):
//   - when the whole input is one JSON number, the double on the tape (every kernel) is
//     the correctly rounded value glibc's strtod gives, bit for bit, ±Infinity on overflow.
//
// Built by CMake with -DWASMJSON_FUZZ=ON (clang); run through scripts/fuzz.sh. Number
// texts of up to 4 KiB (past the 769 significant digits fast_float's exact path reads):
// fuzz.sh options: -max_len=4096
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

#include "core/padded_input.h"
#include "core/parse.h"
#include "core/writer_number.h"
#include "kernels/kernel_scalar.h"
#include "kernels/kernel_simd128.h"
#include "kernels/kernel_swar64.h"

using namespace wasmjson;

// The checks' own reference code is left out of coverage: its branches are not the
// code under test, and tracing them cost more time than the code under test.
#define ORACLE __attribute__((no_sanitize("coverage")))
#define WASMJSON_REFERENCE_FN ORACLE
#include "../support/number_reference.h"
#include "../support/parse_state.h"

namespace {

[[noreturn]] void fail(const char* what, const uint8_t* data, size_t len, const std::string& got,
                       const std::string& expected) {
  std::fprintf(stderr, "fuzz_numbers: %s (len %zu): got \"%s\", expected \"%s\"\n  input:", what, len, got.c_str(),
               expected.c_str());
  for (size_t i = 0; i < len && i < 256; ++i) std::fprintf(stderr, " %02x", data[i]);
  std::fprintf(stderr, len > 256 ? " ...\n" : "\n");
  __builtin_trap();
}

ORACLE std::string bits_text(double d) {
  uint64_t b;
  std::memcpy(&b, &d, 8);
  char buf[64];
  std::snprintf(buf, sizeof buf, "%a (0x%016llx)", d, static_cast<unsigned long long>(b));
  return buf;
}

bool same_bits(double a, double b) { return std::memcmp(&a, &b, 8) == 0; }

testing_support::parse_state g_parsers[3];

// The one number a tape holds, or false when the document is not a single number.
bool tape_number(const tape_buffers& t, double& d) {
  if (t.words.size() != 1) return false;
  uint32_t w = t.words.data()[0];
  if ((w & tape::kTagMask) == tape::kInt) {
    d = static_cast<double>(static_cast<int32_t>(w) >> tape::kTagBits);
    return true;
  }
  if ((w & tape::kTagMask) != tape::kDouble || t.numbers.size() != 1) return false;
  d = t.numbers.data()[0];
  return true;
}

// Parses text[0..len) with kernel K; true with the value when it is one JSON number.
template <class K>
bool parse_number(testing_support::parse_state& s, const uint8_t* text, size_t len, double& d) {
  return s.fresh_parse<K>(text, len, 0).ok() && tape_number(s.tape, d);
}

// The value every kernel reads from text (padded); false when it is not one JSON number
// (all kernels must agree on that too).
bool read_all_kernels(const uint8_t* text, size_t len, double& d, const uint8_t* data, size_t size) {
  double a = 0, b = 0, c = 0;
  bool ra = parse_number<scalar_kernel>(g_parsers[0], text, len, a);
  bool rb = parse_number<swar64_kernel>(g_parsers[1], text, len, b);
  bool rc = parse_number<simd128_kernel>(g_parsers[2], text, len, c);
  if (ra != rb || ra != rc) fail("kernels disagree on whether the text is a number", data, size, "", "");
  if (ra && (!same_bits(a, b) || !same_bits(a, c)))
    fail("kernels read different doubles", data, size, bits_text(b) + " / " + bits_text(c), bits_text(a));
  d = a;
  return ra;
}

void check_write(const uint8_t* data, size_t size) {
  uint64_t bits;
  std::memcpy(&bits, data, 8);
  double v;
  std::memcpy(&v, &bits, 8);

  // write_integer on the bits as an int64.
  {
    auto* room = static_cast<uint8_t*>(std::malloc(21));  // its documented room
    int64_t i = static_cast<int64_t>(bits);
    uint8_t* end = write_integer(room, i);
    std::string got(reinterpret_cast<char*>(room), static_cast<size_t>(end - room));
    char expected[32];
    std::snprintf(expected, sizeof expected, "%lld", static_cast<long long>(i));
    std::free(room);
    if (got != expected) fail("write_integer differs from printf", data, size, got, expected);
  }

  if (!std::isfinite(v)) return;
  auto* room = static_cast<uint8_t*>(std::malloc(kMaxNumberLength));  // exactly the room it asks for
  uint8_t* end = write_number(room, v);
  size_t len = static_cast<size_t>(end - room);
  std::string got(reinterpret_cast<char*>(room), len);
  std::free(room);
  if (len == 0 || len > 25) fail("write_number wrote an impossible length", data, size, got, "<= 25 bytes");
  std::string expected = number_reference::to_js_string(v);
  if (got != expected) fail("write_number differs from Number::toString", data, size, got, expected);

  double want = v == 0 ? 0.0 : v;  // -0 writes "0"
  double ff = -1;
  auto res = fast_float::from_chars(got.data(), got.data() + got.size(), ff);
  if (res.ec != std::errc() || res.ptr != got.data() + got.size() || !same_bits(ff, want))
    fail("written number does not read back (fast_float)", data, size, bits_text(ff), bits_text(want));

  padded_input text(got);
  double back;
  if (!read_all_kernels(text.data(), text.size(), back, data, size))
    fail("written number is not a JSON number", data, size, got, "a number");
  if (!same_bits(back, want)) fail("written number does not read back (parse)", data, size, bits_text(back), bits_text(want));
}

void check_read(const uint8_t* data, size_t size) {
  padded_input text(std::string_view(reinterpret_cast<const char*>(data), size));
  double d;
  if (!read_all_kernels(text.data(), size, d, data, size)) return;
  // A JSON number is also strtod syntax (strtod reads it whole: no hex, no inf in JSON).
  std::string s(reinterpret_cast<const char*>(data), size);
  size_t b = s.find_first_not_of(" \t\n\r");
  size_t e = s.find_last_not_of(" \t\n\r");
  std::string num = s.substr(b, e - b + 1);
  char* stop = nullptr;
  double want = std::strtod(num.c_str(), &stop);
  if (stop != num.c_str() + num.size()) fail("strtod does not read the whole JSON number", data, size, num, "");
  if (!same_bits(d, want)) fail("parsed number is not strtod's correctly rounded value", data, size, bits_text(d), bits_text(want));
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size >= 8) check_write(data, size);
  if (size <= 4096) check_read(data, size);
  return 0;
}
