// UTF-8 well-formedness (Unicode 15, table 3-7): no overlongs, no surrogates,
// nothing above U+10FFFF, no truncated sequences.
#pragma once
#include <cstddef>
#include <cstdint>

namespace wasmjson::utf8 {

// Validates the multi-byte sequence starting at p (p < end, *p >= 0x80). Returns its
// length (2..4), or 0 when it is ill-formed. May read up to 3 bytes past p but never
// treats bytes at or after `end` as part of the sequence.
inline size_t sequence_length(const uint8_t* p, const uint8_t* end) {
  uint8_t c = p[0];
  size_t avail = static_cast<size_t>(end - p);
  auto cont = [](uint8_t b) { return (b & 0xC0) == 0x80; };
  if (c < 0xC2) return 0;  // continuation byte or overlong 2-byte lead
  if (c < 0xE0) return (avail >= 2 && cont(p[1])) ? 2 : 0;
  if (c < 0xF0) {
    if (avail < 3 || !cont(p[2])) return 0;
    uint8_t lo = c == 0xE0 ? 0xA0 : 0x80;  // E0: no overlongs
    uint8_t hi = c == 0xED ? 0x9F : 0xBF;  // ED: no surrogates
    return (p[1] >= lo && p[1] <= hi) ? 3 : 0;
  }
  if (c < 0xF5) {
    if (avail < 4 || !cont(p[2]) || !cont(p[3])) return 0;
    uint8_t lo = c == 0xF0 ? 0x90 : 0x80;  // F0: no overlongs
    uint8_t hi = c == 0xF4 ? 0x8F : 0xBF;  // F4: nothing above U+10FFFF
    return (p[1] >= lo && p[1] <= hi) ? 4 : 0;
  }
  return 0;
}

// Whole-buffer validation: returns the offset of the first ill-formed byte, or len.
template <class Kernel>
size_t validate(const uint8_t* p, size_t len) {
  const uint8_t* start = p;
  const uint8_t* end = p + len;
  while (p < end) {
    if (*p < 0x80) {
      if (end - p >= static_cast<ptrdiff_t>(Kernel::width)) {
        p += Kernel::ascii_stop(p);
      } else {
        ++p;
      }
      continue;
    }
    size_t n = sequence_length(p, end);
    if (n == 0) return static_cast<size_t>(p - start);
    p += n;
  }
  return len;
}

}  // namespace wasmjson::utf8
