// Each kernel function agrees with the scalar reference on every byte value in every
// lane position, and on random chunks.
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
}

TYPED_TEST(KernelTest, EveryByteInEveryLane) {
  using K = TypeParam;
  // Backgrounds: plain text (no stops) and whitespace (no whitespace stop).
  for (uint8_t background : {uint8_t('a'), uint8_t(' '), uint8_t('\t')}) {
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
  const uint8_t alphabet[] = {'a', ' ', '\n', '\r', '\t', '"', '\\', 0x00, 0x1f, 0x20, 0x7f, 0x80, 0xff, 'z'};
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
