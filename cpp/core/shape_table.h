// Interns object shapes: the sequence of key ids of an object, in order, as a path in a
// trie that lives across parses. Each key moves an object from its shape so far to the
// shape with that key added; the node an object ends on is its shape id. JS turns a
// shape that recurs in a later document (or reaches 255 objects in one) into a
// constructor that makes the whole object with one object literal (js/src/build.ts).
// Reset together with key_table (shapes are made of key ids).
//
// Key prediction. Objects of one shape repeat their keys in order, so each node remembers
// the key it was last left by (its id and its bytes) and the node that key led to:
// predict() then recognises the next key by comparing bytes, with no string scan and no
// key_table lookup (reader.h, key_ahead). Every object starts at the root, though, and
// objects of different kinds alternate there (a message, its "user", its "payload"), so
// an object's first key is predicted per context instead: by the key whose value the
// object is (or, in an array, the array's own context).
#pragma once
#include <cstdint>
#include <cstdlib>
#include <cstring>

#include "key_table.h"
#include "zeroed_block.h"

namespace wasmjson {

class shape_table {
 public:
  static constexpr uint32_t kMaxNodes = 16384;
  static constexpr uint32_t kMaxKeysPerShape = 64;
  static constexpr uint32_t kRoot = 0;  // the empty object: "no shape" to JS
  static constexpr uint32_t kNone = UINT32_MAX;
  // Contexts for first keys: 0 = the top level, 1 + b for the value of the key with
  // id b - 1 (b = 0: a key without an id), see tape_writer.h.
  static constexpr uint32_t kContexts = key_table::kMaxKeys + 2;

  shape_table() = default;
  shape_table(const shape_table&) = delete;
  shape_table& operator=(const shape_table&) = delete;
  ~shape_table() {
    release_storage();
  }

  bool nearly_full() const { return count_ + 1024 >= kMaxNodes; }
  // Clears only what was used: the edge slot of each node made since the last reset
  // (a failed parse resets the table, so this must not sweep all of it), and the root.
  // Context predictions are dropped by moving to the next generation.
  void reset() {
    if (edges_) {
      for (uint32_t i = 1; i < count_; ++i) edges_[nodes_[i].edge_slot] = edge{};
      nodes_[0] = node{};
    }
    count_ = 1;
    ++generation_;
  }

  // What predict() finds: the key that last followed and the shape it led to.
  struct prediction {
    uint32_t child;   // kNone: no prediction matched
    uint32_t key_id;
    uint32_t length;  // the key's bytes plus its closing quote
  };
  // With p just after a key's opening quote, in an object whose shape so far is `from`
  // (not the root): when the bytes there are those of the key that last left `from`,
  // followed by its closing quote, that key and the shape it led to. Reads 16 bytes at p.
  __attribute__((always_inline)) inline prediction predict(uint32_t from, const uint8_t* p) const {
    return nodes_ ? nodes_[from].next.match(p) : prediction{kNone, 0, 0};
  }
  // The same for an object's first key, from the last first key seen in `context`.
  __attribute__((always_inline)) inline prediction predict_first(uint32_t context, const uint8_t* p) const {
    if (contexts_) {
      const context_slot& c = contexts_[context];
      if (c.generation == generation_) return c.next.match(p);
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
      const slot& s = nodes_[from].next;
      if (s.child != 0 && s.key == key_id) return s.child;
    }
    return next_miss(from, key_id, p, len, kept);
  }
  // Records that an object in `context` began with key `key_id` (as for next()), which
  // led to shape `child`.
  void remember_first(uint32_t context, uint32_t key_id, uint32_t child, const uint8_t* p, size_t len,
                      const uint8_t* kept) {
    if (!contexts_) return;
    context_slot& c = contexts_[context];
    c.generation = generation_;
    c.next.set(key_id, child, p, len, kept);
  }

 private:
  // length for a key predict() does not take: one that is not ASCII (its UTF-16 length
  // would differ from its bytes'), or one too long for two words given without kept bytes.
  static constexpr uint32_t kNoBytes = UINT32_MAX;
  // A predicted key: its id, the node it leads to, and its bytes.
  struct slot {
    uint32_t key;
    uint32_t child;        // 0: nothing predicted (the root is never a child)
    uint32_t length;       // the key's bytes and closing quote, or kNoBytes
    short_key bytes;       // those bytes, when they fit in two words
    const uint8_t* kept;   // else the key's bytes (key_table's copy)

    __attribute__((always_inline)) prediction match(const uint8_t* p) const {
      uint32_t len = length;
      if (child != 0 && len != kNoBytes &&
          (len <= short_key::kMaxLength ? bytes.matches(p, len)
                                        : same_bytes(p, kept, len - 1) && p[len - 1] == '"'))
        return {child, key, len};
      return {kNone, 0, 0};
    }
    void set(uint32_t key_id, uint32_t to, const uint8_t* p, size_t len, const uint8_t* kept_bytes) {
      key = key_id;
      child = to;
      bool fits = len < short_key::kMaxLength;
      bytes = fits ? short_key::of(p, len + 1) : short_key{0, 0};
      kept = kept_bytes;
      bool ascii = true;
      for (size_t i = 0; i < len; ++i) ascii &= p[i] < 0x80;
      length = ascii && (fits || kept_bytes) ? static_cast<uint32_t>(len + 1) : kNoBytes;
    }
  };
  struct node {
    slot next;           // the key that last left this node
    uint32_t depth;
    uint32_t edge_slot;  // the slot in edges_ of the edge that leads here
  };
  struct context_slot {
    slot next;
    uint32_t generation;  // valid when it is the table's
  };
  static constexpr uint32_t kSlots = kMaxNodes * 2;
  struct edge {
    uint32_t from;
    uint32_t key;
    uint32_t child;  // 0 = empty slot (the root is never a child)
  };

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
        nodes_[child] = node{slot{}, n.depth + 1, i};
        n.next.set(key_id, child, p, len, kept);
        return child;
      }
      if (e.from == from && e.key == key_id) {
        n.next.set(key_id, e.child, p, len, kept);
        return e.child;
      }
    }
  }

  bool ensure_storage() {
    if (edges_) return true;
    // Zeroed blocks (zeroed_block.h): their pages are first touched as they are used.
    edges_ = static_cast<edge*>(zeroed_block(kEdgesBytes));
    nodes_ = static_cast<node*>(zeroed_block(kNodesBytes));
    contexts_ = static_cast<context_slot*>(zeroed_block(kContextsBytes));
    if (edges_ && nodes_ && contexts_) return true;
    release_storage();
    return false;
  }
  static constexpr size_t kEdgesBytes = sizeof(edge) * kSlots;
  static constexpr size_t kNodesBytes = sizeof(node) * kMaxNodes;
  static constexpr size_t kContextsBytes = sizeof(context_slot) * kContexts;
  void release_storage() {
    release_zeroed_block(edges_, kEdgesBytes);
    release_zeroed_block(nodes_, kNodesBytes);
    release_zeroed_block(contexts_, kContextsBytes);
    edges_ = nullptr;
    nodes_ = nullptr;
    contexts_ = nullptr;
  }
  edge* edges_ = nullptr;
  node* nodes_ = nullptr;
  context_slot* contexts_ = nullptr;
  uint32_t count_ = 1;       // node 0 is the root
  uint32_t generation_ = 1;  // zeroed context slots (generation 0) predict nothing
};

}  // namespace wasmjson
