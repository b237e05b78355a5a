// Buffer growth (cpp/core/growable.h): the policy every buffer shares, and the requests
// that must fail cleanly instead of wrapping around (wasm32's size_t is 32 bits). Zeroed
// blocks for tables (cpp/core/zeroed_block.h).
#include <gtest/gtest.h>

#include <cstdint>

#include "core/growable.h"
#include "core/tape_writer.h"
#include "core/writer_output.h"
#include "core/zeroed_block.h"

using namespace wasmjson;

namespace {

constexpr size_t kMiB = size_t{1} << 20;

TEST(GrownCapacity, StartsAtInitialAndDoublesWhileSmall) {
  EXPECT_EQ(grown_capacity(0, 1, 1024, 4), 1024u);
  EXPECT_EQ(grown_capacity(0, 1024, 1024, 4), 1024u);
  EXPECT_EQ(grown_capacity(0, 1025, 1024, 4), 2048u);
  EXPECT_EQ(grown_capacity(1024, 5000, 1024, 4), 8192u);
  // Already large enough: unchanged.
  EXPECT_EQ(grown_capacity(8192, 100, 1024, 4), 8192u);
}

TEST(GrownCapacity, GrowsByHalvesPast64MiB) {
  // 64 MiB of bytes: the next step adds half.
  EXPECT_EQ(grown_capacity(64 * kMiB, 64 * kMiB + 1, 1, 1), 96 * kMiB);
  // Elements of 8 bytes: the switch is at 8 Mi elements.
  EXPECT_EQ(grown_capacity(8 * kMiB, 8 * kMiB + 1, 1, 8), 12 * kMiB);
  EXPECT_EQ(grown_capacity(4 * kMiB, 4 * kMiB + 1, 1, 8), 8 * kMiB);
}

TEST(GrownCapacity, StepsStopAtTheCeilingBelow2GiB) {
  // The 1.5x step after 1,719,926,784 bytes would pass 2 GiB, which no wasm32 block can
  // have (the step once went to PTRDIFF_MAX and failed): the ceiling instead.
  EXPECT_EQ(grown_capacity(1719926784, 1719926785, 1, 1), kGrowthCeiling);
  EXPECT_EQ(grown_capacity(1146617856, 1719926785, 1, 1), kGrowthCeiling);
  EXPECT_EQ(grown_capacity(1719926784 / 4, 1719926784 / 4 + 1, 1, 4), kGrowthCeiling / 4);
  // A need beyond the ceiling is asked for exactly; at the ceiling, no further step.
  EXPECT_EQ(grown_capacity(1719926784, kGrowthCeiling + 5, 1, 1), kGrowthCeiling + 5);
  EXPECT_EQ(grown_capacity(kGrowthCeiling, kGrowthCeiling + 1, 1, 1), kGrowthCeiling + 1);
  // Below it, growth is as before.
  EXPECT_EQ(grown_capacity(1146617856, 1146617857, 1, 1), 1719926784u);
}

TEST(GrownCapacity, RefusesWhatASizeCannotHoldAndNeverWraps) {
  constexpr size_t kMax = static_cast<size_t>(PTRDIFF_MAX);
  EXPECT_EQ(grown_capacity(0, kMax, 1024, 1), kMax);
  EXPECT_EQ(grown_capacity(0, kMax + 1, 1024, 1), 0u);
  EXPECT_EQ(grown_capacity(0, SIZE_MAX, 1024, 1), 0u);
  EXPECT_EQ(grown_capacity(0, kMax / 8 + 1, 1024, 8), 0u);
  // Near the top, growth stops at the largest allowed capacity rather than wrapping.
  const size_t max8 = kMax / 8;
  size_t cap = grown_capacity(max8 / 2 + 1, max8, 1024, 8);
  EXPECT_EQ(cap, max8);
  cap = grown_capacity(max8 - 10, max8 - 5, 1024, 8);
  EXPECT_GE(cap, max8 - 5);
  EXPECT_LE(cap, max8);
}

TEST(Growable, ReserveMoreOfAnImpossibleCountFailsAndKeepsTheContents) {
  growable<uint32_t> g;
  ASSERT_TRUE(g.push(7));
  ASSERT_TRUE(g.push(8));
  EXPECT_FALSE(g.reserve_more(SIZE_MAX));
  EXPECT_FALSE(g.reserve_more(SIZE_MAX - 1));
  EXPECT_FALSE(g.reserve_more(SIZE_MAX / 4 + 1));  // bytes would overflow
  EXPECT_FALSE(g.reserve_more(static_cast<size_t>(PTRDIFF_MAX) / 4 + 1));  // more than an object may have
  ASSERT_EQ(g.size(), 2u);
  EXPECT_EQ(g.data()[0], 7u);
  EXPECT_EQ(g.data()[1], 8u);
  ASSERT_TRUE(g.push(9));
  EXPECT_EQ(g.back(), 9u);
}

TEST(Growable, GrowsPastItsCapacityKeepingEveryValue) {
  growable<uint64_t> g;
  for (uint64_t i = 0; i < 100000; ++i) ASSERT_TRUE(g.push(i * 3));
  for (uint64_t i = 0; i < 100000; ++i) ASSERT_EQ(g.data()[i], i * 3);
}

TEST(OutputBuffer, ReserveKeepsTheCursorAndRefusesImpossibleRequests) {
  output_buffer out;
  uint8_t* limit = nullptr;
  uint8_t* o = out.reserve(nullptr, 10, limit);
  ASSERT_NE(o, nullptr);
  EXPECT_GE(limit - o, 10);
  for (int i = 0; i < 10; ++i) *o++ = static_cast<uint8_t>('a' + i);
  // A request past the first capacity moves the buffer; the cursor follows it.
  o = out.reserve(o, 200000, limit);
  ASSERT_NE(o, nullptr);
  EXPECT_GE(limit - o, 200000);
  EXPECT_EQ(o - out.data(), 10);
  EXPECT_EQ(out.data()[0], 'a');
  EXPECT_EQ(out.data()[9], 'j');
  // Room that cannot exist: nullptr, and the buffer is left as it was.
  uint8_t* before = out.data();
  EXPECT_EQ(out.reserve(o, SIZE_MAX - 5, limit), nullptr);
  EXPECT_EQ(out.data(), before);
  out.commit(o);
  EXPECT_EQ(out.size(), 10u);
}

// release_if_over frees only storage over the given size, and the array grows again after.
TEST(Growable, ReleaseIfOverFreesOnlyLargeStorage) {
  growable<uint32_t> a;
  ASSERT_TRUE(a.reserve_more(100000));
  for (uint32_t i = 0; i < 100000; ++i) a.push_unchecked(i);
  size_t cap = a.capacity();
  a.release_if_over(cap * sizeof(uint32_t));  // not over: kept
  EXPECT_EQ(a.capacity(), cap);
  EXPECT_EQ(a.size(), 100000u);
  a.release_if_over(cap * sizeof(uint32_t) - 1);
  EXPECT_EQ(a.capacity(), 0u);
  EXPECT_EQ(a.size(), 0u);
  EXPECT_EQ(a.data(), nullptr);
  ASSERT_TRUE(a.push(7));
  EXPECT_EQ(a.data()[0], 7u);
}

// A size limit (parse's maxDepth on its stack of open containers): push fails past it,
// from any capacity before (fresh, smaller, larger), and says it was the limit; lifted,
// the array grows on.
TEST(Growable, ClearAndLimitRefusesPastTheLimitAndLiftsCleanly) {
  for (size_t before : {size_t{0}, size_t{3}, size_t{5000}}) {
    growable<uint8_t> s;
    for (size_t i = 0; i < before; ++i) ASSERT_TRUE(s.push(1));
    s.clear_and_limit(10);
    EXPECT_EQ(s.size(), 0u);
    EXPECT_FALSE(s.hit_limit());
    EXPECT_LE(s.capacity(), 10u);
    for (uint8_t i = 0; i < 10; ++i) ASSERT_TRUE(s.push(i)) << "before " << before << ", push " << int{i};
    EXPECT_FALSE(s.hit_limit());
    EXPECT_FALSE(s.push(10));
    EXPECT_FALSE(s.reserve_more(1));
    EXPECT_TRUE(s.hit_limit());
    EXPECT_EQ(s.size(), 10u);
    for (uint8_t i = 0; i < 10; ++i) ASSERT_EQ(s.data()[i], i);
    s.clear_and_limit(SIZE_MAX);
    EXPECT_EQ(s.size(), 0u);
    EXPECT_FALSE(s.hit_limit());
    for (size_t i = 0; i < 20000; ++i) ASSERT_TRUE(s.push(static_cast<uint8_t>(i)));
    for (size_t i = 0; i < 20000; ++i) ASSERT_EQ(s.data()[i], static_cast<uint8_t>(i));
  }
  // A request past the limit fails for it, however large; without a limit, one that no
  // memory can hold fails for that, not for a limit.
  growable<uint32_t> g;
  g.clear_and_limit(100);
  EXPECT_FALSE(g.reserve_more(SIZE_MAX));
  EXPECT_TRUE(g.hit_limit());
  g.clear_and_limit(SIZE_MAX);
  EXPECT_FALSE(g.reserve_more(SIZE_MAX));
  EXPECT_FALSE(g.hit_limit());
  // A limit of 0: nothing fits.
  growable<uint8_t> none;
  none.clear_and_limit(0);
  EXPECT_FALSE(none.push(1));
  EXPECT_TRUE(none.hit_limit());
}

// A parse's buffers: those far larger than the next document can need are freed, those a
// document of the same size may need are kept.
TEST(TapeBuffers, TrimKeepsWhatADocumentOfThatSizeMayNeed) {
  tape_buffers t;
  ASSERT_TRUE(t.words.reserve_more(1 << 20));    // 4 MiB
  ASSERT_TRUE(t.numbers.reserve_more(1 << 10));  // 8 KiB
  t.trim(1 << 20, 1 << 20);                      // a 1 MiB document may need 8 MiB each
  EXPECT_GE(t.words.capacity(), size_t{1} << 20);
  t.trim(100, 1 << 20);                          // a small one: 1 MiB each at most
  EXPECT_EQ(t.words.capacity(), 0u);
  EXPECT_GE(t.numbers.capacity(), size_t{1} << 10);
}

// A block given back is handed out again for the same size, cleared, and aligned; one of
// another size is not taken for it.
TEST(ZeroedBlock, ReusedBlocksAreClearedAndAligned) {
  constexpr size_t kBytes = 3 * 4096 + 40;
  auto* a = static_cast<uint8_t*>(zeroed_block(kBytes));
  ASSERT_NE(a, nullptr);
  EXPECT_EQ(reinterpret_cast<uintptr_t>(a) % 16, 0u);
  for (size_t i = 0; i < kBytes; ++i) ASSERT_EQ(a[i], 0) << i;
  std::memset(a, 0xA5, kBytes);
  release_zeroed_block(a, kBytes);
  auto* other = static_cast<uint8_t*>(zeroed_block(kBytes + 64));
  ASSERT_NE(other, nullptr);
  EXPECT_NE(other, a);
  for (size_t i = 0; i < kBytes + 64; ++i) ASSERT_EQ(other[i], 0) << i;
  auto* b = static_cast<uint8_t*>(zeroed_block(kBytes));
  EXPECT_EQ(b, a);
  for (size_t i = 0; i < kBytes; ++i) ASSERT_EQ(b[i], 0) << i;
  release_zeroed_block(b, kBytes);
  release_zeroed_block(other, kBytes + 64);
  release_zeroed_block(nullptr, kBytes);
}

// Tables dropped and made again (key_table and shape_table take zeroed blocks) start
// empty: a parse after one whose tables were dirtied and released sees no stale key.
TEST(ZeroedBlock, TablesMadeAgainStartEmpty) {
  for (int round = 0; round < 3; ++round) {
    key_table keys;
    bool fresh = false;
    const uint8_t text[32] = "alpha\"beta\"gamma\"";
    uint32_t a = keys.intern_after(0, text, 5, fresh);
    EXPECT_TRUE(fresh) << round;
    EXPECT_EQ(a, 0u) << round;
    uint32_t b = keys.intern_after(a + 1, text + 6, 4, fresh);
    EXPECT_TRUE(fresh) << round;
    EXPECT_EQ(b, 1u) << round;
    EXPECT_EQ(keys.intern_after(0, text, 5, fresh), a);
    EXPECT_FALSE(fresh);
  }
}

}  // namespace
