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
//   - every position reported lies within the document.
//
// Built by CMake with -DWASMJSON_FUZZ=ON (clang); run through scripts/fuzz.sh.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "core/container_ends.h"
#include "core/navigate.h"
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

template <class K>
outcome navigate(const uint8_t* doc, size_t len, const nav::pointer_tokens& tokens, const nav::container_ends* ends) {
  outcome out;
  growable<nav::path_frame> frames;
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

  // The pointer's value.
  {
    nav::cursor c = fresh();
    nav::kind within = nav::kind::none;
    nav::path_walker<K> walker(c, tokens, frames, scratch);
    const uint8_t* v = walker.find(root, &within);
    out.positions.push_back(offset_of(v, doc));
    out.counts.push_back(static_cast<size_t>(within));
    note_error(c);
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
  }
  std::free(doc);
  return 0;
}
