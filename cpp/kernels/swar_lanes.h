// Eight bytes as lanes of a 64-bit integer (little-endian): the lane tests the SWAR64
// kernel is built from, in plain C++, so core code that is not a kernel (an error's
// position, cpp/core/text_position.h) uses the same ones.
#pragma once
#include <cstdint>
#include <cstring>

namespace wasmjson::swar {

inline constexpr uint64_t kOnes = 0x0101010101010101ULL;
inline constexpr uint64_t kHigh = 0x8080808080808080ULL;

inline uint64_t load(const uint8_t* p) {
  uint64_t x;
  std::memcpy(&x, p, 8);
  return x;
}

// 0x80 in every lane that is zero: exact in every lane (no borrow crosses lanes).
inline uint64_t zero_lanes(uint64_t x) { return ~(((x & ~kHigh) + ~kHigh) | x) & kHigh; }

// 0x80 in every lane equal to b: exact in every lane.
inline uint64_t eq(uint64_t x, uint8_t b) { return zero_lanes(x ^ (kOnes * b)); }

}  // namespace wasmjson::swar
