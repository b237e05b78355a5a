// A JSON number's source text -> the double JSON.parse gives: correctly rounded, overflow
// to ±Infinity, -0 kept.
//
// The reader has already found where the integer and fraction digits end, so the
// significand is gathered here 8 digits per step (SWAR) and handed straight to
// fast_float's Eisel-Lemire step (compute_float), or to Clinger's exact fast path when
// the significand and the power of ten are both exact doubles. Rescanning the text with
// fast_float::from_chars made canada.json's whole stage 1.18x slower in wasm; it remains
// the fallback for everything unusual (more than 19 significant digits, long exponents,
// the rare cases Eisel-Lemire cannot decide).
#pragma once
#include <cstring>

#include <fast_float/fast_float.h>

#include "reader.h"

namespace wasmjson {

namespace detail {

// The value of the 8 ASCII digits in v (first digit in the lowest byte).
inline uint64_t eight_digits_value(uint64_t v) {
  v -= 0x3030303030303030;
  v = v * 10 + (v >> 8);  // pairs
  return (((v & 0x000000FF000000FF) * (100 + (1000000ULL << 32))) +
          (((v >> 16) & 0x000000FF000000FF) * (1 + (10000ULL << 32)))) >>
         32;
}

// The value of the k (1..8) digits at p. Reads 8 bytes: the input's padding makes
// that safe past its end. The digits move to the top bytes; '0's fill the bottom.
inline uint64_t digits_value(const uint8_t* p, size_t k) {
  uint64_t v;
  std::memcpy(&v, p, 8);
  size_t pad = 8 * (8 - k);
  v = k == 8 ? v : (v << pad) | (0x3030303030303030ULL >> (64 - pad));
  return eight_digits_value(v);
}

inline constexpr uint64_t kPow10[] = {1,         10,         100,         1000,         10000,
                                      100000,    1000000,    10000000,    100000000};

// w * 10^k + the k digits at p, 8 at a time.
inline uint64_t append_digits(uint64_t w, const uint8_t* p, size_t k) {
  for (; k >= 8; k -= 8, p += 8) {
    uint64_t v;
    std::memcpy(&v, p, 8);
    w = w * 100000000 + eight_digits_value(v);
  }
  if (k > 0) w = w * kPow10[k] + digits_value(p, k);
  return w;
}

inline constexpr double kExactPow10[] = {1e0,  1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,
                                         1e8,  1e9,  1e10, 1e11, 1e12, 1e13, 1e14, 1e15,
                                         1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22};

// Given the text's range, not the span: a span passed by reference must sit in memory
// (the shadow stack in wasm) wherever the call may happen, and the number path then
// stored it for every number (wasm stage with SIMD128 1.012x over the corpus, 3
// processes 1.007-1.018; numbers.json 1.09x).
__attribute__((noinline)) inline double number_value_fallback(const uint8_t* begin, const uint8_t* end) {
  double d = 0;
  fast_float::from_chars(reinterpret_cast<const char*>(begin), reinterpret_cast<const char*>(end), d);
  return d;
}

}  // namespace detail

// The span of number text [p, end) (JSON number syntax) for callers that have the
// text but not the reader's span.
inline number_span number_span_of(const uint8_t* p, const uint8_t* end) {
  const uint8_t* q = p + (p < end && *p == '-');
  while (q < end && detail::is_digit(*q)) ++q;
  number_span n{p, end, q, q, 0, q == end};
  if (q < end && *q == '.') {
    for (++q; q < end && detail::is_digit(*q);) ++q;
    n.frac_end = q;
  }
  return n;
}

// Inlined into the reader loop: out of line, the span went through memory (the shadow
// stack) and the call showed as 42% of parse(bytes) on canada.json; inlined, the wasm
// stage measured 1.03x geomean, 1.05-1.16x on number-heavy files (canada, marine_ik,
// mesh, che-1). The rare fallback stays out of line.
WASMJSON_INLINE double number_value(const number_span& n) {
  const uint8_t* p = n.begin;
  bool neg = *p == '-';
  p += neg;
  size_t int_digits = static_cast<size_t>(n.int_end - p);
  // Integers of up to 15 digits are exact in a double and need no rounding.
  if (n.is_integer && int_digits <= 15) {
    uint64_t v = detail::append_digits(0, p, int_digits);
    double d = static_cast<double>(v);
    return neg ? -d : d;
  }
  size_t frac_digits = n.frac_end == n.int_end ? 0 : static_cast<size_t>(n.frac_end - n.int_end - 1);
  // A lone '0' integer part adds no significant digit (0.000123: 7 digits, w = 123).
  if (int_digits + frac_digits - (*p == '0') > 19) return detail::number_value_fallback(n.begin, n.end);
  // A lone '0' integer part (0.270354) adds nothing to w: one digit run to read instead
  // of two (in wasm, 15-24% less time per such number).
  uint64_t w = int_digits == 1 && *p == '0' ? 0 : detail::append_digits(0, p, int_digits);
  if (frac_digits > 0) w = detail::append_digits(w, n.int_end + 1, frac_digits);
  int64_t q = -static_cast<int64_t>(frac_digits);
  if (n.frac_end != n.end) {
    // The exponent: [eE][+-]?digits; more than 6 digits (1e0000005, 1e999999999) is rare.
    const uint8_t* e = n.frac_end + 1;
    bool eneg = *e == '-';
    e += (*e == '-' || *e == '+');
    size_t k = static_cast<size_t>(n.end - e);
    if (k > 6) return detail::number_value_fallback(n.begin, n.end);
    int64_t x = static_cast<int64_t>(detail::digits_value(e, k));
    q += eneg ? -x : x;
  }
  if (q == 0) {
    // An integer (of up to 19 digits: w < 2^64): the conversion rounds it correctly by
    // itself. Ids of 16-19 digits (twitter.json's) took Eisel-Lemire before.
    double d = static_cast<double>(w);
    return neg ? -d : d;
  }
  if (w <= (uint64_t{1} << 53) && q >= -22 && q <= 22) {
    // Clinger: both operands exact, so one correctly rounded operation.
    double d = static_cast<double>(w);
    d = q < 0 ? d / detail::kExactPow10[-q] : d * detail::kExactPow10[q];
    return neg ? -d : d;
  }
  fast_float::adjusted_mantissa am = fast_float::compute_float<fast_float::binary_format<double>>(q, w);
  if (am.power2 < 0) return detail::number_value_fallback(n.begin, n.end);
  double d;
  fast_float::to_float(neg, am, d);
  return d;
}

}  // namespace wasmjson
