// minify() and prettify(): rewrite a JSON text's whitespace, copying every string and
// number byte for byte (escapes kept, numbers never re-rounded). Reader sinks, so the
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
  reformat_writer(growable<uint8_t>& out, growable<uint8_t>& first, growable<uint8_t>& line, const uint8_t* indent,
                  size_t indent_len)
      : out_(out), first_(first), line_(line), indent_(indent), indent_len_(indent_len) {
    line_.clear();
  }

  // The token steps are inlined into the reader loop: per token, a call cost about as
  // much as the writing (callgrind, prettify of canada.json).
  WASMJSON_INLINE bool begin_object(size_t) { return open('{'); }
  WASMJSON_INLINE bool end_object() { return close('}'); }
  WASMJSON_INLINE bool begin_array(size_t) { return open('['); }
  WASMJSON_INLINE bool end_array() { return close(']'); }

  WASMJSON_INLINE bool key(const string_span& s) {
    size_t n = static_cast<size_t>(s.end - s.begin) + 4;
    if (!prefix(n)) return false;
    copy_input(s.begin - 1, s.end + 1);
    put(':');
    if (indent_len_) put(' ');
    after_key_ = true;
    return true;
  }
  WASMJSON_INLINE bool string(const string_span& s) {
    if (!prefix(static_cast<size_t>(s.end - s.begin) + 2)) return false;
    copy_input(s.begin - 1, s.end + 1);
    return true;
  }
  WASMJSON_INLINE bool number(const number_span& n) {
    if (!prefix(static_cast<size_t>(n.end - n.begin))) return false;
    copy_input(n.begin, n.end);
    return true;
  }
  WASMJSON_INLINE bool literal(literal_kind k, size_t) {
    // Each word padded to 8 bytes: one fixed-size copy (prefix() reserved the room).
    static const uint8_t words[3][8] = {{'n', 'u', 'l', 'l'}, {'f', 'a', 'l', 's', 'e'}, {'t', 'r', 'u', 'e'}};
    static constexpr size_t lengths[] = {4, 5, 4};
    size_t n = lengths[static_cast<int>(k)];
    if (!prefix(n)) return false;
    std::memcpy(out_.end_ptr(), words[static_cast<int>(k)], 8);
    out_.advance(n);
    return true;
  }

 private:
  // Separator and indentation before a value, then room for `n` more bytes.
  WASMJSON_INLINE bool prefix(size_t n) {
    size_t depth = first_.size();
    // +32: copy_input and newline() store whole 16-byte chunks.
    if (!out_.reserve_more(n + 34 + indent_len_ * depth)) return false;
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
  WASMJSON_INLINE bool open(uint8_t c) {
    if (!prefix(1) || !first_.reserve_more(1)) return false;
    put(c);
    first_.push_unchecked(1);
    return true;
  }
  WASMJSON_INLINE bool close(uint8_t c) {
    bool empty = first_.back();
    first_.pop_back();
    if (!out_.reserve_more(18 + indent_len_ * first_.size())) return false;
    if (!empty) newline(first_.size());
    put(c);
    return true;
  }
  // One copy per line break: line_ holds '\n' and the indent repeated for the deepest
  // level so far, copied in chunks of 16 bytes (not a variable-size memcpy: a bulk-memory
  // call in wasm, costly for the few bytes of a typical line break).
  WASMJSON_INLINE void newline(size_t depth) {
    if (!indent_len_) return;
    size_t need = 1 + depth * indent_len_;
    if (line_.size() < need && !grow_line(need)) {
      // (Growth of the cached line is best effort: on failure, write it piece by piece.)
      put('\n');
      for (size_t i = 0; i < depth; ++i) copy(indent_, indent_ + indent_len_);
      return;
    }
    const uint8_t* from = line_.data();
    uint8_t* to = out_.end_ptr();
    for (size_t i = 0; i < need; i += 16) std::memcpy(to + i, from + i, 16);
    out_.advance(need);
  }
  // Extends the cached line to `need` bytes (+16: it is read in whole chunks).
  __attribute__((noinline)) bool grow_line(size_t need) {
    if (!line_.reserve_more(need - line_.size() + 16)) return false;
    if (line_.size() == 0) line_.push_unchecked('\n');
    while (line_.size() < need) {
      std::memcpy(line_.end_ptr(), indent_, indent_len_);
      line_.advance(indent_len_);
    }
    return true;
  }
  void put(uint8_t c) { out_.push_unchecked(c); }
  // Short spans of the input (most tokens) move as one fixed 16- or 32-byte copy: the
  // input has padding to read past a token and prefix() reserved room to write past it.
  void copy_input(const uint8_t* b, const uint8_t* e) {
    size_t n = static_cast<size_t>(e - b);
    if (n <= 16) {
      std::memcpy(out_.end_ptr(), b, 16);
    } else if (n <= 32) {
      std::memcpy(out_.end_ptr(), b, 32);
    } else {
      std::memcpy(out_.end_ptr(), b, n);
    }
    out_.advance(n);
  }
  void copy(const uint8_t* b, const uint8_t* e) {
    size_t n = static_cast<size_t>(e - b);
    std::memcpy(out_.end_ptr(), b, n);
    out_.advance(n);
  }

  growable<uint8_t>& out_;
  growable<uint8_t>& first_;  // per open container: 1 until it has an element
  growable<uint8_t>& line_;
  const uint8_t* indent_;
  size_t indent_len_;
  bool after_key_ = false;
};

// minify() alone: the output is the input less its whitespace gaps, so nothing is
// written per token. The reader reports each gap; the text between gaps is copied in
// one piece (an already minified document is a single copy at the end).
// Tokens are ignored as validation ignores them (null_sink); only the gaps matter.
class minify_writer : public null_sink {
 public:
  // `out` must have room for the whole input (reserved by the caller).
  minify_writer(growable<uint8_t>& out, const uint8_t* begin) : out_(out), pending_(begin) {}

  void whitespace(const uint8_t* begin, const uint8_t* end) {
    copy_pending(begin);
    pending_ = end;
  }
  // After a successful read: the text after the last gap.
  void finish(const uint8_t* end) { copy_pending(end); }

 private:
  void copy_pending(const uint8_t* upto) {
    size_t n = static_cast<size_t>(upto - pending_);
    // Short pieces (pretty-printed input) as one fixed 16-byte copy: the input has
    // padding to read past them and the output room to write past them. A variable
    // memcpy is a bulk-memory call in wasm, costly for a few bytes.
    if (n <= 16) {
      std::memcpy(out_.end_ptr(), pending_, 16);
    } else {
      std::memcpy(out_.end_ptr(), pending_, n);
    }
    out_.advance(n);
  }

  growable<uint8_t>& out_;
  const uint8_t* pending_;  // start of the input not yet copied
};

// Requires kPadding zero bytes after data[len - 1]. `out` is cleared first.
template <class Kernel>
result reformat(const uint8_t* data, size_t len, uint32_t flags, const uint8_t* indent, size_t indent_len,
                byte_stack& stack, growable<uint8_t>& out, growable<uint8_t>& first, growable<uint8_t>& line) {
  out.clear();
  first.clear();
  size_t start = bom_length(data, len, flags);
  if (indent_len == 0) {
    // Minified output is never longer than the input (+16 for the last fixed-size copy).
    if (!out.reserve_more(len + 16)) return {error_code::out_of_memory, 0};
    minify_writer sink(out, data + start);
    result r = reader<Kernel, minify_writer>(data, len, sink, stack, start).run();
    if (r.ok()) sink.finish(data + len);
    return r;
  }
  reformat_writer sink(out, first, line, indent, indent_len);
  return reader<Kernel, reformat_writer>(data, len, sink, stack, start).run();
}

}  // namespace wasmjson
