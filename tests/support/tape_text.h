// The decoded text of a kStringEsc / kKeyNewEsc tape entry (docs/TAPE.md), for the tests
// and fuzzers that read tapes in C++: UTF-16 units of the side buffer, or, when the begin
// word carries tape::kAsciiText, ASCII bytes of the heap.
#pragma once
#include <cstdint>

#include "core/tape_writer.h"

namespace wasmjson::tape_text {

// Appends the text of the escaped entry whose words after the tag are `begin`, `end` to
// `out` (a container of UTF-16 units); false when the range is outside its buffer.
template <class Units>
bool append_escaped(const tape_buffers& t, uint32_t begin, uint32_t end, Units& out) {
  bool ascii = (begin & tape::kAsciiText) != 0;
  begin &= ~tape::kAsciiText;
  if (begin > end || end > (ascii ? t.heap.size() : t.utf16.size())) return false;
  if (ascii) {
    out.insert(out.end(), t.heap.data() + begin, t.heap.data() + end);
  } else {
    out.insert(out.end(), t.utf16.data() + begin, t.utf16.data() + end);
  }
  return true;
}

}  // namespace wasmjson::tape_text
