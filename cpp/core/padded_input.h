// An owned copy of an input with the kPadding zero bytes every reader requires.
// The wasm boundary does not use this (JS writes straight into linear memory); native
// tests, fuzzers and benchmarks do.
#pragma once
#include <cstdlib>
#include <algorithm>
#include <string_view>

#include "../kernels/kernel.h"

namespace wasmjson {

class padded_input {
 public:
  explicit padded_input(std::string_view s) : size_(s.size()) {
    data_ = static_cast<uint8_t*>(std::calloc(s.size() + kPadding, 1));
    if (data_) std::copy(s.begin(), s.end(), data_);
  }
  padded_input(const padded_input&) = delete;
  padded_input& operator=(const padded_input&) = delete;
  ~padded_input() { std::free(data_); }
  const uint8_t* data() const { return data_; }
  size_t size() const { return size_; }

 private:
  uint8_t* data_;
  size_t size_;
};

}  // namespace wasmjson
