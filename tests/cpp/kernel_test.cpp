// Each kernel function agrees with the scalar reference on every byte value in every
// lane position, and on random chunks.
#include <cstring>
#include <random>
#include <type_traits>
#include <vector>

#include "kernels.h"
#include "core/narrowed_units.h"

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

// utf8_run's reference: walks p[0..width) one sequence at a time up to the first stop
// byte ('"', '\\', control, 0xEF), recording every boundary reached and the UTF-16
// units saved up to it. `ill_formed` is set when the text up to and including the stop
// byte is ill-formed; a sequence merely cut by the chunk's end is not.
struct utf8_walk {
  std::vector<size_t> boundaries{0};
  std::vector<size_t> saved{0};
  bool ill_formed = false;
};

inline utf8_walk walk_utf8(const uint8_t* p, size_t width) {
  utf8_walk w;
  size_t stop = 0;
  while (stop < width && !(p[stop] == '"' || p[stop] == '\\' || p[stop] < 0x20 || p[stop] == 0xEF)) ++stop;
  size_t i = 0, saved = 0;
  while (i < stop) {
    uint8_t b = p[i];
    size_t len = b < 0x80 ? 1 : b < 0xC2 ? 0 : b < 0xE0 ? 2 : b < 0xF0 ? 3 : b < 0xF5 ? 4 : 0;
    // Where the sequence goes wrong (relative to i), or len when it is well-formed.
    size_t bad = len;
    if (len == 0) {
      bad = b < 0xC0 ? 0 : 1;  // a stray continuation byte; an impossible lead is caught at the next byte
    } else {
      for (size_t k = 1; k < len; ++k) {
        uint8_t lo = 0x80, hi = 0xBF;
        if (k == 1 && b == 0xE0) lo = 0xA0;
        if (k == 1 && b == 0xED) hi = 0x9F;
        if (k == 1 && b == 0xF0) lo = 0x90;
        if (k == 1 && b == 0xF4) hi = 0x8F;
        if (p[i + k] < lo || p[i + k] > hi) {
          bad = k;
          break;
        }
      }
    }
    if (bad < len || len == 0) {
      // A stop byte (ASCII or EF) that cuts a sequence short makes it ill-formed; the
      // chunk's end does not (the next chunk goes on with the sequence).
      w.ill_formed = i + bad < stop || (i + bad == stop && stop < width);
      return w;
    }
    if (i + len > stop) return w;  // cut by the stop or the chunk's end
    i += len;
    saved += len - 1 - (len == 4);
    w.boundaries.push_back(i);
    w.saved.push_back(saved);
  }
  return w;
}

template <class K>
void check_utf8_run(const uint8_t* p) {
  size_t saved = 12345, uncounted = 12345;
  size_t n = K::utf8_run(p, saved);
  ASSERT_EQ(K::template utf8_run<false>(p, uncounted), n);
  ASSERT_EQ(uncounted, 0u);
  utf8_walk w = walk_utf8(p, K::utf8_run_width);
  ASSERT_LE(n, K::utf8_run_width);
  size_t k = 0;
  while (k < w.boundaries.size() && w.boundaries[k] != n) ++k;
  ASSERT_LT(k, w.boundaries.size()) << "run of " << n << " bytes does not end on a boundary of valid text";
  ASSERT_EQ(saved, w.saved[k]);
  // SIMD128 promises the longest run, or none when ill-formed text precedes the stop.
  if (std::is_same_v<K, simd128_kernel>) ASSERT_EQ(n, w.ill_formed ? 0 : w.boundaries.back());
  // SWAR64 promises the longest run of plain ASCII and whole 2-byte sequences that
  // starts with a 2-byte sequence.
  if (std::is_same_v<K, swar64_kernel>) {
    size_t want = 0;
    bool starts = p[0] >= 0xC2 && p[0] < 0xE0;
    while (starts) {
      uint8_t b = p[want];
      if (want < K::utf8_run_width && b >= 0x20 && b < 0x80 && b != '"' && b != '\\') {
        want += 1;
      } else if (want + 1 < K::utf8_run_width && b >= 0xC2 && b < 0xE0 && (p[want + 1] & 0xC0) == 0x80) {
        want += 2;
      } else {
        break;
      }
    }
    ASSERT_EQ(n, want);
  }
}

template <class K>
void check_chunk(const uint8_t* p) {
  ASSERT_EQ(K::string_stop(p), reference(p, K::width, scalar_kernel::string_stop));
  if constexpr (K::whitespace_exact) {
    ASSERT_EQ(K::whitespace_stop(p), reference(p, K::whitespace_width, scalar_kernel::whitespace_stop));
  } else if (scalar_kernel::whitespace_stop(p) == 1) {
    // The run of p[0] (kernel.h): defined where p[0] is whitespace.
    const uint8_t run = p[0];
    ASSERT_EQ(K::whitespace_stop(p), reference(p, K::whitespace_width, [run](const uint8_t* q) -> size_t { return *q == run; }));
  }
  ASSERT_EQ(K::ascii_stop(p), reference(p, K::width, scalar_kernel::ascii_stop));
  ASSERT_EQ(K::structural_stop(p), reference(p, K::width, scalar_kernel::structural_stop));
  ASSERT_EQ(K::quote_stop(p), reference(p, K::width, scalar_kernel::quote_stop));
  ASSERT_EQ(K::digit_stop(p), reference(p, K::width, scalar_kernel::digit_stop));
  if constexpr (requires { K::non_digit_mask(p); }) {
    uint32_t want = 1u << K::width;
    for (size_t i = 0; i < K::width; ++i)
      if (!scalar_kernel::digit_stop(p + i)) want |= 1u << i;
    ASSERT_EQ(K::non_digit_mask(p), want);
  }
  check_utf8_run<K>(p);
}

// The scalar reference itself, against the definitions in kernel.h written out here as
// sets of bytes and units (the other kernels are compared with it, so it must not be
// compared only with itself).
TEST(ScalarReference, MatchesTheInterfaceDefinitions) {
  auto is = [](int c, const char* set) { return c != 0 && std::strchr(set, c) != nullptr; };
  for (int c = 0; c < 256; ++c) {
    uint8_t p[2] = {static_cast<uint8_t>(c), 0};
    bool string_content = !(c == '"' || c == '\\' || c < 0x20 || c >= 0x80);
    EXPECT_EQ(scalar_kernel::string_stop(p), string_content ? 1u : 0u) << c;
    EXPECT_EQ(scalar_kernel::whitespace_stop(p), is(c, " \t\n\r") ? 1u : 0u) << c;
    EXPECT_EQ(scalar_kernel::ascii_stop(p), c < 0x80 ? 1u : 0u) << c;
    EXPECT_EQ(scalar_kernel::structural_stop(p), is(c, "\"[]{}") ? 0u : 1u) << c;
    EXPECT_EQ(scalar_kernel::quote_stop(p), is(c, "\"\\") ? 0u : 1u) << c;
    EXPECT_EQ(scalar_kernel::digit_stop(p), c >= '0' && c <= '9' ? 1u : 0u) << c;
    uint8_t copied = 0;
    EXPECT_EQ(scalar_kernel::copy_string_run(p, &copied), string_content ? 1u : 0u) << c;
    EXPECT_EQ(copied, c);
    copied = 0;
    EXPECT_EQ(scalar_kernel::copy_escape_run(p, &copied), c == '\\' ? 0u : 1u) << c;
    EXPECT_EQ(copied, c);
    uint16_t widened = 0;
    EXPECT_EQ(scalar_kernel::widen_ascii_run(p, &widened), c == '\\' || c >= 0x80 ? 0u : 1u) << c;
    EXPECT_EQ(widened, c);
  }
  for (int u = 0; u < 0x10000; ++u) {
    uint16_t unit = static_cast<uint16_t>(u);
    uint8_t low = 0;
    EXPECT_EQ(scalar_kernel::narrow_string_run(&unit, &low), u == '"' || u == '\\' || u < 0x20 || u >= 0x80 ? 0u : 1u) << u;
    EXPECT_EQ(low, u & 0xFF);
    EXPECT_EQ(scalar_kernel::narrow_ascii_run(&unit, &low), u >= 0x80 ? 0u : 1u) << u;
  }
  std::mt19937 rng(7);
  for (int round = 0; round < 200; ++round) {
    uint8_t block[64 + kPadding] = {};
    for (int i = 0; i < 64; ++i) block[i] = static_cast<uint8_t>("\"\\[]{}a1 \x80"[rng() % 11]);
    uint64_t quote, backslash, open, close;
    scalar_kernel::block_masks(block, quote, backslash, open, close);
    for (int i = 0; i < 64; ++i) {
      int c = block[i];
      EXPECT_EQ((quote >> i) & 1, c == '"' ? 1u : 0u);
      EXPECT_EQ((backslash >> i) & 1, c == '\\' ? 1u : 0u);
      EXPECT_EQ((open >> i) & 1, is(c, "[{") ? 1u : 0u);
      EXPECT_EQ((close >> i) & 1, is(c, "]}") ? 1u : 0u);
    }
  }
}

TYPED_TEST(KernelTest, EveryByteInEveryLane) {
  using K = TypeParam;
  // Backgrounds: plain text (no stops) and whitespace (no whitespace stop).
  for (uint8_t background : {uint8_t('a'), uint8_t(' '), uint8_t('\t'), uint8_t('5')}) {
    // (Every lane utf8_run reads: it may read past the chunk, swar64's two words.)
    for (size_t lane = 0; lane < K::utf8_run_width; ++lane) {
      for (int b = 0; b < 256; ++b) {
        std::vector<uint8_t> chunk(K::utf8_run_width + 16, background);
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
    size_t run = rng() % (K::utf8_run_width + 1);
    uint8_t fill = alphabet[rng() % 2];
    for (size_t i = 0; i < run; ++i) chunk[i] = fill;
    check_chunk<K>(chunk);
  }
}

// block_masks and quote_parity in the kernel's block layout (kernel.h), against the
// scalar reference's one bit per byte: every mask bit that is not a byte's is 0.
TYPED_TEST(KernelTest, BlockMasksInTheKernelsLayout) {
  using K = TypeParam;
  constexpr size_t kBytes = K::block_bytes;
  static_assert(((kBytes - 1) << K::block_shift) + (1u << K::block_shift) - 1 == 63, "the last byte is bit 63");
  auto bit = [](size_t i) { return (i << K::block_shift) + (1u << K::block_shift) - 1; };
  std::mt19937_64 rng(5);
  const uint8_t alphabet[] = {'"', '\\', '[', ']', '{', '}', 'a', ' ', 0x80, 0xA2, 0xDB, 0xDD, 0xFB, 0xFD, 0x7B - 0x20, 0x5B ^ 0x80, 0x00};
  for (int round = 0; round < 100000; ++round) {
    uint8_t block[64 + kPadding] = {};
    for (size_t i = 0; i < 64; ++i) block[i] = alphabet[rng() % sizeof(alphabet)];
    uint64_t quote, backslash, open, close, q, b, o, c;
    K::block_masks(block, quote, backslash, open, close);
    scalar_kernel::block_masks(block, q, b, o, c);
    uint64_t in_layout[4] = {0, 0, 0, 0}, parity = 0;
    bool odd = false;
    for (size_t i = 0; i < kBytes; ++i) {
      const uint64_t from[4] = {q, b, o, c};
      for (int m = 0; m < 4; ++m) in_layout[m] |= ((from[m] >> i) & 1) << bit(i);
      odd ^= (q >> i) & 1;
      parity |= uint64_t{odd} << bit(i);
    }
    ASSERT_EQ(quote, in_layout[0]);
    ASSERT_EQ(backslash, in_layout[1]);
    ASSERT_EQ(open, in_layout[2]);
    ASSERT_EQ(close, in_layout[3]);
    ASSERT_EQ(K::quote_parity(quote), parity);
  }
}

// utf8_run on text built from whole characters of every length (and the edges of every
// range), then sometimes damaged: a byte replaced, dropped or inserted.
TYPED_TEST(KernelTest, Utf8RunRandomText) {
  using K = TypeParam;
  std::mt19937_64 rng(11);
  const uint32_t points[] = {'a', ' ', 0x7F, 0x80, 0x7FF, 0x800, 0xFFF, 0x1000, 0xD7FF, 0xE000, 0xFFFD, 0xFEFF, 0xFFFF,
                             0x10000, 0x3FFFF, 0x40000, 0x10FFFF, 0x430, 0x4E2D, 0x1F600, '"', '\\', 0x1F};
  const uint8_t damage[] = {0x80, 0xBF, 0xC0, 0xC1, 0xC2, 0xDF, 0xE0, 0xED, 0xEF, 0xF0, 0xF4, 0xF5, 0xFF, 0x9F, 0xA0, '"', 'a'};
  for (int round = 0; round < 300000; ++round) {
    std::vector<uint8_t> text;
    while (text.size() < K::utf8_run_width + 8) {
      uint32_t cp = rng() % 3 ? points[rng() % (sizeof(points) / sizeof(points[0]))] : static_cast<uint32_t>(rng() % 0x110000);
      if (cp >= 0xD800 && cp < 0xE000) cp = 'b';
      if (cp < 0x80) {
        text.push_back(static_cast<uint8_t>(cp));
      } else if (cp < 0x800) {
        text.insert(text.end(), {static_cast<uint8_t>(0xC0 | cp >> 6), static_cast<uint8_t>(0x80 | (cp & 0x3F))});
      } else if (cp < 0x10000) {
        text.insert(text.end(), {static_cast<uint8_t>(0xE0 | cp >> 12), static_cast<uint8_t>(0x80 | ((cp >> 6) & 0x3F)),
                                 static_cast<uint8_t>(0x80 | (cp & 0x3F))});
      } else {
        text.insert(text.end(), {static_cast<uint8_t>(0xF0 | cp >> 18), static_cast<uint8_t>(0x80 | ((cp >> 12) & 0x3F)),
                                 static_cast<uint8_t>(0x80 | ((cp >> 6) & 0x3F)), static_cast<uint8_t>(0x80 | (cp & 0x3F))});
      }
    }
    if (rng() % 2) {
      size_t at = rng() % (K::utf8_run_width + 4);
      switch (rng() % 3) {
        case 0: text[at] = damage[rng() % sizeof(damage)]; break;
        case 1: text.erase(text.begin() + static_cast<long>(at)); break;
        default: text.insert(text.begin() + static_cast<long>(at), damage[rng() % sizeof(damage)]); break;
      }
    }
    text.resize(K::utf8_run_width + 16, 'a');
    check_utf8_run<K>(text.data());
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
  // The unescaper's ASCII copy: stops at a backslash only.
  std::memset(out, 0xAA, sizeof out);
  ASSERT_EQ(K::copy_escape_run(p, out), reference(p, K::width, [](const uint8_t* q) {
              uint8_t ignored;
              return scalar_kernel::copy_escape_run(q, &ignored);
            }));
  ASSERT_EQ(std::memcmp(out, p, K::width), 0);
  ASSERT_EQ(out[K::width], 0xAA);  // nothing past the chunk
}

// A narrowing run (narrow_string_run, narrow_ascii_run) of kernel K over p[0..units16):
// it stops at the first unit `stops` says, and the units before are ASCII and come out
// exactly.
template <class K, class Run, class Stops>
void check_narrowing(const uint16_t* p, Run run, Stops stops) {
  uint8_t out[64];
  std::memset(out, 0xAA, sizeof out);
  size_t want = K::units16;
  for (size_t i = 0; i < K::units16; ++i) {
    if (stops(p[i])) {
      want = i;
      break;
    }
  }
  ASSERT_EQ(run(p, out), want);
  for (size_t i = 0; i < want; ++i) ASSERT_EQ(out[i], p[i]);
}

template <class K>
void check_narrow_chunk(const uint16_t* p) {
  check_narrowing<K>(p, K::narrow_string_run, [](uint16_t u) {
    uint8_t ignored;
    return scalar_kernel::narrow_string_run(&u, &ignored) == 0;
  });
}

// The unescaper's widening run: every byte of the chunk stored as a unit, and the stop at
// the first backslash or non-ASCII byte.
template <class K>
void check_widen_chunk(const uint8_t* p) {
  uint16_t out[64];
  for (auto& u : out) u = 0xAAAA;
  size_t want = K::width;
  for (size_t i = 0; i < K::width; ++i) {
    if (p[i] == '\\' || p[i] >= 0x80) {
      want = i;
      break;
    }
  }
  ASSERT_EQ(K::widen_ascii_run(p, out), want);
  for (size_t i = 0; i < K::width; ++i) ASSERT_EQ(out[i], p[i]);
  ASSERT_EQ(out[K::width], 0xAAAA);  // nothing past the chunk
}

TYPED_TEST(KernelTest, WidenAsciiRunEveryByteInEveryLane) {
  using K = TypeParam;
  for (size_t lane = 0; lane < K::width; ++lane) {
    for (int b = 0; b < 256; ++b) {
      std::vector<uint8_t> chunk(K::width + 16);
      for (size_t i = 0; i < chunk.size(); ++i) chunk[i] = static_cast<uint8_t>('A' + i % 26);
      chunk[lane] = static_cast<uint8_t>(b);
      check_widen_chunk<K>(chunk.data());
    }
  }
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

// String input as UTF-16 (utf16_input.h): the stop at the first unit >= 0x80.
template <class K>
void check_narrow_ascii_chunk(const uint16_t* p) {
  check_narrowing<K>(p, K::narrow_ascii_run, [](uint16_t u) { return u >= 0x80; });
}

TYPED_TEST(KernelTest, NarrowAsciiRunEveryUnitInEveryLane) {
  using K = TypeParam;
  std::vector<uint16_t> units;
  for (uint32_t u = 0; u < 0x200; ++u) units.push_back(static_cast<uint16_t>(u));
  for (uint32_t u = 0x200; u < 0x10000; u += 0xFF) units.push_back(static_cast<uint16_t>(u));
  for (uint16_t u : {0x7F7F, 0x8000, 0x807F, 0xFF7F, 0xD800, 0xDFFF, 0xFFFF, 0x0100, 0x017F, 0x1F00}) units.push_back(u);
  for (size_t lane = 0; lane < K::units16; ++lane) {
    for (uint16_t u : units) {
      std::vector<uint16_t> chunk(K::units16 + 16, 'a');
      chunk[lane] = u;
      check_narrow_ascii_chunk<K>(chunk.data());
    }
  }
}

// at() on strings (narrowed_units.h): every unit in every lane comes out as itself below
// 0x80, else 0x7F; nothing is stored past the chunk.
TYPED_TEST(KernelTest, NarrowClampedEveryUnitInEveryLane) {
  using K = TypeParam;
  std::vector<uint16_t> units;
  for (uint32_t u = 0; u < 0x200; ++u) units.push_back(static_cast<uint16_t>(u));
  for (uint32_t u = 0x200; u < 0x10000; u += 0xFF) units.push_back(static_cast<uint16_t>(u));
  for (uint16_t u : {0x7F7F, 0x8000, 0x807F, 0x8022, 0xFF7F, 0xD800, 0xDFFF, 0xFFFF, 0x0100, 0x0122, 0x017F, 0x1F00, 0x7FFF}) units.push_back(u);
  for (size_t lane = 0; lane < K::clamped_units; ++lane) {
    for (uint16_t u : units) {
      std::vector<uint16_t> chunk(K::clamped_units, 'a');
      chunk[lane] = u;
      uint8_t out[128];
      std::memset(out, 0xAA, sizeof out);
      K::narrow_clamped(chunk.data(), out);
      for (size_t i = 0; i < K::clamped_units; ++i) ASSERT_EQ(out[i], chunk[i] < 0x80 ? chunk[i] : 0x7F) << lane << ' ' << u;
      ASSERT_EQ(out[K::clamped_units], 0xAA);
    }
  }
}

// The narrowing in place, over every length up to a few chunks and random units (ASCII,
// 0x7F and 0x80 neighbours, wide ones), against the rule unit by unit.
TYPED_TEST(KernelTest, NarrowUnitsInPlace) {
  using K = TypeParam;
  std::mt19937_64 rng(5);
  const uint16_t picks[] = {'"', '\\', '{', '}', 'a', 0x7E, 0x7F, 0x80, 0xFF, 0x100, 0x122, 0x4E16, 0xD83D, 0xDE00, 0xFFFF};
  for (size_t n = 0; n < 3 * K::clamped_units + 17; ++n) {
    for (int round = 0; round < 50; ++round) {
      std::vector<uint16_t> units(n + 1);
      for (size_t i = 0; i < n; ++i) units[i] = picks[rng() % (sizeof picks / sizeof picks[0])];
      units[n] = 0xBBBB;  // after the n units: never written
      std::vector<uint16_t> original = units;
      uint8_t* bytes = reinterpret_cast<uint8_t*>(units.data());
      narrow_units<K>(bytes, n, bytes);
      for (size_t i = 0; i < n; ++i) ASSERT_EQ(bytes[i], original[i] < 0x80 ? original[i] : 0x7F) << n << ' ' << i;
      ASSERT_EQ(units[n], 0xBBBB);
    }
  }
}

// utf8_pairs_run: eight units below 0x800 as their UTF-8, or 0 (nothing stored) when
// any is not, or when the kernel has no such step; string_pairs_run the same, and also 0
// when one must be escaped.
template <class K, bool kString>
void check_pairs_runs() {
  std::mt19937_64 rng(11);
  const uint16_t edges[] = {0x00, 0x41, 0x7F, 0x80, 0xFF, 0x100, 0x3FF, 0x400, 0x7FE, 0x7FF, 0x800, 0xD800, 0xFFFF,
                            0x1F, 0x20, '"', '\\', 0x122, 0x15C, 0x5C5C};
  for (int round = 0; round < 200000; ++round) {
    uint16_t units[8];
    for (auto& u : units) {
      uint64_t r = rng();
      u = r % 4 == 0 ? edges[(r >> 8) % std::size(edges)] : r % 4 == 1 ? static_cast<uint16_t>((r >> 8) % 0x80) : static_cast<uint16_t>((r >> 8) % 0x800);
    }
    uint8_t out[32];
    std::memset(out, 0xAA, sizeof out);
    size_t n = kString ? K::string_pairs_run(units, out) : K::utf8_pairs_run(units, out);
    bool all_below = true;
    std::vector<uint8_t> want;
    for (uint16_t u : units) {
      if (u >= 0x800 || (kString && (u < 0x20 || u == '"' || u == '\\'))) all_below = false;
      if (u < 0x80) {
        want.push_back(static_cast<uint8_t>(u));
      } else {
        want.push_back(static_cast<uint8_t>(0xC0 | (u >> 6)));
        want.push_back(static_cast<uint8_t>(0x80 | (u & 0x3F)));
      }
    }
    if (n == 0) {
      ASSERT_EQ(out[0], 0xAA) << "declined, but stored";
      // The SIMD128 and SWAR64 kernels take every group they may.
      if constexpr (!std::is_same_v<K, scalar_kernel>) ASSERT_FALSE(all_below) << "round " << round;
      continue;
    }
    ASSERT_TRUE(all_below) << "took a group it must decline";
    ASSERT_EQ(n, want.size());
    ASSERT_EQ(std::memcmp(out, want.data(), n), 0) << "round " << round;
    ASSERT_EQ(out[16], 0xAA) << "stored past 16 bytes";
  }
  if constexpr (!std::is_same_v<K, scalar_kernel>) {
    uint16_t cyrillic[8] = {0x0416, 0x0438, 0x0437, 0x043D, 0x044C, ' ', 0x0418, '!'};
    uint8_t out[16];
    ASSERT_EQ(kString ? K::string_pairs_run(cyrillic, out) : K::utf8_pairs_run(cyrillic, out), 14u);
  }
}


// utf8_triples_run: eight units from 0x800 up, none a surrogate, as their UTF-8, or 0
// (nothing stored) otherwise, or when the kernel has no such step.
TYPED_TEST(KernelTest, Utf8TriplesRunMatchesAnEncoder) {
  using K = TypeParam;
  std::mt19937_64 rng(13);
  const uint16_t edges[] = {0x41, 0x7FF, 0x800, 0x801, 0xFFF, 0x1000, 0x3042, 0x4E2D, 0xD7FF, 0xD800, 0xDBFF, 0xDC00, 0xDFFF, 0xE000, 0xFFFD, 0xFFFF};
  for (int round = 0; round < 200000; ++round) {
    uint16_t units[8];
    for (auto& u : units) {
      uint64_t r = rng();
      u = r % 5 == 0 ? edges[(r >> 8) % std::size(edges)] : static_cast<uint16_t>(0x800 + (r >> 8) % (0x10000 - 0x800));
    }
    uint8_t out[48];
    std::memset(out, 0xAA, sizeof out);
    size_t n = K::utf8_triples_run(units, out);
    bool takes = true;
    std::vector<uint8_t> want;
    for (uint16_t u : units) {
      if (u < 0x800 || (u & 0xF800) == 0xD800) takes = false;
      want.push_back(static_cast<uint8_t>(0xE0 | (u >> 12)));
      want.push_back(static_cast<uint8_t>(0x80 | ((u >> 6) & 0x3F)));
      want.push_back(static_cast<uint8_t>(0x80 | (u & 0x3F)));
    }
    if (n == 0) {
      ASSERT_EQ(out[0], 0xAA) << "declined, but stored";
      if constexpr (!std::is_same_v<K, scalar_kernel>) ASSERT_FALSE(takes) << "round " << round;
      continue;
    }
    ASSERT_TRUE(takes) << "took a group it must decline, round " << round;
    ASSERT_EQ(n, 24u);
    ASSERT_EQ(std::memcmp(out, want.data(), n), 0) << "round " << round;
    ASSERT_EQ(out[32], 0xAA) << "stored past 32 bytes";
  }
}

TYPED_TEST(KernelTest, Utf8PairsRunMatchesAnEncoder) { check_pairs_runs<TypeParam, false>(); }
TYPED_TEST(KernelTest, StringPairsRunMatchesAnEncoderAndDeclinesEscapes) { check_pairs_runs<TypeParam, true>(); }

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
