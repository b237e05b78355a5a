// libFuzzer target: string escaping (the serializer, cpp/core/writer_escape.h) and
// unescaping (the parser, cpp/core/unescape.h) on their own, both ways.
//
// Each input gives up to three strings of UTF-16 code units (any units, lone surrogates
// included): the bytes as UTF-16LE units; the bytes decoded as UTF-8 when they are
// well-formed; and, when the bytes wrapped in quotes are a valid JSON string, what
// parse() decodes from it (unescape -> escape -> unescape). For each string:
//   - escape_utf16 with the scalar, SWAR64 and SIMD128 kernels writes exactly what an
//     independent one-unit-at-a-time escaper writes (V8's well-formed JSON.stringify:
//     \" \\ \b \f \n \r \t, other controls and lone surrogates as lowercase \u00xx /
//     \udxxx, everything else as UTF-8), and sets kOutputNonAscii iff a byte >= 0x80 is out;
//   - escape_utf8 on the TextEncoder bytes of the string (lone surrogates -> U+FFFD)
//     writes the same bytes, or gives up (nullptr) iff those bytes contain U+FFFD;
//   - the raw-text routines agree: transcode_utf16 (U+FFFD or WTF-8 for lone surrogates)
//     and copy_utf8;
//   - quoted, the escaped text is a valid JSON string for validate() and parse() with
//     every kernel, and parse() decodes it back to exactly the same code units (and
//     reports an escaped surrogate iff the string has a lone one).
// Every input and output buffer is allocated at exactly the size the routines' contract
// asks for (padding, slack), so AddressSanitizer sees any access past it.
//
// Built by CMake with -DWASMJSON_FUZZ=ON (clang); run through scripts/fuzz.sh. The routines
// work a chunk (at most 32 units) at a time, so inputs are kept to 1 KiB (hundreds of
// units, dozens of chunks); longer ones only cost time:
// fuzz.sh options: -max_len=1024
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "core/padded_input.h"
#include "core/parse.h"
#include "core/utf8.h"
#include "core/validate.h"
#include "core/writer_escape.h"
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

using units = std::vector<uint16_t>;
using bytes = std::string;

const uint8_t* g_data;
size_t g_size;

[[noreturn]] void fail(const char* what, const units& u, const bytes& got, const bytes& expected) {
  std::fprintf(stderr, "fuzz_strings: %s\n  units:", what);
  for (size_t i = 0; i < u.size() && i < 128; ++i) std::fprintf(stderr, " %04x", u[i]);
  std::fprintf(stderr, "\n  got:     ");
  for (size_t i = 0; i < got.size() && i < 256; ++i) std::fprintf(stderr, " %02x", static_cast<uint8_t>(got[i]));
  std::fprintf(stderr, "\n  expected:");
  for (size_t i = 0; i < expected.size() && i < 256; ++i)
    std::fprintf(stderr, " %02x", static_cast<uint8_t>(expected[i]));
  std::fprintf(stderr, "\n  input (len %zu):", g_size);
  for (size_t i = 0; i < g_size && i < 256; ++i) std::fprintf(stderr, " %02x", g_data[i]);
  std::fprintf(stderr, g_size > 256 ? " ...\n" : "\n");
  __builtin_trap();
}

using utf8_reference::is_high;
using utf8_reference::is_low;
using utf8_reference::put_utf8;

// The reference: one unit at a time, straight from the JSON.stringify rules.
ORACLE bytes reference_escape(const units& u) {
  static const char hex[] = "0123456789abcdef";
  bytes o;
  for (size_t i = 0; i < u.size(); ++i) {
    uint16_t c = u[i];
    switch (c) {
      case '"': o += "\\\""; continue;
      case '\\': o += "\\\\"; continue;
      case '\b': o += "\\b"; continue;
      case '\f': o += "\\f"; continue;
      case '\n': o += "\\n"; continue;
      case '\r': o += "\\r"; continue;
      case '\t': o += "\\t"; continue;
      default: break;
    }
    if (is_high(c) && i + 1 < u.size() && is_low(u[i + 1])) {
      put_utf8(o, 0x10000 + ((c - 0xD800u) << 10) + (u[i + 1] - 0xDC00u));
      ++i;
    } else if (c < 0x20 || is_high(c) || is_low(c)) {
      o += "\\u";
      for (int s = 12; s >= 0; s -= 4) o += hex[(c >> s) & 15];
    } else {
      put_utf8(o, c);
    }
  }
  return o;
}

// What TextEncoder makes of u (lone surrogates -> U+FFFD), or WTF-8 (keep_lone).
ORACLE bytes encode_utf8(const units& u, bool keep_lone, bool* lone = nullptr) {
  return utf8_reference::encode_utf16(u.data(), u.size(), keep_lone, lone);
}

// Well-formed UTF-8 -> UTF-16 units (tests/support/utf8_reference.h).
ORACLE units decode_utf8(const uint8_t* p, size_t n) {
  units u;
  utf8_reference::decode_utf8(u, p, n);
  return u;
}

ORACLE bool has_non_ascii(const bytes& b) {
  for (char c : b)
    if (static_cast<uint8_t>(c) >= 0x80) return true;
  return false;
}

template <class K>
void check_escape_utf16(const units& u, const bytes& expected) {
  // Input: the units, then kPadding readable bytes. Output: 6n + kEscapeSlack.
  auto* in = static_cast<uint16_t*>(std::calloc(u.size() * 2 + kPadding, 1));
  if (!u.empty()) std::memcpy(in, u.data(), u.size() * 2);
  size_t room = u.size() * kMaxEscapedPerUnit + kEscapeSlack;
  auto* out = static_cast<uint8_t*>(std::malloc(room));
  uint32_t flags = 0;
  uint8_t* end = escape_utf16<K>(out, in, u.size(), flags);
  bytes got(reinterpret_cast<char*>(out), static_cast<size_t>(end - out));
  std::free(out);
  std::free(in);
  if (got != expected) fail(K::name == std::string("scalar")   ? "escape_utf16 (scalar) differs from the reference"
                            : K::name == std::string("swar64") ? "escape_utf16 (swar64) differs from the reference"
                                                                : "escape_utf16 (simd128) differs from the reference",
                            u, got, expected);
  if (((flags & cmd::kOutputNonAscii) != 0) != has_non_ascii(expected))
    fail("escape_utf16: kOutputNonAscii wrong", u, got, expected);
}

template <class K>
void check_escape_utf8(const units& u, const bytes& text, const bytes& expected) {
  auto* in = static_cast<uint8_t*>(std::calloc(text.size() + kPadding, 1));
  std::memcpy(in, text.data(), text.size());
  size_t room = u.size() * kMaxEscapedPerUnit + kEscapeSlack;
  auto* out = static_cast<uint8_t*>(std::malloc(room));
  uint32_t flags = 0;
  const uint8_t* p = in;
  uint8_t* end = escape_utf8<K>(out, p, u.size(), flags);
  bool has_fffd = text.find("\xEF\xBF\xBD") != bytes::npos;
  if (!end) {
    std::free(out);
    std::free(in);
    if (!has_fffd) fail("escape_utf8 gave up on text without U+FFFD", u, "", expected);
    return;
  }
  bytes got(reinterpret_cast<char*>(out), static_cast<size_t>(end - out));
  size_t consumed = static_cast<size_t>(p - in);
  std::free(out);
  std::free(in);
  if (has_fffd) fail("escape_utf8 wrote text containing U+FFFD (it must ask for UTF-16)", u, got, expected);
  if (got != expected) fail("escape_utf8 differs from the reference", u, got, expected);
  if (consumed != text.size()) fail("escape_utf8 consumed the wrong number of bytes", u, got, expected);
  if (((flags & cmd::kOutputNonAscii) != 0) != has_non_ascii(expected))
    fail("escape_utf8: kOutputNonAscii wrong", u, got, expected);
}

testing_support::parse_state g_parsers[3];

// The code units a parsed one-string document holds; false when it is not one.
bool decoded_string(const tape_buffers& t, const uint8_t* text, units& out) {
  if (t.words.size() == 0) return false;
  uint32_t w = t.words.data()[0];
  uint32_t tag = w & tape::kTagMask;
  if (tag == tape::kString && t.words.size() == 3) {
    uint32_t b = t.words.data()[1], e = t.words.data()[2];  // byte offsets (kByteOffsets)
    out = decode_utf8(text + b, e - b);
    return true;
  }
  if (tag == tape::kStringEsc && t.words.size() == 5) {
    out.clear();
    return tape_text::append_escaped(t, t.words.data()[1], t.words.data()[2], out);
  }
  return false;
}

template <class K>
bool parse_string(testing_support::parse_state& s, const uint8_t* text, size_t len, units& out,
                  bool& escaped_surrogate) {
  result r = s.fresh_parse<K>(text, len, kByteOffsets);
  escaped_surrogate = s.tape.escaped_surrogate;
  return r.ok() && decoded_string(s.tape, text, out);
}

template <class K>
void check_unescape(testing_support::parse_state& s, const units& u, const bytes& escaped, bool lone) {
  bytes quoted = "\"" + escaped + "\"";
  padded_input text(quoted);
  result v = validate<K>(text.data(), text.size(), 0, s.stack);
  if (!v.ok()) fail("validate rejects the escaped string", u, quoted, "");
  units back;
  bool escaped_surrogate = false;
  if (!parse_string<K>(s, text.data(), text.size(), back, escaped_surrogate))
    fail("parse rejects the escaped string", u, quoted, "");
  if (back != u) {
    bytes got, want;
    for (uint16_t x : back) got += std::to_string(x) + ",";
    for (uint16_t x : u) want += std::to_string(x) + ",";
    fail("parse does not decode the escaped string back to the same units", u, got, want);
  }
  if (escaped_surrogate != lone) fail("escaped_surrogate is wrong", u, quoted, lone ? "set" : "clear");
}

void check_raw(const units& u, const bytes& text) {
  // transcode_utf16: room 3n; U+FFFD for lone surrogates, or WTF-8 with kOutputWtf8.
  for (bool keep : {false, true}) {
    bool lone = false;
    bytes expected = encode_utf8(u, keep, &lone);
    auto* in = static_cast<uint16_t*>(std::malloc(u.size() * 2));  // exactly the units: it reads no further
    if (!u.empty()) std::memcpy(in, u.data(), u.size() * 2);
    auto* out = static_cast<uint8_t*>(std::malloc(u.size() * 3));
    uint32_t flags = 0;
    uint8_t* end = transcode_utf16(out, in, u.size(), keep, flags);
    bytes got(reinterpret_cast<char*>(out), static_cast<size_t>(end - out));
    std::free(out);
    std::free(in);
    if (got != expected) fail("transcode_utf16 differs from the reference encoding", u, got, expected);
    if (((flags & cmd::kOutputWtf8) != 0) != (keep && lone)) fail("transcode_utf16: kOutputWtf8 wrong", u, got, expected);
    if (((flags & cmd::kOutputNonAscii) != 0) != has_non_ascii(expected))
      fail("transcode_utf16: kOutputNonAscii wrong", u, got, expected);
  }
  // copy_utf8 on the TextEncoder bytes: the same bytes, or nullptr iff U+FFFD is there.
  auto* in = static_cast<uint8_t*>(std::malloc(text.size()));  // exactly the text: it reads no further
  if (!text.empty()) std::memcpy(in, text.data(), text.size());
  auto* out = static_cast<uint8_t*>(std::malloc(u.size() * 3));
  uint32_t flags = 0;
  const uint8_t* p = in;
  uint8_t* end = copy_utf8(out, p, u.size(), flags);
  bool has_fffd = text.find("\xEF\xBF\xBD") != bytes::npos;
  bytes got = end ? bytes(reinterpret_cast<char*>(out), static_cast<size_t>(end - out)) : bytes();
  std::free(out);
  std::free(in);
  if (!end != has_fffd) fail("copy_utf8 must give up exactly when the text has U+FFFD", u, got, text);
  if (end && got != text) fail("copy_utf8 changed the text", u, got, text);
}

void check(const units& u) {
  bytes expected = reference_escape(u);
  check_escape_utf16<scalar_kernel>(u, expected);
  check_escape_utf16<swar64_kernel>(u, expected);
  check_escape_utf16<simd128_kernel>(u, expected);

  bool lone = false;
  bytes text = encode_utf8(u, false, &lone);
  // The escaper sees what TextEncoder wrote: lone surrogates are U+FFFD by then.
  units seen = lone ? decode_utf8(reinterpret_cast<const uint8_t*>(text.data()), text.size()) : u;
  if (seen.size() == u.size()) {  // U+FFFD is one unit, like the surrogate it replaced
    bytes expected8 = lone ? reference_escape(seen) : expected;
    check_escape_utf8<scalar_kernel>(u, text, expected8);
    check_escape_utf8<swar64_kernel>(u, text, expected8);
    check_escape_utf8<simd128_kernel>(u, text, expected8);
  } else {
    fail("TextEncoder model changed the unit count", u, text, "");
  }
  check_raw(u, text);

  check_unescape<scalar_kernel>(g_parsers[0], u, expected, lone);
  check_unescape<swar64_kernel>(g_parsers[1], u, expected, lone);
  check_unescape<simd128_kernel>(g_parsers[2], u, expected, lone);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size > 1024) size = 1024;  // as -max_len (a longer input given by hand is cut)
  g_data = data;
  g_size = size;

  // 1. The bytes as UTF-16LE code units (an odd last byte is dropped).
  units u(size / 2);
  for (size_t i = 0; i + 1 < size; i += 2) u[i / 2] = static_cast<uint16_t>(data[i] | (data[i + 1] << 8));
  check(u);

  // 2. The bytes as UTF-8 text, when well-formed.
  if (utf8::validate<scalar_kernel>(data, size) == size) check(decode_utf8(data, size));

  // 3. The bytes as the content of a JSON string: what parse() decodes, when valid.
  bytes quoted = "\"" + bytes(reinterpret_cast<const char*>(data), size) + "\"";
  padded_input text(quoted);
  units decoded;
  bool escaped_surrogate = false;
  if (parse_string<simd128_kernel>(g_parsers[2], text.data(), text.size(), decoded, escaped_surrogate)) check(decoded);
  return 0;
}
