// Number -> text exactly as ECMAScript's Number::toString(x) (what JSON.stringify writes
// for a finite number): the shortest digits that round-trip (Dragonbox), then the
// spec's layout: integers up to 21 digits in full, decimals from 1e-6, exponent form
// outside ("1e+21", "5e-7", "1.5e-7"); -0 is "0". Written straight into the output.
#pragma once
#include <dragonbox/dragonbox.h>

#include <cstdint>
#include <cstring>

namespace wasmjson {

// Longest text write_number produces: "-1.2345678901234567e-308" is 24 bytes,
// "-0.0000012345678901234567" 25.
inline constexpr size_t kMaxNumberLength = 32;

namespace detail {

inline constexpr char kDigitPairs[] =
    "00010203040506070809101112131415161718192021222324252627282930313233343536373839"
    "40414243444546474849505152535455565758596061626364656667686970717273747576777879"
    "8081828384858687888990919293949596979899";

inline constexpr uint64_t kPow10[20] = {
    1ULL, 10ULL, 100ULL, 1000ULL, 10000ULL, 100000ULL, 1000000ULL, 10000000ULL, 100000000ULL,
    1000000000ULL, 10000000000ULL, 100000000000ULL, 1000000000000ULL, 10000000000000ULL,
    100000000000000ULL, 1000000000000000ULL, 10000000000000000ULL, 100000000000000000ULL,
    1000000000000000000ULL, 10000000000000000000ULL};

// Number of decimal digits of v (1 for 0).
inline int decimal_length(uint64_t v) {
  v |= 1;  // 0 has one digit; no other count changes (10^n is even for n >= 1)
  int bits = 64 - __builtin_clzll(v);
  int n = (bits * 1233) >> 12;  // floor(bits * log10(2)): the count, or one less
  return n + (v >= kPow10[n] ? 1 : 0);
}

// Writes the n = decimal_length(v) digits of v at o[0..n).
inline void write_digits(uint8_t* o, uint64_t v, int n) {
  uint8_t* p = o + n;
  // Eight digits at a time in 32-bit arithmetic once the rest fits.
  while (v >= 100000000ULL) {
    uint64_t q = v / 100000000ULL;
    uint32_t r = static_cast<uint32_t>(v - q * 100000000ULL);
    v = q;
    for (int i = 0; i < 4; ++i) {
      uint32_t d = r % 100;
      r /= 100;
      p -= 2;
      std::memcpy(p, kDigitPairs + 2 * d, 2);
    }
  }
  uint32_t w = static_cast<uint32_t>(v);
  while (w >= 100) {
    uint32_t d = w % 100;
    w /= 100;
    p -= 2;
    std::memcpy(p, kDigitPairs + 2 * d, 2);
  }
  if (w >= 10) {
    p -= 2;
    std::memcpy(p, kDigitPairs + 2 * w, 2);
  } else {
    *--p = static_cast<uint8_t>('0' + w);
  }
}

}  // namespace detail

// An integer's digits with its sign. Needs room for 21 bytes.
inline uint8_t* write_integer(uint8_t* o, int64_t v) {
  uint64_t u = static_cast<uint64_t>(v);
  if (v < 0) {
    *o++ = '-';
    u = 0 - u;
  }
  int n = detail::decimal_length(u);
  detail::write_digits(o, u, n);
  return o + n;
}

// A finite double as Number::toString. Needs room for kMaxNumberLength bytes.
inline uint8_t* write_number(uint8_t* o, double v) {
  if (v == 0) {  // +0 and -0
    *o++ = '0';
    return o;
  }
  if (v < 0) {
    *o++ = '-';
    v = -v;
  }
  // Integers below 2^53 are their own shortest form.
  if (v < 9007199254740992.0) {
    uint64_t u = static_cast<uint64_t>(v);
    if (static_cast<double>(u) == v) {
      int n = detail::decimal_length(u);
      detail::write_digits(o, u, n);
      return o + n;
    }
  }
  auto dec = jkj::dragonbox::to_decimal(v, jkj::dragonbox::policy::sign::ignore);
  uint64_t s = dec.significand;  // no trailing zeros (Dragonbox's default policy)
  int k = detail::decimal_length(s);
  int n = dec.exponent + k;  // v = 0.d1d2..dk * 10^n
  if (k <= n && n <= 21) {
    // Digits then n - k zeros.
    detail::write_digits(o, s, k);
    std::memset(o + k, '0', static_cast<size_t>(n - k));
    return o + n;
  }
  if (0 < n && n <= 21) {
    // d1..dn '.' dn+1..dk: write the digits one place right, then move the first n back.
    detail::write_digits(o + 1, s, k);
    std::memmove(o, o + 1, static_cast<size_t>(n));
    o[n] = '.';
    return o + k + 1;
  }
  if (-6 < n && n <= 0) {
    // "0." then -n zeros then the digits.
    o[0] = '0';
    o[1] = '.';
    std::memset(o + 2, '0', static_cast<size_t>(-n));
    detail::write_digits(o + 2 - n, s, k);
    return o + 2 - n + k;
  }
  // Exponent form: d1 ['.' d2..dk] 'e' sign (n - 1).
  detail::write_digits(o + 1, s, k);
  o[0] = o[1];
  if (k > 1) {
    o[1] = '.';
    o += k + 1;
  } else {
    o += 1;
  }
  *o++ = 'e';
  int e = n - 1;
  *o++ = e < 0 ? '-' : '+';
  uint32_t ae = static_cast<uint32_t>(e < 0 ? -e : e);
  int m = detail::decimal_length(ae);
  detail::write_digits(o, ae, m);
  return o + m;
}

}  // namespace wasmjson
