// UTF-8 <-> code points / UTF-16 units, one at a time: the fuzzers' reference
// encoder and decoder (tests/fuzz/fuzz_roundtrip.cpp, fuzz_strings.cpp, fuzz_utf16_input.cpp,
// tests/cpp/utf16_input_test.cpp, utf8_to_utf16_test.cpp), independent of the core's.
//
// WASMJSON_REFERENCE_FN, defined before including this, marks the function (a fuzzer
// keeps the reference out of its coverage); it is empty by default.
#pragma once
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#ifndef WASMJSON_REFERENCE_FN
#define WASMJSON_REFERENCE_FN
#endif

namespace wasmjson::utf8_reference {

WASMJSON_REFERENCE_FN inline bool is_high(uint16_t u) { return u >= 0xD800 && u <= 0xDBFF; }
WASMJSON_REFERENCE_FN inline bool is_low(uint16_t u) { return u >= 0xDC00 && u <= 0xDFFF; }

// Appends the UTF-8 of code point c.
WASMJSON_REFERENCE_FN inline void put_utf8(std::string& o, uint32_t c) {
  if (c < 0x80) {
    o += static_cast<char>(c);
  } else if (c < 0x800) {
    o += static_cast<char>(0xC0 | (c >> 6));
    o += static_cast<char>(0x80 | (c & 0x3F));
  } else if (c < 0x10000) {
    o += static_cast<char>(0xE0 | (c >> 12));
    o += static_cast<char>(0x80 | ((c >> 6) & 0x3F));
    o += static_cast<char>(0x80 | (c & 0x3F));
  } else {
    o += static_cast<char>(0xF0 | (c >> 18));
    o += static_cast<char>(0x80 | ((c >> 12) & 0x3F));
    o += static_cast<char>(0x80 | ((c >> 6) & 0x3F));
    o += static_cast<char>(0x80 | (c & 0x3F));
  }
}

// The UTF-8 TextEncoder makes of units u[0..n): a lone surrogate becomes U+FFFD, or
// with keep_lone its own 3 bytes (WTF-8); *lone says whether there was one.
WASMJSON_REFERENCE_FN inline std::string encode_utf16(const uint16_t* u, size_t n, bool keep_lone = false,
                                                      bool* lone = nullptr) {
  std::string o;
  if (lone) *lone = false;
  for (size_t i = 0; i < n; ++i) {
    uint16_t c = u[i];
    if (is_high(c) && i + 1 < n && is_low(u[i + 1])) {
      put_utf8(o, 0x10000 + ((c - 0xD800u) << 10) + (u[i + 1] - 0xDC00u));
      ++i;
    } else if (is_high(c) || is_low(c)) {
      if (lone) *lone = true;
      put_utf8(o, keep_lone ? c : 0xFFFD);
    } else {
      put_utf8(o, c);
    }
  }
  return o;
}

// Appends the units of p[0..n), which must be well-formed UTF-8.
WASMJSON_REFERENCE_FN inline void decode_utf8(std::vector<uint16_t>& u, const uint8_t* p, size_t n) {
  for (size_t i = 0; i < n;) {
    uint8_t c = p[i];
    uint32_t cp;
    if (c < 0x80) {
      cp = c;
      i += 1;
    } else if (c < 0xE0) {
      cp = ((c & 0x1Fu) << 6) | (p[i + 1] & 0x3Fu);
      i += 2;
    } else if (c < 0xF0) {
      cp = ((c & 0x0Fu) << 12) | ((p[i + 1] & 0x3Fu) << 6) | (p[i + 2] & 0x3Fu);
      i += 3;
    } else {
      cp = ((c & 0x07u) << 18) | ((p[i + 1] & 0x3Fu) << 12) | ((p[i + 2] & 0x3Fu) << 6) | (p[i + 3] & 0x3Fu);
      i += 4;
    }
    if (cp >= 0x10000) {
      u.push_back(static_cast<uint16_t>(0xD800 + ((cp - 0x10000) >> 10)));
      u.push_back(static_cast<uint16_t>(0xDC00 + ((cp - 0x10000) & 0x3FF)));
    } else {
      u.push_back(static_cast<uint16_t>(cp));
    }
  }
}

}  // namespace wasmjson::utf8_reference
