// Navigation (cpp/core/navigate.h): skipping whole values a 64-byte block at a time
// agrees with a byte-by-byte reference on every container of real and generated
// documents, in every kernel; block_masks agrees with the scalar kernel's.
#include <algorithm>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "core/container_ends.h"
#include "core/navigate.h"
#include "core/padded_input.h"
#include "kernels.h"
#include "shared_files.h"
#include "../support/bracket_scan.h"

using namespace wasmjson;

template <class K>
class NavigateTest : public ::testing::Test {};
TYPED_TEST_SUITE(NavigateTest, AllKernels, KernelNames);

namespace {

// Byte by byte: strings (with escapes) hide their brackets; the end is where the depth
// returns to zero. nullptr when the document ends first.
const uint8_t* reference_skip(const uint8_t* p, const uint8_t* end) {
  size_t n = static_cast<size_t>(end - p);
  size_t i = testing_support::scan_brackets(p, n, [](size_t, long depth) { return depth != 0; });
  return i < n ? p + i + 1 : nullptr;
}

// Every container's skip agrees with the reference: scanned, and looked up in the
// document's container ends (container_ends.h).
template <class K>
void check_every_container(const std::string& text) {
  padded_input in(text);
  const uint8_t* b = in.data();
  const uint8_t* e = b + in.size();
  nav::container_ends ends;
  ASSERT_TRUE(ends.build<K>(b, in.size()));
  // Every '{' or '[' outside strings starts a container.
  bool in_string = false;
  for (const uint8_t* p = b; p < e; ++p) {
    if (in_string) {
      if (*p == '\\') ++p;
      else if (*p == '"') in_string = false;
      continue;
    }
    if (*p == '"') in_string = true;
    if (*p != '{' && *p != '[') continue;
    const uint8_t* want = reference_skip(p, e);
    for (bool indexed : {false, true}) {
      nav::cursor c;
      c.begin = b;
      c.end = e;
      if (indexed) c.ends = ends.table();
      const uint8_t* got = nav::skip_value<K>(c, p);
      ASSERT_EQ(got, want) << "container at offset " << (p - b) << (indexed ? " (container ends)" : "");
      ASSERT_EQ(c.code == error_code::ok, want != nullptr);
      if (indexed) ASSERT_EQ(nav::known_end(c, p), want) << "container at offset " << (p - b);
    }
  }
}

// Strings with runs of backslashes, quotes and brackets inside, at every alignment, and
// runs of plain strings that leave whole blocks without brackets (the skip's fast path).
std::string random_document(std::mt19937_64& rng) {
  const char* pieces[] = {"{", "}", "[", "]", ",", ":", "1", "\"a\"", "\"[{\"", "\"}]\"", "\"\\\\\"", "\"\\\"\"",
                          "\"\\\\\\\"[\"", "\"x\\\\\\\\\"", " ", "\n", "\"\\u005b\"", "null",
                          "\"plain, with no brackets\",\"and \\\" more\",\"text\":\"\""};
  std::string s = "[";
  size_t n = 1 + rng() % 300;
  for (size_t i = 0; i < n; ++i) s += pieces[rng() % (sizeof(pieces) / sizeof(pieces[0]))];
  // Long strings cross block boundaries.
  if (rng() % 2) s += "\"" + std::string(rng() % 200, rng() % 2 ? '\\' : 'q') + "\\\"]\"";
  s += "]";
  return s;
}

}  // namespace

TYPED_TEST(NavigateTest, SkipMatchesReferenceOnGeneratedDocuments) {
  std::mt19937_64 rng(5);
  for (int round = 0; round < 3000; ++round) {
    std::string doc = random_document(rng);
    check_every_container<TypeParam>(doc);
    // Cut short: the skip must stop at the end, never read on.
    check_every_container<TypeParam>(doc.substr(0, rng() % (doc.size() + 1)));
  }
}

// Arrays of scalars whose end the skip looks for in their first kSmallContainerBytes
// (a chunk at a time) before it scans blocks: every length up to past that window, at
// every alignment, ended by ']' or '}' (a closing bracket of either kind ends them, as
// the block scan pairs brackets), with a string or a nested array at each place instead,
// and cut short at every length (the document's last byte an opening bracket too).
TYPED_TEST(NavigateTest, SmallArraysOfScalarsEndWhereTheReferenceSaysAtEveryLength) {
  for (size_t lead = 0; lead < 17; ++lead) {
    for (size_t n = 0; n <= nav::kSmallContainerBytes + 20; ++n) {
      std::string body;
      while (body.size() < n) body += body.size() % 3 == 2 ? ", " : "7";
      body.resize(n);
      for (const char* close : {"]", "}"}) {
        std::string doc = "[" + std::string(lead, ' ') + "[" + body + close + " , 1]";
        check_every_container<TypeParam>(doc);
        for (size_t cut = 0; cut <= doc.size(); ++cut) check_every_container<TypeParam>(doc.substr(0, cut));
      }
      for (size_t at = 0; at <= n; ++at) {
        for (const char* inner : {"\"]\"", "[1]", "{}"}) {
          check_every_container<TypeParam>("[" + std::string(lead, ' ') + "[" + body.substr(0, at) + inner + body.substr(at) + "]]");
        }
      }
    }
  }
}

TYPED_TEST(NavigateTest, SkipMatchesReferenceOnTheCorpus) {
  WASMJSON_SKIP_WITHOUT_SHARED();
  ASSERT_EQ(testing_support::shared_files("corpus").size(), testing_support::kCorpusFiles);
  for (auto [f, text] : testing_support::corpus_documents()) {
    if (text.size() > (1u << 20)) text.resize(1u << 20);  // every container of the first MiB
    check_every_container<TypeParam>(text);
  }
}

namespace {
// The value under `key` in the object `text`, or the error: code and offset.
template <class K>
std::pair<error_code, long> lookup(const std::string& text, const std::string& key) {
  padded_input in(text);
  nav::cursor c;
  c.begin = in.data();
  c.end = in.data() + in.size();
  growable<uint8_t> scratch;
  const uint8_t* v = nav::child<K>(c, c.begin, reinterpret_cast<const uint8_t*>(key.data()), key.size(), 0, scratch);
  if (c.code != error_code::ok) return {c.code, c.error_at - c.begin};
  return {error_code::ok, v ? v - c.begin : -1};
}
}  // namespace

// Keys compared on the way are checked as parse() checks strings, with parse()'s error
// and offset; an escape cut short by the closing quote is an error, not an over-read.
TYPED_TEST(NavigateTest, KeysAreCheckedAsParseChecksStrings) {
  using R = std::pair<error_code, long>;
  EXPECT_EQ(lookup<TypeParam>(R"({"\u0061\n\/":1,"b":2})", "a\n/"), R(error_code::ok, 14));
  EXPECT_EQ(lookup<TypeParam>(R"({"a":1,"\u00e9":2})", "\xc3\xa9"), R(error_code::ok, 16));
  EXPECT_EQ(lookup<TypeParam>(R"({"\a":1})", "a"), R(error_code::bad_escape, 3));
  EXPECT_EQ(lookup<TypeParam>("{\"a\tb\":1}", "b"), R(error_code::bad_control_character, 3));
  EXPECT_EQ(lookup<TypeParam>(R"({"x\u12":1,"b":2})", "b"), R(error_code::bad_unicode_escape, 7));
  EXPECT_EQ(lookup<TypeParam>(std::string(R"({")") + std::string(1022, 'a') + R"(\u":1,"b":2})", "b"),
            R(error_code::bad_unicode_escape, 1026));
  EXPECT_EQ(lookup<TypeParam>("{\"\xed\xa0\x80\":1}", "\xed\xa0\x80"), R(error_code::invalid_utf8, 2));
  EXPECT_EQ(lookup<TypeParam>("{\"a\xff\":1,\"b\":2}", "b"), R(error_code::invalid_utf8, 3));
  EXPECT_EQ(lookup<TypeParam>("{\"a\xc3\":1,\"b\":2}", "b"), R(error_code::invalid_utf8, 3));
}

// How far a lookup read (what a lazy document counts towards indexing its container
// ends): an object to its end (the last duplicate wins), an array to the element; and
// whether a key read held U+FFFD (at() then re-checks string input).
TYPED_TEST(NavigateTest, LookupsReportHowFarTheyReadAndKeysHoldingReplacement) {
  auto reach = [](const std::string& text, const char* key, size_t index, bool* replacement = nullptr) {
    padded_input in(text);
    nav::cursor c;
    c.begin = in.data();
    c.end = in.data() + in.size();
    growable<uint8_t> scratch;
    const uint8_t* r = nullptr;
    nav::child<TypeParam>(c, c.begin, reinterpret_cast<const uint8_t*>(key), key ? std::strlen(key) : 0, index, scratch, &r);
    if (replacement) *replacement = c.key_saw_replacement;
    return c.code == error_code::ok ? r - c.begin : -1;
  };
  EXPECT_EQ(reach(R"({"a":{"x":[1]},"b":2} )", "a", 0), 21);
  EXPECT_EQ(reach(R"({"a":1,"b":2})", "zz", 0), 13);
  EXPECT_EQ(reach(R"([10,[20,30],40,50])", nullptr, 2), 12);
  EXPECT_EQ(reach(R"([10,20])", nullptr, 5), 7);
  EXPECT_EQ(reach(R"({"a":1,"b")", "a", 0), -1);
  bool saw = true;
  reach("{\"a\":1,\"b\xc3\xa9\":2}", "a", 0, &saw);
  EXPECT_FALSE(saw);
  reach("{\"a\":1,\"\xef\xbf\xbd\\udc00\":2}", "a", 0, &saw);
  EXPECT_TRUE(saw);

  // The path walker: to the end of the outermost object on the path; along arrays only,
  // to the value.
  nav::pointer_tokens tokens;
  growable<nav::path_frame> frames;
  growable<uint8_t> scratch;
  auto path_reach = [&](const std::string& text, const std::string& pointer) {
    padded_input in(text);
    nav::cursor c;
    c.begin = in.data();
    c.end = in.data() + in.size();
    EXPECT_TRUE(tokens.read(reinterpret_cast<const uint8_t*>(pointer.data()), pointer.size()));
    nav::path_walker<TypeParam> walker(c, tokens, frames, scratch);
    nav::kind within = nav::kind::none;
    walker.find(c.begin, &within);
    return walker.reach() - c.begin;
  };
  EXPECT_EQ(path_reach(R"([1,{"a":[5,6],"b":0},3])", "/1/a/0"), 20);
  EXPECT_EQ(path_reach(R"([[1,2],[3,4]])", "/1/0"), 8);
  EXPECT_EQ(path_reach(R"({"a":{"b":1},"c":2})", "/a/b"), 19);
  EXPECT_EQ(path_reach(R"({"a":1,"c":2})", "/x/y"), 13);
}

namespace {
std::string random_nested(std::mt19937& rng, int depth) {
  if (depth == 0 || rng() % 4 == 0) return std::to_string(rng() % 100);
  int n = static_cast<int>(rng() % 4);
  bool object = rng() % 2;
  std::string out(1, object ? '{' : '[');
  for (int i = 0; i < n; ++i) {
    if (i) out += ',';
    if (object) out += std::string("\"") + "ab"[rng() % 2] + "\":";
    out += random_nested(rng, depth - 1);
  }
  return out + (object ? '}' : ']');
}

// The value a pointer leads to, one child() lookup per token (each object read whole).
template <class K>
const uint8_t* by_each_token(nav::cursor& c, const uint8_t* p, const std::vector<std::string>& tokens) {
  growable<uint8_t> scratch;
  for (const std::string& t : tokens) {
    if (*p == '{') {
      p = nav::child<K>(c, p, reinterpret_cast<const uint8_t*>(t.data()), t.size(), 0, scratch);
    } else if (*p == '[' && t.size() == 1 && t[0] >= '0' && t[0] <= '9') {
      p = nav::child<K>(c, p, nullptr, 0, static_cast<size_t>(t[0] - '0'), scratch);
    } else {
      return nullptr;
    }
    if (!p) return nullptr;
  }
  return p;
}
}  // namespace

// A whole pointer at once (descend through first matches, then read on upward) finds
// what one lookup per token finds, through duplicate keys at every level.
TYPED_TEST(NavigateTest, PathWalkerAgreesWithLookupsPerToken) {
  std::mt19937 rng(3);
  nav::pointer_tokens tokens;
  growable<nav::path_frame> frames;
  growable<uint8_t> scratch;
  for (int i = 0; i < 4000; ++i) {
    std::string doc = random_nested(rng, 5);
    padded_input in(doc);
    for (int k = 0; k < 6; ++k) {
      std::vector<std::string> list;
      std::string pointer;
      for (int n = 1 + static_cast<int>(rng() % 5); n > 0; --n) {
        list.emplace_back(1, "ab01"[rng() % 4]);
        pointer += "/" + list.back();
      }
      nav::cursor c1{in.data(), in.data() + in.size()}, c2{in.data(), in.data() + in.size()};
      const uint8_t* want = by_each_token<TypeParam>(c1, in.data(), list);
      ASSERT_TRUE(tokens.read(reinterpret_cast<const uint8_t*>(pointer.data()), pointer.size()));
      nav::path_walker<TypeParam> walker(c2, tokens, frames, scratch);
      nav::kind within = nav::kind::none;
      const uint8_t* got = walker.find(in.data(), &within);
      ASSERT_EQ(c1.code, error_code::ok);
      ASSERT_EQ(c2.code, error_code::ok);
      ASSERT_EQ(got, want) << doc << " " << pointer;
    }
  }
  // ~1 and ~0 decode; index tokens are canonical and below 2^32 - 1.
  const std::string escaped = "/a~1b/~0/x~01";
  ASSERT_TRUE(tokens.read(reinterpret_cast<const uint8_t*>(escaped.data()), escaped.size()));
  ASSERT_EQ(tokens.count(), 3u);
  EXPECT_EQ(std::string(reinterpret_cast<const char*>(tokens.begin(0)), tokens.length(0)), "a/b");
  EXPECT_EQ(std::string(reinterpret_cast<const char*>(tokens.begin(1)), tokens.length(1)), "~");
  EXPECT_EQ(std::string(reinterpret_cast<const char*>(tokens.begin(2)), tokens.length(2)), "x~1");
  const std::string indexes = "/0/01/4294967294/4294967295//12a";
  ASSERT_TRUE(tokens.read(reinterpret_cast<const uint8_t*>(indexes.data()), indexes.size()));
  size_t v = 0;
  EXPECT_TRUE(tokens.index(0, v) && v == 0);
  EXPECT_FALSE(tokens.index(1, v));
  EXPECT_TRUE(tokens.index(2, v) && v == 4294967294u);
  EXPECT_FALSE(tokens.index(3, v));
  EXPECT_FALSE(tokens.index(4, v));
  EXPECT_FALSE(tokens.index(5, v));
}

// A lookup through an array at the top resumes from the element a lookup in a head of
// the document (its first bytes, read as a document of its own) got to: the same value
// and outcome as a lookup in the whole document from its start, through a chain of
// heads cut anywhere (inside tokens, strings, whitespace); the progress it reports is
// the start of an element read, never past what the head held.
TYPED_TEST(NavigateTest, PathWalkerResumesInTheArrayAtTheTop) {
  std::mt19937 rng(11);
  nav::pointer_tokens tokens;
  growable<nav::path_frame> frames;
  growable<uint8_t> scratch;
  int resumed = 0;
  for (int i = 0; i < 1500; ++i) {
    int n = 1 + static_cast<int>(rng() % 12);
    std::string doc = "[";
    for (int k = 0; k < n; ++k) {
      if (k) doc += rng() % 3 ? "," : " ,\n ";
      doc += rng() % 5 ? random_nested(rng, 4) : std::string("\"s[{\\\"") + "x\"";
    }
    doc += rng() % 2 ? "]" : " ]";
    std::string pointer = "/" + std::to_string(rng() % (n + 2));
    for (int d = static_cast<int>(rng() % 3); d > 0; --d) pointer += std::string("/") + "ab01"[rng() % 4];
    ASSERT_TRUE(tokens.read(reinterpret_cast<const uint8_t*>(pointer.data()), pointer.size()));

    padded_input whole(doc);
    nav::cursor fresh{whole.data(), whole.data() + whole.size()};
    nav::kind want_within = nav::kind::none;
    const uint8_t* want;
    {
      nav::path_walker<TypeParam> walker(fresh, tokens, frames, scratch);
      want = walker.find(whole.data(), &want_within);
    }

    // Heads at increasing cuts, each resumed from the last one's progress, then the whole.
    size_t index = 0, offset = 0;
    std::vector<size_t> cuts;
    for (int k = static_cast<int>(rng() % 4); k > 0; --k) cuts.push_back(1 + rng() % doc.size());
    std::sort(cuts.begin(), cuts.end());
    cuts.push_back(doc.size());
    for (size_t cut : cuts) {
      padded_input head(doc.substr(0, cut));
      nav::cursor c{head.data(), head.data() + head.size()};
      nav::path_walker<TypeParam> walker(c, tokens, frames, scratch);
      if (offset != 0) {
        walker.resume_at(index, head.data() + offset);
        ++resumed;
      }
      nav::kind within = nav::kind::none;
      const uint8_t* got = walker.find(head.data(), &within);
      if (cut == doc.size()) {
        ASSERT_EQ(c.code, fresh.code) << doc << " " << pointer;
        ASSERT_EQ(got ? got - head.data() : -1, want ? want - whole.data() : -1) << doc << " " << pointer;
        if (want) ASSERT_EQ(within, want_within);
        break;
      }
      // A head that answers (a value, or none) answers as the whole document does.
      if (c.code == error_code::ok) {
        ASSERT_EQ(fresh.code, error_code::ok) << doc << " " << pointer;
        ASSERT_EQ(got ? got - head.data() : -1, want ? want - whole.data() : -1) << doc << " " << pointer;
      }
      if (walker.progress_entry()) {
        ASSERT_GE(walker.progress_index(), index);
        ASSERT_LE(static_cast<size_t>(walker.progress_entry() - head.data()), cut);
        index = walker.progress_index();
        offset = static_cast<size_t>(walker.progress_entry() - head.data());
      }
    }
  }
  EXPECT_GT(resumed, 1000);
}
