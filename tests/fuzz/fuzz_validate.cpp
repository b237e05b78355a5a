// libFuzzer target: validate() on arbitrary bytes.
//
// Every input is copied into a buffer of exactly len + kPadding bytes (content, then
// zero padding), so AddressSanitizer reports any read beyond the padding. Then:
//   - scalar, SWAR64 and SIMD128 must agree on the result code and offset, with and
//     without kSkipBom;
//   - invariants: offset <= len; ok => offset == len; the code is a known one and never
//     out_of_memory; codes whose meaning pins the offset (end of input, a raw control
//     byte, a non-ASCII byte, ...) point where they say;
//   - ok => the whole buffer is well-formed UTF-8 (utf8::validate);
//   - skipping a BOM is the same as validating the bytes after it, offsets shifted by 3.
// Each kernel keeps one byte_stack across runs, as the wasm boundary does.
//
// Built by CMake with -DWASMJSON_FUZZ=ON (clang); run through scripts/fuzz.sh.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "core/utf8.h"
#include "core/validate.h"
#include "kernels/kernel_scalar.h"
#include "kernels/kernel_simd128.h"
#include "kernels/kernel_swar64.h"

using namespace wasmjson;

namespace {

byte_stack g_scalar_stack, g_swar_stack, g_simd_stack;

[[noreturn]] void fail(const char* what, const uint8_t* data, size_t len, uint32_t flags, const char* kernel,
                       result r) {
  std::fprintf(stderr, "fuzz_validate: %s (kernel %s, flags %u, len %zu): code %u offset %zu\n  input:", what,
               kernel, flags, len, static_cast<unsigned>(r.code), r.offset);
  for (size_t i = 0; i < len && i < 256; ++i) std::fprintf(stderr, " %02x", data[i]);
  std::fprintf(stderr, len > 256 ? " ...\n" : "\n");
  __builtin_trap();
}

bool same(result a, result b) { return a.code == b.code && a.offset == b.offset; }

bool is_ws(uint8_t c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }

void check_invariants(const uint8_t* buf, size_t len, uint32_t flags, const char* kernel, result r) {
  auto code = static_cast<uint32_t>(r.code);
  if (code > static_cast<uint32_t>(error_code::out_of_memory)) fail("unknown error code", buf, len, flags, kernel, r);
  if (r.code == error_code::out_of_memory) fail("out_of_memory on a small input", buf, len, flags, kernel, r);
  if (r.offset > len) fail("offset > len", buf, len, flags, kernel, r);
  if (r.ok()) {
    if (r.offset != len) fail("ok but offset != len", buf, len, flags, kernel, r);
    if (utf8::validate<scalar_kernel>(buf, len) != len) fail("ok but not well-formed UTF-8", buf, len, flags, kernel, r);
    return;
  }
  size_t bom = bom_length(buf, len, flags);
  if (r.offset < bom) fail("error offset inside a skipped BOM", buf, len, flags, kernel, r);
  switch (r.code) {
    case error_code::unexpected_end:
    case error_code::unterminated_string:
      if (r.offset != len) fail("end-of-input error not at len", buf, len, flags, kernel, r);
      break;
    case error_code::bad_control_character:
      if (r.offset >= len || buf[r.offset] >= 0x20) fail("bad_control_character not at a control byte", buf, len, flags, kernel, r);
      break;
    case error_code::invalid_utf8:
      if (r.offset >= len || buf[r.offset] < 0x80) fail("invalid_utf8 not at a non-ASCII byte", buf, len, flags, kernel, r);
      break;
    case error_code::trailing_content:
      if (r.offset >= len || is_ws(buf[r.offset])) fail("trailing_content not at a non-whitespace byte", buf, len, flags, kernel, r);
      break;
    case error_code::unexpected_character:
      // Reaching the end where a value was expected is reported as unexpected_end.
      if (r.offset >= len) fail("unexpected_character at end of input", buf, len, flags, kernel, r);
      break;
    default:
      break;
  }
}

result run_all(const uint8_t* buf, size_t len, uint32_t flags) {
  result a = validate<scalar_kernel>(buf, len, flags, g_scalar_stack);
  result b = validate<swar64_kernel>(buf, len, flags, g_swar_stack);
  result c = validate<simd128_kernel>(buf, len, flags, g_simd_stack);
  check_invariants(buf, len, flags, "scalar", a);
  if (!same(a, b)) {
    std::fprintf(stderr, "scalar: code %u offset %zu\n", static_cast<unsigned>(a.code), a.offset);
    fail("swar64 disagrees with scalar", buf, len, flags, "swar64", b);
  }
  if (!same(a, c)) {
    std::fprintf(stderr, "scalar: code %u offset %zu\n", static_cast<unsigned>(a.code), a.offset);
    fail("simd128 disagrees with scalar", buf, len, flags, "simd128", c);
  }
  return a;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  // Exactly size + kPadding bytes: content, then the zero padding readers rely on.
  auto* buf = static_cast<uint8_t*>(std::malloc(size + kPadding));
  if (!buf) return 0;
  if (size) std::memcpy(buf, data, size);
  std::memset(buf + size, 0, kPadding);

  result plain = run_all(buf, size, 0);
  result skip = run_all(buf, size, kSkipBom);

  size_t bom = bom_length(buf, size, kSkipBom);
  if (bom == 0) {
    // No BOM: the flag changes nothing.
    if (!same(plain, skip)) fail("kSkipBom changed the result of an input without a BOM", buf, size, kSkipBom, "scalar", skip);
  } else {
    // A BOM is never JSON on its own terms...
    if (plain.ok()) fail("accepted a BOM without kSkipBom", buf, size, 0, "scalar", plain);
    // ...and skipping it equals validating what follows (which carries the same padding).
    result tail = run_all(buf + bom, size - bom, 0);
    result shifted{tail.code, tail.offset + bom};
    if (!same(skip, shifted)) {
      std::fprintf(stderr, "after the BOM alone: code %u offset %zu (+%zu)\n", static_cast<unsigned>(tail.code),
                   tail.offset, bom);
      fail("kSkipBom differs from validating the bytes after the BOM", buf, size, kSkipBom, "scalar", skip);
    }
  }

  // With a nesting limit (from the input's length): every kernel agrees, a syntax error
  // is the one found without the limit, and valid text is too_deep or still valid.
  size_t max_depth = size % 7;
  result a = validate<scalar_kernel>(buf, size, kSkipBom, g_scalar_stack, max_depth);
  result b = validate<swar64_kernel>(buf, size, kSkipBom, g_swar_stack, max_depth);
  result c = validate<simd128_kernel>(buf, size, kSkipBom, g_simd_stack, max_depth);
  if (!same(a, b)) fail("swar64 disagrees with scalar under a depth limit", buf, size, kSkipBom, "swar64", b);
  if (!same(a, c)) fail("simd128 disagrees with scalar under a depth limit", buf, size, kSkipBom, "simd128", c);
  if (skip.ok() ? !(a.ok() || a.code == error_code::too_deep) : !same(a, skip)) {
    fail("a depth limit changed what is wrong with the text", buf, size, kSkipBom, "scalar", a);
  }
  if (a.code == error_code::too_deep && (a.offset >= size || (buf[a.offset] != '[' && buf[a.offset] != '{'))) {
    fail("too_deep not at a '[' or '{'", buf, size, kSkipBom, "scalar", a);
  }

  std::free(buf);
  return 0;
}
