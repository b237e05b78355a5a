// The wasm boundary: a few raw exports over pointers and lengths, here and in the other
// exports_*.cpp files, compiled once per flavor; WASMJSON_KERNEL selects the kernel.
// docs/BOUNDARY.md is the contract (exports, memory ownership, error codes); keep it in
// step with these files. This one: memory, validation, minify and prettify (compiled
// with the profile of scripts/pgo/ when there is one), string input, error positions.
#include <cstdlib>
#include <cstring>

#include "../core/reformat.h"
#include "../core/text_position.h"
#include "../core/utf16_input.h"
#include "../core/validate.h"

#include "active_kernel.h"


namespace {
// Offset of the last error; read by JS right after a call that failed.
size_t g_error_offset = 0;
// Reused across calls. No export calls back into JS, so none can be re-entered while
// these are in use; JS finishes reading a tape before it runs any user code.
wasmjson::byte_stack g_stack;

// What wj_reformat reports (docs/BOUNDARY.md).
struct reformat_report {
  uint32_t code;
  uint32_t error_offset;
  uint32_t output;      // pointer to the UTF-8 output
  uint32_t output_len;  // bytes
  uint32_t saw_replacement;  // 1 when a string contained U+FFFD
};
reformat_report g_reformat_report;

const reformat_report* report_reformat(wasmjson::result r, const void* output, size_t output_len, bool saw_replacement) {
  g_reformat_report.code = static_cast<uint32_t>(r.code);
  g_reformat_report.error_offset = static_cast<uint32_t>(r.offset);
  g_reformat_report.output = static_cast<uint32_t>(reinterpret_cast<uintptr_t>(output));
  g_reformat_report.output_len = static_cast<uint32_t>(output_len);
  g_reformat_report.saw_replacement = saw_replacement ? 1 : 0;
  return &g_reformat_report;
}
wasmjson::growable<uint8_t> g_reformat_out;
wasmjson::growable<uint8_t> g_narrowed;
wasmjson::growable<uint16_t> g_units_out;
wasmjson::growable<uint16_t> g_units_line;
wasmjson::growable<uint8_t> g_reformat_line;
}  // namespace

// Memory owned by JS until passed to wj_free. Returns 0 when memory cannot grow.
WJ_EXPORT void* wj_alloc(size_t size) { return std::malloc(size); }
WJ_EXPORT void wj_free(void* p) { std::free(p); }

// Bytes of zero padding an input buffer must have room for after its content.
WJ_EXPORT size_t wj_padding() { return wasmjson::kPadding; }

// 1 = SWAR64 build, 2 = SIMD128 build, 0 = scalar reference build.
WJ_EXPORT uint32_t wj_kernel() { return active_kernel_id; }

WJ_EXPORT size_t wj_error_offset() { return g_error_offset; }

// Containers may nest max_depth deep; 0xFFFFFFFF: any depth (a wasm32 document cannot
// nest deeper).
static size_t depth_limit(uint32_t max_depth) {
  return max_depth == 0xFFFFFFFFu ? wasmjson::kNoDepthLimit : max_depth;
}

// Validates data[0..len). The buffer must have len + wj_padding() bytes; this call
// writes the padding. Returns an error code (0 = valid JSON; too_deep: valid, but
// nested deeper than max_depth).
WJ_EXPORT uint32_t wj_validate(uint8_t* data, size_t len, uint32_t flags, uint32_t max_depth) {
  std::memset(data + len, 0, wasmjson::kPadding);
  wasmjson::result r = wasmjson::validate<active_kernel>(data, len, flags, g_stack, depth_limit(max_depth));
  g_error_offset = r.offset;
  return static_cast<uint32_t>(r.code);
}

// Where byte `offset` of the UTF-8 text at data stands (an error's line and column): a
// pointer to four u32 values: line, line start (byte), UTF-16 units before the offset,
// UTF-16 units before the line start. data[offset] must be readable.
WJ_EXPORT const uint32_t* wj_text_position(const uint8_t* data, size_t offset) {
  static uint32_t report[4];
  wasmjson::text_position t = wasmjson::position_at(data, offset);
  report[0] = static_cast<uint32_t>(t.line);
  report[1] = static_cast<uint32_t>(t.line_start);
  report[2] = static_cast<uint32_t>(t.units);
  report[3] = static_cast<uint32_t>(t.line_start_units);
  return report;
}

// String input given as UTF-16: the n units at `units` as UTF-8 at `out` (lone
// surrogates as U+FFFD, as TextEncoder writes them); returns the bytes written. The
// units may lie in the output buffer, wj_utf16_input_gap(n) bytes after `out`. Only the
// n units are read; 16 writable bytes must follow the output.
WJ_EXPORT size_t wj_utf16_to_utf8(const uint16_t* units, size_t n, uint8_t* out) {
  return wasmjson::utf16_to_utf8<active_kernel>(units, n, out);
}
WJ_EXPORT size_t wj_utf16_input_gap(size_t n) { return wasmjson::utf16_input_gap(n); }

// Rewrites data[0..len) with no whitespace (indent_len == 0) or pretty-printed with the
// given indent (at most 30 bytes: the UTF-8 of at most 10 UTF-16 units). Strings and
// numbers are copied verbatim. Same buffer contract as wj_validate. Minified output is
// written over the input itself (the report points into the input buffer, valid while
// it is; after an error the input is partly rewritten); pretty output stays valid until
// the next wj_reformat call. max_output (0: none) limits pretty output's bytes: past it,
// the call stops with error code 23 (output_too_long).
WJ_EXPORT const reformat_report* wj_reformat(uint8_t* data, size_t len, uint32_t flags, const uint8_t* indent,
                                             size_t indent_len, size_t max_output) {
  std::memset(data + len, 0, wasmjson::kPadding);
  bool saw_replacement = false;
  wasmjson::result r;
  const uint8_t* output = nullptr;
  size_t output_len = 0;
  if (indent_len == 0) {
    size_t begin = 0;
    r = wasmjson::minify_in_place<active_kernel>(data, len, flags, g_stack, &begin, &output_len, &saw_replacement);
    output = data + begin;
  } else {
    wasmjson::begin_output_limit(max_output ? max_output : SIZE_MAX);
    r = wasmjson::prettify<active_kernel>(data, len, flags, indent, indent_len, g_stack, g_reformat_out,
                                          g_reformat_line, &saw_replacement);
    r = wasmjson::end_output_limit(r, g_reformat_out);
    output = g_reformat_out.data();
    output_len = g_reformat_out.size();
  }
  return report_reformat(r, output, output_len, saw_replacement);
}

// minify() of a string as its UTF-16 units: units[0..n) (an even address, with 16
// bytes after it that may be read) rewritten in place with no whitespace. The report's
// output is `units`, output_len and error_offset count units.
WJ_EXPORT const reformat_report* wj_minify_units(uint8_t* units, size_t n) {
  size_t output_len = 0;
  wasmjson::result r = wasmjson::minify_units<active_kernel>(units, n, g_narrowed, g_stack, &output_len);
  return report_reformat(r, units, output_len, false);
}

// prettify() of a string as its UTF-16 units: units[0..n) (an even address, with 64
// bytes after it that may be read), indented by indent[0..indent_len) (1 to 10 units) per
// level. The report's output is a buffer of the module's, valid until the next call;
// output_len and error_offset count units. max_output (0: none) limits the output's
// units, as wj_reformat's its bytes.
WJ_EXPORT const reformat_report* wj_prettify_units(const uint8_t* units, size_t n, const uint16_t* indent,
                                                   size_t indent_len, size_t max_output) {
  wasmjson::begin_output_limit(max_output ? max_output : SIZE_MAX);
  wasmjson::result r = wasmjson::prettify_units<active_kernel>(units, n, indent, indent_len, g_narrowed, g_stack,
                                                               g_units_out, g_units_line);
  r = wasmjson::end_output_limit(r, g_units_out);
  return report_reformat(r, g_units_out.data(), g_units_out.size(), false);
}

// validate() of a string as its n UTF-16 units at `units` (an even address): an error
// code, as wj_validate returns; wj_error_offset() then counts units.
WJ_EXPORT uint32_t wj_validate_units(const uint8_t* units, size_t n, uint32_t max_depth) {
  wasmjson::result r = wasmjson::validate_units<active_kernel>(units, n, g_narrowed, g_stack, depth_limit(max_depth));
  g_error_offset = r.offset;
  return static_cast<uint32_t>(r.code);
}
