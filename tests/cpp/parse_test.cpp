// parse() -> tape over every kernel: entries, numbers, unescaping, key and shape
// interning, number-array packing, and identical tapes from every kernel.
#include <bit>
#include <cmath>
#include <cstring>
#include <cstdlib>
#include <random>
#include <string>
#include <vector>

#include "core/padded_input.h"
#include "core/parse.h"
#include "kernels.h"
#include "shared_files.h"

using namespace wasmjson;
namespace ts = wasmjson::testing_support;

struct parsed {
  result res;
  std::vector<uint32_t> words;
  std::vector<double> numbers;
  std::u16string utf16;
  std::string heap;
  std::vector<uint32_t> heap_pieces;
};

// One parser's state (stack, buffers, key and shape tables), as the wasm boundary keeps it.
template <class K>
struct parser_state {
  parsed run(std::string_view text, uint32_t flags = kSkipBom) {
    padded_input in(text);
    parsed p;
    p.res = parse<K>(in.data(), in.size(), flags, stack_, tape_, keys_, shapes_);
    p.words.assign(tape_.words.data(), tape_.words.data() + tape_.words.size());
    p.numbers.assign(tape_.numbers.data(), tape_.numbers.data() + tape_.numbers.size());
    p.utf16.assign(reinterpret_cast<const char16_t*>(tape_.utf16.data()), tape_.utf16.size());
    p.heap.assign(reinterpret_cast<const char*>(tape_.heap.data()), tape_.heap.size());
    p.heap_pieces.assign(tape_.heap_pieces.data(), tape_.heap_pieces.data() + tape_.heap_pieces.size());
    return p;
  }
  byte_stack stack_;
  tape_buffers tape_;
  key_table keys_;
  shape_table shapes_;
};

template <class K>
class ParseTest : public ::testing::Test, protected parser_state<K> {};
TYPED_TEST_SUITE(ParseTest, AllKernels, KernelNames);

using tape::word;

TYPED_TEST(ParseTest, TapeOfASmallDocument) {
  parsed p = this->run(R"({"a":[1,"x",true,null,false,-2.5],"b":"y\n"})");
  ASSERT_TRUE(p.res.ok());
  std::vector<uint32_t> expected = {
      word(tape::kObjectBegin, 2),   // the shape, as at the end
      word(tape::kKeyNew, 0), 2, 3,  // "a" at UTF-16 [2, 3)
      word(tape::kArrayBegin),
      word(tape::kDouble),  // numbers before an array's first other value: doubles
      word(tape::kString), 9, 10,
      word(tape::kTrue),
      word(tape::kNull),
      word(tape::kFalse),
      word(tape::kDouble),
      word(tape::kArrayEnd),
      word(tape::kKeyNew, 1), 35, 36,
      word(tape::kStringEsc), 0 | tape::kAsciiText, 2, 39, 42,  // ASCII: heap [0, 2), source [39, 42)
      word(tape::kObjectEnd, 2),             // shape {a, b}: the trie's second node
  };
  EXPECT_EQ(p.words, expected);
  EXPECT_EQ(p.numbers, (std::vector<double>{1, -2.5}));
  EXPECT_EQ(p.heap, "y\n");
  EXPECT_EQ(p.utf16, u"");
}

// Without a string heap, escaped strings and new keys whose decoded text is ASCII are
// decoded into the heap as bytes (begin marked kAsciiText); the others into UTF-16 units,
// including those that turn out not to be ASCII only after some ASCII was decoded.
TYPED_TEST(ParseTest, EscapedAsciiTextIsDecodedIntoTheHeap) {
  parsed p = this->run(R"({"k\t":["a\nb","\u00e9","\u0041\/","x\u0080","é\n","\"\\"]})", 0);
  ASSERT_TRUE(p.res.ok());
  EXPECT_EQ(p.heap, "k\ta\nbA/\"\\");
  EXPECT_EQ(p.utf16, u"\u00e9x\u0080\u00e9\n");
  EXPECT_EQ(this->tape_.heap_units, p.heap.size());
  std::vector<uint32_t> expected = {
      word(tape::kObjectBegin, 1),
      word(tape::kKeyNewEsc, 0), 0 | tape::kAsciiText, 2, 2, 5,
      word(tape::kArrayBegin),
      word(tape::kStringEsc), 2 | tape::kAsciiText, 5, 9, 13,
      word(tape::kStringEsc), 0, 1, 16, 22,
      word(tape::kStringEsc), 5 | tape::kAsciiText, 7, 25, 33,
      word(tape::kStringEsc), 1, 3, 36, 43,
      word(tape::kStringEsc), 3, 5, 46, 49,
      word(tape::kStringEsc), 7 | tape::kAsciiText, 9, 52, 56,
      word(tape::kArrayEnd),
      word(tape::kObjectEnd, 1),
  };
  EXPECT_EQ(p.words, expected);
  // A string heap takes the ASCII ones as plain strings instead; nothing is marked.
  parsed h = this->run(R"(["a\nb","\u00e9"])", kStringHeap);
  ASSERT_TRUE(h.res.ok());
  EXPECT_EQ(h.words[1], word(tape::kString));
  EXPECT_EQ(h.words[4], word(tape::kStringEsc));
  EXPECT_EQ(h.words[5], 0u);
}

TYPED_TEST(ParseTest, KeysAndShapesAreInternedAcrossDocuments) {
  parsed first = this->run(R"([{"id":1,"name":"a"},{"id":2,"name":"b"},{"name":"c","id":3}])");
  ASSERT_TRUE(first.res.ok());
  parsed second = this->run(R"({"id":7,"name":"z"})");
  ASSERT_TRUE(second.res.ok());
  // Known keys now come as kKey with their ids; the shape is the one seen first.
  EXPECT_EQ(second.words[1], word(tape::kKey, 0));
  EXPECT_EQ(second.words[3], word(tape::kKey, 1));
  std::vector<uint32_t> shapes;
  for (uint32_t w : first.words)
    if ((w & tape::kTagMask) == tape::kObjectEnd) shapes.push_back(w >> tape::kTagBits);
  ASSERT_EQ(shapes.size(), 3u);
  EXPECT_NE(shapes[0], 0u);
  EXPECT_EQ(shapes[0], shapes[1]);
  EXPECT_NE(shapes[0], shapes[2]);  // same keys in another order: another shape
  EXPECT_EQ(second.words.back(), word(tape::kObjectEnd, shapes[0]));
  // Every object's begin word carries the shape its end word has (nested ones too).
  parsed nested = this->run(R"([{"a":{"b":1},"c":[{"d":2}]},{"a":{"b":3},"c":[]},{"x":{}}])");
  ASSERT_TRUE(nested.res.ok());
  std::vector<uint32_t> open;
  size_t objects = 0;
  for (size_t i = 0; i < nested.words.size(); ++i) {
    uint32_t w = nested.words[i], t = w & tape::kTagMask;
    if (t == tape::kObjectBegin) open.push_back(w >> tape::kTagBits);
    if (t == tape::kObjectEnd) {
      ASSERT_FALSE(open.empty());
      EXPECT_EQ(open.back(), w >> tape::kTagBits) << "object " << objects;
      open.pop_back();
      ++objects;
    }
    if (t == tape::kKeyNew || t == tape::kString) i += 2;
  }
  EXPECT_EQ(objects, 7u);
}

// A shape predicts the bytes of the key that last followed it: a key differing from the
// prediction in any one byte, or in length, must get its own id, at every length around
// the word boundaries (keys of up to 15 bytes are compared as two words with their
// closing quote, longer ones word by word against the key table's copy).
TYPED_TEST(ParseTest, PredictedKeysMatchEveryByte) {
  auto key_word = [](const parsed& p) { return p.words.at(1); };
  for (size_t len = 0; len <= 40; ++len) {
    std::string base;
    for (size_t i = 0; i < len; ++i) base += static_cast<char>('a' + i % 26);
    std::vector<std::string> others;
    for (size_t j = 0; j < len; ++j) others.push_back(base.substr(0, j) + 'Z' + base.substr(j + 1));
    others.push_back(base + "a");
    if (len > 0) others.push_back(base.substr(0, len - 1));
    for (const std::string& other : others) {
      parser_state<TypeParam> st;
      parsed first = st.run("{\"" + base + "\":1}");
      ASSERT_TRUE(first.res.ok());
      ASSERT_EQ(key_word(first), word(tape::kKeyNew, 0));
      parsed again = st.run("{\"" + base + "\":2}");  // predicted: same id
      ASSERT_EQ(key_word(again), word(tape::kKey, 0)) << "len " << len;
      parsed differs = st.run("{\"" + other + "\":3}");
      ASSERT_TRUE(differs.res.ok());
      EXPECT_EQ(key_word(differs), word(tape::kKeyNew, 1)) << '"' << base << "\" vs \"" << other << '"';
      parsed back = st.run("{\"" + base + "\":4}");
      EXPECT_EQ(key_word(back), word(tape::kKey, 0)) << '"' << base << "\" after \"" << other << '"';
      EXPECT_EQ(back.words.back(), first.words.back());  // the same shape
    }
  }
}

// Keys the reader skips on a prediction (key_ahead) behave as keys read in full: escaped
// keys, whitespace before the colon, values' UTF-16 positions after them, and inputs
// that end inside or right after such a key (the same error as validate()).
TYPED_TEST(ParseTest, RecognisedKeysReadLikeScannedKeys) {
  for (std::string key : {"id", "a\\\"b", "tab\\t", "x\\\\", "fifteen_bytes__", "sixteen_bytes___",
                          "a_key_of_twenty_eight_bytes_", "long_key_ending_in_an_escape\\\\", "caf\xc3\xa9"}) {
    parser_state<TypeParam> st;
    std::string doc = "{\"" + key + "\" : \"v\", \"" + key + "\":\"w\"}";
    parsed first = st.run(doc);
    ASSERT_TRUE(first.res.ok()) << doc;
    parsed second = st.run(doc);  // both keys now predicted
    ASSERT_TRUE(second.res.ok()) << doc;
    EXPECT_EQ(second.words[1], word(tape::kKey, 0)) << doc;
    // Same tape but for the key entries: the strings' positions match.
    // (UTF-16 offsets: continuation bytes add no unit.)
    auto units_before = [&](size_t byte) {
      size_t n = 0;
      for (size_t i = 0; i < byte; ++i) n += (static_cast<uint8_t>(doc[i]) & 0xC0) != 0x80;
      return n;
    };
    size_t v1 = units_before(doc.find("\"v\"") + 1), v2 = units_before(doc.find("\"w\"") + 1);
    EXPECT_EQ(second.words[2], word(tape::kString)) << doc;
    EXPECT_EQ(second.words[3], v1) << doc;
    EXPECT_EQ(second.words[5], word(tape::kKey, 0)) << doc;
    EXPECT_EQ(second.words[7], v2) << doc;
    std::string bare = "{\"" + key;
    for (const std::string& bad : {bare, bare + "\"", bare + "\" ", bare + "\":", bare + "\"}", bare + "x\":1}"}) {
      parsed p = st.run(bad);
      byte_stack s;
      padded_input in(bad);
      result v = validate<TypeParam>(in.data(), in.size(), kSkipBom, s);
      EXPECT_EQ(p.res.code, v.code) << bad;
      EXPECT_EQ(p.res.offset, v.offset) << bad;
      st.run(doc);  // a failed parse forgets every key: predict them again
    }
  }
}

// The keys of a parse read as raw bytes: from each key entry's id (learned from earlier
// kKeyNew entries, as JS keeps them) or its own range. Byte offsets (kByteOffsets).
std::vector<std::string> key_bytes_of(const parsed& p, std::string_view doc, std::vector<std::string>& by_id) {
  std::vector<std::string> keys;
  for (size_t i = 0; i < p.words.size();) {
    uint32_t w = p.words[i], tag = w & tape::kTagMask, id = w >> tape::kTagBits;
    if (tag == tape::kKey) keys.push_back(by_id.at(id));
    if (tag == tape::kKeyNew || tag == tape::kKeyNewEsc) {
      size_t b = p.words[i + (tag == tape::kKeyNew ? 1 : 3)], e = p.words[i + (tag == tape::kKeyNew ? 2 : 4)];
      keys.emplace_back(doc.substr(b, e - b));
      if (id != tape::kNoId) {
        if (id >= by_id.size()) by_id.resize(id + 1);
        by_id[id] = keys.back();
      }
    }
    i += tape::entry_words(w);
  }
  return keys;
}

// First keys are predicted per context (the key an object is the value of, or its
// array's context), the others per shape. Documents whose objects of several kinds
// alternate, share first keys or prefixes, and a failed parse (which forgets every key
// and shape) in between: every key entry stands for the key at that place.
TYPED_TEST(ParseTest, PredictedKeysAcrossDocumentsAndContexts) {
  const char* docs[] = {
      R"([{"type":1,"user":{"id":2,"name":"a"},"payload":{"v":3}},{"type":1,"user":{"id":4,"name":"b"},"payload":{"v":5}}])",
      R"({"user":{"id":1},"payload":{"id":2},"type":{"v":3}})",
      R"([{"type":1,"user":{"idx":2},"payload":{"v":3,"id":4}},[{"v":1},{"va":2}],{"a_key_long_enough_to_be_kept":{"id":1}}])",
      R"({"user":{"id":1,"name":"c"},"payload":{"id)",  // fails: every key forgotten
      R"([{"payload":{"v":3},"type":1,"user":{"id":2,"name":"a"}},{"a_key_long_enough_to_be_kept":{"idx":1}}])",
      R"([{"type":1,"user":{"id":2,"name":"a"},"payload":{"v":3}},{"type":{"user":{"payload":{}}}}])",
  };
  std::vector<std::string> by_id;
  for (int round = 0; round < 3; ++round) {
    for (const char* doc : docs) {
      parsed p = this->run(doc, uint32_t{kSkipBom} | kByteOffsets);
      parsed plain = parser_state<TypeParam>{}.run(doc, uint32_t{kSkipBom} | kByteOffsets | kNoKeyInterning);
      ASSERT_EQ(p.res.code, plain.res.code) << doc;
      if (!p.res.ok()) {
        // As the wasm boundary does after a failed parse (exports_parse.cpp).
        this->keys_.reset();
        this->shapes_.reset();
        by_id.clear();
        continue;
      }
      std::vector<std::string> none;
      EXPECT_EQ(key_bytes_of(p, doc, by_id), key_bytes_of(plain, doc, none)) << doc;
    }
  }
}

TYPED_TEST(ParseTest, KeyInterningCanBeTurnedOff) {
  parsed p = this->run(R"({"k":1})", kNoKeyInterning);
  ASSERT_TRUE(p.res.ok());
  EXPECT_EQ(p.words[1], word(tape::kKeyNew, tape::kNoId));
  EXPECT_EQ(p.words.back(), word(tape::kObjectEnd, 0));
  EXPECT_EQ(p.words[0], word(tape::kObjectBegin, 0));
}

TYPED_TEST(ParseTest, NumberArraysArePackedInOrder) {
  parsed p = this->run("[[1, -2.5, 3, 1e400, -0, 4], [], [1, \"x\"]]");
  ASSERT_TRUE(p.res.ok());
  ASSERT_EQ(p.words[1], word(tape::kNumberArray));
  EXPECT_EQ(p.words[2], 6u);
  ASSERT_EQ(p.numbers.size(), 7u);
  EXPECT_EQ(p.numbers[0], 1);
  EXPECT_EQ(p.numbers[1], -2.5);
  EXPECT_EQ(p.numbers[2], 3);
  EXPECT_TRUE(std::isinf(p.numbers[3]));
  EXPECT_TRUE(p.numbers[4] == 0 && std::signbit(p.numbers[4]));
  EXPECT_EQ(p.numbers[5], 4);
  // An empty array is an array of no numbers; a mixed one stays ordinary.
  EXPECT_EQ(p.words[3], word(tape::kNumberArray));
  EXPECT_EQ(p.words[4], 0u);
  EXPECT_EQ(p.words[5], word(tape::kArrayBegin));
  EXPECT_EQ(p.words[6], word(tape::kDouble));
  EXPECT_EQ(p.words[7], word(tape::kString));
  EXPECT_EQ(p.numbers[6], 1);
  // In a mixed array, the numbers before its first other value (a string, a nested
  // container) become kDouble entries, in order; numbers after it are ordinary entries.
  parsed m = this->run("[[7, -0, 2.5, [8, 9], 3, \"y\"], 5]");
  ASSERT_TRUE(m.res.ok());
  std::vector<uint32_t> expected = {
      word(tape::kArrayBegin),
      word(tape::kArrayBegin),
      word(tape::kDouble), word(tape::kDouble), word(tape::kDouble),
      word(tape::kNumberArray), 2,
      word(tape::kInt, 3),
      word(tape::kString), 26, 27,
      word(tape::kArrayEnd),
      word(tape::kInt, 5),
      word(tape::kArrayEnd),
  };
  EXPECT_EQ(m.words, expected);
  ASSERT_EQ(m.numbers.size(), 5u);
  EXPECT_EQ(m.numbers[0], 7);
  EXPECT_TRUE(m.numbers[1] == 0 && std::signbit(m.numbers[1]));
  EXPECT_EQ(m.numbers[2], 2.5);
  EXPECT_EQ(m.numbers[3], 8);
  EXPECT_EQ(m.numbers[4], 9);
  // With source ranges (revivers) nothing is packed.
  parsed s = this->run("[1,2]", kWithSource);
  EXPECT_EQ(s.words[0], word(tape::kArrayBegin));
  EXPECT_EQ(s.words[1], word(tape::kInt, 1));
  EXPECT_EQ(s.words[2], 1u);  // source [1, 2)
  EXPECT_EQ(s.words[3], 2u);
}

// kBigIntsUnsafe / kBigIntsAll: integer literals beyond ±(2^53 - 1), or all of them, go
// to JS as text (kDouble with kIntegerText, a range like kString's); fractions and
// exponents stay doubles. In an array of numbers they end its packing like a string.
TYPED_TEST(ParseTest, IntegerLiteralsAsTextForBigInts) {
  const std::string doc = "[1, 9007199254740991, 9007199254740992, -12345678901234567890, 2.5, 1e30, -0]";
  auto range_of = [&](std::string_view lit) {
    size_t b = doc.find(lit);
    return std::pair<uint32_t, uint32_t>(static_cast<uint32_t>(b), static_cast<uint32_t>(b + lit.size()));
  };
  auto [b1, e1] = range_of("9007199254740992");
  auto [b2, e2] = range_of("-12345678901234567890");
  parsed p = this->run(doc, uint32_t{kSkipBom} | kBigIntsUnsafe);
  ASSERT_TRUE(p.res.ok());
  const uint32_t text = word(tape::kDouble, tape::kIntegerText);
  std::vector<uint32_t> expected = {
      word(tape::kArrayBegin),
      word(tape::kDouble), word(tape::kDouble),  // 1 and 2^53 - 1: safe, packed until the first text
      text, b1, e1,
      text, b2, e2,
      word(tape::kDouble),  // 2.5
      word(tape::kDouble),  // 1e30: an exponent, so a number
      word(tape::kDouble),  // -0
      word(tape::kArrayEnd),
  };
  EXPECT_EQ(p.words, expected);
  ASSERT_EQ(p.numbers.size(), 5u);
  EXPECT_EQ(p.numbers[1], 9007199254740991.0);
  EXPECT_EQ(p.numbers[2], 2.5);
  // All integers: the small ones too (and -0, which has no BigInt of its own sign).
  parsed all = this->run("[1,-0,2.5]", uint32_t{kSkipBom} | kBigIntsAll);
  ASSERT_TRUE(all.res.ok());
  EXPECT_EQ(all.words, (std::vector<uint32_t>{word(tape::kArrayBegin), text, 1, 2, text, 3, 5, word(tape::kDouble), word(tape::kArrayEnd)}));
  // With a string heap, the digits are in the heap like a string's (bytes input).
  parsed heap = this->run("{\"id\":12345678901234567890}", uint32_t{kSkipBom} | kBigIntsUnsafe | kStringHeap);
  ASSERT_TRUE(heap.res.ok());
  EXPECT_EQ(heap.words[4], text);
  EXPECT_EQ(heap.heap.substr(heap.words[5], heap.words[6] - heap.words[5]), "12345678901234567890");
  // With source ranges (revivers) the two source words follow, and entry_words skips
  // only the entry itself.
  parsed src = this->run("[12345678901234567890]", uint32_t{kSkipBom} | kBigIntsUnsafe | kWithSource);
  ASSERT_TRUE(src.res.ok());
  EXPECT_EQ(src.words, (std::vector<uint32_t>{word(tape::kArrayBegin), text, 1, 21, 1, 21, word(tape::kArrayEnd)}));
  EXPECT_EQ(tape::entry_words(text), 3u);
  // Without the flags nothing changes.
  parsed plain = this->run("[12345678901234567890]");
  EXPECT_EQ(plain.words, (std::vector<uint32_t>{word(tape::kNumberArray), 1}));
}

// Literals join the numbers of an array of scalars (kScalarArray, literals NaN-boxed);
// when the array turns out to hold something else, they get their own entries back and
// leave the numbers array.
TYPED_TEST(ParseTest, ScalarArraysHoldLiteralsAmongNumbers) {
  auto bits = [](double d) { return std::bit_cast<uint64_t>(d); };
  parsed p = this->run("[[true, 1.5, null, false], [null], [2, 3]]");
  ASSERT_TRUE(p.res.ok());
  std::vector<uint32_t> expected = {
      word(tape::kArrayBegin),
      word(tape::kScalarArray), 4,
      word(tape::kScalarArray), 1,
      word(tape::kNumberArray), 2,  // numbers only: no literal to look for
      word(tape::kArrayEnd),
  };
  EXPECT_EQ(p.words, expected);
  ASSERT_EQ(p.numbers.size(), 7u);
  EXPECT_EQ(bits(p.numbers[0]), tape::literal_bits(tape::kTrue));
  EXPECT_EQ(p.numbers[1], 1.5);
  EXPECT_EQ(bits(p.numbers[2]), tape::literal_bits(tape::kNull));
  EXPECT_EQ(bits(p.numbers[3]), tape::literal_bits(tape::kFalse));
  EXPECT_EQ(bits(p.numbers[4]), tape::literal_bits(tape::kNull));
  EXPECT_EQ(p.numbers[5], 2);
  for (double d : p.numbers) {
    int literal = tape::literal_of(d);
    EXPECT_EQ(literal >= 0, std::isnan(d));  // literals are the only NaNs
  }

  parsed m = this->run("[1, true, -0, null, \"s\", false, 2]");
  ASSERT_TRUE(m.res.ok());
  std::vector<uint32_t> mixed = {
      word(tape::kArrayBegin),
      word(tape::kDouble), word(tape::kTrue), word(tape::kDouble), word(tape::kNull),
      word(tape::kString), 21, 22,
      word(tape::kFalse),
      word(tape::kInt, 2),
      word(tape::kArrayEnd),
  };
  EXPECT_EQ(m.words, mixed);
  ASSERT_EQ(m.numbers.size(), 2u);  // the literals left it
  EXPECT_EQ(m.numbers[0], 1);
  EXPECT_TRUE(m.numbers[1] == 0 && std::signbit(m.numbers[1]));
  // Numbers of an enclosing array stay where they were when an inner array gives its
  // literals back.
  parsed n = this->run("[0.5, [true, 7, {}], 8]");
  ASSERT_TRUE(n.res.ok());
  ASSERT_EQ(n.numbers.size(), 2u);
  EXPECT_EQ(n.numbers[0], 0.5);
  EXPECT_EQ(n.numbers[1], 7);
}

TYPED_TEST(ParseTest, NumbersRoundLikeStrtod) {
  std::mt19937_64 rng(7);
  for (int i = 0; i < 20000; ++i) {
    std::string s;
    if (rng() % 4 == 0) s += '-';
    int int_digits = 1 + rng() % 20;
    s += static_cast<char>('1' + rng() % 9);
    for (int d = 1; d < int_digits; ++d) s += static_cast<char>('0' + rng() % 10);
    if (rng() % 2) {
      s += '.';
      int frac = 1 + rng() % 20;
      for (int d = 0; d < frac; ++d) s += static_cast<char>('0' + rng() % 10);
    }
    if (rng() % 2) s += "e" + std::to_string(static_cast<int>(rng() % 660) - 330);
    parsed p = this->run("[" + s + "]", kWithSource);  // unpacked: one kInt/kDouble entry
    ASSERT_TRUE(p.res.ok()) << s;
    double expected = std::strtod(s.c_str(), nullptr);
    uint32_t w = p.words[1];
    double got = (w & tape::kTagMask) == tape::kInt ? static_cast<int32_t>(w) >> tape::kTagBits : p.numbers.at(0);
    ASSERT_EQ(std::signbit(got), std::signbit(expected)) << s;
    if (std::isinf(expected)) ASSERT_TRUE(std::isinf(got)) << s;
    else ASSERT_EQ(got, expected) << s;
  }
}

// The reader hands number_value where the integer and fraction digits end; every shape
// (a lone 0 integer part, leading zeros in the fraction, 19 and 20 significant digits,
// E, +, exponents of 1-8 digits) at every alignment to the kernel's chunk.
TYPED_TEST(ParseTest, NumberShapesRoundLikeStrtod) {
  std::vector<std::string> texts = {
      "0.1234567890123456789", "0.12345678901234567891", "1234567890123456789", "12345678901234567890",
      "9999999999999999999", "99999999999999999999", "1234567890.123456789", "1234567890.1234567891",
      "0.000000000000000000001234567890123456789", "0.0000000000000000000012345678901234567891", "18446744073709551615",
      "18446744073709551616", "1E+007", "1e-0000007", "1e000000308", "1e0000309", "5e-000324", "1.5E-000000001",
      "123456.78e-3", "0.5e+22", "9007199254740993e0", "9007199254740992.5", "12345678", "123456789", "1234567812345678",
      "12345678123456781", "0.12345678", "0.123456781234567812", "-0.0e0", "-0E-400", "1e-22", "1e22", "1e23", "4e-23"};
  std::mt19937_64 rng(11);
  for (int i = 0; i < 20000; ++i) {
    std::string s = rng() % 4 == 0 ? "-" : "";
    if (rng() % 3 == 0) {
      s += '0';
    } else {
      s += static_cast<char>('1' + rng() % 9);
      for (int d = static_cast<int>(rng() % 20); d > 0; --d) s += static_cast<char>('0' + rng() % 10);
    }
    if (rng() % 3 != 0) {
      s += '.';
      for (int z = static_cast<int>(rng() % 4 == 0 ? rng() % 25 : 0); z > 0; --z) s += '0';
      for (int d = 1 + static_cast<int>(rng() % 21); d > 0; --d) s += static_cast<char>('0' + rng() % 10);
    }
    if (rng() % 2) {
      s += rng() % 2 ? 'e' : 'E';
      int sign = static_cast<int>(rng() % 3);
      int x = static_cast<int>(rng() % 340);
      if (sign == 1) s += '-';
      if (sign == 2) s += '+';
      s += std::string(rng() % 4 == 0 ? rng() % 6 : 0, '0') + std::to_string(x);
    }
    texts.push_back(s);
  }
  for (size_t i = 0; i < texts.size(); ++i) {
    const std::string& s = texts[i];
    std::string doc = std::string(i % 67, ' ') + "[" + s + "]";
    parsed p = this->run(doc, kWithSource);  // unpacked: one kInt/kDouble entry
    ASSERT_TRUE(p.res.ok()) << s;
    double expected = std::strtod(s.c_str(), nullptr);
    uint32_t w = p.words[1];
    double got = (w & tape::kTagMask) == tape::kInt ? static_cast<int32_t>(w) >> tape::kTagBits : p.numbers.at(0);
    uint64_t a, b;
    std::memcpy(&a, &expected, 8);
    std::memcpy(&b, &got, 8);
    ASSERT_EQ(a, b) << s << ": strtod " << expected << ", parsed " << got;
  }
}

// Integer literals of up to 15 digits are read as integers: those in [kIntMin, kIntMax]
// travel in their word, the rest (and -0, and any number written with a fraction or an
// exponent, even 1.0) as doubles, each with the value strtod gives.
TYPED_TEST(ParseTest, IntegerWordsHoldExactlyTheSmallIntegers) {
  struct expect {
    const char* text;
    bool word;
  };
  const expect cases[] = {{"0", true},          {"-0", false},         {"7", true},
                          {"-7", true},         {"134217727", true},   {"134217728", false},
                          {"-134217728", true}, {"-134217729", false}, {"999999999", false},
                          {"-999999999", false}, {"12345678", true},   {"-12345678", true},
                          {"999999999999999", false}, {"-999999999999999", false}, {"1234567890123456", false},
                          {"1.0", false},       {"1e2", false},        {"-0.0", false},
                          {"10E0", false}};
  for (const expect& c : cases) {
    // In an object (arrays of numbers only hold doubles), then after a string in an array.
    for (std::string doc : {std::string(R"({"n":)") + c.text + "}", std::string(R"(["s",)") + c.text + "]"}) {
      parsed p = this->run(doc, 0);
      ASSERT_TRUE(p.res.ok()) << doc;
      // The number's entry: the one word tagged kInt or kDouble (ranges follow their tags).
      uint32_t w = 0;
      for (size_t i = 0; i < p.words.size(); ++i) {
        uint32_t t = p.words[i] & tape::kTagMask;
        if (t == tape::kKeyNew || t == tape::kString) i += 2;
        else if (t == tape::kInt || t == tape::kDouble) w = p.words[i];
      }
      double expected = std::strtod(c.text, nullptr);
      if (c.word) {
        ASSERT_EQ(w & tape::kTagMask, uint32_t{tape::kInt}) << doc;
        EXPECT_EQ(static_cast<int32_t>(w) >> tape::kTagBits, expected) << doc;
      } else {
        ASSERT_EQ(w & tape::kTagMask, uint32_t{tape::kDouble}) << doc;
        ASSERT_EQ(p.numbers.size(), 1u) << doc;
        double got = p.numbers.at(0);
        EXPECT_EQ(std::memcmp(&got, &expected, 8), 0) << doc << ": " << got;
      }
    }
  }
}

// With kStringHeap, strings and new keys without escapes are copied to the heap, back to
// back, and their tape ranges count UTF-16 units of the heap's text (astral characters:
// two units); so are escaped ones whose decoded text is ASCII, decoded, as plain entries;
// other escaped ones stay in the UTF-16 side buffer; known keys are one word.
TYPED_TEST(ParseTest, StringHeapHoldsStringsWithoutEscapes) {
  std::string long_text(100, 'x');
  std::string doc = R"({"k\u00e9":"a\nb","name":"é😀z","long":")" + long_text + R"(","arr":["", "q"]})";
  parsed p = this->run(doc, uint32_t{kSkipBom} | kStringHeap);
  ASSERT_TRUE(p.res.ok());
  EXPECT_EQ(p.heap, "a\nb" "name" "é😀z" "long" + long_text + "arr" "" "q");
  std::vector<uint32_t> expected = {
      word(tape::kObjectBegin, 4),
      word(tape::kKeyNewEsc, 0), 0, 2, 2, 9,   // "ké": side buffer [0, 2), source
      word(tape::kString), 0, 3,               // "a\nb", decoded: heap text [0, 3)
      word(tape::kKeyNew, 1), 3, 7,            // "name"
      word(tape::kString), 7, 11,              // "é😀z": 4 units
      word(tape::kKeyNew, 2), 11, 15,          // "long"
      word(tape::kString), 15, 115,
      word(tape::kKeyNew, 3), 115, 118,        // "arr"
      word(tape::kArrayBegin),
      word(tape::kString), 118, 118,           // ""
      word(tape::kString), 118, 119,           // "q"
      word(tape::kArrayEnd),
      word(tape::kObjectEnd, 4),
  };
  EXPECT_EQ(p.words, expected);
  EXPECT_EQ(p.utf16, (std::u16string{u"k\u00e9"}));
  // Known keys copy nothing.
  parsed again = this->run(R"({"name":"b"})", uint32_t{kSkipBom} | kStringHeap);
  ASSERT_TRUE(again.res.ok());
  EXPECT_EQ(again.heap, "b");
  EXPECT_EQ(again.words[1], word(tape::kKey, 1));
  // Ignored with source ranges and with byte offsets: ranges index the document.
  for (uint32_t flags : {uint32_t{kSkipBom} | kStringHeap | kWithSource, uint32_t{kSkipBom} | kStringHeap | kByteOffsets}) {
    parsed q = this->run(R"(["ab"])", flags);
    ASSERT_TRUE(q.res.ok());
    EXPECT_EQ(q.heap, "");
    EXPECT_EQ(q.words[1], word(tape::kString));
    EXPECT_EQ(q.words[2], 2u);
    EXPECT_EQ(q.words[3], 4u);
  }
}

// The heap is read in pieces: a string that starts kHeapPieceBytes or more past the
// current piece's start begins the next piece, with a marker on the tape before its
// entry; string ranges count UTF-16 units from their piece's start.
TYPED_TEST(ParseTest, StringHeapPieces) {
  std::string big(kHeapPieceBytes - 10, 'x');   // piece 0 ends after the next string
  std::string wide = "é" + std::string(kHeapPieceBytes, 'y');  // a piece of its own
  std::string doc = R"([")" + big + R"(", "0123456789ab", "é\n", "\u0041\t", ")" + wide + R"(", {"kk": "z"}])";
  parsed p = this->run(doc, uint32_t{kSkipBom} | kStringHeap);
  ASSERT_TRUE(p.res.ok());
  uint32_t piece1 = static_cast<uint32_t>(big.size() + 12);
  uint32_t piece2 = piece1 + 2;  // "A\t": escaped, ASCII decoded; "é\n" stays UTF-16
  EXPECT_EQ(p.heap, big + "0123456789ab" + "A\t" + wide + "kk" + "z");
  EXPECT_EQ(p.heap_pieces, (std::vector<uint32_t>{piece1, static_cast<uint32_t>(piece2 + wide.size())}));
  uint32_t marker = word(tape::kDouble, tape::kHeapPiece);
  uint32_t wide_units = static_cast<uint32_t>(wide.size() - 1);  // é: 2 bytes, 1 unit
  std::vector<uint32_t> expected = {
      word(tape::kArrayBegin),
      word(tape::kString), 0, static_cast<uint32_t>(big.size()),
      word(tape::kString), static_cast<uint32_t>(big.size()), piece1,
      word(tape::kStringEsc), 0, 2, 0, 0,
      marker,
      word(tape::kString), 0, 2,                // "A\t": the second piece's start
      word(tape::kString), 2, 2 + wide_units,   // still the second piece (it began < 64 KiB before)
      word(tape::kObjectBegin, 1),
      marker,
      word(tape::kKeyNew, 0), 0, 2,             // "kk" opens the third piece
      word(tape::kString), 2, 3,
      word(tape::kObjectEnd, 1),
      word(tape::kArrayEnd),
  };
  ASSERT_EQ(p.words.size(), expected.size());
  for (size_t i = 0; i < expected.size(); ++i) {
    // The escaped entry's source range is not what this test is about.
    if (i == 10 || i == 11) continue;
    EXPECT_EQ(p.words[i], expected[i]) << "word " << i;
  }
  // A document of many strings: every piece boundary is a marker, ranges stay in piece.
  std::string many = "[";
  for (int i = 0; i < 20000; ++i) many += (i ? ",\"" : "\"") + std::to_string(i) + std::string(i % 13, 'q') + "\"";
  many += "]";
  parsed m = this->run(many, uint32_t{kSkipBom} | kStringHeap);
  ASSERT_TRUE(m.res.ok());
  size_t markers = 0;
  for (size_t i = 0; i < m.words.size(); i += tape::entry_words(m.words[i])) markers += m.words[i] == marker;
  EXPECT_EQ(markers, m.heap_pieces.size());
  EXPECT_GE(markers, m.heap.size() / kHeapPieceBytes - 1);
}

// With kStringHeap, escaped strings and keys whose decoded text is ASCII go to the heap
// decoded; a non-ASCII character, raw or escaped, keeps the string in the side buffer.
TYPED_TEST(ParseTest, StringHeapDecodesAsciiEscapes) {
  std::string a40(40, 'a'), b40(40, 'b');
  std::string doc = R"(["\u0041\/\"\\ \b\f\n\r\t", ")" + a40 + R"(\n)" + b40 +
                    R"(", "x\u00e9", "\ud83d\ude00", "é\n", "\u007f", {"a\tb": 1}])";
  parsed p = this->run(doc, uint32_t{kSkipBom} | kStringHeap);
  ASSERT_TRUE(p.res.ok());
  std::string first = "A/\"\\ \b\f\n\r\t";
  std::string second = a40 + "\n" + b40;
  EXPECT_EQ(p.heap, first + second + "\x7f" + "a\tb");
  EXPECT_EQ(p.utf16, (std::u16string{u"x\u00e9\U0001F600\u00e9\n"}));
  uint32_t h1 = static_cast<uint32_t>(first.size()), h2 = h1 + static_cast<uint32_t>(second.size());
  std::vector<uint32_t> expected = {
      word(tape::kArrayBegin),
      word(tape::kString), 0, h1,
      word(tape::kString), h1, h2,
      word(tape::kStringEsc), 0, 2, 0, 0,
      word(tape::kStringEsc), 2, 4, 0, 0,
      word(tape::kStringEsc), 4, 6, 0, 0,
      word(tape::kString), h2, h2 + 1,
      word(tape::kObjectBegin, 1),
      word(tape::kKeyNew, 0), h2 + 1, h2 + 4,
      word(tape::kInt, 1),
      word(tape::kObjectEnd, 1),
      word(tape::kArrayEnd),
  };
  ASSERT_EQ(p.words.size(), expected.size());
  for (size_t i = 0; i < expected.size(); ++i) {
    // (Source ranges of escaped entries are checked elsewhere.)
    if (i == 10 || i == 11 || i == 15 || i == 16 || i == 20 || i == 21) continue;
    EXPECT_EQ(p.words[i], expected[i]) << "word " << i;
  }
}

// kSingleValue reads one member of a container (at(), lazy documents): the comma or the
// container's bracket must follow it, as when the container is parsed whole.
TYPED_TEST(ParseTest, SingleValueChecksWhatFollows) {
  struct { const char* text; uint32_t flags; error_code code; size_t offset; } cases[] = {
      {"1 , 2", kSingleValue, error_code::ok, 1},
      {"[1] ]", kSingleValue, error_code::ok, 3},
      {"\"s\"}", kSingleValue | kInObject, error_code::ok, 3},
      {"1x]", kSingleValue, error_code::expected_comma_or_bracket, 1},
      {"1.5.5]", kSingleValue, error_code::expected_comma_or_bracket, 3},
      {"true 2", kSingleValue, error_code::expected_comma_or_bracket, 5},
      {"1]", kSingleValue | kInObject, error_code::expected_comma_or_brace, 1},
      {"{}}", kSingleValue, error_code::expected_comma_or_bracket, 2},
      {"1  ", kSingleValue, error_code::unexpected_end, 3},
      {"01,", kSingleValue, error_code::leading_zero, 1},
  };
  for (const auto& t : cases) {
    parsed p = this->run(t.text, t.flags);
    EXPECT_EQ(p.res.code, t.code) << t.text;
    EXPECT_EQ(p.res.offset, t.offset) << t.text;
  }
}

TYPED_TEST(ParseTest, EscapesDecodeToUtf16) {
  parsed p = this->run(R"(["\u00e9\ud83d\ude00\ud800x\"\\\/\b\f\n\r\t", "é😀"])");
  ASSERT_TRUE(p.res.ok());
  std::u16string expected = u"\u00e9\U0001F600";
  expected += char16_t(0xD800);
  expected += u"x\"\\/\b\f\n\r\t";
  EXPECT_EQ(p.utf16, expected);
  // The second string has no escapes: a source range in UTF-16 units.
  size_t second = 1 + 5;  // [kArrayBegin][kStringEsc +4]
  EXPECT_EQ(p.words[second], word(tape::kString));
  EXPECT_EQ(p.words[second + 2] - p.words[second + 1], 3u);  // é + surrogate pair
  EXPECT_TRUE(this->tape_.escaped_surrogate);
}

TYPED_TEST(ParseTest, Utf16OffsetsCountSurrogatePairsAndTheBom) {
  parsed p = this->run("\xEF\xBB\xBF[\"\xF0\x9F\x98\x80\",\"a\"]");
  ASSERT_TRUE(p.res.ok());
  // Decoded with the BOM kept: U+FEFF [ " 😀(2 units) " , " a
  EXPECT_EQ(p.words[2], 3u);
  EXPECT_EQ(p.words[3], 5u);
  EXPECT_EQ(p.words[5], 8u);
}

TYPED_TEST(ParseTest, ErrorsMatchValidate) {
  for (const char* bad : {"[1,]", "{\"a\" 1}", "\"\\u12\"", "[1e]", "\"\xff\""}) {
    parsed p = this->run(bad);
    byte_stack s;
    padded_input in(bad);
    result v = validate<TypeParam>(in.data(), in.size(), kSkipBom, s);
    EXPECT_EQ(p.res.code, v.code) << bad;
    EXPECT_EQ(p.res.offset, v.offset) << bad;
  }
}

// Every kernel writes the same tape for every corpus file.
TYPED_TEST(ParseTest, SameTapeAsTheScalarKernel) {
  WASMJSON_SKIP_WITHOUT_SHARED();
  ASSERT_EQ(ts::shared_files("corpus").size(), ts::kCorpusFiles);
  auto docs = ts::corpus_documents();
  for (const auto& [f, text] : docs) {
    parser_state<TypeParam> fresh;  // both start with empty key and shape tables
    parsed mine = fresh.run(text);
    parser_state<scalar_kernel> reference;
    parsed ref = reference.run(text);
    ASSERT_TRUE(mine.res.ok()) << f;
    EXPECT_EQ(mine.words, ref.words) << f;
    EXPECT_EQ(mine.numbers.size(), ref.numbers.size()) << f;
    EXPECT_TRUE(std::equal(mine.numbers.begin(), mine.numbers.end(), ref.numbers.begin(),
                           [](double a, double b) { return std::memcmp(&a, &b, 8) == 0; }))
        << f;
    EXPECT_EQ(mine.utf16, ref.utf16) << f;
  }
}

TYPED_TEST(ParseTest, DeepNestingGrowsTheFramesSafely) {
  // Thousands of open containers, objects and arrays in turn: the writer's frames are
  // reallocated several times while a container is being opened (run under ASan in CI).
  const int depth = 5000;
  std::string doc;
  for (int i = 0; i < depth; ++i) doc += i % 2 ? "[" : "{\"k\":";
  doc += "7";
  for (int i = depth - 1; i >= 0; --i) doc += i % 2 ? "]" : "}";
  for (int round = 0; round < 2; ++round) {  // the second time, keys are predicted
    parsed p = this->run(doc);
    ASSERT_TRUE(p.res.ok());
    // 2500 objects: begin, end, and a key word (the first time, the new key's two range
    // words too); 2499 arrays holding a container: begin, end; the innermost [7] packed
    // as [kNumberArray, 1].
    ASSERT_EQ(p.words.size(), 2500u * 3 + (round == 0 ? 2 : 0) + 2499u * 2 + 2);
    ASSERT_EQ(p.words.front() & tape::kTagMask, tape::kObjectBegin);
    ASSERT_EQ(p.words.back() & tape::kTagMask, tape::kObjectEnd);
    ASSERT_EQ(p.numbers.size(), 1u);
    ASSERT_EQ(p.numbers[0], 7.0);
  }
}
