// RFC 8785 member order for the serializer's canonical mode (canonicalize(value)): each
// object's members sorted by key, in UTF-16 code unit order (jcs_key_order.h).
//
// The walk reads members in property order (getters and toJSON run in JSON.stringify's
// order) and the writer writes them so, telling this where each member starts. When an
// object closes, its members' order by key comes from the last object with the same key
// ids (a small table, by a hash of some of the ids: records repeat their keys), from the
// shapes sorted before in the document (jcs_shape_cache.h, by the keys themselves), or
// from a sort. Then, unless they are in order already:
//   - an object with no out-of-order object inside is put in order on the spot (a copy
//     of its text, and its members back in key order);
//   - any other keeps a region (its members' byte ranges and their order) until the
//     document's outermost container closes: finish() then copies the whole text once
//     into a second buffer, each region's members in key order and the regions inside a
//     member in their own (an explicit stack of tasks: no recursion), and the buffers
//     swap.
// Each byte so moves at most twice, however deep the nesting (moving every object as it
// closed moved golang-code.json's deepest text once per level, 16 of them). The output is
// RFC 8785's text: canonicalize(value) needs no second pass over it (jcs_*.h, which
// canonicalizes any JSON text, remains the way for text input and for what this does not
// do).
//
// What this does not do, it stops doing (sorting() false: kOutputUnsorted), leaving the
// text valid JSON with the same members for the general canonicalizer: keys written with
// an escape (their escaped bytes do not order as their characters) and UTF-8 batches (one
// sent again as UTF-16 would record its members twice). JS objects have no duplicate keys;
// a command stream with them is sorted with them side by side.
#pragma once
#include <algorithm>
#include <cstdint>
#include <cstring>

#include "../kernels/swar_lanes.h"
#include "growable.h"
#include "jcs_key_order.h"
#include "jcs_shape_cache.h"
#include "writer_output.h"

namespace wasmjson {

class member_sorter {
 public:
  // Bytes past the end of what copy() and has_backslash() are given that they may read
  // (and copy() write).
  static constexpr size_t kCopySlack = 8;
  // A member whose key has no id (an uncached key).
  static constexpr uint32_t kNoId = UINT32_MAX;

  // A new document. (Buffers grown past kKeepBytes by the last one are given back.)
  void reset() {
    members_.release_if_over(kKeepBytes);
    regions_.release_if_over(kKeepBytes);
    segments_.release_if_over(kKeepBytes);
    orders_.release_if_over(kKeepBytes);
    by_begin_.release_if_over(kKeepBytes);
    after_.release_if_over(kKeepBytes);
    open_.release_if_over(kKeepBytes);
    text_.shrink_if_above(kKeepBytes);
    scratch_.shrink_if_above(kKeepBytes);
    members_.clear();
    frames_.clear();
    regions_.clear();
    segments_.clear();
    orders_.clear();
    shapes_.clear();
    for (memo& c : memos_) c.count = 0;
    unsorted_ = 0;
    sorting_ = true;
  }

  // False once the text is left in property order (for the rest of the document).
  bool sorting() const { return sorting_; }
  void stop() { sorting_ = false; }

  // Whether the n bytes at p hold a '\\' (reads whole 8-byte words past them). A key
  // written with one stops the sorting: escaped bytes do not order as their characters.
  static bool has_backslash(const uint8_t* p, size_t n) {
    for (size_t i = 0; i < n; i += 8) {
      if (detail::low_bytes(swar::eq(swar::load(p + i), '\\'), n - i) != 0) return true;
    }
    return false;
  }

  // An object opens. False when memory cannot grow.
  bool open_object() {
    if (!sorting_) return true;
    // Its region's place is taken now, so that regions_ lists them as they begin (a
    // region before those inside it); it stays empty (count 0) if the members are in order.
    if (!frames_.push({static_cast<uint32_t>(members_.size()), static_cast<uint32_t>(regions_.size()), unsorted_})) return false;
    return regions_.push({0, 0, 0, 0});
  }

  // A member starts at offset `start` of the output (its key's opening quote, the key
  // `key_len` bytes between the quotes, without a backslash); `id` is its key's id, or
  // kNoId. False when memory cannot grow.
  bool member(size_t start, size_t key_len, uint32_t id) {
    if (!sorting_) return true;
    return members_.push({static_cast<uint32_t>(start), static_cast<uint32_t>(key_len), id});
  }

  // The object whose closing brace goes at offset `close` of `out` closes: its members
  // are put in key order now if no object inside it had to be (its text moves once more,
  // in finish()), else the order is kept for finish(). `out` must have kCopySlack + 8
  // bytes of room past `close`. False when memory cannot grow.
  bool close_object(uint8_t* out, size_t close) {
    if (!sorting_) return true;
    if (frames_.empty()) {
      // (Only a malformed command stream closes an object that did not open.)
      sorting_ = false;
      return true;
    }
    frame f = frames_.back();
    frames_.pop_back();
    const member_ref* m = members_.data() + f.first_member;
    uint32_t n = static_cast<uint32_t>(members_.size() - f.first_member);
    if (n >= 2) {
      memo* c = memo_for(m, n);
      bool moved;
      if (c && same_ids(*c, m, n)) {
        if (!c->in_order && !place(out, f, m, n, close, c->order.data(), moved)) return false;
      } else if (!order_members(out, f, m, n, close, c)) {
        return false;
      }
    }
    members_.resize_down(f.first_member);
    return true;
  }

  // The document's outermost container has closed at `end`: its text [0, end) in
  // `output` is replaced by one with every region's members in key order (the same
  // length, in another buffer: `output` swaps buffers with one of this sorter's). The
  // text must be readable kCopySlack bytes past `end`. False when memory cannot grow.
  bool finish(output_buffer& output, size_t end) {
    if (!sorting_) return true;
    const uint8_t* out = output.data();
    // The regions that are not empty, as they begin.
    if (!by_begin_.reserve_more(regions_.size())) return false;
    uint32_t* by_begin = by_begin_.data();
    const region* r = regions_.data();
    uint32_t count = 0;
    for (uint32_t j = 0; j < regions_.size(); ++j) {
      if (r[j].count != 0) by_begin[count++] = j;
    }
    if (count == 0) return true;
    uint8_t* limit = nullptr;
    uint8_t* o = text_.reserve(nullptr, end + kCopySlack, limit);
    if (!o || !after_.reserve_more(count) || !open_.reserve_more(count)) return false;
    // after[k]: the first region (in by_begin) past the k-th and all inside it.
    uint32_t* after = after_.data();
    uint32_t* open = open_.data();
    uint32_t depth = 0;
    for (uint32_t k = 0; k <= count; ++k) {
      while (depth != 0 && (k == count || r[by_begin[open[depth - 1]]].close < r[by_begin[k]].begin)) after[open[--depth]] = k;
      if (k < count) open[depth++] = k;
    }
    // Each member's first region: the first one inside the region that begins after the
    // member does (the regions directly inside it follow each other by `after`).
    for (uint32_t k = 0; k < count; ++k) {
      const region& g = r[by_begin[k]];
      segment* s = segments_.data() + g.first_segment;
      uint32_t c = k + 1;
      for (uint32_t j = 0; j < g.count; ++j) {
        while (c < after[k] && r[by_begin[c]].begin <= s[j].from) c = after[c];
        s[j].first_region = c;
      }
    }
    // Whether a member's text holds a region.
    auto holds_region = [&](const segment& s) { return s.first_region < count && r[by_begin[s.first_region]].begin < s.to; };
    stack_.clear();
    if (!stack_.push({0, static_cast<uint32_t>(end), 0, kPlain})) return false;
    while (!stack_.empty()) {
      task& t = stack_.back();
      if (t.region == kPlain) {
        // Text [pos, end), the regions in it in their own order: t.next is the first.
        if (t.next < count && r[by_begin[t.next]].begin < t.end) {
          uint32_t k = t.next;
          const region& g = r[by_begin[k]];
          if (g.close > t.end || g.begin < t.pos) {
            // (Regions that are not nested: only from a malformed command stream, whose
            // text is then left as it is.)
            sorting_ = false;
            return true;
          }
          o = copy(o, out + t.pos, g.begin - t.pos);
          t.pos = g.close;
          t.next = after[k];
          if (!stack_.push({0, 0, 0, by_begin[k]})) return false;
        } else {
          o = copy(o, out + t.pos, t.end - t.pos);
          stack_.pop_back();
        }
        continue;
      }
      // A region: its members in key order, comma-separated (t.pos of them written); a
      // member without a region inside is copied here.
      const region& g = r[t.region];
      const segment* s = segments_.data() + g.first_segment;
      const uint32_t* order = orders_.data() + g.first_segment;
      uint32_t j = t.pos;
      for (; j < g.count; ++j) {
        const segment& x = s[order[j]];
        if (j != 0) *o++ = ',';
        if (holds_region(x)) break;
        o = copy(o, out + x.from, x.to - x.from);
      }
      if (j == g.count) {
        stack_.pop_back();
        continue;
      }
      t.pos = j + 1;
      const segment& x = s[order[j]];
      if (!stack_.push({x.from, x.to, x.first_region, kPlain})) return false;
    }
    text_.commit(o);
    output.swap(text_);
    return true;
  }

 private:
  struct frame {
    uint32_t first_member;  // in members_
    uint32_t region;        // in regions_
    uint32_t unsorted_before;  // unsorted_ when it opened
  };
  struct member_ref {
    uint32_t start;
    uint32_t key_len;
    uint32_t id;
  };
  // An object whose members are not in key order: where its text begins (the first
  // member's key) and closes, and its members (segments_ and orders_ from first_segment).
  struct region {
    uint32_t begin;
    uint32_t close;
    uint32_t first_segment;
    uint32_t count;
  };
  // A member's text, in property order; first_region is finish()'s.
  struct segment {
    uint32_t from;
    uint32_t to;
    uint32_t first_region;
  };
  // finish()'s work: text [pos, end) with regions from the next-th (region == kPlain), or
  // a region's members from the pos-th in key order.
  struct task {
    uint32_t pos;
    uint32_t end;
    uint32_t next;
    uint32_t region;
  };
  static constexpr uint32_t kPlain = UINT32_MAX;
  // The key ids of an object closed before and their order (empty: in order already),
  // in a table by a hash of some of the ids; the newest object of each slot.
  struct memo {
    uint32_t count = 0;
    bool in_order = false;
    growable<uint32_t> ids;
    growable<uint32_t> order;
  };
  static constexpr size_t kMemos = 64;  // a power of two

  // The memo slot of the n members m (n >= 2), or nullptr when a key has no id.
  memo* memo_for(const member_ref* m, uint32_t n) {
    uint32_t a = m[0].id, b = m[n / 2].id, z = m[n - 1].id;
    if (a == kNoId || b == kNoId || z == kNoId) return nullptr;
    uint32_t h = (a * 0x9E3779B1u) ^ (b * 0x85EBCA77u) ^ (z * 0xC2B2AE3Du) ^ n;
    return &memos_[(h ^ (h >> 15)) & (kMemos - 1)];
  }

  // n bytes from `from` to `to`; returns to + n. Members are mostly short: up to
  // kWordCopyMax bytes go in 8-byte words (a memory.copy costs more than that in wasm),
  // reading and writing up to 7 bytes past the n.
  static uint8_t* copy(uint8_t* to, const uint8_t* from, size_t n) {
    if (n > kWordCopyMax) {
      std::memcpy(to, from, n);
    } else {
      for (size_t i = 0; i < n; i += 8) std::memcpy(to + i, from + i, 8);
    }
    return to + n;
  }
  static constexpr size_t kWordCopyMax = 128;
  static constexpr size_t kKeepBytes = size_t{16} << 20;

  static bool same_ids(const memo& c, const member_ref* m, uint32_t n) {
    if (c.count != n) return false;
    const uint32_t* ids = c.ids.data();
    for (uint32_t j = 0; j < n; ++j) {
      if (m[j].id != ids[j] || m[j].id == kNoId) return false;
    }
    return true;
  }

  // Puts the n members m of the object of frame f, closing at `close`, in the key order
  // `order`: now (`moved`; positions_[k] is then where member k's key went), if no
  // object inside it had to be (so that no text moves twice before finish()), else as
  // its region for finish().
  bool place(uint8_t* out, const frame& f, const member_ref* m, uint32_t n, size_t close, const uint32_t* order,
             bool& moved) {
    moved = unsorted_++ == f.unsorted_before;
    if (moved) {
      if (!positions_.reserve_more(n)) return false;
      uint32_t* at = positions_.data();
      size_t begin = m[0].start;
      uint8_t* limit = nullptr;
      uint8_t* text = scratch_.reserve(nullptr, close - begin + kCopySlack, limit);
      if (!text) return false;
      copy(text, out + begin, close - begin);
      uint8_t* o = out + begin;
      for (uint32_t j = 0; j < n; ++j) {
        uint32_t k = order[j];
        size_t to = k + 1 < n ? m[k + 1].start - 1 : close;
        if (j != 0) *o++ = ',';
        at[k] = static_cast<uint32_t>(o - out);
        o = copy(o, text + (m[k].start - begin), to - m[k].start);
      }
      return true;
    }
    if (!orders_.reserve_more(n) || !segments_.reserve_more(n)) return false;
    regions_.data()[f.region] = {m[0].start, static_cast<uint32_t>(close), static_cast<uint32_t>(segments_.size()), n};
    // Each member's text runs to the comma before the next (the last: to the brace).
    for (uint32_t j = 0; j < n; ++j) {
      segments_.push_unchecked({m[j].start, j + 1 < n ? m[j + 1].start - 1 : static_cast<uint32_t>(close), 0});
    }
    std::memcpy(orders_.end_ptr(), order, n * sizeof(uint32_t));
    orders_.advance(n);
    return true;
  }

  // The key order of the n members m of the object of frame f, placed (place()) unless
  // they are in order already, and remembered in memo c (when given and every key has
  // an id). Sorted, or found among the shapes sorted before (jcs_shape_cache.h).
  bool order_members(uint8_t* out, const frame& f, const member_ref* m, uint32_t n, size_t close, memo* c) {
    if (!prefixes_.reserve_more(n) || !sorted_.reserve_more(n)) return false;
    uint64_t* prefix = prefixes_.data();
    for (uint32_t j = 0; j < n; ++j) prefix[j] = utf16_order_prefix(out + m[j].start + 1, m[j].key_len);
    auto compare = [&](uint32_t a, uint32_t b) {
      if (prefix[a] != prefix[b]) return prefix[a] < prefix[b] ? -1 : 1;
      return compare_utf16_order(out + m[a].start + 1, m[a].key_len, out + m[b].start + 1, m[b].key_len);
    };
    uint32_t i = 1;
    while (i < n && compare(i - 1, i) < 0) ++i;
    bool in_order = i >= n;
    uint32_t* order = sorted_.data();
    if (!in_order) {
      bool cached = n >= kMinCachedMembers;
      uint64_t h = cached ? jcs_shape_cache::hash(n, [&](size_t j) { return prefix[j]; }, [&](size_t j) { return m[j].key_len; }) : 0;
      auto same = [&](size_t j, const jcs_key_ref& k) {
        if (prefix[j] != k.prefix || m[j].key_len != k.len) return false;
        return k.len <= 8 || same_key_bytes(out + m[j].start + 9, out + k.off + 8, k.len - 8);
      };
      uint32_t count = 0;
      const uint32_t* known = cached ? shapes_.find(h, n, same, count) : nullptr;
      if (known) {
        std::memcpy(order, known, n * sizeof(uint32_t));
      } else {
        for (uint32_t j = 0; j < n; ++j) order[j] = j;
        std::sort(order, order + n, [&](uint32_t a, uint32_t b) { return compare(a, b) < 0; });
      }
      bool moved;
      if (!place(out, f, m, n, close, order, moved)) return false;
      // (Remembered by where the keys are now: moved, if the object was sorted on the spot.)
      const uint32_t* at = positions_.data();
      auto key_at = [&](size_t j) { return (moved ? at[j] : m[j].start) + 1; };
      if (cached && !known) shapes_.remember(h, n, [&](size_t j) { return jcs_key_ref{prefix[j], key_at(j), m[j].key_len}; }, order, n);
    }
    if (c) {
      c->count = 0;
      for (uint32_t j = 0; j < n; ++j) {
        if (m[j].id == kNoId) return true;
      }
      if (!c->ids.reserve_more(n) || (!in_order && !c->order.reserve_more(n))) return true;  // (best effort)
      for (uint32_t j = 0; j < n; ++j) c->ids.data()[j] = m[j].id;
      if (!in_order) std::memcpy(c->order.data(), order, n * sizeof(uint32_t));
      c->in_order = in_order;
      c->count = n;
    }
    return true;
  }

  // Objects of a few members sort in fewer comparisons than a cache lookup takes.
  static constexpr uint32_t kMinCachedMembers = 4;

  growable<member_ref> members_;  // of the open objects, innermost last
  growable<frame> frames_;        // per open object
  growable<region> regions_;      // per object, as they opened (empty if in order)
  growable<segment> segments_;    // the regions' members, in property order
  growable<uint32_t> orders_;     // per region, its members' key order (indices from 0)
  jcs_shape_cache shapes_;
  memo memos_[kMemos];
  growable<uint64_t> prefixes_;
  growable<uint32_t> positions_;
  output_buffer scratch_;
  growable<uint32_t> sorted_;
  growable<uint32_t> by_begin_;
  growable<uint32_t> after_;
  growable<uint32_t> open_;
  growable<task> stack_;
  output_buffer text_;
  uint32_t unsorted_ = 0;  // objects closed whose members were not in key order
  bool sorting_ = true;
};

}  // namespace wasmjson
