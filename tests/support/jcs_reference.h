// An independent RFC 8785 reference for canonicalize() (cpp/core/canonicalize.h), shared
// by tests/cpp/canonicalize_test.cpp and tests/fuzz/fuzz_canonicalize.cpp: a plain
// recursive decoder (UTF-16 strings, doubles by strtod, objects in a std::map keyed by
// std::u16string, whose order is UTF-16 code unit order; a duplicate key keeps the last
// value) and writer (JSON.stringify's escaping, the project's write_number for numbers).
//
// The input must be valid JSON without a byte order mark (its reader checks nothing), and
// shallow: reading, writing and freeing recurse once per nesting level.
//
// WASMJSON_REFERENCE_FN, defined before including this, marks every function (a fuzzer
// defines it to leave the reference out of coverage).
#pragma once
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "core/error.h"
#include "core/writer_number.h"

#ifndef WASMJSON_REFERENCE_FN
#define WASMJSON_REFERENCE_FN
#endif

namespace wasmjson::jcs_reference {

struct ref_value {
  enum kind_t { null_v, false_v, true_v, number_v, string_v, array_v, object_v } kind = null_v;
  double number = 0;
  std::u16string string;
  std::vector<std::unique_ptr<ref_value>> items;
  std::map<std::u16string, std::unique_ptr<ref_value>> members;  // std::u16string order = UTF-16 units
};

struct ref_reader {
  const std::string& s;
  size_t i = 0;
  WASMJSON_REFERENCE_FN void ws() {
    while (i < s.size() && (s[i] == ' ' || s[i] == '\n' || s[i] == '\r' || s[i] == '\t')) ++i;
  }
  WASMJSON_REFERENCE_FN unsigned hex4() {
    unsigned v = std::stoul(s.substr(i, 4), nullptr, 16);
    i += 4;
    return v;
  }
  WASMJSON_REFERENCE_FN std::u16string str() {
    std::u16string out;
    ++i;  // '"'
    while (s[i] != '"') {
      unsigned char c = static_cast<unsigned char>(s[i]);
      if (c == '\\') {
        char e = s[i + 1];
        i += 2;
        switch (e) {
          case 'b': out += u'\b'; break;
          case 'f': out += u'\f'; break;
          case 'n': out += u'\n'; break;
          case 'r': out += u'\r'; break;
          case 't': out += u'\t'; break;
          case 'u': out += static_cast<char16_t>(hex4()); break;
          default: out += static_cast<char16_t>(e);
        }
        continue;
      }
      uint32_t cp;
      size_t n = c < 0x80 ? 1 : c < 0xE0 ? 2 : c < 0xF0 ? 3 : 4;
      cp = n == 1 ? c : n == 2 ? c & 0x1F : n == 3 ? c & 0x0F : c & 0x07;
      for (size_t k = 1; k < n; ++k) cp = (cp << 6) | (static_cast<unsigned char>(s[i + k]) & 0x3F);
      i += n;
      if (cp >= 0x10000) {
        out += static_cast<char16_t>(0xD800 + ((cp - 0x10000) >> 10));
        out += static_cast<char16_t>(0xDC00 + ((cp - 0x10000) & 0x3FF));
      } else {
        out += static_cast<char16_t>(cp);
      }
    }
    ++i;
    return out;
  }
  WASMJSON_REFERENCE_FN std::unique_ptr<ref_value> value() {
    ws();
    auto v = std::make_unique<ref_value>();
    char c = s[i];
    if (c == '{') {
      v->kind = ref_value::object_v;
      ++i;
      ws();
      if (s[i] == '}') {
        ++i;
        return v;
      }
      for (;;) {
        ws();
        std::u16string k = str();
        ws();
        ++i;  // ':'
        v->members[k] = value();  // a duplicate replaces the earlier value
        ws();
        if (s[i++] == '}') return v;
      }
    }
    if (c == '[') {
      v->kind = ref_value::array_v;
      ++i;
      ws();
      if (s[i] == ']') {
        ++i;
        return v;
      }
      for (;;) {
        v->items.push_back(value());
        ws();
        if (s[i++] == ']') return v;
      }
    }
    if (c == '"') {
      v->kind = ref_value::string_v;
      v->string = str();
      return v;
    }
    if (c == 't' || c == 'f' || c == 'n') {
      v->kind = c == 't' ? ref_value::true_v : c == 'f' ? ref_value::false_v : ref_value::null_v;
      i += c == 'f' ? 5 : 4;
      return v;
    }
    size_t used = 0;
    v->kind = ref_value::number_v;
    v->number = std::strtod(s.c_str() + i, nullptr);
    while (i + used < s.size() && std::strchr("+-.eE0123456789", s[i + used])) ++used;
    i += used;
    return v;
  }
};

// JSON.stringify's escaping of a UTF-16 string, one unit at a time; false on a lone surrogate.
WASMJSON_REFERENCE_FN inline bool ref_string(std::string& out, const std::u16string& s) {
  out += '"';
  for (size_t i = 0; i < s.size(); ++i) {
    uint32_t u = s[i];
    if (u == '"' || u == '\\') {
      out += '\\';
      out += static_cast<char>(u);
    } else if (u < 0x20) {
      static const char* shorts[] = {nullptr, nullptr, nullptr, nullptr, nullptr, nullptr, nullptr, nullptr,
                                     "\\b",   "\\t",   "\\n",   nullptr, "\\f",   "\\r"};
      if (u < 14 && shorts[u]) {
        out += shorts[u];
      } else {
        char buf[8];
        std::snprintf(buf, sizeof buf, "\\u%04x", u);
        out += buf;
      }
    } else if (u >= 0xD800 && u <= 0xDFFF) {
      if (u > 0xDBFF || i + 1 == s.size() || s[i + 1] < 0xDC00 || s[i + 1] > 0xDFFF) return false;
      uint32_t cp = 0x10000 + ((u - 0xD800) << 10) + (s[++i] - 0xDC00);
      out += static_cast<char>(0xF0 | (cp >> 18));
      out += static_cast<char>(0x80 | ((cp >> 12) & 0x3F));
      out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
      out += static_cast<char>(0x80 | (cp & 0x3F));
    } else if (u < 0x80) {
      out += static_cast<char>(u);
    } else if (u < 0x800) {
      out += static_cast<char>(0xC0 | (u >> 6));
      out += static_cast<char>(0x80 | (u & 0x3F));
    } else {
      out += static_cast<char>(0xE0 | (u >> 12));
      out += static_cast<char>(0x80 | ((u >> 6) & 0x3F));
      out += static_cast<char>(0x80 | (u & 0x3F));
    }
  }
  out += '"';
  return true;
}

// The reference's JCS text; code: 0, or the kJcs* code of what it could not write.
WASMJSON_REFERENCE_FN inline uint32_t ref_write(std::string& out, const ref_value& v) {
  switch (v.kind) {
    case ref_value::null_v: out += "null"; return 0;
    case ref_value::false_v: out += "false"; return 0;
    case ref_value::true_v: out += "true"; return 0;
    case ref_value::number_v: {
      if (!std::isfinite(v.number)) return static_cast<uint32_t>(error_code::jcs_not_finite);
      uint8_t buf[kMaxNumberLength];
      out.append(reinterpret_cast<char*>(buf), write_number(buf, v.number) - buf);
      return 0;
    }
    case ref_value::string_v:
      return ref_string(out, v.string) ? 0 : static_cast<uint32_t>(error_code::jcs_lone_surrogate);
    case ref_value::array_v: {
      out += '[';
      for (size_t i = 0; i < v.items.size(); ++i) {
        if (i) out += ',';
        if (uint32_t c = ref_write(out, *v.items[i])) return c;
      }
      out += ']';
      return 0;
    }
    default: {
      out += '{';
      bool first = true;
      for (auto& [k, m] : v.members) {
        if (!first) out += ',';
        first = false;
        if (!ref_string(out, k)) return static_cast<uint32_t>(error_code::jcs_lone_surrogate);
        out += ':';
        if (uint32_t c = ref_write(out, *m)) return c;
      }
      out += '}';
      return 0;
    }
  }
}

}  // namespace wasmjson::jcs_reference
