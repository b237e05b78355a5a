// The parse exports (docs/BOUNDARY.md): bytes -> tape. A translation unit of its own,
// compiled without the profile that exports.cpp's validate, minify and prettify are
// compiled with (scripts/pgo/): in the same file, the parse measured 2-4% slower in
// Node 26, although none of its functions had counts.
#include <cstdlib>
#include <cstring>

#include "../core/parse.h"

#include "active_kernel.h"

namespace {
// Reused across calls. No export calls back into JS, so none can be re-entered while
// these are in use; JS finishes reading a tape before it runs any user code.
wasmjson::byte_stack g_stack;
wasmjson::tape_buffers g_tape;
wasmjson::key_table g_keys;
wasmjson::shape_table g_shapes;

// Keys and shapes are forgotten together (shapes are sequences of key ids).
void reset_keys_and_shapes() {
  g_keys.reset();
  g_shapes.reset();
}

// What wj_parse reports, read by JS as consecutive u32 values (docs/BOUNDARY.md).
struct parse_report {
  uint32_t code;
  uint32_t error_offset;
  uint32_t tape;        // pointer to the first tape word
  uint32_t tape_words;  // number of words
  uint32_t numbers;     // pointer to the float64 numbers (8-byte aligned)
  uint32_t utf16;       // pointer to the UTF-16 side buffer (2-byte aligned)
  uint32_t keys_reset;  // 1 when the key table was cleared before this document
  uint32_t saw_replacement;  // 1 when a string contained U+FFFD
  uint32_t utf16_units;      // units in the UTF-16 side buffer
  uint32_t escaped_surrogate;  // 1 when a \u escape wrote a surrogate to it
  uint32_t heap;               // pointer to the string heap (STRING_HEAP flag)
  uint32_t heap_bytes;         // its length in bytes
  uint32_t heap_units;         // its length decoded, in UTF-16 units (= heap_bytes: ASCII)
  uint32_t heap_pieces;        // pointer to the byte offsets where pieces after the first begin
  uint32_t heap_piece_count;   // how many (the tape has as many piece markers)
  uint32_t depth_stop;         // written by wj_parse_depth_check (see there)
};
parse_report g_report;

// Tape buffers over this many bytes are freed before a document that cannot need them.
constexpr size_t kKeepTapeBytes = size_t{1} << 20;

// After a failed parse, whose tape JS never reads: the keys and shapes it interned never
// reached JS, so all are forgotten (the report tells JS to forget its own), and its
// large buffers go (out of memory, they may fill most of it; JS then validates the
// document to tell a syntax error from a document too large).
void forget_failed_parse() {
  reset_keys_and_shapes();
  g_report.keys_reset = 1;
  g_tape.trim(0, kKeepTapeBytes);
}
}  // namespace

// Parses data[0..len) into the tape. Same buffer contract as wj_validate. Returns a
// pointer to a parse_report; the tape stays valid until the next wj_parse call.
WJ_EXPORT const parse_report* wj_parse(uint8_t* data, size_t len, uint32_t flags) {
  std::memset(data + len, 0, wasmjson::kPadding);
  g_report.keys_reset = 0;
  if (g_keys.nearly_full() || g_shapes.nearly_full()) {
    reset_keys_and_shapes();
    g_report.keys_reset = 1;
  }
  // JS has read the last tape by now: buffers a larger document grew can go.
  g_tape.trim(len, kKeepTapeBytes);
  wasmjson::result r = wasmjson::parse<active_kernel>(data, len, flags, g_stack, g_tape, g_keys, g_shapes);
  // (Stopped at a depth limit, it may not have failed: wj_parse_depth_check decides.)
  if (!r.ok() && !g_stack.hit_limit()) forget_failed_parse();
  g_report.code = static_cast<uint32_t>(r.code);
  g_report.error_offset = static_cast<uint32_t>(r.offset);
  g_report.tape = static_cast<uint32_t>(reinterpret_cast<uintptr_t>(g_tape.words.data()));
  g_report.tape_words = static_cast<uint32_t>(g_tape.words.size());
  g_report.numbers = static_cast<uint32_t>(reinterpret_cast<uintptr_t>(g_tape.numbers.data()));
  g_report.utf16 = static_cast<uint32_t>(reinterpret_cast<uintptr_t>(g_tape.utf16.data()));
  g_report.saw_replacement = g_tape.saw_replacement ? 1 : 0;
  g_report.utf16_units = static_cast<uint32_t>(g_tape.utf16.size());
  g_report.escaped_surrogate = g_tape.escaped_surrogate ? 1 : 0;
  g_report.heap = static_cast<uint32_t>(reinterpret_cast<uintptr_t>(g_tape.heap.data()));
  g_report.heap_bytes = static_cast<uint32_t>(g_tape.heap.size());
  g_report.heap_units = static_cast<uint32_t>(g_tape.heap_units);
  g_report.heap_pieces = static_cast<uint32_t>(reinterpret_cast<uintptr_t>(g_tape.heap_pieces.data()));
  g_report.heap_piece_count = static_cast<uint32_t>(g_tape.heap_pieces.size());
  return &g_report;
}

// Forgets every interned key and shape (JS drops its strings and constructors too).
WJ_EXPORT void wj_reset_keys() { reset_keys_and_shapes(); }

// parse's maxDepth, in two calls around a wj_parse (one document's): the limit first,
// then the check, which lifts it. The open containers' stack holds at most max_depth
// entries meanwhile, so the reading stops at the first non-empty container nested
// deeper, however long the rest: a limit exists for hostile input, which may be one
// huge nest (read whole, it filled wasm memory). (Calls of their own: wj_parse's code
// is the same with or without a limit.)
WJ_EXPORT void wj_parse_depth_limit(uint32_t max_depth) { g_stack.clear_and_limit(max_depth); }

// After the wj_parse: the report's depth_stop is 1 when it stopped at the limit and the
// document is otherwise valid. The report then has code 0, and the tape ends with that
// container's begin word, every entry before it complete, for JS to build until it
// meets the first check that fails (that container's depth at the latest), in the order
// it would with the whole tape. Stopped with a syntax error anywhere in the document
// (read whole, with no limit), the report has that error, as a parse without the limit
// would. Else the report is as it was.
WJ_EXPORT void wj_parse_depth_check(const uint8_t* data, size_t len, uint32_t flags) {
  const bool stopped = g_report.code == static_cast<uint32_t>(wasmjson::error_code::out_of_memory) && g_stack.hit_limit();
  g_stack.clear_and_limit(SIZE_MAX);
  g_report.depth_stop = 0;
  if (!stopped) return;
  wasmjson::result whole = wasmjson::validate<active_kernel>(data, len, flags, g_stack);
  if (whole.ok()) {
    g_report.code = 0;
    g_report.error_offset = 0;
    g_report.depth_stop = 1;
    return;
  }
  forget_failed_parse();
  // (Out of memory for the validation itself: the parse's out of memory stands.)
  if (whole.code != wasmjson::error_code::out_of_memory) {
    g_report.code = static_cast<uint32_t>(whole.code);
    g_report.error_offset = static_cast<uint32_t>(whole.offset);
  }
}
