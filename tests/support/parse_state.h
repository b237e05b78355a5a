// The buffers and tables a parse (cpp/core/parse.h) reads and writes, kept together by
// the fuzz targets that parse document after document with each kernel.
#pragma once
#include <cstddef>
#include <cstdint>

#include "core/parse.h"

namespace wasmjson::testing_support {

struct parse_state {
  byte_stack stack;
  tape_buffers tape;
  key_table keys;
  shape_table shapes;

  // A parse with the tables as they are (key ids and shapes carry over from earlier
  // documents, as in the wasm module).
  template <class Kernel>
  result parse(const uint8_t* text, size_t len, uint32_t flags) {
    return wasmjson::parse<Kernel>(text, len, flags, stack, tape, keys, shapes);
  }
  // A parse from empty tables: its tape depends on this document alone (key ids are
  // numbered from 0), so tapes of different kernels or runs compare word for word.
  template <class Kernel>
  result fresh_parse(const uint8_t* text, size_t len, uint32_t flags) {
    keys.reset();
    shapes.reset();
    return parse<Kernel>(text, len, flags);
  }
};

}  // namespace wasmjson::testing_support
