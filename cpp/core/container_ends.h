// The end of every object and array of a document, found in one pass: for documents
// navigated again and again (lazy documents walked deep), where skipping a container
// by scanning it (navigate.h, skip_container) would read the same bytes once per level
// of nesting above them. With this index a skip is a binary search.
//
// Brackets are paired exactly as skip_container pairs them, so a lookup gives the same
// end it would: the same brackets stand outside strings (detail_skip::
// brackets_outside_strings), and each closing bracket ends the nearest open container,
// whatever the bracket's kind. A
// container with no closing bracket in the document has no end here (the caller then
// scans, and reports the error as it would have).
#pragma once
#include <cstddef>
#include <cstdint>

#include "growable.h"
#include "navigate.h"

namespace wasmjson::nav {

class container_ends {
 public:
  // Reads doc[0..len) (kPadding zero bytes after it). false when memory ran out.
  template <class Kernel>
  bool build(const uint8_t* doc, size_t len) {
    starts_.clear();
    ends_.clear();
    growable<uint32_t> open;  // indices into starts_ of the containers not closed yet
    uint64_t escape_carry = 0;
    uint64_t in_string = 0;
    const uint8_t* end = doc + len;
    for (const uint8_t* block = doc; block < end; block += Kernel::block_bytes) {
      uint64_t opening, closing;
      detail_skip::brackets_outside_strings<Kernel>(block, escape_carry, in_string, opening, closing);
      for (uint64_t b = opening | closing; b; b &= b - 1) {
        int i = __builtin_ctzll(b);
        uint32_t at = static_cast<uint32_t>(block - doc) + static_cast<uint32_t>(i >> Kernel::block_shift);
        if ((opening >> i) & 1) {
          if (!open.push(static_cast<uint32_t>(starts_.size())) || !starts_.push(at) || !ends_.push(0)) return false;
        } else if (!open.empty()) {
          ends_.data()[open.back()] = at + 1;
          open.pop_back();
        }
      }
    }
    return true;
  }

  // What a cursor consults (navigate.h, known_end); valid until the next build().
  known_ends table() const { return {starts_.data(), ends_.data(), starts_.size()}; }

 private:
  growable<uint32_t> starts_;  // offsets of the opening brackets, ascending
  growable<uint32_t> ends_;    // per start: the offset past its closing bracket, 0 when none
};

}  // namespace wasmjson::nav
