// RFC 8785's key order: property names sorted by their UTF-16 code units, compared on
// their UTF-8 bytes without decoding them.
//
// UTF-8 byte order is code point order, and so is UTF-16 unit order everywhere but in one
// place: a supplementary character (U+10000 and up, UTF-8 lead F0..F4) is a surrogate
// pair in UTF-16, whose first unit (D800..DBFF) sorts below U+E000..U+FFFF (UTF-8 lead EE
// or EF). Two keys differ first at a lead byte or at a continuation byte of sequences
// with the same lead; only the first case can put that pair of ranges against each
// other, so ranking the lead bytes EE and EF above F4 at the first differing byte makes
// the byte comparison exactly the UTF-16 one.
//
// Keys may also be WTF-8 (a lone surrogate from a \u escape, ED A0..BF xx). Their place
// in the order does not matter: canonicalization fails on any such key it writes.
#pragma once
#include <cstddef>
#include <cstdint>
#include <cstring>

namespace wasmjson {

namespace detail {

// A lead byte's rank in UTF-16 order: itself, except EE and EF above every F0..F4.
// (F5..FF never occur in UTF-8.)
inline uint32_t utf16_rank(uint8_t b) { return b + ((b == 0xEE || b == 0xEF) ? 0x10 : 0); }

inline uint64_t load64(const uint8_t* p) {
  uint64_t w;
  std::memcpy(&w, p, 8);
  return w;
}

// w with only its low n bytes kept (n <= 8; little-endian: the first n bytes in memory).
inline uint64_t low_bytes(uint64_t w, size_t n) { return n >= 8 ? w : n == 0 ? 0 : w & (~uint64_t{0} >> (8 * (8 - n))); }

// Three-way result at byte index i, where a[i] != b[i].
inline int differing_byte(const uint8_t* a, const uint8_t* b, size_t i) {
  return utf16_rank(a[i]) < utf16_rank(b[i]) ? -1 : 1;
}

}  // namespace detail

// <0, 0 or >0 as key a sorts before, equal to or after key b in UTF-16 code unit order.
// Reads whole 8-byte words: up to 7 bytes past the end of either key must be readable
// (inputs carry kPadding bytes; the unescaped-key buffer keeps 8 spare bytes).
inline int compare_utf16_order(const uint8_t* a, size_t a_len, const uint8_t* b, size_t b_len) {
  size_t n = a_len < b_len ? a_len : b_len;
  size_t i = 0;
  for (; i + 8 <= n; i += 8) {
    uint64_t x = detail::load64(a + i) ^ detail::load64(b + i);
    if (x) return detail::differing_byte(a, b, i + (__builtin_ctzll(x) >> 3));
  }
  if (i < n) {
    // Little-endian: byte k of the word is bits 8k..8k+7; keep the n - i bytes in range.
    uint64_t x = detail::low_bytes(detail::load64(a + i) ^ detail::load64(b + i), n - i);
    if (x) return detail::differing_byte(a, b, i + (__builtin_ctzll(x) >> 3));
  }
  return a_len < b_len ? -1 : a_len > b_len ? 1 : 0;
}

// Whether two keys of n bytes are equal, a word at a time (both readable 8 bytes past
// their end).
inline bool same_key_bytes(const uint8_t* a, const uint8_t* b, size_t n) {
  size_t i = 0;
  for (; i + 8 <= n; i += 8) {
    if (detail::load64(a + i) != detail::load64(b + i)) return false;
  }
  return i == n || detail::low_bytes(detail::load64(a + i) ^ detail::load64(b + i), n - i) == 0;
}

// A key's first 8 bytes as a number that orders as the keys do wherever two of them
// differ: big-endian, bytes past the key as 0, lead bytes EE and EF ranked as above.
// Equal prefixes decide nothing unless both keys are at most 8 bytes long (then the
// shorter is first). Sorting compares these first: most keys differ early.
inline uint64_t utf16_order_prefix(const uint8_t* p, size_t len) {
  uint64_t w = detail::low_bytes(detail::load64(p), len);
  if (w & 0x8080808080808080ull) {
    for (int i = 0; i < 64; i += 8) {
      uint64_t b = (w >> i) & 0xFF;
      if (b == 0xEE || b == 0xEF) w += uint64_t{0x10} << i;
    }
  }
  return __builtin_bswap64(w);
}

}  // namespace wasmjson
