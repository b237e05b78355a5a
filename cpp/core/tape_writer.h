// The parse sink: writes the tape (tape.h) for one document, with numbers in a float64
// array and unescaped strings in a UTF-16 side buffer. WithSource adds, after every
// primitive's entry, two words: its source text's [begin, end) in UTF-16 units (what a
// JSON.parse reviver receives as context.source); it costs nothing when off.
#pragma once
#include <cstring>

#include "growable.h"
#include "key_table.h"
#include "number_value.h"
#include "reader.h"
#include "shape_table.h"
#include "tape.h"
#include "unescape.h"

namespace wasmjson {

// Per open container: `begin` = its first tape word, and
//   object: a = its shape so far (a shape_table node), b = id + 1 of its last key (0:
//           none yet), flag = it still has a shape (every key had an id, table not full).
//   array:  flag = all elements are numbers or literals so far (their values are then
//           only in the numbers array, literals as tape::literal_bits, with no tape
//           entries yet), b = the numbers array's size when it began (its elements so
//           far are the numbers after b: nothing is counted per element), a = 1 when
//           some of them are literals. Once flag is false, a and b mean nothing.
// Both: ctx = the context its objects' first keys are predicted in (shape_table.h).
struct container_frame {
  uint32_t begin;
  uint32_t a;
  uint32_t b;
  uint32_t ctx;
  bool is_array;
  bool flag;
};

// Heap bytes per piece (at least; a piece ends at a string's end). One JS string per
// piece: engines make a large string from bytes far more slowly per byte than small
// ones (Node 26: latin1Slice 18 GB/s up to 256 KB, 0.3-1.5 GB/s from 512 KB), and
// joining pieces into one costs a copy of the whole heap.
inline constexpr size_t kHeapPieceBytes = 64 * 1024;

struct tape_buffers {
  growable<uint32_t> words;
  growable<container_frame> frames;
  growable<double> numbers;
  growable<uint16_t> utf16;
  // Without a string heap: the decoded text of the strings and new keys with escapes
  // whose text is ASCII (tape::kAsciiText), back to back, as bytes; heap_units = bytes.
  // With a string heap: the UTF-8 of every string and new key without escapes, back to
  // back, and its length in UTF-16 units. The heap is read by JS in pieces (each a JS
  // string): a piece starts at the first string that begins kHeapPieceBytes or more past
  // the start of the one before; the tape marks where (kDouble with kHeapPiece) and
  // tape offsets of strings count UTF-16 units from the start of their piece.
  growable<uint8_t> heap;
  size_t heap_units = 0;
  growable<uint32_t> heap_pieces;  // byte offset where each piece after the first begins
  size_t piece_start_units = 0;    // heap_units where the current piece began
  size_t next_piece = kHeapPieceBytes;  // heap bytes from which the next string starts a piece
  bool saw_replacement = false;    // some string contained U+FFFD
  bool escaped_surrogate = false;  // some \u escape wrote a surrogate into utf16
  // Gives back buffers far larger than a document of `len` bytes can need (each holds at
  // most a few bytes per input byte), once over `keep` bytes: a large document's buffers
  // are freed when a smaller one comes, and kept while documents of its size recur.
  void trim(size_t len, size_t keep) {
    size_t over = len > keep / 8 ? 8 * len : keep;
    words.release_if_over(over);
    frames.release_if_over(over);
    numbers.release_if_over(over);
    utf16.release_if_over(over);
    heap.release_if_over(over);
    heap_pieces.release_if_over(over);
  }
  void clear() {
    escaped_surrogate = false;
    words.clear();
    frames.clear();
    numbers.clear();
    utf16.clear();
    heap.clear();
    heap_units = 0;
    heap_pieces.clear();
    piece_start_units = 0;
    next_piece = kHeapPieceBytes;
  }
};

// Which integer literals go to JS as text, to become BigInts (parse flags kBigInts*).
enum class bigint_mode : uint8_t { none, unsafe, all };

// BigInts: whether integer literals may go as text (bigints_ says which, or none). A
// template parameter, so that the default parse pays nothing per number (a run-time check
// in number() cost 3-5% of the stage on numbers.json, canada.json, mesh.json).
template <class Kernel, bool WithSource, bool BigInts = false>
class tape_writer {
 public:
  tape_writer(tape_buffers& out, key_table& keys, shape_table& shapes, bool intern_keys, bool string_heap,
              bigint_mode bigints = bigint_mode::none)
      : out_(out),
        keys_(keys),
        shapes_(shapes),
        intern_keys_(intern_keys),
        string_heap_(string_heap && !WithSource),
        bigints_(bigints) {}

  WASMJSON_INLINE bool begin_object(size_t) {
    if (!note_value()) return false;
    // (The context is read from top_ before the frames may move.)
    uint32_t ctx = child_context();
    if (!out_.frames.reserve_more(1)) return false;
    out_.frames.push_unchecked({static_cast<uint32_t>(out_.words.size()), shape_table::kRoot, 0, ctx, false, intern_keys_});
    top_ = &out_.frames.back();
    return put(tape::word(tape::kObjectBegin));
  }
  WASMJSON_INLINE bool end_object() {
    container_frame f = *top_;
    pop_frame();
    uint32_t shape = f.flag ? f.a : shape_table::kRoot;
    // Both ends carry the shape: JS then knows at the start how the object will be made.
    out_.words.data()[f.begin] = tape::word(tape::kObjectBegin, shape);
    return put(tape::word(tape::kObjectEnd, shape));
  }
  WASMJSON_INLINE bool begin_array(size_t) {
    if (!note_value()) return false;
    uint32_t ctx = child_context();
    if (!out_.frames.reserve_more(1)) return false;
    out_.frames.push_unchecked(
        {static_cast<uint32_t>(out_.words.size()), 0, static_cast<uint32_t>(out_.numbers.size()), ctx, true, !WithSource});
    top_ = &out_.frames.back();
    return put(tape::word(tape::kArrayBegin));
  }
  WASMJSON_INLINE bool end_array() {
    container_frame f = *top_;
    pop_frame();
    if (f.flag) {
      // All numbers (or literals): [kNumberArray or kScalarArray, count] replaces the
      // kArrayBegin word. An empty array too ([kNumberArray, 0]): JS makes it in one
      // step, with no open container (citm_catalog.json has 8,695 of them).
      out_.words.resize_down(f.begin);
      return put(tape::word(f.a == 0 ? tape::kNumberArray : tape::kScalarArray)) &&
             put(scalars_in(f));
    }
    return put(tape::word(tape::kArrayEnd));
  }

  // Inlined into the reader loop (one per key: the call itself cost as much as the work);
  // escaped keys go out of line.
  WASMJSON_INLINE bool key(const string_span& s) {
    container_frame& f = *top_;
    size_t len = static_cast<size_t>(s.end - s.begin);
    bool fresh = true;
    uint32_t id = intern_keys_ ? keys_.intern_after(f.b, s.begin, len, fresh) : key_table::kNotInterned;
    if (id == key_table::kNotInterned) {
      id = tape::kNoId;
      f.flag = false;
    } else {
      f.b = id + 1;
      if (f.flag) {
        const uint8_t* kept = len < short_key::kMaxLength ? nullptr : keys_.bytes(id);
        uint32_t shape = shapes_.next(f.a, id, s.begin, len, kept);
        if (shape == shape_table::kNone) {
          f.flag = false;
        } else {
          if (f.a == shape_table::kRoot) shapes_.remember_first(f.ctx, id, shape, s.begin, len, kept);
          f.a = shape;
        }
      }
    }
    if (!fresh) return put(tape::word(tape::kKey, id));
    if (!s.has_escape) return put_plain(tape::word(tape::kKeyNew, id), s);
    return string_heap_ ? put_escaped_heap(tape::kKeyNew, tape::kKeyNewEsc, id, s) : put_escaped_ascii(tape::kKeyNewEsc, id, s);
  }

  // The reader's shortcut for keys (reader.h): objects of one shape repeat their keys in
  // order, so the shape so far predicts the next key's bytes; a match gives its id and
  // the next shape in one lookup, and the reader skips the key without scanning it.
  WASMJSON_INLINE size_t key_ahead(const uint8_t* p) {
    container_frame& f = *top_;
    if (!f.flag) return 0;
    shape_table::prediction k =
        f.a == shape_table::kRoot ? shapes_.predict_first(f.ctx, p) : shapes_.predict(f.a, p);
    if (k.child == shape_table::kNone) return 0;
    f.a = k.child;
    f.b = k.key_id + 1;
    return put(tape::word(tape::kKey, k.key_id)) ? k.length : kKeyAheadOutOfMemory;
  }

  // Inlined into the reader loop, as key() is: left to the compiler, string() and
  // literal() stayed calls (wasm stage 1.05-1.07x geomean inlined; truenull.json 1.5x).
  WASMJSON_INLINE bool string(const string_span& s) {
    if (!note_value()) return false;
    bool ok = !s.has_escape   ? put_plain(tape::word(tape::kString), s)
              : string_heap_ ? put_escaped_heap(tape::kString, tape::kStringEsc, 0, s)
                             : put_escaped_ascii(tape::kStringEsc, 0, s);
    return ok && source(s.begin16 - 1, s.end16 + 1);
  }

  // Outside arrays of numbers only, integer literals of up to 15 digits (ids, counts,
  // sizes: most such numbers) are read as integers, so whether one fits a tape word is
  // an integer compare. Through number_value it was a double converted, truncated and
  // compared back (about a tenth of golang-code.json's stage). Numbers with a fraction
  // or an exponent go as doubles, even 1.0: JS makes the same value of either.
  WASMJSON_INLINE bool number(const number_span& n) {
    if constexpr (BigInts) {
      if (bigints_ != bigint_mode::none && n.is_integer) {
        double d = number_value(n);
        // Number.MAX_SAFE_INTEGER: beyond it, a double no longer holds every integer.
        if (bigints_ == bigint_mode::all || !(d >= -9007199254740991.0 && d <= 9007199254740991.0)) {
          return integer_text(n);
        }
      }
    }
    // Still all numbers: the value alone, no tape entry (see end_array).
    if (top_->is_array && top_->flag) return out_.numbers.push(number_value(n));
    bool ok;
    bool neg = *n.begin == '-';
    size_t k = static_cast<size_t>(n.int_end - n.begin) - neg;
    if (n.is_integer && k <= 15) {
      uint64_t v = detail::append_digits(0, n.begin + neg, k);
      // In [kIntMin, kIntMax]; -0 is no integer word (it must stay a double).
      bool small = neg ? v - 1 < static_cast<uint64_t>(-static_cast<int64_t>(tape::kIntMin))
                       : v <= static_cast<uint64_t>(tape::kIntMax);
      if (small) {
        int64_t i = static_cast<int64_t>(v);
        ok = put(tape::word(tape::kInt, static_cast<uint32_t>(static_cast<int32_t>(neg ? -i : i))));
      } else {
        double d = static_cast<double>(v);
        ok = put_double(neg ? -d : d);
      }
    } else {
      ok = put_double(number_value(n));
    }
    size_t len = static_cast<size_t>(n.end - n.begin);
    return ok && source(n.begin16, n.begin16 + len);
  }

  // An integer literal as its text (kDouble, kIntegerText), placed as a string's would be.
  __attribute__((noinline)) bool integer_text(const number_span& n) {
    if (!note_value()) return false;
    size_t len = static_cast<size_t>(n.end - n.begin);
    string_span s{n.begin, n.end, n.begin16, n.begin16 + len, false, false};
    return put_plain(tape::word(tape::kDouble, tape::kIntegerText), s) && source(n.begin16, n.begin16 + len);
  }

  WASMJSON_INLINE bool literal(literal_kind k, size_t pos16) {
    static constexpr uint32_t lengths[] = {4, 5, 4};
    tape::tag t = k == literal_kind::null_value ? tape::kNull : k == literal_kind::true_value ? tape::kTrue : tape::kFalse;
    container_frame& f = *top_;
    if (f.is_array && f.flag) {
      // Still all scalars: the literal joins the numbers, with no tape entry.
      f.a = 1;
      return out_.numbers.push(tape::literal_slot(t));
    }
    if (!note_value()) return false;
    return put(tape::word(t)) && source(pos16, pos16 + lengths[static_cast<int>(k)]);
  }

 private:
  // A kDouble entry and its value.
  bool put_double(double d) {
    if (!put(tape::word(tape::kDouble)) || !out_.numbers.reserve_more(1)) return false;
    out_.numbers.push_unchecked(d);
    return true;
  }

  // The context for first keys in a container opened now: 1 + b for the value of the
  // key with id b - 1 (b = 0: no key with an id yet), its array's context in an array,
  // 0 at the top level.
  uint32_t child_context() const {
    const container_frame& parent = *top_;
    return parent.is_array ? parent.ctx : 1 + parent.b;
  }

  // Before a value that takes a tape entry (not a number or literal in an array of
  // scalars so far): the array's first such value gives the scalars before it their
  // tape entries (kDouble: their values are already in order in the numbers array;
  // literals leave it for their own entries), so it holds entries for every element.
  bool note_value() {
    container_frame& f = *top_;
    if (__builtin_expect(f.is_array && f.flag, 0)) return end_numbers_only(f);
    return true;
  }
  __attribute__((noinline)) bool end_numbers_only(container_frame& f) {
    f.flag = false;
    uint32_t count = scalars_in(f);
    if (!out_.words.reserve_more(count)) return false;
    if (f.a == 0) {
      for (uint32_t j = 0; j < count; ++j) out_.words.push_unchecked(tape::word(tape::kDouble));
    } else {
      // The array's values are the last `count` numbers; literals among them become
      // entries and leave the numbers array (the rest move down over them).
      double* values = out_.numbers.data() + f.b;
      uint32_t kept = 0;
      for (uint32_t j = 0; j < count; ++j) {
        int literal = tape::literal_of(values[j]);
        if (literal < 0) {
          values[kept++] = values[j];
          out_.words.push_unchecked(tape::word(tape::kDouble));
        } else {
          out_.words.push_unchecked(tape::word(static_cast<tape::tag>(literal)));
        }
      }
      out_.numbers.resize_down(f.b + kept);
    }
    return true;
  }

  // The elements so far of an array of scalars (flag set): the numbers after its b.
  uint32_t scalars_in(const container_frame& f) const { return static_cast<uint32_t>(out_.numbers.size() - f.b); }

  void pop_frame() {
    out_.frames.pop_back();
    top_ = out_.frames.size() != 0 ? &out_.frames.back() : &root_;
  }

  bool put(uint32_t w) {
    if (!out_.words.reserve_more(1)) return false;
    out_.words.push_unchecked(w);
    return true;
  }
  bool put3(uint32_t w, size_t a, size_t b) {
    if (!out_.words.reserve_more(3)) return false;
    out_.words.push_unchecked(w);
    out_.words.push_unchecked(static_cast<uint32_t>(a));
    out_.words.push_unchecked(static_cast<uint32_t>(b));
    return true;
  }
  // A string or key without escapes: its range in the document, or with a string heap,
  // its bytes appended to the heap and its range there.
  WASMJSON_INLINE bool put_plain(uint32_t w, const string_span& s) {
    if (!string_heap_) return put3(w, s.begin16, s.end16);
    size_t len = static_cast<size_t>(s.end - s.begin);
    // Whole 16-byte copies: the input's padding covers the over-read, the extra
    // capacity the over-write.
    if (!out_.heap.reserve_more(len + 16)) return false;
    uint8_t* dst = out_.heap.end_ptr();
    for (size_t i = 0; i < len; i += 16) std::memcpy(dst + i, s.begin + i, 16);
    return append_heap(w, len, s.end16 - s.begin16);
  }
  // Takes the `bytes` (`units` UTF-16 units) just written at the heap's end as a string
  // and writes its entry (word w): the range in its piece, after the marker of a new
  // piece when the string starts one.
  WASMJSON_INLINE bool append_heap(uint32_t w, size_t bytes, size_t units) {
    if (out_.heap.size() >= out_.next_piece && !start_piece()) return false;
    out_.heap.advance(bytes);
    size_t begin = out_.heap_units - out_.piece_start_units;
    out_.heap_units += units;
    return put3(w, begin, out_.heap_units - out_.piece_start_units);
  }
  // The string about to be appended starts a new heap piece: its marker goes on the tape.
  __attribute__((noinline)) bool start_piece() {
    if (!out_.heap_pieces.push(static_cast<uint32_t>(out_.heap.size()))) return false;
    out_.piece_start_units = out_.heap_units;
    out_.next_piece = out_.heap.size() + kHeapPieceBytes;
    return put(tape::word(tape::kDouble, tape::kHeapPiece));
  }
  // With a string heap, a string with escapes whose decoded text is ASCII joins the heap
  // decoded, as a plain string's entry (tag t): JS then slices it from its heap piece
  // like the others. The rest keep their escaped entry (tag t_esc) and UTF-16 units:
  // non-ASCII text in the heap would cost every document with escapes the engine's
  // slower UTF-8 decode of its heap (gsoc-2018.json: 0.3x).
  __attribute__((noinline)) bool put_escaped_heap(tape::tag t, tape::tag t_esc, uint32_t id, const string_span& s) {
    size_t n = 0;
    if (!unescape_to_heap(s, n)) return false;
    if (n == kNotAscii) return put_escaped(t_esc, id, s);
    return append_heap(tape::word(t, id), n, n);
  }
  // Without a string heap, a string with escapes whose decoded text is ASCII is decoded
  // into the heap as bytes, its entry's begin marked with kAsciiText: JS decodes those
  // bytes once as Latin-1 and slices them, so such strings become one-byte strings, as
  // JSON.parse makes them (slices of UTF-16 units are two-byte: twice the memory, and
  // slower to make; gsoc-2018.json holds 1.3 million such characters).
  __attribute__((noinline)) bool put_escaped_ascii(tape::tag t, uint32_t id, const string_span& s) {
    // Offsets stay below kAsciiText (its bit marks the entry): text that would cross it
    // keeps to utf16.
    if (out_.heap.size() + static_cast<size_t>(s.end - s.begin) >= tape::kAsciiText) return put_escaped(t, id, s);
    size_t n = 0;
    if (!unescape_to_heap(s, n) || !out_.words.reserve_more(5)) return false;
    if (n == kNotAscii) return put_escaped(t, id, s);
    size_t begin = out_.heap.size();
    out_.heap.advance(n);
    out_.heap_units += n;
    push_escaped_entry(tape::word(t, id), static_cast<uint32_t>(begin) | tape::kAsciiText, begin + n, s);
    return true;
  }
  // Both heap modes: the decoded text of s, when it is ASCII, written at the heap's end
  // (not taken yet: the caller advances the heap), its byte count in n; else n =
  // kNotAscii, and s keeps its UTF-16 entry. false: out of memory.
  bool unescape_to_heap(const string_span& s, size_t& n) {
    if (s.has_non_ascii) {
      n = kNotAscii;
      return true;
    }
    // + a chunk: the unescaper stores whole chunks.
    if (!out_.heap.reserve_more(static_cast<size_t>(s.end - s.begin) + Kernel::width)) return false;
    n = unescape_ascii<Kernel>(s.begin, s.end, out_.heap.end_ptr());
    return true;
  }
  // An escaped entry's five words (room reserved): the decoded text's range, then the source's.
  void push_escaped_entry(uint32_t w, uint32_t begin, size_t end, const string_span& s) {
    out_.words.push_unchecked(w);
    out_.words.push_unchecked(begin);
    out_.words.push_unchecked(static_cast<uint32_t>(end));
    out_.words.push_unchecked(static_cast<uint32_t>(s.begin16));
    out_.words.push_unchecked(static_cast<uint32_t>(s.end16));
  }
  __attribute__((noinline)) bool put_escaped(tape::tag t, uint32_t id, const string_span& s) {
    size_t max_units = static_cast<size_t>(s.end - s.begin);
    // + a chunk: the unescaper stores whole chunks.
    if (!out_.utf16.reserve_more(max_units + Kernel::width) || !out_.words.reserve_more(5)) return false;
    size_t begin = out_.utf16.size();
    out_.utf16.advance(unescape_utf16<Kernel>(s.begin, s.end, out_.utf16.end_ptr(), out_.escaped_surrogate));
    push_escaped_entry(tape::word(t, id), static_cast<uint32_t>(begin), out_.utf16.size(), s);
    return true;
  }
  bool source(size_t begin16, size_t end16) {
    if constexpr (WithSource) return put(static_cast<uint32_t>(begin16)) && put(static_cast<uint32_t>(end16));
    return true;
  }

  tape_buffers& out_;
  key_table& keys_;
  shape_table& shapes_;
  bool intern_keys_;
  bool string_heap_;
  bigint_mode bigints_;
  // The top level's frame: an array whose values all take tape entries (flag false, ctx
  // 0), so every value has a frame and no path tests for the top level.
  container_frame root_{0, 0, 0, 0, true, false};
  // out_.frames.back(), &root_ at the top level: one load where the frame is needed
  // (every token) instead of a chain through out_ and the frames' data and size.
  container_frame* top_ = &root_;
};

}  // namespace wasmjson
