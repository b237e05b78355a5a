// Canonicalization, second pass: writes the RFC 8785 text of a jcs_tree (jcs_tree.h).
// Arrays in order, objects by their sorted member lists, each value in its canonical
// form: strings without escapes and most numbers copied from the source, the rest
// rewritten (jcs_string.h, jcs_number.h). Iterative: open containers are frames on a
// heap stack.
#pragma once
#include <cstdint>
#include <cstring>

#include "error.h"
#include "growable.h"
#include "jcs_number.h"
#include "jcs_string.h"
#include "jcs_tree.h"
#include "writer_output.h"

namespace wasmjson {

// An open container. An array's elements are consecutive subtrees, so the node after
// the element just written is the next one; an object goes through its member list.
struct jcs_frame {
  uint32_t next;  // objects: the next member to write
  uint32_t last;  // arrays: the end node; objects: the end of its members
  uint32_t end;   // the node after the container's subtree
  bool is_object;
};

template <class Kernel>
class jcs_writer {
 public:
  jcs_writer(const uint8_t* data, const jcs_tree& tree, output_buffer& out, growable<jcs_frame>& frames)
      : data_(data), tree_(tree), out_(out), frames_(frames) {}

  // Writes the document (the tree must hold one complete value) into `out`, replacing
  // what it held.
  result run() {
    out_.clear();
    frames_.clear();
    // The output cursor and the end of its room live in locals: stored through a byte
    // pointer, members would be reloaded after every store.
    cursor c{nullptr, nullptr};
    result r = write(c);
    if (c.o) out_.commit(c.o);
    return r;
  }

  // Whether an escape became a character from U+0080 (see rewrite_escaped).
  bool wrote_non_ascii() const { return wrote_non_ascii_; }

 private:
  struct cursor {
    uint8_t* o;
    uint8_t* limit;
  };

  // Fixed-size copies may store this far past what they mean to write.
  static constexpr size_t kCopySlack = Kernel::width > 16 ? Kernel::width : 16;

  static result oom() { return {error_code::out_of_memory, 0}; }

  // Room for n more bytes at c.o; false when memory cannot grow.
  WASMJSON_INLINE bool room(cursor& c, size_t n) {
    if (static_cast<size_t>(c.limit - c.o) >= n) return true;
    c = grow(c, n);
    return c.o != nullptr;
  }
  __attribute__((noinline)) cursor grow(cursor c, size_t n) {
    cursor g;
    g.o = out_.reserve(c.o, n, g.limit);
    return g;
  }

  result write(cursor& c) {
    const jcs_node* nodes = tree_.nodes.data();
    const jcs_member* members = tree_.members.data();
    uint32_t i = 0;  // the value to write
    // The end node of the innermost open container when it is an array, else 0: the
    // next element of an array is the node after the last one's subtree, found without
    // going to the frame stack (whose members a byte store would make reloads of).
    uint32_t array_last = 0;
    for (;;) {
      const jcs_node& v = nodes[i];
      uint32_t next = i + 1;  // the node after v's subtree
      switch (v.kind) {
        case jcs_node::kNull:
          if (!room(c, 4)) return oom();
          std::memcpy(c.o, "null", 4);
          c.o += 4;
          break;
        case jcs_node::kFalse:
          if (!room(c, 5)) return oom();
          std::memcpy(c.o, "false", 5);
          c.o += 5;
          break;
        case jcs_node::kTrue:
          if (!room(c, 4)) return oom();
          std::memcpy(c.o, "true", 4);
          c.o += 4;
          break;
        case jcs_node::kNumber: {
          if (!room(c, kMaxNumberLength)) return oom();
          uint8_t* o = write_jcs_number(c.o, data_ + v.a, data_ + v.b, static_cast<jcs_number_form>(v.c));
          if (!o) return {error_code::jcs_not_finite, v.a};
          c.o = o;
          break;
        }
        case jcs_node::kString:
          if (!room(c, v.b - v.a + 2 + kCopySlack)) return oom();
          c.o = copy_source(c.o, v.a - 1, v.b + 1);  // with its quotes
          break;
        case jcs_node::kStringEscaped: {
          result r = escaped(c, v.a, v.b);
          if (!r.ok()) return r;
          break;
        }
        case jcs_node::kArray:
          if (!room(c, 2)) return oom();
          *c.o++ = '[';
          if (v.a == i + 1) {
            *c.o++ = ']';
            next = v.a;
            break;
          }
          if (!frames_.push({0, v.a, v.a, false})) return oom();
          array_last = v.a;
          i = i + 1;
          continue;
        default: {  // kObject
          if (!room(c, 2)) return oom();
          *c.o++ = '{';
          if (v.c == 0) {
            *c.o++ = '}';
            next = v.a;
            break;
          }
          if (!frames_.push({v.b + 1, v.b + v.c, v.a, true})) return oom();
          array_last = 0;
          result r = key(c, members[v.b]);
          if (!r.ok()) return r;
          i = members[v.b].value;
          continue;
        }
      }
      // v is written: move on in the innermost open container, closing those that end.
      if (!room(c, 1)) return oom();
      if (next < array_last) {
        *c.o++ = ',';
        i = next;
        continue;
      }
      for (;;) {
        if (frames_.empty()) return {error_code::ok, 0};
        if (!room(c, 1)) return oom();
        jcs_frame& f = frames_.back();
        if (f.is_object) {
          if (f.next == f.last) {
            next = f.end;
            frames_.pop_back();
            *c.o++ = '}';
            continue;
          }
          *c.o++ = ',';
          const jcs_member& m = members[f.next++];
          result r = key(c, m);
          if (!r.ok()) return r;
          i = m.value;
          break;
        }
        if (next == f.last) {
          frames_.pop_back();
          *c.o++ = ']';
          continue;  // next is already the array's end
        }
        *c.o++ = ',';
        i = next;
        break;
      }
      array_last = frames_.back().is_object ? 0 : frames_.back().last;
    }
  }

  // Source bytes [b, e) to o (room already reserved, with kCopySlack); returns the end.
  uint8_t* copy_source(uint8_t* o, uint32_t b, uint32_t e) const {
    const uint8_t* p = data_ + b;
    size_t n = e - b;
    if (n <= 16) {
      std::memcpy(o, p, 16);  // the input's padding makes the over-read safe
    } else if (n <= 32) {
      std::memcpy(o, p, 16);
      std::memcpy(o + n - 16, p + n - 16, 16);
    } else {
      std::memcpy(o, p, n);
    }
    return o + n;
  }

  // A string with escapes, quoted, from its source content [b, e).
  WASMJSON_INLINE result escaped(cursor& c, uint32_t b, uint32_t e) {
    if (!room(c, e - b + 3 + kCopySlack)) return oom();  // quotes, and a ':' after a key
    *c.o++ = '"';
    const uint8_t* lone = nullptr;
    bool non_ascii = false;
    uint8_t* o = rewrite_escaped<Kernel>(c.o, data_ + b, data_ + e, lone, non_ascii);
    if (!o) return {error_code::jcs_lone_surrogate, static_cast<size_t>(lone - data_)};
    wrote_non_ascii_ |= non_ascii;
    *o++ = '"';
    c.o = o;
    return {error_code::ok, 0};
  }

  // A member's key and ':'.
  WASMJSON_INLINE result key(cursor& c, const jcs_member& m) {
    if (m.key_len & jcs_member::kUnescaped) {
      uint32_t source[2];
      std::memcpy(source, tree_.key_bytes.data() + m.key_off - 8, 8);
      result r = escaped(c, source[0], source[1]);
      if (r.ok()) *c.o++ = ':';
      return r;
    }
    if (!room(c, m.key_len + 3 + kCopySlack)) return oom();
    c.o = copy_source(c.o, m.key_off - 1, m.key_off + m.key_len + 1);
    *c.o++ = ':';
    return {error_code::ok, 0};
  }

  const uint8_t* data_;
  const jcs_tree& tree_;
  output_buffer& out_;
  growable<jcs_frame>& frames_;
  bool wrote_non_ascii_ = false;
};

}  // namespace wasmjson
