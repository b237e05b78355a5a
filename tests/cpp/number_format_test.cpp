// write_number (cpp/core/writer_number.h) against Number::toString: hand-picked edge
// cases with V8's exact output, and random doubles (bit patterns) against an independent
// reference built from printf and strtod (shortest round-tripping precision, then the
// spec's layout). The JS suite (tests/js/stringify.test.ts) compares with the engine.
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <string>

#include <gtest/gtest.h>

#include "core/writer_number.h"
#include "../support/number_reference.h"

using namespace wasmjson;
using number_reference::to_js_string;

namespace {

std::string format(double v) {
  uint8_t buf[kMaxNumberLength + 8];
  uint8_t* end = write_number(buf, v);
  return std::string(reinterpret_cast<char*>(buf), end - buf);
}

double from_bits(uint64_t b) {
  double d;
  std::memcpy(&d, &b, 8);
  return d;
}

}  // namespace

TEST(NumberFormat, EdgeCasesAsV8WritesThem) {
  struct {
    double v;
    const char* text;
  } cases[] = {
      {0.0, "0"},
      {-0.0, "0"},
      {1, "1"},
      {-1, "-1"},
      {0.1, "0.1"},
      {0.5, "0.5"},
      {1.5, "1.5"},
      {-123.456, "-123.456"},
      {1e-6, "0.000001"},
      {1e-7, "1e-7"},
      {5e-7, "5e-7"},
      {1.5e-7, "1.5e-7"},
      {123e-20, "1.23e-18"},
      {1e20, "100000000000000000000"},
      {1e21, "1e+21"},
      {999999999999999900000.0, "999999999999999900000"},
      {1.2345e21, "1.2345e+21"},
      {5e-324, "5e-324"},
      {-5e-324, "-5e-324"},
      {2.2250738585072014e-308, "2.2250738585072014e-308"},  // smallest normal
      {2.225073858507201e-308, "2.225073858507201e-308"},    // largest subnormal
      {1.7976931348623157e308, "1.7976931348623157e+308"},
      {9007199254740991.0, "9007199254740991"},   // 2^53 - 1
      {9007199254740992.0, "9007199254740992"},   // 2^53
      {9007199254740994.0, "9007199254740994"},   // 2^53 + 2
      {18014398509481984.0, "18014398509481984"}, // 2^54
      {1152921504606846976.0, "1152921504606847000"},
      {0.30000000000000004, "0.30000000000000004"},
      {1.0000000000000002, "1.0000000000000002"},
      {0.1 + 0.7, "0.7999999999999999"},
      {123456789012345680000.0, "123456789012345680000"},
      {4.35, "4.35"},
      {0.000001234, "0.000001234"},
      {1.2e-6, "0.0000012"},
      {9.5367431640625e-7, "9.5367431640625e-7"},
      {-1.7976931348623157e308, "-1.7976931348623157e+308"},
      {4294967295.0, "4294967295"},
      {4294967296.0, "4294967296"},
      {100000000.0, "100000000"},
      {99999999.0, "99999999"},
      {1e15, "1000000000000000"},
      {1e16, "10000000000000000"},
      {1e300, "1e+300"},
      {1.5e300, "1.5e+300"},
      {2e-7, "2e-7"},
      {-65.613616999999977, "-65.61361699999998"},
  };
  for (const auto& c : cases) {
    EXPECT_EQ(format(c.v), c.text) << c.text;
    EXPECT_EQ(to_js_string(c.v), c.text) << "reference for " << c.text;
  }
}

TEST(NumberFormat, Integers) {
  for (int64_t v : {0LL, 1LL, 9LL, 10LL, 99LL, 100LL, 999LL, 1000LL, 9999LL, 10000LL, 99999999LL, 100000000LL,
                    999999999LL, 1000000000LL, 4294967295LL, 4294967296LL, 99999999999999999LL,
                    100000000000000000LL, 9223372036854775807LL, -9223372036854775807LL - 1}) {
    uint8_t buf[32];
    uint8_t* end = write_integer(buf, v);
    EXPECT_EQ(std::string(reinterpret_cast<char*>(buf), end - buf), std::to_string(v));
    if (v == INT64_MIN) continue;
    end = write_integer(buf, -v);
    EXPECT_EQ(std::string(reinterpret_cast<char*>(buf), end - buf), std::to_string(-v));
  }
}

// Integers of every length: 1 to 18 digits with and without the sign (random values of
// each length and its bounds), random ones below 2^63 (most of 19 digits), every value
// below 10^6 and a stride through 10^8 (the eight digits put8 makes in one word, and the
// 8-digit halves of 16-digit significands).
TEST(NumberFormat, IntegersOfEveryLength) {
  auto text = [](int64_t v) {
    uint8_t buf[32];
    uint8_t* end = write_integer(buf, v);
    return std::string(reinterpret_cast<char*>(buf), end - buf);
  };
  std::mt19937_64 rng(8);
  int64_t low = 0;
  for (int len = 1; len <= 18; ++len) {
    int64_t high = low == 0 ? 9 : low * 10 - 1;
    for (int i = -2; i < 20000; ++i) {
      int64_t v = i == -2 ? low : i == -1 ? high : low + static_cast<int64_t>(rng() % static_cast<uint64_t>(high - low + 1));
      ASSERT_EQ(text(v), std::to_string(v));
      ASSERT_EQ(text(-v), std::to_string(-v));
    }
    low = low == 0 ? 10 : low * 10;
  }
  for (int i = 0; i < 20000; ++i) {
    int64_t v = static_cast<int64_t>(rng() >> 1);  // 19 digits mostly
    ASSERT_EQ(text(v), std::to_string(v));
  }
  for (int64_t v = 0; v < 1000000; ++v) ASSERT_EQ(text(v), std::to_string(v));
  for (int64_t v = 1000000; v < 100000000; v += 997) ASSERT_EQ(text(v), std::to_string(v));
}

TEST(NumberFormat, RandomBitPatternsMatchTheReference) {
  std::mt19937_64 rng(20261130);
  const int count = std::getenv("WASMJSON_LONG") ? 10000000 : 200000;
  for (int i = 0; i < count; ++i) {
    double v = from_bits(rng());
    if (!std::isfinite(v)) continue;
    ASSERT_EQ(format(v), to_js_string(v)) << std::hexfloat << v;
  }
}

TEST(NumberFormat, ShortDecimalsAndNeighbours) {
  // Values parsed from short decimal text (the fast path), their neighbours one ulp
  // away (which need 16-17 digits), at every scale the layout cares about.
  std::mt19937_64 rng(99);
  for (int i = 0; i < 200000; ++i) {
    int digits = 1 + static_cast<int>(rng() % 17);
    uint64_t m = rng() % 100000000000000000ULL;
    while (m >= 1 && digits < 17 && m >= static_cast<uint64_t>(std::pow(10, digits))) m /= 10;
    int exp = static_cast<int>(rng() % 60) - 30;
    char text[64];
    std::snprintf(text, sizeof text, "%llue%d", static_cast<unsigned long long>(m), exp);
    double v = std::strtod(text, nullptr);
    for (double x : {v, std::nextafter(v, 0.0), std::nextafter(v, INFINITY), -v}) {
      if (!std::isfinite(x)) continue;
      ASSERT_EQ(format(x), to_js_string(x)) << text;
    }
  }
}

TEST(NumberFormat, SubnormalsAndPowersOfTwoAndTen) {
  for (int e = -1074; e <= 1023; ++e) {
    double v = std::ldexp(1.0, e);
    ASSERT_EQ(format(v), to_js_string(v)) << e;
    ASSERT_EQ(format(std::nextafter(v, 0.0)), to_js_string(std::nextafter(v, 0.0))) << e;
  }
  for (int e = -323; e <= 308; ++e) {
    char text[16];
    std::snprintf(text, sizeof text, "1e%d", e);
    double v = std::strtod(text, nullptr);
    ASSERT_EQ(format(v), to_js_string(v)) << text;
    ASSERT_EQ(format(std::nextafter(v, INFINITY)), to_js_string(std::nextafter(v, INFINITY))) << text;
  }
  for (uint64_t m = 1; m < 5000; m += 7) {
    double v = from_bits(m);  // subnormals
    ASSERT_EQ(format(v), to_js_string(v)) << m;
  }
}
