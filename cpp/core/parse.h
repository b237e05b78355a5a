// parse(): bytes -> tape (tape.h), one call per document.
#pragma once
#include "tape_writer.h"
#include "validate.h"

namespace wasmjson {

enum parse_flags : uint32_t {
  // After every primitive, two words with its source text's UTF-16 range (revivers).
  kWithSource = 1u << 1,
  // Emit every key as new and uncached (for JS strings that are not well-formed UTF-16,
  // whose lone surrogates all encode to the same U+FFFD bytes).
  kNoKeyInterning = 1u << 2,
  // Parse one value, an array element, and stop after it (lazy documents, at()): the
  // result offset is the value's end; what follows is read only up to the comma or ']'
  // that must come next.
  kSingleValue = 1u << 3,
  // Positions in the tape are byte offsets, not UTF-16 offsets (JS decodes each string
  // from the bytes: for documents too large to become one JS string).
  kByteOffsets = 1u << 4,
  // Strings and new keys without escapes are copied to a string heap (tape_buffers::heap)
  // and their tape offsets index its UTF-16 form, so JS decodes only the strings, not
  // the whole document (bytes input). Ignored with kWithSource and kByteOffsets.
  kStringHeap = 1u << 5,
  // Integer literals (no fraction, no exponent) as text for JS to make BigInts of
  // (kDouble with payload kIntegerText): those whose value is beyond ±(2^53 - 1) ...
  kBigIntsUnsafe = 1u << 6,
  // ... or all of them.
  kBigIntsAll = 1u << 7,
  // With kSingleValue: the value is an object member (a comma or '}' must follow).
  kInObject = 1u << 8,
};

namespace detail {
template <class Kernel, bool WithSource, bool BigInts>
result parse_with(const uint8_t* data, size_t len, uint32_t flags, byte_stack& stack, tape_buffers& out,
                  key_table& keys, shape_table& shapes) {
  bigint_mode bigints = (flags & kBigIntsAll) ? bigint_mode::all : (flags & kBigIntsUnsafe) ? bigint_mode::unsafe : bigint_mode::none;
  using sink_type = tape_writer<Kernel, WithSource, BigInts>;
  sink_type sink(out, keys, shapes, !(flags & kNoKeyInterning), (flags & (kStringHeap | kByteOffsets)) == kStringHeap,
                 bigints);
  reader<Kernel, sink_type> r(data, len, sink, stack, bom_length(data, len, flags));
  if (flags & kSingleValue) r.stop_after_member((flags & kInObject) ? '}' : ']');
  if (flags & kByteOffsets) r.positions_in_bytes();
  result res = r.run_inline();
  out.saw_replacement = r.saw_replacement();
  return res;
}
}  // namespace detail

// Requires kPadding zero bytes after data[len - 1]. `out` is cleared first.
template <class Kernel>
result parse(const uint8_t* data, size_t len, uint32_t flags, byte_stack& stack, tape_buffers& out,
             key_table& keys, shape_table& shapes) {
  out.clear();
  // Three variants, not four: with source ranges (revivers, already the slow path) the
  // BigInt mode is checked per number, which spares the wasm file a fourth reader.
  if (flags & kWithSource) return detail::parse_with<Kernel, true, true>(data, len, flags, stack, out, keys, shapes);
  return (flags & (kBigIntsUnsafe | kBigIntsAll))
             ? detail::parse_with<Kernel, false, true>(data, len, flags, stack, out, keys, shapes)
             : detail::parse_with<Kernel, false, false>(data, len, flags, stack, out, keys, shapes);
}

}  // namespace wasmjson
