// A JSON string's content as the reader found it (escapes still in, syntax checked) ->
// the forms canonicalization needs:
//   rewrite_escaped: the content as JSON.stringify writes the decoded string (RFC 8785
//     section 3.2.2.2), straight from the escaped text, no decoded copy in between;
//   unescape_utf8: the decoded string as UTF-8, to compare keys by.
// Content without any backslash needs neither: JSON.stringify of it is the same bytes
// (the reader rejects raw control characters, and well-formed UTF-8 has no lone
// surrogates).
#pragma once
#include <cstddef>
#include <cstdint>
#include <cstring>

#include "reader.h"
#include "writer_escape.h"

namespace wasmjson {

namespace detail {

// Whether the escape at p is \u of a low surrogate (DC00..DFFF).
inline bool low_surrogate_escape_at(const uint8_t* p) {
  return p[0] == '\\' && p[1] == 'u' && (escaped_unit(p) & 0xFC00) == 0xDC00;
}

}  // namespace detail

// Writes the escaped content [p, end) as JSON.stringify escapes its decoded string: '"'
// and '\\' backslashed, \b \f \n \r \t, other control characters as \u00xx, '/' and
// everything else as UTF-8. Returns the output's end, or nullptr with `lone` at the escape
// of a lone surrogate (JSON.stringify would write it as \udxxx; RFC 8785 forbids it).
// Sets `non_ascii` when an escape became a character from U+0080 (the content copied as
// it is holds non-ASCII bytes only where the reader saw them: string_span::has_non_ascii).
// Output room: (end - p) + Kernel::width bytes (nothing grows: an escape is never
// shorter than what replaces it). Reads up to Kernel::width bytes past `end`.
template <class Kernel>
uint8_t* rewrite_escaped(uint8_t* o, const uint8_t* p, const uint8_t* end, const uint8_t*& lone, bool& non_ascii) {
  for (;;) {
    // Everything up to the next backslash is copied as it is, a chunk at a time.
    std::memcpy(o, p, Kernel::width);
    size_t i = Kernel::quote_stop(p);
    if (p + i >= end) return o + (end - p);
    if (i == Kernel::width) {
      // A clean chunk steps by the constant width: the next load need not wait for the scan.
      o += Kernel::width;
      p += Kernel::width;
      continue;
    }
    o += i;
    p += i;
    // A backslash (a quote would be the end: inside the content every quote is escaped).
    // Escapes often come in runs (escaped non-ASCII text): take them back to back,
    // without a scan between them.
    do {
      uint8_t e = p[1];
      if (e != 'u') {
        if (e == '/') {
          *o++ = '/';
        } else {
          o[0] = '\\';
          o[1] = e;  // '"', '\\', b, f, n, r, t: JSON.stringify writes the same escape
          o += 2;
        }
        p += 2;
        continue;
      }
      uint32_t u = detail::escaped_unit(p);
      if (u < 0x80) {
        if (u < 0x20 || u == '"' || u == '\\') o = detail::escape_ascii(o, static_cast<uint8_t>(u));
        else *o++ = static_cast<uint8_t>(u);
        p += 6;
        continue;
      }
      non_ascii = true;
      if ((u & 0xF800) != 0xD800) {
        o = detail::put_bmp(o, u);
        p += 6;
        continue;
      }
      if (u < 0xDC00 && detail::low_surrogate_escape_at(p + 6)) {
        o = detail::put_utf8(o, detail::pair(static_cast<uint16_t>(u), static_cast<uint16_t>(detail::escaped_unit(p + 6))));
        p += 12;
        continue;
      }
      lone = p;
      return nullptr;
    } while (*p == '\\');
  }
}

// Decodes the escaped content [p, end) to UTF-8, a lone surrogate as its three-byte
// WTF-8 form. Returns the output's end; writes at most (end - p) bytes.
inline uint8_t* unescape_utf8(uint8_t* o, const uint8_t* p, const uint8_t* end) {
  while (p < end) {
    uint8_t c = *p;
    if (c != '\\') {
      *o++ = c;
      ++p;
      continue;
    }
    uint8_t e = p[1];
    if (e != 'u') {
      *o++ = detail::kEscape.v[e];
      p += 2;
      continue;
    }
    uint32_t u = detail::escaped_unit(p);
    p += 6;
    if ((u & 0xFC00) == 0xD800 && p < end && detail::low_surrogate_escape_at(p)) {
      u = detail::pair(static_cast<uint16_t>(u), static_cast<uint16_t>(detail::escaped_unit(p)));
      p += 6;
    }
    o = detail::put_utf8(o, u);
  }
  return o;
}

}  // namespace wasmjson
