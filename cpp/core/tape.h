// The tape: what parse() hands to JS, one document per call. docs/TAPE.md is the
// reference; js/src/build.ts reads it. Keep all three in step.
//
// The tape is a sequence of 32-bit words. The low 4 bits of an entry's first word are
// its tag; the upper 28 bits are a payload. Some entries carry extra words.
#pragma once
#include <cstddef>
#include <cstdint>

namespace wasmjson::tape {

enum tag : uint32_t {
  kNull = 0,         // null
  kFalse = 1,        // false
  kTrue = 2,         // true
  kInt = 3,          // payload: the value as a signed 28-bit integer (word >> 4)
  kDouble = 4,       // payload 0: the next value of the numbers array (float64);
                     //   payload kIntegerText (parse flag kBigInts*): an integer literal
                     //   JS makes a BigInt of, +2 words [begin, end) of its text as kString
                     //   (no value in the numbers array);
                     //   payload kHeapPiece: no value, a marker: the string heap's next
                     //   piece begins (the parse flag kStringHeap, see tape_writer.h)
  kString = 5,       // +2 words: [begin, end) in UTF-16 units of the source text
  kStringEsc = 6,    // +4 words: [begin, end) of the UTF-16 side buffer (unescaped),
                     //   then [begin, end) of the raw content in the source text; a begin
                     //   with kAsciiText set: [begin - kAsciiText, end) of the heap instead
                     //   (text that is ASCII once unescaped, without kStringHeap)
  kKey = 7,          // payload: id of a key already known to JS
  kKeyNew = 8,       // payload: id (or kNoId); +2 words: [begin, end) of the source text
  kKeyNewEsc = 9,    // payload: id (or kNoId); +4 words as kStringEsc
  kArrayBegin = 10,  // payload unused
  kObjectBegin = 11,  // payload: shape id, as in its kObjectEnd
  kArrayEnd = 12,
  kObjectEnd = 13,  // payload: shape id (0 = none), see shape_table.h
  kNumberArray = 14,  // +1 word: n; an array of n numbers, the next n values of the
                      // numbers array (replaces kArrayBegin ... kArrayEnd)
  kScalarArray = 15,  // +1 word: n; as kNumberArray, but some of the n values are
                      // literals, held in the numbers array as literal_bits()
};

// Marks a kStringEsc / kKeyNewEsc begin word whose range is in the heap, as bytes (the
// decoded text is ASCII), not in the UTF-16 side buffer. Offsets stay below it.
inline constexpr uint32_t kAsciiText = 1u << 31;

// kDouble's payload for an integer literal kept as text (see kDouble).
inline constexpr uint32_t kIntegerText = 1;
// kDouble's payload for the marker of the string heap's next piece (see kDouble).
inline constexpr uint32_t kHeapPiece = 2;

inline constexpr uint32_t kTagBits = 4;
inline constexpr uint32_t kTagMask = 15;
// A key that was not interned (table full or key too long): JS must not cache it.
inline constexpr uint32_t kNoId = (1u << 28) - 1;
// kInt range: values that fit in the 28-bit payload.
inline constexpr int32_t kIntMin = -(1 << 27);
inline constexpr int32_t kIntMax = (1 << 27) - 1;

inline uint32_t word(tag t, uint32_t payload = 0) { return (payload << kTagBits) | t; }

// Words in the entry whose first word is w, without the two source words that follow a
// primitive's entry with kWithSource.
inline size_t entry_words(uint32_t w) {
  switch (w & kTagMask) {
    case kString:
    case kKeyNew:
      return 3;
    case kDouble:
      return (w >> kTagBits) == kIntegerText ? 3 : 1;
    case kStringEsc:
    case kKeyNewEsc:
      return 5;
    case kNumberArray:
    case kScalarArray:
      return 2;
    default:
      return 1;
  }
}

// A literal (kNull, kFalse, kTrue) in a kScalarArray's slot of the numbers array: a NaN
// (no JSON number is one) whose high word is kLiteralHigh and low word the literal's tag.
inline constexpr uint32_t kLiteralHigh = 0x7FFA0000;
inline uint64_t literal_bits(tag t) { return (uint64_t{kLiteralHigh} << 32) | t; }
inline double literal_slot(tag t) { return __builtin_bit_cast(double, literal_bits(t)); }
// The literal's tag when a numbers array slot holds one, else -1.
inline int literal_of(double slot) {
  uint64_t bits = __builtin_bit_cast(uint64_t, slot);
  return static_cast<uint32_t>(bits >> 32) == kLiteralHigh ? static_cast<int>(bits & 3) : -1;
}

}  // namespace wasmjson::tape
