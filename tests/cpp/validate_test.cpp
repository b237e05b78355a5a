// validate() over every kernel: JSONTestSuite, error codes and offsets, depth, UTF-8.
#include <string>

#include "core/padded_input.h"
#include "core/validate.h"
#include "kernels.h"
#include "shared_files.h"
#include "../support/bracket_scan.h"

using namespace wasmjson;
using namespace std::literals;
namespace ts = wasmjson::testing_support;

template <class K>
class ValidateTest : public ::testing::Test {
 protected:
  result check(std::string_view text, uint32_t flags = kSkipBom) {
    padded_input in(text);
    return validate<K>(in.data(), in.size(), flags, stack_);
  }
  bool valid(std::string_view text, uint32_t flags = kSkipBom) { return check(text, flags).ok(); }
  byte_stack stack_;
};
TYPED_TEST_SUITE(ValidateTest, AllKernels, KernelNames);

TYPED_TEST(ValidateTest, AcceptsValues) {
  for (const char* s : {"0", "-0", "1.5e+10", "-0.0e-0", "123456789012345678901234567890", "true", "false",
                        "null", "\"\"", "\"a\\u00e9\\n\\\"\\\\\\/\\b\\f\\r\\t\"", "[]", "{}", " [ 1 , 2 ] ",
                        "{\"a\":{\"b\":[null,{}]}}", "\t\r\n 7 \n", "\"\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80\""}) {
    EXPECT_TRUE(this->valid(s)) << s;
  }
}

struct bad_case {
  std::string_view text;
  error_code code;
  size_t offset;
};

TYPED_TEST(ValidateTest, RejectsWithCodeAndOffset) {
  const bad_case cases[] = {
      {""sv, error_code::unexpected_end, 0},
      {"   "sv, error_code::unexpected_end, 3},
      {"["sv, error_code::unexpected_end, 1},
      {"[1,"sv, error_code::unexpected_end, 3},
      {"{\"a\":1"sv, error_code::expected_comma_or_brace, 6},
      {"x"sv, error_code::unexpected_character, 0},
      {"[1,]"sv, error_code::unexpected_character, 3},
      {"{,}"sv, error_code::expected_property_name_or_brace, 1},
      {"{\"a\":1,}"sv, error_code::expected_property_name, 7},
      {"{\"a\" 1}"sv, error_code::expected_colon, 5},
      {"{\"a\":1 \"b\":2}"sv, error_code::expected_comma_or_brace, 7},
      {"[1 2]"sv, error_code::expected_comma_or_bracket, 3},
      {"\"abc"sv, error_code::unterminated_string, 4},
      {"\"a\x01\""sv, error_code::bad_control_character, 2},
      {"\"\\x\""sv, error_code::bad_escape, 2},
      {"\"\\u12g4\""sv, error_code::bad_unicode_escape, 5},
      {"\"\\u12"sv, error_code::bad_unicode_escape, 5},
      {"\"\\"sv, error_code::unexpected_end, 2},
      {"{\"a\""sv, error_code::expected_colon, 4},
      {"[-]"sv, error_code::no_number_after_minus, 2},
      {"-"sv, error_code::no_number_after_minus, 1},
      {"-a"sv, error_code::no_number_after_minus, 1},
      {"1e"sv, error_code::exponent_missing_number, 2},
      {"1e+"sv, error_code::exponent_missing_number, 3},
      {"1."sv, error_code::unterminated_fraction, 2},
      {"1.e5"sv, error_code::unterminated_fraction, 2},
      {"01"sv, error_code::leading_zero, 1},
      {"1 2"sv, error_code::trailing_content, 2},
      {"{} x"sv, error_code::trailing_content, 3},
      {"tru"sv, error_code::unexpected_end, 3},
      {"trux"sv, error_code::unexpected_character, 3},
      {"nul"sv, error_code::unexpected_end, 3},
      {"fals"sv, error_code::unexpected_end, 4},
      {"\"\xc3\""sv, error_code::invalid_utf8, 1},
      {"\"\xed\xa0\x80\""sv, error_code::invalid_utf8, 1},
      {"\"\xc0\xaf\""sv, error_code::invalid_utf8, 1},
      {"\"\xf4\x90\x80\x80\""sv, error_code::invalid_utf8, 1},
      {"[\"a\xff\"]"sv, error_code::invalid_utf8, 3},
      {"\xc3\xa9"sv, error_code::unexpected_character, 0},
      {"[1,\xff]"sv, error_code::invalid_utf8, 3},
      {"\xff\xfe" "1\x00"sv, error_code::invalid_utf8, 0},
      {"{\xed\xa0\x80}"sv, error_code::invalid_utf8, 1},
      {"[1]\x00"sv, error_code::trailing_content, 3},
  };
  for (const auto& c : cases) {
    result r = this->check(c.text);
    EXPECT_EQ(static_cast<int>(r.code), static_cast<int>(c.code)) << "input: " << c.text;
    EXPECT_EQ(r.offset, c.offset) << "input: " << c.text;
  }
}

TYPED_TEST(ValidateTest, ByteOrderMarkOnlyWhenAsked) {
  EXPECT_TRUE(this->valid("\xEF\xBB\xBF{}", kSkipBom));
  result r = this->check("\xEF\xBB\xBF{}", 0);
  EXPECT_EQ(r.code, error_code::unexpected_character);
  EXPECT_EQ(r.offset, 0u);
  EXPECT_FALSE(this->valid("\xEF\xBB\xBF\xEF\xBB\xBF{}", kSkipBom));
}

TYPED_TEST(ValidateTest, DeepNestingIsIterative) {
  const size_t depth = 1000000;
  std::string s(depth, '[');
  s.append(depth, ']');
  EXPECT_TRUE(this->valid(s));
  std::string o;
  for (size_t i = 0; i < depth; ++i) o += "{\"a\":";
  o += "1";
  o.append(depth, '}');
  EXPECT_TRUE(this->valid(o));
  s.pop_back();
  result r = this->check(s);
  EXPECT_EQ(r.code, error_code::expected_comma_or_bracket);
  EXPECT_EQ(r.offset, s.size());
}

// The first '[' or '{' deeper than max_depth in valid text, found by the reference scan
// (brackets in strings skipped); npos when none.
size_t first_too_deep(std::string_view text, size_t max_depth) {
  const auto* p = reinterpret_cast<const uint8_t*>(text.data());
  size_t i = ts::scan_brackets(p, text.size(), [&](size_t, long depth) { return static_cast<size_t>(depth) <= max_depth; });
  return i < text.size() ? i : std::string_view::npos;
}

// With a nesting limit: the first container deeper than it, empty or not (arrays of
// numbers too), is too_deep at its offset (past a skipped BOM too), unless the text
// has a syntax error anywhere, which comes first wherever it is.
TYPED_TEST(ValidateTest, MaxDepthFindsTheFirstContainerTooDeep) {
  const std::string docs[] = {
      "[]", "{}", "[[]]", "[1,[2,[3,[4]]]]", "{\"a\":{\"b\":[]},\"c\":[[{}]]}", "[\"[[[\",{\"]\":[\"{{\"]}]",
      "[[1,2],[3,[4,5]],{\"k\":[[[null]]]}]", " \n[ [ ] , { \"x\" : [ { } ] } ]\t", "\"[[\"", "7",
      "\xEF\xBB\xBF[[1]]", std::string(40, '[') + std::string(40, ']')};
  for (const std::string& text : docs) {
    ASSERT_TRUE(this->valid(text)) << text;
    size_t bom = text.starts_with("\xEF\xBB\xBF") ? 3 : 0;
    for (size_t max = 0; max <= 42; ++max) {
      padded_input in(text);
      result r = validate<TypeParam>(in.data(), in.size(), kSkipBom, this->stack_, max);
      size_t at = first_too_deep(std::string_view(text).substr(bom), max);
      if (at == std::string_view::npos) {
        EXPECT_TRUE(r.ok()) << text << " max " << max;
      } else {
        EXPECT_EQ(r.code, error_code::too_deep) << text << " max " << max;
        EXPECT_EQ(r.offset, bom + at) << text << " max " << max;
      }
    }
  }
  // A syntax error after the container too deep, or before it, is what is reported.
  for (std::string_view bad : {"[[[1]]],"sv, "[[[1]],x]"sv, "[x,[[1]]]"sv, "[[[1]]"sv}) {
    padded_input in(bad);
    result r = validate<TypeParam>(in.data(), in.size(), 0, this->stack_, 1);
    result plain = this->check(bad, 0);
    ASSERT_FALSE(plain.ok()) << bad;
    EXPECT_EQ(r.code, plain.code) << bad;
    EXPECT_EQ(r.offset, plain.offset) << bad;
  }
  // 1,000,000 levels with a limit of 999,999: the innermost '['.
  std::string deep(1000000, '[');
  deep.append(1000000, ']');
  padded_input in(deep);
  result r = validate<TypeParam>(in.data(), in.size(), 0, this->stack_, 999999);
  EXPECT_EQ(r.code, error_code::too_deep);
  EXPECT_EQ(r.offset, 999999u);
  EXPECT_TRUE(validate<TypeParam>(in.data(), in.size(), 0, this->stack_, 1000000).ok());
}

// Every string length around the kernel widths, with the stop byte at every position.
TYPED_TEST(ValidateTest, StringsAroundChunkBoundaries) {
  for (size_t n = 0; n < 70; ++n) {
    std::string body(n, 'x');
    EXPECT_TRUE(this->valid("\"" + body + "\"")) << n;
    EXPECT_FALSE(this->valid("\"" + body)) << n;
    EXPECT_FALSE(this->valid("\"" + body + "\x1f\"")) << n;
    EXPECT_TRUE(this->valid("\"" + body + "\\n" + body + "\"")) << n;
    EXPECT_TRUE(this->valid("\"" + body + "\xc3\xa9" + body + "\"")) << n;
    EXPECT_FALSE(this->valid("\"" + body + "\xc3" + body + "\"")) << n;
    EXPECT_TRUE(this->valid("[" + std::string(n, ' ') + "1" + std::string(n, '\n') + "]")) << n;
    std::string digits = "1" + std::string(n, '0');
    EXPECT_TRUE(this->valid(digits + "." + digits + "e-" + digits)) << n;
  }
}

// Numbers of every shape with integer and fraction parts of every length around the
// kernels' widths, valid and broken in each part, give the reference kernel's result:
// the same verdict, error kind and offset (the SIMD128 kernel reads the integer and
// fraction digits of a number with one mask).
TYPED_TEST(ValidateTest, NumbersAroundChunkBoundariesMatchTheReference) {
  byte_stack ref_stack;
  auto reference = [&](const std::string& text) {
    padded_input in(text);
    return validate<scalar_kernel>(in.data(), in.size(), kSkipBom, ref_stack);
  };
  const char* tails[] = {"", "e5", "E+12", "e-7", "e", "e+", "x", ".", ".5", "0"};
  const char* ends[] = {"", ",1", "]", " ", "}", "a"};
  size_t checked = 0;
  for (int lead = 0; lead < 3; ++lead) {  // "1..", "-1..", "0.." and "-0.."
    for (size_t int_len = 1; int_len <= 20; ++int_len) {
      for (int frac_len = -1; frac_len <= 20; ++frac_len) {  // -1: no '.'
        std::string n = lead == 1 ? "-" : "";
        if (lead == 2) n += int_len % 2 ? "-0" : "0";
        for (size_t i = 0; i < int_len; ++i) n += static_cast<char>('1' + (i * 7 + int_len) % 9);
        if (frac_len >= 0) {
          n += '.';
          for (int i = 0; i < frac_len; ++i) n += static_cast<char>('0' + (i * 3 + frac_len) % 10);
        }
        for (const char* tail : tails) {
          for (const char* end : ends) {
            for (const std::string& text : {n + tail + end, "[" + n + tail + end + "]", "{\"k\":" + n + tail + end + "}"}) {
              result want = reference(text);
              result got = this->check(text);
              ASSERT_EQ(static_cast<int>(got.code), static_cast<int>(want.code)) << text;
              ASSERT_EQ(got.offset, want.offset) << text;
              ++checked;
            }
          }
        }
      }
    }
  }
  // The generator must produce both verdicts in quantity.
  EXPECT_TRUE(this->valid("[12345678901234567.12345678901234567e5]"));
  EXPECT_FALSE(this->valid("[123456789012345.]"));
  EXPECT_GT(checked, 40000u);
}

// Every 1-, 2-, 3-byte sequence and a sweep of 4-byte ones agree with a direct decoding
// of the Unicode rules.
static bool reference_well_formed(const uint8_t* s, size_t n) {
  size_t i = 0;
  while (i < n) {
    uint32_t c = s[i];
    size_t len = c < 0x80 ? 1 : (c >> 5) == 6 ? 2 : (c >> 4) == 14 ? 3 : (c >> 3) == 30 ? 4 : 0;
    if (len == 0 || i + len > n) return false;
    uint32_t cp = len == 1 ? c : c & (0xFF >> (len + 1));
    for (size_t k = 1; k < len; ++k) {
      if ((s[i + k] & 0xC0) != 0x80) return false;
      cp = (cp << 6) | (s[i + k] & 0x3F);
    }
    static const uint32_t min_cp[] = {0, 0, 0x80, 0x800, 0x10000};
    if (cp < min_cp[len] || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) return false;
    i += len;
  }
  return true;
}

TYPED_TEST(ValidateTest, Utf8MatchesUnicodeRules) {
  uint8_t seq[4];
  auto run = [&](size_t n) {
    std::string text = "\"";
    text.append(reinterpret_cast<const char*>(seq), n);
    text += "\"";
    bool expected = reference_well_formed(seq, n) && seq[0] >= 0x20 && seq[0] != '"' && seq[0] != '\\';
    if (n > 1) expected = reference_well_formed(seq, n);
    ASSERT_EQ(this->valid(text), expected) << std::hex << int(seq[0]) << " " << int(seq[1]) << " n=" << n;
  };
  for (int a = 0x80; a < 256; ++a) {
    seq[0] = static_cast<uint8_t>(a);
    run(1);
    for (int b = 0; b < 256; ++b) {
      seq[1] = static_cast<uint8_t>(b);
      if (b < 0x80 && (b < 0x20 || b == '"' || b == '\\')) continue;
      run(2);
      for (int c = 0x70; c < 0xD0; c += 0x0F) {
        seq[2] = static_cast<uint8_t>(c);
        run(3);
        seq[3] = 0x80 + (c & 0x3F);
        if (a >= 0xF0) run(4);
      }
    }
  }
}

// JSONTestSuite: y_ accepted, n_ rejected, i_ as docs/BOUNDARY.md decides.
TYPED_TEST(ValidateTest, JSONTestSuite) {
  WASMJSON_SKIP_WITHOUT_SHARED();
  auto files = ts::shared_files("conformance/JSONTestSuite-parsing");
  ASSERT_EQ(files.size(), ts::kJsonTestSuiteParsingFiles);
  size_t y = 0, n = 0;
  for (const auto& f : files) {
    std::string name = f.filename().string();
    std::string text = ts::read_file(f);
    bool ok = this->valid(text);
    if (name[0] == 'y') {
      EXPECT_TRUE(ok) << name;
      ++y;
    } else if (name[0] == 'n') {
      EXPECT_FALSE(ok) << name;
      ++n;
    } else {
      // Implementation-defined: valid grammar in well-formed UTF-8 is accepted (huge
      // numbers, escaped lone surrogates, deep nesting, a BOM on bytes); anything that is
      // not UTF-8 (invalid sequences, encoded surrogates, UTF-16) is rejected.
      bool expect = name.find("number") != std::string::npos || name.find("structure") != std::string::npos ||
                    name.find("surrogate") != std::string::npos || name.find("escape") != std::string::npos;
      if (name == "i_string_UTF8_surrogate_U+D800.json") expect = false;
      EXPECT_EQ(ok, expect) << name;
    }
  }
  EXPECT_EQ(y, 95u);
  EXPECT_EQ(n, 188u);
}

TYPED_TEST(ValidateTest, CorpusFilesAreValidAndEveryTruncationIsNot) {
  WASMJSON_SKIP_WITHOUT_SHARED();
  ASSERT_EQ(ts::shared_files("corpus").size(), ts::kCorpusFiles);
  auto docs = ts::corpus_documents();
  for (const auto& [f, text] : docs) {
    EXPECT_TRUE(this->valid(text)) << f;
    // Cut points inside the document: a truncated JSON text is never valid.
    for (size_t cut : {text.size() / 3, text.size() / 2, text.size() * 9 / 10}) {
      std::string_view head(text.data(), cut);
      while (!head.empty() && (head.back() == ' ' || head.back() == '\n' || head.back() == '\r')) head.remove_suffix(1);
      if (head.empty()) continue;
      result r = this->check(head);
      EXPECT_FALSE(r.ok()) << f << " cut at " << cut;
    }
  }
}
