// libFuzzer target: parse(), minify, prettify and navigation on arbitrary bytes.
//
// Each input is copied into a buffer of exactly len + kPadding bytes. Then:
//   - parse() with the scalar, SWAR64 and SIMD128 kernels gives identical results:
//     code, offset, tape words, numbers (bit for bit) and UTF-16 side buffer;
//   - parse() fails exactly where validate() fails;
//   - for valid input: minify is idempotent and parses back to the same tape (same
//     structure, numbers and decoded strings), and prettify then minify is the same
//     bytes as minify;
//   - with kStringHeap (SWAR64 kernel), the tape has the same entries, except that
//     escaped strings and new keys whose decoded text is ASCII become plain ones; plain
//     entries have consecutive ranges of the same UTF-16 length, and the heap holds
//     exactly their bytes (their byte ranges from a kByteOffsets parse), or for those
//     that were escaped, their decoded units; escaped entries keep their units;
//   - key ids stand for the right keys: with tables kept across inputs (keys predicted
//     from earlier documents), each id's bytes are those of the key a parse without
//     interning reads at that place;
//   - navigation (root, entries of every container on the first path, children by index)
//     never reads out of bounds and never crashes on any input.
// Each kernel keeps its key and shape tables across runs, as the wasm boundary does; every
// other scratch buffer is reused across runs too (only buffers handed to a reader as its
// input are allocated per run, at their exact padded size, so AddressSanitizer sees any
// read past the padding).
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "core/navigate.h"
#include "core/number_value.h"
#include "core/parse.h"
#include "core/reformat.h"
#include "kernels/kernel_scalar.h"
#include "kernels/kernel_simd128.h"
#include "kernels/kernel_swar64.h"
#include "../support/parse_state.h"
#include "../support/tape_text.h"

using namespace wasmjson;

namespace {

[[noreturn]] void fail(const char* what, const uint8_t* data, size_t len) {
  std::fprintf(stderr, "fuzz_parse: %s (len %zu)\n  input:", what, len);
  for (size_t i = 0; i < len && i < 256; ++i) std::fprintf(stderr, " %02x", data[i]);
  std::fprintf(stderr, len > 256 ? " ...\n" : "\n");
  __builtin_trap();
}

using state = testing_support::parse_state;

template <class K>
result run_parse(state& s, const uint8_t* buf, size_t len, uint32_t flags) {
  if (s.keys.nearly_full() || s.shapes.nearly_full()) {
    s.keys.reset();
    s.shapes.reset();
  }
  result r = s.parse<K>(buf, len, flags);
  if (!r.ok()) {
    s.keys.reset();
    s.shapes.reset();
  }
  return r;
}


// Equal contents of two buffers of n elements (an empty buffer may have no storage at
// all: memcmp must not be given its null pointer).
template <class T>
bool same_items(const T* a, const T* b, size_t n) {
  return n == 0 || std::memcmp(a, b, n * sizeof(T)) == 0;
}

bool same_tape(const tape_buffers& a, const tape_buffers& b) {
  return a.words.size() == b.words.size() && same_items(a.words.data(), b.words.data(), a.words.size()) &&
         a.numbers.size() == b.numbers.size() && same_items(a.numbers.data(), b.numbers.data(), a.numbers.size()) &&
         a.utf16.size() == b.utf16.size() && same_items(a.utf16.data(), b.utf16.data(), a.utf16.size()) &&
         a.heap.size() == b.heap.size() && same_items(a.heap.data(), b.heap.data(), a.heap.size());
}

// The decoded text of an escaped entry at words[i].
std::u16string escaped_text(const tape_buffers& t, size_t i, const uint8_t* data, size_t size) {
  std::u16string text;
  if (!tape_text::append_escaped(t, t.words.data()[i + 1], t.words.data()[i + 2], text))
    fail("tape: escaped text outside its buffer", data, size);
  return text;
}

state g_scalar, g_swar, g_simd, g_again, g_heap, g_bytes;

// The kStringHeap tape `h` against the same document's plain tape `d` (UTF-16 offsets)
// and kByteOffsets tape `b`, all from fresh tables; `doc` is the input. `d` and `b` have
// the same entries; `h` is walked apart (a decoded escaped entry is shorter there).
void check_string_heap(const tape_buffers& h, const tape_buffers& d, const tape_buffers& b, const uint8_t* doc,
                       const uint8_t* data, size_t size) {
  if (b.words.size() != d.words.size()) fail("byte offsets: tape size differs", data, size);
  const uint32_t* hw = h.words.data();
  const uint32_t* dw = d.words.data();
  const uint32_t* bw = b.words.data();
  size_t units = 0, bytes = 0, j = 0, ascii_bytes = 0;
  for (size_t i = 0; i < d.words.size(); i += tape::entry_words(dw[i])) {
    uint32_t w = dw[i];
    if (bw[i] != w || j >= h.words.size()) fail("string heap: entries differ", data, size);
    uint32_t tag = w & tape::kTagMask;
    uint32_t htag = hw[j] & tape::kTagMask;
    std::u16string text;
    if (tag == tape::kStringEsc || tag == tape::kKeyNewEsc) {
      // Without a string heap, the decoded text is in the heap as bytes exactly when it
      // is ASCII, back to back in document order.
      text = escaped_text(d, i, data, size);
      bool ascii = true;
      for (char16_t u : text) ascii &= u < 0x80;
      bool marked = (dw[i + 1] & tape::kAsciiText) != 0;
      if (ascii != marked) fail("document tape: ASCII escaped text is not in the heap, or other text is", data, size);
      if (marked) {
        if ((dw[i + 1] & ~tape::kAsciiText) != ascii_bytes) fail("document tape: heap ranges are not consecutive", data, size);
        ascii_bytes += text.size();
      }
    }
    if ((tag == tape::kStringEsc && htag == tape::kString) || (tag == tape::kKeyNewEsc && htag == tape::kKeyNew)) {
      // Decoded into the heap: its text must be the document tape's, all ASCII.
      if (hw[j] >> tape::kTagBits != w >> tape::kTagBits) fail("string heap: entries differ", data, size);
      uint32_t len16 = static_cast<uint32_t>(text.size());
      if (hw[j + 1] != units || hw[j + 2] != units + len16 || bytes + len16 > h.heap.size())
        fail("string heap: ranges are not consecutive", data, size);
      for (uint32_t k = 0; k < len16; ++k) {
        char16_t unit = text[k];
        if (unit >= 0x80 || h.heap.data()[bytes + k] != unit) fail("string heap: decoded text differs", data, size);
      }
      units += len16;
      bytes += len16;
      j += 3;
      continue;
    }
    if (tag == tape::kStringEsc || tag == tape::kKeyNewEsc) {
      // Kept escaped: the same text, and not ASCII (else the heap would hold it: raw
      // non-ASCII text and \u escapes >= 0x80 are what keep a string out of the heap,
      // and both decode to units >= 0x80).
      if (hw[j] != w || (hw[j + 1] & tape::kAsciiText)) fail("string heap: entries differ", data, size);
      if (dw[i + 1] & tape::kAsciiText) fail("string heap: an ASCII escaped string was not decoded into it", data, size);
      uint32_t len16 = static_cast<uint32_t>(text.size());
      if (hw[j + 2] - hw[j + 1] != len16 || hw[j + 2] > h.utf16.size() ||
          !same_items(reinterpret_cast<const char16_t*>(h.utf16.data()) + hw[j + 1], text.data(), len16))
        fail("string heap: escaped units differ", data, size);
      j += tape::entry_words(w);
      continue;
    }
    if (hw[j] != w) fail("string heap: entries differ", data, size);
    if (tag != tape::kString && tag != tape::kKeyNew) {
      if ((tag == tape::kNumberArray || tag == tape::kScalarArray) && hw[j + 1] != dw[i + 1])
        fail("string heap: entries differ", data, size);
      j += tape::entry_words(w);
      continue;
    }
    uint32_t len16 = dw[i + 2] - dw[i + 1];
    if (hw[j + 1] != units || hw[j + 2] != units + len16) fail("string heap: ranges are not consecutive", data, size);
    units += len16;
    size_t len = bw[i + 2] - bw[i + 1];
    if (bytes + len > h.heap.size() || !same_items(h.heap.data() + bytes, doc + bw[i + 1], len))
      fail("string heap: bytes differ from the document's", data, size);
    bytes += len;
    j += 3;
  }
  if (j != h.words.size() || bytes != h.heap.size() || units != h.heap_units) fail("string heap: size differs", data, size);
  if (ascii_bytes != d.heap.size() || d.heap_units != d.heap.size()) fail("document tape: heap size differs", data, size);
}
// Key ids against the keys' bytes. A state that keeps its key and shape tables across
// inputs (as the wasm boundary does, so keys are predicted from earlier documents too)
// parses with byte offsets; its ids are mapped back to the raw key bytes they were first
// given for, and the document's keys must be, in order, the raw bytes of every key as a
// parse without interning (no ids, no prediction) reads them.
state g_persist, g_plain;
std::vector<std::vector<uint8_t>> g_key_bytes;  // by id, for g_persist's tables

std::vector<std::vector<uint8_t>> raw_keys(const tape_buffers& t, const uint8_t* doc, bool learn, const uint8_t* data,
                                           size_t size) {
  std::vector<std::vector<uint8_t>> keys;
  const uint32_t* w = t.words.data();
  for (size_t i = 0; i < t.words.size(); i += tape::entry_words(w[i])) {
    uint32_t tag = w[i] & tape::kTagMask, id = w[i] >> tape::kTagBits;
    if (tag == tape::kKey) {
      if (id >= g_key_bytes.size() || g_key_bytes[id].empty()) fail("key id never defined", data, size);
      keys.push_back(g_key_bytes[id]);
      keys.back().pop_back();  // the marker that tells a defined id from an empty key
      continue;
    }
    if (tag != tape::kKeyNew && tag != tape::kKeyNewEsc) continue;
    // Raw byte range: [1], [2] for plain keys; the source range [3], [4] for escaped ones.
    size_t b = tag == tape::kKeyNew ? w[i + 1] : w[i + 3], e = tag == tape::kKeyNew ? w[i + 2] : w[i + 4];
    keys.emplace_back(doc + b, doc + e);
    if (learn && id != tape::kNoId) {
      if (id >= g_key_bytes.size()) g_key_bytes.resize(id + 1);
      g_key_bytes[id] = keys.back();
      g_key_bytes[id].push_back(1);
    }
  }
  return keys;
}

void check_key_ids(const uint8_t* buf, size_t size, const uint8_t* data) {
  if (g_persist.keys.nearly_full() || g_persist.shapes.nearly_full()) g_key_bytes.clear();
  result r = run_parse<simd128_kernel>(g_persist, buf, size, uint32_t{kSkipBom} | kByteOffsets);
  if (!r.ok()) {
    g_key_bytes.clear();  // run_parse forgot every key
    return;
  }
  std::vector<std::vector<uint8_t>> got = raw_keys(g_persist.tape, buf, true, data, size);
  result rp = g_plain.fresh_parse<swar64_kernel>(buf, size, uint32_t{kSkipBom} | kByteOffsets | kNoKeyInterning);
  if (!rp.ok()) fail("flags changed the verdict", data, size);
  if (got != raw_keys(g_plain.tape, buf, false, data, size)) fail("key ids stand for other keys", data, size);
}

// kBigInts*: the verdict is unchanged, and every integer-text entry's range (byte
// offsets) is an integer literal of the document: with kBigIntsUnsafe, one whose value
// is beyond ±(2^53 - 1); with kBigIntsAll, as many as there are integer literals in a
// kWithSource parse (whose source ranges give every number's text).
bool integer_literal(const uint8_t* b, const uint8_t* e) {
  const uint8_t* p = b + (b < e && *b == '-');
  if (p == e || (*p == '0' && e - p > 1)) return false;
  for (; p < e; ++p)
    if (*p < '0' || *p > '9') return false;
  return true;
}
size_t integer_texts(const tape_buffers& t, const uint8_t* doc, bool unsafe_only, const uint8_t* data, size_t size) {
  size_t n = 0;
  const uint32_t* w = t.words.data();
  for (size_t i = 0; i < t.words.size(); i += tape::entry_words(w[i])) {
    if (w[i] != tape::word(tape::kDouble, tape::kIntegerText)) continue;
    const uint8_t *b = doc + w[i + 1], *e = doc + w[i + 2];
    if (!integer_literal(b, e)) fail("integer text is not an integer literal", data, size);
    double d = number_value(number_span_of(b, e));
    if (unsafe_only && d >= -9007199254740991.0 && d <= 9007199254740991.0) fail("a safe integer came as text", data, size);
    ++n;
  }
  return n;
}
state g_bigint;
void check_bigints(const uint8_t* buf, size_t size, const uint8_t* data) {
  result r = g_bigint.fresh_parse<swar64_kernel>(buf, size, uint32_t{kSkipBom} | kByteOffsets | kBigIntsUnsafe);
  if (!r.ok()) fail("flags changed the verdict", data, size);
  integer_texts(g_bigint.tape, buf, true, data, size);
  r = g_bigint.fresh_parse<simd128_kernel>(buf, size, uint32_t{kSkipBom} | kByteOffsets | kBigIntsAll);
  if (!r.ok()) fail("flags changed the verdict", data, size);
  size_t all = integer_texts(g_bigint.tape, buf, false, data, size);
  // Every integer literal: from the source ranges of a kWithSource parse (which keeps
  // kDouble and kInt entries for numbers, each followed by its range).
  r = g_bigint.fresh_parse<scalar_kernel>(buf, size, uint32_t{kSkipBom} | kByteOffsets | kWithSource);
  if (!r.ok()) fail("flags changed the verdict", data, size);
  size_t literals = 0;
  const uint32_t* w = g_bigint.tape.words.data();
  for (size_t i = 0; i < g_bigint.tape.words.size();) {
    uint32_t tag = w[i] & tape::kTagMask;
    size_t words = tape::entry_words(w[i]);
    bool primitive = tag <= tape::kStringEsc;
    if ((tag == tape::kInt || tag == tape::kDouble) && integer_literal(buf + w[i + words], buf + w[i + words + 1])) ++literals;
    i += words + (primitive ? 2 : 0);
  }
  if (literals != all) fail("kBigIntsAll missed an integer literal", data, size);
}

byte_stack g_stack;
growable<uint8_t> g_pretty, g_line, g_scratch;

std::vector<uint8_t> padded(const uint8_t* p, size_t n) {
  std::vector<uint8_t> v(n + kPadding, 0);
  if (n) std::memcpy(v.data(), p, n);
  return v;
}

// minify of p[0..n) in a padded copy of its own (minify writes over its input); the
// output in `out`.
template <class K>
result minify_copy(const uint8_t* p, size_t n, uint32_t flags, std::vector<uint8_t>& out) {
  std::vector<uint8_t> v = padded(p, n);
  size_t begin = 0, len = 0;
  result r = minify_in_place<K>(v.data(), n, flags, g_stack, &begin, &len);
  out.assign(v.data() + (r.ok() ? begin : 0), v.data() + (r.ok() ? begin + len : 0));
  return r;
}

template <class K>
void navigate_everything(const uint8_t* buf, size_t len) {
  nav::cursor c;
  c.begin = buf;
  c.end = buf + len;
  const uint8_t* p = nav::skip_ws(buf);
  growable<uint8_t>& scratch = g_scratch;
  for (int depth = 0; depth < 64 && p < c.end && c.code == error_code::ok; ++depth) {
    nav::kind k = nav::kind_at(p);
    if (k == nav::kind::scalar) {
      nav::skip_value<K>(c, p);
      return;
    }
    const uint8_t* first = nullptr;
    nav::for_each_entry<K>(c, p, [&](const uint8_t*, const uint8_t*, bool, const uint8_t* v) {
      if (v < buf || v >= c.end) fail("entry outside the document", buf, len);
      if (!first) first = v;
      return true;
    });
    const uint8_t key[] = {'a'};
    nav::child<K>(c, p, key, 1, 0, scratch);
    if (!first) return;
    p = first;
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::vector<uint8_t> in = padded(data, size);
  const uint8_t* buf = in.data();

  // (Tapes are compared from fresh tables: key ids depend on history.)
  result rs = g_scalar.fresh_parse<scalar_kernel>(buf, size, kSkipBom);
  result rw = g_swar.fresh_parse<swar64_kernel>(buf, size, kSkipBom);
  result rv = g_simd.fresh_parse<simd128_kernel>(buf, size, kSkipBom);
  if (rs.code != rw.code || rs.offset != rw.offset || rs.code != rv.code || rs.offset != rv.offset)
    fail("kernels disagree on the result", data, size);
  if (rs.ok() && (!same_tape(g_scalar.tape, g_swar.tape) || !same_tape(g_scalar.tape, g_simd.tape)))
    fail("kernels wrote different tapes", data, size);
  result val = validate<simd128_kernel>(buf, size, kSkipBom, g_stack);
  if (val.code != rs.code || val.offset != rs.offset) fail("parse and validate disagree", data, size);

  // With source ranges and without interning: same verdict.
  result src = run_parse<simd128_kernel>(g_simd, buf, size, uint32_t{kSkipBom} | kWithSource | kNoKeyInterning);
  if (src.code != rs.code || src.offset != rs.offset) fail("flags changed the verdict", data, size);

  navigate_everything<simd128_kernel>(buf, size);
  navigate_everything<swar64_kernel>(buf, size);

  // minify fails where validation does, writing only over its own input (ASan checks).
  std::vector<uint8_t> m0;
  result rm = minify_copy<swar64_kernel>(buf, size, kSkipBom, m0);
  if (rm.code != rs.code || rm.offset != rs.offset) fail("minify and parse disagree", data, size);

  if (!rs.ok()) return 0;
  check_key_ids(buf, size, data);

  result rh = g_heap.fresh_parse<swar64_kernel>(buf, size, uint32_t{kSkipBom} | kStringHeap);
  result rb = g_bytes.fresh_parse<swar64_kernel>(buf, size, uint32_t{kSkipBom} | kByteOffsets);
  if (!rh.ok() || !rb.ok()) fail("flags changed the verdict", data, size);
  check_string_heap(g_heap.tape, g_swar.tape, g_bytes.tape, buf, data, size);
  check_bigints(buf, size, data);

  // Reformat round trips.
  byte_stack& stack = g_stack;
  growable<uint8_t>&pretty = g_pretty, &line = g_line;
  const uint8_t indent[] = {' ', ' '};
  std::vector<uint8_t> min1, min2;
  if (!minify_copy<simd128_kernel>(buf, size, kSkipBom, min1).ok()) fail("valid input does not minify", data, size);
  if (!minify_copy<scalar_kernel>(buf, size, kSkipBom, min2).ok() || min2 != min1)
    fail("kernels minify differently", data, size);
  std::vector<uint8_t> m1 = padded(min1.data(), min1.size());
  {
    // A minified text is its own output, left in place byte for byte.
    std::vector<uint8_t> again = m1;
    size_t begin = 1, len = 0;
    if (!minify_in_place<swar64_kernel>(again.data(), min1.size(), 0, stack, &begin, &len).ok() || begin != 0 ||
        len != min1.size() || again != m1)
      fail("minify is not idempotent", data, size);
  }
  if (!prettify<scalar_kernel>(buf, size, kSkipBom, indent, 2, stack, pretty, line).ok())
    fail("valid input does not prettify", data, size);
  if (!minify_copy<simd128_kernel>(pretty.data(), pretty.size(), 0, min2).ok() || min2 != min1)
    fail("prettify then minify differs from minify", data, size);
  // The minified text parses to the same values (offsets differ, so compare numbers and strings).
  state& again = g_again;
  result ra = again.fresh_parse<simd128_kernel>(m1.data(), min1.size(), 0);
  if (!ra.ok()) fail("minified text does not parse", data, size);
  if (again.tape.numbers.size() != g_scalar.tape.numbers.size() ||
      !same_items(again.tape.numbers.data(), g_scalar.tape.numbers.data(), again.tape.numbers.size()) ||
      again.tape.utf16.size() != g_scalar.tape.utf16.size() ||
      !same_items(again.tape.utf16.data(), g_scalar.tape.utf16.data(), again.tape.utf16.size()) ||
      again.tape.heap.size() != g_scalar.tape.heap.size() ||
      !same_items(again.tape.heap.data(), g_scalar.tape.heap.data(), again.tape.heap.size()) ||
      again.tape.words.size() != g_scalar.tape.words.size())
    fail("minified text parses to different values", data, size);
  return 0;
}
