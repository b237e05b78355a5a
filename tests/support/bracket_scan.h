// The brackets of JSON text outside its strings, byte by byte: the reference that tests of
// depth-aware code are checked against (tests/cpp/navigate_test.cpp's skips,
// tests/cpp/validate_test.cpp's depth limit, tests/fuzz/fuzz_canonicalize.cpp's depth).
//
// WASMJSON_REFERENCE_FN, defined before including this, marks it (a fuzzer defines it
// to leave the reference out of coverage).
#pragma once
#include <cstddef>
#include <cstdint>

#ifndef WASMJSON_REFERENCE_FN
#define WASMJSON_REFERENCE_FN
#endif

namespace wasmjson::testing_support {

// Calls at(i, depth) for each '[', '{', ']' and '}' of p[0..n) outside strings (a
// backslash in a string skips the byte after it), depth being the nesting after the
// bracket: an opening one's own depth (1 for the outermost), a closing one's parent's.
// Stops where `at` returns false: returns that bracket's index, else n.
template <class At>
WASMJSON_REFERENCE_FN size_t scan_brackets(const uint8_t* p, size_t n, At at) {
  long depth = 0;
  bool in_string = false;
  for (size_t i = 0; i < n; ++i) {
    uint8_t c = p[i];
    if (in_string) {
      if (c == '\\') ++i;
      else if (c == '"') in_string = false;
    } else if (c == '"') {
      in_string = true;
    } else if (c == '[' || c == '{') {
      if (!at(i, ++depth)) return i;
    } else if (c == ']' || c == '}') {
      if (!at(i, --depth)) return i;
    }
  }
  return n;
}

}  // namespace wasmjson::testing_support
