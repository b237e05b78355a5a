// Canonicalization, first pass: a reader sink that records the document as a flat tree
// of nodes (one per value, in document order) and, for every object, its members sorted
// in RFC 8785 key order with duplicates resolved. The second pass (jcs_writer.h) writes
// the output from it. Values are not decoded here: nodes point at their source text.
//
// Each object is sorted when it closes, so the work is O(n log n) per object and every
// member list is final before its parent's. Nothing recurses.
#pragma once
#include <algorithm>
#include <cstdint>
#include <cstring>

#include "growable.h"
#include "jcs_key_order.h"
#include "jcs_string.h"
#include "reader.h"

namespace wasmjson {

struct jcs_node {
  enum kind : uint32_t { kNull, kFalse, kTrue, kNumber, kString, kStringEscaped, kArray, kObject };
  uint32_t kind;
  // kNumber, kString, kStringEscaped: the source text's byte offsets [a, b) (for strings,
  // the content between the quotes).
  // kArray: a = the index of the node after its last element (its elements are the nodes
  //   in between, each followed by its own subtree).
  // kObject: a = the same end; b = its first member in jcs_tree::members; c = how many.
  uint32_t a;
  uint32_t b;
  uint32_t c;
};

// An object member: its key and the node of its value.
struct jcs_member {
  // Key bytes: key_len bytes at key_off of the input, or (kUnescaped set) of
  // jcs_tree::key_bytes, where an escaped key is stored decoded, preceded by two u32:
  // its source content's [begin, end) offsets (what is written out).
  static constexpr uint32_t kUnescaped = 1u << 31;
  uint32_t key_off;
  uint32_t key_len;  // | kUnescaped
  uint32_t value;    // node index; also the member's document order
};

struct jcs_tree {
  growable<jcs_node> nodes;
  growable<jcs_member> members;       // every object's sorted list, one after another
  growable<jcs_member> open_members;  // members of objects still open, innermost last
  growable<uint8_t> key_bytes;        // decoded escaped keys
  growable<uint32_t> open;            // node indices of the open containers
  void clear() {
    nodes.clear();
    members.clear();
    open_members.clear();
    key_bytes.clear();
    open.clear();
  }
};

class jcs_tree_builder {
 public:
  static constexpr bool kIgnoresPositions = true;  // byte offsets are all it needs

  jcs_tree_builder(const uint8_t* data, jcs_tree& t) : data_(data), t_(t) {}

  bool begin_object(size_t) {
    // b holds the first open member until the object closes.
    return open_container({jcs_node::kObject, 0, static_cast<uint32_t>(t_.open_members.size()), 0});
  }
  bool end_object() {
    uint32_t index = t_.open.back();
    t_.open.pop_back();
    uint32_t first_open = t_.nodes.data()[index].b;
    jcs_member* m = t_.open_members.data() + first_open;
    size_t n = t_.open_members.size() - first_open;
    n = sort_members(m, n);
    if (!t_.members.reserve_more(n)) return false;
    t_.nodes.data()[index] = {jcs_node::kObject, static_cast<uint32_t>(t_.nodes.size()),
                              static_cast<uint32_t>(t_.members.size()), static_cast<uint32_t>(n)};
    if (n > 0) std::memcpy(t_.members.end_ptr(), m, n * sizeof(jcs_member));  // (null when both empty)
    t_.members.advance(n);
    t_.open_members.resize_down(first_open);
    return true;
  }
  bool begin_array(size_t) { return open_container({jcs_node::kArray, 0, 0, 0}); }
  bool end_array() {
    uint32_t index = t_.open.back();
    t_.open.pop_back();
    t_.nodes.data()[index].a = static_cast<uint32_t>(t_.nodes.size());
    return true;
  }

  bool key(const string_span& s) {
    if (!t_.open_members.reserve_more(1)) return false;
    uint32_t begin = offset(s.begin);
    uint32_t len = static_cast<uint32_t>(s.end - s.begin);
    uint32_t value = static_cast<uint32_t>(t_.nodes.size());
    if (!s.has_escape) {
      t_.open_members.push_unchecked({begin, len, value});
      return true;
    }
    // Decoded, the key is at most as long as its source; 8 more bytes stay allocated after
    // it for compare_utf16_order's word reads.
    if (!t_.key_bytes.reserve_more(8 + len + 8)) return false;
    uint8_t* header = t_.key_bytes.end_ptr();
    uint32_t source[2] = {begin, begin + len};
    std::memcpy(header, source, 8);
    uint8_t* end = unescape_utf8(header + 8, s.begin, s.end);
    uint32_t off = static_cast<uint32_t>(t_.key_bytes.size() + 8);
    t_.key_bytes.advance(static_cast<size_t>(end - header));
    t_.open_members.push_unchecked({off, static_cast<uint32_t>(end - header - 8) | jcs_member::kUnescaped, value});
    return true;
  }

  bool string(const string_span& s) {
    return push({s.has_escape ? jcs_node::kStringEscaped : jcs_node::kString, offset(s.begin), offset(s.end), 0});
  }
  bool number(const number_span& n) { return push({jcs_node::kNumber, offset(n.begin), offset(n.end), 0}); }
  bool literal(literal_kind k, size_t) {
    uint32_t kind = k == literal_kind::null_value ? jcs_node::kNull
                    : k == literal_kind::true_value ? jcs_node::kTrue
                                                    : jcs_node::kFalse;
    return push({kind, 0, 0, 0});
  }

 private:
  uint32_t offset(const uint8_t* p) const { return static_cast<uint32_t>(p - data_); }

  bool push(const jcs_node& n) {
    if (!t_.nodes.reserve_more(1)) return false;
    t_.nodes.push_unchecked(n);
    return true;
  }
  bool open_container(const jcs_node& n) {
    if (!t_.open.reserve_more(1)) return false;
    t_.open.push_unchecked(static_cast<uint32_t>(t_.nodes.size()));
    return push(n);
  }

  const uint8_t* key_of(const jcs_member& m, size_t& len) const {
    len = m.key_len & ~jcs_member::kUnescaped;
    return (m.key_len & jcs_member::kUnescaped) ? t_.key_bytes.data() + m.key_off : data_ + m.key_off;
  }
  int compare_keys(const jcs_member& x, const jcs_member& y) const {
    size_t xl, yl;
    const uint8_t* xp = key_of(x, xl);
    const uint8_t* yp = key_of(y, yl);
    return compare_utf16_order(xp, xl, yp, yl);
  }

  // Sorts n members into key order and keeps, of equal keys, the last one (JSON.parse's
  // value; its place is irrelevant once sorted). Returns how many remain. Members
  // already in strictly increasing order (small objects, sorted producers) cost one
  // comparison each.
  size_t sort_members(jcs_member* m, size_t n) const {
    size_t i = 1;
    while (i < n && compare_keys(m[i - 1], m[i]) < 0) ++i;
    if (i >= n) return n;
    // Ties broken by document order make the last duplicate the last of its run.
    std::sort(m, m + n, [this](const jcs_member& x, const jcs_member& y) {
      int c = compare_keys(x, y);
      return c != 0 ? c < 0 : x.value < y.value;
    });
    size_t out = 0;
    for (size_t j = 0; j < n; ++j) {
      if (j + 1 < n && compare_keys(m[j], m[j + 1]) == 0) continue;
      m[out++] = m[j];
    }
    return out;
  }

  const uint8_t* data_;
  jcs_tree& t_;
};

}  // namespace wasmjson
