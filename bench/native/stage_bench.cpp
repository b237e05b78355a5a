// Native timing of the core stages per kernel (validate, parse -> tape) on files given
// on the command line. A developer tool for finding hot spots; the product's numbers
// come from bench/run.mjs in wasm.
#include <chrono>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>

#include "core/padded_input.h"
#include "core/parse.h"
#include "core/validate.h"
#include "kernels/kernel_scalar.h"
#include "kernels/kernel_simd128.h"
#include "kernels/kernel_swar64.h"

using namespace wasmjson;

template <class F>
double best_ms(F f) {
  double best = 1e9;
  for (int i = 0; i < 15; ++i) {
    auto t0 = std::chrono::steady_clock::now();
    f();
    double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    if (ms < best) best = ms;
  }
  return best;
}

template <class K>
void run(const char* name, const padded_input& in) {
  byte_stack stack;
  tape_buffers tape;
  key_table keys;
  shape_table shapes;
  double v = best_ms([&] { validate<K>(in.data(), in.size(), kSkipBom, stack); });
  double p = best_ms([&] { parse<K>(in.data(), in.size(), kSkipBom, stack, tape, keys, shapes); });
  std::printf("%-28s %-8s validate %6.0f MB/s  parse %6.0f MB/s\n", name, K::name, in.size() / v / 1e3, in.size() / p / 1e3);
}

int main(int argc, char** argv) {
  for (int i = 1; i < argc; ++i) {
    std::ifstream f(argv[i], std::ios::binary);
    std::stringstream ss;
    ss << f.rdbuf();
    std::string s = ss.str();
    padded_input in(s);
    const char* base = std::strrchr(argv[i], '/');
    base = base ? base + 1 : argv[i];
    run<scalar_kernel>(base, in);
    run<swar64_kernel>(base, in);
    run<simd128_kernel>(base, in);
  }
}
