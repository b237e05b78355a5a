// Decodes a string's content (escapes and UTF-8, already validated by the reader) into
// UTF-16 code units: \u escapes are copied as code units, so surrogate pairs and lone
// surrogates come out exactly as JSON.parse makes them. A string whose decoded text is
// ASCII can be decoded into bytes instead.
#pragma once
#include <cstdint>
#include <cstring>

#include "../kernels/kernel.h"
#include "reader.h"

namespace wasmjson {

namespace detail {

// Copies the plain text at p a chunk at a time: `step` stores a whole chunk at o and
// returns how many of its bytes are plain (Kernel::width: all). Stops at the first byte
// that is not, or at `end`; a last chunk that went past `end` is taken back.
template <class Kernel, class T, class Step>
WASMJSON_INLINE void copy_plain(const uint8_t*& p, const uint8_t* end, T*& o, Step step) {
  for (;;) {
    size_t run = step(p, o);
    if (run < Kernel::width) {
      p += run;
      o += run;
      break;
    }
    p += Kernel::width;
    o += Kernel::width;
    if (p >= end) break;
  }
  if (p > end) {
    o -= p - end;
    p = end;
  }
}

// The UTF-8 sequence at p (well-formed, lead >= 0x80: 2 to 4 bytes) as its one or two
// UTF-16 units at o; advances both. A 3-byte sequence of a surrogate code point (WTF-8)
// comes out as that unit.
WASMJSON_INLINE void utf8_sequence_to_utf16(const uint8_t*& p, uint16_t*& o) {
  uint8_t c = *p;
  uint32_t cp;
  if (c < 0xE0) {
    cp = ((c & 0x1Fu) << 6) | (p[1] & 0x3Fu);
    p += 2;
  } else if (c < 0xF0) {
    cp = ((c & 0x0Fu) << 12) | ((p[1] & 0x3Fu) << 6) | (p[2] & 0x3Fu);
    p += 3;
  } else {
    cp = ((c & 0x07u) << 18) | ((p[1] & 0x3Fu) << 12) | ((p[2] & 0x3Fu) << 6) | (p[3] & 0x3Fu);
    p += 4;
    cp -= 0x10000;
    *o++ = static_cast<uint16_t>(0xD800 + (cp >> 10));
    *o++ = static_cast<uint16_t>(0xDC00 + (cp & 0x3FF));
    return;
  }
  *o++ = static_cast<uint16_t>(cp);
}

}  // namespace detail

// Writes (end - begin) units at most to out, which has room for Kernel::width more;
// returns the number written. Sets `escaped_surrogate` when a \u escape wrote a
// surrogate code unit (which may be lone: then the units are not valid UTF-16 text, and
// JS must not decode them as such). Runs of plain ASCII are widened a chunk at a time.
template <class Kernel>
size_t unescape_utf16(const uint8_t* p, const uint8_t* end, uint16_t* out, bool& escaped_surrogate) {
  uint16_t* o = out;
  // (A local: the caller's flag lives in memory, which the unit stores may alias.)
  bool surrogates = false;
  while (p < end) {
    uint8_t c = *p;
    if (c != '\\' && c < 0x80) {
      // One plain byte before an escape (the space between words of escaped text) is
      // copied as it is, without a kernel call.
      if (p[1] == '\\') {
        *o++ = c;
        ++p;
        continue;
      }
      // Checked first: back-to-back escapes and non-ASCII text skip the kernel call.
      // Whole chunks while they are plain ASCII (the closing quote does not stop the
      // widening).
      detail::copy_plain<Kernel>(p, end, o, [](const uint8_t* q, uint16_t* out) { return Kernel::widen_ascii_run(q, out); });
      continue;
    }
    if (c == '\\') {
      uint8_t e = p[1];
      if (e == 'u') {
        // Escaped text comes as runs of \u escapes (a word of Cyrillic or CJK): taken
        // back to back here, without the tests for other bytes between them. (The
        // reader checked the hex digits and the string's end: an escape never runs past
        // it.)
        do {
          uint32_t unit = detail::escaped_unit(p);
          surrogates |= (unit & 0xF800) == 0xD800;
          *o++ = static_cast<uint16_t>(unit);
          p += 6;
        } while (p < end && p[0] == '\\' && p[1] == 'u');
        continue;
      }
      *o++ = detail::kEscape.v[e];
      p += 2;
      continue;
    }
    // Well-formed UTF-8 (checked by the reader).
    detail::utf8_sequence_to_utf16(p, o);
  }
  if (surrogates) escaped_surrogate = true;
  return static_cast<size_t>(o - out);
}

// unescape_ascii's result for a string whose decoded text is not all ASCII.
inline constexpr size_t kNotAscii = SIZE_MAX;

// Decodes the content of a string that has no non-ASCII byte into ASCII bytes: writes
// at most (end - p) bytes to out, which has room for Kernel::width more, and returns the
// number written (each one UTF-16 unit), or kNotAscii at a \u escape of a code unit
// >= 0x80 (the string then needs unescape_utf16). Text between escapes is copied as
// it is, a chunk at a time (a run stops at a backslash only: past `end`, copy_plain
// takes the overshoot back).
template <class Kernel>
size_t unescape_ascii(const uint8_t* p, const uint8_t* end, uint8_t* out) {
  uint8_t* o = out;
  while (p < end) {
    if (*p != '\\') {
      // Whole chunks up to the next backslash (or the closing quote).
      detail::copy_plain<Kernel>(p, end, o, [](const uint8_t* q, uint8_t* out) { return Kernel::copy_escape_run(q, out); });
      continue;
    }
    uint8_t e = p[1];
    if (e != 'u') {
      *o++ = detail::kEscape.v[e];
      p += 2;
      continue;
    }
    uint32_t unit = detail::escaped_unit(p);
    if (unit >= 0x80) return kNotAscii;
    *o++ = static_cast<uint8_t>(unit);
    p += 6;
  }
  return static_cast<size_t>(o - out);
}

}  // namespace wasmjson
