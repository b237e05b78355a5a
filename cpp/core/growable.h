// A growable array of trivially copyable values in heap memory. Growth failure is
// reported (false), never fatal: wasm memory has a hard 4 GiB ceiling.
#pragma once
#include <cstddef>
#include <cstdint>
#include <cstdlib>

namespace wasmjson {

// The capacity, in elements of `elem` bytes, that holds `needed` elements, grown from
// `current` (or from `initial` when empty): doubling while small, 1.5x past 64 MiB, so a
// huge document's buffers leave room in wasm32's 4 GiB for the realloc copy. 0 when
// `needed` elements are more bytes than any object can have (PTRDIFF_MAX).
//
// No step goes past kGrowthCeiling bytes: wasm32's allocator has no block of 2 GiB (its
// largest is about 2^31 - 4 KiB), so a step past it (the 1.5x after 1.72 GB went to
// PTRDIFF_MAX) failed where the need itself would have fit; the ceiling, or the exact
// need beyond it, is asked for instead.
inline constexpr size_t kGrowthCeiling = (size_t{1} << 31) - (size_t{64} << 10);
inline size_t grown_capacity(size_t current, size_t needed, size_t initial, size_t elem) {
  const size_t max = static_cast<size_t>(PTRDIFF_MAX) / elem;
  if (needed > max) return 0;
  const size_t ceiling = kGrowthCeiling / elem;
  size_t cap = current ? current : initial;
  while (cap < needed) {
    size_t step = cap * elem < (size_t{64} << 20) ? cap : cap / 2;
    if (cap >= ceiling || step > ceiling - cap) return needed > ceiling ? needed : ceiling;
    cap += step;
  }
  return cap;
}

// Reallocates block `p` (of `current` elements of `elem` bytes) to hold `needed`
// elements, at the capacity grown_capacity gives; where memory cannot hold that (near
// wasm32's 4 GiB the old and the new block must fit at once: an output growing from
// 1.09 GB to 1.64 GB failed there, although 1.2 GB would have fit), at a smaller step,
// needed + needed / 8, then needed itself. Never more than `most` elements (when that
// holds `needed`). The new block and its capacity (*cap), or nullptr with `p` untouched.
inline void* grow_block(void* p, size_t current, size_t needed, size_t initial, size_t elem, size_t* cap,
                        size_t most = SIZE_MAX) {
  size_t c = grown_capacity(current, needed, initial, elem);
  if (c == 0) return nullptr;
  if (c > most && most >= needed) c = most;
  for (;;) {
    if (void* q = std::realloc(p, c * elem)) {
      *cap = c;
      return q;
    }
    if (c <= needed) return nullptr;
    size_t smaller = needed + needed / 8;
    c = smaller < c ? smaller : needed;
  }
}

template <class T>
class growable {
 public:
  growable() = default;
  growable(const growable&) = delete;
  growable& operator=(const growable&) = delete;
  ~growable() { std::free(data_); }

  // Makes room for n more values; false when memory cannot grow. With `most`, the
  // capacity grows to at most that many values (if they hold the size plus n).
  bool reserve_more(size_t n, size_t most = SIZE_MAX) { return n <= capacity_ - size_ || grow(n, most); }
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

  // Empties the array, which holds at most `most` values from now on (SIZE_MAX: no
  // limit): reserve_more and push fail past it, as when memory runs out. The capacity
  // never passes the limit (lowered to it here; the block keeps its size, and a later
  // grow reallocates it), so the limit costs the callers' fast path nothing: it is the
  // capacity test they already make.
  void clear_and_limit(size_t most) {
    size_ = 0;
    limit_ = most;
    hit_limit_ = false;
    if (capacity_ > most) capacity_ = most;
  }
  // Whether growth was refused for the limit since it was set.
  bool hit_limit() const { return hit_limit_; }

  T* data() const { return data_; }
  size_t size() const { return size_; }
  size_t capacity() const { return capacity_; }
  bool empty() const { return size_ == 0; }
  void clear() { size_ = 0; }
  // Frees the storage when it is over `bytes` (a buffer grown by an unusually large input).
  void release_if_over(size_t bytes) {
    if (capacity_ * sizeof(T) <= bytes) return;
    std::free(data_);
    data_ = nullptr;
    size_ = 0;
    capacity_ = 0;
  }

 private:
  // Out of line: growth is rare, and inlined it would crowd every hot loop that pushes.
  __attribute__((noinline)) bool grow(size_t n, size_t most) {
    if (n > SIZE_MAX - size_) return false;
    if (size_ + n > limit_) {
      hit_limit_ = true;
      return false;
    }
    size_t cap = 0;
    void* p = grow_block(data_, capacity_, size_ + n, 1024, sizeof(T), &cap, most < limit_ ? most : limit_);
    if (!p) return false;
    data_ = static_cast<T*>(p);
    capacity_ = cap;
    return true;
  }

  T* data_ = nullptr;
  size_t size_ = 0;
  size_t capacity_ = 0;
  size_t limit_ = SIZE_MAX;
  bool hit_limit_ = false;
};

}  // namespace wasmjson
