// The serializer (cpp/core/writer.h) over every kernel: command batches -> JSON text as
// JSON.stringify writes it. Strings go in as UTF-16 and as UTF-8, whole and split into
// many batches, and are checked against a one-unit-at-a-time reference escaper.
#include <algorithm>
#include <random>
#include <string>
#include <vector>

#include "../support/utf8_reference.h"
#include "core/canonicalize.h"
#include "core/writer.h"
#include "kernels.h"

using namespace wasmjson;

namespace {

// Builds one document's command stream, then runs it through a writer in batches.
struct script {
  struct batch {
    std::vector<uint32_t> ops;
    std::vector<double> numbers;
    std::u16string strings;
  };
  std::vector<batch> batches{1};
  uint32_t next_key = 0;

  batch& b() { return batches.back(); }
  script& op(cmd::tag t, uint32_t payload = 0) {
    b().ops.push_back(cmd::word(t, payload));
    return *this;
  }
  script& with_length(cmd::tag t, const std::u16string& s, bool long_form = false) {
    if (long_form) {
      op(t, cmd::kLong);
      b().ops.push_back(static_cast<uint32_t>(s.size()));
    } else {
      op(t, static_cast<uint32_t>(s.size()));
    }
    b().strings += s;
    return *this;
  }
  script& null() { return op(cmd::kNull); }
  script& boolean(bool v) { return op(v ? cmd::kTrue : cmd::kFalse); }
  script& integer(int32_t v) { return op(cmd::kInt, static_cast<uint32_t>(v) & ((1u << 28) - 1)); }
  script& number(double v) {
    b().numbers.push_back(v);
    return op(cmd::kDouble);
  }
  script& string(const std::u16string& s, bool long_form = false) { return with_length(cmd::kString, s, long_form); }
  script& raw(const std::u16string& s) { return with_length(cmd::kRaw, s); }
  script& key(const std::u16string& s) { return with_length(cmd::kKeyString, s); }
  // A cached key: defined the first time (kKeyNew), referenced after (kKey).
  script& key_new(uint32_t id, const std::u16string& s) {
    op(cmd::kKeyNew, id);
    b().ops.push_back(static_cast<uint32_t>(s.size()));
    b().strings += s;
    return *this;
  }
  script& key_id(uint32_t id) { return op(cmd::kKey, id); }
  script& array() { return op(cmd::kArrayBegin); }
  script& end_array() { return op(cmd::kArrayEnd); }
  script& object() { return op(cmd::kObjectBegin); }
  script& end_object() { return op(cmd::kObjectEnd); }
  script& cut() {
    batches.emplace_back();
    return *this;
  }
};

std::string utf8_of(const std::u16string& s, bool* ok = nullptr) {
  std::string out;
  if (ok) *ok = true;
  for (size_t i = 0; i < s.size(); ++i) {
    uint32_t c = s[i];
    if (c >= 0xD800 && c <= 0xDBFF && i + 1 < s.size() && s[i + 1] >= 0xDC00 && s[i + 1] <= 0xDFFF) {
      c = 0x10000 + ((c - 0xD800) << 10) + (s[++i] - 0xDC00);
    } else if (c >= 0xD800 && c <= 0xDFFF) {
      if (ok) *ok = false;
      c = 0xFFFD;
    }
    utf8_reference::put_utf8(out, c);
  }
  return out;
}

// JSON.stringify's quoting, one unit at a time (the reference).
std::string quote(const std::u16string& s) {
  std::string out = "\"";
  char hex[8];
  for (size_t i = 0; i < s.size(); ++i) {
    char16_t c = s[i];
    switch (c) {
      case '"': out += "\\\""; continue;
      case '\\': out += "\\\\"; continue;
      case '\b': out += "\\b"; continue;
      case '\f': out += "\\f"; continue;
      case '\n': out += "\\n"; continue;
      case '\r': out += "\\r"; continue;
      case '\t': out += "\\t"; continue;
      default: break;
    }
    if (c < 0x20) {
      std::snprintf(hex, sizeof hex, "\\u%04x", c);
      out += hex;
    } else if (c >= 0xD800 && c <= 0xDBFF && i + 1 < s.size() && s[i + 1] >= 0xDC00 && s[i + 1] <= 0xDFFF) {
      out += utf8_of(s.substr(i, 2));
      ++i;
    } else if (c >= 0xD800 && c <= 0xDFFF) {
      std::snprintf(hex, sizeof hex, "\\u%04x", c);
      out += hex;
    } else {
      out += utf8_of(std::u16string(1, c));
    }
  }
  return out + "\"";
}

template <class K>
struct harness {
  key_cache keys;
  json_writer<K> writer;
  uint32_t last_status = 0;

  // Runs the script; utf8 sends the strings of every batch as UTF-8 (as TextEncoder
  // would encode them), resending a batch as UTF-16 when the writer asks.
  std::string run(const script& sc, const std::u16string& gap = u"", uint32_t flags = 0, bool utf8 = false) {
    writer.begin(flags, reinterpret_cast<const uint16_t*>(gap.data()), gap.size());
    for (const auto& b : sc.batches) {
      last_status = send(b, utf8);
      if (last_status == cmd::kResendUtf16) last_status = send(b, false);
      if (last_status != cmd::kOk) return "<status " + std::to_string(last_status) + ">";
    }
    const output_buffer& out = writer.output();
    return std::string(reinterpret_cast<const char*>(out.data()), out.size());
  }

  uint32_t send(const script::batch& b, bool utf8) {
    std::vector<uint8_t> strings;
    if (utf8) {
      std::string s = utf8_of(b.strings);
      strings.assign(s.begin(), s.end());
    } else {
      strings.resize(b.strings.size() * 2);
      if (!strings.empty()) std::memcpy(strings.data(), b.strings.data(), strings.size());
    }
    size_t bytes = strings.size();
    strings.resize(bytes + kPadding, 0);
    write_batch wb{b.ops.data(), b.ops.size(), b.numbers.data(), b.numbers.size(), strings.data(), bytes, utf8};
    return writer.write(wb, keys);
  }
};

template <class K>
class WriterTest : public ::testing::Test {
 protected:
  harness<K> h;
  std::string run(const script& sc, const std::u16string& gap = u"", uint32_t flags = 0) {
    std::string a = h.run(sc, gap, flags, false);
    std::string b = h.run(sc, gap, flags, true);
    EXPECT_EQ(a, b) << "UTF-16 and UTF-8 string data disagree";
    return a;
  }
};
TYPED_TEST_SUITE(WriterTest, AllKernels, KernelNames);

}  // namespace

TYPED_TEST(WriterTest, Primitives) {
  EXPECT_EQ(this->run(script().null()), "null");
  EXPECT_EQ(this->run(script().boolean(true)), "true");
  EXPECT_EQ(this->run(script().boolean(false)), "false");
  EXPECT_EQ(this->run(script().integer(0)), "0");
  EXPECT_EQ(this->run(script().integer(-1)), "-1");
  EXPECT_EQ(this->run(script().integer((1 << 27) - 1)), "134217727");
  EXPECT_EQ(this->run(script().integer(-(1 << 27))), "-134217728");
  EXPECT_EQ(this->run(script().number(1.5)), "1.5");
  EXPECT_EQ(this->run(script().number(-0.0)), "0");
  EXPECT_EQ(this->run(script().number(std::nan(""))), "null");
  EXPECT_EQ(this->run(script().number(INFINITY)), "null");
  EXPECT_EQ(this->run(script().number(-INFINITY)), "null");
  EXPECT_EQ(this->run(script().number(1e21)), "1e+21");
  EXPECT_EQ(this->run(script().string(u"")), "\"\"");
  EXPECT_EQ(this->run(script().string(u"abc")), "\"abc\"");
  EXPECT_EQ(this->run(script().raw(u"12345678901234567890")), "12345678901234567890");
}

TYPED_TEST(WriterTest, ContainersAndSeparators) {
  EXPECT_EQ(this->run(script().array().end_array()), "[]");
  EXPECT_EQ(this->run(script().object().end_object()), "{}");
  EXPECT_EQ(this->run(script().array().array().end_array().array().end_array().end_array()), "[[],[]]");
  EXPECT_EQ(this->run(script().array().integer(1).null().string(u"x").object().end_object().end_array()),
            "[1,null,\"x\",{}]");
  EXPECT_EQ(this->run(script()
                          .object()
                          .key(u"a")
                          .integer(1)
                          .key(u"b")
                          .array()
                          .boolean(true)
                          .object()
                          .key(u"c")
                          .null()
                          .end_object()
                          .end_array()
                          .key(u"")
                          .object()
                          .end_object()
                          .end_object()),
            "{\"a\":1,\"b\":[true,{\"c\":null}],\"\":{}}");
}

TYPED_TEST(WriterTest, Indentation) {
  script sc;
  sc.object().key(u"a").integer(1).key(u"b").array().integer(2).object().end_object().array().end_array().object()
      .key(u"c").string(u"d").end_object().end_array().key(u"e").object().end_object().end_object();
  EXPECT_EQ(this->run(sc, u"  "),
            "{\n  \"a\": 1,\n  \"b\": [\n    2,\n    {},\n    [],\n    {\n      \"c\": \"d\"\n    }\n  ],\n  \"e\": {}\n}");
  EXPECT_EQ(this->run(script().array().integer(1).integer(2).end_array(), u"\t"), "[\n\t1,\n\t2\n]");
  EXPECT_EQ(this->run(script().array().integer(1).end_array(), u"ab"), "[\nab1\n]");
  EXPECT_EQ(this->run(script().array().integer(1).end_array(), u"\u00e9\U0001F600"),
            "[\n\xc3\xa9\xf0\x9f\x98\x80" "1\n]");
  EXPECT_EQ(this->run(script().integer(7), u"    "), "7");
  // The writer keeps at most 10 units of gap.
  EXPECT_EQ(this->run(script().array().integer(1).end_array(), u"0123456789abc"), "[\n01234567891\n]");
}

TYPED_TEST(WriterTest, IndentedLoneSurrogateGap) {
  std::u16string gap(1, 0xD800);
  EXPECT_EQ(this->h.run(script().array().integer(1).end_array(), gap), "[\n\xEF\xBF\xBD" "1\n]");
  EXPECT_EQ(this->h.run(script().array().integer(1).end_array(), gap, cmd::kKeepLoneSurrogates),
            "[\n\xED\xA0\x80" "1\n]");
  EXPECT_TRUE(this->h.writer.output_flags() & cmd::kOutputWtf8);
}

TYPED_TEST(WriterTest, EveryAsciiEscape) {
  std::u16string all;
  for (char16_t c = 0; c < 0x80; ++c) all += c;
  EXPECT_EQ(this->run(script().string(all)), quote(all));
  EXPECT_EQ(this->run(script().string(u"\x1f")), "\"\\u001f\"");
  EXPECT_EQ(this->run(script().string(u"\x7f/\u2028\u2029")), "\"\x7f/\xe2\x80\xa8\xe2\x80\xa9\"");
  EXPECT_EQ(this->run(script().string(u"a\"b\\c\nd\re\tf\bg\fh")), "\"a\\\"b\\\\c\\nd\\re\\tf\\bg\\fh\"");
}

TYPED_TEST(WriterTest, UnicodeAndLoneSurrogates) {
  EXPECT_EQ(this->run(script().string(u"\u00e9\u20ac\U0001F600")), "\"\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80\"");
  std::u16string lone_high = u"a";
  lone_high += char16_t(0xD800);
  std::u16string lone_low(1, char16_t(0xDC00));
  std::u16string inverted = {0xDC00, 0xD800};
  std::u16string pair_then_low = {0xD83D, 0xDE00, 0xDC00};
  // UTF-16 data only: as UTF-8, TextEncoder would have made U+FFFD (tested below).
  EXPECT_EQ(this->h.run(script().string(lone_high)), "\"a\\ud800\"");
  EXPECT_EQ(this->h.run(script().string(lone_low)), "\"\\udc00\"");
  EXPECT_EQ(this->h.run(script().string(inverted)), "\"\\udc00\\ud800\"");
  EXPECT_EQ(this->h.run(script().string(pair_then_low)), "\"\xf0\x9f\x98\x80\\udc00\"");
  // A pair split between two strings is two lone surrogates.
  std::u16string hi(1, char16_t(0xD83D)), lo(1, char16_t(0xDE00));
  EXPECT_EQ(this->h.run(script().array().string(hi).string(lo).end_array()), "[\"\\ud83d\",\"\\ude00\"]");
  EXPECT_EQ(this->h.run(script().array().string(hi).string(lo).end_array(), u"", 0, true), "[\"\\ud83d\",\"\\ude00\"]");
}

TYPED_TEST(WriterTest, Utf8ResendCases) {
  // U+FFFD in UTF-8 data may stand for a lone surrogate: the writer asks for UTF-16 and
  // leaves the output as it was.
  harness<TypeParam>& h = this->h;
  script sc;
  sc.array().string(u"ok").cut().string(u"x\ufffdy").end_array();
  h.writer.begin(0, nullptr, 0);
  ASSERT_EQ(h.send(sc.batches[0], true), cmd::kOk);
  ASSERT_EQ(h.send(sc.batches[1], true), cmd::kResendUtf16);
  EXPECT_EQ(std::string(reinterpret_cast<const char*>(h.writer.output().data()), h.writer.output().size()), "[\"ok\"");
  ASSERT_EQ(h.send(sc.batches[1], false), cmd::kOk);
  EXPECT_EQ(std::string(reinterpret_cast<const char*>(h.writer.output().data()), h.writer.output().size()),
            "[\"ok\",\"x\xef\xbf\xbdy\"]");
  // A real U+FFFD survives the round trip, in keys and raw text too.
  EXPECT_EQ(this->run(script().object().key(u"\ufffd").raw(u"\"\ufffd\"").end_object()),
            "{\"\xef\xbf\xbd\":\"\xef\xbf\xbd\"}");
  EXPECT_EQ(this->run(script().object().key_new(0, u"k\ufffd").integer(1).end_object()), "{\"k\xef\xbf\xbd\":1}");
}

TYPED_TEST(WriterTest, RawTextKeepsOrReplacesLoneSurrogates) {
  std::u16string raw = {'"', 0xD800, '"'};
  EXPECT_EQ(this->h.run(script().raw(raw)), "\"\xEF\xBF\xBD\"");
  EXPECT_FALSE(this->h.writer.output_flags() & cmd::kOutputWtf8);
  EXPECT_EQ(this->h.run(script().raw(raw), u"", cmd::kKeepLoneSurrogates), "\"\xED\xA0\x80\"");
  EXPECT_TRUE(this->h.writer.output_flags() & cmd::kOutputWtf8);
  EXPECT_EQ(this->h.run(script().raw(raw), u"", cmd::kKeepLoneSurrogates, true), "\"\xED\xA0\x80\"");
}

TYPED_TEST(WriterTest, OutputFlags) {
  this->h.run(script().string(u"plain"));
  EXPECT_EQ(this->h.writer.output_flags(), 0u);
  this->h.run(script().string(u"caf\u00e9"));
  EXPECT_EQ(this->h.writer.output_flags(), static_cast<uint32_t>(cmd::kOutputNonAscii));
  std::u16string lone(1, char16_t(0xDFFF));
  this->h.run(script().string(lone));  // escaped: still ASCII, and said to be there
  EXPECT_EQ(this->h.writer.output_flags(), static_cast<uint32_t>(cmd::kOutputLoneEscape));
  this->h.run(script().object().key(u"a" + lone).integer(1).end_object());
  EXPECT_EQ(this->h.writer.output_flags(), static_cast<uint32_t>(cmd::kOutputLoneEscape));
  this->h.run(script().string(u"\U0001F600"));  // a pair: written as UTF-8
  EXPECT_EQ(this->h.writer.output_flags(), static_cast<uint32_t>(cmd::kOutputNonAscii));
  // A cached key brings its flags into every document that writes it.
  this->h.run(script().object().key_new(5, u"\u00e9").integer(1).key_new(6, u"plain").integer(2).end_object());
  EXPECT_EQ(this->h.writer.output_flags(), static_cast<uint32_t>(cmd::kOutputNonAscii));
  this->h.run(script().object().key_id(6).integer(1).end_object());
  EXPECT_EQ(this->h.writer.output_flags(), 0u);
  this->h.run(script().object().key_id(5).integer(1).end_object());
  EXPECT_EQ(this->h.writer.output_flags(), static_cast<uint32_t>(cmd::kOutputNonAscii));
}

TYPED_TEST(WriterTest, CachedKeys) {
  script sc;
  sc.array().object().key_new(0, u"id").integer(1).key_new(1, u"n\"ame").string(u"a").end_object();
  sc.cut().object().key_id(0).integer(2).key_id(1).string(u"b").end_object().end_array();
  EXPECT_EQ(this->run(sc), "[{\"id\":1,\"n\\\"ame\":\"a\"},{\"id\":2,\"n\\\"ame\":\"b\"}]");
  // Keys persist across documents, and indentation adds the space after the colon.
  EXPECT_EQ(this->run(script().object().key_id(1).null().end_object(), u" "), "{\n \"n\\\"ame\": null\n}");
  // A long key (over the fixed 32-byte copy) and one at the maximum length.
  std::u16string long_key(64, u'k');
  EXPECT_EQ(this->run(script().object().key_new(2, long_key).integer(1).end_object()),
            "{\"" + std::string(64, 'k') + "\":1}");
  EXPECT_EQ(this->run(script().object().key_id(2).integer(2).end_object()), "{\"" + std::string(64, 'k') + "\":2}");
  std::u16string escapes(64, u'\x01');
  EXPECT_EQ(this->run(script().object().key_new(3, escapes).integer(1).end_object()),
            "{" + quote(escapes) + ":1}");
  this->h.keys.reset();
  EXPECT_EQ(this->h.run(script().object().key_id(0).integer(1).end_object()),
            "<status " + std::to_string(cmd::kBadCommand) + ">");
}

TYPED_TEST(WriterTest, LongLengthForm) {
  std::u16string s(1000, u'x');
  EXPECT_EQ(this->run(script().string(s, true)), "\"" + std::string(1000, 'x') + "\"");
  EXPECT_EQ(this->run(script().array().string(u"a", true).integer(1).end_array()), "[\"a\",1]");
}

TYPED_TEST(WriterTest, MalformedStreamsAreRefusedWithoutOutput) {
  harness<TypeParam>& h = this->h;
  const std::string bad = "<status " + std::to_string(cmd::kBadCommand) + ">";
  EXPECT_EQ(h.run(script().end_array()), bad);
  EXPECT_EQ(h.run(script().op(static_cast<cmd::tag>(15))), bad);
  EXPECT_EQ(h.run(script().op(cmd::kDouble)), bad);  // no number sent
  EXPECT_EQ(h.run(script().op(cmd::kKeyNew, key_cache::kMaxKeys).integer(0)), bad);
  script more;  // a string longer than the data sent
  more.b().ops.push_back(cmd::word(cmd::kString, 4));
  more.b().strings = u"ab";
  EXPECT_EQ(h.run(more), bad);
  // Lengths past the data sent, for every op that reads string data: refused before
  // anything is read or any room asked for (in UTF-16 and UTF-8 alike), whatever the
  // length: 65,536 units (the longest escaped whole), past kMaxEscapableUnits, where
  // 6 bytes a unit would wrap around wasm32's size_t (715,827,883), where 3 bytes a
  // unit would (a raw value's room: 1,431,655,766), and the largest.
  for (cmd::tag t : {cmd::kString, cmd::kKeyString, cmd::kRaw}) {
    for (uint32_t n : {3u, static_cast<uint32_t>(kEscapePieceUnits), static_cast<uint32_t>(kEscapePieceUnits + 1),
                       static_cast<uint32_t>(kMaxEscapableUnits + 1), 715827883u, 1431655766u, 0xFFFFFFFFu}) {
      script huge;
      huge.op(t, cmd::kLong);
      huge.b().ops.push_back(n);
      huge.b().strings = u"ab";
      EXPECT_EQ(this->run(huge), bad) << t << " " << n;
    }
  }
  script key_past;  // a cached key's definition likewise
  key_past.op(cmd::kKeyNew, 0);
  key_past.b().ops.push_back(5);
  key_past.b().strings = u"ab";
  EXPECT_EQ(this->run(key_past.integer(1)), bad);
}

// Strings longer than kEscapePieceUnits are escaped piece by piece from UTF-16 (whole
// from UTF-8; the fixture checks both agree): pairs across a piece boundary stay pairs,
// and escapes at either side of one come out as in a short string.
TYPED_TEST(WriterTest, LongStringsAreEscapedInPieces) {
  const size_t piece = kEscapePieceUnits;
  std::vector<std::u16string> cases;
  for (size_t at : {piece - 2, piece - 1, piece, piece + 1, 2 * piece - 1, 2 * piece}) {
    for (std::u16string special : {std::u16string(u"\U0001F600"), std::u16string(1, char16_t(0xD800)),
                                   std::u16string(1, char16_t(0xDC00)), std::u16string(u"\n\""),
                                   std::u16string(1, char16_t(0x1F)), std::u16string(u"\u00e9\u4e2d")}) {
      std::u16string s(2 * piece + 5, u'a');
      s.replace(at, special.size(), special);
      cases.push_back(s);
    }
  }
  // Every unit special: the worst case of room, 6 bytes a unit, in every piece.
  cases.push_back(std::u16string(piece * 2 + 3, char16_t(0x01)));
  cases.push_back(std::u16string(piece + 1, char16_t(0xDBFF)));
  for (const std::u16string& s : cases) {
    const std::string q = quote(s);
    ASSERT_EQ(this->run(script().string(s, true)), q);
    ASSERT_EQ(this->run(script().array().string(u"x").string(s, true).integer(1).end_array()), "[\"x\"," + q + ",1]");
    ASSERT_EQ(this->run(script().object().key(s).string(s, true).end_object()), "{" + q + ":" + q + "}");
    ASSERT_EQ(this->run(script().object().key(s).integer(2).end_object(), u"  "), "{\n  " + q + ": 2\n}");
  }
}

TYPED_TEST(WriterTest, RandomStringsMatchTheReference) {
  std::mt19937_64 rng(2026);
  const char16_t alphabet[] = {u'a', u'b', u' ', u'"', u'\\', u'/', 0x00, 0x08, 0x1f, 0x7f, 0x80, 0xe9, 0x7ff, 0x800,
                               0x2028, 0xfffd, 0xffff, 0xd800, 0xdbff, 0xdc00, 0xdfff, 0x3042, 0x4e2d};
  // Letters of three scripts: ASCII, Cyrillic (two UTF-8 bytes: the kernels' pair
  // steps) and CJK (three bytes).
  const char16_t letters[] = {u'a', 0x0430, 0x4e00};
  for (int round = 0; round < 4500; ++round) {
    const char16_t letter = letters[round % 3];
    script sc;
    sc.array();
    std::string want = "[";
    int count = 1 + static_cast<int>(rng() % 8);
    bool lone = false;  // some string has a lone surrogate (written as an escape)
    for (int i = 0; i < count; ++i) {
      std::u16string s;
      size_t len = rng() % 70;
      // Mostly letters, so specials land at every offset of a kernel chunk.
      for (size_t j = 0; j < len; ++j) {
        s += (rng() % 4 == 0) ? alphabet[rng() % (sizeof(alphabet) / sizeof(alphabet[0]))] : char16_t(letter + rng() % 26);
      }
      for (size_t j = 0; j < s.size(); ++j) {
        bool high = s[j] >= 0xD800 && s[j] <= 0xDBFF;
        if (high && j + 1 < s.size() && s[j + 1] >= 0xDC00 && s[j + 1] <= 0xDFFF) ++j;
        else lone |= s[j] >= 0xD800 && s[j] <= 0xDFFF;
      }
      if (i) want += ",";
      want += quote(s);
      sc.string(s);
      if (rng() % 3 == 0) sc.cut();
    }
    sc.end_array();
    want += "]";
    ASSERT_EQ(this->h.run(sc), want);
    bool non_ascii = std::any_of(want.begin(), want.end(), [](char c) { return static_cast<unsigned char>(c) >= 0x80; });
    ASSERT_EQ(this->h.writer.output_flags(),
              (non_ascii ? static_cast<uint32_t>(cmd::kOutputNonAscii) : 0u) | (lone ? static_cast<uint32_t>(cmd::kOutputLoneEscape) : 0u))
        << "round " << round;
    // As UTF-8 (lone surrogates there would be U+FFFD, hence resent as UTF-16).
    ASSERT_EQ(this->h.run(sc, u"", 0, true), want);
  }
}

TYPED_TEST(WriterTest, ManySmallBatchesEqualOne) {
  script whole, parts;
  for (script* sc : {&whole, &parts}) {
    sc->object();
    for (int i = 0; i < 500; ++i) {
      sc->key(u"k" + std::u16string(1, char16_t(u'a' + i % 26))).array().integer(i).number(i + 0.25).string(u"s\u00e9").end_array();
      if (sc == &parts) sc->cut();
    }
    sc->end_object();
  }
  EXPECT_EQ(this->run(whole), this->run(parts));
  EXPECT_EQ(this->run(whole, u"  "), this->run(parts, u"  "));
}

TYPED_TEST(WriterTest, DeepNestingIsIterative) {
  script sc;
  const int depth = 200000;
  for (int i = 0; i < depth; ++i) sc.array();
  for (int i = 0; i < depth; ++i) sc.end_array();
  std::string out = this->h.run(sc);
  ASSERT_EQ(out.size(), 2u * depth);
  EXPECT_EQ(out.substr(0, 3), "[[[");
  EXPECT_EQ(out.substr(out.size() - 3), "]]]");
}

// ---- Canonical mode (cmd::kCanonical, writer_sort.h): each object's members in RFC 8785
// key order. Checked against the canonicalizer of JSON text (core/canonicalize.h) run on
// the same document written in property order. ----

namespace {

// RFC 8785 text of JSON text written by the serializer (numbers already in JS form).
template <class K>
std::string canonical_of(const std::string& text) {
  std::vector<uint8_t> in(text.begin(), text.end());
  in.resize(text.size() + kPadding, 0);
  jcs_buffers b;
  result r = canonicalize<K>(in.data(), text.size(), kNumbersInJsForm, b);
  if (!r.ok()) return "<error " + std::to_string(static_cast<int>(r.code)) + ">";
  return std::string(reinterpret_cast<const char*>(b.out.data()), b.out.size());
}

// Random documents as command streams: objects of distinct keys drawn from a set that
// sorts differently by code points and by UTF-16 units, shares 8-byte prefixes, and has
// keys with escapes (when `escapes`); keys cached (ids) or not; random batch cuts.
struct canonical_gen {
  std::mt19937 rng;
  bool escapes;
  std::vector<std::u16string> keys;
  std::vector<bool> defined;
  canonical_gen(uint32_t seed, bool with_escapes) : rng(seed), escapes(with_escapes) {
    keys = {u"a", u"b", u"B", u"10", u"2", u"", u"\u00e9", u"\uffff", u"\ufb33", u"\U0001F600", u"\U0001F602",
            u"abcdefgh", u"abcdefghij1", u"abcdefghij2", u"abcdefghij3", u"abcdefghijk", u"abcdefghi", u"id", u"name", u"url", u"text",
            std::u16string(70, u'k'), std::u16string(70, u'k') + u"x"};
    if (escapes) keys.insert(keys.end(), {u"a\"b", u"x\ny", u"\\"});
    defined.assign(keys.size(), false);
  }
  size_t pick(size_t n) { return std::uniform_int_distribution<size_t>(0, n - 1)(rng); }
  void value(script& sc, int depth) {
    size_t k = pick(depth > 5 ? 3 : 6);
    if (pick(40) == 0) sc.cut();
    if (k == 0) {
      sc.integer(static_cast<int32_t>(pick(2000)) - 1000);
    } else if (k == 1) {
      sc.string(pick(2) ? u"s" : u"longer string value with \u00e9 and \"quotes\" in it, past the word copies");
    } else if (k == 2) {
      sc.number(pick(1000) / 7.0);
    } else if (k == 3) {
      sc.array();
      for (size_t n = pick(4); n > 0; --n) value(sc, depth + 1);
      sc.end_array();
    } else {
      sc.object();
      std::vector<size_t> order(keys.size());
      for (size_t i = 0; i < order.size(); ++i) order[i] = i;
      std::shuffle(order.begin(), order.end(), rng);
      // Records repeat shapes: often the first few keys of one fixed order.
      if (pick(2)) std::sort(order.begin(), order.begin() + 6, [](size_t a, size_t b) { return a > b; });
      for (size_t n = pick(8); n > 0; --n) {
        size_t i = order[n];
        if (keys[i].size() > 64 || pick(4) == 0) {
          sc.key(keys[i]);
        } else if (!defined[i]) {
          sc.key_new(static_cast<uint32_t>(i), keys[i]);
          defined[i] = true;
        } else {
          sc.key_id(static_cast<uint32_t>(i));
        }
        value(sc, depth + 1);
      }
      sc.end_object();
    }
  }
};

}  // namespace

TYPED_TEST(WriterTest, CanonicalModeSortsAsTheCanonicalizerDoes) {
  for (bool escapes : {false, true}) {
    size_t sorted = 0, unsorted = 0;
    for (uint32_t seed = 1; seed <= 600; ++seed) {
      canonical_gen gen(seed, escapes);
      script sc;
      gen.value(sc, 0);
      harness<TypeParam> plain, canonical;
      std::string text = plain.run(sc);
      std::string out = canonical.run(sc, u"", cmd::kCanonical);
      ASSERT_EQ(out.size(), text.size()) << "seed " << seed;
      std::string expected = canonical_of<TypeParam>(text);
      if (canonical.writer.output_flags() & cmd::kOutputUnsorted) {
        // Sorting stopped (a key with an escape): still the same document, for the
        // canonicalizer to finish.
        ++unsorted;
        EXPECT_EQ(canonical_of<TypeParam>(out), expected) << "seed " << seed;
      } else {
        ++sorted;
        EXPECT_EQ(out, expected) << "seed " << seed << "\n" << text;
      }
      // UTF-8 batches stop the sorting at once (one may have to go again as UTF-16).
      harness<TypeParam> utf8;
      std::string via_utf8 = utf8.run(sc, u"", cmd::kCanonical, true);
      EXPECT_TRUE(utf8.writer.output_flags() & cmd::kOutputUnsorted) << "seed " << seed;
      EXPECT_EQ(canonical_of<TypeParam>(via_utf8), expected) << "seed " << seed;
    }
    EXPECT_GT(sorted, 100u);
    if (escapes) EXPECT_GT(unsorted, 100u);
    else EXPECT_EQ(unsorted, 0u);
  }
}

TYPED_TEST(WriterTest, CanonicalModeExamples) {
  auto canonical = [&](const script& sc) { return this->h.run(sc, u"", cmd::kCanonical); };
  EXPECT_EQ(canonical(script().object().key(u"b").integer(1).key(u"a").integer(2).end_object()), "{\"a\":2,\"b\":1}");
  // UTF-16 code unit order: U+1F600 (D83D DE00) before U+FFFF; "10" before "2".
  EXPECT_EQ(canonical(script().object().key(u"\uffff").integer(1).key(u"\U0001F600").integer(2).key(u"2").integer(3).key(u"10").integer(4).end_object()),
            "{\"10\":4,\"2\":3,\"\xf0\x9f\x98\x80\":2,\"\xef\xbf\xbf\":1}");
  // Nested: inner objects sorted, then the outer, whose members carry them along.
  script nested;
  nested.object().key(u"z").object().key(u"y").integer(1).key(u"x").array().object().key(u"q").integer(1).key(u"p").integer(2).end_object().end_array().end_object();
  nested.key(u"a").object().key(u"d").integer(3).key(u"c").integer(4).end_object().end_object();
  EXPECT_EQ(canonical(nested), "{\"a\":{\"c\":4,\"d\":3},\"z\":{\"x\":[{\"p\":2,\"q\":1}],\"y\":1}}");
  EXPECT_EQ(this->h.writer.output_flags(), 0u);
  // Shapes sorted before are found by their keys, where those keys are now: an object
  // sorted on the spot has moved them. (Remembered where they were, the second object,
  // whose long keys share prefix and length with the first's in the other order, read
  // as the first's keys and took its order.)
  script shapes;
  shapes.array().object().key(u"abcdefghij2").integer(1).key(u"abcdefghij1").integer(2).key(u"d").integer(3).key(u"c").integer(4).end_object();
  shapes.object().key(u"abcdefghij1").integer(1).key(u"abcdefghij2").integer(2).key(u"d").integer(3).key(u"c").integer(4).end_object().end_array();
  EXPECT_EQ(canonical(shapes), "[{\"abcdefghij1\":2,\"abcdefghij2\":1,\"c\":4,\"d\":3},{\"abcdefghij1\":1,\"abcdefghij2\":2,\"c\":4,\"d\":3}]");
  // A key with an escape stops the sorting; the rest stays in property order.
  EXPECT_EQ(canonical(script().object().key(u"b").integer(1).key(u"a\"").integer(2).end_object()), "{\"b\":1,\"a\\\"\":2}");
  EXPECT_EQ(this->h.writer.output_flags(), static_cast<uint32_t>(cmd::kOutputUnsorted));
  // The next document sorts again.
  EXPECT_EQ(canonical(script().object().key(u"b").integer(1).key(u"a").integer(2).end_object()), "{\"a\":2,\"b\":1}");
  EXPECT_EQ(this->h.writer.output_flags(), 0u);
  // Indented output is never sorted.
  EXPECT_EQ(this->h.run(script().object().key(u"b").integer(1).key(u"a").integer(2).end_object(), u" ", cmd::kCanonical),
            "{\n \"b\": 1,\n \"a\": 2\n}");
  EXPECT_EQ(this->h.writer.output_flags(), static_cast<uint32_t>(cmd::kOutputUnsorted));
}

TYPED_TEST(WriterTest, CanonicalModeDeepNestingMovesTextOnce) {
  // {"b":{"b":{...{}...},"a":0},"a":0}: every level out of order, each holding the next.
  const int depth = 100000;
  script sc;
  for (int i = 0; i < depth; ++i) sc.object().key(u"b");
  sc.object().end_object();
  for (int i = 0; i < depth; ++i) sc.key(u"a").integer(0).end_object();
  std::string out = this->h.run(sc, u"", cmd::kCanonical);
  EXPECT_EQ(this->h.writer.output_flags(), 0u);
  std::string expected;
  for (int i = 0; i < depth; ++i) expected += "{\"a\":0,\"b\":";
  expected += "{}";
  for (int i = 0; i < depth; ++i) expected += "}";
  EXPECT_EQ(out, expected);
}
