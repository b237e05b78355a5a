// Navigation without building values: find a child of an object or array by key or
// index, count a container's children, list its entries, and find where a value ends.
// Used by at() (JSON Pointer) and lazy documents.
//
// Only what is read is checked: the containers on the way, the keys compared (as
// parse() checks strings), and the structure of values skipped over (quotes, escapes,
// brackets). Values that are skipped are not validated (simdjson's On-Demand makes the
// same trade); the value finally read is parsed, and so validated, in full by parse(),
// with the comma or bracket after it. validate() checks a whole document.
#pragma once
#include <algorithm>
#include <cstring>

#include "growable.h"
#include "reader.h"
#include "utf8.h"

namespace wasmjson::nav {

enum class kind : uint32_t { none = 0, object = 1, array = 2, scalar = 3 };

// The ends of a document's containers, by their starts (container_ends.h builds them):
// count pairs, starts ascending, an end of 0 when the container has none.
struct known_ends {
  const uint32_t* starts = nullptr;
  const uint32_t* ends = nullptr;
  size_t count = 0;
};

struct cursor {
  const uint8_t* begin;  // the document
  const uint8_t* end;
  known_ends ends;  // empty: containers are skipped by scanning them
  // Where the error (if any) is.
  error_code code = error_code::ok;
  const uint8_t* error_at = nullptr;
  // A key read held U+FFFD. For string input, TextEncoder wrote each lone surrogate as
  // one: such a key may be another key in the string itself (half a pair escaped, the
  // other half not), so at() then navigates the string again with its lone surrogates
  // escaped.
  bool key_saw_replacement = false;

  bool fail(error_code c, const uint8_t* p) {
    if (code == error_code::ok) {
      code = p >= end ? error_code::unexpected_end : c;
      error_at = p >= end ? end : p;
    }
    return false;
  }
};

inline const uint8_t* skip_ws(const uint8_t* p) {
  while (detail::is_whitespace(*p)) ++p;
  return p;
}

// Past the closing quote of the string whose opening quote is at p, or nullptr. Only
// quotes and backslashes matter here (the content is not checked), and the zero padding
// does not stop the scan, so the end is checked after every chunk.
template <class Kernel>
const uint8_t* skip_string(cursor& c, const uint8_t* p, bool* escaped = nullptr) {
  ++p;
  for (;;) {
    size_t i = Kernel::quote_stop(p);
    if (i == Kernel::width) {
      // A clean chunk steps by the constant width: the next load need not wait for the scan.
      p += Kernel::width;
      if (p >= c.end) return c.fail(error_code::unterminated_string, p), nullptr;
      continue;
    }
    p += i;
    if (p >= c.end) return c.fail(error_code::unterminated_string, p), nullptr;
    if (*p == '"') return p + 1;
    if (escaped) *escaped = true;
    p += 2;  // a backslash and the byte it escapes
  }
}

namespace detail_skip {

// The bytes (in the block layout of kernel.h: bit (i << kShift) + (1 << kShift) - 1 for
// byte i) that are escaped: preceded by an odd run of backslashes. `carry` is 1 when
// the block's first byte is escaped (the previous block ended with an escaping
// backslash) and is updated for the next block. Backslashes are rare: a loop over them.
template <unsigned kShift>
inline uint64_t escaped_bytes(uint64_t backslash, uint64_t& carry) {
  constexpr unsigned kStep = 1u << kShift;  // from one byte's bit to the next's
  uint64_t escaped = carry << (kStep - 1);
  carry = 0;
  for (uint64_t b = backslash; b; b &= b - 1) {
    int i = __builtin_ctzll(b);
    if ((escaped >> i) & 1) continue;  // this backslash is itself escaped
    if (i == 63) carry = 1;
    else escaped |= uint64_t{1} << (i + kStep);
  }
  return escaped;
}

// The brackets of the block at `block` (Kernel::block_bytes bytes, masks in the
// kernel's block layout) that stand outside strings (opening ones in `open`, closing
// ones in `close`). The string and escape state comes from the block before (both 0 at
// a value's start) and is updated for the next. Unescaped quotes delimit strings
// (Kernel::quote_parity). Used by skip_container and container_ends.h alike, so that
// both pair brackets the same way. (Always inlined: as a call, its state went through
// memory and at(bytes) ran 1.5x slower.)
template <class Kernel>
WASMJSON_INLINE void brackets_outside_strings(const uint8_t* block, uint64_t& escape_carry, uint64_t& in_string, uint64_t& open,
                                     uint64_t& close) {
  uint64_t quote, backslash;
  Kernel::block_masks(block, quote, backslash, open, close);
  if (backslash | escape_carry) quote &= ~escaped_bytes<Kernel::block_shift>(backslash, escape_carry);
  if ((open | close) == 0) {
    // No brackets (most blocks of string-heavy text): only whether the block ends
    // inside a string matters, which the parity of its quotes tells.
    in_string ^= 0 - static_cast<uint64_t>(__builtin_popcountll(quote) & 1);
    return;
  }
  // The last byte is bit 63 in every layout: its "inside" bit is the next block's state.
  uint64_t inside = Kernel::quote_parity(quote) ^ in_string;
  in_string = static_cast<uint64_t>(static_cast<int64_t>(inside) >> 63);
  open &= ~inside;
  close &= ~inside;
}

}  // namespace detail_skip

// Past the container starting at p when the cursor's known ends have it, else nullptr.
inline const uint8_t* known_end(const cursor& c, const uint8_t* p) {
  const uint32_t at = static_cast<uint32_t>(p - c.begin);
  const uint32_t* starts_end = c.ends.starts + c.ends.count;
  const uint32_t* s = std::lower_bound(c.ends.starts, starts_end, at);
  if (s == starts_end || *s != at) return nullptr;
  uint32_t e = c.ends.ends[s - c.ends.starts];
  return e == 0 ? nullptr : c.begin + e;
}

// Bytes after an opening bracket that skip_container looks through for a small
// container's end, in whole kernel chunks (a multiple of every kernel's width): from a
// bracket at the document's last byte at most kPadding bytes past its end.
inline constexpr size_t kSmallContainerBytes = 64;
static_assert(kSmallContainerBytes <= kPadding && kSmallContainerBytes % 16 == 0);

// Past the object or array starting at p, or nullptr: its known end (container_ends.h)
// when the cursor has one, else by a scan, a block per step: per block, the brackets
// outside strings (detail_skip::brackets_outside_strings) move the depth by their
// counts. Only a block where the depth may reach zero is walked bracket by bracket.
template <class Kernel>
const uint8_t* skip_container(cursor& c, const uint8_t* p) {
  if (c.ends.count != 0) {
    if (const uint8_t* e = known_end(c, p)) return e;
  }
  // A small array with no string and nothing nested (a point's [x, y], a list of a few
  // numbers) ends at the first quote or bracket after it when that is a closing
  // bracket: found a kernel chunk at a time, where the block scan below costs a block's
  // masks and their strings' state for every skip. Listing canada.json's rings of
  // points skips each point this way. Anything else (a quote, an opening bracket, no
  // structural byte in the first kSmallContainerBytes) goes on to the block scan, which
  // pairs the brackets the same way.
  // (Arrays only: an object's first structural byte is its first key's quote.)
  if (*p == '[') {
    for (const uint8_t* q = p + 1; q < p + 1 + kSmallContainerBytes; q += Kernel::width) {
      size_t i = Kernel::structural_stop(q);
      if (i == Kernel::width) continue;
      // (Past the end only padding follows, which holds no structural byte.)
      if ((q[i] | 0x20) == '}') return q + i + 1;
      break;
    }
  }
  uint64_t escape_carry = 0;
  uint64_t in_string = 0;  // all ones when the previous block ended inside a string
  int64_t depth = 0;
  for (const uint8_t* block = p;; block += Kernel::block_bytes) {
    // Bytes past the end are the zero padding (no quotes or brackets), and a block is
    // read only when it starts before the end.
    if (block >= c.end) {
      return c.fail(in_string ? error_code::unterminated_string : error_code::unexpected_end, c.end), nullptr;
    }
    uint64_t open, close;
    detail_skip::brackets_outside_strings<Kernel>(block, escape_carry, in_string, open, close);
    if ((open | close) == 0) continue;
    int64_t closes = __builtin_popcountll(close);
    if (closes < depth) {
      depth += __builtin_popcountll(open) - closes;
      continue;
    }
    for (uint64_t b = open | close; b; b &= b - 1) {
      int i = __builtin_ctzll(b);
      if ((open >> i) & 1) {
        ++depth;
      } else if (--depth == 0) {
        const uint8_t* after = block + (i >> Kernel::block_shift) + 1;
        if (after > c.end) return c.fail(error_code::unexpected_end, c.end), nullptr;
        return after;
      }
    }
  }
}

// Past the value starting at p (which is not whitespace), or nullptr. Inlined, as
// read_entry and next_entry are, into the loops over a container's entries: a call per
// entry took 14-20% of a lazy document's reads on arrays of scalars (truenull.json,
// mesh.json, numbers.json: 1.16-1.22x faster inlined, Node 26).
template <class Kernel>
WASMJSON_INLINE const uint8_t* skip_value(cursor& c, const uint8_t* p) {
  uint8_t ch = *p;
  if (ch == '"') return skip_string<Kernel>(c, p);
  if (ch == '{' || ch == '[') return skip_container<Kernel>(c, p);
  // A scalar: up to the next delimiter (one table test a byte: arrays of numbers are
  // skipped element by element when listed or indexed).
  const uint8_t* s = p;
  while (p < c.end && !(detail::kByteClass.v[*p] & detail::kScalarEndClass)) ++p;
  if (p == s) return c.fail(error_code::unexpected_character, p), nullptr;
  return p;
}

// Checks a key's text [b, e) (between its quotes) as parse() checks strings: no raw
// control bytes, known escapes, four hex digits after \u, well-formed UTF-8; fails the
// cursor where parse() would. The closing quote at e stops every over-read.
inline bool check_key(cursor& c, const uint8_t* b, const uint8_t* e) {
  while (b < e) {
    uint8_t x = *b;
    if (x == '\\') {
      uint8_t y = b[1];
      if (!detail::kEscape.v[y]) return c.fail(error_code::bad_escape, b + 1);
      if (y != 'u') {
        b += 2;
        continue;
      }
      for (const uint8_t* q = b + 2; q < b + 6; ++q) {
        if (detail::kHex.v[*q] < 0) return c.fail(error_code::bad_unicode_escape, q);
      }
      b += 6;
    } else if (x < 0x20) {
      return c.fail(error_code::bad_control_character, b);
    } else if (x < 0x80) {
      ++b;
    } else {
      size_t n = utf8::sequence_length(b, e);
      if (n == 0) return c.fail(error_code::invalid_utf8, b);
      c.key_saw_replacement |= n == 3 && x == 0xEF && b[1] == 0xBF && b[2] == 0xBD;
      b += n;
    }
  }
  return true;
}

inline kind kind_at(const uint8_t* p) {
  return *p == '{' ? kind::object : *p == '[' ? kind::array : kind::scalar;
}

// One entry of an object or array: its key's text between the quotes (null in arrays)
// and where its value starts.
struct entry {
  const uint8_t* key_begin = nullptr;
  const uint8_t* key_end = nullptr;
  bool key_escaped = false;
  const uint8_t* value = nullptr;
};

// Reads the entry at p (a key, or an array's element) up to its value. False on error.
template <class Kernel>
WASMJSON_INLINE bool read_entry(cursor& c, const uint8_t* p, bool is_object, entry& e) {
  e.key_escaped = false;
  if (is_object) {
    if (*p != '"') return c.fail(error_code::expected_property_name, p);
    e.key_begin = p + 1;
    const uint8_t* after = skip_string<Kernel>(c, p, &e.key_escaped);
    if (!after) return false;
    e.key_end = after - 1;
    if (!check_key(c, e.key_begin, e.key_end)) return false;
    p = skip_ws(after);
    if (*p != ':') return c.fail(error_code::expected_colon, p);
    p = skip_ws(p + 1);
  }
  if (p >= c.end || *p == ',' || *p == (is_object ? '}' : ']')) return c.fail(error_code::unexpected_character, p);
  e.value = p;
  return true;
}

// After a value that ends at q: p = the next entry (closed = false), or p = past the
// container's closing bracket (closed = true). False on error.
WASMJSON_INLINE bool next_entry(cursor& c, const uint8_t* q, bool is_object, const uint8_t*& p, bool& closed) {
  q = skip_ws(q);
  closed = *q == (is_object ? '}' : ']');
  if (closed) {
    p = q + 1;
    return true;
  }
  if (*q != ',') return c.fail(is_object ? error_code::expected_comma_or_brace : error_code::expected_comma_or_bracket, q);
  p = skip_ws(q + 1);
  return true;
}

// The first entry of the container at p (closed = true when it is empty; p is then past it).
inline const uint8_t* first_entry(const uint8_t* p, bool& closed) {
  bool is_object = *p == '{';
  p = skip_ws(p + 1);
  closed = *p == (is_object ? '}' : ']');
  return closed ? p + 1 : p;
}

// Calls visit(key_begin, key_end, key_escaped, value) for each entry of the container
// at p (keys are null for arrays); visit returns false to stop. Returns false on error.
// When every entry was visited, *after (if given) is past the closing bracket.
template <class Kernel, class Visit>
bool for_each_entry(cursor& c, const uint8_t* p, Visit&& visit, const uint8_t** after = nullptr) {
  bool is_object = *p == '{';
  bool closed;
  p = first_entry(p, closed);
  while (!closed) {
    entry e;
    if (!read_entry<Kernel>(c, p, is_object, e)) return false;
    if (!visit(e.key_begin, e.key_end, e.key_escaped, e.value)) return true;
    const uint8_t* q = skip_value<Kernel>(c, e.value);
    if (!q || !next_entry(c, q, is_object, p, closed)) return false;
  }
  if (after) *after = p;
  return true;
}

// Decodes the escapes of a key that check_key passed to UTF-8 (lone surrogates as 3-byte
// WTF-8, which no well-formed key can equal). Writes at most (e - b) bytes.
inline size_t unescape_utf8(const uint8_t* b, const uint8_t* e, uint8_t* out) {
  uint8_t* o = out;
  while (b < e) {
    if (*b != '\\') {
      *o++ = *b++;
      continue;
    }
    uint8_t x = b[1];
    if (x != 'u') {
      *o++ = detail::kEscape.v[x];
      b += 2;
      continue;
    }
    uint32_t cp = detail::escaped_unit(b);
    b += 6;
    if (cp >= 0xD800 && cp < 0xDC00 && b + 6 <= e && b[0] == '\\' && b[1] == 'u') {
      uint32_t lo = detail::escaped_unit(b);
      if (lo >= 0xDC00 && lo < 0xE000) {
        cp = 0x10000 + ((cp - 0xD800) << 10) + (lo - 0xDC00);
        b += 6;
      }
    }
    if (cp < 0x80) {
      *o++ = static_cast<uint8_t>(cp);
    } else if (cp < 0x800) {
      *o++ = static_cast<uint8_t>(0xC0 | (cp >> 6));
      *o++ = static_cast<uint8_t>(0x80 | (cp & 0x3F));
    } else if (cp < 0x10000) {
      *o++ = static_cast<uint8_t>(0xE0 | (cp >> 12));
      *o++ = static_cast<uint8_t>(0x80 | ((cp >> 6) & 0x3F));
      *o++ = static_cast<uint8_t>(0x80 | (cp & 0x3F));
    } else {
      *o++ = static_cast<uint8_t>(0xF0 | (cp >> 18));
      *o++ = static_cast<uint8_t>(0x80 | ((cp >> 12) & 0x3F));
      *o++ = static_cast<uint8_t>(0x80 | ((cp >> 6) & 0x3F));
      *o++ = static_cast<uint8_t>(0x80 | (cp & 0x3F));
    }
  }
  return static_cast<size_t>(o - out);
}

// Whether the entry's key is `key` (UTF-8). `scratch` holds an unescaped key; false
// with the cursor failed when it cannot grow.
inline bool key_is(cursor& c, const entry& e, const uint8_t* key, size_t key_len, growable<uint8_t>& scratch) {
  size_t n = static_cast<size_t>(e.key_end - e.key_begin);
  if (!e.key_escaped) return n == key_len && std::memcmp(e.key_begin, key, n) == 0;
  if (!scratch.reserve_more(n)) return c.fail(error_code::out_of_memory, e.key_begin);
  size_t m = unescape_utf8(e.key_begin, e.key_end, scratch.data());
  return m == key_len && std::memcmp(scratch.data(), key, m) == 0;
}

// The value under `key` (UTF-8, key != nullptr) or at `index` in the container at p;
// nullptr when there is none (or on error: check c.code). `scratch` holds unescaped keys.
// *reach (if given): how far the lookup read (past the container, or to the element found), so
// that callers can tell how much a walk of lookups has read.
template <class Kernel>
const uint8_t* child(cursor& c, const uint8_t* p, const uint8_t* key, size_t key_len, size_t index,
                     growable<uint8_t>& scratch, const uint8_t** reach = nullptr) {
  const uint8_t* found = nullptr;
  size_t i = 0;
  const uint8_t* after = nullptr;
  for_each_entry<Kernel>(
      c, p,
      [&](const uint8_t* kb, const uint8_t* ke, bool escaped, const uint8_t* v) {
        if (!key) {
          if (i++ != index) return true;
          found = v;
          return false;
        }
        // Duplicate keys: the last one, as JSON.parse keeps.
        if (key_is(c, entry{kb, ke, escaped, v}, key, key_len, scratch)) found = v;
        return c.code == error_code::ok;
      },
      &after);
  if (reach) *reach = after ? after : found ? found : p;
  return c.code == error_code::ok ? found : nullptr;
}

// ---- A whole JSON Pointer ----------------------------------------------------------------
//
// A lookup in an object reads it to its end (a later duplicate key wins). Done level by
// level, that reads each container on the path in full before descending into it: for
// a path through d nested containers, d times the document. Instead the path is
// descended through the first match at each level; then, from the deepest level up,
// each container is read on from the end of its matched child (which the level below
// found) to its own end. A later duplicate there restarts the descent below it. Each
// byte is then read a bounded number of times.

// RFC 6901 reference tokens, decoded (~1 -> '/', ~0 -> '~'); an array index when the
// token is one (decimal, no leading zero, below 2^32 - 1, as JS arrays index).
struct pointer_tokens {
  growable<uint8_t> bytes;
  growable<uint32_t> ends;  // token i is bytes[ends[i - 1] (0 for i = 0), ends[i])

  // From the pointer's text (starting with '/', its '~' escapes valid). False when out of memory.
  bool read(const uint8_t* p, size_t len) {
    bytes.clear();
    ends.clear();
    if (!bytes.reserve_more(len)) return false;
    for (size_t i = 1; i <= len; ++i) {
      if (i == len || p[i] == '/') {
        if (!ends.push(static_cast<uint32_t>(bytes.size()))) return false;
        continue;
      }
      uint8_t b = p[i];
      if (b == '~' && i + 1 < len) b = p[++i] == '1' ? '/' : '~';
      bytes.push_unchecked(b);
    }
    return true;
  }
  size_t count() const { return ends.size(); }
  const uint8_t* begin(size_t i) const { return bytes.data() + (i ? ends.data()[i - 1] : 0); }
  size_t length(size_t i) const { return ends.data()[i] - (i ? ends.data()[i - 1] : 0); }
  bool index(size_t i, size_t& out) const {
    const uint8_t* t = begin(i);
    size_t n = length(i);
    if (n == 0 || n > 10 || (t[0] == '0' && n > 1)) return false;
    uint64_t v = 0;
    for (size_t k = 0; k < n; ++k) {
      if (t[k] < '0' || t[k] > '9') return false;
      v = v * 10 + (t[k] - '0');
    }
    if (v > 4294967294u) return false;
    out = static_cast<size_t>(v);
    return true;
  }
};

struct path_frame {
  const uint8_t* container;  // '{' or '['
  const uint8_t* match;      // the value the token chose in it
};

template <class Kernel>
class path_walker {
 public:
  path_walker(cursor& c, const pointer_tokens& tokens, growable<path_frame>& frames, growable<uint8_t>& scratch)
      : c_(c), tokens_(tokens), frames_(frames), scratch_(scratch) {}

  // How far the last find() read: past the outermost object on the path, when it was
  // read on to its end.
  const uint8_t* reach() const { return reach_; }

  // Where the last find() was in the array at its root, when the first token indexes
  // one: the element it read last (its index, and where it starts). A lookup that
  // failed there (at() reads a long array from heads of the document, each read as a
  // document of its own: an element past a head's end fails) can be resumed from it
  // in a longer head, which holds the same text up to there. entry null: none.
  size_t progress_index() const { return progress_index_; }
  const uint8_t* progress_entry() const { return progress_entry_; }

  // The next find() starts the root array's elements at `entry`, element `index` (a
  // previous find's progress in a text that starts as this one does), instead of at the
  // first. Only for a first token that indexes an array, at or past `index`.
  void resume_at(size_t index, const uint8_t* entry) {
    resume_index_ = index;
    resume_entry_ = entry;
  }

  // The value the tokens lead to from the value at root, or nullptr (none, or an error:
  // check the cursor). When found, *within = the kind of container it is a member of
  // (left alone for the value at root itself).
  const uint8_t* find(const uint8_t* root, kind* within) {
    reach_ = root;
    progress_index_ = 0;
    progress_entry_ = nullptr;
    frames_.clear();
    if (!frames_.reserve_more(tokens_.count())) return c_.fail(error_code::out_of_memory, root), nullptr;
    frames_.advance(tokens_.count());
    size_t depth = descend(0, root);
    if (c_.code != error_code::ok) return nullptr;
    const uint8_t* found = depth == tokens_.count() ? stop_value_ : nullptr;
    // Only an object on the path needs reading on; the outermost one is the last to.
    size_t outermost = tokens_.count();
    for (size_t j = 0; j < depth; ++j) {
      if (*frames_.data()[j].container == '{') {
        outermost = j;
        break;
      }
    }
    // (The end of the value at `depth`: known when the descent stopped short.)
    const uint8_t* end_below = found ? nullptr : stop_end_;
    for (size_t j = depth; j-- > outermost;) {
      path_frame& f = frames_.data()[j];
      if (!end_below && !(end_below = skip_value<Kernel>(c_, f.match))) return nullptr;
      bool is_object = *f.container == '{';
      const uint8_t* p;
      bool closed;
      if (!next_entry(c_, end_below, is_object, p, closed)) return nullptr;
      end_below = nullptr;
      entry e;
      while (!closed) {
        if (!read_entry<Kernel>(c_, p, is_object, e)) return nullptr;
        if (is_object && key_is(c_, e, tokens_.begin(j), tokens_.length(j), scratch_)) break;
        if (c_.code != error_code::ok) return nullptr;
        const uint8_t* q = skip_value<Kernel>(c_, e.value);
        if (!q || !next_entry(c_, q, is_object, p, closed)) return nullptr;
      }
      if (closed) {
        end_below = p;
        reached(p);
        continue;
      }
      // A later duplicate: the path goes on from its value; this level reads on after it.
      f.match = e.value;
      depth = descend(j + 1, f.match);
      if (c_.code != error_code::ok) return nullptr;
      found = depth == tokens_.count() ? stop_value_ : nullptr;
      end_below = found ? nullptr : stop_end_;
      j = depth;
    }
    if (found && tokens_.count() > 0) *within = kind_at(frames_.data()[tokens_.count() - 1].container);
    return found;
  }

 private:
  // Follows tokens k.. from the value p at depth k, through the first match at each
  // level, recording frames. Returns the depth reached: all tokens (stop_value_ = the
  // value found), or where the path fails (stop_end_ = the end of the value there, when
  // it was read to its end; else nullptr).
  size_t descend(size_t k, const uint8_t* p) {
    for (; k < tokens_.count(); ++k) {
      const uint8_t* match = nullptr;
      const uint8_t* end = nullptr;
      bool is_object = *p == '{';
      size_t index = 0;
      if (is_object || (*p == '[' && tokens_.index(k, index))) {
        bool closed;
        const uint8_t* q = first_entry(p, closed);
        size_t i = 0;
        // (The root array's elements are counted, and may resume where a find stopped.)
        const bool counted = k == 0 && !is_object;
        if (counted && resume_entry_ && resume_index_ <= index && resume_entry_ > p && resume_entry_ < c_.end) {
          // (A head may have ended within the whitespace before that element.)
          q = skip_ws(resume_entry_);
          i = resume_index_;
          closed = false;
        }
        for (; !closed; ++i) {
          if (counted) {
            progress_index_ = i;
            progress_entry_ = q;
          }
          entry e;
          if (!read_entry<Kernel>(c_, q, is_object, e)) return k;
          if (is_object ? key_is(c_, e, tokens_.begin(k), tokens_.length(k), scratch_) : i == index) {
            match = e.value;
            break;
          }
          if (c_.code != error_code::ok) return k;
          const uint8_t* after = skip_value<Kernel>(c_, e.value);
          if (!after || !next_entry(c_, after, is_object, q, closed)) return k;
        }
        end = q;  // (past the bracket when nothing matched)
      } else {
        // A scalar, or an array and a token that is no index: the path ends here. Where
        // this value ends is found only if an object above must be read on (find() skips
        // it then): at the top, skipping it would read what the answer does not need, and
        // could fail where a lookup by get() does not.
        end = nullptr;
      }
      if (!match) {
        stop_end_ = end;
        reached(end);
        return k;
      }
      frames_.data()[k] = {p, match};
      p = match;
    }
    stop_value_ = p;
    reached(p);
    return k;
  }

  void reached(const uint8_t* p) {
    if (p > reach_) reach_ = p;
  }

  cursor& c_;
  const pointer_tokens& tokens_;
  growable<path_frame>& frames_;
  growable<uint8_t>& scratch_;
  const uint8_t* stop_value_ = nullptr;
  const uint8_t* stop_end_ = nullptr;
  const uint8_t* reach_ = nullptr;
  size_t progress_index_ = 0;
  const uint8_t* progress_entry_ = nullptr;
  size_t resume_index_ = 0;
  const uint8_t* resume_entry_ = nullptr;
};

}  // namespace wasmjson::nav
