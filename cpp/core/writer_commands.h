// The command stream stringify()/encode() send to wasm: JS walks the value graph and
// writes a batch of commands, wasm formats them as JSON text (writer.h). docs/BOUNDARY.md
// ("Serializing") is the reference; js/src/stringify.ts writes it. Keep all three in step.
//
// A batch is three arrays:
//   ops      32-bit words. The low 4 bits of a word are its tag, the upper 28 bits a
//            payload. Some ops take one more word.
//   numbers  float64 values, consumed in order by kDouble.
//   strings  the characters of every string, key and raw text, back to back, in order:
//            UTF-16 code units (any JS string, lone surrogates included) or UTF-8 (from
//            TextEncoder.encodeInto; the batch call says which). Lengths in ops always
//            count UTF-16 units.
#pragma once
#include <cstdint>

namespace wasmjson::cmd {

enum tag : uint32_t {
  kNull = 0,
  kFalse = 1,
  kTrue = 2,
  kInt = 3,          // payload: the value, a signed 28-bit integer (word >> 4, arithmetic)
  kDouble = 4,       // the next float64 of numbers (NaN and ±Infinity write null)
  kString = 5,       // payload: length; characters from strings
  kKey = 6,          // payload: id of a key defined earlier (kKeyNew)
  kKeyNew = 7,       // payload: id; +1 word: length. Defines the key and writes it.
  kKeyString = 8,    // payload: length; an uncached key, characters from strings
  kArrayBegin = 9,
  kArrayEnd = 10,
  kObjectBegin = 11,
  kObjectEnd = 12,
  kRaw = 13,         // payload: length; text written as it is (JSON.rawJSON, BigInt digits)
};

inline constexpr uint32_t kTagBits = 4;
inline constexpr uint32_t kTagMask = 15;
// A length payload of kLong means: the length is the next word.
inline constexpr uint32_t kLong = (1u << 28) - 1;

// wj_write's status.
enum status : uint32_t {
  kOk = 0,
  kOutOfMemory = 18,  // same number as error_code::out_of_memory
  // The UTF-8 strings of this batch may hide a lone surrogate (TextEncoder wrote U+FFFD)
  // or a surrogate pair split between two strings: nothing was written; send the batch
  // again as UTF-16.
  kResendUtf16 = 19,
  kBadCommand = 20,  // a malformed command stream: a bug on the JS side, never user input
};

// wj_writer_begin's flags.
enum begin_flags : uint32_t {
  kPretty = 1u << 0,  // indent with the gap given to wj_writer_begin
  // Raw text (JSON.rawJSON, the gap) with lone surrogates keeps them as WTF-8 (ED A0 80..)
  // and reports it, for a caller that decodes the output to a JS string itself. Without
  // it they become U+FFFD, as TextEncoder would write them.
  kKeepLoneSurrogates = 1u << 1,
  // RFC 8785 member order (canonicalize(value)): each object's members sorted by key as
  // it closes (writer_sort.h); kOutputUnsorted when that had to stop. Compact only.
  kCanonical = 1u << 2,
};

// wj_write's mode bits.
enum write_mode : uint32_t {
  kWriteUtf8 = 1u << 0,                // the strings are UTF-8 (else UTF-16)
  kWriteBegin = 1u << 1,               // the batch starts a new compact document
  kWriteKeepLoneSurrogates = 1u << 2,  // with kWriteBegin: as kKeepLoneSurrogates
  kWriteCanonical = 1u << 3,           // with kWriteBegin: as kCanonical
};

// Output flags (write_report::flags).
enum output_flags : uint32_t {
  kOutputNonAscii = 1u << 0,  // the output has a byte >= 0x80
  kOutputWtf8 = 1u << 1,      // the output has a lone surrogate as WTF-8 (see kKeepLoneSurrogates)
  kOutputLoneEscape = 1u << 2,  // a string or key has a lone surrogate, written as \udxxx
  kOutputUnsorted = 1u << 3,    // kCanonical: members are not all in key order (writer_sort.h)
};

inline constexpr uint32_t word(tag t, uint32_t payload = 0) { return (payload << kTagBits) | t; }

}  // namespace wasmjson::cmd
