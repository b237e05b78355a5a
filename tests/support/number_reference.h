// Number::prototype.toString for doubles, by the book, independent of the serializer's
// Dragonbox and fast paths: the reference both tests/cpp/number_format_test.cpp and the
// fuzzer tests/fuzz/fuzz_numbers.cpp compare write_number with.
//
// WASMJSON_REFERENCE_FN, defined before including this, marks the function (a fuzzer
// keeps the reference out of its coverage); it is empty by default.
#pragma once
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

#ifndef WASMJSON_REFERENCE_FN
#define WASMJSON_REFERENCE_FN
#endif

namespace wasmjson::number_reference {

// Number::toString by the book: the fewest digits p that read back as v, and of those
// the decimal closest to v (the even one on a tie). printf's correctly rounded p-digit
// value is the closest (glibc rounds exact ties to even); when it does not read back, a
// neighbour still may (at a power of two the rounding interval is lopsided), and then
// only one of the two can, since the interval holds v and is convex.
WASMJSON_REFERENCE_FN inline std::string to_js_string(double v) {
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

}  // namespace wasmjson::number_reference
