// Number -> text exactly as ECMAScript's Number::toString(x) (what JSON.stringify writes
// for a finite number): the shortest digits that round-trip (Dragonbox), then the
// spec's layout: integers up to 21 digits in full, decimals from 1e-6, exponent form
// outside ("1e+21", "5e-7", "1.5e-7"); -0 is "0". Written straight into the output.
#pragma once
#include <cstdint>
#include <cstring>

// wasm has no 64x64->128 multiply: with __int128, each of Dragonbox's multiplications
// becomes a call to the generic 128x128 __multi3. Its portable path (four 32x32->64
// multiplies, inlined) is faster there, so wasm builds take it.
#if defined(__wasm__) && defined(__SIZEOF_INT128__)
#pragma push_macro("__SIZEOF_INT128__")
#undef __SIZEOF_INT128__
#include <dragonbox/dragonbox.h>
#pragma pop_macro("__SIZEOF_INT128__")
#else
#include <dragonbox/dragonbox.h>
#endif

namespace wasmjson {

// Output room write_number needs: the longest text is 25 bytes
// ("-0.0000012345678901234567"), and it stores fixed-size blocks past the end.
inline constexpr size_t kMaxNumberLength = 40;

namespace detail {

inline constexpr char kDigitPairs[] =
    "00010203040506070809101112131415161718192021222324252627282930313233343536373839"
    "40414243444546474849505152535455565758596061626364656667686970717273747576777879"
    "8081828384858687888990919293949596979899";

// The two digits of d < 100 at o[0..2).
inline void put2(uint8_t* o, uint32_t d) { std::memcpy(o, kDigitPairs + 2 * d, 2); }

// The eight digits of v < 10^8 at o[0..8), leading zeros included, made in one 64-bit
// word and stored at once: v split into two 4-digit halves (32-bit lanes), each into two
// 2-digit ones (16-bit lanes), each into two digits (bytes). The divisions by 100 and 10
// are multiplications by 10486 / 2^20 and 103 / 2^10, exact for lanes below 10^4 and 100,
// whose products stay inside their lanes. (It took four pairs from kDigitPairs, each a
// division, a load and a store: write_number over canada.json's numbers, in wasm, now
// takes 35 ns a number where it took 39.)
inline void put8(uint8_t* o, uint32_t v) {
  uint64_t x = (v / 10000) | (uint64_t{v % 10000} << 32);  // first digits in the low lane
  uint64_t hundreds = ((x * 10486) >> 20) & 0x0000007F0000007FULL;
  x = hundreds | ((x - hundreds * 100) << 16);
  uint64_t tens = ((x * 103) >> 10) & 0x000F000F000F000FULL;
  x = tens | ((x - tens * 10) << 8);
  x |= 0x3030303030303030ULL;
  std::memcpy(o, &x, 8);
}

// The digits of v < 10^4 at o; returns the end.
inline uint8_t* write_small(uint8_t* o, uint32_t v) {
  if (v < 100) {
    if (v < 10) {
      *o = static_cast<uint8_t>('0' + v);
      return o + 1;
    }
    put2(o, v);
    return o + 2;
  }
  uint32_t hi = v / 100, lo = v % 100;
  if (hi < 10) {
    *o = static_cast<uint8_t>('0' + hi);
    put2(o + 1, lo);
    return o + 3;
  }
  put2(o, hi);
  put2(o + 2, lo);
  return o + 4;
}

// The digits of v at o; returns the end. Independent steps, no loop.
inline uint8_t* write_u32(uint8_t* o, uint32_t v) {
  if (v < 10000) return write_small(o, v);
  if (v < 100000000) {
    if (v >= 10000000) {  // 8 digits (the low half of a 16-digit significand, for one)
      put8(o, v);
      return o + 8;
    }
    uint32_t hi = v / 10000, lo = v % 10000;
    o = write_small(o, hi);
    put2(o, lo / 100);
    put2(o + 2, lo % 100);
    return o + 4;
  }
  uint32_t hi = v / 100000000, lo = v % 100000000;  // hi: 1 or 2 digits
  if (hi >= 10) {
    put2(o, hi);
    o += 2;
  } else {
    *o++ = static_cast<uint8_t>('0' + hi);
  }
  put8(o, lo);
  return o + 8;
}

// v / 10^8 for v < 2^64 without a 64-bit division (wasm's i64.div_u is a hardware
// divide): a double estimate, off by at most one, then corrected.
inline uint64_t div1e8(uint64_t v) {
  uint64_t q = static_cast<uint64_t>(static_cast<double>(v) * 1e-8);
  uint64_t r = v - q * 100000000ULL;
  if (static_cast<int64_t>(r) < 0) return q - 1;
  return r >= 100000000ULL ? q + 1 : q;
}

// The digits of v at o; returns the end.
inline uint8_t* write_u64(uint8_t* o, uint64_t v) {
  if (v <= UINT32_MAX) return write_u32(o, static_cast<uint32_t>(v));
  uint64_t q = div1e8(v);
  uint32_t low = static_cast<uint32_t>(v - q * 100000000ULL);
  if (q <= UINT32_MAX) {
    o = write_u32(o, static_cast<uint32_t>(q));
  } else {
    uint64_t q2 = div1e8(q);  // v >= 2^32 * 10^8: at most 4 more digits
    o = write_u32(o, static_cast<uint32_t>(q2));
    put8(o, static_cast<uint32_t>(q - q2 * 100000000ULL));
    o += 8;
  }
  put8(o, low);
  return o + 8;
}

}  // namespace detail

// An integer's digits with its sign. Needs room for 21 bytes.
inline uint8_t* write_integer(uint8_t* o, int64_t v) {
  uint64_t u = static_cast<uint64_t>(v);
  if (v < 0) {
    *o++ = '-';
    u = 0 - u;
  }
  return detail::write_u64(o, u);
}

namespace detail {

// Exact powers of ten as doubles (10^22 is the largest).
inline constexpr double kPow10d[23] = {1e0,  1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,  1e8,  1e9,  1e10, 1e11,
                                       1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22};

// The shortest decimal of v > 0 when it has at most 15 significant digits: its 15-digit
// rounding with the trailing zeros dropped. Each such double has exactly one decimal of
// <= 15 digits that reads back as it (those are at least 1e-15 apart relative to v, a
// double's rounding interval at most 2.2e-16), so a candidate that reads back exactly is
// the answer, whatever rounding error went into finding it. Writes 15 digits at d and
// returns true with the scale: v = 0.d1..d15 * 10^n. False: use Dragonbox.
inline bool short_decimal(double v, uint8_t* d, int& n) {
  uint64_t bits;
  std::memcpy(&bits, &v, 8);
  int e2 = static_cast<int>((bits >> 52) & 0x7FF) - 1023;
  int e10 = (e2 * 78913) >> 18;  // floor(e2 * log10(2)): floor(log10(v)) or one less
  int k = 14 - e10;              // v * 10^k in [1e14, 1e16)
  if (k < -22 || k > 22) return false;
  double t = k >= 0 ? v * kPow10d[k] : v / kPow10d[-k];
  if (t >= 1e15) {
    if (--k < -22) return false;
    t = k >= 0 ? v * kPow10d[k] : v / kPow10d[-k];
  }
  double r = __builtin_nearbyint(t);
  if (!(r >= 1e14 && r < 1e15)) return false;
  // Exact check: s and 10^|k| are exact doubles, so one correctly rounded operation
  // gives the double nearest to s * 10^-k.
  double back = k >= 0 ? r / kPow10d[k] : r * kPow10d[-k];
  if (back != v) return false;
  uint64_t s = static_cast<uint64_t>(r);
  uint64_t hi = s / 100000000u;  // < 10^7: a 64-bit division of a value < 2^50
  put8(d + 7, static_cast<uint32_t>(s - hi * 100000000u));
  uint32_t h = static_cast<uint32_t>(hi);
  d[0] = static_cast<uint8_t>('0' + h / 1000000);
  h %= 1000000;
  put2(d + 1, h / 10000);
  put2(d + 3, (h / 100) % 100);
  put2(d + 5, h % 100);
  n = 15 - k;
  return true;
}

// v = 0.d1..dk * 10^n as Number::toString lays it out. d holds 24 bytes: the k digits,
// then '0's. Copies fixed-size blocks (no variable-length memcpy); stores at most 34
// bytes from o.
inline uint8_t* layout(uint8_t* o, const uint8_t* d, int k, int n) {
  if (k <= n && n <= 21) {
    std::memcpy(o, d, 24);  // the digits and then the zeros up to n <= 21
    return o + n;
  }
  if (0 < n && n <= 21) {
    std::memcpy(o, d, 24);
    o[n] = '.';
    std::memcpy(o + n + 1, d + n, 16);  // k - n <= 16 digits
    return o + k + 1;
  }
  if (-6 < n && n <= 0) {
    std::memcpy(o, "0.00000", 8);  // "0." and up to 5 zeros
    std::memcpy(o + 2 - n, d, 24);
    return o + 2 - n + k;
  }
  // Exponent form: d1 ['.' d2..dk] 'e' sign (n - 1).
  o[0] = d[0];
  if (k > 1) {
    o[1] = '.';
    std::memcpy(o + 2, d + 1, 16);
    o += k + 1;
  } else {
    o += 1;
  }
  int e = n - 1;
  o[0] = 'e';
  o[1] = e < 0 ? '-' : '+';
  return write_small(o + 2, static_cast<uint32_t>(e < 0 ? -e : e));
}

// Number of digits of d[0..15) without its trailing '0's (d[0] is not '0').
inline int trim_zeros15(const uint8_t* d) {
  constexpr uint64_t kZeros = 0x3030303030303030ULL;
  uint64_t w;
  std::memcpy(&w, d + 7, 8);  // d[7..15), d[7] in the low byte
  w ^= kZeros;
  if (w) return 8 + ((63 - __builtin_clzll(w)) >> 3);
  std::memcpy(&w, d, 8);
  w = (w ^ kZeros) & 0x00FFFFFFFFFFFFFFULL;  // d[0..7)
  return 1 + ((63 - __builtin_clzll(w)) >> 3);
}

}  // namespace detail

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
    if (static_cast<double>(u) == v) return detail::write_u64(o, u);
  }
  uint8_t d[40];
  std::memset(d, '0', sizeof d);
  int k, n;
  if (detail::short_decimal(v, d, n)) {
    k = detail::trim_zeros15(d);
  } else {
    auto dec = jkj::dragonbox::to_decimal(v, jkj::dragonbox::policy::sign::ignore);
    k = static_cast<int>(detail::write_u64(d, dec.significand) - d);  // no trailing zeros (Dragonbox's default)
    n = dec.exponent + k;
  }
  return detail::layout(o, d, k, n);
}

}  // namespace wasmjson
