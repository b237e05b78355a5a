// A growable stack of bytes in heap memory: the reader's record of open containers.
// Depth is limited only by memory (no recursion anywhere), and growth failure is
// reported, never fatal.
#pragma once
#include <cstdint>
#include <cstdlib>

namespace wasmjson {

class byte_stack {
 public:
  byte_stack() = default;
  byte_stack(const byte_stack&) = delete;
  byte_stack& operator=(const byte_stack&) = delete;
  ~byte_stack() { std::free(data_); }

  // False when memory could not grow.
  bool push(uint8_t v) {
    if (size_ == capacity_ && !grow()) return false;
    data_[size_++] = v;
    return true;
  }
  void pop() { --size_; }
  uint8_t top() const { return data_[size_ - 1]; }
  size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }
  void clear() { size_ = 0; }

 private:
  bool grow() {
    size_t cap = capacity_ ? capacity_ * 2 : 256;
    void* p = std::realloc(data_, cap);
    if (!p) return false;
    data_ = static_cast<uint8_t*>(p);
    capacity_ = cap;
    return true;
  }
  uint8_t* data_ = nullptr;
  size_t size_ = 0;
  size_t capacity_ = 0;
};

}  // namespace wasmjson
