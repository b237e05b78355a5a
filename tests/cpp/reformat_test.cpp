// minify and prettify (cpp/core/reformat.h) in every kernel: exact output on hand-made
// cases (JSON.stringify's layout for prettify), and on the corpus: minify equals the input
// with whitespace outside strings removed, and prettify then minify equals minify.
#include <string>
#include <vector>

#include "core/padded_input.h"
#include "core/reformat.h"
#include "kernels.h"
#include "shared_files.h"

using namespace wasmjson;

template <class K>
class ReformatTest : public ::testing::Test {};
TYPED_TEST_SUITE(ReformatTest, AllKernels, KernelNames);

namespace {

// minify (indent "") or prettify `in`; "<error>" when it fails (then *r says why).
template <class K>
std::string reformat_text(const std::string& in, const std::string& indent, result* r = nullptr) {
  padded_input p(in);
  byte_stack stack;
  result res;
  std::string out;
  if (indent.empty()) {
    // minify writes over its input: a copy of its own, with the padding.
    std::vector<uint8_t> buf(p.data(), p.data() + p.size() + kPadding);
    size_t begin = 0, len = 0;
    res = minify_in_place<K>(buf.data(), p.size(), kSkipBom, stack, &begin, &len);
    if (res.ok()) out.assign(reinterpret_cast<const char*>(buf.data() + begin), len);
  } else {
    growable<uint8_t> pretty, line;
    res = prettify<K>(p.data(), p.size(), kSkipBom, reinterpret_cast<const uint8_t*>(indent.data()), indent.size(),
                      stack, pretty, line);
    if (res.ok()) out.assign(reinterpret_cast<const char*>(pretty.data()), pretty.size());
  }
  if (r) *r = res;
  return res.ok() ? out : std::string("<error>");
}

// The reference minifier: drops JSON whitespace outside strings.
std::string strip(const std::string& s) {
  std::string out;
  bool in_string = false;
  for (size_t i = 0; i < s.size(); ++i) {
    char c = s[i];
    if (in_string) {
      out += c;
      if (c == '\\') out += s[++i];
      else if (c == '"') in_string = false;
    } else if (c == '"') {
      in_string = true;
      out += c;
    } else if (c != ' ' && c != '\n' && c != '\r' && c != '\t') {
      out += c;
    }
  }
  return out;
}

}  // namespace

TYPED_TEST(ReformatTest, HandMadeCases) {
  using K = TypeParam;
  EXPECT_EQ(reformat_text<K>(" { \"a\" : [ 1 , -0.50e+3 , true , false , null , \"x\\\\ \\\" y\" ] , \"b\" : { } , \"c\" : [ ] } ", ""),
            "{\"a\":[1,-0.50e+3,true,false,null,\"x\\\\ \\\" y\"],\"b\":{},\"c\":[]}");
  EXPECT_EQ(reformat_text<K>("{\"a\":[1,{\"b\":null}],\"c\":{},\"d\":[]}", "  "),
            "{\n  \"a\": [\n    1,\n    {\n      \"b\": null\n    }\n  ],\n  \"c\": {},\n  \"d\": []\n}");
  EXPECT_EQ(reformat_text<K>("[true,false]", "\t"), "[\n\ttrue,\n\tfalse\n]");
  EXPECT_EQ(reformat_text<K>("\xEF\xBB\xBF 7 ", ""), "7");
  // Deep nesting: the cached indent line grows past a whole chunk many times.
  std::string deep(200, '['), closes(200, ']');
  std::string pretty = reformat_text<K>(deep + "1" + closes, "          ");
  EXPECT_EQ(strip(pretty), deep + "1" + closes);
  EXPECT_NE(pretty.find("\n" + std::string(2000, ' ') + "1\n"), std::string::npos);
  result r;
  reformat_text<K>("[1,]", "  ", &r);
  EXPECT_FALSE(r.ok());
  reformat_text<K>("{\"a\" 1}", "", &r);
  EXPECT_EQ(r.code, error_code::expected_colon);
  EXPECT_EQ(r.offset, 5u);
}

TYPED_TEST(ReformatTest, CorpusRoundTrips) {
  using K = TypeParam;
  WASMJSON_SKIP_WITHOUT_SHARED();
  ASSERT_EQ(testing_support::shared_files("corpus").size(), testing_support::kCorpusFiles);
  for (const auto& [f, text] : testing_support::corpus_documents()) {
    // Whole files up to 1 MiB (the larger ones are covered by the fuzzers' seeds and
    // the JS round-trip test; this keeps the ASan run short).
    if (text.size() > (1u << 20)) continue;
    std::string min = reformat_text<K>(text, "");
    ASSERT_EQ(min, strip(text)) << f;
    for (const char* indent : {"  ", "          "}) ASSERT_EQ(strip(reformat_text<K>(text, indent)), min) << f;
  }
}

// Whether a string held U+FFFD (EF BF BD), for JS to know if lone surrogates of its
// string input (encoded as U+FFFD) may need restoring: in keys and values, in long and
// short strings, minified and pretty; never for other text, even near it (EF BF BE).
TYPED_TEST(ReformatTest, ReportsReplacementCharacter) {
  using K = TypeParam;
  const std::string fffd = "\xEF\xBF\xBD";
  const std::string long_text(40, 'x');
  struct doc {
    std::string text;
    bool has;
  };
  const doc docs[] = {
      {"[\"a" + fffd + "\"]", true},
      {"{\"" + fffd + "\": 1}", true},
      {"[\"" + long_text + "\xC3\xA9" + long_text + fffd + "\"]", true},
      {"[\"\xEF\xBF\xBE \xE2\x82\xAC \\ufffd\", \"" + long_text + "\xD0\x96\"]", false},
      {"[1, 2, 3]", false},
  };
  for (const doc& d : docs) {
    for (const char* indent : {"", "  "}) {
      padded_input p(d.text);
      byte_stack stack;
      bool saw = !d.has;
      result r;
      if (*indent == 0) {
        std::vector<uint8_t> buf(p.data(), p.data() + p.size() + kPadding);
        size_t begin = 0, len = 0;
        r = minify_in_place<K>(buf.data(), p.size(), kSkipBom, stack, &begin, &len, &saw);
      } else {
        growable<uint8_t> out, line;
        r = prettify<K>(p.data(), p.size(), kSkipBom, reinterpret_cast<const uint8_t*>(indent),
                        std::char_traits<char>::length(indent), stack, out, line, &saw);
      }
      ASSERT_TRUE(r.ok()) << d.text;
      EXPECT_EQ(saw, d.has) << d.text << " indent '" << indent << "'";
    }
  }
}

// minify writes over its input while reading it: each piece between gaps moves down (in
// one fixed 16-byte move when short), and must never overwrite text not read yet. Gaps
// of one to three bytes at every place a gap may stand in a document with short and
// long tokens, and two gaps at every pair of places: the output is the stripped text.
TYPED_TEST(ReformatTest, MinifyInPlaceAtEveryGapPlace) {
  using K = TypeParam;
  const std::string doc =
      "{\"a\":[1,-2.5e3,true,null,false,\"x\"],\"bb\":{\"c\":\"0123456789abcdefghijklmnopqrstuvwxyz\"},"
      "\"d\":[[],{},\"\\u00e9\\\"\",12345678901234567890],\"e\":\"\xC3\xA9\"}";
  ASSERT_EQ(strip(doc), doc);
  // Places between tokens: around each structural byte, before and after each string.
  std::vector<size_t> places;
  bool in_string = false;
  for (size_t i = 0; i < doc.size(); ++i) {
    char c = doc[i];
    if (in_string) {
      if (c == '\\') {
        ++i;
      } else if (c == '"') {
        in_string = false;
        places.push_back(i + 1);
      }
    } else if (c == '"') {
      in_string = true;
      places.push_back(i);
    } else if (c == '{' || c == '[' || c == ',' || c == ':' || c == '}' || c == ']') {
      places.push_back(i);
      places.push_back(i + 1);
    }
  }
  places.push_back(0);
  places.push_back(doc.size());
  for (size_t at : places) {
    for (const char* gap : {" ", "\n\t", " \r\n"}) {
      std::string text = doc;
      text.insert(at, gap);
      ASSERT_EQ(reformat_text<K>(text, ""), doc) << "gap '" << gap << "' at " << at;
    }
  }
  for (size_t a : places) {
    for (size_t b : places) {
      if (b < a) continue;
      std::string text = doc;
      text.insert(b, "  ");
      text.insert(a, "\n");
      ASSERT_EQ(reformat_text<K>(text, ""), doc) << "gaps at " << a << " and " << b;
    }
  }
  // Text with no gap stays where it is; a BOM is skipped, not moved over.
  padded_input p("\xEF\xBB\xBF" + doc);
  std::vector<uint8_t> buf(p.data(), p.data() + p.size() + kPadding);
  byte_stack stack;
  size_t begin = 0, len = 0;
  ASSERT_TRUE(minify_in_place<K>(buf.data(), p.size(), kSkipBom, stack, &begin, &len).ok());
  EXPECT_EQ(begin, 3u);
  EXPECT_EQ(std::string(reinterpret_cast<const char*>(buf.data()), buf.size() - kPadding), "\xEF\xBB\xBF" + doc);
}
