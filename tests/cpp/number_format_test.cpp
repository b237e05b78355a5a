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

using namespace wasmjson;

namespace {

std::string format(double v) {
  uint8_t buf[kMaxNumberLength + 8];
  uint8_t* end = write_number(buf, v);
  return std::string(reinterpret_cast<char*>(buf), end - buf);
}

// Number::toString by the book: the fewest digits p that read back as v, and of those
// the decimal closest to v (the even one on a tie). printf's correctly rounded p-digit
// value is the closest (glibc rounds exact ties to even); when it does not read back, a
// neighbour still may (at a power of two the rounding interval is lopsided), and then
// only one of the two can, since the interval holds v and is convex.
std::string reference(double v) {
  if (v == 0) return "0";
  std::string sign = v < 0 ? "-" : "";
  v = std::fabs(v);
  std::string digits;
  int n = 0;
  for (int p = 1; p <= 17 && digits.empty(); ++p) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.*e", p - 1, v);
    const char* e = std::strchr(buf, 'e');
    uint64_t m = 0;
    for (const char* c = buf; c < e; ++c)
      if (*c != '.') m = m * 10 + static_cast<uint64_t>(*c - '0');
    int exp10 = std::atoi(e + 1) - (p - 1);  // printf's value is m * 10^exp10
    for (int64_t delta : {0, 1, -1}) {
      uint64_t c = m + delta;
      if (c == 0) continue;
      char text[64];
      std::snprintf(text, sizeof text, "%llue%d", static_cast<unsigned long long>(c), exp10);
      if (std::strtod(text, nullptr) != v) continue;
      digits = std::to_string(c);
      n = exp10 + static_cast<int>(digits.size());  // v = 0.digits * 10^n
      break;
    }
  }
  while (digits.size() > 1 && digits.back() == '0') digits.pop_back();
  int k = static_cast<int>(digits.size());
  std::string out;
  if (k <= n && n <= 21) {
    out = digits + std::string(n - k, '0');
  } else if (0 < n && n <= 21) {
    out = digits.substr(0, n) + "." + digits.substr(n);
  } else if (-6 < n && n <= 0) {
    out = "0." + std::string(-n, '0') + digits;
  } else {
    out = digits.substr(0, 1);
    if (k > 1) out += "." + digits.substr(1);
    out += "e";
    out += (n - 1 < 0) ? "-" : "+";
    out += std::to_string(std::abs(n - 1));
  }
  return sign + out;
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
    EXPECT_EQ(reference(c.v), c.text) << "reference for " << c.text;
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

TEST(NumberFormat, RandomBitPatternsMatchTheReference) {
  std::mt19937_64 rng(20261130);
  const int count = std::getenv("WASMJSON_LONG") ? 10000000 : 200000;
  for (int i = 0; i < count; ++i) {
    double v = from_bits(rng());
    if (!std::isfinite(v)) continue;
    ASSERT_EQ(format(v), reference(v)) << std::hexfloat << v;
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
      ASSERT_EQ(format(x), reference(x)) << text;
    }
  }
}

TEST(NumberFormat, SubnormalsAndPowersOfTwoAndTen) {
  for (int e = -1074; e <= 1023; ++e) {
    double v = std::ldexp(1.0, e);
    ASSERT_EQ(format(v), reference(v)) << e;
    ASSERT_EQ(format(std::nextafter(v, 0.0)), reference(std::nextafter(v, 0.0))) << e;
  }
  for (int e = -323; e <= 308; ++e) {
    char text[16];
    std::snprintf(text, sizeof text, "1e%d", e);
    double v = std::strtod(text, nullptr);
    ASSERT_EQ(format(v), reference(v)) << text;
    ASSERT_EQ(format(std::nextafter(v, INFINITY)), reference(std::nextafter(v, INFINITY))) << text;
  }
  for (uint64_t m = 1; m < 5000; m += 7) {
    double v = from_bits(m);  // subnormals
    ASSERT_EQ(format(v), reference(v)) << m;
  }
}
