// The reader's record of open containers: one byte per nesting level in heap memory, so
// depth is limited only by memory (no recursion anywhere), and growth failure is
// reported, never fatal.
#pragma once
#include <cstdint>

#include "growable.h"

namespace wasmjson {

using byte_stack = growable<uint8_t>;

}  // namespace wasmjson
