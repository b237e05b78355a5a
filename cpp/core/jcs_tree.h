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
#include "jcs_number.h"
#include "jcs_shape_cache.h"
#include "jcs_string.h"
#include "reader.h"

namespace wasmjson {

struct jcs_node {
  enum kind : uint32_t { kNull, kFalse, kTrue, kNumber, kString, kStringEscaped, kArray, kObject };
  uint32_t kind;
  // kNumber, kString, kStringEscaped: the source text's byte offsets [a, b) (for strings,
  // the content between the quotes); kNumber: c = its jcs_number_form.
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
  uint64_t prefix;   // utf16_order_prefix of the key bytes
  uint32_t key_off;
  uint32_t key_len;  // | kUnescaped
  uint32_t value;    // node index; also the member's document order
  uint32_t length() const { return key_len & ~kUnescaped; }
};

// A key's bytes (with 8 readable bytes past its end, as compare_utf16_order needs) and
// length.
struct jcs_key_view {
  const uint8_t* p;
  uint32_t len;
};

// A member being sorted: its prefix and its index in the object.
struct jcs_sort_item {
  uint64_t prefix;
  uint32_t index;
};

struct jcs_tree {
  growable<jcs_node> nodes;
  growable<jcs_member> members;       // every object's sorted list, one after another
  growable<jcs_member> open_members;  // members of objects still open, innermost last
  growable<uint8_t> key_bytes;        // decoded escaped keys
  growable<uint32_t> open;            // node indices of the open containers
  jcs_shape_cache shapes;             // sorted orders of the shapes seen so far
  growable<jcs_sort_item> sorting;    // sorting room
  growable<uint32_t> scratch;         // the order of a shape to cache
  void clear() {
    shapes.clear();
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

  // numbers_in_js_form: see kNumbersInJsForm (canonicalize.h).
  jcs_tree_builder(const uint8_t* data, jcs_tree& t, bool numbers_in_js_form = false)
      : data_(data), t_(t), numbers_in_js_form_(numbers_in_js_form) {}

  bool begin_object(size_t) {
    // b holds the first open member until the object closes.
    return open_container({jcs_node::kObject, 0, static_cast<uint32_t>(t_.open_members.size()), 0});
  }
  bool end_object() {
    uint32_t index = t_.open.back();
    t_.open.pop_back();
    uint32_t first_open = t_.nodes.data()[index].b;
    size_t n = t_.open_members.size() - first_open;
    if (!t_.members.reserve_more(n)) return false;
    size_t count = n;
    if (n > 0) {  // (the buffers may not exist yet when both are empty)
      count = order_members(t_.open_members.data() + first_open, n, t_.members.end_ptr());
      if (count == 0) return false;
    }
    t_.nodes.data()[index] = {jcs_node::kObject, static_cast<uint32_t>(t_.nodes.size()),
                              static_cast<uint32_t>(t_.members.size()), static_cast<uint32_t>(count)};
    t_.members.advance(count);
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
    // (A key of 2 GiB or more would not fit beside the kUnescaped flag: out of memory.)
    if (static_cast<size_t>(s.end - s.begin) >= jcs_member::kUnescaped) return false;
    uint32_t len = static_cast<uint32_t>(s.end - s.begin);
    uint32_t value = static_cast<uint32_t>(t_.nodes.size());
    non_ascii_ |= s.has_non_ascii;
    if (!s.has_escape) {
      t_.open_members.push_unchecked({utf16_order_prefix(s.begin, len), begin, len, value});
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
    uint32_t decoded = static_cast<uint32_t>(end - header - 8);
    t_.key_bytes.advance(static_cast<size_t>(end - header));
    t_.open_members.push_unchecked(
        {utf16_order_prefix(header + 8, decoded), off, decoded | jcs_member::kUnescaped, value});
    return true;
  }

  bool string(const string_span& s) {
    non_ascii_ |= s.has_non_ascii;
    return push({s.has_escape ? jcs_node::kStringEscaped : jcs_node::kString, offset(s.begin), offset(s.end), 0});
  }
  bool number(const number_span& n) {
    // (The length test keeps the copy within the writer's room for a number, whatever
    // the text claims to be.)
    bool copied = numbers_in_js_form_ && static_cast<size_t>(n.end - n.begin) <= kMaxNumberLength;
    uint32_t form = static_cast<uint32_t>(copied ? jcs_number_form::canonical : classify_jcs_number(n.begin, n.end, n.is_integer));
    return push({jcs_node::kNumber, offset(n.begin), offset(n.end), form});
  }
  bool literal(literal_kind k, size_t) {
    uint32_t kind = k == literal_kind::null_value ? jcs_node::kNull
                    : k == literal_kind::true_value ? jcs_node::kTrue
                                                    : jcs_node::kFalse;
    return push({kind, 0, 0, 0});
  }

  // Whether a key or string held a byte from 0x80 (copied as it is into the output).
  bool saw_non_ascii() const { return non_ascii_; }

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

  jcs_key_view key_of(uint32_t off, uint32_t len) const {
    return (len & jcs_member::kUnescaped) ? jcs_key_view{t_.key_bytes.data() + off, len & ~jcs_member::kUnescaped}
                                          : jcs_key_view{data_ + off, len};
  }
  jcs_key_view key_of(const jcs_member& m) const { return key_of(m.key_off, m.key_len); }
  // <0, 0, >0 as x's key sorts before, equal to, after y's: the prefixes decide, and
  // only where they cannot do the bytes.
  int compare_keys(const jcs_member& x, const jcs_member& y) const {
    if (x.prefix != y.prefix) return x.prefix < y.prefix ? -1 : 1;
    uint32_t xl = x.length(), yl = y.length();
    if (xl <= 8 && yl <= 8) return xl < yl ? -1 : xl > yl ? 1 : 0;
    jcs_key_view a = key_of(x), b = key_of(y);
    return compare_utf16_order(a.p, a.len, b.p, b.len);
  }

  // Writes the n members (n > 0) to `out` in key order, keeping of equal keys the last
  // one (JSON.parse's value; its place is irrelevant once sorted). Returns how many it
  // wrote, 0 when out of memory. Members already in strictly increasing order (small
  // objects, sorted producers) cost one comparison each; a shape seen before in the
  // document takes its cached order (jcs_shape_cache.h).
  size_t order_members(const jcs_member* m, size_t n, jcs_member* out) {
    size_t i = 1;
    while (i < n && compare_keys(m[i - 1], m[i]) < 0) ++i;
    if (i >= n) {
      std::memcpy(out, m, n * sizeof(jcs_member));
      return n;
    }
    // Objects of a few members sort in fewer comparisons than a cache lookup takes.
    bool cached = n >= kMinCachedMembers;
    uint64_t h = cached ? jcs_shape_cache::hash(n, [&](size_t j) { return m[j].prefix; }, [&](size_t j) { return m[j].length(); }) : 0;
    // Equal prefixes and lengths are equal keys up to 8 bytes; longer ones compare the rest.
    auto same = [&](size_t j, const jcs_key_ref& r) {
      uint32_t len = m[j].length();
      if (m[j].prefix != r.prefix || len != (r.len & ~jcs_member::kUnescaped)) return false;
      return len <= 8 || same_key_bytes(key_of(m[j]).p + 8, key_of(r.off, r.len).p + 8, len - 8);
    };
    uint32_t count;
    if (const uint32_t* order = cached ? t_.shapes.find(h, n, same, count) : nullptr) {
      for (uint32_t j = 0; j < count; ++j) out[j] = m[order[j]];
      return count;
    }
    // Sort (prefix, index) pairs; ties (equal keys) by document order, so the last of each
    // run of equal keys is the one to keep.
    if (!t_.sorting.reserve_more(n) || !t_.scratch.reserve_more(n)) return 0;
    jcs_sort_item* items = t_.sorting.end_ptr();
    for (uint32_t j = 0; j < n; ++j) items[j] = {m[j].prefix, j};
    std::sort(items, items + n, [&](const jcs_sort_item& x, const jcs_sort_item& y) {
      if (x.prefix != y.prefix) return x.prefix < y.prefix;
      int c = compare_keys(m[x.index], m[y.index]);
      return c != 0 ? c < 0 : x.index < y.index;
    });
    uint32_t* order = t_.scratch.end_ptr();
    size_t kept = 0;
    for (size_t j = 0; j < n; ++j) {
      if (j + 1 < n && items[j].prefix == items[j + 1].prefix && compare_keys(m[items[j].index], m[items[j + 1].index]) == 0) {
        continue;
      }
      order[kept] = items[j].index;
      out[kept++] = m[items[j].index];
    }
    if (cached) {
      t_.shapes.remember(h, n, [&](size_t j) { return jcs_key_ref{m[j].prefix, m[j].key_off, m[j].key_len}; }, order,
                         static_cast<uint32_t>(kept));
    }
    return kept;
  }

  static constexpr size_t kMinCachedMembers = 4;

  const uint8_t* data_;
  jcs_tree& t_;
  bool numbers_in_js_form_;
  bool non_ascii_ = false;
};

}  // namespace wasmjson
