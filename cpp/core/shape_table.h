// Interns object shapes: the sequence of key ids of an object, in order, as a path in a
// trie that lives across parses. Each key moves an object from its shape so far to the
// shape with that key added; the node an object ends on is its shape id. Each node
// remembers the key it was last left by (its id and its bytes), so objects of a
// repeating shape walk the trie without hashing, and predict() finds such a key, its id
// and the next shape by comparing bytes: no string scan, no key_table lookup. JS turns a shape it sees again into a constructor that makes the whole
// object with one object literal (js/src/build.ts). Reset together with key_table
// (shapes are made of key ids).
#pragma once
#include <cstdint>
#include <cstdlib>
#include <cstring>

#include "key_table.h"

namespace wasmjson {

class shape_table {
 public:
  static constexpr uint32_t kMaxNodes = 16384;
  static constexpr uint32_t kMaxKeysPerShape = 64;
  static constexpr uint32_t kRoot = 0;  // the empty object: "no shape" to JS
  static constexpr uint32_t kNone = UINT32_MAX;

  shape_table() = default;
  shape_table(const shape_table&) = delete;
  shape_table& operator=(const shape_table&) = delete;
  ~shape_table() {
    std::free(edges_);
    std::free(nodes_);
  }

  bool nearly_full() const { return count_ + 1024 >= kMaxNodes; }
  // Clears only what was used: the edge slot of each node made since the last reset
  // (a failed parse resets the table, so this must not sweep all of it), and the root.
  void reset() {
    if (edges_) {
      for (uint32_t i = 1; i < count_; ++i) edges_[nodes_[i].edge_slot] = edge{};
      nodes_[0] = node{};
    }
    count_ = 1;
  }

  // What predict() finds: the key that last left a shape and the shape it led to.
  struct prediction {
    uint32_t child;   // kNone: no prediction matched
    uint32_t key_id;
    uint32_t length;  // the key's bytes plus its closing quote
  };
  // With p just after a key's opening quote: when the bytes there are those of the key
  // that last left `from` followed by its closing quote, that key and the shape it led
  // to. Both the key and where its string ends are then known without scanning it (see
  // reader.h, key_ahead). Reads 16 bytes at p.
  __attribute__((always_inline)) inline prediction predict(uint32_t from, const uint8_t* p) const {
    if (nodes_) {
      const node& n = nodes_[from];
      uint32_t len = n.last_length;
      if (n.last_child != 0 && len != kNoBytes &&
          (len <= short_key::kMaxLength ? n.last_bytes.matches(p, len)
                                        : same_bytes(p, n.last_long, len - 1) && p[len - 1] == '"'))
        return {n.last_child, n.last_key, len};
    }
    return {kNone, 0, 0};
  }

  // The shape reached from `from` by adding key `key_id`, whose bytes are p[0..len)
  // (followed by their closing quote) and, kept for as long as the id, `kept`;
  // kNone when the table is full, the shape too long, or memory short. The remembered
  // edge is checked inline (keys predict() cannot take go this way); the lookup goes out
  // of line.
  __attribute__((always_inline)) inline uint32_t next(uint32_t from, uint32_t key_id, const uint8_t* p, size_t len,
                                                      const uint8_t* kept) {
    if (nodes_) {
      const node& n = nodes_[from];
      if (n.last_child != 0 && n.last_key == key_id) return n.last_child;
    }
    return next_miss(from, key_id, p, len, kept);
  }

 private:
  __attribute__((noinline)) uint32_t next_miss(uint32_t from, uint32_t key_id, const uint8_t* p, size_t len,
                                               const uint8_t* kept) {
    if (!ensure_storage()) return kNone;
    node& n = nodes_[from];
    if (n.depth >= kMaxKeysPerShape) return kNone;
    uint32_t h = (from * 0x9E3779B1u) ^ (key_id * 0x85EBCA77u);
    h ^= h >> 15;
    for (uint32_t i = h & (kSlots - 1);; i = (i + 1) & (kSlots - 1)) {
      edge& e = edges_[i];
      if (e.child == 0) {
        if (count_ >= kMaxNodes) return kNone;
        uint32_t child = count_++;
        e = {from, key_id, child};
        nodes_[child] = {0, 0, n.depth + 1, i, kNoBytes, {0, 0}, nullptr};
        remember(from, key_id, child, p, len, kept);
        return child;
      }
      if (e.from == from && e.key == key_id) {
        remember(from, key_id, e.child, p, len, kept);
        return e.child;
      }
    }
  }

  static constexpr uint32_t kSlots = kMaxNodes * 2;
  struct edge {
    uint32_t from;
    uint32_t key;
    uint32_t child;  // 0 = empty slot (the root is never a child)
  };
  // last_length for a key predict() does not take: one that is not ASCII (its UTF-16
  // length would differ from its bytes'), or too long to be interned.
  static constexpr uint32_t kNoBytes = UINT32_MAX;
  struct node {
    uint32_t last_key;
    uint32_t last_child;
    uint32_t depth;
    uint32_t edge_slot;    // the slot in edges_ of the edge that leads here
    uint32_t last_length;  // the last key's bytes and closing quote, or kNoBytes
    short_key last_bytes;  // those bytes, when they fit in two words
    const uint8_t* last_long;  // else the key's bytes (key_table's copy)
  };
  void remember(uint32_t from, uint32_t key_id, uint32_t child, const uint8_t* p, size_t len, const uint8_t* kept) {
    node& n = nodes_[from];
    n.last_key = key_id;
    n.last_child = child;
    bool fits = len < short_key::kMaxLength;
    n.last_bytes = fits ? short_key::of(p, len + 1) : short_key{0, 0};
    n.last_long = kept;
    bool ascii = true;
    for (size_t i = 0; i < len; ++i) ascii &= p[i] < 0x80;
    n.last_length = ascii && (fits || kept) ? static_cast<uint32_t>(len + 1) : kNoBytes;
  }
  bool ensure_storage() {
    if (edges_) return true;
    edges_ = static_cast<edge*>(std::calloc(kSlots, sizeof(edge)));
    nodes_ = static_cast<node*>(std::calloc(kMaxNodes, sizeof(node)));
    if (edges_ && nodes_) return true;
    std::free(edges_);
    std::free(nodes_);
    edges_ = nullptr;
    nodes_ = nullptr;
    return false;
  }
  edge* edges_ = nullptr;
  node* nodes_ = nullptr;
  uint32_t count_ = 1;  // node 0 is the root
};

}  // namespace wasmjson
