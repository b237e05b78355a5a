// libFuzzer target: navigation (navigate.h, container_ends.h) on arbitrary bytes, what
// at() and lazy documents run on untrusted input that is only partly validated.
//
// The input is a JSON Pointer up to the first newline (a '/' is put in front; a '~' not
// followed by 0 or 1 is dropped, as JS refuses such pointers), then the document. The
// document is copied into a buffer of exactly len + kPadding bytes, so AddressSanitizer
// reports any read beyond the padding. For each kernel, with containers skipped by
// scanning and by lookup in the document's container ends:
//   - the pointer's value (path_walker), the root container's entries (for_each_entry)
//     and its children by index and by the first entry's key (child) are found;
//   - every result, and every error's code and offset, is the same with and without
//     the container ends, and the same for scalar, SWAR64 and SIMD128;
//   - every position reported lies within the document;
//   - for a document that is valid UTF-8 and a pointer that is ASCII without 0x7F, the
//     pointer finds the same (value, container kind, error and where, all in UTF-16
//     units) in the document's UTF-16 units narrowed to bytes (narrowed_units.h), as
//     at() reads long two-byte strings.
//
// Built by CMake with -DWASMJSON_FUZZ=ON (clang); run through scripts/fuzz.sh.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "core/container_ends.h"
#include "core/narrowed_units.h"
#include "core/navigate.h"
#include "core/utf8.h"
#include "kernels/kernel_scalar.h"
#include "kernels/kernel_simd128.h"
#include "kernels/kernel_swar64.h"

using namespace wasmjson;

namespace {

// What one kernel found, in a fixed order.
struct outcome {
  std::vector<size_t> positions;  // offsets into the document (SIZE_MAX: none)
  std::vector<size_t> counts;     // entries listed, kinds
  uint32_t code = 0;              // the first error met, and where
  size_t error_at = 0;
  bool operator==(const outcome& o) const {
    return positions == o.positions && counts == o.counts && code == o.code && error_at == o.error_at;
  }
};

[[noreturn]] void fail(const char* what, const uint8_t* doc, size_t len, const std::string& pointer) {
  std::fprintf(stderr, "fuzz_navigate: %s (len %zu, pointer '%s')\n  input:", what, len, pointer.c_str());
  for (size_t i = 0; i < len && i < 256; ++i) std::fprintf(stderr, " %02x", doc[i]);
  std::fprintf(stderr, len > 256 ? " ...\n" : "\n");
  __builtin_trap();
}

size_t offset_of(const uint8_t* p, const uint8_t* doc) { return p ? static_cast<size_t>(p - doc) : SIZE_MAX; }

// The pointer's lookup alone: its value and container kind, and its error.
struct path_outcome {
  size_t value = SIZE_MAX;
  uint32_t within = 0;
  uint32_t code = 0;
  size_t error_at = 0;
};

template <class K>
path_outcome find_path(const uint8_t* doc, size_t len, const nav::pointer_tokens& tokens,
                       const nav::container_ends* ends = nullptr) {
  path_outcome out;
  const uint8_t* root = nav::skip_ws(doc);
  if (root >= doc + len) return out;
  nav::cursor c;
  c.begin = doc;
  c.end = doc + len;
  if (ends) c.ends = ends->table();
  growable<nav::path_frame> frames;
  growable<uint8_t> scratch;
  nav::kind within = nav::kind::none;
  nav::path_walker<K> walker(c, tokens, frames, scratch);
  out.value = offset_of(walker.find(root, &within), doc);
  out.within = static_cast<uint32_t>(within);
  out.code = static_cast<uint32_t>(c.code);
  out.error_at = c.code == error_code::ok ? 0 : offset_of(c.error_at, doc);
  return out;
}

template <class K>
outcome navigate(const uint8_t* doc, size_t len, const nav::pointer_tokens& tokens, const nav::container_ends* ends) {
  outcome out;
  growable<uint8_t> scratch;
  auto fresh = [&] {
    nav::cursor c;
    c.begin = doc;
    c.end = doc + len;
    if (ends) c.ends = ends->table();
    return c;
  };
  auto note_error = [&](const nav::cursor& c) {
    if (c.code != error_code::ok && out.code == 0) {
      out.code = static_cast<uint32_t>(c.code);
      out.error_at = offset_of(c.error_at, doc);
    }
  };
  const uint8_t* root = nav::skip_ws(doc);
  if (root >= doc + len) return out;

  // The pointer's value (the first lookup: its error, if any, is the first met).
  {
    path_outcome found = find_path<K>(doc, len, tokens, ends);
    out.positions.push_back(found.value);
    out.counts.push_back(found.within);
    out.code = found.code;
    out.error_at = found.error_at;
  }
  if (*root != '{' && *root != '[') return out;

  // The root's entries, then lookups by index and by the first key listed.
  const uint8_t* first_key = nullptr;
  size_t first_key_len = 0;
  {
    nav::cursor c = fresh();
    const uint8_t* after = nullptr;
    size_t count = 0;
    nav::for_each_entry<K>(
        c, root,
        [&](const uint8_t* kb, const uint8_t* ke, bool escaped, const uint8_t* v) {
          if (count == 0 && kb && !escaped) {
            first_key = kb;
            first_key_len = static_cast<size_t>(ke - kb);
          }
          out.positions.push_back(offset_of(kb, doc));
          out.positions.push_back(offset_of(v, doc));
          return ++count < 64;
        },
        &after);
    out.counts.push_back(count);
    out.positions.push_back(offset_of(after, doc));
    note_error(c);
  }
  for (size_t index : {size_t{0}, size_t{1}, size_t{7}}) {
    nav::cursor c = fresh();
    if (*root == '[') out.positions.push_back(offset_of(nav::child<K>(c, root, nullptr, 0, index, scratch), doc));
    note_error(c);
  }
  if (first_key) {
    nav::cursor c = fresh();
    out.positions.push_back(offset_of(nav::child<K>(c, root, first_key, first_key_len, 0, scratch), doc));
    note_error(c);
  }
  return out;
}

void check_positions(const outcome& o, size_t len, const uint8_t* doc, const std::string& pointer) {
  for (size_t v : o.positions) {
    if (v != SIZE_MAX && v > len) fail("a position past the document", doc, len, pointer);
  }
  if (o.code && o.error_at > len) fail("an error past the document", doc, len, pointer);
}

template <class K>
outcome both_ways(const uint8_t* doc, size_t len, const nav::pointer_tokens& tokens, const std::string& pointer,
                  const char* kernel) {
  outcome scanned = navigate<K>(doc, len, tokens, nullptr);
  nav::container_ends ends;
  if (!ends.build<K>(doc, len)) return scanned;
  outcome indexed = navigate<K>(doc, len, tokens, &ends);
  check_positions(scanned, len, doc, pointer);
  if (!(scanned == indexed)) {
    std::fprintf(stderr, "kernel %s: scanned error %u at %zu, indexed error %u at %zu\n", kernel, scanned.code,
                 scanned.error_at, indexed.code, indexed.error_at);
    fail("container ends change what navigation finds", doc, len, pointer);
  }
  return scanned;
}

// The UTF-16 units of valid UTF-8 doc[0..len), and per byte offset the units before it
// (SIZE_MAX inside a sequence); false when doc is not valid UTF-8.
bool utf16_of(const uint8_t* doc, size_t len, std::vector<uint16_t>& units, std::vector<size_t>& unit_at) {
  unit_at.assign(len + 1, SIZE_MAX);
  for (size_t i = 0; i < len;) {
    unit_at[i] = units.size();
    uint8_t c = doc[i];
    if (c < 0x80) {
      units.push_back(c);
      ++i;
      continue;
    }
    size_t n = utf8::sequence_length(doc + i, doc + len);
    if (n == 0) return false;
    uint32_t cp = n == 2 ? c & 0x1F : n == 3 ? c & 0x0F : c & 0x07;
    for (size_t k = 1; k < n; ++k) cp = (cp << 6) | (doc[i + k] & 0x3F);
    if (cp >= 0x10000) {
      units.push_back(static_cast<uint16_t>(0xD800 + ((cp - 0x10000) >> 10)));
      units.push_back(static_cast<uint16_t>(0xDC00 + (cp & 0x3FF)));
    } else {
      units.push_back(static_cast<uint16_t>(cp));
    }
    i += n;
  }
  unit_at[len] = units.size();
  return true;
}

// at()'s reading of long two-byte strings (js/src/navigate.ts atNarrowed): the lookup in
// the narrowed units agrees with the lookup in the UTF-8.
void check_narrowed(const uint8_t* doc, size_t len, const nav::pointer_tokens& tokens, const std::string& pointer) {
  for (unsigned char ch : pointer) {
    if (ch >= 0x7F) return;
  }
  std::vector<uint16_t> units;
  std::vector<size_t> unit_at;
  if (!utf16_of(doc, len, units, unit_at)) return;
  size_t n = units.size();
  auto* narrowed = static_cast<uint8_t*>(std::malloc(n + kPadding));
  if (!narrowed) return;
  narrow_units<simd128_kernel>(reinterpret_cast<const uint8_t*>(units.data()), n, narrowed);
  std::memset(narrowed + n, 0, kPadding);
  path_outcome want = find_path<scalar_kernel>(doc, len, tokens);
  path_outcome got = find_path<simd128_kernel>(narrowed, n, tokens);
  std::free(narrowed);
  auto units_at = [&](size_t b) { return b == SIZE_MAX ? SIZE_MAX : unit_at[b]; };
  if (got.value != units_at(want.value) || got.within != want.within || got.code != want.code ||
      (want.code && got.error_at != units_at(want.error_at))) {
    std::fprintf(stderr, "utf-8: value %zu within %u error %u at %zu; narrowed: value %zu within %u error %u at %zu\n",
                 units_at(want.value), want.within, want.code, units_at(want.error_at), got.value, got.within, got.code,
                 got.error_at);
    fail("the narrowed units lead the pointer elsewhere", doc, len, pointer);
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const uint8_t* nl = static_cast<const uint8_t*>(std::memchr(data, '\n', size < 64 ? size : 64));
  std::string pointer = "/";
  size_t doc_start = 0;
  if (nl) {
    for (const uint8_t* p = data; p < nl; ++p) {
      if (*p == '~' && (p + 1 == nl || (p[1] != '0' && p[1] != '1'))) continue;
      pointer += static_cast<char>(*p);
    }
    doc_start = static_cast<size_t>(nl - data) + 1;
  }
  size_t len = size - doc_start;
  // Exactly len + kPadding bytes: content, then the zero padding readers rely on.
  auto* doc = static_cast<uint8_t*>(std::malloc(len + kPadding));
  if (!doc) return 0;
  if (len) std::memcpy(doc, data + doc_start, len);
  std::memset(doc + len, 0, kPadding);

  nav::pointer_tokens tokens;
  if (tokens.read(reinterpret_cast<const uint8_t*>(pointer.data()), pointer.size())) {
    outcome a = both_ways<scalar_kernel>(doc, len, tokens, pointer, "scalar");
    outcome b = both_ways<swar64_kernel>(doc, len, tokens, pointer, "swar64");
    outcome c = both_ways<simd128_kernel>(doc, len, tokens, pointer, "simd128");
    if (!(a == b)) fail("swar64 disagrees with scalar", doc, len, pointer);
    if (!(a == c)) fail("simd128 disagrees with scalar", doc, len, pointer);
    check_narrowed(doc, len, tokens, pointer);
  }
  std::free(doc);
  return 0;
}
