// The wasm boundary of stringify()/encode(): write sessions that turn command batches
// (cpp/core/writer_commands.h) into JSON text. A second translation unit of the same
// modules as exports.cpp; docs/BOUNDARY.md ("Serializing") is the contract.
#include <cstdlib>
#include <cstring>
#include <new>

#include "../core/utf8_to_utf16.h"
#include "../core/writer.h"

#include "active_kernel.h"

namespace {

using namespace wasmjson;

// What JS reads of a session, as consecutive u32 values (docs/BOUNDARY.md).
struct write_report {
  uint32_t ops;          // the ops area (4-byte aligned)
  uint32_t ops_cap;      // its capacity in words
  uint32_t numbers;      // the numbers area (8-byte aligned)
  uint32_t numbers_cap;  // its capacity in float64 values
  uint32_t strings;      // the strings area (8-byte aligned)
  uint32_t strings_cap;  // its capacity in bytes; kPadding more bytes follow
  uint32_t out;          // the output so far
  uint32_t out_len;
  uint32_t out_flags;    // cmd::output_flags
};

constexpr size_t kOpsCap = 16 * 1024;
constexpr size_t kNumbersCap = 8 * 1024;
constexpr size_t kStringsCap = 128 * 1024;
// Output and strings areas above this are given back when a document starts.
constexpr size_t kKeepBytes = 16 * 1024 * 1024;

struct write_session {
  write_report report;  // first: the session pointer is the report's pointer
  json_writer<active_kernel> writer;
  uint32_t* ops = nullptr;
  double* numbers = nullptr;
  uint8_t* strings = nullptr;
  size_t strings_cap = 0;

  bool init() {
    ops = static_cast<uint32_t*>(std::malloc(kOpsCap * sizeof(uint32_t)));
    numbers = static_cast<double*>(std::malloc(kNumbersCap * sizeof(double)));
    return ops && numbers && strings_room(kStringsCap);
  }
  ~write_session() {
    std::free(ops);
    std::free(numbers);
    std::free(strings);
  }
  bool strings_room(size_t bytes) {
    if (bytes <= strings_cap && strings) return true;
    // (Grown as every buffer is, by grown_capacity: a doubling loop of its own wrapped
    // around to 0 past 2^31.)
    size_t cap = grown_capacity(strings_cap, bytes, kStringsCap, 1);
    if (cap == 0 || cap > SIZE_MAX - kPadding) return false;
    void* p = std::malloc(cap + kPadding);  // old content is not needed: JS refills it
    if (!p) return false;
    std::free(strings);
    strings = static_cast<uint8_t*>(p);
    strings_cap = cap;
    return true;
  }
  void report_areas() {
    report.ops = static_cast<uint32_t>(reinterpret_cast<uintptr_t>(ops));
    report.ops_cap = static_cast<uint32_t>(kOpsCap);
    report.numbers = static_cast<uint32_t>(reinterpret_cast<uintptr_t>(numbers));
    report.numbers_cap = static_cast<uint32_t>(kNumbersCap);
    report.strings = static_cast<uint32_t>(reinterpret_cast<uintptr_t>(strings));
    report.strings_cap = static_cast<uint32_t>(strings_cap);
  }
  void report_output() {
    const output_buffer& out = writer.output();
    report.out = static_cast<uint32_t>(reinterpret_cast<uintptr_t>(out.data()));
    report.out_len = static_cast<uint32_t>(out.size());
    report.out_flags = writer.output_flags();
  }
};

// Keys by id, shared by every session of this instance: JS holds the one Map of ids.
key_cache g_write_keys;

}  // namespace

// A new session, or 0 when memory cannot grow. JS keeps one for reuse and makes more
// only for nested calls (a toJSON or replacer that calls stringify again).
WJ_EXPORT write_session* wj_writer_new() {
  void* p = std::malloc(sizeof(write_session));
  if (!p) return nullptr;
  auto* s = new (p) write_session();
  if (!s->init()) {
    s->~write_session();
    std::free(p);
    return nullptr;
  }
  s->report_areas();
  s->report_output();
  return s;
}

WJ_EXPORT void wj_writer_free(write_session* s) {
  if (!s) return;
  s->~write_session();
  std::free(s);
}

// Makes the strings area hold at least `bytes` bytes (its content is lost). Returns a
// cmd::status; the report has the new area.
WJ_EXPORT uint32_t wj_writer_strings(write_session* s, size_t bytes) {
  if (!s->strings_room(bytes)) return cmd::kOutOfMemory;
  s->report_areas();
  return cmd::kOk;
}

// Starts a document. The gap (`gap_units` UTF-16 units, at most 10) is read from the
// start of the strings area.
WJ_EXPORT uint32_t wj_writer_begin(write_session* s, uint32_t flags, size_t gap_units) {
  s->writer.output().shrink_if_above(kKeepBytes);
  s->writer.begin(flags, reinterpret_cast<const uint16_t*>(s->strings), gap_units);
  s->report_output();
  return cmd::kOk;
}

// Formats one batch: op_count words from the ops area, number_count values from the
// numbers area, string_bytes bytes of the strings area. Mode bits (cmd::write_mode): the
// strings are UTF-8 (else UTF-16); the batch starts a compact document (saving a
// wj_writer_begin call), keeping lone surrogates of raw text if asked. Returns a
// cmd::status; the report has the output so far.
WJ_EXPORT uint32_t wj_write(write_session* s, size_t op_count, size_t number_count, size_t string_bytes,
                            uint32_t mode) {
  if (op_count > kOpsCap || number_count > kNumbersCap || string_bytes > s->strings_cap) {
    return cmd::kBadCommand;
  }
  if (mode & cmd::kWriteBegin) {
    s->writer.output().shrink_if_above(kKeepBytes);
    s->writer.begin(((mode & cmd::kWriteKeepLoneSurrogates) ? cmd::kKeepLoneSurrogates : 0) |
                        ((mode & cmd::kWriteCanonical) ? cmd::kCanonical : 0),
                    nullptr, 0);
  }
  write_batch b{s->ops, op_count, s->numbers, number_count, s->strings, string_bytes, (mode & cmd::kWriteUtf8) != 0};
  uint32_t status = s->writer.write(b, g_write_keys);
  s->report_output();
  return status;
}

// Forgets every key id (JS clears its Map at the same time).
WJ_EXPORT void wj_writer_reset_keys() { g_write_keys.reset(); }

// Makes room for wj_padding() bytes after the output, for wj_canonicalize to read the
// output where it is (canonicalize(value) serializes, then canonicalizes the text).
// Returns a cmd::status; the report has the output, which may have moved.
WJ_EXPORT uint32_t wj_writer_pad(write_session* s) {
  output_buffer& out = s->writer.output();
  uint8_t* limit = nullptr;
  if (!out.reserve(out.data() ? out.data() + out.size() : nullptr, kPadding, limit)) return cmd::kOutOfMemory;
  s->report_output();
  return cmd::kOk;
}

// Outputs as UTF-16, for engines whose UTF-8 decoding is slow (Node 20 and 22: js/src/utf8.ts,
// decodeUtf8In): the well-formed UTF-8 (or WTF-8) at data[0..len) as UTF-16 units at
// out, which has room for len; returns how many. Reads and stores nothing past either.
// (Here for every output, not only stringify's: exports.cpp is compiled with the PGO
// profile, which has no counts for it.)
WJ_EXPORT size_t wj_utf8_to_utf16(const uint8_t* data, size_t len, uint16_t* out) {
  return utf8_to_utf16<active_kernel>(data, data + len, out);
}

// Gives back the strings area of a session after an unusually large document.
WJ_EXPORT void wj_writer_trim(write_session* s) {
  if (s->strings_cap > kKeepBytes) {
    void* p = std::malloc(kStringsCap + kPadding);
    if (p) {
      std::free(s->strings);
      s->strings = static_cast<uint8_t*>(p);
      s->strings_cap = kStringsCap;
    }
  }
  s->report_areas();
}
