// The wasm boundary: a few raw exports over pointers and lengths. One translation unit,
// compiled once per flavor; WASMJSON_KERNEL selects the kernel. docs/BOUNDARY.md is the
// contract (exports, memory ownership, error codes); keep it in step with this file.
#include <cstdlib>
#include <cstring>

#include "../core/validate.h"

#if defined(WASMJSON_KERNEL_SIMD128)
#include "../kernels/kernel_simd128.h"
using active_kernel = wasmjson::simd128_kernel;
#elif defined(WASMJSON_KERNEL_SWAR64)
#include "../kernels/kernel_swar64.h"
using active_kernel = wasmjson::swar64_kernel;
#else
#include "../kernels/kernel_scalar.h"
using active_kernel = wasmjson::scalar_kernel;
#endif

#define WJ_EXPORT extern "C" __attribute__((used, visibility("default")))

namespace {
// Offset of the last error; read by JS right after a call that failed.
size_t g_error_offset = 0;
// Reused across calls; validation never calls back into JS, so it cannot be re-entered.
wasmjson::byte_stack g_stack;
}  // namespace

// Memory owned by JS until passed to wj_free. Returns 0 when memory cannot grow.
WJ_EXPORT void* wj_alloc(size_t size) { return std::malloc(size); }
WJ_EXPORT void wj_free(void* p) { std::free(p); }

// Bytes of zero padding an input buffer must have room for after its content.
WJ_EXPORT size_t wj_padding() { return wasmjson::kPadding; }

// 1 = SWAR64 build, 2 = SIMD128 build, 0 = scalar reference build.
WJ_EXPORT uint32_t wj_kernel() {
#if defined(WASMJSON_KERNEL_SIMD128)
  return 2;
#elif defined(WASMJSON_KERNEL_SWAR64)
  return 1;
#else
  return 0;
#endif
}

WJ_EXPORT size_t wj_error_offset() { return g_error_offset; }

// Validates data[0..len). The buffer must have len + wj_padding() bytes; this call
// writes the padding. Returns an error code (0 = valid JSON).
WJ_EXPORT uint32_t wj_validate(uint8_t* data, size_t len, uint32_t flags) {
  std::memset(data + len, 0, wasmjson::kPadding);
  wasmjson::result r = wasmjson::validate<active_kernel>(data, len, flags, g_stack);
  g_error_offset = r.offset;
  return static_cast<uint32_t>(r.code);
}
