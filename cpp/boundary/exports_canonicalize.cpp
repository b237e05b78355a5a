// The wasm boundary of canonicalize() for JSON text: one call per document, RFC 8785
// output in wasm memory. A translation unit of both modules, like exports_write.cpp;
// docs/BOUNDARY.md ("Canonicalizing") is the contract.
#include <cstdlib>
#include <cstring>
#include <new>

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
  uint32_t output_ascii;     // 1 when the output is all ASCII
};
canonicalize_report g_report;

// Reused across calls; no export calls back into JS, so none is re-entered while in use.
// Their size follows the largest document so far (the tree is about as large as the
// input, and so is the output), so after a document above kKeepInput bytes they are
// given back when a smaller one comes.
constexpr size_t kKeepInput = 16 * 1024 * 1024;
wasmjson::jcs_buffers* g_buffers = nullptr;
size_t g_last_len = 0;

// The buffers for a document of len bytes, or nullptr when memory cannot grow.
wasmjson::jcs_buffers* buffers_for(size_t len) {
  if (g_buffers && g_last_len > kKeepInput && len <= kKeepInput) {
    g_buffers->~jcs_buffers();
    std::free(g_buffers);
    g_buffers = nullptr;
  }
  if (!g_buffers) {
    void* p = std::malloc(sizeof(wasmjson::jcs_buffers));
    if (!p) return nullptr;
    g_buffers = new (p) wasmjson::jcs_buffers();
  }
  g_last_len = len;
  return g_buffers;
}

}  // namespace

// Canonicalizes data[0..len). The buffer must have len + wj_padding() bytes; this call
// writes the padding. Flags: input_flags (validate.h) and canonicalize_flags
// (canonicalize.h). Returns a pointer to the report; the output stays valid until the
// next wj_canonicalize call.
WJ_EXPORT const canonicalize_report* wj_canonicalize(uint8_t* data, size_t len, uint32_t flags) {
  std::memset(data + len, 0, wasmjson::kPadding);
  g_report = {static_cast<uint32_t>(wasmjson::error_code::out_of_memory), 0, 0, 0, 0, 0};
  wasmjson::jcs_buffers* b = buffers_for(len);
  if (!b) return &g_report;
  wasmjson::result r = wasmjson::canonicalize<active_kernel>(data, len, flags, *b);
  g_report.code = static_cast<uint32_t>(r.code);
  g_report.error_offset = static_cast<uint32_t>(r.offset);
  g_report.output = static_cast<uint32_t>(reinterpret_cast<uintptr_t>(b->out.data()));
  g_report.output_len = static_cast<uint32_t>(b->out.size());
  g_report.saw_replacement = b->saw_replacement ? 1 : 0;
  g_report.output_ascii = b->output_ascii ? 1 : 0;
  return &g_report;
}
