// The reference kernel: one byte at a time. The SWAR64 and SIMD128 kernels are
// tested against it.
#pragma once
#include "kernel.h"

namespace wasmjson {

struct scalar_kernel {
  static constexpr const char* name = "scalar";
  static constexpr size_t width = 1;

  static inline size_t string_stop(const uint8_t* p) {
    uint8_t c = *p;
    return (c == '"' || c == '\\' || c < 0x20 || c >= 0x80) ? 0 : 1;
  }
  static constexpr size_t whitespace_width = width;
  static constexpr bool whitespace_exact = true;
  static inline size_t whitespace_stop(const uint8_t* p) {
    uint8_t c = *p;
    return (c == ' ' || c == '\t' || c == '\n' || c == '\r') ? 1 : 0;
  }
  static inline size_t ascii_stop(const uint8_t* p) { return *p >= 0x80 ? 0 : 1; }
  // The reference validates one sequence at a time (cpp/core/utf8.h), so no run.
  static constexpr size_t utf8_run_width = width;
  template <bool kCount = true>
  static inline size_t utf8_run(const uint8_t*, size_t& saved16) {
    saved16 = 0;
    return 0;
  }
  static inline size_t digit_stop(const uint8_t* p) { return static_cast<uint8_t>(*p - '0') < 10 ? 1 : 0; }
  static constexpr size_t block_bytes = 64;
  static constexpr unsigned block_shift = 0;
  static inline uint64_t quote_parity(uint64_t quote) { return prefix_xor(quote); }
  static inline void block_masks(const uint8_t* p, uint64_t& quote, uint64_t& backslash, uint64_t& open,
                                 uint64_t& close) {
    quote = backslash = open = close = 0;
    for (int i = 0; i < 64; ++i) {
      uint64_t bit = uint64_t{1} << i;
      uint8_t c = p[i];
      if (c == '"') quote |= bit;
      if (c == '\\') backslash |= bit;
      if (c == '{' || c == '[') open |= bit;
      if (c == '}' || c == ']') close |= bit;
    }
  }
  static inline size_t quote_stop(const uint8_t* p) { return (*p == '"' || *p == '\\') ? 0 : 1; }
  static inline size_t structural_stop(const uint8_t* p) {
    uint8_t c = *p;
    return (c == '"' || c == '[' || c == ']' || c == '{' || c == '}') ? 0 : 1;
  }

  static inline size_t copy_string_run(const uint8_t* p, uint8_t* out) {
    *out = *p;
    return string_stop(p);
  }
  static inline size_t copy_escape_run(const uint8_t* p, uint8_t* out) {
    *out = *p;
    return *p == '\\' ? 0 : 1;
  }
  static inline size_t widen_ascii_run(const uint8_t* p, uint16_t* out) {
    *out = *p;
    return (*p == '\\' || *p >= 0x80) ? 0 : 1;
  }
  static constexpr size_t units16 = 1;
  static inline size_t narrow_string_run(const uint16_t* p, uint8_t* out) {
    uint16_t u = *p;
    *out = static_cast<uint8_t>(u);
    return (u == '"' || u == '\\' || u < 0x20 || u >= 0x80) ? 0 : 1;
  }
  // No pair steps here (utf16_input.h and writer_escape.h then go unit by unit).
  static inline size_t utf8_pairs_run(const uint16_t*, uint8_t*) { return 0; }
  static inline size_t string_pairs_run(const uint16_t*, uint8_t*) { return 0; }
  static inline size_t utf8_triples_run(const uint16_t*, uint8_t*) { return 0; }
  static inline size_t narrow_ascii_run(const uint16_t* p, uint8_t* out) {
    uint16_t u = *p;
    *out = static_cast<uint8_t>(u);
    return u >= 0x80 ? 0 : 1;
  }
  static constexpr size_t clamped_units = 1;
  static inline void narrow_clamped(const uint16_t* p, uint8_t* out) {
    uint16_t u = *p;
    *out = static_cast<uint8_t>(u < 0x80 ? u : 0x7F);
  }
};

}  // namespace wasmjson
