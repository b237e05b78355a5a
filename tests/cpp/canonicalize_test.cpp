// canonicalize() (RFC 8785) over every kernel: the JCS conformance vectors, key order by
// UTF-16 code units, duplicate keys, number forms, string escapes, what JCS forbids,
// deep and wide documents, and random documents against a small independent reference
// (decode to UTF-16 strings and doubles, sort with std::u16string's order, write).
#include <algorithm>
#include <cmath>
#include <map>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "core/canonicalize.h"
#include "core/padded_input.h"
#include "kernels.h"
#include "shared_files.h"
#include "../support/jcs_reference.h"

using namespace wasmjson;
namespace ts = wasmjson::testing_support;
using namespace wasmjson::jcs_reference;  // ref_reader, ref_write

namespace {

struct outcome {
  result res;
  std::string text;
};

// ---- Random documents: keys that collide, reorder across the UTF-16/code point split,
// escapes of every kind, numbers in many spellings. ----

struct doc_gen {
  std::mt19937 rng;
  explicit doc_gen(uint32_t seed) : rng(seed) {}
  size_t pick(size_t n) { return std::uniform_int_distribution<size_t>(0, n - 1)(rng); }

  std::string character() {
    static const char* const pieces[] = {
        "a", "b", "z", "A", "0", " ", "/", "~", "\x7f",
        "\xc3\xa9",                    // é
        "\xe2\x82\xac",                // U+20AC
        "\xed\x9f\xbf",                // U+D7FF
        "\xee\x80\x80",                // U+E000
        "\xef\xac\xb3",                // U+FB33
        "\xef\xbf\xbd",                // U+FFFD
        "\xef\xbf\xbf",                // U+FFFF
        "\xf0\x90\x80\x80",            // U+10000
        "\xf0\x9f\x98\x82",            // U+1F602
        "\xf4\x8f\xbf\xbf",            // U+10FFFF
        "\\\"", "\\\\", "\\/", "\\b", "\\f", "\\n", "\\r", "\\t",
        "\\u0000", "\\u001F", "\\u0022", "\\u005c", "\\u002F", "\\u0041", "\\u007f", "\\u00e9",
        "\\u20AC", "\\uE000", "\\uFFFF", "\\ud83d\\ude02", "\\uD800\\uDC00", "\\uDBFF\\uDFFF",
    };
    static const char* const lone[] = {"\\ud800", "\\uDC00", "\\udbff", "\\ud83d"};
    if (pick(200) == 0) return lone[pick(4)];
    return pieces[pick(sizeof pieces / sizeof *pieces)];
  }
  std::string string_literal(size_t max_len) {
    std::string s = "\"";
    for (size_t n = pick(max_len + 1); n > 0; --n) s += character();
    return s + "\"";
  }
  std::string number() {
    static const char* const specials[] = {
        "0", "-0", "0.0", "-0.0", "1", "-1", "1.5", "1.50", "1e2", "1E+2", "1e-7", "0.000001", "0.0000001",
        "123456789012345", "1234567890123456", "12345678901234567890", "1e21", "1e20", "999999999999999999999",
        "0.1", "0.30000000000000004", "5e-324", "1.7976931348623157e308", "1e400", "-1e400", "100e-2",
        "333333333.3333333", "9007199254740993", "0.5e1", "1.0000000000000002", "4.35", "-65.613616999999977",
    };
    if (pick(3) == 0) return specials[pick(sizeof specials / sizeof *specials)];
    std::string s = pick(3) == 0 ? "-" : "";
    s += std::to_string(pick(10) ? pick(1000) : pick(1000000000));
    if (pick(2)) {
      s += '.';
      for (size_t n = 1 + pick(18); n > 0; --n) s += static_cast<char>('0' + pick(10));
    }
    if (pick(4) == 0) s += "e" + std::string(pick(2) ? "-" : "") + std::to_string(pick(30));
    return s;
  }
  std::string value(int depth, size_t& budget) {
    if (budget) --budget;
    size_t r = pick(10);
    if (depth < 6 && budget && r < 4) {
      bool object = r < 2;
      std::string s = object ? "{" : "[";
      std::vector<std::string> keys;
      for (size_t n = pick(7); n > 0 && budget; --n) {
        if (s.size() > 1) s += pick(4) ? "," : " ,\n ";
        if (object) {
          std::string k = !keys.empty() && pick(5) == 0 ? keys[pick(keys.size())] : string_literal(3);
          keys.push_back(k);
          s += k + (pick(3) ? ":" : " : ");
        }
        s += value(depth + 1, budget);
      }
      return s + (object ? "}" : "]");
    }
    if (r < 6) return number();
    if (r < 9) return string_literal(6);
    return pick(3) == 0 ? "true" : pick(2) ? "false" : "null";
  }
};

}  // namespace

template <class K>
class CanonicalizeTest : public ::testing::Test {
 protected:
  outcome run(std::string_view text, uint32_t flags = 0) {
    padded_input in(text);
    outcome o;
    o.res = canonicalize<K>(in.data(), in.size(), flags, buffers_);
    o.text.assign(reinterpret_cast<const char*>(buffers_.out.data()), buffers_.out.size());
    return o;
  }
  std::string ok(std::string_view text) {
    outcome o = run(text);
    EXPECT_TRUE(o.res.ok()) << text << " -> code " << static_cast<uint32_t>(o.res.code) << " at " << o.res.offset;
    return o.text;
  }
  jcs_buffers buffers_;
};
TYPED_TEST_SUITE(CanonicalizeTest, AllKernels, KernelNames);

TYPED_TEST(CanonicalizeTest, ConformanceVectors) {
  WASMJSON_SKIP_WITHOUT_SHARED();
  auto inputs = ts::shared_files("conformance/jcs/input");
  ASSERT_EQ(inputs.size(), ts::kJcsVectorFiles);
  for (auto& path : inputs) {
    std::string expected = ts::read_file(ts::shared_dir() / "conformance/jcs/output" / path.filename());
    EXPECT_EQ(this->ok(ts::read_file(path)), expected) << path;
  }
}

TYPED_TEST(CanonicalizeTest, ScalarsAndWhitespace) {
  EXPECT_EQ(this->ok(" null "), "null");
  EXPECT_EQ(this->ok("true"), "true");
  EXPECT_EQ(this->ok("false"), "false");
  EXPECT_EQ(this->ok("\"\""), "\"\"");
  EXPECT_EQ(this->ok("[ ]"), "[]");
  EXPECT_EQ(this->ok("{ }"), "{}");
  EXPECT_EQ(this->ok("[ 1 , [ ] , { } , \"x\" , null ]"), "[1,[],{},\"x\",null]");
  outcome o = this->run("\xef\xbb\xbf[1]");
  EXPECT_EQ(o.res.code, error_code::unexpected_character) << "a BOM is an error without kSkipBom";
  o = this->run("\xef\xbb\xbf[1]", kSkipBom);
  EXPECT_TRUE(o.res.ok());
  EXPECT_EQ(o.text, "[1]");
}

TYPED_TEST(CanonicalizeTest, KeysSortByUtf16CodeUnits) {
  // U+FB33 (EF AC B3) is above U+1F602 (F0 9F 98 82) in UTF-16 (D83D DE02), below it by code point.
  EXPECT_EQ(this->ok("{\"\xef\xac\xb3\":1,\"\xf0\x9f\x98\x82\":2,\"\xe2\x82\xac\":3}"),
            "{\"\xe2\x82\xac\":3,\"\xf0\x9f\x98\x82\":2,\"\xef\xac\xb3\":1}");
  EXPECT_EQ(this->ok(R"({"b":1,"a":2,"10":3,"9":4,"":5,"aa":6})"), R"({"":5,"10":3,"9":4,"a":2,"aa":6,"b":1})");
  // U+D7FF stays below supplementary characters; U+E000 and U+FFFF go above them.
  EXPECT_EQ(this->ok("{\"\xef\xbf\xbf\":1,\"\xee\x80\x80\":2,\"\xf4\x8f\xbf\xbf\":3,\"\xed\x9f\xbf\":4}"),
            "{\"\xed\x9f\xbf\":4,\"\xf4\x8f\xbf\xbf\":3,\"\xee\x80\x80\":2,\"\xef\xbf\xbf\":1}");
  // Escaped keys sort by what they decode to.
  EXPECT_EQ(this->ok(R"({"\u0062":1,"a":2,"\ud83d\ude02":3,"\uFB33":4})"),
            "{\"a\":2,\"b\":1,\"\xf0\x9f\x98\x82\":3,\"\xef\xac\xb3\":4}");
}

TYPED_TEST(CanonicalizeTest, DuplicateKeysKeepTheLastValue) {
  EXPECT_EQ(this->ok(R"({"a":1,"b":2,"a":3})"), R"({"a":3,"b":2})");
  EXPECT_EQ(this->ok(R"({"a":1,"\u0061":2,"a":{"x":[1]},"b":0})"), R"({"a":{"x":[1]},"b":0})");
  EXPECT_EQ(this->ok("{\"\xf0\x9f\x98\x82\":1,\"\\ud83d\\ude02\":2}"), "{\"\xf0\x9f\x98\x82\":2}");
  EXPECT_EQ(this->ok(R"({"z":1,"z":2,"z":3,"y":4,"y":5})"), R"({"y":5,"z":3})");
  // A value that JCS cannot write is no error once a later duplicate replaces it.
  EXPECT_EQ(this->ok(R"({"a":"\ud800","a":1e400,"a":{"\udc00":1},"a":true})"), R"({"a":true})");
}

TYPED_TEST(CanonicalizeTest, NumbersAsEcmascriptWritesThem) {
  EXPECT_EQ(this->ok("[0,-0,0.0,-0.0,1,-1,1.5,1.50,1e2,1E+2,100e-2,0.5e1]"), "[0,0,0,0,1,-1,1.5,1.5,100,100,1,5]");
  EXPECT_EQ(this->ok("[1e21,1e20,999999999999999999999,123456789012345,1234567890123456,12345678901234567890]"),
            "[1e+21,100000000000000000000,1e+21,123456789012345,1234567890123456,12345678901234567000]");
  EXPECT_EQ(this->ok("[0.000001,0.0000001,1e-7,1.5e-7,5e-324,1.7976931348623157e308,0.30000000000000004]"),
            "[0.000001,1e-7,1e-7,1.5e-7,5e-324,1.7976931348623157e+308,0.30000000000000004]");
  EXPECT_EQ(this->ok("[-65.613616999999977,333333333.3333333,9007199254740993,4.35,-0.5]"),
            "[-65.61361699999998,333333333.3333333,9007199254740992,4.35,-0.5]");
}

// canonicalize(value) serializes first: its numbers are Number::toString's already, and
// kNumbersInJsForm copies them unread. What is copied is the text as it stands (1E2 is
// not what the serializer writes; it shows that nothing was read), of any length up to the
// writer's room for a number; longer text is read and written again.
TYPED_TEST(CanonicalizeTest, NumbersInJsFormAreCopiedAsTheyAre) {
  outcome o = this->run(R"({"b":[1.7976931348623157e+308,-1.2345678901234567e-300,5e-324,1E2],"a":-0.5})", kNumbersInJsForm);
  ASSERT_TRUE(o.res.ok());
  EXPECT_EQ(o.text, R"({"a":-0.5,"b":[1.7976931348623157e+308,-1.2345678901234567e-300,5e-324,1E2]})");
  EXPECT_EQ(this->ok("[1E2]"), "[100]");  // without the flag, read and written again
  std::string long_text = "[1." + std::string(60, '5') + "]";
  o = this->run(long_text, kNumbersInJsForm);
  ASSERT_TRUE(o.res.ok());
  EXPECT_EQ(o.text, "[1.5555555555555556]");
}

TYPED_TEST(CanonicalizeTest, StringsAsJsonStringifyEscapesThem) {
  EXPECT_EQ(this->ok(R"(["\/","\"\\","\b\f\n\r\t","\u0000\u001F\u007f","\u0041\u00e9\u20AC"])"),
            "[\"/\",\"\\\"\\\\\",\"\\b\\f\\n\\r\\t\",\"\\u0000\\u001f\x7f\",\"A\xc3\xa9\xe2\x82\xac\"]");
  EXPECT_EQ(this->ok(R"(["\u0022\u005C\u005c\u002f","\u0008\u000C\u000a\u000D\u0009","\uD83D\uDE02"])"),
            "[\"\\\"\\\\\\\\/\",\"\\b\\f\\n\\r\\t\",\"\xf0\x9f\x98\x82\"]");
  // Long strings (several kernel chunks), with and without escapes, raw UTF-8 kept.
  std::string raw(100, 'x');
  raw += "\xc3\xa9\xf0\x9f\x98\x82";
  EXPECT_EQ(this->ok("\"" + raw + "\""), "\"" + raw + "\"");
  EXPECT_EQ(this->ok("\"" + raw + "\\n" + raw + "\\u0041\""), "\"" + raw + "\\n" + raw + "A\"");
  EXPECT_EQ(this->ok(R"({"k\n\u00e9":"v"})"), "{\"k\\n\xc3\xa9\":\"v\"}");
}

TYPED_TEST(CanonicalizeTest, RejectsWhatJcsForbids) {
  for (const char* text : {R"("\ud800")", R"(["a","\udc00"])", R"({"\ud83d":1})", R"({"a":"x\ud83d\u0041"})",
                           R"("\udc00\ud800")"}) {
    outcome o = this->run(text);
    EXPECT_EQ(o.res.code, error_code::jcs_lone_surrogate) << text;
  }
  outcome o = this->run("[1, 1e400]");
  EXPECT_EQ(o.res.code, error_code::jcs_not_finite);
  EXPECT_EQ(o.res.offset, 4u);
  o = this->run(R"({"a":-1e999})");
  EXPECT_EQ(o.res.code, error_code::jcs_not_finite);
}

TYPED_TEST(CanonicalizeTest, SyntaxErrorsAreTheReadersErrors) {
  for (const char* text : {"{\"a\":", "[1,]", "{\"a\" 1}", "01", "\"\\x\"", "[1] x", "", "\xff"}) {
    padded_input in(text);
    byte_stack stack;
    result expected = validate<TypeParam>(in.data(), in.size(), 0, stack);
    outcome o = this->run(text);
    EXPECT_EQ(o.res.code, expected.code) << text;
    EXPECT_EQ(o.res.offset, expected.offset) << text;
  }
}

TYPED_TEST(CanonicalizeTest, DeepNestingWithoutRecursion) {
  const size_t n = 100000;
  std::string arrays = std::string(n, '[') + std::string(n, ']');
  EXPECT_EQ(this->ok(arrays), arrays);
  std::string objects;
  for (size_t i = 0; i < n; ++i) objects += "{\"b\":1,\"a\":";
  objects += "null";
  for (size_t i = 0; i < n; ++i) objects += "}";
  std::string expected;
  for (size_t i = 0; i < n; ++i) expected += "{\"a\":";
  expected += "null";
  for (size_t i = 0; i < n; ++i) expected += ",\"b\":1}";
  EXPECT_EQ(this->ok(objects), expected);
}

TYPED_TEST(CanonicalizeTest, WideObjectsSortInNLogN) {
  const size_t n = 200000;
  std::string text = "{";
  std::vector<std::string> keys;
  for (size_t i = n; i > 0; --i) {
    if (i != n) text += ',';
    std::string k = "k" + std::to_string(i % (n / 2));  // every key twice
    text += "\"" + k + "\":" + std::to_string(i);
    keys.push_back(k);
  }
  text += "}";
  std::sort(keys.begin(), keys.end());
  keys.erase(std::unique(keys.begin(), keys.end()), keys.end());
  std::string expected = "{";
  for (auto& k : keys) {
    if (expected.size() > 1) expected += ',';
    // The last of i and i + n/2 with this key is the smaller i (values count down).
    size_t v = std::stoul(k.substr(1));
    expected += "\"" + k + "\":" + std::to_string(v == 0 ? n / 2 : v);
  }
  expected += "}";
  EXPECT_EQ(this->ok(text), expected);
}

TYPED_TEST(CanonicalizeTest, RepeatedShapesReuseTheirOrderOnlyWhenKeysAreEqual) {
  // The shape cache hashes lengths and first 8 bytes: these keys collide in pairs.
  std::string text = "[";
  std::string expected = "[";
  for (int i = 0; i < 50; ++i) {
    if (i) text += ',', expected += ',';
    switch (i % 5) {
      case 0:
        text += R"({"abcdefghY":1,"abcdefghX":2,"b":3})";
        expected += R"({"abcdefghX":2,"abcdefghY":1,"b":3})";
        break;
      case 1:
        text += R"({"abcdefghZ":1,"abcdefghA":2,"b":3})";
        expected += R"({"abcdefghA":2,"abcdefghZ":1,"b":3})";
        break;
      case 2:  // the same keys as case 0 in the same order, one escaped, and a duplicate
        text += R"({"abcdefghY":1,"abcdefghX":2,"b":3,"abcdefghY":4})";
        expected += R"({"abcdefghX":2,"abcdefghY":4,"b":3})";
        break;
      case 3:  // case 0's keys, another duplicate pattern
        text += R"({"abcdefghY":1,"abcdefghY":2,"b":3,"abcdefghX":4})";
        expected += R"({"abcdefghX":4,"abcdefghY":2,"b":3})";
        break;
      default:
        text += R"({"y":{"b":1,"a":2},"x":[{"b":3,"a":4}]})";
        expected += R"({"x":[{"a":4,"b":3}],"y":{"a":2,"b":1}})";
    }
  }
  text += "]";
  expected += "]";
  EXPECT_EQ(this->ok(text), expected);
  EXPECT_EQ(this->ok(text), expected) << "a second document starts with an empty cache";
}

TYPED_TEST(CanonicalizeTest, RandomDocumentsMatchTheReference) {
  doc_gen gen(20261130);
  size_t lone = 0, infinite = 0;
  for (int doc = 0; doc < 3000; ++doc) {
    size_t budget = 1 + gen.pick(120);
    std::string text = gen.value(0, budget);
    if (doc % 2) text = "[" + text + "," + text + ",[" + text + "]]";  // shapes that repeat
    ref_reader rr{text};
    auto value = rr.value();
    std::string expected;
    uint32_t expected_code = ref_write(expected, *value);
    outcome o = this->run(text);
    if (expected_code != 0) {
      EXPECT_EQ(static_cast<uint32_t>(o.res.code), expected_code) << text;
      (expected_code == static_cast<uint32_t>(error_code::jcs_lone_surrogate) ? lone : infinite)++;
      continue;
    }
    ASSERT_TRUE(o.res.ok()) << text << " -> code " << static_cast<uint32_t>(o.res.code);
    ASSERT_EQ(o.text, expected) << text;
  }
  EXPECT_GT(lone, 0u);
  EXPECT_GT(infinite, 0u);
}

// output_ascii: JS makes the text from bytes without UTF-8 decoding when it is set, so it
// must never be set for output with a byte from 0x80. It may be unset for ASCII output
// (a duplicate key's replaced value held non-ASCII), but not for the plain cases here.
TYPED_TEST(CanonicalizeTest, OutputAsciiIsSetOnlyForAsciiOutput) {
  auto ascii = [](const std::string& t) { return std::all_of(t.begin(), t.end(), [](char c) { return static_cast<uint8_t>(c) < 0x80; }); };
  struct { const char* text; bool ascii; } cases[] = {
      {R"({"b":[1,2.5,"x\n\"",null],"a":true})", true},
      {R"(["\u0041\u007f\u001f\/"])", true},
      {R"({"\u0062":1,"a":2})", true},
      {R"(["\u00e9"])", false},
      {R"({"\u20ac":1})", false},
      {R"(["\ud83d\ude02"])", false},
      {"[\"\xc3\xa9\"]", false},
      {"{\"\xe2\x82\xac\":1}", false},
  };
  for (auto& c : cases) {
    outcome o = this->run(c.text);
    ASSERT_TRUE(o.res.ok()) << c.text;
    EXPECT_EQ(ascii(o.text), c.ascii) << c.text;
    EXPECT_EQ(this->buffers_.output_ascii, c.ascii) << c.text;
  }
  EXPECT_EQ(this->run("[1,").res.ok(), false);
  EXPECT_FALSE(this->buffers_.output_ascii) << "no output";
  EXPECT_EQ(this->run(R"(["\ud800"])").res.code, error_code::jcs_lone_surrogate);
  EXPECT_FALSE(this->buffers_.output_ascii) << "no output";
  doc_gen gen(7);
  size_t set = 0, unset = 0;
  for (int doc = 0; doc < 2000; ++doc) {
    size_t budget = 1 + gen.pick(12);
    std::string text = gen.value(0, budget);
    outcome o = this->run(text);
    if (!o.res.ok()) continue;
    ASSERT_TRUE(!this->buffers_.output_ascii || ascii(o.text)) << text;
    (this->buffers_.output_ascii ? set : unset)++;
  }
  EXPECT_GT(set, 100u);
  EXPECT_GT(unset, 100u);
}

TEST(JcsKeyOrder, MatchesUtf16CodeUnitOrder) {
  static const uint32_t code_points[] = {0x00, 0x41, 0x7F, 0x80, 0xE9, 0x7FF, 0x800, 0x20AC, 0xD7FF, 0xE000,
                                         0xFB33, 0xFFFD, 0xFFFF, 0x10000, 0x1F602, 0x10FFFF};
  std::mt19937 rng(5);
  auto utf8 = [](const std::u32string& s) {
    std::string out;
    for (uint32_t cp : s) {
      uint8_t buf[4];
      out.append(reinterpret_cast<char*>(buf), detail::put_utf8(buf, cp) - buf);
    }
    return out;
  };
  auto utf16 = [](const std::u32string& s) {
    std::u16string out;
    for (uint32_t cp : s) {
      if (cp >= 0x10000) {
        out += static_cast<char16_t>(0xD800 + ((cp - 0x10000) >> 10));
        out += static_cast<char16_t>(0xDC00 + ((cp - 0x10000) & 0x3FF));
      } else {
        out += static_cast<char16_t>(cp);
      }
    }
    return out;
  };
  for (int t = 0; t < 200000; ++t) {
    std::u32string a, b;
    for (size_t n = rng() % 12; n > 0; --n) a += code_points[rng() % 16];
    b = a.substr(0, rng() % (a.size() + 1));  // often a common prefix
    for (size_t n = rng() % 12; n > 0; --n) b += code_points[rng() % 16];
    std::string a8 = utf8(a), b8 = utf8(b);
    padded_input pa(a8), pb(b8);
    int got = compare_utf16_order(pa.data(), pa.size(), pb.data(), pb.size());
    int want = utf16(a).compare(utf16(b));
    ASSERT_EQ(got < 0 ? -1 : got > 0, want < 0 ? -1 : want > 0);
    // The 8-byte prefixes order keys wherever they differ, and equal short keys are equal.
    uint64_t xa = utf16_order_prefix(pa.data(), pa.size()), xb = utf16_order_prefix(pb.data(), pb.size());
    if (xa != xb) ASSERT_EQ(xa < xb, want < 0);
    else if (pa.size() <= 8 && pb.size() <= 8) ASSERT_EQ(pa.size() == pb.size(), want == 0);
  }
}

TEST(JcsNumber, FastPathAgreesWithReadingAndWriting) {
  std::mt19937 rng(11);
  auto digits = [&](size_t n) {
    std::string s;
    for (size_t i = 0; i < n; ++i) s += static_cast<char>('0' + rng() % 10);
    return s;
  };
  for (int t = 0; t < 300000; ++t) {
    std::string text = rng() % 3 == 0 ? "-" : "";
    std::string int_part = rng() % 4 == 0 ? "0" : std::to_string(1 + rng() % 9) + digits(rng() % 20);
    text += int_part;
    if (rng() % 3) text += "." + std::string(rng() % 3 == 0 ? rng() % 9 : 0, '0') + digits(1 + rng() % 17);
    if (rng() % 8 == 0) text += (rng() % 2 ? "e" : "E") + std::to_string(static_cast<int>(rng() % 40) - 20);
    if (rng() % 50 == 0) text = rng() % 2 ? "-0" : "-0.0";
    padded_input in(text);
    uint8_t got[kMaxNumberLength + 16], want[kMaxNumberLength + 16];
    bool is_integer = text.find_first_of(".eE") == std::string::npos;
    jcs_number_form form = classify_jcs_number(in.data(), in.data() + in.size(), is_integer);
    uint8_t* g = write_jcs_number(got, in.data(), in.data() + in.size(), form);
    ASSERT_NE(g, nullptr) << text;
    uint8_t* w = write_number(want, std::strtod(text.c_str(), nullptr));
    ASSERT_EQ(std::string(reinterpret_cast<char*>(got), g - got), std::string(reinterpret_cast<char*>(want), w - want))
        << text;
  }
}
