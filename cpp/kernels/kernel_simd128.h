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

struct simd128_kernel {
  static constexpr const char* name = "simd128";
  static constexpr size_t width = 16;

  static inline size_t first(uint32_t hits) {
    return hits ? static_cast<size_t>(__builtin_ctz(hits)) : width;
  }

  static inline size_t string_stop(const uint8_t* p) {
    v128_t v = wasm_v128_load(p);
    // A signed compare catches both control bytes (< 0x20) and non-ASCII (>= 0x80).
    v128_t special = wasm_i8x16_lt(v, wasm_i8x16_splat(0x20));
    v128_t quote = wasm_i8x16_eq(v, wasm_i8x16_splat('"'));
    v128_t backslash = wasm_i8x16_eq(v, wasm_i8x16_splat('\\'));
    return first(wasm_i8x16_bitmask(wasm_v128_or(special, wasm_v128_or(quote, backslash))));
  }
  static inline size_t whitespace_stop(const uint8_t* p) {
    v128_t v = wasm_v128_load(p);
    v128_t ws = wasm_v128_or(
        wasm_v128_or(wasm_i8x16_eq(v, wasm_i8x16_splat(' ')), wasm_i8x16_eq(v, wasm_i8x16_splat('\n'))),
        wasm_v128_or(wasm_i8x16_eq(v, wasm_i8x16_splat('\r')), wasm_i8x16_eq(v, wasm_i8x16_splat('\t'))));
    return first(~static_cast<uint32_t>(wasm_i8x16_bitmask(ws)) & 0xFFFFu);
  }
  static inline size_t ascii_stop(const uint8_t* p) {
    return first(static_cast<uint32_t>(wasm_i8x16_bitmask(wasm_v128_load(p))));
  }
  static inline size_t two_byte_run(const uint8_t* p) {
    v128_t v = wasm_v128_load(p);
    // Leads C2..DF: (v - 0xC2) < 0x1E unsigned. Continuations: top bits 10.
    uint32_t lead = wasm_i8x16_bitmask(wasm_u8x16_lt(wasm_i8x16_sub(v, wasm_i8x16_splat(0xC2 - 256)), wasm_i8x16_splat(0x1E)));
    uint32_t cont = wasm_i8x16_bitmask(wasm_i8x16_eq(wasm_v128_and(v, wasm_i8x16_splat(0xC0 - 256)), wasm_i8x16_splat(0x80 - 256)));
    // Pair k (bytes 2k, 2k+1) is good when byte 2k leads and byte 2k+1 continues.
    uint32_t good = lead & (cont >> 1) & 0x5555u;
    uint32_t bad = ~good & 0x5555u;
    return bad ? static_cast<size_t>(__builtin_ctz(bad)) : width;
  }
  static inline size_t digit_stop(const uint8_t* p) {
    v128_t d = wasm_i8x16_sub(wasm_v128_load(p), wasm_i8x16_splat('0'));
    return first(static_cast<uint32_t>(wasm_i8x16_bitmask(wasm_u8x16_gt(d, wasm_i8x16_splat(9)))));
  }
  static inline size_t quote_stop(const uint8_t* p) {
    v128_t v = wasm_v128_load(p);
    v128_t hits = wasm_v128_or(wasm_i8x16_eq(v, wasm_i8x16_splat('"')), wasm_i8x16_eq(v, wasm_i8x16_splat('\\')));
    return first(static_cast<uint32_t>(wasm_i8x16_bitmask(hits)));
  }
  static inline size_t structural_stop(const uint8_t* p) {
    v128_t v = wasm_v128_load(p);
    // '[' ']' '{' '}' are 0x5B 0x5D 0x7B 0x7D: with bit 5 set they are 0x7B or 0x7D.
    v128_t folded = wasm_v128_or(v, wasm_i8x16_splat(0x20));
    v128_t hits = wasm_v128_or(wasm_i8x16_eq(v, wasm_i8x16_splat('"')),
                               wasm_v128_or(wasm_i8x16_eq(folded, wasm_i8x16_splat('{')),
                                            wasm_i8x16_eq(folded, wasm_i8x16_splat('}'))));
    return first(static_cast<uint32_t>(wasm_i8x16_bitmask(hits)));
  }

  static inline size_t copy_string_run(const uint8_t* p, uint8_t* out) {
    v128_t v = wasm_v128_load(p);
    wasm_v128_store(out, v);
    v128_t special = wasm_i8x16_lt(v, wasm_i8x16_splat(0x20));
    v128_t quote = wasm_i8x16_eq(v, wasm_i8x16_splat('"'));
    v128_t backslash = wasm_i8x16_eq(v, wasm_i8x16_splat('\\'));
    return first(wasm_i8x16_bitmask(wasm_v128_or(special, wasm_v128_or(quote, backslash))));
  }

  // Sixteen units (two vectors) a call, tested after narrowing: the unsigned saturating
  // narrow keeps units < 0x100 and turns larger ones into 0xFF (or 0 for those >= 0x8000
  // as signed), so "special or non-ASCII" is exactly string_stop's signed test on bytes.
  static constexpr size_t units16 = 16;
  static inline size_t narrow_string_run(const uint16_t* p, uint8_t* out) {
    v128_t bytes = wasm_u8x16_narrow_i16x8(wasm_v128_load(p), wasm_v128_load(p + 8));
    wasm_v128_store(out, bytes);
    v128_t special = wasm_i8x16_lt(bytes, wasm_i8x16_splat(0x20));
    v128_t quote = wasm_i8x16_eq(bytes, wasm_i8x16_splat('"'));
    v128_t backslash = wasm_i8x16_eq(bytes, wasm_i8x16_splat('\\'));
    return first(wasm_i8x16_bitmask(wasm_v128_or(special, wasm_v128_or(quote, backslash))));
  }
};

}  // namespace wasmjson
