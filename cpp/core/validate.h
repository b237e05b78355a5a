// validate(): is this byte buffer one RFC 8259 JSON text, in well-formed UTF-8?
#pragma once
#include "reader.h"

namespace wasmjson {

// Input options shared by every entry point that reads JSON.
enum input_flags : uint32_t {
  // Skip one leading UTF-8 byte order mark (EF BB BF). Bytes input sets this, as
  // TextDecoder does before JSON.parse; string input does not (JSON.parse rejects U+FEFF).
  kSkipBom = 1u << 0,
};

inline size_t bom_length(const uint8_t* p, size_t len, uint32_t flags) {
  return ((flags & kSkipBom) && len >= 3 && p[0] == 0xEF && p[1] == 0xBB && p[2] == 0xBF) ? 3 : 0;
}

// Requires kPadding zero bytes after data[len - 1].
template <class Kernel>
result validate(const uint8_t* data, size_t len, uint32_t flags, byte_stack& stack) {
  null_sink sink;
  return reader<Kernel, null_sink>(data, len, sink, stack, bom_length(data, len, flags)).run();
}

}  // namespace wasmjson
