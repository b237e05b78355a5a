// Navigation exports (docs/BOUNDARY.md, "Navigation"): at() and lazy documents. The
// document is a buffer owned by JS with the usual zero padding; these calls only read it.
#include <cstdlib>
#include <cstring>
#include <new>

#include "../core/container_ends.h"
#include "../core/narrowed_units.h"
#include "../core/navigate.h"
#include "../core/validate.h"
#include "active_kernel.h"

namespace {
// Read by JS as consecutive u32 values after each call.
struct nav_report {
  uint32_t code;
  uint32_t error_offset;
  uint32_t value;  // offset of the value found (kNone when there is none)
  uint32_t kind;   // nav::kind of that value
  uint32_t count;  // wj_nav_entries: number of entries
  uint32_t list;   // wj_nav_entries: pointer to count entries: objects 4 u32 (key begin, key end, key escaped, value), arrays 1 (value)
  uint32_t within;  // wj_nav_path: nav::kind of the container the value is a member of (0: the start)
  // wj_nav_entries: offset past the container (0 when not read to its end); wj_nav_child
  // and wj_nav_path: how far the lookup read (0 after an error)
  uint32_t end;
  uint32_t key_saw_replacement;  // 1 when a key read held U+FFFD (nav::cursor)
  // wj_nav_path, when its first token indexes the array at `offset`: the element read
  // last (path_walker::progress_index / progress_entry), also after an error; offset 0: none.
  uint32_t progress_index;
  uint32_t progress_offset;
};
constexpr uint32_t kNone = UINT32_MAX;
nav_report g_nav;
wasmjson::growable<uint8_t> g_key_scratch;
wasmjson::growable<uint32_t> g_entries;
wasmjson::nav::pointer_tokens g_tokens;
wasmjson::growable<wasmjson::nav::path_frame> g_path;

// `ends`: the document's container_ends (wj_nav_ends_build), or null.
wasmjson::nav::cursor make_cursor(const uint8_t* doc, size_t len, const wasmjson::nav::container_ends* ends = nullptr) {
  wasmjson::nav::cursor c;
  c.begin = doc;
  c.end = doc + len;
  if (ends) c.ends = ends->table();
  g_nav = {0, 0, kNone, 0, 0, 0, 0, 0, 0, 0, 0};
  return c;
}

const nav_report* finish(const wasmjson::nav::cursor& c) {
  if (c.code != wasmjson::error_code::ok) {
    g_nav.code = static_cast<uint32_t>(c.code);
    g_nav.error_offset = static_cast<uint32_t>(c.error_at - c.begin);
    g_nav.value = kNone;
    g_nav.end = 0;
  }
  g_nav.key_saw_replacement = c.key_saw_replacement ? 1 : 0;
  return &g_nav;
}

void found(const wasmjson::nav::cursor& c, const uint8_t* v) {
  g_nav.value = static_cast<uint32_t>(v - c.begin);
  g_nav.kind = static_cast<uint32_t>(wasmjson::nav::kind_at(v));
}
}  // namespace

// Writes the padding after doc[0..len) (the buffer has room for it) and reports the
// root value: past one BOM (flags & SKIP_BOM) and any whitespace.
WJ_EXPORT const nav_report* wj_nav_root(uint8_t* doc, size_t len, uint32_t flags) {
  std::memset(doc + len, 0, wasmjson::kPadding);
  auto c = make_cursor(doc, len);
  const uint8_t* p = wasmjson::nav::skip_ws(doc + wasmjson::bom_length(doc, len, flags));
  if (p >= c.end) c.fail(wasmjson::error_code::unexpected_end, p);
  else found(c, p);
  return finish(c);
}

// The child of the container at `offset`: under the UTF-8 key[0..key_len) when key is
// not 0, else at `index`. value = kNone when there is no such child (or it is a scalar).
// `ends` (here and below): the document's container ends (wj_nav_ends_build), or 0.
WJ_EXPORT const nav_report* wj_nav_child(const uint8_t* doc, size_t len, size_t offset, const uint8_t* key,
                                         size_t key_len, size_t index, const wasmjson::nav::container_ends* ends) {
  auto c = make_cursor(doc, len, ends);
  const uint8_t* p = doc + offset;
  wasmjson::nav::kind k = wasmjson::nav::kind_at(p);
  bool fits = key ? k == wasmjson::nav::kind::object : k == wasmjson::nav::kind::array;
  if (fits) {
    const uint8_t* reach = p;
    const uint8_t* v = wasmjson::nav::child<active_kernel>(c, p, key, key_len, index, g_key_scratch, &reach);
    if (v) found(c, v);
    g_nav.end = static_cast<uint32_t>(reach - doc);
  }
  return finish(c);
}

// Lists the entries of the container at `offset` (see nav_report::list and end).
WJ_EXPORT const nav_report* wj_nav_entries(const uint8_t* doc, size_t len, size_t offset,
                                           const wasmjson::nav::container_ends* ends) {
  auto c = make_cursor(doc, len, ends);
  g_entries.clear();
  const uint8_t* after = nullptr;
  // An object's entries are four words (key begin, key end, key escaped, value); an
  // array's, its value alone (JS copies the list as it is).
  const bool is_object = doc[offset] == '{';
  if (is_object) {
    wasmjson::nav::for_each_entry<active_kernel>(
        c, doc + offset, [&](const uint8_t* kb, const uint8_t* ke, bool escaped, const uint8_t* v) {
          if (!g_entries.reserve_more(4)) return c.fail(wasmjson::error_code::out_of_memory, v);
          g_entries.push_unchecked(static_cast<uint32_t>(kb - doc));
          g_entries.push_unchecked(static_cast<uint32_t>(ke - doc));
          g_entries.push_unchecked(escaped ? 1 : 0);
          g_entries.push_unchecked(static_cast<uint32_t>(v - doc));
          return true;
        },
        &after);
  } else {
    wasmjson::nav::for_each_entry<active_kernel>(
        c, doc + offset, [&](const uint8_t*, const uint8_t*, bool, const uint8_t* v) {
          if (!g_entries.reserve_more(1)) return c.fail(wasmjson::error_code::out_of_memory, v);
          g_entries.push_unchecked(static_cast<uint32_t>(v - doc));
          return true;
        },
        &after);
  }
  if (after) g_nav.end = static_cast<uint32_t>(after - doc);
  g_nav.count = static_cast<uint32_t>(g_entries.size() / (is_object ? 4 : 1));
  g_nav.list = static_cast<uint32_t>(reinterpret_cast<uintptr_t>(g_entries.data()));
  return finish(c);
}

// The value the JSON Pointer pointer[0..len) (UTF-8, or WTF-8 for lone surrogates; it
// starts with '/' and its '~' escapes are valid) leads to from the value at `offset`:
// value = kNone when there is none; within = the kind of its container. With
// resume_offset (not 0), an array at `offset` is read from its element resume_index
// starting there (a previous call's progress in a text that starts as this one does).
WJ_EXPORT const nav_report* wj_nav_path(const uint8_t* doc, size_t len, size_t offset, const uint8_t* pointer,
                                        size_t pointer_len, const wasmjson::nav::container_ends* ends,
                                        size_t resume_index, size_t resume_offset) {
  auto c = make_cursor(doc, len, ends);
  if (!g_tokens.read(pointer, pointer_len)) {
    c.fail(wasmjson::error_code::out_of_memory, doc + offset);
    return finish(c);
  }
  wasmjson::nav::kind within = wasmjson::nav::kind::none;
  wasmjson::nav::path_walker<active_kernel> walker(c, g_tokens, g_path, g_key_scratch);
  if (resume_offset != 0) walker.resume_at(resume_index, doc + resume_offset);
  const uint8_t* v = walker.find(doc + offset, &within);
  if (v) {
    found(c, v);
    g_nav.within = static_cast<uint32_t>(within);
  }
  g_nav.end = static_cast<uint32_t>(walker.reach() - doc);
  if (walker.progress_entry()) {
    g_nav.progress_index = static_cast<uint32_t>(walker.progress_index());
    g_nav.progress_offset = static_cast<uint32_t>(walker.progress_entry() - doc);
  }
  return finish(c);
}

// String input navigated without transcoding (cpp/core/narrowed_units.h): narrows the n
// UTF-16 units at `units` to n bytes at `out` (which may be `units`: in place), a
// document for the calls here whose offsets are the string's.
WJ_EXPORT void wj_nav_narrow(const uint8_t* units, size_t n, uint8_t* out) { wasmjson::narrow_units<active_kernel>(units, n, out); }

// Where the value at `offset` ends (end: past it), found as a lookup skips it, and
// count = 1 when its text holds a 0x7F byte (in narrowed input: a unit that was not
// ASCII, or 0x7F itself), else 0.
WJ_EXPORT const nav_report* wj_nav_value_end(const uint8_t* doc, size_t len, size_t offset) {
  auto c = make_cursor(doc, len);
  const uint8_t* v = doc + offset;
  if (const uint8_t* e = wasmjson::nav::skip_value<active_kernel>(c, v)) {
    g_nav.end = static_cast<uint32_t>(e - doc);
    g_nav.count = std::memchr(v, 0x7F, static_cast<size_t>(e - v)) ? 1 : 0;
  }
  return finish(c);
}

// Frees what wj_nav_ends_build made (0: nothing).
WJ_EXPORT void wj_nav_ends_free(wasmjson::nav::container_ends* ends) {
  if (!ends) return;
  ends->~container_ends();
  std::free(ends);
}

// The ends of every container of doc[0..len) (its padding written by wj_nav_root), for
// the calls above to skip containers by lookup; 0 when memory ran out. Owned by JS until
// wj_nav_ends_free, which must come before the document's buffer is freed or reused.
WJ_EXPORT wasmjson::nav::container_ends* wj_nav_ends_build(const uint8_t* doc, size_t len) {
  void* p = std::malloc(sizeof(wasmjson::nav::container_ends));
  if (!p) return nullptr;
  auto* ends = new (p) wasmjson::nav::container_ends();
  if (!ends->build<active_kernel>(doc, len)) {
    wj_nav_ends_free(ends);
    return nullptr;
  }
  return ends;
}
