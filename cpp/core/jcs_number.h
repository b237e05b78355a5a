// A JSON number's source text -> its RFC 8785 form, which is ECMAScript's
// Number::toString of the double JSON.parse reads (section 3.2.2.3).
//
// Most numbers in real documents are already written that way, and those are copied
// (classified by the first pass, while the text is in cache):
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

#include "jcs_key_order.h"
#include "number_value.h"
#include "writer_number.h"

namespace wasmjson {

// What a number's text needs to become its RFC 8785 form.
enum class jcs_number_form : uint8_t {
  canonical,  // already is: copied
  integer,    // an integer to read and write again (16+ digits, or -0)
  other,      // a fraction or an exponent to read and write again
};

namespace detail {

// The bytes of w (little-endian) equal to 'e' or 'E', as the high bit of each (exact:
// the zero-byte test of (w | 0x20..) ^ 'e'..). Bytes 0 count as none.
inline uint64_t exponent_bytes(uint64_t w) {
  uint64_t x = (w | 0x2020202020202020ull) ^ 0x6565656565656565ull;
  return (x - 0x0101010101010101ull) & ~x & 0x8080808080808080ull;
}

}  // namespace detail

// Classifies a number text the reader has checked (is_integer: no fraction, no
// exponent). O(1): reads 16 bytes from p (inputs carry padding), no loop over digits.
inline jcs_number_form classify_jcs_number(const uint8_t* p, const uint8_t* end, bool is_integer) {
  size_t len = static_cast<size_t>(end - p);
  size_t neg = *p == '-';
  if (is_integer) {
    // "-0" must become "0"; 16 digits and more may not be exact.
    return len - neg <= 15 && !(neg && p[1] == '0') ? jcs_number_form::canonical : jcs_number_form::integer;
  }
  // A fraction without exponent: at most 15 digits, '.', and '-'.
  if (len > 17 || end[-1] == '0') return jcs_number_form::other;
  uint64_t lo = detail::load64(p), hi = detail::load64(p + 8);
  if (detail::exponent_bytes(detail::low_bytes(lo, len)) | detail::exponent_bytes(detail::low_bytes(hi, len < 8 ? 0 : len - 8))) {
    return jcs_number_form::other;
  }
  if (len - neg - 1 > 15) return jcs_number_form::other;
  if (p[neg] == '0') {
    // 0.000001 is written as it is, 0.0000001 as 1e-7: at most five zeros after "0.".
    const uint8_t* z = p + neg + 2;
    if (z[0] == '0' && z[1] == '0' && z[2] == '0' && z[3] == '0' && z[4] == '0' && z[5] == '0') {
      return jcs_number_form::other;
    }
  }
  return jcs_number_form::canonical;
}

// Writes the number text [p, end) of the given form in its RFC 8785 form. Returns the
// output's end, or nullptr when its value is not finite (1e400: RFC 8785 forbids it).
// Output room: kMaxNumberLength bytes; the text must have 16 readable bytes after it.
inline uint8_t* write_jcs_number(uint8_t* o, const uint8_t* p, const uint8_t* end, jcs_number_form form) {
  size_t len = static_cast<size_t>(end - p);
  if (form == jcs_number_form::canonical) {
    // Mostly at most 17 bytes ("-" "." and 15 digits): one fixed-size copy and a byte.
    // (Up to kMaxNumberLength from the serializer: kNumbersInJsForm, canonicalize.h.)
    std::memcpy(o, p, 16);
    if (len > 16) std::memcpy(o + 16, p + 16, len - 16);
    return o + len;
  }
  double d = number_value(number_span_of(p, end));
  if (!std::isfinite(d)) return nullptr;
  return write_number(o, d);
}

}  // namespace wasmjson
