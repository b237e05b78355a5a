// String content -> JSON string content, exactly as V8's (well-formed) JSON.stringify
// escapes it: '"' and '\\' backslashed; \b \f \n \r \t; other control characters as
// \u00xx; lone surrogates as \udxxx (lowercase hex); everything else as UTF-8. Clean
// runs are copied a kernel chunk at a time, and text that is not ASCII is written eight
// units a step where the kernel can; only the rest is handled one unit at a time.
//
// Inputs are the command stream's string data (writer_commands.h): UTF-16 code units,
// or UTF-8 with lengths counted in UTF-16 units. Every function here may read one
// kernel chunk past its input (the strings buffer carries kPadding bytes) and store one
// chunk past its output (callers reserve kEscapeSlack more bytes).
#pragma once
#include <cstddef>
#include <cstdint>
#include <cstring>

#include "growable.h"
#include "writer_commands.h"

namespace wasmjson {

// Output room per input UTF-16 unit: "\u001f" and "\ud800" are six bytes each.
inline constexpr size_t kMaxEscapedPerUnit = 6;
// Extra output room for the chunk stores of copy_string_run / narrow_string_run.
inline constexpr size_t kEscapeSlack = 16;
// The most units a string may have for its worst-case room (kMaxEscapedPerUnit each) to
// be a request memory can meet (kGrowthCeiling): more is out of memory at once, and the
// room's size cannot wrap around in wasm32's 32-bit size_t.
inline constexpr size_t kMaxEscapableUnits = kGrowthCeiling / kMaxEscapedPerUnit;
// A UTF-16 string longer than this is escaped in pieces of at most this many units (no
// piece splits a surrogate pair), each given its own worst-case room: the whole string's
// (6 bytes a unit) made strings from about 300 million units fail where their output
// fits (JS strings reach 2^29 - 24).
// UTF-8 string data (encodeInto, for engines without Node's Buffer or string builtins)
// cannot be cut by units without decoding it: there kMaxEscapableUnits is the limit,
// and JS sends batches with long strings as UTF-16.
inline constexpr size_t kEscapePieceUnits = size_t(1) << 16;

namespace detail {

inline constexpr char kHexLower[] = "0123456789abcdef";

// An ASCII byte that must be escaped ('"', '\\' or < 0x20).
inline uint8_t* escape_ascii(uint8_t* o, uint8_t c) {
  o[0] = '\\';
  switch (c) {
    case '"': o[1] = '"'; return o + 2;
    case '\\': o[1] = '\\'; return o + 2;
    case '\b': o[1] = 'b'; return o + 2;
    case '\f': o[1] = 'f'; return o + 2;
    case '\n': o[1] = 'n'; return o + 2;
    case '\r': o[1] = 'r'; return o + 2;
    case '\t': o[1] = 't'; return o + 2;
    default:
      std::memcpy(o + 1, "u00", 3);
      o[4] = static_cast<uint8_t>(kHexLower[c >> 4]);
      o[5] = static_cast<uint8_t>(kHexLower[c & 15]);
      return o + 6;
  }
}

inline uint8_t* escape_unit(uint8_t* o, uint16_t u) {
  o[0] = '\\';
  o[1] = 'u';
  o[2] = static_cast<uint8_t>(kHexLower[u >> 12]);
  o[3] = static_cast<uint8_t>(kHexLower[(u >> 8) & 15]);
  o[4] = static_cast<uint8_t>(kHexLower[(u >> 4) & 15]);
  o[5] = static_cast<uint8_t>(kHexLower[u & 15]);
  return o + 6;
}

inline uint8_t* put_utf8(uint8_t* o, uint32_t cp) {
  if (cp < 0x80) {
    *o = static_cast<uint8_t>(cp);
    return o + 1;
  }
  if (cp < 0x800) {
    o[0] = static_cast<uint8_t>(0xC0 | (cp >> 6));
    o[1] = static_cast<uint8_t>(0x80 | (cp & 0x3F));
    return o + 2;
  }
  if (cp < 0x10000) {
    o[0] = static_cast<uint8_t>(0xE0 | (cp >> 12));
    o[1] = static_cast<uint8_t>(0x80 | ((cp >> 6) & 0x3F));
    o[2] = static_cast<uint8_t>(0x80 | (cp & 0x3F));
    return o + 3;
  }
  o[0] = static_cast<uint8_t>(0xF0 | (cp >> 18));
  o[1] = static_cast<uint8_t>(0x80 | ((cp >> 12) & 0x3F));
  o[2] = static_cast<uint8_t>(0x80 | ((cp >> 6) & 0x3F));
  o[3] = static_cast<uint8_t>(0x80 | (cp & 0x3F));
  return o + 4;
}

// A BMP code point >= 0x80 that is not a surrogate: two or three bytes.
inline uint8_t* put_bmp(uint8_t* o, uint32_t cp) {
  if (cp < 0x800) {
    o[0] = static_cast<uint8_t>(0xC0 | (cp >> 6));
    o[1] = static_cast<uint8_t>(0x80 | (cp & 0x3F));
    return o + 2;
  }
  o[0] = static_cast<uint8_t>(0xE0 | (cp >> 12));
  o[1] = static_cast<uint8_t>(0x80 | ((cp >> 6) & 0x3F));
  o[2] = static_cast<uint8_t>(0x80 | (cp & 0x3F));
  return o + 3;
}

inline bool is_high(uint16_t u) { return (u & 0xFC00) == 0xD800; }
inline bool is_low(uint16_t u) { return (u & 0xFC00) == 0xDC00; }
inline uint32_t pair(uint16_t hi, uint16_t lo) { return 0x10000 + ((hi - 0xD800u) << 10) + (lo - 0xDC00u); }

// The UTF-8 sequence at q (well-formed, lead byte >= 0x80) of a string with n UTF-16
// units left: its length in bytes, taking its units off n. 0 when the batch must go
// again as UTF-16: U+FFFD (TextEncoder's stand-in for a lone surrogate), or a 4-byte
// sequence with one unit left (a pair split between two strings).
inline size_t utf8_sequence(const uint8_t* q, size_t& n) {
  uint8_t c = *q;
  if (c < 0xE0) {
    --n;
    return 2;
  }
  if (c < 0xF0) {
    if (c == 0xEF && q[1] == 0xBF && q[2] == 0xBD) return 0;
    --n;
    return 3;
  }
  if (n < 2) return 0;
  n -= 2;
  return 4;
}

}  // namespace detail

// Escapes the n UTF-16 units at p (content only, no quotes). Room: 6n + kEscapeSlack.
// Sets kOutputNonAscii in flags when it writes a byte >= 0x80.
template <class Kernel>
uint8_t* escape_utf16(uint8_t* o, const uint16_t* p, size_t n, uint32_t& flags) {
  const uint16_t* const end = p + n;
  while (p != end) {
    size_t s = Kernel::narrow_string_run(p, o);
    if (s == Kernel::units16 && static_cast<size_t>(end - p) > s) {
      // A clean chunk: constant steps, so the next chunk's load need not wait for this
      // one's scan (in wasm, p += s made every chunk wait: long strings scanned 2x slower).
      o += Kernel::units16;
      p += Kernel::units16;
      continue;
    }
    if (s >= static_cast<size_t>(end - p)) return o + (end - p);
    o += s;
    p += s;
    uint16_t u = *p;
    if (u < 0x80) {
      o = detail::escape_ascii(o, static_cast<uint8_t>(u));
      ++p;
      continue;
    }
    // Text that is not ASCII (most scripts) mixes in spaces and punctuation: here until
    // two ASCII units in a row, eight at a time where all are below 0x800 and none needs
    // an escape (Latin, Greek, Cyrillic, ...: string_pairs_run) or all are from 0x800 up
    // (CJK, kana, ...: utf8_triples_run), else the next eight one by one (surrogates,
    // escapes, scripts mixed).
    do {
      const uint16_t* step_end = end;
      if (end - p >= 8) {
        size_t bytes = *p < 0x800 ? Kernel::string_pairs_run(p, o) : Kernel::utf8_triples_run(p, o);
        if (bytes != 0) {
          if (bytes > 8) flags |= cmd::kOutputNonAscii;
          o += bytes;
          p += 8;
          continue;
        }
        step_end = p + 8;
      }
      // (A pair may take the last step one unit past step_end.)
      while (p < step_end) {
        u = *p++;
        if (u < 0x80) {
          if (u < 0x20 || u == '"' || u == '\\') o = detail::escape_ascii(o, static_cast<uint8_t>(u));
          else *o++ = static_cast<uint8_t>(u);
        } else if ((u & 0xF800) != 0xD800) {
          flags |= cmd::kOutputNonAscii;
          o = detail::put_bmp(o, u);
        } else if (detail::is_high(u) && p < end && detail::is_low(*p)) {
          flags |= cmd::kOutputNonAscii;
          o = detail::put_utf8(o, detail::pair(u, *p++));
        } else {
          flags |= cmd::kOutputLoneEscape;
          o = detail::escape_unit(o, u);  // a lone surrogate
        }
      }
    } while (p < end && (*p >= 0x80 || (end - p > 1 && p[1] >= 0x80)));
  }
  return o;
}

// Escapes UTF-8 text of n UTF-16 units starting at p, and moves p past it. Room: 6n +
// kEscapeSlack. Returns nullptr, having consumed nothing that matters, when the text may
// stand for something else in JS: U+FFFD (TextEncoder's stand-in for a lone surrogate)
// or a 4-byte sequence with only one unit of the string left (a pair split between two
// strings). The caller then asks for the batch as UTF-16.
template <class Kernel>
uint8_t* escape_utf8(uint8_t* o, const uint8_t*& p, size_t n, uint32_t& flags) {
  const uint8_t* q = p;
  while (n != 0) {
    size_t s = Kernel::copy_string_run(q, o);
    if (s == Kernel::width && n > s) {
      // A clean chunk: constant steps (see escape_utf16).
      o += Kernel::width;
      q += Kernel::width;
      n -= Kernel::width;
      continue;
    }
    if (s >= n) {
      o += n;
      q += n;
      break;
    }
    o += s;
    q += s;
    n -= s;
    uint8_t c = *q;
    if (c < 0x80) {
      o = detail::escape_ascii(o, c);
      ++q;
      --n;
      continue;
    }
    size_t len = detail::utf8_sequence(q, n);
    if (len == 0) return nullptr;
    flags |= cmd::kOutputNonAscii;
    std::memcpy(o, q, 4);  // the slack covers the bytes past len
    o += len;
    q += len;
  }
  p = q;
  return o;
}

// Raw text (no escaping) from n UTF-16 units: UTF-8, with each lone surrogate as WTF-8
// (keep_lone, also sets kOutputWtf8) or as U+FFFD. Room: 3n.
inline uint8_t* transcode_utf16(uint8_t* o, const uint16_t* p, size_t n, bool keep_lone, uint32_t& flags) {
  const uint16_t* end = p + n;
  while (p < end) {
    uint16_t u = *p++;
    if (u < 0x80) {
      *o++ = static_cast<uint8_t>(u);
      continue;
    }
    flags |= cmd::kOutputNonAscii;
    if ((u & 0xF800) != 0xD800) {
      o = detail::put_utf8(o, u);
    } else if (detail::is_high(u) && p < end && detail::is_low(*p)) {
      o = detail::put_utf8(o, detail::pair(u, *p++));
    } else if (keep_lone) {
      flags |= cmd::kOutputWtf8;
      o = detail::put_utf8(o, u);
    } else {
      o = detail::put_utf8(o, 0xFFFD);
    }
  }
  return o;
}

// Raw UTF-8 text of n UTF-16 units starting at p, copied; moves p past it. Room: 3n.
// Returns nullptr in the same cases as escape_utf8.
inline uint8_t* copy_utf8(uint8_t* o, const uint8_t*& p, size_t n, uint32_t& flags) {
  const uint8_t* q = p;
  while (n != 0) {
    uint8_t c = *q;
    if (c < 0x80) {
      *o++ = c;
      ++q;
      --n;
      continue;
    }
    size_t len = detail::utf8_sequence(q, n);
    if (len == 0) return nullptr;
    flags |= cmd::kOutputNonAscii;
    for (size_t i = 0; i < len; ++i) *o++ = q[i];
    q += len;
  }
  p = q;
  return o;
}

}  // namespace wasmjson
