// A JSON number's source text -> the double JSON.parse gives: correctly rounded
// (fast_float, Eisel-Lemire with a fallback), overflow to ±Infinity, -0 kept.
#pragma once
#include <fast_float/fast_float.h>

#include "reader.h"

namespace wasmjson {

// Integers of up to 15 digits are exact in a double and need no rounding.
inline double number_value(const number_span& n) {
  const uint8_t* p = n.begin;
  size_t len = static_cast<size_t>(n.end - n.begin);
  if (n.is_integer && len <= 16) {
    bool neg = *p == '-';
    p += neg;
    if (n.end - p <= 15) {
      uint64_t v = 0;
      for (; p < n.end; ++p) v = v * 10 + (*p - '0');
      double d = static_cast<double>(v);
      return neg ? -d : d;
    }
    p = n.begin;
  }
  double d = 0;
  fast_float::from_chars(reinterpret_cast<const char*>(n.begin), reinterpret_cast<const char*>(n.end), d);
  return d;
}

}  // namespace wasmjson
