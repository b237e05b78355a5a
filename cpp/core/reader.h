// The JSON reader: RFC 8259 grammar, written once over any Kernel, reporting what it
// reads to a Sink. Iterative: open containers live on a heap stack, so nesting depth is
// bounded by memory, never by the call stack.
//
// Input contract: `len` bytes at `begin`, followed by kPadding zero bytes (see
// padded_input.h). The zero padding stops every scan, so inner loops carry no bounds
// checks; a scan that stops at or past `end` is an unexpected end of input.
//
// Sink contract (all members return bool; false means "out of memory" and aborts):
//   begin_object(pos16) / end_object()   begin_array(pos16) / end_array()
//   key(const string_span&)              string(const string_span&)
//   number(const number_span&)           literal(literal_kind, pos16)
// Positions given to sinks are UTF-16 indices (see string_span). Optional:
//   static constexpr bool kIgnoresPositions   positions are not computed for this sink
//   void whitespace(begin, end)               each non-empty whitespace gap between tokens
//   size_t key_ahead(p)                       p just after a key's opening quote: a sink
//       that recognises the key there (an ASCII key it predicted, with its closing quote)
//       records it and returns the bytes it spans after p; 0 to have the key read as
//       usual; kKeyAheadOutOfMemory aborts
//   size_t max_depth; void too_deep(p)     p at each '[' or '{' nested deeper than
//       max_depth (validate with options.maxDepth); reading goes on
// Sinks for validation are empty and inline away entirely.
#pragma once
#include <cstddef>
#include <cstdint>
#include <cstring>

#include "../kernels/kernel.h"
#include "byte_stack.h"
#include "error.h"
#include "utf8.h"

// The per-token readers are small and called from one place each: inlined into run(),
// the string and number loops keep their state in locals instead of going through a
// call with the span in memory (measured in wasm: see the commit that added this).
#define WASMJSON_INLINE inline __attribute__((always_inline))
// Failure paths stay out of line, away from the hot loops.
#define WASMJSON_COLD __attribute__((noinline, cold))

namespace wasmjson {

// A string's content between its quotes, still escaped. The *16 fields are the same
// places as UTF-16 indices into the decoded document (what JS string offsets are).
struct string_span {
  const uint8_t* begin;  // first byte after the opening quote
  const uint8_t* end;    // the closing quote
  size_t begin16;
  size_t end16;
  bool has_escape;     // contains at least one backslash escape
  bool has_non_ascii;  // contains at least one byte >= 0x80
};

// A number's source text, syntax already checked. Numbers are ASCII, so its UTF-16
// end is begin16 + (end - begin).
struct number_span {
  const uint8_t* begin;
  const uint8_t* end;
  const uint8_t* int_end;   // after the integer part's digits
  const uint8_t* frac_end;  // after the fraction's digits (int_end: no fraction)
  size_t begin16;
  bool is_integer;  // no fraction and no exponent
};

enum class literal_kind : uint8_t { null_value, false_value, true_value };

// key_ahead()'s "out of memory".
inline constexpr size_t kKeyAheadOutOfMemory = SIZE_MAX;

namespace detail {

// -1 for bytes that are not hex digits, else their value: OR-ing four lookups and one
// sign test validates a whole \uXXXX escape (the serde_json technique).
struct hex_table {
  int8_t v[256];
  constexpr hex_table() : v() {
    for (int i = 0; i < 256; ++i) v[i] = -1;
    for (int i = 0; i < 10; ++i) v['0' + i] = static_cast<int8_t>(i);
    for (int i = 0; i < 6; ++i) {
      v['a' + i] = static_cast<int8_t>(10 + i);
      v['A' + i] = static_cast<int8_t>(10 + i);
    }
  }
};
inline constexpr hex_table kHex{};

// The code unit of the \uXXXX escape at p (the backslash), whose hex digits the reader
// has checked: decoded from one 32-bit load, not the table (a digit's low nibble, plus 9
// for the letters: bit 6 is set in 'A'-'F' and 'a'-'f', clear in '0'-'9'; then the
// nibbles gathered, first digit highest). Unchecked digits give an arbitrary unit.
inline uint32_t escaped_unit(const uint8_t* p) {
  uint32_t x;
  std::memcpy(&x, p + 2, 4);
  uint32_t v = (x & 0x0F0F0F0Fu) + ((x >> 6) & 0x01010101u) * 9;
  v = ((v & 0x000F000Fu) << 4) | ((v >> 8) & 0x000F000Fu);  // bytes 0 and 2: digits 0-1 and 2-3
  return ((v & 0xFFu) << 8) | ((v >> 16) & 0xFFu);
}

// For each byte that may follow a backslash, the byte the escape stands for ('u' for
// \u, whose four hex digits decide); 0 for the others. The reader validates with it,
// and every unescaper decodes the one-letter escapes with it.
struct escape_table {
  uint8_t v[256];
  constexpr escape_table() : v() {
    for (int i = 0; i < 256; ++i) v[i] = 0;
    v['"'] = '"';
    v['\\'] = '\\';
    v['/'] = '/';
    v['b'] = '\b';
    v['f'] = '\f';
    v['n'] = '\n';
    v['r'] = '\r';
    v['t'] = '\t';
    v['u'] = 'u';
  }
};
inline constexpr escape_table kEscape{};

// Where a skipped scalar (navigate.h) ends: whitespace or a delimiter. One load
// instead of a chain of compares, in a loop over the scalar's bytes.
enum : uint8_t { kScalarEndClass = 1 };
struct byte_class_table {
  uint8_t v[256];
  constexpr byte_class_table() : v() {
    for (int i = 0; i < 256; ++i) v[i] = 0;
    v[' '] = v['\n'] = v['\r'] = v['\t'] = kScalarEndClass;
    v[','] = v[']'] = v['}'] = v[':'] = kScalarEndClass;
  }
};
inline constexpr byte_class_table kByteClass{};

inline bool is_digit(uint8_t c) { return static_cast<uint8_t>(c - '0') < 10; }
// JSON whitespace, without a table: every whitespace byte is <= ' ', and the bytes that
// start tokens are above it, so one compare settles the usual case; the rest pick their
// bit out of a constant. The reader's position waits on this test at every token, and a
// table lookup was a second load on that path (truenull.json: most of validation's time).
inline bool is_whitespace(uint8_t c) {
  constexpr uint64_t kBits = (uint64_t{1} << ' ') | (uint64_t{1} << '\n') | (uint64_t{1} << '\r') | (uint64_t{1} << '\t');
  return c <= ' ' && ((kBits >> c) & 1);
}

// As in V8, reaching the end of input (the zero padding) where a value or token was
// expected is "unexpected end"; the specific errors (expected ':', unterminated string,
// ...) keep their kind, at the end offset.
WASMJSON_COLD inline result failure_at(error_code code, const uint8_t* p, const uint8_t* begin, const uint8_t* end) {
  if (p >= end) {
    if (code == error_code::unexpected_character) code = error_code::unexpected_end;
    p = end;
  } else if (*p >= 0x80 && code != error_code::invalid_utf8 && utf8::sequence_length(p, end) == 0) {
    // Bytes that are not UTF-8 are reported as such wherever they stand.
    code = error_code::invalid_utf8;
  }
  return {code, static_cast<size_t>(p - begin)};
}

WASMJSON_COLD inline result literal_failure_at(const uint8_t* p, const char* word, const uint8_t* begin,
                                               const uint8_t* end) {
  while (*word && *p == static_cast<uint8_t>(*word)) ++p, ++word;
  return failure_at(error_code::unexpected_character, p, begin, end);
}

}  // namespace detail

template <class Kernel, class Sink>
class reader {
  // Sinks that ignore positions (validation) declare it, and UTF-16 tracking compiles away.
  static constexpr bool kTracksUtf16 = !requires { Sink::kIgnoresPositions; };
  // Sinks that want the whitespace between tokens (minify) get each non-empty gap.
  static constexpr bool kSeesWhitespace = requires(Sink& s, const uint8_t* b) { s.whitespace(b, b); };
  // Sinks that write separators (prettify) are told where they go: before a container's
  // first member (members_begin), at each comma, and which containers close empty
  // (end_empty_object, end_empty_array; other sinks get end_object and end_array).
  static constexpr bool kSeesSeparators = requires(Sink& s) { s.comma(); };
  // Sinks that can recognise keys without the reader scanning them (the tape writer).
  static constexpr bool kKeysAhead = requires(Sink& s, const uint8_t* b) { s.key_ahead(b); };
  // Sinks that limit nesting are told of containers too deep, and reading goes on: a
  // syntax error anywhere comes first, as it does before parse's checks.
  static constexpr bool kLimitsDepth = requires(Sink& s, const uint8_t* b) { s.too_deep(b); };

 public:
  // Offsets are reported relative to `begin`; reading starts at begin + start (past a
  // byte order mark the caller chose to skip).
  reader(const uint8_t* begin, size_t len, Sink& sink, byte_stack& stack, size_t start = 0)
      : begin_(begin), end_(begin + len), start_(begin + start), sink_(sink), stack_(stack),
        // A skipped BOM is 3 bytes but one UTF-16 unit (TextDecoder with ignoreBOM keeps it).
        delta16_(start == 3 ? 2 : 0) {}

  // Reads the whole input (or one member: stop_after_member), reporting to the sink.
  result run() { return run_inline(); }

  // run(), inlined into the caller: the reader and its sink then live in the caller's
  // locals, not in memory behind `this` (the UTF-16 position count, a writer's cursor
  // and state are registers, not reloaded after every byte the sink stores). Measured
  // per sink (wasm A/B): parse 1.02-1.03x, prettify 1.10-1.14x and the in-place minify
  // 1.03x (SIMD128; SWAR64 0.99x) take it; validation (1.00x) keeps run().
  WASMJSON_INLINE result run_inline() {
    const uint8_t* p = start_;
    stack_.clear();
    // The innermost open container (kNone: the top level), kept in a local: the hot
    // after-value step tests it without a load from the stack.
    enum : uint8_t { kArray = 0, kObject = 1, kNone = 2 };
    uint8_t top = kNone;

    p = skip_whitespace(p);

  value:
    switch (*p) {
      case '{':
        note_depth(p);
        if (!sink_.begin_object(pos16(p))) return oom(p);
        p = skip_whitespace(p + 1);
        if (*p == '}') {
          ++p;
          if constexpr (kSeesSeparators) {
            if (!sink_.end_empty_object()) return oom(p);
          } else {
            if (!sink_.end_object()) return oom(p);
          }
          goto after_value;
        }
        if (!stack_.push(top)) return oom(p);
        top = kObject;
        if (*p != '"') return fail(error_code::expected_property_name_or_brace, p);
        if constexpr (kSeesSeparators) {
          if (!sink_.members_begin()) return oom(p);
        }
        goto object_key;
      case '[':
        note_depth(p);
        if (!sink_.begin_array(pos16(p))) return oom(p);
        p = skip_whitespace(p + 1);
        if (*p == ']') {
          ++p;
          if constexpr (kSeesSeparators) {
            if (!sink_.end_empty_array()) return oom(p);
          } else {
            if (!sink_.end_array()) return oom(p);
          }
          goto after_value;
        }
        if (!stack_.push(top)) return oom(p);
        top = kArray;
        if constexpr (kSeesSeparators) {
          if (!sink_.members_begin()) return oom(p);
        }
        goto value;
      case '"': {
        string_span s;
        p = read_string(p, s);
        if (!p) return error_;
        if (!sink_.string(s)) return oom(s.begin);
        goto after_value;
      }
      case 't':
        if (!match4(p, 't', 'r', 'u', 'e')) return fail_literal(p, "true");
        if (!sink_.literal(literal_kind::true_value, pos16(p))) return oom(p);
        p += 4;
        goto after_value;
      case 'f':
        if (!match4(p + 1, 'a', 'l', 's', 'e')) return fail_literal(p, "false");
        if (!sink_.literal(literal_kind::false_value, pos16(p))) return oom(p);
        p += 5;
        goto after_value;
      case 'n':
        if (!match4(p, 'n', 'u', 'l', 'l')) return fail_literal(p, "null");
        if (!sink_.literal(literal_kind::null_value, pos16(p))) return oom(p);
        p += 4;
        goto after_value;
      case '-': case '0': case '1': case '2': case '3': case '4':
      case '5': case '6': case '7': case '8': case '9': {
        number_span n;
        p = read_number(p, n);
        if (!p) return error_;
        if (!sink_.number(n)) return oom(n.begin);
        goto after_value;
      }
      default:
        return fail(error_code::unexpected_character, p);
    }

  object_key: {
    // p is at the opening quote of a property name.
    size_t ahead = 0;
    if constexpr (kKeysAhead) ahead = sink_.key_ahead(p + 1);
    if (ahead == 0) {
      string_span s;
      p = read_string(p, s);
      if (!p) return error_;
      if (!sink_.key(s)) return oom(s.begin);
    } else {
      if (ahead == kKeyAheadOutOfMemory) return oom(p);
      // A recognised key is ASCII: its bytes are its UTF-16 units, delta16_ stays.
      p += 1 + ahead;
    }
    p = skip_whitespace(p);
    if (*p != ':') return fail(error_code::expected_colon, p);
    p = skip_whitespace(p + 1);
    goto value;
  }

  after_value:
    // Arrays first: long runs of numbers and other scalars make them the hot case.
    if (top == kArray) {
      p = skip_whitespace(p);
      if (*p == ',') {
        const uint8_t* comma = p;
        p = skip_whitespace(p + 1);
        // (Told after the whitespace: told before it, prettify of arrays of alternating
        // literals ran 1.8x slower, the value switch mispredicted at every element.)
        if constexpr (kSeesSeparators) {
          if (!sink_.comma()) return oom(comma);
        }
        goto value;
      }
      if (*p == ']') {
        ++p;
        top = stack_.back();
        stack_.pop_back();
        if (!sink_.end_array()) return oom(p);
        goto after_value;
      }
      return fail(error_code::expected_comma_or_bracket, p);
    }
    if (top == kObject) {
      p = skip_whitespace(p);
      if (*p == ',') {
        // (Before the whitespace here, unlike in arrays: after it measured 0.985x.)
        if constexpr (kSeesSeparators) {
          if (!sink_.comma()) return oom(p);
        }
        p = skip_whitespace(p + 1);
        if (*p != '"') return fail(error_code::expected_property_name, p);
        goto object_key;
      }
      if (*p == '}') {
        ++p;
        top = stack_.back();
        stack_.pop_back();
        if (!sink_.end_object()) return oom(p);
        goto after_value;
      }
      return fail(error_code::expected_comma_or_brace, p);
    }

  document_end:
    if (single_close_) {
      // A member of a container: what follows must be a comma or its closing bracket,
      // as when the container is parsed whole ("[1x]" holds no value 1).
      const uint8_t* q = skip_whitespace(p);
      if (q >= end_) return fail(error_code::unexpected_end, q);
      if (*q != ',' && *q != single_close_) {
        return fail(single_close_ == '}' ? error_code::expected_comma_or_brace : error_code::expected_comma_or_bracket, q);
      }
      return {error_code::ok, pos(p)};
    }
    p = skip_whitespace(p);
    if (p < end_) return fail(error_code::trailing_content, p);
    return {error_code::ok, static_cast<size_t>(end_ - begin_)};
  }

  // Stop after the first complete value, a member of a container closed by `close` ('}'
  // or ']'): run() checks only that a comma or that bracket follows, and reports the
  // value's end as the result offset.
  void stop_after_member(uint8_t close) { single_close_ = close; }

  // Report byte offsets where sinks are given UTF-16 positions (for callers that decode
  // each string from the bytes instead of slicing one decoded document).
  void positions_in_bytes() {
    utf16_mask_ = 0;
    delta16_ = 0;
  }

  // Whether a string contained U+FFFD (EF BF BD).
  bool saw_replacement() const { return saw_replacement_; }

 private:
  size_t pos(const uint8_t* p) const { return static_cast<size_t>(p - begin_); }
  // Valid outside strings, where delta16_ is up to date.
  size_t pos16(const uint8_t* p) const { return pos(p) - delta16_; }

  // A container opens at p: sinks that limit nesting hear of it when it is too deep.
  // (The stack holds the open containers it is in: all non-empty.)
  WASMJSON_INLINE void note_depth(const uint8_t* p) {
    if constexpr (kLimitsDepth) {
      if (stack_.size() >= sink_.max_depth) sink_.too_deep(p);
    }
  }

  // Every failure funnels through here (the cold work in detail::failure_at, which
  // takes values, not `this`: a reader whose address reached a call could not keep its
  // fields in locals across the output stores of the sinks).
  WASMJSON_INLINE result fail(error_code code, const uint8_t* p) {
    return error_ = detail::failure_at(code, p, begin_, end_);
  }
  result oom(const uint8_t* p) { return error_ = {error_code::out_of_memory, pos(p)}; }

  // A literal that does not match: the error is at the first differing byte, as V8
  // reports it.
  WASMJSON_INLINE result fail_literal(const uint8_t* p, const char* word) {
    return error_ = detail::literal_failure_at(p, word, begin_, end_);
  }

  // The 4 bytes at p are a, b, c, d: one load and compare (the padding makes the bytes
  // after any position readable; byte by byte, it was four loads and branches).
  static bool match4(const uint8_t* p, char a, char b, char c, char d) {
    uint32_t v;
    std::memcpy(&v, p, 4);
    return v == (uint32_t{static_cast<uint8_t>(a)} | uint32_t{static_cast<uint8_t>(b)} << 8 |
                 uint32_t{static_cast<uint8_t>(c)} << 16 | uint32_t{static_cast<uint8_t>(d)} << 24);
  }

  WASMJSON_INLINE const uint8_t* skip_whitespace(const uint8_t* p) const {
    // Most gaps are empty or one space; only longer runs (indentation) use the kernel.
    if (!detail::is_whitespace(*p)) return p;
    const uint8_t* gap = p;
    ++p;
    if constexpr (Kernel::whitespace_exact) {
      if (detail::is_whitespace(*p)) {
        for (;;) {
          size_t i = Kernel::whitespace_stop(p);
          if (i < Kernel::whitespace_width) {
            p += i;
            break;
          }
          p += Kernel::whitespace_width;
        }
      }
    } else {
      // Runs of one byte at a time (a line feed, then the indentation).
      while (detail::is_whitespace(*p)) p += Kernel::whitespace_stop(p);
    }
    if constexpr (kSeesWhitespace) sink_.whitespace(gap, p);
    return p;
  }

  // Reads a string starting at its opening quote. Returns the byte after the closing
  // quote, or nullptr after recording the error.
  WASMJSON_INLINE const uint8_t* read_string(const uint8_t* p, string_span& s) {
    s.begin = ++p;
    s.begin16 = pos16(p);
    s.has_escape = false;
    s.has_non_ascii = false;
    for (;;) {
      // Plain runs: the kernel finds the next '"', '\', control or non-ASCII byte. A
      // clean chunk steps by the constant width, not by the scan's result: the next
      // chunk's load then waits for no mask (in wasm, stepping by the result made each
      // chunk wait for the one before: long strings were scanned 2x slower). Two chunks
      // per step: SWAR64's stage 1.01x over the corpus (gsoc-2018.json's long strings
      // 1.04-1.08x in both flavors).
      for (;;) {
        size_t i = Kernel::string_stop(p);
        if (i < Kernel::width) {
          p += i;
          break;
        }
        size_t j = Kernel::string_stop(p + Kernel::width);
        if (j < Kernel::width) {
          p += Kernel::width + j;
          break;
        }
        p += 2 * Kernel::width;
      }
      uint8_t c = *p;
      if (c == '"') {
        s.end = p;
        s.end16 = pos16(p);
        return p + 1;
      }
      if (c == '\\') {
        s.has_escape = true;
        // Escapes often come in runs (escaped non-ASCII text): take them back to back,
        // without a kernel scan between them.
        do {
          uint8_t e = p[1];
          if (!detail::kEscape.v[e]) {
            fail(p + 1 >= end_ ? error_code::unexpected_end : error_code::bad_escape, p + 1);
            return nullptr;
          }
          if (e == 'u') {
            if ((detail::kHex.v[p[2]] | detail::kHex.v[p[3]] | detail::kHex.v[p[4]] |
                 detail::kHex.v[p[5]]) < 0) {
              const uint8_t* q = p + 2;
              while (q < p + 6 && detail::kHex.v[*q] >= 0) ++q;
              fail(error_code::bad_unicode_escape, q);
              return nullptr;
            }
            p += 6;
          } else {
            p += 2;
          }
        } while (*p == '\\');
        continue;
      }
      if (c < 0x20) {
        fail(p >= end_ ? error_code::unterminated_string : error_code::bad_control_character, p);
        return nullptr;
      }
      // c >= 0x80: validate multi-byte sequences, a kernel run at a time where it can.
      s.has_non_ascii = true;
      for (;;) {
        size_t saved;
        size_t run = Kernel::template utf8_run<kTracksUtf16>(p, saved);
        if constexpr (Kernel::utf8_run_width == Kernel::width) {
          if (run == Kernel::width) {
            // A whole chunk steps by the constant width (see the plain runs above).
            p += Kernel::width;
            if constexpr (kTracksUtf16) delta16_ += saved & utf16_mask_;
            continue;
          }
        }
        // (Runs over two words, swar64's, end anywhere: one branch for all lengths.)
        if (run) {
          // Runs end early at a sequence cut by the chunk's end; the next starts there.
          p += run;
          if constexpr (kTracksUtf16) delta16_ += saved & utf16_mask_;
          continue;
        }
        uint8_t lead = *p;
        if (lead < 0x80) break;
        size_t n;
        // The two common cases inline (2-byte: Latin, Greek, Cyrillic, ...; 3-byte with
        // an unrestricted second byte: most of the BMP). A continuation byte past the end
        // would be padding (zero), which fails the check, so no bounds test is needed.
        if (lead >= 0xC2 && lead < 0xE0 && (p[1] & 0xC0) == 0x80) {
          n = 2;
        } else if (lead >= 0xE1 && lead < 0xF0 && lead != 0xED && ((p[1] & p[2]) & 0xC0) == 0x80 &&
                   ((p[1] | p[2]) & 0x40) == 0) {
          n = 3;
          // U+FFFD is also what TextEncoder writes for a lone surrogate: callers with
          // string input need to know whether it occurred (see saw_replacement()).
          saw_replacement_ |= lead == 0xEF && p[1] == 0xBF && p[2] == 0xBD;
        } else {
          n = utf8::sequence_length(p, end_);
          if (n == 0) {
            fail(error_code::invalid_utf8, p);
            return nullptr;
          }
        }
        p += n;
        // n bytes become one UTF-16 unit, or two (a surrogate pair) for 4-byte sequences.
        if constexpr (kTracksUtf16) delta16_ += (n - 1 - (n == 4)) & utf16_mask_;
      }
    }
  }

  // Reads a number starting at '-' or a digit. Returns the byte after it, or nullptr
  // after recording the error.
  WASMJSON_INLINE const uint8_t* read_number(const uint8_t* p, number_span& n) {
    using detail::is_digit;
    n.begin = p;
    n.begin16 = pos16(p);
    n.is_integer = true;
    if (*p == '-') {
      ++p;
      if (!is_digit(*p)) return fail(error_code::no_number_after_minus, p), nullptr;
    }
    if (*p == '0') {
      ++p;
      if (is_digit(*p)) return fail(error_code::leading_zero, p), nullptr;
    } else if constexpr (requires { Kernel::non_digit_mask(p); }) {
      // Wide kernels: the integer digits and, after a '.', the fraction's from one mask
      // (numbers like 12.345678 cost one chunk test instead of two).
      uint32_t m = Kernel::non_digit_mask(p);
      size_t i0 = __builtin_ctz(m);
      if (i0 == Kernel::width) {
        p = skip_digits(p + i0);
      } else if (p[i0] != '.') {
        p += i0;
      } else {
        n.is_integer = false;
        n.int_end = p + i0;
        size_t i1 = __builtin_ctz(m & ~((2u << i0) - 1));
        if (i1 < Kernel::width) {
          if (i1 == i0 + 1) return fail(error_code::unterminated_fraction, p + i1), nullptr;
          p += i1;
        } else {
          // The fraction reaches past the chunk: p[i0 + 1, width) are its first digits,
          // unless it starts right at the chunk's end.
          p += Kernel::width;
          if (i0 + 1 == Kernel::width && !is_digit(*p)) return fail(error_code::unterminated_fraction, p), nullptr;
          p = skip_digits(p);
        }
        n.frac_end = p;
        goto exponent;
      }
    } else {
      p = skip_digits(p);
    }
    n.int_end = p;
    n.frac_end = p;
    // One branch covers both the fraction and the exponent for integers, the usual case.
    // (Compares, not a table: a lookup would be a second load on the path to the next
    // token, as in skip_whitespace.)
    if (*p == '.' || (*p | 0x20) == 'e') {
      if (*p == '.') {
        ++p;
        n.is_integer = false;
        if (!is_digit(*p)) return fail(error_code::unterminated_fraction, p), nullptr;
        p = skip_digits(p);
        n.frac_end = p;
      }
    exponent:
      if ((*p | 0x20) == 'e') {
        ++p;
        n.is_integer = false;
        if (*p == '+' || *p == '-') ++p;
        if (!is_digit(*p)) return fail(error_code::exponent_missing_number, p), nullptr;
        p = skip_digits(p);
      }
    }
    n.end = p;
    return p;
  }

  // A chunk of digits per kernel call. Long runs are rare; the first call usually ends it.
  WASMJSON_INLINE static const uint8_t* skip_digits(const uint8_t* p) {
    for (;;) {
      size_t i = Kernel::digit_stop(p);
      if (i < Kernel::width) return p + i;
      // (By the constant: the next chunk's load waits for no mask.)
      p += Kernel::width;
    }
  }

  const uint8_t* begin_;
  const uint8_t* end_;
  const uint8_t* start_;
  Sink& sink_;
  byte_stack& stack_;
  bool saw_replacement_ = false;
  uint8_t single_close_ = 0;  // stop_after_member's bracket; 0: parse the whole document
  size_t utf16_mask_ = ~size_t{0};  // 0: positions stay byte offsets
  size_t delta16_;  // UTF-8 bytes so far minus UTF-16 units so far
  result error_{error_code::ok, 0};
};

// The sink that keeps nothing: reading with it is validation.
struct null_sink {
  static constexpr bool kIgnoresPositions = true;
  bool begin_object(size_t) { return true; }
  bool end_object() { return true; }
  bool begin_array(size_t) { return true; }
  bool end_array() { return true; }
  bool key(const string_span&) { return true; }
  bool string(const string_span&) { return true; }
  bool number(const number_span&) { return true; }
  bool literal(literal_kind, size_t) { return true; }
};

}  // namespace wasmjson
