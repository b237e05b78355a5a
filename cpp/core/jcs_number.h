// A JSON number's source text -> its RFC 8785 form, which is ECMAScript's
// Number::toString of the double JSON.parse reads (section 3.2.2.3).
//
// Most numbers in real documents are already written that way, and those are copied:
// a text with at most 15 digits and no exponent, whose fraction (if any) does not end in
// 0, that is not -0 and not below 1e-6. Why that is exact: a decimal of at most 15
// significant digits is the only decimal of at most 15 digits that reads back as its
// double (DBL_DIG), so it is that double's shortest round-trip form, and
// Number::toString lays such a number out without an exponent (integer part up to 21
// digits, fraction down to 1e-6). Everything else is read (fast_float) and written
// again (Dragonbox), exactly as the serializer writes numbers.
#pragma once
#include <cmath>
#include <cstdint>
#include <cstring>

#include "number_value.h"
#include "writer_number.h"

namespace wasmjson {

namespace detail {

enum class number_text : uint8_t { canonical, integer, other };

// Classifies a number text (syntax already checked by the reader).
inline number_text classify_number(const uint8_t* p, const uint8_t* end) {
  const uint8_t* digits = p + (*p == '-');
  const uint8_t* q = digits;
  while (q < end && is_digit(*q)) ++q;
  size_t int_digits = static_cast<size_t>(q - digits);
  if (q == end) {
    // "-0" must become "0"; 16 digits and more may not be exact.
    bool minus_zero = digits != p && *digits == '0';
    return int_digits <= 15 && !minus_zero ? number_text::canonical : number_text::integer;
  }
  if (*q != '.') return number_text::other;  // an exponent
  const uint8_t* frac = ++q;
  while (q < end && is_digit(*q)) ++q;
  if (q != end || q[-1] == '0' || int_digits + static_cast<size_t>(q - frac) > 15) return number_text::other;
  if (*digits == '0') {
    // 0.000001 is written as it is, 0.0000001 as 1e-7.
    const uint8_t* z = frac;
    while (*z == '0') ++z;
    if (z - frac > 5) return number_text::other;
  }
  return number_text::canonical;
}

}  // namespace detail

// Writes the number text [p, end) in its RFC 8785 form. Returns the output's end, or
// nullptr when its value is not finite (1e400: RFC 8785 forbids it). Output room:
// kMaxNumberLength bytes; the text must have 16 readable bytes after it.
inline uint8_t* write_jcs_number(uint8_t* o, const uint8_t* p, const uint8_t* end) {
  detail::number_text kind = detail::classify_number(p, end);
  size_t len = static_cast<size_t>(end - p);
  if (kind == detail::number_text::canonical) {
    // At most 17 bytes ("-" "." and 15 digits): one or two fixed-size copies.
    std::memcpy(o, p, 16);
    if (len > 16) o[16] = p[16];
    return o + len;
  }
  number_span n{p, end, 0, kind == detail::number_text::integer};
  double d = number_value(n);
  if (!std::isfinite(d)) return nullptr;
  return write_number(o, d);
}

}  // namespace wasmjson
