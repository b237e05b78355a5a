// minify() and prettify(): rewrite a JSON text's whitespace, copying every string and
// number byte for byte (escapes kept, numbers never re-rounded). Reader sinks, so the
// input is fully validated on the way. minify writes over its input; prettify writes
// UTF-8 into a growable buffer.
#pragma once
#include <cstring>

#include "growable.h"
#include "narrowed_units.h"
#include "reader.h"
#include "validate.h"

namespace wasmjson {

namespace detail {

// The writers' slow paths, out of line and given values rather than a writer: a writer
// whose address reached a call would live in memory, and every byte it stores (which
// may alias anything) would make the compiler reload its cursor and state. As locals,
// they stay in registers (wasm locals) through the reader loop.

// A limit on prettify's output (its units) and whether the output reached it: set and
// read around a run by begin_output_limit and end_output_limit (no call interleaves: no
// export calls back into JS), checked by grow_output. Globals rather than the writer's:
// only the slow path reads them, and the writer keeps every value it holds live through
// the reader loop.
inline size_t output_max_units = SIZE_MAX;
inline bool output_too_long = false;

// Commits the output written up to cursor o, then makes room for n more units (the
// buffer growing to at most output_max_units); the new cursor, or nullptr when memory
// cannot grow or the output would pass output_max_units (then output_too_long is set).
template <class Unit>
__attribute__((noinline)) Unit* grow_output(growable<Unit>& out, Unit* o, size_t n) {
  size_t used = static_cast<size_t>(o - out.data());
  out.resize_down(used);
  if (used + n > output_max_units) {
    output_too_long = true;
    return nullptr;
  }
  if (!out.reserve_more(n, output_max_units)) return nullptr;
  return out.end_ptr();
}

// Extends the cached line break (a newline, then the indent repeated) to at least
// `need` units, +16: it is read in whole chunks.
template <class Unit>
__attribute__((noinline)) bool grow_line(growable<Unit>& line, size_t need, const Unit* indent, size_t indent_len) {
  if (!line.reserve_more(need - line.size() + 16)) return false;
  if (line.size() == 0) line.push_unchecked('\n');
  while (line.size() < need) {
    std::memcpy(line.end_ptr(), indent, indent_len * sizeof(Unit));
    line.advance(indent_len);
  }
  return true;
}

// The n UTF-16 units at `units` narrowed (narrowed_units.h) into `narrowed`, followed by
// the reader's zero padding: what the units routes read. False when memory ran out.
template <class Kernel>
bool narrow_into(const uint8_t* units, size_t n, growable<uint8_t>& narrowed) {
  narrowed.clear();
  if (!narrowed.reserve_more(n + kPadding)) return false;
  narrow_units<Kernel>(units, n, narrowed.data());
  std::memset(narrowed.data() + n, 0, kPadding);
  return true;
}

}  // namespace detail

// prettify's writer, over text of one Unit: UTF-8 bytes (prettify_writer: the reader
// reads the text itself), or UTF-16 units (prettify_units_writer: the reader reads them
// narrowed, narrowed_units.h, and tokens are copied from the units at the same offsets).
// The output is in the same units.
template <class Unit>
class basic_prettify_writer {
 public:
  // Tokens are copied, never located: the reader skips its UTF-16 position counting.
  static constexpr bool kIgnoresPositions = true;

  // Each level is indented by `indent` (1 to 30 bytes, the UTF-8 of at most 10 UTF-16
  // units, or those units: JSON.stringify's space argument, already reduced by the
  // caller; minified text is minify's job). `out` must be empty; finish() gives it its
  // size. Units: `read` is the narrowed text the reader reads, `text` the units (with
  // 32 units after them that may be read).
  basic_prettify_writer(growable<Unit>& out, growable<Unit>& line, const Unit* indent, size_t indent_len,
                        const uint8_t* read = nullptr, const Unit* text = nullptr)
      : out_(out), line_(line), indent_(indent), indent_len_(indent_len), read_(read), text_(text), o_(out.data()),
        limit_(out.data() + out.capacity()) {
    line_.clear();
  }

  // After reading: the output ends at the cursor.
  void finish() { out_.resize_down(static_cast<size_t>(o_ - out_.data())); }

  // The token steps are inlined into the reader loop: per token, a call cost about as
  // much as the writing (callgrind, prettify of canada.json). The reader says where
  // separators go (members_begin, comma, the empty closes), so no step tests what came
  // before it.
  WASMJSON_INLINE bool begin_object(size_t) { return open('{'); }
  WASMJSON_INLINE bool end_object() { return close('}'); }
  WASMJSON_INLINE bool end_empty_object() { return close_empty('}'); }
  WASMJSON_INLINE bool begin_array(size_t) { return open('['); }
  WASMJSON_INLINE bool end_array() { return close(']'); }
  WASMJSON_INLINE bool end_empty_array() { return close_empty(']'); }
  // Before a container's first member, and at each comma between members.
  WASMJSON_INLINE bool members_begin() {
    if (!room(line_need_ + 16)) return false;
    newline();
    return true;
  }
  WASMJSON_INLINE bool comma() {
    if (!room(line_need_ + 17)) return false;
    put(',');
    newline();
    return true;
  }

  WASMJSON_INLINE bool key(const string_span& s) {
    if (!room(static_cast<size_t>(s.end - s.begin) + 34)) return false;
    copy_input(s.begin - 1, s.end + 1);
    put(':');
    put(' ');
    return true;
  }
  WASMJSON_INLINE bool string(const string_span& s) {
    if (!room(static_cast<size_t>(s.end - s.begin) + 34)) return false;
    copy_input(s.begin - 1, s.end + 1);
    return true;
  }
  WASMJSON_INLINE bool number(const number_span& n) {
    if (!room(static_cast<size_t>(n.end - n.begin) + 32)) return false;
    copy_input(n.begin, n.end);
    return true;
  }
  WASMJSON_INLINE bool literal(literal_kind k, size_t) {
    // Each word padded to 8 units: one fixed-size copy.
    static constexpr Unit words[3][8] = {{'n', 'u', 'l', 'l'}, {'f', 'a', 'l', 's', 'e'}, {'t', 'r', 'u', 'e'}};
    static constexpr size_t lengths[] = {4, 5, 4};
    if (!room(8)) return false;
    std::memcpy(o_, words[static_cast<int>(k)], sizeof words[0]);
    o_ += lengths[static_cast<int>(k)];
    return true;
  }

 private:
  // Room for n more units at the cursor. Steps ask for more than they write:
  // copy_input() and newline() store whole chunks of 16 units, up to 15 past it.
  WASMJSON_INLINE bool room(size_t n) {
    if (static_cast<size_t>(limit_ - o_) >= n) return true;
    Unit* o = detail::grow_output(out_, o_, n);
    if (!o) return false;
    o_ = o;
    limit_ = out_.data() + out_.capacity();
    return true;
  }
  WASMJSON_INLINE bool open(Unit c) {
    if (!room(1)) return false;
    put(c);
    // The cached line break grows here, the only place depth does, so that newline()
    // never checks it.
    line_need_ += indent_len_;
    if (line_size_ < line_need_) {
      if (!detail::grow_line(line_, line_need_, indent_, indent_len_)) return false;
      line_data_ = line_.data();
      line_size_ = line_.size();
    }
    return true;
  }
  WASMJSON_INLINE bool close(Unit c) {
    line_need_ -= indent_len_;
    if (!room(line_need_ + 17)) return false;
    newline();
    put(c);
    return true;
  }
  WASMJSON_INLINE bool close_empty(Unit c) {
    line_need_ -= indent_len_;
    if (!room(1)) return false;
    put(c);
    return true;
  }
  // One copy per line break: line_ holds '\n' and the indent repeated for the deepest
  // level so far (open() grows it), copied in chunks of 16 units (not a variable-size
  // memcpy: a bulk-memory call in wasm, costly for the few bytes of a typical line break).
  WASMJSON_INLINE void newline() {
    for (size_t i = 0; i < line_need_; i += 16) std::memcpy(o_ + i, line_data_ + i, 16 * sizeof(Unit));
    o_ += line_need_;
  }
  void put(Unit c) { *o_++ = c; }
  // Short spans of the input (most tokens) move as one fixed copy of 16 or 32 units: the
  // input has padding to read past a token and room() reserved room to write past it.
  // [b, e) is what the reader read; units are copied from the same offsets of text_.
  void copy_input(const uint8_t* b, const uint8_t* e) {
    size_t n = static_cast<size_t>(e - b);
    const Unit* from;
    if constexpr (sizeof(Unit) == 1) {
      from = b;
    } else {
      from = text_ + (b - read_);
    }
    if (n <= 16) {
      std::memcpy(o_, from, 16 * sizeof(Unit));
    } else if (n <= 32) {
      std::memcpy(o_, from, 32 * sizeof(Unit));
    } else {
      std::memcpy(o_, from, n * sizeof(Unit));
    }
    o_ += n;
  }

  growable<Unit>& out_;
  growable<Unit>& line_;
  const Unit* indent_;
  size_t indent_len_;
  const uint8_t* read_;  // units: what the reader reads (the narrowed units)
  const Unit* text_;     // units: the units themselves
  // The output cursor and the end of its room (out_ gets its size in finish()).
  Unit* o_;
  Unit* limit_;
  const Unit* line_data_ = nullptr;  // line_'s units, cached across output stores
  size_t line_size_ = 0;
  size_t line_need_ = 1;  // a line break's units at this depth: '\n' + indent * depth
};

using prettify_writer = basic_prettify_writer<uint8_t>;
using prettify_units_writer = basic_prettify_writer<uint16_t>;

// prettify's output limit: the output of a prettify() or prettify_units() run inside a
// limit (begin_output_limit, then end_output_limit with its result) may not pass
// max_units; the result is then error_code::output_too_long. (A buffer that a longer
// output left is written to its capacity before the limit is checked: the output is
// checked again at the end.) The output so far is then freed: it can be as long as a JS
// string (hundreds of MB) and is of no use, and wasm memory, which never shrinks, is
// better left to the allocator. Set around the calls, not inside: with it in
// prettify() itself, that function's wasm measured 0.95x on number-heavy files
// (canada.json, numbers.json; the same loop, compiled and placed otherwise).
inline void begin_output_limit(size_t max_units) {
  detail::output_max_units = max_units;
  detail::output_too_long = false;
}
template <class Unit>
result end_output_limit(result r, growable<Unit>& out) {
  size_t max_units = detail::output_max_units;
  detail::output_max_units = SIZE_MAX;
  if (!detail::output_too_long && (!r.ok() || out.size() <= max_units)) return r;
  detail::output_too_long = false;
  out.release_if_over(0);
  return {error_code::output_too_long, r.offset};
}

// minify() alone: the output is the input less its whitespace gaps, so nothing is
// written per token. The reader reports each gap; the text between gaps moves down over
// the input itself, which the reader has already read up to the gap's end (an already
// minified document is not moved at all). Writing in place spares a second buffer's
// memory traffic. Tokens are ignored as validation ignores them (null_sink).
class minify_in_place_writer : public null_sink {
 public:
  explicit minify_in_place_writer(uint8_t* begin) : o_(begin), pending_(begin) {}

  void whitespace(const uint8_t* begin, const uint8_t* end) {
    size_t n = static_cast<size_t>(begin - pending_);
    // Short pieces (pretty-printed input) as one fixed 16-byte move where it stays short
    // of the unread text (from `end` on): a variable-size move is a bulk-memory call in
    // wasm, costly for a few bytes. Loaded whole, then stored: the piece and its new
    // place may overlap. (While no gap has been dropped, it rewrites bytes as they are.)
    if (n <= 16 && end - o_ >= 16) [[likely]] {
      uint8_t piece[16];
      std::memcpy(piece, pending_, 16);
      std::memcpy(o_, piece, 16);
      o_ += n;
    } else {
      o_ = move_piece(o_, pending_, n);
    }
    pending_ = end;
  }
  // After a successful read of the text up to `end`: the output's end.
  uint8_t* finish(const uint8_t* end) { return move_piece(o_, pending_, static_cast<size_t>(end - pending_)); }

 private:
  // Moves n bytes from `from` down to `to` (nothing to move while no gap was dropped);
  // returns the cursor after them. Out of line: the reader loop keeps only the short case.
  __attribute__((noinline)) static uint8_t* move_piece(uint8_t* to, const uint8_t* from, size_t n) {
    if (to != from) std::memmove(to, from, n);
    return to + n;
  }

  uint8_t* o_;               // the output cursor, at or before pending_
  const uint8_t* pending_;  // start of the input not yet moved
};

// minify() of string input as its UTF-16 units: the reader reads the units narrowed
// (narrowed_units.h: every unit that is not ASCII becomes 0x7F), which hold the same
// structure at the same offsets, and the gaps it reports are dropped from the units
// themselves. For text that is not ASCII this spares transcoding the input to UTF-8 and
// the output back (the engines' slow part), and the reader checks no UTF-8. What the
// narrowing loses decides nothing here: 0x7F, as any unit from 0x80, may stand in a
// string and nowhere else (a lone surrogate, which JSON.parse takes in a string, too).
class minify_units_writer : public null_sink {
 public:
  minify_units_writer(const uint8_t* narrowed, uint16_t* units) : base_(narrowed), units_(units) {}

  void whitespace(const uint8_t* begin, const uint8_t* end) {
    size_t b = static_cast<size_t>(begin - base_);
    size_t e = static_cast<size_t>(end - base_);
    size_t n = b - pending_;
    // Short pieces as one fixed 16-byte move (8 units; the buffer has padding to read
    // past its last unit), where the store stays short of the units still to move (from
    // e on), as minify_in_place_writer does.
    if (n <= 8 && e - o_ >= 8) [[likely]] {
      uint16_t piece[8];
      std::memcpy(piece, units_ + pending_, 16);
      std::memcpy(units_ + o_, piece, 16);
      o_ += n;
    } else {
      o_ = move_units(units_, o_, pending_, n);
    }
    pending_ = e;
  }
  // After a successful read of n units: the output's length in units.
  size_t finish(size_t n) { return move_units(units_, o_, pending_, n - pending_); }

 private:
  __attribute__((noinline)) static size_t move_units(uint16_t* units, size_t to, size_t from, size_t n) {
    if (to != from) std::memmove(units + to, units + from, 2 * n);
    return to + n;
  }

  const uint8_t* base_;  // the narrowed units the reader reads
  uint16_t* units_;      // the units themselves, rewritten
  size_t o_ = 0;         // the output cursor (units), at or before pending_
  size_t pending_ = 0;   // start of the units not yet moved
};

// Minifies the n UTF-16 units at `units` (even address, followed by at least 16 bytes
// it may read) in place: *out_len units of output from `units` on. `narrowed` is
// scratch for the narrowed units. Error offsets are in units; on failure the units are
// left partly rewritten.
template <class Kernel>
result minify_units(uint8_t* units, size_t n, growable<uint8_t>& narrowed, byte_stack& stack, size_t* out_len) {
  if (!detail::narrow_into<Kernel>(units, n, narrowed)) return {error_code::out_of_memory, 0};
  minify_units_writer sink(narrowed.data(), reinterpret_cast<uint16_t*>(units));
  reader<Kernel, minify_units_writer> rd(narrowed.data(), n, sink, stack, 0);
  result r = rd.run_inline();
  if (!r.ok()) return r;
  *out_len = sink.finish(n);
  return r;
}

// Minifies data[0..len) in place (requires kPadding zero bytes after data[len - 1]):
// the output starts at data + *out_begin (after a skipped BOM) and is *out_len bytes.
// On failure the input is left partly rewritten.
template <class Kernel>
result minify_in_place(uint8_t* data, size_t len, uint32_t flags, byte_stack& stack, size_t* out_begin,
                       size_t* out_len, bool* saw_replacement = nullptr) {
  size_t start = bom_length(data, len, flags);
  minify_in_place_writer sink(data + start);
  reader<Kernel, minify_in_place_writer> rd(data, len, sink, stack, start);
  result r = rd.run_inline();
  if (saw_replacement) *saw_replacement = r.ok() && rd.saw_replacement();
  if (!r.ok()) return r;
  *out_begin = start;
  *out_len = static_cast<size_t>(sink.finish(data + len) - (data + start));
  return r;
}

// Pretty-prints data[0..len) (requires kPadding zero bytes after data[len - 1]) with
// `indent` (1 to 30 bytes: the UTF-8 of at most 10 UTF-16 units) per level. `out` is
// cleared first and receives the output.
// With `saw_replacement`, it is set to whether a string held U+FFFD (the output then may
// too; without one, JS need not look for lone surrogates TextEncoder replaced).
// begin_output_limit limits the output.
template <class Kernel>
result prettify(const uint8_t* data, size_t len, uint32_t flags, const uint8_t* indent, size_t indent_len,
                byte_stack& stack, growable<uint8_t>& out, growable<uint8_t>& line,
                bool* saw_replacement = nullptr) {
  out.clear();
  prettify_writer sink(out, line, indent, indent_len);
  reader<Kernel, prettify_writer> rd(data, len, sink, stack, bom_length(data, len, flags));
  result r = rd.run_inline();
  sink.finish();
  if (saw_replacement) *saw_replacement = r.ok() && rd.saw_replacement();
  return r;
}

// validate() of a string's n UTF-16 units at `units` (even address): read narrowed, as
// minify_units reads them (into `narrowed`). Error offsets are in units.
template <class Kernel>
result validate_units(const uint8_t* units, size_t n, growable<uint8_t>& narrowed, byte_stack& stack,
                      size_t max_depth = kNoDepthLimit) {
  if (!detail::narrow_into<Kernel>(units, n, narrowed)) return {error_code::out_of_memory, 0};
  return validate<Kernel>(narrowed.data(), n, 0, stack, max_depth);
}

// prettify() of a string's n UTF-16 units at `units` (even address, followed by at
// least 64 bytes that may be read), with `indent` (1 to 10 units) per level: the reader
// reads them narrowed (into `narrowed`, as minify_units does), and `out` (cleared first)
// receives the output as units. Error offsets are in units.
// begin_output_limit limits the output.
template <class Kernel>
result prettify_units(const uint8_t* units, size_t n, const uint16_t* indent, size_t indent_len,
                      growable<uint8_t>& narrowed, byte_stack& stack, growable<uint16_t>& out,
                      growable<uint16_t>& line) {
  if (!detail::narrow_into<Kernel>(units, n, narrowed)) return {error_code::out_of_memory, 0};
  out.clear();
  prettify_units_writer sink(out, line, indent, indent_len, narrowed.data(), reinterpret_cast<const uint16_t*>(units));
  reader<Kernel, prettify_units_writer> rd(narrowed.data(), n, sink, stack, 0);
  result r = rd.run_inline();
  sink.finish();
  return r;
}

}  // namespace wasmjson
