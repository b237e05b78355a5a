// UTF-16 texts for the transcoding tests (tests/cpp/utf16_input_test.cpp,
// utf8_to_utf16_test.cpp), whose kernels step 1, 8 or 16 units or bytes at a time.
#pragma once
#include <cstdint>
#include <random>
#include <string>
#include <vector>

namespace wasmjson::test {

// Texts of 0 to 40 units, f(units, label) for each: every unit kind (ASCII, '"', '\',
// 2- and 3-byte characters, surrogates, the ends of each range) at every position of a
// text of 'x's; a space at every position of Cyrillic text; a surrogate pair at every
// position of 'y's (cut by the end at the last).
template <class F>
void each_placed_unit(F f) {
  const std::vector<uint16_t> specials = {0x00, 0x22, 0x41, 0x5C, 0x7F, 0x80, 0xE9, 0xFF, 0x100, 0x7FF, 0x800, 0x4E16,
                                          0xD7FF, 0xD800, 0xDBFF, 0xDC00, 0xDFFF, 0xE000, 0xFFFD, 0xFFFF};
  for (size_t n = 0; n <= 40; ++n) {
    std::string where = "n=" + std::to_string(n) + " at=";
    for (size_t at = 0; at < n; ++at) {
      for (uint16_t u : specials) {
        std::vector<uint16_t> units(n, 'x');
        units[at] = u;
        f(units, where + std::to_string(at) + " u=" + std::to_string(u));
      }
      std::vector<uint16_t> words(n, 0x439);
      words[at] = ' ';
      f(words, "space " + where + std::to_string(at));
      std::vector<uint16_t> pair(n, 'y');
      pair[at] = 0xD83D;
      if (at + 1 < n) pair[at + 1] = 0xDE00;
      f(pair, "pair " + where + std::to_string(at));
    }
  }
}

// Up to 11 runs of up to 39 units, each run of one kind, so that runs of a kind cross
// the kernels' steps and kinds meet at every offset.
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
