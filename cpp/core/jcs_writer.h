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
  jcs_writer(const uint8_t* data, const jcs_tree& tree, growable<uint8_t>& out, growable<jcs_frame>& frames)
      : data_(data), tree_(tree), out_(out), frames_(frames) {}

  // Writes the document (the tree must hold one complete value).
  result run() {
    const jcs_node* nodes = tree_.nodes.data();
    const jcs_member* members = tree_.members.data();
    frames_.clear();
    uint32_t i = 0;  // the value to write
    for (;;) {
      const jcs_node& v = nodes[i];
      uint32_t next;  // the node after v's subtree
      switch (v.kind) {
        case jcs_node::kNull:
          if (!literal("null", 4)) return oom();
          next = i + 1;
          break;
        case jcs_node::kFalse:
          if (!literal("false", 5)) return oom();
          next = i + 1;
          break;
        case jcs_node::kTrue:
          if (!literal("true", 4)) return oom();
          next = i + 1;
          break;
        case jcs_node::kNumber:
          if (!room(kMaxNumberLength)) return oom();
          {
            uint8_t* o = write_jcs_number(out_.end_ptr(), data_ + v.a, data_ + v.b);
            if (!o) return {error_code::jcs_not_finite, v.a};
            commit(o);
          }
          next = i + 1;
          break;
        case jcs_node::kString:
          if (!room(v.b - v.a + 2 + kCopySlack)) return oom();
          copy_source(v.a - 1, v.b + 1);  // with its quotes
          next = i + 1;
          break;
        case jcs_node::kStringEscaped:
          if (!escaped(v.a, v.b)) return error_;
          next = i + 1;
          break;
        case jcs_node::kArray:
          if (!room(2)) return oom();
          put('[');
          if (v.a == i + 1) {
            put(']');
            next = v.a;
            break;
          }
          if (!frames_.push({0, v.a, v.a, false})) return oom();
          i = i + 1;
          continue;
        default:  // kObject
          if (!room(2)) return oom();
          put('{');
          if (v.c == 0) {
            put('}');
            next = v.a;
            break;
          }
          if (!frames_.push({v.b + 1, v.b + v.c, v.a, true})) return oom();
          if (!key(members[v.b], false)) return error_;
          i = members[v.b].value;
          continue;
      }
      // v is written: move on in the innermost open container, closing those that end.
      for (;;) {
        if (frames_.empty()) return {error_code::ok, 0};
        jcs_frame& f = frames_.back();
        if (f.is_object) {
          if (f.next == f.last) {
            next = f.end;
            frames_.pop_back();
            if (!room(1)) return oom();
            put('}');
            continue;
          }
          if (!key(members[f.next], true)) return error_;
          i = members[f.next++].value;
          break;
        }
        if (next == f.last) {
          frames_.pop_back();
          if (!room(1)) return oom();
          put(']');
          continue;  // next is already the array's end
        }
        if (!room(1)) return oom();
        put(',');
        i = next;
        break;
      }
    }
  }

 private:
  // Fixed-size copies may store this far past what they mean to write.
  static constexpr size_t kCopySlack = Kernel::width > 16 ? Kernel::width : 16;

  result oom() { return error_ = {error_code::out_of_memory, 0}; }
  bool room(size_t n) { return out_.reserve_more(n); }
  void put(uint8_t c) { out_.push_unchecked(c); }
  void commit(uint8_t* o) { out_.advance(static_cast<size_t>(o - out_.end_ptr())); }
  bool literal(const char* word, size_t n) {
    if (!room(n)) return false;
    std::memcpy(out_.end_ptr(), word, n);
    out_.advance(n);
    return true;
  }

  // Source bytes [b, e) into the output (room already reserved, with kCopySlack).
  void copy_source(uint32_t b, uint32_t e) {
    const uint8_t* p = data_ + b;
    uint8_t* o = out_.end_ptr();
    size_t n = e - b;
    if (n <= 16) {
      std::memcpy(o, p, 16);  // the input's padding makes the over-read safe
    } else if (n <= 32) {
      std::memcpy(o, p, 16);
      std::memcpy(o + n - 16, p + n - 16, 16);
    } else {
      std::memcpy(o, p, n);
    }
    out_.advance(n);
  }

  // A string with escapes, quoted, from its source content [b, e). False with error_
  // set on failure.
  bool escaped(uint32_t b, uint32_t e) {
    if (!room(e - b + 2 + kCopySlack)) {
      oom();
      return false;
    }
    put('"');
    const uint8_t* lone = nullptr;
    uint8_t* o = rewrite_escaped<Kernel>(out_.end_ptr(), data_ + b, data_ + e, lone);
    if (!o) {
      error_ = {error_code::jcs_lone_surrogate, static_cast<size_t>(lone - data_)};
      return false;
    }
    commit(o);
    put('"');
    return true;
  }

  // A member's key and ':', after a ',' unless it is the first. False with error_ set.
  bool key(const jcs_member& m, bool comma) {
    if (m.key_len & jcs_member::kUnescaped) {
      if (comma) {
        if (!room(1)) return oom(), false;
        put(',');
      }
      uint32_t source[2];
      std::memcpy(source, tree_.key_bytes.data() + m.key_off - 8, 8);
      if (!escaped(source[0], source[1])) return false;
      if (!room(1)) return oom(), false;
      put(':');
      return true;
    }
    if (!room(m.key_len + 4 + kCopySlack)) return oom(), false;
    if (comma) put(',');
    copy_source(m.key_off - 1, m.key_off + m.key_len + 1);
    put(':');
    return true;
  }

  const uint8_t* data_;
  const jcs_tree& tree_;
  growable<uint8_t>& out_;
  growable<jcs_frame>& frames_;
  result error_{error_code::ok, 0};
};

}  // namespace wasmjson
