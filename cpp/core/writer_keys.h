// Object keys the serializer has seen, already written out: `"key":` as escaped UTF-8,
// by an id JS assigns (cmd::kKeyNew defines, cmd::kKey writes). A key repeated across
// objects and documents costs one copy. JS decides ids and when to reset (it holds the
// matching Map from key string to id); this side only stores what it is told.
#pragma once
#include <cstdint>
#include <cstdlib>

namespace wasmjson {

class key_cache {
 public:
  static constexpr uint32_t kMaxKeys = 8192;      // js/src/stringify.ts: MAX_KEYS
  static constexpr size_t kMaxKeyUnits = 64;      // js/src/stringify.ts: MAX_KEY_LENGTH
  // Readable bytes past the end of every entry: writers may copy this many at once.
  static constexpr size_t kCopySlack = 32;

  key_cache() = default;
  key_cache(const key_cache&) = delete;
  key_cache& operator=(const key_cache&) = delete;
  ~key_cache() {
    std::free(offsets_);
    std::free(arena_);
  }

  // Forgets every entry: only ids below the highest one defined are swept (JS numbers its
  // keys from 0), not all kMaxKeys of them.
  void reset() {
    arena_used_ = 0;
    if (offsets_) {
      for (uint32_t i = 0; i < defined_end_; ++i) offsets_[i] = kUndefined;
    }
    defined_end_ = 0;
  }

  // Room for one entry of up to `bytes` bytes at the end of the arena (and kCopySlack
  // more); nullptr when memory cannot grow. Valid until the next call.
  uint8_t* room(size_t bytes) {
    if (!offsets_) {
      offsets_ = static_cast<uint32_t*>(std::malloc(sizeof(uint32_t) * 2 * kMaxKeys));
      if (!offsets_) return nullptr;
      lengths_ = offsets_ + kMaxKeys;
      for (uint32_t i = 0; i < kMaxKeys; ++i) offsets_[i] = kUndefined;
    }
    bytes += kCopySlack;
    if (arena_used_ + bytes > arena_cap_) {
      size_t cap = arena_cap_ ? arena_cap_ : 64 * 1024;
      while (cap < arena_used_ + bytes) cap *= 2;
      void* p = std::realloc(arena_, cap);
      if (!p) return nullptr;
      arena_ = static_cast<uint8_t*>(p);
      arena_cap_ = cap;
    }
    return arena_ + arena_used_;
  }

  // Makes the `len` bytes written at room() the entry of `id`, with the output flags
  // (cmd::output_flags) writing it sets. False for a bad id.
  bool define(uint32_t id, size_t len, uint32_t flags) {
    if (id >= kMaxKeys) return false;
    offsets_[id] = static_cast<uint32_t>(arena_used_);
    if (id >= defined_end_) defined_end_ = id + 1;
    lengths_[id] = static_cast<uint32_t>(len) | (flags << kFlagShift);
    arena_used_ += len;
    return true;
  }

  // The entry of `id` and its output flags, or nullptr when it is not defined.
  const uint8_t* get(uint32_t id, size_t& len, uint32_t& flags) const {
    if (id >= kMaxKeys || !offsets_ || offsets_[id] == kUndefined) return nullptr;
    len = lengths_[id] & ((1u << kFlagShift) - 1);
    flags = lengths_[id] >> kFlagShift;
    return arena_ + offsets_[id];
  }

 private:
  static constexpr uint32_t kUndefined = UINT32_MAX;
  static constexpr uint32_t kFlagShift = 24;  // lengths_: length in the low bits, flags above
  uint32_t* offsets_ = nullptr;
  uint32_t* lengths_ = nullptr;
  uint8_t* arena_ = nullptr;
  size_t arena_used_ = 0;
  size_t arena_cap_ = 0;
  uint32_t defined_end_ = 0;  // every id >= this is undefined
};

}  // namespace wasmjson
