// Profile training for the wasm build (scripts/pgo/profile.sh): the wasm exports,
// compiled natively with clang's instrumentation, run over a corpus. The .wasm files are
// then compiled with the counts (-fprofile-instr-use), which lay out the reader's hot
// paths first and take switches apart by how often each case is hit.
//
// Only validate, minify and prettify are trained (scripts/pgo/functions.list), and only
// exports.cpp is compiled with the counts. Measured against the same code built without
// them (WASMJSON_PGO=0; bench/ab.mjs --repeat 4, 24 files), Node 26: SIMD128 validate
// 1.05x, minify 1.02x, prettify 1.06x, stage 1.00x; SWAR64 1.03x, 1.03x, 1.00x, 0.99x.
// SIMD128 on Node 24: 1.02x, 1.02x, 1.06x; Node 20: 1.00x, 1.04x, 1.05x. Trained too,
// the parse's wasm stage became 0.97-0.99x (in this file or in its own), so it keeps
// the compiler's own estimates (exports_parse.cpp).
//
//   train FILE...   runs each file through the exports, a few times each
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <vector>

// The exports it runs (cpp/boundary/exports.cpp, compiled with it; docs/BOUNDARY.md).
extern "C" {
void* wj_alloc(size_t size);
void wj_free(void* p);
size_t wj_padding();
uint32_t wj_validate(uint8_t* data, size_t len, uint32_t flags, uint32_t max_depth);
const void* wj_reformat(uint8_t* data, size_t len, uint32_t flags, const uint8_t* indent, size_t indent_len,
                        size_t max_output);
}

int main(int argc, char** argv) {
  constexpr int kRuns = 5;
  const uint8_t indent[2] = {' ', ' '};
  for (int a = 1; a < argc; ++a) {
    std::FILE* f = std::fopen(argv[a], "rb");
    if (!f) {
      std::perror(argv[a]);
      return 1;
    }
    std::vector<uint8_t> text;
    uint8_t chunk[65536];
    for (size_t n; (n = std::fread(chunk, 1, sizeof chunk, f)) > 0;) text.insert(text.end(), chunk, chunk + n);
    std::fclose(f);
    size_t len = text.size();
    auto* buf = static_cast<uint8_t*>(wj_alloc(len + wj_padding()));
    if (!buf) return 1;
    for (int r = 0; r < kRuns; ++r) {
      // Each call may rewrite its buffer (minify works in place): a fresh copy each time.
      std::memcpy(buf, text.data(), len);
      wj_validate(buf, len, 1, 0xFFFFFFFFu);
      std::memcpy(buf, text.data(), len);
      wj_reformat(buf, len, 1, indent, 0, 0);
      std::memcpy(buf, text.data(), len);
      wj_reformat(buf, len, 1, indent, sizeof indent, 0);
    }
    wj_free(buf);
  }
  return 0;
}
