// The kernel a wasm build uses, chosen by WASMJSON_KERNEL_* (CMakeLists.txt), and the
// export attribute. Every boundary translation unit includes this.
#pragma once
#include <cstdint>

#if defined(WASMJSON_KERNEL_SIMD128)
#include "../kernels/kernel_simd128.h"
using active_kernel = wasmjson::simd128_kernel;
inline constexpr uint32_t active_kernel_id = 2;
#elif defined(WASMJSON_KERNEL_SWAR64)
#include "../kernels/kernel_swar64.h"
using active_kernel = wasmjson::swar64_kernel;
inline constexpr uint32_t active_kernel_id = 1;
#else
#include "../kernels/kernel_scalar.h"
using active_kernel = wasmjson::scalar_kernel;
inline constexpr uint32_t active_kernel_id = 0;
#endif

#define WJ_EXPORT extern "C" __attribute__((used, visibility("default")))
