// The wasm boundary of canonicalize() for JSON text: one call per document, RFC 8785
// output in wasm memory. A translation unit of both modules, like exports_write.cpp;
// docs/BOUNDARY.md ("Canonicalizing") is the contract.
#include <cstring>

#include "../core/canonicalize.h"

#include "active_kernel.h"

namespace {

// What wj_canonicalize reports, read by JS as consecutive u32 values (docs/BOUNDARY.md).
struct canonicalize_report {
  uint32_t code;
  uint32_t error_offset;
  uint32_t output;           // pointer to the UTF-8 output
  uint32_t output_len;       // bytes
  uint32_t saw_replacement;  // 1 when a string held U+FFFD
};
canonicalize_report g_report;

// Reused across calls; no export calls back into JS, so none is re-entered while in use.
wasmjson::jcs_buffers g_buffers;

}  // namespace

// Canonicalizes data[0..len). The buffer must have len + wj_padding() bytes; this call
// writes the padding. Returns a pointer to the report; the output stays valid until the
// next wj_canonicalize call.
WJ_EXPORT const canonicalize_report* wj_canonicalize(uint8_t* data, size_t len, uint32_t flags) {
  std::memset(data + len, 0, wasmjson::kPadding);
  wasmjson::result r = wasmjson::canonicalize<active_kernel>(data, len, flags, g_buffers);
  g_report.code = static_cast<uint32_t>(r.code);
  g_report.error_offset = static_cast<uint32_t>(r.offset);
  g_report.output = static_cast<uint32_t>(reinterpret_cast<uintptr_t>(g_buffers.out.data()));
  g_report.output_len = static_cast<uint32_t>(g_buffers.out.size());
  g_report.saw_replacement = g_buffers.saw_replacement ? 1 : 0;
  return &g_report;
}
