// Zeroed blocks for large tables of which a document touches little: key_table's and
// shape_table's hash tables (2 MiB together, of which a small document writes a few
// slots).
//
// calloc writes every byte of them (emscripten's dlmalloc clears every block it hands
// out), so the first parse of a process paid for all those pages at once: 520 pages,
// 5-7 ms on the machine this was measured on, where a page first written costs 11-16 us
// (bench/RESULTS.md's Machine section), against 0.07 ms for JSON.parse of a 2 KB
// document. In wasm, linear memory past sbrk's break has never been written since the
// instance began, so it is zero: blocks come from there, and each page is first touched
// when a table writes it. Natively that memory comes from calloc. A released block is
// kept (the block itself holds the list) and cleared when it is handed out again.
#pragma once
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <new>

#ifdef __EMSCRIPTEN__
#include <unistd.h>
#endif

namespace wasmjson {

namespace detail {
// A released block, held in its own first bytes.
struct released_block {
  released_block* next;
  size_t bytes;
};
inline released_block* g_released_blocks = nullptr;
constexpr size_t kZeroedAlign = 16;

// The size a block of `bytes` is kept under: a request and its release must agree on it.
inline size_t zeroed_size(size_t bytes) { return (bytes + kZeroedAlign - 1) & ~(kZeroedAlign - 1); }

// Memory never handed out before: zero without being written.
inline void* fresh_zeroed_memory(size_t bytes) {
#ifdef __EMSCRIPTEN__
  // Align the break first: sbrk rounds increments to 4 bytes only.
  uintptr_t brk = reinterpret_cast<uintptr_t>(sbrk(0));
  size_t pad = (kZeroedAlign - brk % kZeroedAlign) % kZeroedAlign;
  if (bytes > SIZE_MAX - pad) return nullptr;
  void* p = sbrk(static_cast<intptr_t>(pad + bytes));
  if (p == reinterpret_cast<void*>(-1)) return nullptr;
  return static_cast<uint8_t*>(p) + pad;
#else
  return std::calloc(bytes, 1);  // aligned to max_align_t: 16 on the hosts tests run on
#endif
}
}  // namespace detail

// `bytes` zero bytes, aligned to 16, or nullptr when memory cannot grow.
inline void* zeroed_block(size_t bytes) {
  using namespace detail;
  if (bytes > SIZE_MAX - kZeroedAlign) return nullptr;
  bytes = zeroed_size(bytes);
  for (released_block** link = &g_released_blocks; *link; link = &(*link)->next) {
    released_block* b = *link;
    if (b->bytes == bytes) {
      *link = b->next;
      std::memset(static_cast<void*>(b), 0, bytes);
      return b;
    }
  }
  return fresh_zeroed_memory(bytes);
}

// Gives back a block from zeroed_block(bytes), kept for the next request of that size
// (in wasm, sbrk's memory cannot go back to malloc); nullptr is ignored.
inline void release_zeroed_block(void* p, size_t bytes) {
  using namespace detail;
  if (!p) return;
  bytes = zeroed_size(bytes);
  g_released_blocks = new (p) released_block{g_released_blocks, bytes};
}

}  // namespace wasmjson
