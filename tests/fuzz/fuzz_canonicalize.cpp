// libFuzzer target: canonicalize() (RFC 8785, cpp/core/canonicalize.h) on arbitrary bytes.
//
// Each input is copied into a buffer of exactly len + kPadding bytes (zeros after it) and
// canonicalized with kSkipBom. Then:
//   - the scalar, SWAR64 and SIMD128 kernels give identical results: the same code and
//     offset (and saw_replacement) on every input, the same output bytes on success;
//   - canonicalize() fails exactly where validate() fails, with the same code and offset,
//     except kJcsLoneSurrogate / kJcsNotFinite (21/22), which only occur on valid JSON:
//     a 21 points at the \u escape of a surrogate, a 22 at the start of a number (also
//     checked without kSkipBom when the input starts with a BOM);
//   - on success the output is valid JSON, has no whitespace outside strings, the keys of
//     each of its objects are strictly increasing as UTF-16 code units (each key decoded
//     to a std::u16string), and canonicalizing the output again gives the same bytes;
//   - documents nested at most kReferenceDepth deep are compared with the independent
//     reference of tests/support/jcs_reference.h: the same bytes on success; on 21/22 the
//     reference fails too, and its value holds a string or key with a lone surrogate (21)
//     or a number out of double range (22) among what is written. (Which of the two comes
//     first may legitimately differ: a lone surrogate key does not sort where the
//     reference's std::u16string order puts it, RFC 8785 has no order for it.)
// Each kernel keeps its jcs_buffers across runs, as the wasm boundary does.
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
#include "kernels/kernel_scalar.h"
#include "kernels/kernel_simd128.h"
#include "kernels/kernel_swar64.h"

// The checks' own reference code is left out of coverage: its branches are not the
// code under test.
#define ORACLE __attribute__((no_sanitize("coverage")))
#define WASMJSON_REFERENCE_FN ORACLE
#include "../support/bracket_scan.h"
#include "../support/jcs_reference.h"

using namespace wasmjson;
namespace ref = wasmjson::jcs_reference;

namespace {

// The reference recurses once per level (reading, writing, freeing).
constexpr int kReferenceDepth = 256;

const uint8_t* g_data;
size_t g_size;

[[noreturn]] void fail(const char* what, const std::string& detail = "") {
  std::fprintf(stderr, "fuzz_canonicalize: %s\n%s\n  input (len %zu):", what, detail.c_str(), g_size);
  for (size_t i = 0; i < g_size && i < 256; ++i) std::fprintf(stderr, " %02x", g_data[i]);
  std::fprintf(stderr, g_size > 256 ? " ...\n" : "\n");
  __builtin_trap();
}

std::string describe(const result& r) {
  return "code " + std::to_string(static_cast<uint32_t>(r.code)) + " at " + std::to_string(r.offset);
}

std::string describe(const char* name, const result& r) { return std::string(name) + ": " + describe(r); }

bool same(const result& a, const result& b) { return a.code == b.code && a.offset == b.offset; }

bool is_jcs_code(error_code c) { return c == error_code::jcs_lone_surrogate || c == error_code::jcs_not_finite; }

std::vector<uint8_t> padded(const uint8_t* p, size_t n) {
  std::vector<uint8_t> v(n + kPadding, 0);
  if (n) std::memcpy(v.data(), p, n);
  return v;
}

bool is_ascii(const std::string& t) {
  for (char c : t)
    if (static_cast<uint8_t>(c) >= 0x80) return false;
  return true;
}

std::string text_of(const jcs_buffers& b) { return std::string(reinterpret_cast<const char*>(b.out.data()), b.out.size()); }

jcs_buffers g_scalar, g_swar, g_simd, g_again;
byte_stack g_stack;

// ---- checks on the output text (valid JSON, checked first) ----

// The string starting at out[i] ('"'), decoded to UTF-16 code units; i moves past it.
ORACLE std::u16string decode_string(const std::string& out, size_t& i) {
  std::u16string u;
  ++i;
  for (;;) {
    unsigned char c = static_cast<unsigned char>(out[i]);
    if (c == '"') {
      ++i;
      return u;
    }
    if (c == '\\') {
      char e = out[i + 1];
      i += 2;
      switch (e) {
        case 'b': u += u'\b'; break;
        case 'f': u += u'\f'; break;
        case 'n': u += u'\n'; break;
        case 'r': u += u'\r'; break;
        case 't': u += u'\t'; break;
        case 'u':
          u += static_cast<char16_t>(std::stoul(out.substr(i, 4), nullptr, 16));
          i += 4;
          break;
        default: u += static_cast<char16_t>(e);
      }
      continue;
    }
    size_t n = c < 0x80 ? 1 : c < 0xE0 ? 2 : c < 0xF0 ? 3 : 4;
    uint32_t cp = n == 1 ? c : n == 2 ? c & 0x1F : n == 3 ? c & 0x0F : c & 0x07;
    for (size_t k = 1; k < n; ++k) cp = (cp << 6) | (static_cast<unsigned char>(out[i + k]) & 0x3F);
    i += n;
    if (cp >= 0x10000) {
      u += static_cast<char16_t>(0xD800 + ((cp - 0x10000) >> 10));
      u += static_cast<char16_t>(0xDC00 + ((cp - 0x10000) & 0x3FF));
    } else {
      u += static_cast<char16_t>(cp);
    }
  }
}

// No whitespace outside strings; each object's keys strictly increasing in UTF-16 order.
// Iterative: one frame per open container.
ORACLE void check_output_shape(const std::string& out) {
  struct frame {
    bool object;
    bool has_last;
    std::u16string last;
  };
  std::vector<frame> open;
  bool expect_key = false;  // the next string is an object's key
  for (size_t i = 0; i < out.size();) {
    char c = out[i];
    switch (c) {
      case ' ':
      case '\t':
      case '\n':
      case '\r':
        fail("whitespace outside strings in the output", "at " + std::to_string(i) + ": " + out.substr(0, 300));
      case '{':
        open.push_back({true, false, {}});
        expect_key = true;
        ++i;
        break;
      case '[':
        open.push_back({false, false, {}});
        expect_key = false;
        ++i;
        break;
      case '}':
      case ']':
        open.pop_back();
        expect_key = false;
        ++i;
        break;
      case ',':
        expect_key = !open.empty() && open.back().object;
        ++i;
        break;
      case '"': {
        size_t at = i;
        std::u16string s = decode_string(out, i);
        if (expect_key) {
          frame& f = open.back();
          if (f.has_last && !(f.last < s))
            fail("object keys not strictly increasing in UTF-16 order", "key at " + std::to_string(at) + ": " + out.substr(0, 300));
          f.last = std::move(s);
          f.has_last = true;
          expect_key = false;
        }
        break;
      }
      default:
        ++i;
    }
  }
}

// ---- the reference ----

// Nesting depth of valid JSON text.
ORACLE int depth_of(const uint8_t* p, size_t n) {
  long max = 0;
  testing_support::scan_brackets(p, n, [&](size_t, long depth) {
    if (depth > max) max = depth;
    return true;
  });
  return static_cast<int>(max);
}

// What of v RFC 8785 cannot write: bit 0 a lone surrogate (in a string or a kept key),
// bit 1 a number that is not finite.
ORACLE unsigned jcs_problems(const ref::ref_value& v) {
  std::string scratch;
  switch (v.kind) {
    case ref::ref_value::number_v:
      return std::isfinite(v.number) ? 0 : 2;
    case ref::ref_value::string_v:
      return ref::ref_string(scratch, v.string) ? 0 : 1;
    case ref::ref_value::array_v: {
      unsigned p = 0;
      for (auto& item : v.items) p |= jcs_problems(*item);
      return p;
    }
    case ref::ref_value::object_v: {
      unsigned p = 0;
      for (auto& [k, m] : v.members) {
        scratch.clear();
        if (!ref::ref_string(scratch, k)) p |= 1;
        p |= jcs_problems(*m);
      }
      return p;
    }
    default:
      return 0;
  }
}

ORACLE void check_against_reference(const uint8_t* body, size_t n, const result& got, const std::string& out) {
  if (depth_of(body, n) > kReferenceDepth) return;
  std::string text(reinterpret_cast<const char*>(body), n);
  ref::ref_reader rr{text};
  std::unique_ptr<ref::ref_value> v = rr.value();
  std::string expected;
  uint32_t code = ref::ref_write(expected, *v);
  if (got.ok()) {
    if (code != 0) fail("canonicalize succeeded where the reference fails", "reference code " + std::to_string(code));
    if (expected != out)
      fail("output differs from the reference", "expected: " + expected.substr(0, 300) + "\ngot:      " + out.substr(0, 300));
    return;
  }
  if (code == 0) fail("canonicalize fails where the reference succeeds", describe(got) + "\nreference: " + expected.substr(0, 300));
  unsigned problems = jcs_problems(*v);
  unsigned bit = got.code == error_code::jcs_lone_surrogate ? 1 : 2;
  if (!(problems & bit))
    fail("canonicalize reports a problem the reference's value does not have",
         describe(got) + ", reference code " + std::to_string(code) + ", problems " + std::to_string(problems));
}

ORACLE bool hex(uint8_t c) { return (c >= '0' && c <= '9') || ((c | 0x20) >= 'a' && (c | 0x20) <= 'f'); }

// Where a 21 or 22 points in the input.
ORACLE void check_jcs_offset(const uint8_t* buf, size_t size, const result& r) {
  size_t o = r.offset;
  if (r.code == error_code::jcs_lone_surrogate) {
    if (o + 6 > size || buf[o] != '\\' || buf[o + 1] != 'u' || !hex(buf[o + 2]) || (buf[o + 2] | 0x20) != 'd' ||
        !(buf[o + 3] >= '8' || (buf[o + 3] | 0x20) >= 'a'))
      fail("a lone-surrogate error that does not point at a surrogate's \\u escape", describe(r));
  } else {
    if (o >= size || !(buf[o] == '-' || (buf[o] >= '0' && buf[o] <= '9')))
      fail("a not-finite error that does not point at a number", describe(r));
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  g_data = data;
  g_size = size;
  std::vector<uint8_t> in = padded(data, size);
  const uint8_t* buf = in.data();

  // Kernels agree.
  result rs = canonicalize<scalar_kernel>(buf, size, kSkipBom, g_scalar);
  result rw = canonicalize<swar64_kernel>(buf, size, kSkipBom, g_swar);
  result rv = canonicalize<simd128_kernel>(buf, size, kSkipBom, g_simd);
  if (!same(rs, rw) || !same(rs, rv))
    fail("kernels disagree on the result", describe("scalar", rs) + ", " + describe("swar64", rw) + ", " + describe("simd128", rv));
  if (g_scalar.saw_replacement != g_swar.saw_replacement || g_scalar.saw_replacement != g_simd.saw_replacement)
    fail("kernels disagree on saw_replacement");
  std::string out = text_of(g_scalar);
  if (rs.ok() && (text_of(g_swar) != out || text_of(g_simd) != out))
    fail("kernels wrote different text", "scalar: " + out.substr(0, 200) + "\nswar64: " + text_of(g_swar).substr(0, 200) +
                                             "\nsimd128: " + text_of(g_simd).substr(0, 200));
  // output_ascii: JS makes the text from bytes when it is set, so it must never be set
  // for output with a byte from 0x80 (it may be unset for ASCII output: a replaced
  // duplicate's value held non-ASCII).
  if (g_scalar.output_ascii != g_swar.output_ascii || g_scalar.output_ascii != g_simd.output_ascii)
    fail("kernels disagree on output_ascii");
  if (g_scalar.output_ascii && (!rs.ok() || !is_ascii(out))) fail("output_ascii set for output that is not ASCII", out.substr(0, 300));

  // Errors are validate()'s, or JCS's own on valid JSON.
  result val = validate<simd128_kernel>(buf, size, kSkipBom, g_stack);
  if (!val.ok()) {
    if (!same(val, rs)) fail("canonicalize and validate disagree", describe("validate", val) + ", " + describe("canonicalize", rs));
  } else if (!rs.ok()) {
    if (!is_jcs_code(rs.code)) fail("valid JSON fails with a reader error", describe(rs));
    check_jcs_offset(buf, size, rs);
  }
  size_t bom = bom_length(buf, size, kSkipBom);
  if (bom) {  // Without kSkipBom, the BOM is an error, validate()'s.
    result v0 = validate<scalar_kernel>(buf, size, 0, g_stack);
    result c0 = canonicalize<swar64_kernel>(buf, size, 0, g_again);
    if (v0.ok() || !same(v0, c0))
      fail("without kSkipBom, canonicalize and validate disagree", describe("validate", v0) + ", " + describe("canonicalize", c0));
  }
  if (!val.ok()) return 0;

  check_against_reference(buf + bom, size - bom, rs, out);
  if (!rs.ok()) return 0;

  // The output: valid JSON, canonical shape, a fixed point.
  std::vector<uint8_t> o = padded(reinterpret_cast<const uint8_t*>(out.data()), out.size());
  result ov = validate<swar64_kernel>(o.data(), out.size(), 0, g_stack);
  if (!ov.ok()) fail("the output is not valid JSON", describe(ov) + "\n" + out.substr(0, 300));
  check_output_shape(out);
  result again = canonicalize<simd128_kernel>(o.data(), out.size(), 0, g_again);
  if (!again.ok()) fail("canonicalizing the output fails", describe(again) + "\n" + out.substr(0, 300));
  if (text_of(g_again) != out)
    fail("canonicalize is not idempotent", "first:  " + out.substr(0, 300) + "\nsecond: " + text_of(g_again).substr(0, 300));
  // Canonical text has no escapes of non-ASCII characters and no duplicate keys: there
  // output_ascii says exactly whether it is ASCII.
  if (g_again.output_ascii != is_ascii(out)) fail("output_ascii is wrong for canonical text", out.substr(0, 300));
  return 0;
}
