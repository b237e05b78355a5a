// canonicalize(): JSON text -> its RFC 8785 (JCS) canonical form, as UTF-8. The same text
// JS gets from canonicalizing the value JSON.parse makes of it: objects with duplicate
// keys keep the last value, numbers go through a double.
//
// Two passes: the reader (which validates everything) builds a tree with each object's
// members sorted (jcs_tree.h); the writer then walks it (jcs_writer.h). Reader errors
// come back as they would from parse(); error_code::jcs_lone_surrogate and
// jcs_not_finite mean the document is valid JSON whose value RFC 8785 cannot represent.
#pragma once
#include "jcs_tree.h"
#include "jcs_writer.h"
#include "validate.h"

namespace wasmjson {

// canonicalize()'s flags, besides input_flags (validate.h).
enum canonicalize_flags : uint32_t {
  // Every number in the text is already written as Number::toString writes its value:
  // the serializer's output (canonicalize(value) serializes first). Numbers are then
  // copied as they are, never read into a double and written again.
  kNumbersInJsForm = 1u << 1,
};

// Everything canonicalize() needs besides its input, reused from call to call.
struct jcs_buffers {
  byte_stack stack;
  jcs_tree tree;
  growable<jcs_frame> frames;
  output_buffer out;
  bool saw_replacement = false;  // some string held U+FFFD (see reader::saw_replacement)
  // The output is ASCII: no key or string held a byte from 0x80, nor an escape of a
  // character from U+0080 (JS then makes the text from bytes, with no UTF-8 decoding).
  bool output_ascii = false;
};

// Requires kPadding zero bytes after data[len - 1]. The output is b.out.
template <class Kernel>
result canonicalize(const uint8_t* data, size_t len, uint32_t flags, jcs_buffers& b) {
  b.tree.clear();
  b.out.clear();  // (no output after a reader error)
  b.output_ascii = false;
  jcs_tree_builder sink(data, b.tree, (flags & kNumbersInJsForm) != 0);
  reader<Kernel, jcs_tree_builder> r(data, len, sink, b.stack, bom_length(data, len, flags));
  result res = r.run();
  b.saw_replacement = r.saw_replacement();
  if (!res.ok()) return res;
  jcs_writer<Kernel> writer(data, b.tree, b.out, b.frames);
  res = writer.run();
  b.output_ascii = res.ok() && !sink.saw_non_ascii() && !writer.wrote_non_ascii();
  return res;
}

}  // namespace wasmjson
