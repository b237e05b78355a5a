// Sorted orders of object shapes already seen in the document. Most documents repeat a
// few shapes (the same keys in the same order: every user of an API response, every
// record of a list), and an object of a known shape is put in key order by its cached
// permutation: n key comparisons for equality instead of about n log n ordered ones,
// which on such documents was over half of canonicalization's first pass.
//
// Entries live for one document: keys are compared by their contents (order prefix and
// length, then any bytes past the eighth), never by position, so any object with equal
// keys in the same order hits, and a hash collision only costs a miss.
#pragma once
#include <cstdint>
#include <cstring>

#include "growable.h"

namespace wasmjson {

// How the cache remembers a key: its order prefix and two words its owner can turn back
// into the key's bytes.
struct jcs_key_ref {
  uint64_t prefix;
  uint32_t off;
  uint32_t len;
};

class jcs_shape_cache {
 public:
  static constexpr size_t kSlots = 1024;  // a power of two

  jcs_shape_cache() { std::memset(slots_, 0, sizeof slots_); }

  // Forgets every shape (a new document). Only the slots in use are cleared: small
  // documents are many and fill few.
  void clear() {
    for (size_t i = 0; i < used_.size(); ++i) slots_[used_.data()[i]] = 0;
    used_.clear();
    arena_.clear();
  }

  // The hash of a sequence of n keys from their lengths and order prefixes (prefix(i),
  // len(i)): cheap, and enough to tell most shapes apart.
  template <class PrefixAt, class LenAt>
  static uint64_t hash(size_t n, PrefixAt prefix, LenAt len) {
    uint64_t h = 0x9E3779B97F4A7C15ull ^ n;
    for (size_t i = 0; i < n; ++i) {
      h = (h ^ prefix(i) ^ (uint64_t{len(i)} << 32)) * 0xFF51AFD7ED558CCDull;
      h ^= h >> 29;
    }
    return h;
  }

  // The permutation cached for this shape: `count` entries, each the index of an
  // original member in sorted order (duplicates already dropped); nullptr if unknown.
  // same(i, ref) tells whether key i is the remembered key ref.
  template <class SameKey>
  const uint32_t* find(uint64_t h, size_t n, SameKey same, uint32_t& count) const {
    uint32_t slot = slots_[h >> (64 - kSlotBits)];
    if (slot == 0) return nullptr;
    const uint32_t* e = arena_.data() + (slot - 1);
    uint64_t eh;
    std::memcpy(&eh, e, 8);
    if (eh != h || e[2] != n) return nullptr;
    for (size_t i = 0; i < n; ++i) {
      jcs_key_ref r;
      std::memcpy(&r, e + kHeaderWords + kRefWords * i, sizeof r);
      if (!same(i, r)) return nullptr;
    }
    count = e[3];
    return e + kHeaderWords + kRefWords * n;
  }

  // Remembers a shape: ref(i) stands for key i (the keys must stay readable for the rest
  // of the document), `order` is its permutation. Best effort: nothing is cached when
  // memory cannot grow.
  template <class RefAt>
  void remember(uint64_t h, size_t n, RefAt ref, const uint32_t* order, uint32_t count) {
    size_t words = kHeaderWords + kRefWords * n + count;
    uint32_t& slot = slots_[h >> (64 - kSlotBits)];
    if (!arena_.reserve_more(words) || (slot == 0 && !used_.push(static_cast<uint32_t>(&slot - slots_)))) return;
    uint32_t* e = arena_.end_ptr();
    std::memcpy(e, &h, 8);
    e[2] = static_cast<uint32_t>(n);
    e[3] = count;
    for (size_t i = 0; i < n; ++i) {
      jcs_key_ref r = ref(i);
      std::memcpy(e + kHeaderWords + kRefWords * i, &r, sizeof r);
    }
    std::memcpy(e + kHeaderWords + kRefWords * n, order, count * sizeof(uint32_t));
    slot = static_cast<uint32_t>(arena_.size() + 1);
    arena_.advance(words);
  }

 private:
  static constexpr int kSlotBits = 10;
  static_assert(size_t{1} << kSlotBits == kSlots);
  // Entry: hash (2 words), n, count, n key refs, count permutation indices.
  static constexpr size_t kHeaderWords = 4;
  static constexpr size_t kRefWords = sizeof(jcs_key_ref) / sizeof(uint32_t);

  uint32_t slots_[kSlots];  // arena offset + 1 of the newest entry per hash slot; 0: none
  growable<uint32_t> used_;  // indices of the slots that are not 0
  growable<uint32_t> arena_;
};

}  // namespace wasmjson
