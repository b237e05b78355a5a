// minify() and prettify(): rewrite a JSON text's whitespace, copying every string and
// number byte for byte (escapes kept, numbers never re-rounded). A reader sink, so the
// input is fully validated on the way; output is UTF-8 in a growable buffer.
#pragma once
#include <cstring>

#include "growable.h"
#include "reader.h"
#include "validate.h"

namespace wasmjson {

class reformat_writer {
 public:
  // An empty indent minifies; otherwise each level is indented by `indent` (as
  // JSON.stringify's space argument, already reduced to at most 10 bytes by the caller).
  reformat_writer(growable<uint8_t>& out, growable<uint8_t>& first, const uint8_t* indent, size_t indent_len)
      : out_(out), first_(first), indent_(indent), indent_len_(indent_len) {}

  bool begin_object(size_t) { return open('{'); }
  bool end_object() { return close('}'); }
  bool begin_array(size_t) { return open('['); }
  bool end_array() { return close(']'); }

  bool key(const string_span& s) {
    size_t n = static_cast<size_t>(s.end - s.begin) + 4;
    if (!prefix(n)) return false;
    copy(s.begin - 1, s.end + 1);
    put(':');
    if (indent_len_) put(' ');
    after_key_ = true;
    return true;
  }
  bool string(const string_span& s) {
    if (!prefix(static_cast<size_t>(s.end - s.begin) + 2)) return false;
    copy(s.begin - 1, s.end + 1);
    return true;
  }
  bool number(const number_span& n) {
    if (!prefix(static_cast<size_t>(n.end - n.begin))) return false;
    copy(n.begin, n.end);
    return true;
  }
  bool literal(literal_kind k, size_t) {
    static const char* const words[] = {"null", "false", "true"};
    const char* w = words[static_cast<int>(k)];
    size_t n = std::strlen(w);
    if (!prefix(n)) return false;
    copy(reinterpret_cast<const uint8_t*>(w), reinterpret_cast<const uint8_t*>(w) + n);
    return true;
  }

 private:
  // Separator and indentation before a value, then room for `n` more bytes.
  bool prefix(size_t n) {
    size_t depth = first_.size();
    if (!out_.reserve_more(n + 2 + indent_len_ * depth)) return false;
    if (after_key_) {
      after_key_ = false;
      return true;
    }
    if (depth == 0) return true;
    if (!first_.back()) put(',');
    first_.back() = 0;
    newline(depth);
    return true;
  }
  bool open(uint8_t c) {
    if (!prefix(1) || !first_.reserve_more(1)) return false;
    put(c);
    first_.push_unchecked(1);
    return true;
  }
  bool close(uint8_t c) {
    bool empty = first_.back();
    first_.pop_back();
    if (!out_.reserve_more(2 + indent_len_ * first_.size())) return false;
    if (!empty) newline(first_.size());
    put(c);
    return true;
  }
  void newline(size_t depth) {
    if (!indent_len_) return;
    put('\n');
    for (size_t i = 0; i < depth; ++i) copy(indent_, indent_ + indent_len_);
  }
  void put(uint8_t c) { out_.push_unchecked(c); }
  void copy(const uint8_t* b, const uint8_t* e) {
    size_t n = static_cast<size_t>(e - b);
    std::memcpy(out_.end_ptr(), b, n);
    out_.advance(n);
  }

  growable<uint8_t>& out_;
  growable<uint8_t>& first_;  // per open container: 1 until it has an element
  const uint8_t* indent_;
  size_t indent_len_;
  bool after_key_ = false;
};

// Requires kPadding zero bytes after data[len - 1]. `out` is cleared first.
template <class Kernel>
result reformat(const uint8_t* data, size_t len, uint32_t flags, const uint8_t* indent, size_t indent_len,
                byte_stack& stack, growable<uint8_t>& out, growable<uint8_t>& first) {
  out.clear();
  first.clear();
  reformat_writer sink(out, first, indent, indent_len);
  return reader<Kernel, reformat_writer>(data, len, sink, stack, bom_length(data, len, flags)).run();
}

}  // namespace wasmjson
