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
#include <cstring>

#include "growable.h"
#include "reader.h"
#include "utf8.h"

namespace wasmjson::nav {

enum class kind : uint32_t { none = 0, object = 1, array = 2, scalar = 3 };

struct cursor {
  const uint8_t* begin;  // the document
  const uint8_t* end;
  // Where the error (if any) is.
  error_code code = error_code::ok;
  const uint8_t* error_at = nullptr;

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
    p += i;
    if (p >= c.end) return c.fail(error_code::unterminated_string, p), nullptr;
    if (i == Kernel::width) continue;
    if (*p == '"') return p + 1;
    if (escaped) *escaped = true;
    p += 2;  // a backslash and the byte it escapes
  }
}

namespace detail_skip {

// Bit i set when byte i is escaped: preceded by an odd run of backslashes. `carry` is 1
// when the block's first byte is escaped (the previous block ended with an escaping
// backslash) and is updated for the next block. Backslashes are rare: a loop over them.
inline uint64_t escaped_bytes(uint64_t backslash, uint64_t& carry) {
  uint64_t escaped = carry;
  carry = 0;
  for (uint64_t b = backslash; b; b &= b - 1) {
    int i = __builtin_ctzll(b);
    if ((escaped >> i) & 1) continue;  // this backslash is itself escaped
    if (i == 63) carry = 1;
    else escaped |= uint64_t{2} << i;
  }
  return escaped;
}

// Bit i = XOR of bits 0..i: from an opening quote up to (not including) its closing one.
inline uint64_t prefix_xor(uint64_t x) {
  x ^= x << 1;
  x ^= x << 2;
  x ^= x << 4;
  x ^= x << 8;
  x ^= x << 16;
  x ^= x << 32;
  return x;
}

}  // namespace detail_skip

// Past the object or array starting at p, or nullptr: 64 bytes per step. Per block, the
// kernel gives quote, backslash and bracket masks; unescaped quotes delimit strings
// (prefix XOR), brackets inside strings are dropped, and the depth moves by the counts
// of the rest. Only a block where the depth may reach zero is walked bracket by bracket.
template <class Kernel>
const uint8_t* skip_container(cursor& c, const uint8_t* p) {
  uint64_t escape_carry = 0;
  uint64_t in_string = 0;  // all ones when the previous block ended inside a string
  int64_t depth = 0;
  for (const uint8_t* block = p;; block += 64) {
    // Bytes past the end are the zero padding (no quotes or brackets), and a block is
    // read only when it starts before the end.
    if (block >= c.end) {
      return c.fail(in_string ? error_code::unterminated_string : error_code::unexpected_end, c.end), nullptr;
    }
    uint64_t quote, backslash, open, close;
    Kernel::block_masks(block, quote, backslash, open, close);
    if (backslash | escape_carry) quote &= ~detail_skip::escaped_bytes(backslash, escape_carry);
    if ((open | close) == 0) {
      // No brackets (most blocks of string-heavy text): only whether the block ends
      // inside a string matters, which the parity of its quotes tells.
      in_string ^= 0 - static_cast<uint64_t>(__builtin_popcountll(quote) & 1);
      continue;
    }
    uint64_t inside = detail_skip::prefix_xor(quote) ^ in_string;
    in_string = static_cast<uint64_t>(static_cast<int64_t>(inside) >> 63);
    open &= ~inside;
    close &= ~inside;
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
        const uint8_t* after = block + i + 1;
        if (after > c.end) return c.fail(error_code::unexpected_end, c.end), nullptr;
        return after;
      }
    }
  }
}

// Past the value starting at p (which is not whitespace), or nullptr.
template <class Kernel>
const uint8_t* skip_value(cursor& c, const uint8_t* p) {
  uint8_t ch = *p;
  if (ch == '"') return skip_string<Kernel>(c, p);
  if (ch == '{' || ch == '[') return skip_container<Kernel>(c, p);
  // A scalar: up to the next delimiter.
  const uint8_t* s = p;
  while (p < c.end && !detail::is_whitespace(*p) && *p != ',' && *p != ']' && *p != '}' && *p != ':') ++p;
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
      b += n;
    }
  }
  return true;
}

inline kind kind_at(const uint8_t* p) {
  return *p == '{' ? kind::object : *p == '[' ? kind::array : kind::scalar;
}

// Calls visit(key_begin, key_end, key_escaped, value) for each entry of the container
// at p (keys are null for arrays); visit returns false to stop. Returns false on error.
template <class Kernel, class Visit>
bool for_each_entry(cursor& c, const uint8_t* p, Visit&& visit) {
  bool is_object = *p == '{';
  uint8_t close = is_object ? '}' : ']';
  p = skip_ws(p + 1);
  if (*p == close) return true;
  for (;;) {
    const uint8_t* kb = nullptr;
    const uint8_t* ke = nullptr;
    bool escaped = false;
    if (is_object) {
      if (*p != '"') return c.fail(error_code::expected_property_name, p);
      kb = p + 1;
      const uint8_t* after = skip_string<Kernel>(c, p, &escaped);
      if (!after) return false;
      ke = after - 1;
      if (!check_key(c, kb, ke)) return false;
      p = skip_ws(after);
      if (*p != ':') return c.fail(error_code::expected_colon, p);
      p = skip_ws(p + 1);
    }
    if (p >= c.end || *p == ',' || *p == close) return c.fail(error_code::unexpected_character, p);
    if (!visit(kb, ke, escaped, p)) return true;
    p = skip_value<Kernel>(c, p);
    if (!p) return false;
    p = skip_ws(p);
    if (*p == ',') {
      p = skip_ws(p + 1);
      continue;
    }
    if (*p == close) return true;
    return c.fail(is_object ? error_code::expected_comma_or_brace : error_code::expected_comma_or_bracket, p);
  }
}

// Decodes the escapes of a key that check_key passed to UTF-8 (lone surrogates as 3-byte
// WTF-8, which no well-formed key can equal). Writes at most (e - b) bytes.
inline size_t unescape_utf8(const uint8_t* b, const uint8_t* e, uint8_t* out) {
  uint8_t* o = out;
  const int8_t* h = detail::kHex.v;
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
    uint32_t cp = static_cast<uint32_t>((h[b[2]] << 12) | (h[b[3]] << 8) | (h[b[4]] << 4) | h[b[5]]);
    b += 6;
    if (cp >= 0xD800 && cp < 0xDC00 && b + 6 <= e && b[0] == '\\' && b[1] == 'u') {
      uint32_t lo = static_cast<uint32_t>((h[b[2]] << 12) | (h[b[3]] << 8) | (h[b[4]] << 4) | h[b[5]]);
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

// The value under `key` (UTF-8, key != nullptr) or at `index` in the container at p;
// nullptr when there is none (or on error: check c.code). `scratch` holds unescaped keys.
template <class Kernel>
const uint8_t* child(cursor& c, const uint8_t* p, const uint8_t* key, size_t key_len, size_t index,
                     growable<uint8_t>& scratch) {
  const uint8_t* found = nullptr;
  size_t i = 0;
  bool last_wins = key != nullptr;  // duplicate keys: the last one, as JSON.parse keeps
  for_each_entry<Kernel>(c, p, [&](const uint8_t* kb, const uint8_t* ke, bool escaped, const uint8_t* v) {
    if (!key) {
      if (i++ == index) {
        found = v;
        return false;
      }
      return true;
    }
    size_t n = static_cast<size_t>(ke - kb);
    if (!escaped) {
      if (n == key_len && std::memcmp(kb, key, n) == 0) found = v;
      return true;
    }
    if (!scratch.reserve_more(n)) return c.fail(error_code::out_of_memory, kb);
    size_t m = unescape_utf8(kb, ke, scratch.data());
    if (m == key_len && std::memcmp(scratch.data(), key, m) == 0) found = v;
    return true;
  });
  (void)last_wins;
  return c.code == error_code::ok ? found : nullptr;
}

}  // namespace wasmjson::nav
