// The SIMD128 kernel: sixteen bytes per step with wasm SIMD128 intrinsics. Natively
// (unit tests, fuzzing) the same intrinsics come from SIMDe, so this exact code is
// what the tests exercise.
#pragma once
#include <cstring>

#include "kernel.h"

#if defined(__wasm_simd128__)
#include <wasm_simd128.h>
#else
#define SIMDE_ENABLE_NATIVE_ALIASES
#include <simde/wasm/simd128.h>
#endif

namespace wasmjson {

// Vector constants come from memory, not from v128.const. V8's optimizing compiler
// builds each v128.const where it is used, from general registers: several instructions
// per use, in every iteration of a loop (skip_container ran 1.5x faster with its four
// splats read from memory). A load from a table the compiler cannot prove constant stays
// a load: one instruction, hoisted by LLVM out of loops that store nothing. So these
// tables are not const (and are never written).
namespace simd128_constants {
template <uint8_t B>
alignas(16) inline uint8_t bytes[16] = {B, B, B, B, B, B, B, B, B, B, B, B, B, B, B, B};
template <uint16_t U>
alignas(16) inline uint16_t units[8] = {U, U, U, U, U, U, U, U};
}  // namespace simd128_constants

// B in every byte lane.
template <uint8_t B>
inline v128_t splat8() {
  return wasm_v128_load(simd128_constants::bytes<B>);
}
// U in every 16-bit lane.
template <uint16_t U>
inline v128_t splat16() {
  return wasm_v128_load(simd128_constants::units<U>);
}

namespace simd128_utf8 {

// UTF-8 validation of a whole chunk by nibble lookups (Keiser and Lemire, "Validating
// UTF-8 in less than one instruction per byte", 2021): every byte is checked together
// with the byte before it by three 16-entry tables, whose entries are sets of error
// kinds; a pair is ill-formed when all three agree on some kind. Third and fourth
// bytes are checked apart, by looking two and three bytes back. The chunk starts on a
// character boundary, so the bytes before it count as ASCII.
enum : uint8_t {
  kLeadThenNonContinuation = 0x01,  // C0..FF then 00..7F or C0..FF
  kAsciiThenContinuation = 0x02,    // 00..7F then 80..BF
  kOverlong3 = 0x04,                // E0 then 80..9F
  kTooLarge = 0x08,                 // F4..FF then 90..BF
  kSurrogate = 0x10,                // ED then A0..BF
  kOverlong2 = 0x20,                // C0, C1 then 80..BF
  kOverlong4OrTooLarge = 0x40,      // F0 or F5..FF then 80..8F
  kContinuationPair = 0x80,         // 80..BF then 80..BF (fine only as a 3rd or 4th byte)
};
struct utf8_tables {
  uint8_t first_high[16], first_low[16], second_high[16];
  constexpr utf8_tables() : first_high(), first_low(), second_high() {
    for (int n = 0; n < 16; ++n) {
      // The byte before, by its high nibble.
      first_high[n] = n < 8    ? kAsciiThenContinuation
                      : n < 12 ? kContinuationPair
                      : n == 12 ? kLeadThenNonContinuation | kOverlong2
                      : n == 13 ? kLeadThenNonContinuation
                      : n == 14 ? kLeadThenNonContinuation | kOverlong3 | kSurrogate
                                : kLeadThenNonContinuation | kTooLarge | kOverlong4OrTooLarge;
      // The byte before, by its low nibble: the kinds that need no particular low
      // nibble always, the others where the nibble makes the lead byte what they name.
      uint8_t low = kLeadThenNonContinuation | kAsciiThenContinuation | kContinuationPair;
      if (n <= 1) low |= kOverlong2;                  // C0, C1
      if (n == 0) low |= kOverlong3 | kOverlong4OrTooLarge;  // E0, F0
      if (n >= 4) low |= kTooLarge;                   // F4..FF
      if (n >= 5) low |= kOverlong4OrTooLarge;        // F5..FF
      if (n == 13) low |= kSurrogate;                 // ED
      first_low[n] = low;
      // This byte, by its high nibble.
      const uint8_t continuation = kAsciiThenContinuation | kOverlong2 | kContinuationPair;
      second_high[n] = n < 8    ? kLeadThenNonContinuation
                       : n == 8 ? continuation | kOverlong3 | kOverlong4OrTooLarge
                       : n == 9 ? continuation | kOverlong3 | kTooLarge
                       : n < 12 ? continuation | kSurrogate | kTooLarge
                                : kLeadThenNonContinuation;
    }
  }
};
// Not const: see simd128_constants.
inline utf8_tables kUtf8{};

// utf8_pairs_run's compaction: for each 8-bit mask of the lanes that take two bytes,
// the byte indices (into the lanes' byte pairs) to keep, in order: both bytes of those
// lanes, the first of the others (ASCII).
struct pair_compaction {
  uint8_t index[256][16];
  constexpr pair_compaction() : index() {
    for (int m = 0; m < 256; ++m) {
      int k = 0;
      for (int lane = 0; lane < 8; ++lane) {
        index[m][k++] = static_cast<uint8_t>(2 * lane);
        if (m & (1 << lane)) index[m][k++] = static_cast<uint8_t>(2 * lane + 1);
      }
      while (k < 16) index[m][k++] = 0x80;  // out of range: swizzle writes 0
    }
  }
};
inline constexpr pair_compaction kPairCompaction{};

// Eight units below 0x800 as UTF-8: stores 16 bytes at out, returns the UTF-8 length.
inline size_t pairs_to_utf8(v128_t v, uint8_t* out) {
  v128_t one = wasm_i16x8_eq(wasm_v128_and(v, splat16<0xFF80>()), wasm_i64x2_splat(0));  // ASCII lanes
  v128_t lead = wasm_v128_bitselect(v, wasm_v128_or(wasm_u16x8_shr(v, 6), splat16<0xC0>()), one);
  v128_t trail = wasm_v128_or(wasm_v128_and(v, splat16<0x3F>()), splat16<0x80>());
  v128_t pairs = wasm_v128_or(lead, wasm_i16x8_shl(trail, 8));  // little-endian: lead first
  uint32_t m = ~static_cast<uint32_t>(wasm_i16x8_bitmask(one)) & 0xFFu;
  wasm_v128_store(out, wasm_i8x16_swizzle(pairs, wasm_v128_load(kPairCompaction.index[m])));
  return 8 + static_cast<size_t>(__builtin_popcount(m));
}

}  // namespace simd128_utf8

struct simd128_kernel {
  static constexpr const char* name = "simd128";
  static constexpr size_t width = 16;

  // The index of the lowest hit, width when none. (A bit past the lanes instead of a test
  // for zero: or + ctz, where the test compiles to a compare and a conditional move.)
  static inline size_t first(uint32_t hits) { return static_cast<size_t>(__builtin_ctz(hits | (1u << width))); }

  // The index of the first '"', '\\', control byte or non-ASCII byte of v (width: none).
  static inline size_t first_string_stop(v128_t v) {
    // A signed compare catches both control bytes (< 0x20) and non-ASCII (>= 0x80).
    v128_t special = wasm_i8x16_lt(v, splat8<0x20>());
    v128_t quote = wasm_i8x16_eq(v, splat8<'"'>());
    v128_t backslash = wasm_i8x16_eq(v, splat8<'\\'>());
    return first(wasm_i8x16_bitmask(wasm_v128_or(special, wasm_v128_or(quote, backslash))));
  }
  static inline size_t string_stop(const uint8_t* p) { return first_string_stop(wasm_v128_load(p)); }
  static constexpr size_t whitespace_width = width;
  static constexpr bool whitespace_exact = true;
  static inline size_t whitespace_stop(const uint8_t* p) {
    // ' ', '\n', and '\t' or '\r' as the bytes that are 0x0D with bit 2 set: compares
    // against constants held in registers (a table lookup by swizzle costs V8 a range
    // fix-up, with its constant loaded from memory, on every use).
    v128_t v = wasm_v128_load(p);
    v128_t ws = wasm_v128_or(wasm_v128_or(wasm_i8x16_eq(v, splat8<' '>()), wasm_i8x16_eq(v, splat8<'\n'>())),
                             wasm_i8x16_eq(wasm_v128_or(v, splat8<0x04>()), splat8<'\r'>()));
    return first(~static_cast<uint32_t>(wasm_i8x16_bitmask(ws)));
  }
  static inline size_t ascii_stop(const uint8_t* p) {
    return first(static_cast<uint32_t>(wasm_i8x16_bitmask(wasm_v128_load(p))));
  }
  static constexpr size_t utf8_run_width = width;
  template <bool kCount = true>
  static inline size_t utf8_run(const uint8_t* p, size_t& saved16) {
    const v128_t v = wasm_v128_load(p);
    const v128_t zero = wasm_i64x2_splat(0);
    // Stops: '"', '\\', control bytes (min(b, 0x1F) == b: an unsigned < costs V8 four
    // instructions), and EF (whose U+FFFD the reader must notice).
    uint32_t stops = wasm_i8x16_bitmask(wasm_v128_or(
        wasm_v128_or(wasm_i8x16_eq(v, splat8<'"'>()), wasm_i8x16_eq(v, splat8<'\\'>())),
        wasm_v128_or(wasm_i8x16_eq(wasm_u8x16_min(v, splat8<0x1F>()), v), wasm_i8x16_eq(v, splat8<0xEF>()))));
    size_t stop = first(stops);
    // prev_k[i] = v[i - k], zero before the chunk.
    v128_t prev1 = wasm_i8x16_shuffle(zero, v, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30);
    v128_t prev2 = wasm_i8x16_shuffle(zero, v, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29);
    v128_t prev3 = wasm_i8x16_shuffle(zero, v, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28);
    v128_t kinds = wasm_v128_and(
        wasm_v128_and(wasm_i8x16_swizzle(wasm_v128_load(simd128_utf8::kUtf8.first_high), wasm_u8x16_shr(prev1, 4)),
                      wasm_i8x16_swizzle(wasm_v128_load(simd128_utf8::kUtf8.first_low), wasm_v128_and(prev1, splat8<0x0F>()))),
        wasm_i8x16_swizzle(wasm_v128_load(simd128_utf8::kUtf8.second_high), wasm_u8x16_shr(v, 4)));
    // 0x80 where this byte must be a 3rd or 4th byte: E0..FF two back, F0..FF three back.
    v128_t must_continue = wasm_v128_and(
        wasm_v128_or(wasm_u8x16_sub_sat(prev2, splat8<0xE0 - 0x80>()),
                     wasm_u8x16_sub_sat(prev3, splat8<0xF0 - 0x80>())),
        splat8<0x80>());
    // (Lanes equal to zero, inverted as an integer: V8 makes a vector != of three.)
    uint32_t errors = ~static_cast<uint32_t>(wasm_i8x16_bitmask(wasm_i8x16_eq(wasm_v128_xor(kinds, must_continue), zero))) & 0xFFFFu;
    // Errors up to and including the stop byte: every stop byte is ASCII or a lead, so an
    // error flagged on it means the sequence before it is cut short.
    if (errors & ((2u << stop) - 1)) {
      saved16 = 0;
      return 0;  // the caller finds and reports the error one sequence at a time
    }
    size_t end = stop;
    if (stop == width) {
      // No stop: a sequence may run past the chunk's end. End the run at its lead byte.
      end -= p[15] >= 0xC0 ? 1 : p[14] >= 0xE0 ? 2 : p[13] >= 0xF0 ? 3 : 0;
    }
    if constexpr (kCount) {
      // Bytes minus UTF-16 units: one per continuation byte, less one per 4-byte
      // sequence (two units).
      uint32_t in_run = (1u << end) - 1;
      uint32_t continuation = wasm_i8x16_bitmask(wasm_i8x16_lt(v, splat8<0xC0>()));
      uint32_t lead4 = wasm_i8x16_bitmask(wasm_u8x16_ge(v, splat8<0xF0>()));
      saved16 = static_cast<size_t>(__builtin_popcount(continuation & in_run) - __builtin_popcount(lead4 & in_run));
    } else {
      saved16 = 0;
    }
    return end;
  }
  // Bit i set when p[i] is not an ASCII digit, for i < width; bit width always set.
  static inline uint32_t non_digit_mask(const uint8_t* p) { return ~digit_mask(p) & ((2u << width) - 1); }
  static inline size_t digit_stop(const uint8_t* p) { return first(~digit_mask(p)); }
  // Bit i set when p[i] is an ASCII digit (i < width). Tested as min(b - '0', 9) ==
  // b - '0': two instructions, where V8 makes an unsigned > of four.
  static inline uint32_t digit_mask(const uint8_t* p) {
    v128_t d = wasm_i8x16_sub(wasm_v128_load(p), splat8<'0'>());
    return static_cast<uint32_t>(wasm_i8x16_bitmask(wasm_i8x16_eq(wasm_u8x16_min(d, splat8<9>()), d)));
  }
  static constexpr size_t block_bytes = 64;
  static constexpr unsigned block_shift = 0;
  static inline uint64_t quote_parity(uint64_t quote) { return prefix_xor(quote); }
  static inline void block_masks(const uint8_t* p, uint64_t& quote, uint64_t& backslash, uint64_t& open,
                                 uint64_t& close) {
    quote = backslash = open = close = 0;
    for (int k = 0; k < 4; ++k) {
      v128_t v = wasm_v128_load(p + 16 * k);
      // '[' ']' '{' '}' are 0x5B 0x5D 0x7B 0x7D: with bit 5 set they are 0x7B or 0x7D.
      v128_t folded = wasm_v128_or(v, splat8<0x20>());
      quote |= uint64_t{wasm_i8x16_bitmask(wasm_i8x16_eq(v, splat8<'"'>()))} << (16 * k);
      backslash |= uint64_t{wasm_i8x16_bitmask(wasm_i8x16_eq(v, splat8<'\\'>()))} << (16 * k);
      open |= uint64_t{wasm_i8x16_bitmask(wasm_i8x16_eq(folded, splat8<'{'>()))} << (16 * k);
      close |= uint64_t{wasm_i8x16_bitmask(wasm_i8x16_eq(folded, splat8<'}'>()))} << (16 * k);
    }
  }
  static inline size_t quote_stop(const uint8_t* p) {
    v128_t v = wasm_v128_load(p);
    v128_t hits = wasm_v128_or(wasm_i8x16_eq(v, splat8<'"'>()), wasm_i8x16_eq(v, splat8<'\\'>()));
    return first(static_cast<uint32_t>(wasm_i8x16_bitmask(hits)));
  }
  static inline size_t structural_stop(const uint8_t* p) {
    v128_t v = wasm_v128_load(p);
    // '[' ']' '{' '}' are 0x5B 0x5D 0x7B 0x7D: with bit 5 set they are 0x7B or 0x7D.
    v128_t folded = wasm_v128_or(v, splat8<0x20>());
    v128_t hits = wasm_v128_or(wasm_i8x16_eq(v, splat8<'"'>()),
                               wasm_v128_or(wasm_i8x16_eq(folded, splat8<'{'>()),
                                            wasm_i8x16_eq(folded, splat8<'}'>())));
    return first(static_cast<uint32_t>(wasm_i8x16_bitmask(hits)));
  }

  static inline size_t copy_string_run(const uint8_t* p, uint8_t* out) {
    v128_t v = wasm_v128_load(p);
    wasm_v128_store(out, v);
    return first_string_stop(v);
  }

  static inline size_t copy_escape_run(const uint8_t* p, uint8_t* out) {
    v128_t v = wasm_v128_load(p);
    wasm_v128_store(out, v);
    return first(static_cast<uint32_t>(wasm_i8x16_bitmask(wasm_i8x16_eq(v, splat8<'\\'>()))));
  }

  static inline size_t widen_ascii_run(const uint8_t* p, uint16_t* out) {
    v128_t v = wasm_v128_load(p);
    wasm_v128_store(out, wasm_u16x8_extend_low_u8x16(v));
    wasm_v128_store(out + 8, wasm_u16x8_extend_high_u8x16(v));
    // A signed compare below zero catches every non-ASCII byte.
    v128_t stop = wasm_v128_or(wasm_i8x16_lt(v, wasm_i64x2_splat(0)), wasm_i8x16_eq(v, splat8<'\\'>()));
    return first(wasm_i8x16_bitmask(stop));
  }

  // Sixteen units (two vectors) a call, tested after narrowing: the unsigned saturating
  // narrow keeps units < 0x100 and turns larger ones into 0xFF (or 0 for those >= 0x8000
  // as signed), so "special or non-ASCII" is exactly string_stop's signed test on bytes.
  static constexpr size_t units16 = 16;
  static inline size_t narrow_string_run(const uint16_t* p, uint8_t* out) {
    v128_t bytes = wasm_u8x16_narrow_i16x8(wasm_v128_load(p), wasm_v128_load(p + 8));
    wasm_v128_store(out, bytes);
    return first_string_stop(bytes);
  }
  // Eight units below 0x800 (ASCII, Latin, Greek, Cyrillic, Hebrew, Arabic, ...) as
  // UTF-8: each lane's two candidate bytes made at once, then the second byte of ASCII
  // lanes squeezed out by one swizzle.
  static inline size_t utf8_pairs_run(const uint16_t* p, uint8_t* out) {
    // Units are tested by masking their high bits (an unsigned > costs V8 four instructions).
    v128_t v = wasm_v128_load(p);
    if (wasm_v128_any_true(wasm_v128_and(v, splat16<0xF800>()))) return 0;  // some unit >= 0x800
    return simd128_utf8::pairs_to_utf8(v, out);
  }
  // The same for string content that the serializer escapes (writer_escape.h): also
  // declines eight units among which one must be escaped ('"', '\\' or below 0x20).
  static inline size_t string_pairs_run(const uint16_t* p, uint8_t* out) {
    v128_t v = wasm_v128_load(p);
    const v128_t zero = wasm_i64x2_splat(0);
    v128_t stop = wasm_v128_or(wasm_i16x8_eq(wasm_v128_and(v, splat16<0xFFE0>()), zero),  // below 0x20
                               wasm_v128_or(wasm_i16x8_eq(v, splat16<'"'>()), wasm_i16x8_eq(v, splat16<'\\'>())));
    if (wasm_v128_any_true(wasm_v128_or(stop, wasm_v128_and(v, splat16<0xF800>())))) return 0;
    return simd128_utf8::pairs_to_utf8(v, out);
  }
  // Eight units from 0x800 up, none a surrogate (CJK, kana, most of the BMP beyond the
  // alphabets above) as UTF-8: each lane's three bytes made at once, then interleaved
  // by two shuffles.
  static inline size_t utf8_triples_run(const uint16_t* p, uint8_t* out) {
    v128_t v = wasm_v128_load(p);
    v128_t top = wasm_v128_and(v, splat16<0xF800>());
    if (!wasm_i16x8_all_true(top) || wasm_v128_any_true(wasm_i16x8_eq(top, splat16<0xD800>()))) return 0;
    v128_t lead = wasm_v128_or(wasm_u16x8_shr(v, 12), splat16<0xE0>());
    v128_t middle = wasm_v128_or(wasm_v128_and(wasm_u16x8_shr(v, 6), splat16<0x3F>()), splat16<0x80>());
    v128_t last = wasm_v128_or(wasm_v128_and(v, splat16<0x3F>()), splat16<0x80>());
    v128_t pairs = wasm_v128_or(lead, wasm_i16x8_shl(middle, 8));  // lead, middle per lane
    v128_t lasts = wasm_u8x16_narrow_i16x8(last, last);             // lane i's last byte at 16 + i
    wasm_v128_store(out, wasm_i8x16_shuffle(pairs, lasts, 0, 1, 16, 2, 3, 17, 4, 5, 18, 6, 7, 19, 8, 9, 20, 10));
    wasm_v128_store(out + 16, wasm_i8x16_shuffle(pairs, lasts, 11, 21, 12, 13, 22, 14, 15, 23, 0, 0, 0, 0, 0, 0, 0, 0));
    return 24;
  }
  static inline size_t narrow_ascii_run(const uint16_t* p, uint8_t* out) {
    v128_t lo = wasm_v128_load(p), hi = wasm_v128_load(p + 8);
    wasm_v128_store(out, wasm_u8x16_narrow_i16x8(lo, hi));
    // Lanes > 0x7F keep a high bit under the mask, and signed saturation narrows them to
    // a nonzero byte (127 or -128): the non-ASCII lanes are the nonzero ones.
    v128_t wide = wasm_i8x16_narrow_i16x8(wasm_v128_and(lo, splat16<0xFF80>()), wasm_v128_and(hi, splat16<0xFF80>()));
    return first(~static_cast<uint32_t>(wasm_i8x16_bitmask(wasm_i8x16_eq(wide, wasm_i64x2_splat(0)))));
  }
  // Four vectors of output a call: the clamp's constant comes from memory (see
  // simd128_constants), and in a loop that stores it is loaded again every call. One
  // vector a call narrowed twitter.json's 568K units in 22-27 us (Node 26), four in 18.
  static constexpr size_t clamped_units = 64;
  static inline void narrow_clamped(const uint16_t* p, uint8_t* out) {
    v128_t top = splat16<0x7F>();
    v128_t u[8];
    for (int k = 0; k < 8; ++k) u[k] = wasm_v128_load(p + 8 * k);
    // Clamped first (unsigned): the narrowing's saturation treats lanes as signed, and
    // would make units from 0x8000 zero.
    for (int k = 0; k < 4; ++k) {
      wasm_v128_store(out + 16 * k, wasm_u8x16_narrow_i16x8(wasm_u16x8_min(u[2 * k], top), wasm_u16x8_min(u[2 * k + 1], top)));
    }
  }
};

}  // namespace wasmjson
