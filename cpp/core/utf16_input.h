// String input that reaches wasm memory as UTF-16 code units (a copy of the JS string's
// own units) -> the UTF-8 every reader takes, exactly as TextEncoder writes it: a lone
// surrogate becomes U+FFFD. Callers of the readers learn of U+FFFD in a document from
// the reader (saw_replacement) and check the JS string themselves, as for UTF-8 written
// by the engine.
//
// Why: where the engine's own UTF-8 encoder is slow for strings that are not ASCII
// (Node 24 and 20: about 1 ns a unit for twitter.json's text, 37% of what JSON.parse
// takes), copying the units (a memcpy for the engine) and transcoding here is several
// times faster. js/src/memory.ts decides when.
//
// In place: the units may sit in the output buffer itself, `gap` = n + 16 bytes or more
// after `out` (even). After i units, at most 3i bytes are written, plus a 16-byte store
// past them, which stays below the units not yet read (out + gap + 2i).
#pragma once
#include <cstddef>
#include <cstdint>

#include "writer_escape.h"

namespace wasmjson {

// Byte offset from the output at which the n units may be placed (see above).
inline size_t utf16_input_gap(size_t n) { return (n + 17) & ~size_t{1}; }

// Transcodes the n units at p into UTF-8 at out; returns the bytes written (at most 3n).
// Reads only p[0..n); may store up to 16 bytes past the end of what it writes.
template <class Kernel>
size_t utf16_to_utf8(const uint16_t* p, size_t n, uint8_t* out) {
  const uint16_t* end = p + n;
  uint8_t* o = out;
  while (p < end) {
    if (static_cast<size_t>(end - p) >= Kernel::units16) {
      // ASCII a kernel step at a time. A whole step of it advances by a constant: the
      // next step's loads then wait for no mask (a chain that halved the speed).
      size_t k = Kernel::narrow_ascii_run(p, o);
      if (k == Kernel::units16) {
        p += Kernel::units16;
        o += Kernel::units16;
        continue;
      }
      p += k;
      o += k;
    } else if (*p < 0x80) {
      *o++ = static_cast<uint8_t>(*p++);
      continue;
    }
    // Text that is not ASCII mixes in spaces and punctuation: eight units at a time
    // where all are below 0x800 (Latin, Greek, Cyrillic, ...: utf8_pairs_run) or all are
    // from 0x800 up (CJK, kana, ...: utf8_triples_run), else the next eight unit by unit
    // (surrogates, scripts mixed), until two ASCII units in a row.
    do {
      const uint16_t* step_end = end;
      if (static_cast<size_t>(end - p) >= 8) {
        size_t bytes = *p < 0x800 ? Kernel::utf8_pairs_run(p, o) : Kernel::utf8_triples_run(p, o);
        if (bytes != 0) {
          p += 8;
          o += bytes;
          continue;
        }
        step_end = p + 8;
      }
      // (A pair may take the last step one unit past step_end.)
      while (p < step_end) {
        uint16_t u = *p++;
        if (u < 0x80) {
          *o++ = static_cast<uint8_t>(u);
        } else if ((u & 0xF800) != 0xD800) {
          o = detail::put_bmp(o, u);
        } else if (detail::is_high(u) && p < end && detail::is_low(*p)) {
          o = detail::put_utf8(o, detail::pair(u, *p++));
        } else {
          o = detail::put_bmp(o, 0xFFFD);
        }
      }
    } while (p < end && (*p >= 0x80 || (end - p > 1 && p[1] >= 0x80)));
  }
  return static_cast<size_t>(o - out);
}

}  // namespace wasmjson
