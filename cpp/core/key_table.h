// Interns object keys across parses: each distinct key (by its raw source bytes) gets a
// small id, and JS keeps the matching string in an array indexed by id. A key seen
// before costs JS one array load instead of creating a string. The table persists
// between calls on the same instance and is reset (and JS told) when it fills up.
#pragma once
#include <cstdint>
#include <cstdlib>
#include <cstring>

#include "zeroed_block.h"

namespace wasmjson {

// A key of up to 16 bytes as two little-endian words, zero-padded: two word compares
// instead of a memcmp (most keys are this short).
struct short_key {
  static constexpr size_t kMaxLength = 16;
  uint64_t w0, w1;

  // n (0..8) bytes at p as a little-endian word, upper bytes zero. Reads 8 bytes.
  static uint64_t load_masked(const uint8_t* p, size_t n) {
    uint64_t w;
    std::memcpy(&w, p, 8);
    return n >= 8 ? w : w & ((uint64_t{1} << (8 * n)) - 1);
  }
  static uint64_t first_word(const uint8_t* p, size_t len) { return load_masked(p, len < 8 ? len : 8); }
  static uint64_t second_word(const uint8_t* p, size_t len) { return len > 8 ? load_masked(p + 8, len - 8) : 0; }
  // Reads 16 bytes at p: the input's padding covers keys near its end.
  static short_key of(const uint8_t* p, size_t len) { return {first_word(p, len), second_word(p, len)}; }
  // Whether the len (<= kMaxLength) bytes at p are this key; the second word is loaded
  // only when the first matches.
  bool matches(const uint8_t* p, size_t len) const { return w0 == first_word(p, len) && w1 == second_word(p, len); }
};

// Whether the len bytes at a and b are equal, compared a word at a time: both must be
// readable 8 bytes past len (the input's padding, the arena's slack).
inline bool same_bytes(const uint8_t* a, const uint8_t* b, size_t len) {
  for (; len >= 8; len -= 8, a += 8, b += 8) {
    uint64_t x, y;
    std::memcpy(&x, a, 8);
    std::memcpy(&y, b, 8);
    if (x != y) return false;
  }
  return short_key::load_masked(a, len) == short_key::load_masked(b, len);
}

class key_table {
 public:
  // A document with more distinct keys than fit resets the table on every parse, and JS
  // then loses every key string and constructor it keeps: 8192 covers maps keyed by ids
  // as large as gen:catalog.json's 4,000 (parse 1.13x against 4096), for about 0.15 ms
  // more on the first parse, when the tables are allocated.
  static constexpr uint32_t kMaxKeys = 8192;
  static constexpr size_t kMaxKeyLength = 128;
  static constexpr size_t kArenaBytes = 512 * 1024;
  static constexpr uint32_t kNotInterned = UINT32_MAX;

  key_table() = default;
  key_table(const key_table&) = delete;
  key_table& operator=(const key_table&) = delete;
  ~key_table() {
    release_storage();
  }

  // Clears the table when it is (nearly) full; returns true when it did, so JS can drop
  // its strings too. Called only between documents.
  bool nearly_full() const { return count_ + 256 >= kMaxKeys || arena_used_ + 16 * 1024 >= kArenaBytes; }
  // Clears only what was used: the slot of each id and next_[0..count_] (next_ is only
  // ever written at a previous id + 1 or 0). A failed parse resets the table, so this
  // must not cost a sweep of the whole (512 KiB) table.
  void reset() {
    if (slots_) {
      for (uint32_t id = 0; id < count_; ++id) slots_[slot_of_id_[id]] = slot{};
      std::memset(next_, 0, sizeof(uint32_t) * (count_ + 1));
    }
    count_ = 0;
    arena_used_ = 0;
  }

  // As intern(), but first tries the key that followed `prev` (an id + 1, or 0 at the
  // start of an object) last time: objects of one shape repeat their keys in order, so
  // most keys are found with one comparison and no hashing.
  // The guess is inlined into the caller (one call per key otherwise costs about as much
  // as the guess itself); a miss goes out of line.
  __attribute__((always_inline)) inline uint32_t intern_after(uint32_t prev, const uint8_t* p, size_t len,
                                                              bool& fresh) {
    if (next_ && prev <= kMaxKeys) {
      uint32_t guess = next_[prev];
      if (guess != 0) {
        const slot& s = slots_[slot_of_id_[guess - 1]];
        if (s.len == len && (len <= short_key::kMaxLength ? s.key.matches(p, len)
                                                          : same_bytes(arena_ + s.offset, p, len))) {
          fresh = false;
          return guess - 1;
        }
      }
    }
    return intern_after_miss(prev, p, len, fresh);
  }

  // The bytes of key `id` (kept until the next reset), readable 8 bytes past its end.
  const uint8_t* bytes(uint32_t id) const { return arena_ + slots_[slot_of_id_[id]].offset; }

  // The id of key bytes p[0..len): `fresh` tells whether it was just added. Returns
  // kNotInterned when the key is too long, the table full, or memory short. May read
  // up to 15 bytes past p + len (the input's padding covers that).
  uint32_t intern(const uint8_t* p, size_t len, bool& fresh) {
    fresh = true;
    if (len > kMaxKeyLength || !ensure_storage()) return kNotInterned;
    // Keys of up to 16 bytes (most keys) are compared as two words held in the slot.
    short_key k{0, 0};
    if (len <= short_key::kMaxLength) k = short_key::of(p, len);
    uint32_t h = len <= short_key::kMaxLength ? hash_short(k.w0, k.w1, len) : hash_long(p, len);
    for (uint32_t i = h & (kSlots - 1);; i = (i + 1) & (kSlots - 1)) {
      slot& s = slots_[i];
      if (s.id_plus1 == 0) {
        if (count_ >= kMaxKeys || arena_used_ + len > kArenaBytes) return kNotInterned;
        std::memcpy(arena_ + arena_used_, p, len);
        s = {h, count_ + 1, static_cast<uint32_t>(arena_used_), static_cast<uint32_t>(len), k};
        slot_of_id_[count_] = i;
        arena_used_ += len;
        return count_++;
      }
      if (s.hash == h && s.len == len) {
        bool same = len <= short_key::kMaxLength ? (s.key.w0 == k.w0 && s.key.w1 == k.w1)
                                                 : same_bytes(arena_ + s.offset, p, len);
        if (same) {
          fresh = false;
          return s.id_plus1 - 1;
        }
      }
    }
  }

 private:
  __attribute__((noinline)) uint32_t intern_after_miss(uint32_t prev, const uint8_t* p, size_t len, bool& fresh) {
    uint32_t id = intern(p, len, fresh);
    if (next_ && prev <= kMaxKeys && id != kNotInterned) next_[prev] = id + 1;
    return id;
  }

  static constexpr uint32_t kSlots = kMaxKeys * 2;  // load factor <= 1/2
  // Past the arena's end, so same_bytes() may read a word past its last key.
  static constexpr size_t kArenaSlack = 8;
  struct slot {
    uint32_t hash;
    uint32_t id_plus1;  // 0 = empty
    uint32_t offset;    // in arena_
    uint32_t len;
    short_key key;      // the key's bytes, when len <= short_key::kMaxLength
  };
  static uint32_t hash_short(uint64_t w0, uint64_t w1, size_t len) {
    uint64_t h = (w0 ^ (len * 0x9E3779B97F4A7C15ULL)) * 0xBF58476D1CE4E5B9ULL;
    h = (h ^ w1 ^ (h >> 29)) * 0x94D049BB133111EBULL;
    return static_cast<uint32_t>(h ^ (h >> 32));
  }

  bool ensure_storage() {
    if (slots_) return true;
    // The tables that must start zeroed (zeroed_block.h: their pages are first touched
    // as slots are written, not all at once here).
    slots_ = static_cast<slot*>(zeroed_block(kSlotsBytes));
    arena_ = static_cast<uint8_t*>(std::malloc(kArenaBytes + kArenaSlack));
    slot_of_id_ = static_cast<uint32_t*>(std::malloc(sizeof(uint32_t) * kMaxKeys));
    next_ = static_cast<uint32_t*>(zeroed_block(kNextBytes));
    if (slots_ && arena_ && slot_of_id_ && next_) return true;
    release_storage();
    return false;
  }
  static constexpr size_t kSlotsBytes = sizeof(slot) * kSlots;
  static constexpr size_t kNextBytes = sizeof(uint32_t) * (kMaxKeys + 1);
  void release_storage() {
    release_zeroed_block(slots_, kSlotsBytes);
    std::free(arena_);
    std::free(slot_of_id_);
    release_zeroed_block(next_, kNextBytes);
    slots_ = nullptr;
    arena_ = nullptr;
    slot_of_id_ = nullptr;
    next_ = nullptr;
  }

  static uint32_t hash_long(const uint8_t* p, size_t len) {
    uint64_t h = 0x9E3779B97F4A7C15ULL ^ len;
    size_t i = 0;
    for (; i + 8 <= len; i += 8) {
      uint64_t w;
      std::memcpy(&w, p + i, 8);
      h = (h ^ w) * 0xBF58476D1CE4E5B9ULL;
      h ^= h >> 31;
    }
    if (i < len) {
      uint64_t w;
      std::memcpy(&w, p + i, 8);
      w &= ~0ULL >> (8 * (8 - (len - i)));
      h = (h ^ w) * 0x94D049BB133111EBULL;
      h ^= h >> 29;
    }
    return static_cast<uint32_t>(h ^ (h >> 32));
  }

  slot* slots_ = nullptr;
  uint8_t* arena_ = nullptr;
  uint32_t* slot_of_id_ = nullptr;  // id -> index in slots_
  uint32_t* next_ = nullptr;        // [prev id + 1] -> id + 1 of the key that followed it last
  size_t arena_used_ = 0;
  uint32_t count_ = 0;
};

}  // namespace wasmjson
