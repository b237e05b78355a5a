// A growable array of trivially copyable values in heap memory. Growth failure is
// reported (false), never fatal: wasm memory has a hard 4 GiB ceiling.
#pragma once
#include <cstddef>
#include <cstdlib>

namespace wasmjson {

template <class T>
class growable {
 public:
  growable() = default;
  growable(const growable&) = delete;
  growable& operator=(const growable&) = delete;
  ~growable() { std::free(data_); }

  // Makes room for n more values; false when memory cannot grow.
  bool reserve_more(size_t n) { return size_ + n <= capacity_ || grow(n); }
  // Callers reserve first.
  void push_unchecked(T v) { data_[size_++] = v; }
  // False when memory could not grow.
  bool push(T v) {
    if (!reserve_more(1)) return false;
    push_unchecked(v);
    return true;
  }
  T* end_ptr() { return data_ + size_; }
  void advance(size_t n) { size_ += n; }

  T& back() { return data_[size_ - 1]; }
  void pop_back() { --size_; }
  void resize_down(size_t n) { size_ = n; }

  T* data() const { return data_; }
  size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }
  void clear() { size_ = 0; }

 private:
  // Out of line: growth is rare, and inlined it would crowd every hot loop that pushes.
  __attribute__((noinline)) bool grow(size_t n) {
    size_t cap = capacity_ ? capacity_ : 1024;
    // Doubling while small; 1.5x past 64 MiB, so a huge document's buffers leave room in
    // the 4 GiB address space for the realloc copy.
    while (cap < size_ + n) cap += cap * sizeof(T) < (size_t{64} << 20) ? cap : cap / 2;
    void* p = std::realloc(data_, cap * sizeof(T));
    if (!p) return false;
    data_ = static_cast<T*>(p);
    capacity_ = cap;
    return true;
  }

  T* data_ = nullptr;
  size_t size_ = 0;
  size_t capacity_ = 0;
};

}  // namespace wasmjson
