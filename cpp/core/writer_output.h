// The serializer's output: one growable byte buffer, reused from document to document
// (growing as growable<> does: grown_capacity).
// Writers reserve the worst case of what they are about to write and then store bytes
// through a raw cursor with no check per byte. Growth failure is reported, never fatal.
#pragma once
#include <cstddef>
#include <cstdint>
#include <cstdlib>

#include "growable.h"

namespace wasmjson {

class output_buffer {
 public:
  output_buffer() = default;
  output_buffer(const output_buffer&) = delete;
  output_buffer& operator=(const output_buffer&) = delete;
  ~output_buffer() { std::free(data_); }

  uint8_t* data() const { return data_; }
  size_t size() const { return size_; }
  void clear() { size_ = 0; }
  // Ends the current write at cursor `end` (a pointer into data()).
  void commit(uint8_t* end) { size_ = static_cast<size_t>(end - data_); }
  void truncate(size_t size) { size_ = size; }

  // Makes room for n more bytes after cursor `o` (a pointer into data(), or anything
  // when data() is null and o == nullptr); returns the cursor in the possibly moved
  // buffer, or nullptr when memory cannot grow. `limit` gets the end of the room.
  uint8_t* reserve(uint8_t* o, size_t n, uint8_t*& limit) {
    size_t used = o ? static_cast<size_t>(o - data_) : 0;
    if (capacity_ - used < n) {
      if (n > SIZE_MAX - used) return nullptr;
      size_t cap = 0;
      void* p = grow_block(data_, capacity_, used + n, 64 * 1024, 1, &cap);
      if (!p) return nullptr;
      data_ = static_cast<uint8_t*>(p);
      capacity_ = cap;
    }
    limit = data_ + capacity_;
    return data_ + used;
  }

  // Exchanges contents with another buffer (a writer that rewrote the text in a buffer of
  // its own: writer_sort.h).
  void swap(output_buffer& other) {
    uint8_t* d = data_;
    size_t s = size_, c = capacity_;
    data_ = other.data_;
    size_ = other.size_;
    capacity_ = other.capacity_;
    other.data_ = d;
    other.size_ = s;
    other.capacity_ = c;
  }

  // Gives memory back after an unusually large document.
  void shrink_if_above(size_t bytes) {
    if (capacity_ > bytes) {
      std::free(data_);
      data_ = nullptr;
      size_ = capacity_ = 0;
    }
  }

 private:
  uint8_t* data_ = nullptr;
  size_t size_ = 0;
  size_t capacity_ = 0;
};

}  // namespace wasmjson
