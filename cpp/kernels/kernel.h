// The kernel interface: every kernel is a struct with exactly these static members.
// The generic algorithms (cpp/core/) are templates over a Kernel and never touch
// ISA-specific code themselves.
//
//   static constexpr const char* name;        // "scalar", "swar64", "simd128"
//   static constexpr size_t width;            // bytes examined per call (1, 8, 16)
//
//   // Index in [0, width] of the first byte of p[0..width) that ends a run of
//   // plain string content: '"', '\\', a control byte (< 0x20) or a non-ASCII
//   // byte (>= 0x80). width when there is none.
//   static size_t string_stop(const uint8_t* p);
//
//   static constexpr size_t whitespace_width; // bytes whitespace_stop examines (width; swar64: 16)
//   static constexpr bool whitespace_exact;   // (scalar, simd128: true; swar64: false)
//   // Exact kernels: the index in [0, whitespace_width] of the first byte that is not
//   // JSON whitespace (space, \t, \n, \r); whitespace_width when all are.
//   // Otherwise (swar64), for p[0] whitespace: the index in [1, whitespace_width] of
//   // the first byte that is not p[0] (the end of a run of one byte: a line feed, the
//   // spaces or tabs of indentation); whitespace_width when all are. The reader then
//   // steps run by run while the next byte is whitespace.
//   static size_t whitespace_stop(const uint8_t* p);
//
//   // Index in [0, width] of the first byte that is not ASCII (>= 0x80).
//   static size_t ascii_stop(const uint8_t* p);
//
//   // Index in [0, width] of the first '"', '[', ']', '{' or '}' (skipping a value
//   // without reading it: cpp/core/navigate.h).
//   static size_t structural_stop(const uint8_t* p);
//
//   static constexpr size_t utf8_run_width;   // bytes utf8_run examines (width; swar64: 16)
//   // n in [0, utf8_run_width]: p[0..n) is string content read in one step -- complete,
//   // well-formed UTF-8 sequences with no '"', '\\', control byte or 0xEF (U+FFFD's lead,
//   // which the reader checks itself) -- starting at p, a character boundary. Sets
//   // saved16 to n minus the UTF-16 units of p[0..n) (to 0 when kCount is false:
//   // callers that ignore positions skip the count). A kernel may return less than the
//   // longest such run, down to 0; the reader then decodes one sequence itself.
//   // simd128 returns the longest run, or 0 when the text up to and including the first
//   // stop byte is ill-formed (a sequence cut short by the stop is ill-formed; one cut
//   // by the chunk's end is not); swar64 the longest run of plain ASCII and 2-byte
//   // sequences over two words that starts with a 2-byte sequence; scalar always 0.
//   // Reads utf8_run_width bytes.
//   template <bool kCount = true> static size_t utf8_run(const uint8_t* p, size_t& saved16);
//
//   // Index in [0, width] of the first byte that is not an ASCII digit.
//   static size_t digit_stop(const uint8_t* p);
//
//   // Optional, for wide kernels (simd128 has it): bit i set when p[i] is not an ASCII
//   // digit, for i < width, and bit `width` always set. The reader then takes a
//   // number's integer and fraction digits from one mask; kernels without it step
//   // with digit_stop (swar64's mask, a gather of its lane bits, measured slower on the
//   // short integers that dominate).
//   static uint32_t non_digit_mask(const uint8_t* p);
//
//   // Skipping whole values a block at a time (cpp/core/navigate.h). A block is
//   // block_bytes bytes (64; swar64: 8), described by 64-bit masks in which byte i is
//   // bit block_bit(i) = (i << block_shift) + (1 << block_shift) - 1: one bit per byte
//   // (block_shift 0), or bit 7 of each byte's lane (swar64, block_shift 3: its lane
//   // tests give that bit as they are, where gathering them into 64-byte masks cost
//   // more than the tests). Every other bit is 0; the last byte is bit 63.
//   static constexpr size_t block_bytes;
//   static constexpr unsigned block_shift;
//   // The masks of the block at p: quotes, backslashes, opening brackets ('{' '[') and
//   // closing brackets ('}' ']'). Reads block_bytes bytes, whatever the kernel's width.
//   static void block_masks(const uint8_t* p, uint64_t& quote, uint64_t& backslash, uint64_t& open, uint64_t& close);
//   // The bytes after an odd number of the given quotes, counting the byte's own: a
//   // block's string content from its opening quote up to (not including) the closing
//   // one, when the block starts outside a string.
//   static uint64_t quote_parity(uint64_t quote);
//
//   // Index in [0, width] of the first '"' or '\\' (skipping a string's content).
//   static size_t quote_stop(const uint8_t* p);
//
//   // The serializer's clean-run copy (cpp/core/writer_escape.h): stores p[0..width) to
//   // out[0..width) whatever the bytes are, and returns string_stop(p).
//   static size_t copy_string_run(const uint8_t* p, uint8_t* out);
//
//   // The parser's unescaping of ASCII text (cpp/core/unescape.h): stores p[0..width)
//   // to out[0..width) whatever the bytes are, and returns the index of the first '\\'
//   // (width when none). (No '"' test: the caller knows where the string ends.)
//   static size_t copy_escape_run(const uint8_t* p, uint8_t* out);
//
//   // The parser's unescaping (cpp/core/unescape.h): stores p[0..width) widened to
//   // UTF-16 units at out[0..width) whatever the bytes are, and returns the index of the
//   // first '\\' or non-ASCII byte (width when none).
//   static size_t widen_ascii_run(const uint8_t* p, uint16_t* out);
//
//   static constexpr size_t units16;          // UTF-16 units per call (1, 4, 16)
//   // The same over UTF-16 code units: stores the low byte of each of p[0..units16) to
//   // out[0..units16) and returns the index of the first unit that is '"', '\\', < 0x20
//   // or >= 0x80 (units16 when none). Reads units16 units (2 * units16 bytes).
//   static size_t narrow_string_run(const uint16_t* p, uint8_t* out);
//   // String input that arrives as UTF-16 (cpp/core/utf16_input.h): stores the low byte
//   // of each of p[0..units16) to out[0..units16) and returns the index of the first
//   // unit >= 0x80 (units16 when none). Reads units16 units.
//   static size_t narrow_ascii_run(const uint16_t* p, uint8_t* out);
//   // The same input, units below 0x800: when all 8 units at p are, stores their UTF-8
//   // (8 to 16 bytes) at out (16 bytes stored) and returns its length; else returns 0
//   // and stores nothing. Kernels may always return 0 (scalar does).
//   static size_t utf8_pairs_run(const uint16_t* p, uint8_t* out);
//   // The serializer's (cpp/core/writer_escape.h): as utf8_pairs_run, and also returns 0
//   // when one of the 8 units must be escaped ('"', '\\', < 0x20).
//   static size_t string_pairs_run(const uint16_t* p, uint8_t* out);
//   // Both of them: when all 8 units at p are >= 0x800 and none is a surrogate (none
//   // needs an escape then), stores their UTF-8 (24 bytes) at out (32 bytes stored) and
//   // returns 24; else returns 0 and stores nothing. Kernels may always return 0 (scalar
//   // does).
//   static size_t utf8_triples_run(const uint16_t* p, uint8_t* out);
//   // Navigation of string input without transcoding it (cpp/core/narrowed_units.h):
//   static constexpr size_t clamped_units;    // units per narrow_clamped call (1, 8, 64)
//   // stores each of p[0..clamped_units) at out[0..clamped_units) as one byte, the unit
//   // itself when it is below 0x80, else 0x7F. Loads all of its input before it stores
//   // (the narrowing runs in place).
//   static void narrow_clamped(const uint16_t* p, uint8_t* out);
//
// Every function but whitespace_stop (whitespace_width bytes), utf8_run (utf8_run_width
// bytes) and the six over UTF-16 units (narrow_string_run, narrow_ascii_run,
// utf8_pairs_run, string_pairs_run, utf8_triples_run, narrow_clamped) reads exactly
// `width` bytes starting at p; callers guarantee they are readable (inputs carry
// kPadding bytes of padding, see padded_input.h) and that `out` has room for a whole
// chunk.
#pragma once
#include <cstddef>
#include <cstdint>

namespace wasmjson {

// Bytes of readable padding every input buffer carries after its last byte. Padding
// bytes are zero, which stops every kernel scan (zero is neither whitespace nor plain
// string content), so loops need no bounds check per chunk.
inline constexpr size_t kPadding = 64;

// quote_parity for kernels with one bit per byte (block_shift 0): bit i = XOR of bits
// 0..i.
inline uint64_t prefix_xor(uint64_t x) {
  x ^= x << 1;
  x ^= x << 2;
  x ^= x << 4;
  x ^= x << 8;
  x ^= x << 16;
  x ^= x << 32;
  return x;
}

}  // namespace wasmjson
