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

// Validation with a limit on nesting (kNoDepthLimit: none): the first '[' or '{'
// deeper than max_depth, unless the text has a syntax error anywhere.
inline constexpr size_t kNoDepthLimit = ~size_t{0};
struct depth_limited_sink : null_sink {
  size_t max_depth = kNoDepthLimit;
  const uint8_t* first_too_deep = nullptr;
  void too_deep(const uint8_t* p) {
    if (!first_too_deep) first_too_deep = p;
  }
};

// Requires kPadding zero bytes after data[len - 1]. Without a limit, the reader of its
// own: the depth test at every '[' and '{' cost validation 1.7% (SIMD128, corpus).
template <class Kernel>
result validate(const uint8_t* data, size_t len, uint32_t flags, byte_stack& stack, size_t max_depth = kNoDepthLimit) {
  size_t start = bom_length(data, len, flags);
  if (max_depth == kNoDepthLimit) {
    null_sink sink;
    return reader<Kernel, null_sink>(data, len, sink, stack, start).run();
  }
  depth_limited_sink sink;
  sink.max_depth = max_depth;
  result r = reader<Kernel, depth_limited_sink>(data, len, sink, stack, start).run();
  if (r.ok() && sink.first_too_deep) return {error_code::too_deep, static_cast<size_t>(sink.first_too_deep - data)};
  return r;
}

}  // namespace wasmjson
