// An error's position (cpp/core/text_position.h) against a byte-at-a-time reference of
// V8's rule (CR, LF and CRLF each end a line; columns and offsets in UTF-16 units), at
// every offset of random texts dense in line breaks and multi-byte characters.
#include <gtest/gtest.h>

#include <random>
#include <string>

#include "core/padded_input.h"
#include "core/text_position.h"

using namespace wasmjson;

namespace {

text_position reference(const std::string& s, size_t offset) {
  size_t line = 1, line_start = 0;
  for (size_t i = 0; i < offset; ++i) {
    if (s[i] == '\n') {
      ++line;
      line_start = i + 1;
    } else if (s[i] == '\r') {
      ++line;
      bool crlf = i + 1 < s.size() && s[i + 1] == '\n';
      line_start = i + (crlf ? 2 : 1);
      if (crlf) ++i;  // the LF belongs to this break, even past the offset
    }
  }
  auto units = [&](size_t end) {
    size_t n = 0;
    for (size_t i = 0; i < end; ++i) {
      uint8_t b = static_cast<uint8_t>(s[i]);
      n += ((b & 0xC0) != 0x80) + (b >= 0xF0);
    }
    return n;
  };
  size_t start = line_start < offset ? line_start : offset;
  return {line, line_start, units(offset), units(start)};
}

void expect_all_offsets(const std::string& s) {
  padded_input in(s);
  for (size_t offset = 0; offset <= s.size(); ++offset) {
    text_position want = reference(s, offset);
    text_position got = position_at(in.data(), offset);
    ASSERT_EQ(got.line, want.line) << "offset " << offset;
    ASSERT_EQ(got.line_start, want.line_start) << "offset " << offset;
    ASSERT_EQ(got.units, want.units) << "offset " << offset;
    ASSERT_EQ(got.line_start_units, want.line_start_units) << "offset " << offset;
  }
}

}  // namespace

TEST(TextPosition, LineBreaksOfEveryKind) {
  expect_all_offsets("");
  expect_all_offsets("abc");
  expect_all_offsets("a\nb\rc\r\nd\n\re\r\r\n\n");
  expect_all_offsets("\r\n\r\n\r\r\n\n\n\r");
  expect_all_offsets(std::string(20, ' ') + "\r\n" + std::string(13, 'x') + "\r");
}

TEST(TextPosition, MultiByteCharactersCountAsUtf16Units) {
  expect_all_offsets("é\nü😀x\r\n€€\n😀😀😀😀😀😀😀😀😀\r👍");
}

TEST(TextPosition, RandomTexts) {
  std::mt19937_64 rng(21);
  const char* pieces[] = {"\n", "\r", "\r\n", "a", "bc", "é", "€", "😀", " ", "[1,2]", "\"k\""};
  for (int round = 0; round < 300; ++round) {
    std::string s;
    size_t n = rng() % 120;
    for (size_t i = 0; i < n; ++i) s += pieces[rng() % (sizeof pieces / sizeof *pieces)];
    expect_all_offsets(s);
  }
}
