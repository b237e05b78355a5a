// libFuzzer target: parse -> serialize -> parse, through the real serializer.
//
// A valid input is parsed (SIMD128, byte offsets) into a tape (cpp/core/tape.h). The tape
// becomes the command stream stringify() sends (cpp/core/writer_commands.h): literals,
// kInt for the tape's small integers, kDouble for its doubles and for the elements of
// number arrays, strings and keys with their decoded code units (kKeyNew / kKey through
// the key cache, kKeyString for keys the cache cannot hold), cut into batches at points
// chosen from the input, and sent as UTF-8 (what TextEncoder makes of the units; a batch
// the writer refuses with kResendUtf16 is sent again as UTF-16, as stringify does) or as
// UTF-16. json_writer (cpp/core/writer.h) turns it into JSON text. Then:
//   - the compact text is byte for byte the same from the scalar, SWAR64 and SIMD128
//     writers, and from UTF-8 and UTF-16 batches;
//   - it parses, with every value the same as in the first parse: numbers bit for bit
//     (a double that is not finite comes back as null and -0 as 0, as JSON.stringify
//     writes them), strings and keys as exactly the same code units, the same structure;
//   - serializing the second tape gives the same text again (a fixed point), so a third
//     parse gives the same tape as the second;
//   - the indented text (a gap chosen from the input) parses to the same values too;
//   - in canonical mode (cmd::kCanonical, writer_sort.h) the text is what the RFC 8785
//     canonicalizer (core/canonicalize.h) makes of the compact text, unless the writer
//     stopped sorting (kOutputUnsorted) or the document has duplicate keys (which JS
//     objects, the mode's input, never have).
//
// Built by CMake with -DWASMJSON_FUZZ=ON (clang); run through scripts/fuzz.sh.
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "core/canonicalize.h"
#include "core/padded_input.h"
#include "core/parse.h"
#include "core/writer.h"
#include "kernels/kernel_scalar.h"
#include "kernels/kernel_simd128.h"
#include "kernels/kernel_swar64.h"

using namespace wasmjson;

// The checks' own reference code is left out of coverage: its branches are not the
// code under test, and tracing them cost more time than the code under test.
#define ORACLE __attribute__((no_sanitize("coverage")))
#define WASMJSON_REFERENCE_FN ORACLE
#include "../support/parse_state.h"
#include "../support/tape_text.h"
#include "../support/utf8_reference.h"

namespace {

const uint8_t* g_data;
size_t g_size;

[[noreturn]] void fail(const char* what, const std::string& detail = "") {
  std::fprintf(stderr, "fuzz_roundtrip: %s\n%s\n  input (len %zu):", what, detail.c_str(), g_size);
  for (size_t i = 0; i < g_size && i < 256; ++i) std::fprintf(stderr, " %02x", g_data[i]);
  std::fprintf(stderr, g_size > 256 ? " ...\n" : "\n");
  __builtin_trap();
}

using units = std::vector<uint16_t>;

using utf8_reference::is_high;
using utf8_reference::is_low;
using utf8_reference::put_utf8;

// TextEncoder: lone surrogates become U+FFFD.
ORACLE void encode_utf8(std::string& o, const uint16_t* u, size_t n) {
  for (size_t i = 0; i < n; ++i) {
    uint16_t c = u[i];
    if (is_high(c) && i + 1 < n && is_low(u[i + 1])) {
      put_utf8(o, 0x10000 + ((c - 0xD800u) << 10) + (u[i + 1] - 0xDC00u));
      ++i;
    } else {
      put_utf8(o, (is_high(c) || is_low(c)) ? 0xFFFD : c);
    }
  }
}

// Well-formed UTF-8 -> UTF-16 units, appended (tests/support/utf8_reference.h).
using utf8_reference::decode_utf8;

// ---- a tape, read back as values ----

enum class kind : uint8_t { null_v, false_v, true_v, number, string, key, array_begin, array_end, object_begin, object_end };

struct value {
  kind k;
  double num;                  // number
  uint32_t str_begin, str_end;  // string, key: units in the document's pool
};

// One document's values, in order, plus the command stream that writes them.
struct document {
  std::vector<value> values;
  units pool;

  // Command items (one value or key each), batched later.
  struct item {
    uint32_t op_begin, op_end;  // in ops
    bool has_number;
    double number;
    uint32_t str_begin, str_end;  // units in pool sent as string data (empty: none)
  };
  std::vector<uint32_t> ops;
  std::vector<item> items;

  void clear() {
    values.clear();
    pool.clear();
    ops.clear();
    items.clear();
  }
};

struct key_record {
  uint32_t begin, end;  // in pool
  bool defined;         // a kKeyNew of this document gave the id
  bool cached;          // defined in the writer's key cache
};

// Reads tape `t` of source text `src` (parsed with kByteOffsets) into d. `expected`: turn
// numbers into what JSON.stringify writes (null for non-finite, 0 for -0).
void read_tape(const tape_buffers& t, const uint8_t* src, size_t src_len, bool expected, document& d) {
  static std::vector<key_record> keys;
  keys.assign(key_table::kMaxKeys, key_record{0, 0, false, false});
  d.clear();
  const uint32_t* w = t.words.data();
  size_t n = t.words.size();
  const double* nums = t.numbers.data();
  size_t ni = 0, nn = t.numbers.size();

  auto begin_item = [&]() { d.items.push_back({static_cast<uint32_t>(d.ops.size()), 0, false, 0, 0, 0}); };
  auto end_item = [&]() { d.items.back().op_end = static_cast<uint32_t>(d.ops.size()); };
  auto push_value = [&](kind k, double num = 0, uint32_t b = 0, uint32_t e = 0) { d.values.push_back({k, num, b, e}); };
  auto next_number = [&]() -> double {
    if (ni >= nn) fail("tape: more number entries than numbers");
    return nums[ni++];
  };
  auto number_item = [&](double v, bool as_int, uint32_t word) {
    begin_item();
    if (as_int) {
      d.ops.push_back(cmd::word(cmd::kInt, word >> tape::kTagBits));
    } else {
      d.ops.push_back(cmd::word(cmd::kDouble));
      d.items.back().has_number = true;
      d.items.back().number = v;
    }
    end_item();
    if (expected && !std::isfinite(v)) {
      push_value(kind::null_v);
    } else {
      push_value(kind::number, expected && v == 0 ? 0.0 : v);
    }
  };
  auto literal_item = [&](uint32_t tg) {
    begin_item();
    d.ops.push_back(cmd::word(tg == tape::kNull ? cmd::kNull : tg == tape::kTrue ? cmd::kTrue : cmd::kFalse));
    end_item();
    push_value(tg == tape::kNull ? kind::null_v : tg == tape::kTrue ? kind::true_v : kind::false_v);
  };
  // Appends the units of a string entry at w[i] to the pool; returns [begin, end).
  auto string_units = [&](size_t i, bool escaped, uint32_t& b, uint32_t& e) {
    b = static_cast<uint32_t>(d.pool.size());
    if (escaped) {
      if (!tape_text::append_escaped(t, w[i + 1], w[i + 2], d.pool)) fail("tape: escaped text outside its buffer");
    } else {
      uint32_t sb = w[i + 1], se = w[i + 2];
      if (sb < 1 || sb > se || se >= src_len || src[sb - 1] != '"' || src[se] != '"')
        fail("tape: string range is not a quoted string of the source");
      decode_utf8(d.pool, src + sb, se - sb);
    }
    e = static_cast<uint32_t>(d.pool.size());
  };
  auto string_item = [&](cmd::tag t_, uint32_t b, uint32_t e) {
    begin_item();
    uint32_t len = e - b;
    if (len >= cmd::kLong) {
      d.ops.push_back(cmd::word(t_, cmd::kLong));
      d.ops.push_back(len);
    } else {
      d.ops.push_back(cmd::word(t_, len));
    }
    d.items.back().str_begin = b;
    d.items.back().str_end = e;
    end_item();
  };
  auto key_new_item = [&](uint32_t id, uint32_t b, uint32_t e) {
    // The writer's cache holds keys of up to 64 units under ids below 8192 (as
    // js/src/stringify.ts decides); others go as uncached kKeyString.
    if (id != tape::kNoId && id < key_cache::kMaxKeys && e - b <= key_cache::kMaxKeyUnits) {
      begin_item();
      d.ops.push_back(cmd::word(cmd::kKeyNew, id));
      d.ops.push_back(e - b);
      d.items.back().str_begin = b;
      d.items.back().str_end = e;
      end_item();
      keys[id] = {b, e, true, true};
    } else {
      string_item(cmd::kKeyString, b, e);
      if (id != tape::kNoId && id < keys.size()) keys[id] = {b, e, true, false};
    }
  };

  for (size_t i = 0; i < n;) {
    uint32_t word = w[i];
    uint32_t payload = word >> tape::kTagBits;
    switch (word & tape::kTagMask) {
      case tape::kNull:
      case tape::kFalse:
      case tape::kTrue:
        literal_item(word & tape::kTagMask);
        i += 1;
        break;
      case tape::kInt:
        number_item(static_cast<double>(static_cast<int32_t>(word) >> tape::kTagBits), true, word);
        i += 1;
        break;
      case tape::kDouble:
        number_item(next_number(), false, word);
        i += 1;
        break;
      case tape::kString:
      case tape::kStringEsc: {
        bool esc = (word & tape::kTagMask) == tape::kStringEsc;
        if (i + (esc ? 5 : 3) > n) fail("tape: truncated string entry");
        uint32_t b, e;
        string_units(i, esc, b, e);
        string_item(cmd::kString, b, e);
        push_value(kind::string, 0, b, e);
        i += esc ? 5 : 3;
        break;
      }
      case tape::kKey: {
        if (payload >= keys.size() || !keys[payload].defined) fail("tape: kKey with an id no kKeyNew defined");
        key_record r = keys[payload];
        uint32_t b = r.begin, e = r.end;  // the units its kKeyNew put in the pool
        if (r.cached) {
          begin_item();
          d.ops.push_back(cmd::word(cmd::kKey, payload));
          end_item();
        } else {
          string_item(cmd::kKeyString, b, e);
        }
        push_value(kind::key, 0, b, e);
        i += 1;
        break;
      }
      case tape::kKeyNew:
      case tape::kKeyNewEsc: {
        bool esc = (word & tape::kTagMask) == tape::kKeyNewEsc;
        if (i + (esc ? 5 : 3) > n) fail("tape: truncated key entry");
        uint32_t b, e;
        string_units(i, esc, b, e);
        key_new_item(payload, b, e);
        push_value(kind::key, 0, b, e);
        i += esc ? 5 : 3;
        break;
      }
      case tape::kArrayBegin:
      case tape::kObjectBegin:
      case tape::kArrayEnd:
      case tape::kObjectEnd: {
        uint32_t tg = word & tape::kTagMask;
        begin_item();
        d.ops.push_back(cmd::word(tg == tape::kArrayBegin    ? cmd::kArrayBegin
                                  : tg == tape::kObjectBegin ? cmd::kObjectBegin
                                  : tg == tape::kArrayEnd    ? cmd::kArrayEnd
                                                             : cmd::kObjectEnd));
        end_item();
        push_value(tg == tape::kArrayBegin    ? kind::array_begin
                   : tg == tape::kObjectBegin ? kind::object_begin
                   : tg == tape::kArrayEnd    ? kind::array_end
                                              : kind::object_end);
        i += 1;
        break;
      }
      case tape::kNumberArray:
      case tape::kScalarArray: {
        if (i + 2 > n) fail("tape: truncated number array");
        uint32_t count = w[i + 1];
        bool scalars = (word & tape::kTagMask) == tape::kScalarArray;
        begin_item();
        d.ops.push_back(cmd::word(cmd::kArrayBegin));
        end_item();
        push_value(kind::array_begin);
        for (uint32_t j = 0; j < count; ++j) {
          double v = next_number();
          int literal = tape::literal_of(v);
          if (literal >= 0 && !scalars) fail("tape: a literal in a number array");
          if (literal >= 0) literal_item(static_cast<uint32_t>(literal));
          else number_item(v, false, 0);
        }
        begin_item();
        d.ops.push_back(cmd::word(cmd::kArrayEnd));
        end_item();
        push_value(kind::array_end);
        i += 2;
        break;
      }
      default:
        fail("tape: unknown tag");
    }
  }
  if (ni != nn) fail("tape: numbers left over");
}

// ---- serializing a document's command stream ----

struct options {
  uint32_t batch_items;  // items per batch (0: one batch)
  uint16_t gap[10];
  size_t gap_units;
};

struct batch_buffers {
  std::vector<uint32_t> ops;
  std::vector<double> numbers;
  units strings16;
  std::string strings8;
};

// Sends `strings` with kPadding readable bytes after them, in a buffer of exactly that size.
template <class K>
uint32_t write_batch_as(json_writer<K>& w, key_cache& keys, const batch_buffers& b, bool utf8) {
  size_t bytes = utf8 ? b.strings8.size() : b.strings16.size() * 2;
  auto* strings = static_cast<uint8_t*>(std::calloc(bytes + kPadding, 1));
  if (bytes) std::memcpy(strings, utf8 ? static_cast<const void*>(b.strings8.data()) : b.strings16.data(), bytes);
  write_batch wb{b.ops.data(), b.ops.size(), b.numbers.data(), b.numbers.size(), strings, bytes, utf8};
  uint32_t status = w.write(wb, keys);
  std::free(strings);
  return status;
}

uint32_t g_output_flags = 0;  // the last serialize()'s

template <class K>
std::string serialize(const document& d, const options& opt, bool utf8, bool pretty, uint32_t flags = 0) {
  static json_writer<K> w;
  static key_cache keys;
  keys.reset();
  w.begin(flags, opt.gap, pretty ? opt.gap_units : 0);
  batch_buffers b;
  auto flush = [&]() {
    uint32_t status = write_batch_as(w, keys, b, utf8);
    if (status == cmd::kResendUtf16 && utf8) status = write_batch_as(w, keys, b, false);
    if (status != cmd::kOk) fail("the writer refused a command stream made from a valid tape", "status " + std::to_string(status));
    b.ops.clear();
    b.numbers.clear();
    b.strings16.clear();
    b.strings8.clear();
  };
  uint32_t in_batch = 0;
  for (const document::item& it : d.items) {
    b.ops.insert(b.ops.end(), d.ops.begin() + it.op_begin, d.ops.begin() + it.op_end);
    if (it.has_number) b.numbers.push_back(it.number);
    if (it.str_end > it.str_begin) {
      b.strings16.insert(b.strings16.end(), d.pool.begin() + it.str_begin, d.pool.begin() + it.str_end);
      encode_utf8(b.strings8, d.pool.data() + it.str_begin, it.str_end - it.str_begin);
    }
    if (opt.batch_items && ++in_batch == opt.batch_items) {
      flush();
      in_batch = 0;
    }
  }
  flush();
  g_output_flags = w.output_flags();
  const output_buffer& out = w.output();
  return std::string(reinterpret_cast<const char*>(out.data()), out.size());
}

// ---- comparing ----

bool same_bits(double a, double b) { return std::memcmp(&a, &b, 8) == 0; }

ORACLE std::string describe(const document& d, size_t i) {
  if (i >= d.values.size()) return "(end)";
  const value& v = d.values[i];
  char buf[128];
  switch (v.k) {
    case kind::number: {
      uint64_t b;
      std::memcpy(&b, &v.num, 8);
      std::snprintf(buf, sizeof buf, "number %.17g (0x%016llx)", v.num, static_cast<unsigned long long>(b));
      return buf;
    }
    case kind::string:
    case kind::key: {
      std::string s = v.k == kind::string ? "string" : "key";
      for (uint32_t j = v.str_begin; j < v.str_end && j < v.str_begin + 40; ++j) {
        std::snprintf(buf, sizeof buf, " %04x", d.pool[j]);
        s += buf;
      }
      return s;
    }
    default:
      std::snprintf(buf, sizeof buf, "kind %d", static_cast<int>(v.k));
      return buf;
  }
}

ORACLE void compare(const document& want, const document& got, const char* what) {
  size_t n = want.values.size() < got.values.size() ? want.values.size() : got.values.size();
  for (size_t i = 0; i <= n; ++i) {
    if (i == n) {
      if (want.values.size() != got.values.size()) fail(what, "value " + std::to_string(i) + ": expected " + describe(want, i) + ", got " + describe(got, i));
      return;
    }
    const value& a = want.values[i];
    const value& b = got.values[i];
    bool same = a.k == b.k;
    if (same && a.k == kind::number) same = same_bits(a.num, b.num);
    if (same && (a.k == kind::string || a.k == kind::key))
      same = a.str_end - a.str_begin == b.str_end - b.str_begin &&
             std::equal(want.pool.begin() + a.str_begin, want.pool.begin() + a.str_end, got.pool.begin() + b.str_begin);
    if (!same) fail(what, "value " + std::to_string(i) + ": expected " + describe(want, i) + ", got " + describe(got, i));
  }
}

testing_support::parse_state g_parser;

// Parses text (fresh tables, byte offsets) into d; false when it is not valid JSON.
bool parse_into(const uint8_t* text, size_t len, uint32_t flags, bool expected, document& d) {
  if (!g_parser.fresh_parse<simd128_kernel>(text, len, flags | kByteOffsets).ok()) return false;
  read_tape(g_parser.tape, text, len, expected, d);
  return true;
}

ORACLE uint64_t hash(const uint8_t* p, size_t n) {
  uint64_t h = 0x9E3779B97F4A7C15ULL ^ n;
  for (size_t i = 0; i < n; ++i) h = (h ^ p[i]) * 0x100000001B3ULL;
  return h ^ (h >> 29);
}

document g_first, g_second, g_third;

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  g_data = data;
  g_size = size;
  padded_input input(std::string_view(reinterpret_cast<const char*>(data), size));
  // The first parse skips a BOM; its string ranges are byte offsets into the input.
  if (!parse_into(input.data(), size, kSkipBom, true, g_first)) return 0;

  // Batching and the gap come from the input, so each input always does the same.
  uint64_t h = hash(data, size);
  options opt{};
  static const uint32_t kBatchChoices[] = {0, 0, 0, 1, 2, 3, 7, 64};
  opt.batch_items = kBatchChoices[h & 7];
  // Gaps are JSON whitespace (any other gap makes text JSON.parse rejects), up to 10 units.
  static const char16_t* kGaps[] = {u"  ", u"\t", u"          ", u"\r\n", u" \t\n\r"};
  const char16_t* gap = kGaps[(h >> 3) % 5];
  while (gap[opt.gap_units]) {
    opt.gap[opt.gap_units] = static_cast<uint16_t>(gap[opt.gap_units]);
    ++opt.gap_units;
  }

  std::string compact = serialize<simd128_kernel>(g_first, opt, true, false);
  if (serialize<swar64_kernel>(g_first, opt, true, false) != compact) fail("swar64 writer differs from simd128");
  if (serialize<scalar_kernel>(g_first, opt, true, false) != compact) fail("scalar writer differs from simd128");
  if (serialize<simd128_kernel>(g_first, opt, false, false) != compact) fail("UTF-16 batches write other text than UTF-8 batches");

  padded_input second_text(compact);
  if (!parse_into(second_text.data(), second_text.size(), 0, false, g_second))
    fail("the serialized text does not parse", compact.substr(0, 300));
  compare(g_first, g_second, "the serialized text parses to other values");

  if (serialize<simd128_kernel>(g_second, opt, true, false) != compact)
    fail("serializing the reparsed tape gives other text (no fixed point)", compact.substr(0, 300));

  std::string pretty = serialize<swar64_kernel>(g_first, opt, false, true);
  padded_input pretty_text(pretty);
  if (!parse_into(pretty_text.data(), pretty_text.size(), 0, false, g_third))
    fail("the indented text does not parse", pretty.substr(0, 300));
  compare(g_first, g_third, "the indented text parses to other values");

  // Canonical mode against the canonicalizer of the compact text. (The same length
  // there: no duplicate key was dropped. A lone surrogate is an error there.)
  std::string canonical = serialize<simd128_kernel>(g_first, opt, false, false, cmd::kCanonical);
  if (canonical.size() != compact.size()) fail("canonical mode wrote text of another length", canonical.substr(0, 300));
  static jcs_buffers jcs;
  result r = canonicalize<simd128_kernel>(second_text.data(), compact.size(), kNumbersInJsForm, jcs);
  if (r.ok() && jcs.out.size() == compact.size() && !(g_output_flags & cmd::kOutputUnsorted)) {
    std::string expected(reinterpret_cast<const char*>(jcs.out.data()), jcs.out.size());
    if (canonical != expected) fail("canonical mode differs from the canonicalizer", canonical.substr(0, 300) + "\nexpected " + expected.substr(0, 300));
    if (serialize<swar64_kernel>(g_first, opt, false, false, cmd::kCanonical) != canonical) fail("swar64 canonical mode differs from simd128");
  }
  return 0;
}
