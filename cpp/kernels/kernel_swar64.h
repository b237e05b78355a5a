// The SWAR64 kernel: eight bytes per step in a 64-bit integer. wasm has native 64-bit
// integer arithmetic, so this is the fast path on engines without SIMD128.
//
// Byte lanes are little-endian: the lowest set "hit" bit (0x80 of a lane) marks the
// first matching byte. Some tests below can set spurious bits only in lanes *above* a
// real hit (borrows travel upwards), so the lowest bit is always exact.
#pragma once
#include <bit>
#include <cstring>

#include "kernel.h"
#include "swar_lanes.h"

namespace wasmjson {

struct swar64_kernel {
  static constexpr const char* name = "swar64";
  static constexpr size_t width = 8;

  static constexpr uint64_t kOnes = swar::kOnes;
  static constexpr uint64_t kHigh = swar::kHigh;

  static inline uint64_t load(const uint8_t* p) { return swar::load(p); }
  // 0x80 in every lane equal to b: exact in every lane.
  static inline uint64_t eq(uint64_t x, uint8_t b) { return swar::eq(x, b); }
  // The lane of the lowest hit, width when none: countr_zero is 64 for zero (i64.ctz),
  // so no test for zero (a compare and a conditional move) is needed.
  static inline size_t first(uint64_t hits) { return static_cast<size_t>(std::countr_zero(hits)) >> 3; }

  static inline size_t string_stop(const uint8_t* p) {
    uint64_t x = load(p);
    // Lanes < 0x20 or >= 0x80: subtracting 0x20 borrows out of lanes below 0x20.
    uint64_t special = ((x - kOnes * 0x20) | x) & kHigh;
    uint64_t q = x ^ (kOnes * '"');
    uint64_t b = x ^ (kOnes * '\\');
    uint64_t quote = (q - kOnes) & ~q & kHigh;
    uint64_t backslash = (b - kOnes) & ~b & kHigh;
    return first(special | quote | backslash);
  }
  // The run of p[0] (spaces or tabs of indentation, the one line feed of a line break),
  // two words a call: found from the lowest set bit of x ^ (p[0] in every lane), with no
  // lane tests, and indentation of up to 16 bytes ends in one call, as in SIMD128's one
  // step (the exact lane tests, one word a call, took one to three calls by the depth:
  // indented files' wasm stage 1.04-1.08x with runs).
  static constexpr size_t whitespace_width = 16;
  static constexpr bool whitespace_exact = false;
  static inline size_t whitespace_stop(const uint8_t* p) {
    uint64_t run = kOnes * p[0];
    size_t i = first(load(p) ^ run);
    return i < width ? i : width + first(load(p + width) ^ run);
  }
  static inline size_t ascii_stop(const uint8_t* p) { return first(load(p) & kHigh); }
  // 0x80 in each lane of `ascii` (bit 7 of the ASCII lanes) whose `v` (low 7 bits, bit 7
  // clear) is b: exact in every lane, no sum carries out of its lane.
  static inline uint64_t ascii_eq(uint64_t v, uint64_t ascii, uint8_t b) {
    return ~((v ^ (kOnes * b)) + (kOnes * 0x7F)) & ascii;
  }
  // Runs of plain ASCII and 2-byte sequences (Cyrillic, Greek, accented Latin, ...),
  // from exact lane masks: a lead (C2..DF) must have a continuation (80..BF) in the next
  // lane and every continuation a lead before it. A full UTF-8 check in a 64-bit integer
  // costs more than the byte-wise path it would replace, so 3- and 4-byte sequences stop
  // the run. Two words per call: with one, a word of Cyrillic ended a run a lane early
  // about every other time (its lead's continuation in the next word), and the reader's
  // loop mispredicted on it; gen:cyrillic.json's wasm stage went from 0.9 to 1.5 GB/s.
  // (A byte loop over 2-byte sequences alone ended at every space between words.)
  static constexpr size_t utf8_run_width = 16;
  // The lanes of one word: leads, continuations, and bytes that end a run: '"', '\\',
  // control bytes, C0, C1 and E0..FF.
  struct run_lanes {
    uint64_t lead, cont, stop;
  };
  static inline run_lanes run_lanes_of(uint64_t x) {
    uint64_t ascii = ~x & kHigh;
    uint64_t low = x & ~kHigh;
    // Exact in every lane: no sum below carries out of its lane.
    uint64_t control = ~(low + kOnes * 0x60) & ascii;
    uint64_t cont = x & ~(x << 1) & kHigh;                             // 10xxxxxx
    uint64_t lead = x & (x << 1) & ~(x << 2) & kHigh;                  // 110xxxxx
    lead &= ((x & (kOnes * 0x1E)) + kOnes * 0x7F) & kHigh;             // but not C0, C1
    uint64_t other = x & kHigh & ~cont & ~lead;
    return {lead, cont, ascii_eq(low, ascii, '"') | ascii_eq(low, ascii, '\\') | control | other};
  }
  // Where a word's run ends: at its first bad lane, or a lane earlier when that lane
  // lacks the continuation of the lead before it (then -1 for lane 0).
  static inline size_t run_end(uint64_t bad, uint64_t after_lead) {
    return first(bad) - ((after_lead & bad & (0 - bad)) != 0);
  }
  static inline uint64_t lanes_below(size_t n) { return n >= 8 ? ~uint64_t{0} : (uint64_t{1} << (8 * n)) - 1; }
  template <bool kCount = true>
  static inline size_t utf8_run(const uint8_t* p, size_t& saved16) {
    saved16 = 0;
    // Runs start at a 2-byte lead: the reader's byte path takes anything else at once
    // (CJK text comes here at every character), and the ASCII scan ASCII.
    if (static_cast<uint8_t>(p[0] - 0xC2) >= 0x1E) return 0;
    run_lanes a = run_lanes_of(load(p));
    run_lanes b = run_lanes_of(load(p + 8));
    // A lane is bad where it is a continuation and the lane before is no lead, or the
    // other way round; a lead in the last lane has its continuation past the run.
    uint64_t after_a = a.lead << 8;
    uint64_t after_b = (b.lead << 8) | (a.lead >> 56);
    uint64_t bad_a = a.stop | (a.cont ^ after_a);
    uint64_t bad_b = b.stop | (b.cont ^ after_b) | (b.lead & (uint64_t{0x80} << 56));
    // (8 + -1 = 7: the first word's last lead lacks its continuation.)
    size_t n = bad_a ? run_end(bad_a, after_a) : 8 + run_end(bad_b, after_b);
    if constexpr (kCount) {
      saved16 = static_cast<size_t>(std::popcount(a.lead & lanes_below(n)) +
                                    (n > 8 ? std::popcount(b.lead & lanes_below(n - 8)) : 0));
    }
    return n;
  }
  static inline size_t digit_stop(const uint8_t* p) {
    // Lanes x ^ '0' in 0..9 are digits: adding 0x76 to the low 7 bits sets bit 7 from
    // 10 up, and bit 7 of x ^ '0' itself marks the rest (no carry leaves a lane). No
    // branch: a test for eight digits, then a byte loop for shorter runs, cost
    // number-heavy files 15-35% of the wasm stage.
    uint64_t a = load(p) ^ (kOnes * '0');
    return first((((a & ~kHigh) + kOnes * 0x76) | a) & kHigh);
  }
  // Blocks of one word, each byte's mask bit its lane's bit 7 (kernel.h: block_shift):
  // the lane tests need no gathering into one bit per byte.
  static constexpr size_t block_bytes = 8;
  static constexpr unsigned block_shift = 3;
  static inline void block_masks(const uint8_t* p, uint64_t& quote, uint64_t& backslash, uint64_t& open,
                                 uint64_t& close) {
    uint64_t x = load(p);
    // eq() for four byte values, sharing its work: only ASCII lanes can match, and in
    // their low 7 bits (t < 0x80) t + 0x7F sets bit 7 unless t is 0, with no carry out.
    uint64_t ascii = ~x & kHigh;
    uint64_t low = x & ~kHigh;
    // '[' ']' '{' '}' are 0x5B 0x5D 0x7B 0x7D: with bit 5 set they are 0x7B or 0x7D.
    uint64_t folded = low | (kOnes * 0x20);
    quote = ascii_eq(low, ascii, '"');
    backslash = ascii_eq(low, ascii, '\\');
    open = ascii_eq(folded, ascii, '{');
    close = ascii_eq(folded, ascii, '}');
  }
  // Lane k of (quote >> 7) * kOnes is the number of quotes in lanes 0..k (at most 8: no
  // carry between lanes); its low bit, moved to bit 7, is the parity.
  static inline uint64_t quote_parity(uint64_t quote) { return (((quote >> 7) * kOnes) << 7) & kHigh; }
  static inline size_t quote_stop(const uint8_t* p) {
    uint64_t x = load(p);
    return first(eq(x, '"') | eq(x, '\\'));
  }
  static inline size_t structural_stop(const uint8_t* p) {
    uint64_t x = load(p);
    // '[' ']' '{' '}' are 0x5B 0x5D 0x7B 0x7D: with bit 5 set they are 0x7B or 0x7D.
    uint64_t folded = x | (kOnes * 0x20);
    return first(eq(x, '"') | eq(folded, '{') | eq(folded, '}'));
  }

  static inline size_t copy_string_run(const uint8_t* p, uint8_t* out) {
    std::memcpy(out, p, 8);
    return string_stop(p);
  }
  static inline size_t copy_escape_run(const uint8_t* p, uint8_t* out) {
    // The word tested is the one loaded (testing p after the store would load it
    // again: out may alias p). Only the lowest hit counts, so the borrow test suffices
    // (as in string_stop).
    uint64_t x = load(p);
    std::memcpy(out, &x, 8);
    uint64_t b = x ^ (kOnes * '\\');
    return first((b - kOnes) & ~b & kHigh);
  }

  // UTF-16 units in 16-bit lanes, four per word, two words a call; a hit is bit 15 of a
  // lane. Every test here is exact in every lane (no borrow crosses a lane: the high bit
  // is masked off first).
  // Four bytes (the low half of x) spread to four 16-bit lanes.
  static inline uint64_t spread4(uint64_t x) {
    x = (x | (x << 16)) & 0x0000FFFF0000FFFFULL;
    return (x | (x << 8)) & 0x00FF00FF00FF00FFULL;
  }
  static inline size_t widen_ascii_run(const uint8_t* p, uint16_t* out) {
    uint64_t x = load(p);
    uint64_t lo = spread4(x & 0xFFFFFFFFULL), hi = spread4(x >> 32);
    std::memcpy(out, &lo, 8);
    std::memcpy(out + 4, &hi, 8);
    return first((x & kHigh) | eq(x, '\\'));
  }
  static constexpr size_t units16 = 8;
  static constexpr uint64_t kOnes16 = 0x0001000100010001ULL;
  static constexpr uint64_t kHigh16 = 0x8000800080008000ULL;
  static inline uint64_t zero16(uint64_t t) { return ~(((t & ~kHigh16) + ~kHigh16) | t) & kHigh16; }
  // Units a JSON string escapes: '"', '\\', below 0x20 (bits 5..15 all clear).
  static inline uint64_t escape16(uint64_t x) {
    return zero16(x & (kOnes16 * 0xFFE0)) | zero16(x ^ (kOnes16 * '"')) | zero16(x ^ (kOnes16 * '\\'));
  }
  // Those and lanes >= 0x80 (any of bits 7..15 set).
  static inline uint64_t special16(uint64_t x) { return wide16(x) | escape16(x); }
  // Eight units as two words of four lanes.
  static inline void load_units(const uint16_t* p, uint64_t& x0, uint64_t& x1) {
    std::memcpy(&x0, p, 8);
    std::memcpy(&x1, p + 4, 8);
  }
  // Every bit of the lanes whose bit 15 `marks` sets.
  static inline uint64_t marked_lanes(uint64_t marks) { return (marks >> 15) * 0xFFFF; }
  // The low byte of each lane, packed: four bytes in order.
  static inline uint64_t pack16(uint64_t x) {
    uint64_t y = x & 0x00FF00FF00FF00FFULL;
    y = (y | (y >> 8)) & 0x0000FFFF0000FFFFULL;
    return (y | (y >> 16)) & 0x00000000FFFFFFFFULL;
  }
  // Lanes >= 0x80 (any of bits 7..15 set).
  static inline uint64_t wide16(uint64_t x) { return ~zero16(x & (kOnes16 * 0xFF80)) & kHigh16; }
  // Stores the low bytes of p[0..8) at out; returns the index of the first lane `stop`
  // marks (units16 when none).
  template <uint64_t (*stop)(uint64_t)>
  static inline size_t narrow_until(const uint16_t* p, uint8_t* out) {
    uint64_t x0, x1;
    load_units(p, x0, x1);
    uint64_t packed = pack16(x0) | (pack16(x1) << 32);
    std::memcpy(out, &packed, 8);
    uint64_t h0 = stop(x0);
    if (h0) return static_cast<size_t>(__builtin_ctzll(h0)) >> 4;
    uint64_t h1 = stop(x1);
    return h1 ? 4 + (static_cast<size_t>(__builtin_ctzll(h1)) >> 4) : units16;
  }
  static inline size_t narrow_string_run(const uint16_t* p, uint8_t* out) { return narrow_until<special16>(p, out); }
  static inline size_t narrow_ascii_run(const uint16_t* p, uint8_t* out) { return narrow_until<wide16>(p, out); }
  // Lanes >= 0x80 become 0x7F: their bit 15 from wide16, spread over the lane.
  static inline uint64_t clamp16(uint64_t x) {
    uint64_t lanes = marked_lanes(wide16(x));
    return (x & ~lanes) | (lanes & (kOnes16 * 0x7F));
  }
  static constexpr size_t clamped_units = 8;
  static inline void narrow_clamped(const uint16_t* p, uint8_t* out) {
    uint64_t x0, x1;
    load_units(p, x0, x1);
    uint64_t packed = pack16(clamp16(x0)) | (pack16(clamp16(x1)) << 32);
    std::memcpy(out, &packed, 8);
  }
  // Eight units below 0x800 as UTF-8, four lanes a word: each lane's bytes made at
  // once (the unit itself when ASCII, else lead and continuation), then stored lane by
  // lane, each store advancing by its length: no branch per unit, where Cyrillic or
  // Greek words between spaces made the unit-by-unit path mispredict at every word.
  static inline size_t pairs_to_utf8(uint64_t x0, uint64_t x1, uint8_t* out) {
    uint8_t* o = out;
    const uint64_t words[2] = {x0, x1};
    for (uint64_t x : words) {
      uint64_t two = wide16(x);  // bit 15 of lanes >= 0x80
      uint64_t lanes = marked_lanes(two);
      uint64_t encoded = ((x >> 6) & (kOnes16 * 0x1F)) | (kOnes16 * 0xC0) | ((x & (kOnes16 * 0x3F)) << 8) |
                         (kOnes16 * 0x8000);
      uint64_t v = (x & ~lanes) | (encoded & lanes);
      for (unsigned k = 0; k < 4; ++k) {
        uint16_t bytes = static_cast<uint16_t>(v >> (16 * k));
        std::memcpy(o, &bytes, 2);
        o += 1 + ((two >> (16 * k + 15)) & 1);
      }
    }
    return static_cast<size_t>(o - out);
  }
  static inline size_t utf8_pairs_run(const uint16_t* p, uint8_t* out) {
    uint64_t x0, x1;
    load_units(p, x0, x1);
    if ((x0 | x1) & (kOnes16 * 0xF800)) return 0;  // some unit >= 0x800
    return pairs_to_utf8(x0, x1, out);
  }
  static inline size_t string_pairs_run(const uint16_t* p, uint8_t* out) {
    uint64_t x0, x1;
    load_units(p, x0, x1);
    if (((x0 | x1) & (kOnes16 * 0xF800)) || (escape16(x0) | escape16(x1))) return 0;
    return pairs_to_utf8(x0, x1, out);
  }
  // Eight units from 0x800 up, none a surrogate, as UTF-8: three bytes a unit, stored
  // four at a time.
  static inline size_t utf8_triples_run(const uint16_t* p, uint8_t* out) {
    uint64_t x0, x1;
    load_units(p, x0, x1);
    // Every lane's top five bits nonzero (>= 0x800), and not 11011 (a surrogate).
    auto declined = [](uint64_t x) {
      uint64_t top = x & (kOnes16 * 0xF800);
      return zero16(top) | zero16(top ^ (kOnes16 * 0xD800));
    };
    if (declined(x0) | declined(x1)) return 0;
    uint8_t* o = out;
    const uint64_t words[2] = {x0, x1};
    for (uint64_t x : words) {
      for (unsigned k = 0; k < 4; ++k) {
        uint32_t u = static_cast<uint16_t>(x >> (16 * k));
        uint32_t bytes = (0xE0 | u >> 12) | ((0x80 | ((u >> 6) & 0x3F)) << 8) | ((0x80 | (u & 0x3F)) << 16);
        std::memcpy(o, &bytes, 4);
        o += 3;
      }
    }
    return 24;
  }
};

}  // namespace wasmjson
