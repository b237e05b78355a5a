// number_value (cpp/core/number_value.h) against the C library's strtod (correctly
// rounded in glibc) on every shape of JSON number: short and long significands, leading
// zeros, fractions, exponents near the fast-path limits, subnormals, overflow, -0.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>
#include <cstring>
#include <random>
#include <string>

#include "core/number_value.h"
#include "core/padded_input.h"

using namespace wasmjson;

namespace {

double via_number_value(const std::string& text) {
  padded_input in(text);
  return number_value(number_span_of(in.data(), in.data() + in.size()));
}

void expect_same(const std::string& text) {
  double want = std::strtod(text.c_str(), nullptr);
  double got = via_number_value(text);
  uint64_t a, b;
  std::memcpy(&a, &want, 8);
  std::memcpy(&b, &got, 8);
  ASSERT_EQ(a, b) << text << ": strtod " << want << ", number_value " << got;
}

std::string digits(std::mt19937_64& rng, size_t n, bool first_nonzero) {
  std::string s;
  for (size_t i = 0; i < n; ++i) {
    char c = static_cast<char>('0' + rng() % 10);
    if (i == 0 && first_nonzero && c == '0') c = '1';
    // Runs of zeros and nines exercise carries and leading-zero counting.
    if (rng() % 5 == 0) c = rng() % 2 ? '0' : '9';
    s += c;
  }
  return s;
}

}  // namespace

TEST(NumberValue, EdgeCases) {
  for (const char* t :
       {"0", "-0", "0.0", "-0.0", "-0e5", "0e-999999", "-0E+999999999999", "1", "-1", "9007199254740991", "9007199254740992",
        "9007199254740993", "18446744073709551615", "18446744073709551616", "1e21", "1e22", "1e23", "9999999999999999e22",
        "5e-324", "2.4703282292062327e-324", "2.4703282292062328e-324", "1.7976931348623157e308", "1.7976931348623158e308",
        "1.7976931348623159e308", "1e309", "-1e309", "1e-400", "0.1", "0.30000000000000004", "123456789012345678901234567890",
        "0.000000000000000000000000000001234567890123456789", "00000000001e0", "1.00000000000000000000000000000000001",
        "2.2250738585072011e-308", "2.2250738585072014e-308", "4.9406564584124654e-324", "7.2057594037927933e16",
        "89255.0e-22", "8.98846567431158e307", "1e-7", "1e6", "12345678.12345678", "0.00000001", "100000000",
        "3.14159265358979323846264338327950288", "1e+0", "1E-0", "4503599627370497.5", "9007199254740993.0000000001"})
    expect_same(t);
}

// Integers of 16 to 19 digits (and others whose exponent cancels their fraction) are
// converted straight from their 64-bit value: halfway cases must round to even.
TEST(NumberValue, LongIntegers) {
  for (const char* t : {"9007199254740993", "9007199254740995", "18014398509481985", "18014398509481987",
                        "36028797018963971", "9223372036854775807", "9223372036854775808", "9223372036854776833",
                        "9999999999999999999", "-9999999999999999999", "1000000000000000000", "505874924095815681",
                        "1.8014398509481985e16", "18014398509481985.0e0", "-0.0e0", "0e0", "12.5e1"})
    expect_same(t);
  std::mt19937_64 rng(7);
  for (int round = 0; round < 200000; ++round) {
    std::string s = rng() % 4 == 0 ? "-" : "";
    s += digits(rng, 16 + rng() % 4, true);
    expect_same(s);
  }
}

TEST(NumberValue, RandomNumbers) {
  std::mt19937_64 rng(99);
  for (int round = 0; round < 300000; ++round) {
    std::string s = rng() % 4 == 0 ? "-" : "";
    size_t int_len = 1 + rng() % (rng() % 3 ? 8 : 24);
    s += rng() % 6 == 0 ? "0" : digits(rng, int_len, true);
    if (rng() % 2) s += "." + digits(rng, 1 + rng() % (rng() % 3 ? 10 : 30), false);
    if (rng() % 3 == 0) {
      s += rng() % 2 ? "e" : "E";
      int r = static_cast<int>(rng() % 3);
      if (r == 1) s += "-";
      if (r == 2) s += "+";
      s += std::to_string(rng() % (rng() % 4 ? 30 : 400));
    }
    expect_same(s);
  }
}
