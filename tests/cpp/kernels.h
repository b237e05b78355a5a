// The kernel list every C++ test is instantiated over.
#pragma once
#include <gtest/gtest.h>

#include "kernels/kernel_scalar.h"
#include "kernels/kernel_simd128.h"
#include "kernels/kernel_swar64.h"

using AllKernels = ::testing::Types<wasmjson::scalar_kernel, wasmjson::swar64_kernel, wasmjson::simd128_kernel>;

struct KernelNames {
  template <class K>
  static std::string GetName(int) { return K::name; }
};
