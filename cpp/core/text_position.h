// Where a byte offset of UTF-8 text stands in the terms of a JS error message: its line
// (CR, LF and CRLF each end one, as V8 counts them), where that line starts, and UTF-16
// units before both. Computed only when an error is reported, over the document still in
// wasm memory, 8 bytes per step in plain 64-bit arithmetic (the same code in both
// builds): a string input's 567 K-character twitter.json took about 1.4 ms by character
// loops and a regex in JS.
#pragma once
#include <cstddef>
#include <cstdint>

#include "../kernels/swar_lanes.h"

namespace wasmjson {

struct text_position {
  size_t line;              // 1-based
  size_t line_start;        // byte offset where the line starts (offset + 1 when a CRLF straddles it)
  size_t units;             // UTF-16 units of text[0, offset)
  size_t line_start_units;  // UTF-16 units of text[0, min(line_start, offset))
};

namespace detail {

// Counts over text[0, n): line-break bytes (LF, and CR not followed by LF), non-ASCII
// continuation bytes and 4-byte leads; `last` = 1 + the offset of the last line-break
// byte (0: none). text[n] must be readable (a CR's next byte).
struct byte_counts {
  size_t breaks = 0, continuations = 0, leads4 = 0, last = 0;
};

inline byte_counts count_bytes(const uint8_t* text, size_t n) {
  byte_counts c;
  size_t i = 0;
  for (; i + 8 <= n; i += 8) {
    uint64_t w = swar::load(text + i);
    uint64_t next = swar::load(text + i + 1);  // the bytes after each byte
    uint64_t lf = swar::eq(w, '\n');
    uint64_t cr = swar::eq(w, '\r');
    uint64_t breaks = lf | (cr & ~swar::eq(next, '\n'));
    c.breaks += static_cast<size_t>(__builtin_popcountll(breaks));
    c.continuations += static_cast<size_t>(__builtin_popcountll(swar::eq(w & (swar::kOnes * 0xC0), 0x80)));
    c.leads4 += static_cast<size_t>(__builtin_popcountll(swar::eq(w & (swar::kOnes * 0xF0), 0xF0)));
    uint64_t any = lf | cr;
    if (any) c.last = i + 8 - static_cast<size_t>(__builtin_clzll(any)) / 8;
  }
  for (; i < n; ++i) {
    uint8_t b = text[i];
    c.breaks += static_cast<size_t>(b == '\n' || (b == '\r' && text[i + 1] != '\n'));
    c.continuations += static_cast<size_t>((b & 0xC0) == 0x80);
    c.leads4 += static_cast<size_t>(b >= 0xF0);
    if (b == '\n' || b == '\r') c.last = i + 1;
  }
  return c;
}

}  // namespace detail

// `text` must be readable at text[offset] (inputs carry padding).
inline text_position position_at(const uint8_t* text, size_t offset) {
  detail::byte_counts all = detail::count_bytes(text, offset);
  size_t breaks = all.breaks;
  size_t line_start = all.last;
  if (offset > 0 && text[offset - 1] == '\r' && text[offset] == '\n') {
    // A CRLF split by the offset: one line break (its CR was not counted), and the
    // line starts after the LF.
    ++breaks;
    line_start = offset + 1;
  }
  size_t units = offset - all.continuations + all.leads4;
  size_t start = line_start < offset ? line_start : offset;
  // The line's own bytes again, to take their units off (lines are short).
  detail::byte_counts line = detail::count_bytes(text + start, offset - start);
  size_t line_units = (offset - start) - line.continuations + line.leads4;
  return {1 + breaks, line_start, units, units - line_units};
}

}  // namespace wasmjson
