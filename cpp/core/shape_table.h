// Interns object shapes: the sequence of key ids of an object, in order. JS turns a
// shape it sees again into a constructor that makes the whole object with one object
// literal, instead of one keyed store per property. Like key_table, the table lives
// across parses and is reset together with it (shapes are made of key ids).
#pragma once
#include <cstdint>
#include <cstdlib>
#include <cstring>

namespace wasmjson {

class shape_table {
 public:
  static constexpr uint32_t kMaxShapes = 2048;
  static constexpr size_t kMaxKeysPerShape = 64;
  static constexpr size_t kArenaIds = 32 * 1024;
  static constexpr uint32_t kNone = 0;  // shape ids start at 1

  shape_table() = default;
  shape_table(const shape_table&) = delete;
  shape_table& operator=(const shape_table&) = delete;
  ~shape_table() {
    std::free(slots_);
    std::free(arena_);
  }

  bool nearly_full() const { return count_ + 64 >= kMaxShapes || arena_used_ + 1024 >= kArenaIds; }
  void reset() {
    if (slots_) std::memset(slots_, 0, sizeof(slot) * kSlots);
    count_ = 0;
    arena_used_ = 0;
  }

  static uint32_t mix(uint32_t h, uint32_t key_id) { return (h ^ key_id) * 0x9E3779B1u + 0x7F4A7C15u; }
  static constexpr uint32_t kSeed = 0x811C9DC5u;

  // The id of the shape made of ids[0..n) with running hash h (from mix()), or kNone.
  uint32_t intern(uint32_t h, const uint32_t* ids, size_t n) {
    if (n == 0 || n > kMaxKeysPerShape || !ensure_storage()) return kNone;
    for (uint32_t i = h & (kSlots - 1);; i = (i + 1) & (kSlots - 1)) {
      slot& s = slots_[i];
      if (s.id == 0) {
        if (count_ >= kMaxShapes || arena_used_ + n > kArenaIds) return kNone;
        std::memcpy(arena_ + arena_used_, ids, n * sizeof(uint32_t));
        s = {h, ++count_, static_cast<uint32_t>(arena_used_), static_cast<uint32_t>(n)};
        arena_used_ += n;
        return s.id;
      }
      if (s.hash == h && s.len == n && std::memcmp(arena_ + s.offset, ids, n * sizeof(uint32_t)) == 0) return s.id;
    }
  }

 private:
  static constexpr uint32_t kSlots = kMaxShapes * 2;
  struct slot {
    uint32_t hash;
    uint32_t id;  // 0 = empty
    uint32_t offset;
    uint32_t len;
  };
  bool ensure_storage() {
    if (slots_) return true;
    slots_ = static_cast<slot*>(std::calloc(kSlots, sizeof(slot)));
    arena_ = static_cast<uint32_t*>(std::malloc(kArenaIds * sizeof(uint32_t)));
    if (slots_ && arena_) return true;
    std::free(slots_);
    std::free(arena_);
    slots_ = nullptr;
    arena_ = nullptr;
    return false;
  }
  slot* slots_ = nullptr;
  uint32_t* arena_ = nullptr;
  size_t arena_used_ = 0;
  uint32_t count_ = 0;
};

}  // namespace wasmjson
