// minify and prettify (cpp/core/reformat.h) in every kernel: exact output on hand-made
// cases (JSON.stringify's layout for prettify), and on the corpus: minify equals the input
// with whitespace outside strings removed, and prettify then minify equals minify.
#include <random>
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

// Gaps the reader skips run by run in some kernels (swar64: a line feed, then the run of
// indentation): runs of each whitespace byte of every length to 40, line breaks before
// spaces and tabs, CRLF, mixed random gaps, at every place; and a gap with a byte that
// is not whitespace (0x0B, 0x0C, 0x1F, 0xA0) anywhere in it fails there.
TYPED_TEST(ReformatTest, GapsOfEveryShape) {
  using K = TypeParam;
  const std::string doc = "{\"a\":[1,true,{\"b\":null}],\"c\":\"x\"}";
  std::vector<std::string> gaps;
  for (size_t n = 1; n <= 40; ++n) {
    for (char c : {' ', '\t', '\n', '\r'}) gaps.push_back(std::string(n, c));
    gaps.push_back("\n" + std::string(n, ' '));
    gaps.push_back(" \n" + std::string(n, ' '));
    gaps.push_back("\r\n" + std::string(n, '\t'));
    gaps.push_back("\n" + std::string(n, ' ') + "\n" + std::string(n / 2, ' '));
  }
  std::mt19937 rng(11);
  for (int i = 0; i < 200; ++i) {
    std::string g;
    for (size_t n = 1 + rng() % 40; n > 0; --n) g += " \t\n\r"[rng() % 4];
    gaps.push_back(g);
  }
  std::vector<size_t> places;
  for (size_t i = 0; i <= doc.size(); ++i)
    if (i == 0 || i == doc.size() || std::string("{}[],:").find(doc[i - 1]) != std::string::npos) places.push_back(i);
  for (size_t at : places) {
    for (const std::string& gap : gaps) {
      std::string text = doc;
      text.insert(at, gap);
      ASSERT_EQ(reformat_text<K>(text, ""), doc) << "gap of " << gap.size() << " at " << at;
    }
  }
  for (const std::string& gap : gaps) {
    for (size_t j = 0; j < gap.size(); ++j) {
      for (char bad : {'\x0B', '\x0C', '\x1F', '\xA0'}) {
        std::string text = doc;
        std::string g = gap;
        g[j] = bad;
        text.insert(6, g);  // after "[" of "a"
        result r;
        ASSERT_EQ(reformat_text<K>(text, "", &r), "<error>") << j;
        ASSERT_EQ(r.offset, 6 + j) << "gap of " << gap.size() << ", byte " << j;
      }
    }
  }
}

namespace {

// Valid UTF-8 as UTF-16 units.
std::vector<uint16_t> to_units(const std::string& s) {
  std::vector<uint16_t> out;
  for (size_t i = 0; i < s.size();) {
    uint8_t c = static_cast<uint8_t>(s[i]);
    uint32_t cp;
    size_t n = c < 0x80 ? 1 : c < 0xE0 ? 2 : c < 0xF0 ? 3 : 4;
    cp = n == 1 ? c : n == 2 ? c & 0x1F : n == 3 ? c & 0x0F : c & 0x07;
    for (size_t k = 1; k < n; ++k) cp = (cp << 6) | (static_cast<uint8_t>(s[i + k]) & 0x3F);
    i += n;
    if (cp < 0x10000) {
      out.push_back(static_cast<uint16_t>(cp));
    } else {
      out.push_back(static_cast<uint16_t>(0xD800 + ((cp - 0x10000) >> 10)));
      out.push_back(static_cast<uint16_t>(0xDC00 + ((cp - 0x10000) & 0x3FF)));
    }
  }
  return out;
}

// minify_units of `units` (copied, with room to read past them): the output units, or
// the error (*r).
template <class K>
std::vector<uint16_t> minify_units_of(const std::vector<uint16_t>& units, result* r) {
  std::vector<uint16_t> buf(units);
  buf.resize(units.size() + 16, 0xAAAA);
  growable<uint8_t> narrowed;
  byte_stack stack;
  size_t len = 0;
  *r = minify_units<K>(reinterpret_cast<uint8_t*>(buf.data()), units.size(), narrowed, stack, &len);
  buf.resize(r->ok() ? len : 0);
  return buf;
}

}  // namespace

// minify of a string's units (minify_units) drops exactly what minify of its UTF-8
// drops: the corpus, pretty-printed and as it is; gaps of every length before and after
// every token (short moves and long ones); units from U+0080 on and lone surrogates in
// strings kept as they are. Errors are found where the UTF-8 route finds them, in units.
TYPED_TEST(ReformatTest, MinifyUnitsDropsWhatMinifyDrops) {
  using K = TypeParam;
  result r;
  WASMJSON_SKIP_WITHOUT_SHARED();
  for (const auto& [f, text] : testing_support::corpus_documents()) {
    if (text.size() > (1u << 20)) continue;
    for (const std::string& in : {text, reformat_text<K>(text, "   ")}) {
      std::vector<uint16_t> got = minify_units_of<K>(to_units(in), &r);
      ASSERT_TRUE(r.ok()) << f;
      ASSERT_EQ(got, to_units(strip(in))) << f;
    }
  }
  // Gaps of 0 to 19 units at every token boundary, around text that is not ASCII.
  const std::vector<uint16_t> lone = {'[', '"', 0xD800, 'a', 0xDFFF, 0x7F, 0x2028, '"', ']'};
  ASSERT_EQ(minify_units_of<K>(lone, &r), lone);
  std::string doc = "{\"\xC3\xA9t\xC3\xA9\":[1,-2.5,\"\xE6\x97\xA5\xE6\x9C\xAC\xE8\xAA\x9E 0123456789abcdef\",true,{}],\"b\":null}";
  std::vector<size_t> places;
  for (size_t i = 0; i <= doc.size(); ++i) {
    if (i == doc.size() || std::string("{}[],:").find(doc[i]) != std::string::npos) places.push_back(i);
  }
  for (size_t at : places) {
    for (size_t n = 0; n < 20; ++n) {
      std::string text = doc;
      text.insert(at, std::string(n, n % 3 ? ' ' : '\n'));
      std::string two = text;
      two.insert(0, std::string(n, '\t'));
      for (const std::string& t : {text, two}) {
        ASSERT_EQ(minify_units_of<K>(to_units(t), &r), to_units(doc)) << at << " " << n;
      }
    }
  }
  // Errors: where minify of the UTF-8 finds them, counted in units.
  for (const std::string& bad : {std::string("[1, \xC3\xA9]"), std::string("{\"\xE6\x97\xA5\":\x01}"), std::string("[\"\xE6\x97\xA5\x01\"]"),
                                 std::string("[1,,2]"), std::string("  {\"a\" 1}"), std::string("[\"\xC3\xA9\" \xC3\xA9]")}) {
    result want;
    reformat_text<K>(bad, "", &want);
    ASSERT_FALSE(want.ok());
    std::vector<uint16_t> units = to_units(bad);
    minify_units_of<K>(units, &r);
    ASSERT_FALSE(r.ok()) << bad;
    EXPECT_EQ(r.code, want.code) << bad;
    // The offset in units: the UTF-8 offset less what the multi-byte characters before it added.
    EXPECT_EQ(r.offset, to_units(bad.substr(0, want.offset)).size()) << bad;
    // validate_units fails there too.
    growable<uint8_t> narrowed;
    byte_stack stack;
    result v = validate_units<K>(reinterpret_cast<const uint8_t*>(units.data()), units.size(), narrowed, stack);
    EXPECT_EQ(v.code, want.code) << bad;
    EXPECT_EQ(v.offset, r.offset) << bad;
  }
  // ... and passes what minify passes.
  growable<uint8_t> narrowed;
  byte_stack stack;
  for (const std::vector<uint16_t>& good : {lone, to_units(doc)}) {
    EXPECT_TRUE(validate_units<K>(reinterpret_cast<const uint8_t*>(good.data()), good.size(), narrowed, stack).ok());
  }
}

// prettify of a string's units (prettify_units) writes the units of what prettify of its
// UTF-8 writes: the corpus, minified and pretty, with indents of 1 to 10 units (some not
// ASCII); deep nesting (the cached line break grows); errors in the same place, in units.
TYPED_TEST(ReformatTest, PrettifyUnitsWritesWhatPrettifyWrites) {
  using K = TypeParam;
  auto pretty_units = [](const std::vector<uint16_t>& units, const std::vector<uint16_t>& indent, result* r) {
    std::vector<uint16_t> buf(units);
    buf.resize(units.size() + 32, 0xAAAA);
    growable<uint8_t> narrowed;
    growable<uint16_t> out, line;
    byte_stack stack;
    *r = prettify_units<K>(reinterpret_cast<const uint8_t*>(buf.data()), units.size(), indent.data(), indent.size(),
                           narrowed, stack, out, line);
    return r->ok() ? std::vector<uint16_t>(out.data(), out.data() + out.size()) : std::vector<uint16_t>{};
  };
  result r;
  std::vector<std::string> docs;
  std::string deep;
  for (int i = 0; i < 300; ++i) deep += i % 2 ? "{\"\xC3\xA9\":" : "[\"\xE6\x97\xA5\",";
  deep += "1";
  for (int i = 299; i >= 0; --i) deep += i % 2 ? "}" : "]";
  docs.push_back(deep);
  docs.push_back("[\"\\ud800\", {\"k\": [true, false, null, -1.5e3, \"0123456789abcdef0123456789abcdefXYZ\"]}, [], {}]");
  if (testing_support::have_shared()) {
    for (const auto& [f, text] : testing_support::corpus_documents()) {
      if (text.size() <= (1u << 19)) docs.push_back(text);
    }
  }
  for (const std::string& doc : docs) {
    for (const std::string& indent : {std::string("  "), std::string("\t"), std::string("\xC3\xA9\xE6\x97\xA5"), std::string(10, ' ')}) {
      std::vector<uint16_t> got = pretty_units(to_units(doc), to_units(indent), &r);
      ASSERT_TRUE(r.ok()) << doc.substr(0, 60);
      ASSERT_EQ(got, to_units(reformat_text<K>(doc, indent))) << doc.substr(0, 60);
    }
  }
  for (const std::string& bad : {std::string("[1, \xC3\xA9]"), std::string("{\"\xE6\x97\xA5\":\x01}"), std::string("[1,,2]")}) {
    result want;
    reformat_text<K>(bad, "  ", &want);
    pretty_units(to_units(bad), to_units("  "), &r);
    ASSERT_FALSE(r.ok()) << bad;
    EXPECT_EQ(r.code, want.code) << bad;
    EXPECT_EQ(r.offset, to_units(bad.substr(0, want.offset)).size()) << bad;
  }
}

// prettify stops at its output limit (begin_output_limit; what JS asks of output that
// becomes a string): an output that reaches past the limit is output_too_long, and the
// buffer that held it is freed; with the limit 34 units past the output (the most a step
// reserves beyond what it writes), the output is whole. The same for both routes, at every place of a
// document whose output grows by depth (a deep array), by members and by long strings.
TYPED_TEST(ReformatTest, PrettifyStopsAtItsLimit) {
  using K = TypeParam;
  std::vector<std::string> docs;
  docs.push_back(std::string(300, '[') + std::string(300, ']'));
  std::string wide = "{";
  for (int i = 0; i < 200; ++i) wide += (i ? ",\"k" : "\"k") + std::to_string(i) + "\":[1,true,\"" + std::string(i, 'x') + "\"]";
  docs.push_back(wide + "}");
  for (const std::string& doc : docs) {
    padded_input p(doc);
    byte_stack stack;
    const uint8_t indent[] = {' ', ' '};
    growable<uint8_t> out, line;
    ASSERT_TRUE(prettify<K>(p.data(), p.size(), 0, indent, 2, stack, out, line).ok());
    const std::string whole(reinterpret_cast<const char*>(out.data()), out.size());
    std::vector<uint16_t> units = to_units(doc);
    units.resize(units.size() + 32, 0);
    const uint16_t indent16[] = {' ', ' '};
    for (size_t limit = 1; limit <= whole.size() + 34; limit += limit < whole.size() - 40 ? 97 : 1) {
      growable<uint8_t> o, l;
      begin_output_limit(limit);
      result r = end_output_limit(prettify<K>(p.data(), p.size(), 0, indent, 2, stack, o, l), o);
      growable<uint8_t> narrowed;
      growable<uint16_t> o16, l16;
      begin_output_limit(limit);
      result r16 = end_output_limit(prettify_units<K>(reinterpret_cast<const uint8_t*>(units.data()), doc.size(), indent16,
                                                      2, narrowed, stack, o16, l16),
                                    o16);
      if (limit < whole.size()) {
        ASSERT_EQ(r.code, error_code::output_too_long) << limit;
        ASSERT_EQ(r16.code, error_code::output_too_long) << limit;
        EXPECT_EQ(o.capacity(), 0u);
        EXPECT_EQ(o16.capacity(), 0u);
      } else if (limit >= whole.size() + 34) {
        ASSERT_TRUE(r.ok() && r16.ok()) << limit;
        EXPECT_EQ(std::string(reinterpret_cast<const char*>(o.data()), o.size()), whole);
        EXPECT_EQ(std::vector<uint16_t>(o16.data(), o16.data() + o16.size()), to_units(whole));
      } else {
        // Within a step's slack: whole, or stopped (never a cut output).
        ASSERT_TRUE(r.ok() || r.code == error_code::output_too_long) << limit;
        if (r.ok()) EXPECT_EQ(o.size(), whole.size());
      }
    }
  }
  // A buffer a longer output left is written to its capacity before growing: the
  // limit holds there too (checked at the end).
  {
    padded_input p(docs[0]);
    byte_stack stack;
    const uint8_t indent[] = {' ', ' '};
    growable<uint8_t> out, line;
    ASSERT_TRUE(prettify<K>(p.data(), p.size(), 0, indent, 2, stack, out, line).ok());
    size_t whole = out.size();
    padded_input small(std::string("[[1, 2], {\"a\": [3]}]"));
    ASSERT_TRUE(prettify<K>(small.data(), small.size(), 0, indent, 2, stack, out, line).ok());
    ASSERT_GT(out.capacity(), whole);
    begin_output_limit(10);
    EXPECT_EQ(end_output_limit(prettify<K>(small.data(), small.size(), 0, indent, 2, stack, out, line), out).code,
              error_code::output_too_long);
    EXPECT_EQ(out.capacity(), 0u);
    begin_output_limit(1000);
    EXPECT_TRUE(end_output_limit(prettify<K>(small.data(), small.size(), 0, indent, 2, stack, out, line), out).ok());
  }
  // A syntax error the reader meets before the output passes the limit is the error.
  padded_input bad(std::string("[1,,") + std::string(100, ' ') + "]");
  byte_stack stack;
  growable<uint8_t> o, l;
  const uint8_t indent[] = {'\t'};
  result want = prettify<K>(bad.data(), bad.size(), 0, indent, 1, stack, o, l);
  ASSERT_FALSE(want.ok());
  ASSERT_NE(want.code, error_code::output_too_long);
  begin_output_limit(1000);
  result got = end_output_limit(prettify<K>(bad.data(), bad.size(), 0, indent, 1, stack, o, l), o);
  EXPECT_EQ(got.code, want.code);
  EXPECT_EQ(got.offset, want.offset);
}
