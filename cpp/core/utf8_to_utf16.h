// UTF-8 text that is already known to be well-formed (an output of stringify, minify,
// prettify or canonicalize) as UTF-16 code units. For engines whose own UTF-8 decoding
// is slow: Node 20 (and 22) makes a string of 560 KB of Cyrillic UTF-8 at about 180 MB/s, one of
// the same text's UTF-16 units at memory speed (js/src/utf8.ts, decodeUtf8In).
#pragma once
#include <cstddef>
#include <cstdint>

#include "../kernels/kernel.h"
#include "unescape.h"  // detail::utf8_sequence_to_utf16

namespace wasmjson {

// Writes the UTF-16 units of p[0..end) at out and returns how many: at most end - p,
// and nothing is read or stored past either end. A surrogate code point's 3-byte
// sequence (WTF-8) comes out as that unit.
template <class Kernel>
size_t utf8_to_utf16(const uint8_t* p, const uint8_t* end, uint16_t* out) {
  uint16_t* o = out;
  while (p < end) {
    uint8_t c = *p;
    if (c >= 0x80) {
      detail::utf8_sequence_to_utf16(p, o);
      continue;
    }
    // A chunk's worth of text left: ASCII is widened a chunk at a time, except a single
    // ASCII byte before non-ASCII text (the space between words), copied as it is, and a
    // backslash, where the widening (made for unescaping) stops. The last bytes one by one.
    if (static_cast<size_t>(end - p) > Kernel::width && c != '\\' && p[1] < 0x80) {
      for (;;) {
        size_t run = Kernel::widen_ascii_run(p, o);
        p += run;
        o += run;
        if (run < Kernel::width || static_cast<size_t>(end - p) < Kernel::width) break;
      }
      continue;
    }
    *o++ = c;
    ++p;
  }
  return static_cast<size_t>(o - out);
}

}  // namespace wasmjson
