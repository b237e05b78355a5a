// Each kernel function agrees with the scalar reference on every byte value in every
// lane position, and on random chunks.
#include <cstring>
#include <random>
#include <vector>

#include "kernels.h"

using namespace wasmjson;

template <class K>
class KernelTest : public ::testing::Test {};
TYPED_TEST_SUITE(KernelTest, AllKernels, KernelNames);

template <class F>
size_t reference(const uint8_t* p, size_t width, F stop) {
  for (size_t i = 0; i < width; ++i)
    if (stop(p + i) == 0) return i;
  return width;
}

template <class K>
void check_chunk(const uint8_t* p) {
  ASSERT_EQ(K::string_stop(p), reference(p, K::width, scalar_kernel::string_stop));
  ASSERT_EQ(K::whitespace_stop(p), reference(p, K::width, scalar_kernel::whitespace_stop));
  ASSERT_EQ(K::ascii_stop(p), reference(p, K::width, scalar_kernel::ascii_stop));
  ASSERT_EQ(K::structural_stop(p), reference(p, K::width, scalar_kernel::structural_stop));
  ASSERT_EQ(K::quote_stop(p), reference(p, K::width, scalar_kernel::quote_stop));
  ASSERT_EQ(K::digit_stop(p), reference(p, K::width, scalar_kernel::digit_stop));
  size_t run = 0;
  while (run < K::width && scalar_kernel::two_byte_run(p + run)) run += 2;
  ASSERT_EQ(K::two_byte_run(p), run);
}

TYPED_TEST(KernelTest, EveryByteInEveryLane) {
  using K = TypeParam;
  // Backgrounds: plain text (no stops) and whitespace (no whitespace stop).
  for (uint8_t background : {uint8_t('a'), uint8_t(' '), uint8_t('\t'), uint8_t('5')}) {
    for (size_t lane = 0; lane < K::width; ++lane) {
      for (int b = 0; b < 256; ++b) {
        std::vector<uint8_t> chunk(K::width + 16, background);
        chunk[lane] = static_cast<uint8_t>(b);
        check_chunk<K>(chunk.data());
      }
    }
  }
}

TYPED_TEST(KernelTest, RandomChunks) {
  using K = TypeParam;
  std::mt19937_64 rng(42);
  const uint8_t alphabet[] = {'a', ' ', '\n', '\r', '\t', '"', '\\', 0x00, 0x1f, 0x20, 0x7f, 0x80, 0xff, 'z',
                              '[', ']', '{', '}', 0x5A, 0xDB, 0xFB, '0', '5', '9', '/', ':', 0xFA, 0x3F, '7', 0xC2, 0xD0, 0xDF, 0xC1, 0xE0, 0x80, 0xBF};
  for (int round = 0; round < 200000; ++round) {
    uint8_t chunk[32];
    for (auto& c : chunk) c = alphabet[rng() % sizeof(alphabet)];
    // Mostly long runs of one class, so the stop lands anywhere in the chunk.
    size_t run = rng() % (K::width + 1);
    uint8_t fill = alphabet[rng() % 2];
    for (size_t i = 0; i < run; ++i) chunk[i] = fill;
    check_chunk<K>(chunk);
  }
}

// The serializer's copy-and-stop functions: the stop index agrees with the scalar
// reference, and the chunk is stored (copied, or narrowed to low bytes) in full.
template <class K>
void check_copy_chunk(const uint8_t* p) {
  uint8_t out[64];
  std::memset(out, 0xAA, sizeof out);
  ASSERT_EQ(K::copy_string_run(p, out), reference(p, K::width, scalar_kernel::string_stop));
  ASSERT_EQ(std::memcmp(out, p, K::width), 0);
}

template <class K>
void check_narrow_chunk(const uint16_t* p) {
  uint8_t out[64];
  std::memset(out, 0xAA, sizeof out);
  size_t want = K::units16;
  for (size_t i = 0; i < K::units16; ++i) {
    uint8_t ignored;
    if (scalar_kernel::narrow_string_run(p + i, &ignored) == 0) {
      want = i;
      break;
    }
  }
  ASSERT_EQ(K::narrow_string_run(p, out), want);
  // Units before the stop are ASCII and come out exactly.
  for (size_t i = 0; i < want; ++i) ASSERT_EQ(out[i], p[i]);
}

TYPED_TEST(KernelTest, CopyStringRunEveryByteInEveryLane) {
  using K = TypeParam;
  for (size_t lane = 0; lane < K::width; ++lane) {
    for (int b = 0; b < 256; ++b) {
      std::vector<uint8_t> chunk(K::width + 16, 'a');
      chunk[lane] = static_cast<uint8_t>(b);
      check_copy_chunk<K>(chunk.data());
    }
  }
}

TYPED_TEST(KernelTest, NarrowStringRunEveryUnitInEveryLane) {
  using K = TypeParam;
  // Every unit below 0x200, then the surrogates and a spread of the rest.
  std::vector<uint16_t> units;
  for (uint32_t u = 0; u < 0x200; ++u) units.push_back(static_cast<uint16_t>(u));
  for (uint32_t u = 0x200; u < 0x10000; u += 0xFF) units.push_back(static_cast<uint16_t>(u));
  for (uint16_t u : {0x2028, 0x7F7F, 0x8000, 0xD7FF, 0xD800, 0xDBFF, 0xDC00, 0xDFFF, 0xE000, 0xFF22, 0xFF5C, 0xFFFF, 0x0122, 0x015C, 0x8022, 0x805C, 0x0100, 0x1F00, 0xFF1F})
    units.push_back(u);
  for (size_t lane = 0; lane < K::units16; ++lane) {
    for (uint16_t u : units) {
      std::vector<uint16_t> chunk(K::units16 + 16, 'a');
      chunk[lane] = u;
      check_narrow_chunk<K>(chunk.data());
    }
  }
}

TYPED_TEST(KernelTest, CopyAndNarrowRandomChunks) {
  using K = TypeParam;
  std::mt19937_64 rng(7);
  const uint16_t alphabet[] = {'a', ' ', '"', '\\', 0x00, 0x1f, 0x20, 0x7f, 0x80, 0xff, 0x100, 0x122, 0x15C, 0xD800, 0xDC00, 0xFFFF, 'z'};
  for (int round = 0; round < 100000; ++round) {
    uint16_t units[40];
    uint8_t bytes[40];
    for (size_t i = 0; i < 40; ++i) {
      units[i] = alphabet[rng() % (sizeof(alphabet) / sizeof(alphabet[0]))];
      bytes[i] = static_cast<uint8_t>(units[i]);
    }
    size_t run = rng() % (K::units16 + 1);
    for (size_t i = 0; i < run; ++i) {
      units[i] = 'a';
      bytes[i] = 'a';
    }
    check_copy_chunk<K>(bytes);
    check_narrow_chunk<K>(units);
  }
}
