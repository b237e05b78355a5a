// String input narrowed for navigation (at() on strings, js/src/navigate.ts): each
// UTF-16 unit becomes one byte, the unit itself below 0x80, 0x7F for every other.
//
// Why: navigation reads only ASCII structure (quotes, backslashes, brackets, commas),
// skips what lies between, and compares keys with the pointer's tokens. A string's units
// copied as they are (a memory copy in Node) and narrowed here cost less than its UTF-8
// (the engine's encoder is slow for text that is not ASCII), and offsets into the bytes
// are offsets into the string. What the narrowing loses never decides a lookup whose
// pointer is ASCII without 0x7F: a key holding a narrowed unit equals no such token,
// whatever it would have been in UTF-8, and 0x7F passes the key checks (navigate.h
// check_key) as any character of a string does. The value found is read from these
// bytes only when none of its text is 0x7F; JS reads any other from the string itself.
#pragma once
#include <cstddef>
#include <cstdint>

namespace wasmjson {

// Narrows the n UTF-16 units at `units` to n bytes at `out`, which may be `units` itself
// (the bytes then overwrite the units they come from: each step loads before it stores,
// and the bytes of a step end before the units of the next begin).
template <class Kernel>
void narrow_units(const uint8_t* units, size_t n, uint8_t* out) {
  const uint16_t* in = reinterpret_cast<const uint16_t*>(units);
  size_t i = 0;
  for (; i + Kernel::clamped_units <= n; i += Kernel::clamped_units) Kernel::narrow_clamped(in + i, out + i);
  for (; i < n; ++i) {
    uint16_t u = in[i];
    out[i] = static_cast<uint8_t>(u < 0x80 ? u : 0x7F);
  }
}

}  // namespace wasmjson
