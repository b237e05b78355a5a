// Random UTF-16 text for the transcoding tests (tests/cpp/utf16_input_test.cpp,
// utf8_to_utf16_test.cpp): up to 11 runs of up to 39 units, each run of one kind, so that
// runs of a kind cross the kernels' steps and kinds meet at every offset.
#pragma once
#include <cstdint>
#include <random>
#include <vector>

namespace wasmjson::test {

inline std::vector<uint16_t> random_units(std::mt19937_64& rng) {
  std::vector<uint16_t> units;
  size_t runs = rng() % 12;
  for (size_t r = 0; r < runs; ++r) {
    size_t len = rng() % 40;
    int kind = static_cast<int>(rng() % 7);
    for (size_t i = 0; i < len; ++i) {
      switch (kind) {
        case 0: units.push_back(static_cast<uint16_t>(0x20 + rng() % 0x5F)); break;    // ASCII, '"' and '\' too
        case 1: units.push_back(static_cast<uint16_t>(0x80 + rng() % 0x780)); break;   // 2 bytes
        case 2: units.push_back(static_cast<uint16_t>(0x800 + rng() % 0xD000)); break;  // 3 bytes
        case 3: units.push_back(static_cast<uint16_t>(0xD800 + rng() % 0x400)); units.push_back(static_cast<uint16_t>(0xDC00 + rng() % 0x400)); break;  // pairs
        case 4: units.push_back(static_cast<uint16_t>(0xD800 + rng() % 0x800)); break;  // lone surrogates
        case 5: units.push_back(static_cast<uint16_t>(rng() % 2 ? ' ' : 0x430 + rng() % 0x20)); break;  // words
        default: units.push_back(static_cast<uint16_t>(rng())); break;  // anything
      }
    }
  }
  return units;
}

}  // namespace wasmjson::test
