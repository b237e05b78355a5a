// libFuzzer target: UTF-8 well-formedness on arbitrary bytes.
//
//   1. utf8::validate<K> for scalar, SWAR64 and SIMD128 returns the same offset as an
//      independent reference written straight from Unicode Table 3-7 (the length of the
//      longest well-formed prefix). utf8::validate gets a buffer of exactly len bytes,
//      no padding, so AddressSanitizer reports any read past the end.
//   2. The bytes with '"', '\' and control bytes removed, wrapped as a JSON string
//      ("..."), and as an object key ({"...":0}), are accepted by validate() with every
//      kernel iff the reference says they are well-formed; when rejected, the error is
//      invalid_utf8 at the reference's offset (shifted by the opening bytes).
//
// Built by CMake with -DWASMJSON_FUZZ=ON (clang); run through scripts/fuzz.sh.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "core/utf8.h"
#include "core/validate.h"
#include "kernels/kernel_scalar.h"
#include "kernels/kernel_simd128.h"
#include "kernels/kernel_swar64.h"

using namespace wasmjson;

namespace {

// Unicode 15, Table 3-7 "Well-Formed UTF-8 Byte Sequences", one row per line:
//   U+0000..U+007F     00..7F
//   U+0080..U+07FF     C2..DF  80..BF
//   U+0800..U+0FFF     E0      A0..BF  80..BF
//   U+1000..U+CFFF     E1..EC  80..BF  80..BF
//   U+D000..U+D7FF     ED      80..9F  80..BF
//   U+E000..U+FFFF     EE..EF  80..BF  80..BF
//   U+10000..U+3FFFF   F0      90..BF  80..BF  80..BF
//   U+40000..U+FFFFF   F1..F3  80..BF  80..BF  80..BF
//   U+100000..U+10FFFF F4      80..8F  80..BF  80..BF
struct row {
  uint8_t lo[4], hi[4];
  size_t n;
};
constexpr row kTable[] = {
    {{0x00}, {0x7F}, 1},
    {{0xC2, 0x80}, {0xDF, 0xBF}, 2},
    {{0xE0, 0xA0, 0x80}, {0xE0, 0xBF, 0xBF}, 3},
    {{0xE1, 0x80, 0x80}, {0xEC, 0xBF, 0xBF}, 3},
    {{0xED, 0x80, 0x80}, {0xED, 0x9F, 0xBF}, 3},
    {{0xEE, 0x80, 0x80}, {0xEF, 0xBF, 0xBF}, 3},
    {{0xF0, 0x90, 0x80, 0x80}, {0xF0, 0xBF, 0xBF, 0xBF}, 4},
    {{0xF1, 0x80, 0x80, 0x80}, {0xF3, 0xBF, 0xBF, 0xBF}, 4},
    {{0xF4, 0x80, 0x80, 0x80}, {0xF4, 0x8F, 0xBF, 0xBF}, 4},
};

// Length of the longest well-formed prefix of s[0..n): n when all of it is well-formed,
// else the offset of the first byte that does not start a well-formed sequence.
size_t reference_prefix(const uint8_t* s, size_t n) {
  size_t i = 0;
  while (i < n) {
    size_t matched = 0;
    for (const row& r : kTable) {
      if (i + r.n > n) continue;
      bool ok = true;
      for (size_t k = 0; k < r.n && ok; ++k) ok = s[i + k] >= r.lo[k] && s[i + k] <= r.hi[k];
      if (ok) {
        matched = r.n;
        break;
      }
    }
    if (matched == 0) return i;
    i += matched;
  }
  return n;
}

byte_stack g_stacks[3];

[[noreturn]] void fail(const char* what, const char* kernel, const uint8_t* data, size_t len, size_t got,
                       size_t expected) {
  std::fprintf(stderr, "fuzz_utf8: %s (kernel %s, len %zu): got %zu, expected %zu\n  input:", what, kernel, len, got,
               expected);
  for (size_t i = 0; i < len && i < 256; ++i) std::fprintf(stderr, " %02x", data[i]);
  std::fprintf(stderr, len > 256 ? " ...\n" : "\n");
  __builtin_trap();
}

template <class K>
void check_utf8(const uint8_t* data, size_t size, size_t expected) {
  // Exactly size bytes: utf8::validate works on unpadded buffers.
  auto* buf = static_cast<uint8_t*>(std::malloc(size ? size : 1));
  if (!buf) return;
  if (size) std::memcpy(buf, data, size);
  size_t got = utf8::validate<K>(buf, size);
  if (got != expected) fail("utf8::validate disagrees with the Table 3-7 reference", K::name, data, size, got, expected);
  std::free(buf);
}

// validate() on prefix + body + suffix; body is well-formed up to body_prefix bytes.
template <class K>
void check_json(byte_stack& stack, const std::vector<uint8_t>& text, size_t body_at, size_t body_len,
                size_t body_prefix) {
  auto* buf = static_cast<uint8_t*>(std::malloc(text.size() + kPadding));
  if (!buf) return;
  std::memcpy(buf, text.data(), text.size());
  std::memset(buf + text.size(), 0, kPadding);
  for (uint32_t flags : {0u, static_cast<uint32_t>(kSkipBom)}) {
    result r = validate<K>(buf, text.size(), flags, stack);
    if (body_prefix == body_len) {
      if (!r.ok()) {
        std::fprintf(stderr, "code %u\n", static_cast<unsigned>(r.code));
        fail("validate rejected a string of well-formed UTF-8", K::name, buf, text.size(), r.offset, text.size());
      }
    } else {
      if (r.code != error_code::invalid_utf8 || r.offset != body_at + body_prefix) {
        std::fprintf(stderr, "code %u (expected invalid_utf8 = 16)\n", static_cast<unsigned>(r.code));
        fail("validate did not report invalid_utf8 at the first ill-formed byte", K::name, buf, text.size(), r.offset,
             body_at + body_prefix);
      }
    }
  }
  std::free(buf);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  size_t expected = reference_prefix(data, size);
  check_utf8<scalar_kernel>(data, size, expected);
  check_utf8<swar64_kernel>(data, size, expected);
  check_utf8<simd128_kernel>(data, size, expected);

  // String content: everything but '"', '\' and control bytes, which end or escape it.
  std::vector<uint8_t> body;
  body.reserve(size);
  for (size_t i = 0; i < size; ++i)
    if (data[i] != '"' && data[i] != '\\' && data[i] >= 0x20) body.push_back(data[i]);
  size_t body_prefix = reference_prefix(body.data(), body.size());

  std::vector<uint8_t> as_string;
  as_string.push_back('"');
  as_string.insert(as_string.end(), body.begin(), body.end());
  as_string.push_back('"');
  check_json<scalar_kernel>(g_stacks[0], as_string, 1, body.size(), body_prefix);
  check_json<swar64_kernel>(g_stacks[1], as_string, 1, body.size(), body_prefix);
  check_json<simd128_kernel>(g_stacks[2], as_string, 1, body.size(), body_prefix);

  std::vector<uint8_t> as_key = {'{', '"'};
  as_key.insert(as_key.end(), body.begin(), body.end());
  for (uint8_t c : {'"', ':', '0', '}'}) as_key.push_back(c);
  check_json<scalar_kernel>(g_stacks[0], as_key, 2, body.size(), body_prefix);
  check_json<swar64_kernel>(g_stacks[1], as_key, 2, body.size(), body_prefix);
  check_json<simd128_kernel>(g_stacks[2], as_key, 2, body.size(), body_prefix);
  return 0;
}
