// The serializer: command batches (writer_commands.h) -> JSON text in an output_buffer,
// exactly as JSON.stringify lays it out, compact or indented with a gap. One writer per
// document at a time; its state (depth, separators) carries over from batch to batch, so
// JS can send a document in as many batches as it likes. Nothing here recurses: depth is
// a counter, and each container's commas are decided from one flag. In canonical mode
// (cmd::kCanonical, for canonicalize(value)) each object's members are put in RFC 8785's
// key order as it closes (writer_sort.h).
#pragma once
#include <cmath>
#include <cstring>

#include "writer_commands.h"
#include "writer_escape.h"
#include "writer_keys.h"
#include "writer_number.h"
#include "writer_output.h"
#include "writer_sort.h"

namespace wasmjson {

// One batch of commands. `strings` carries kPadding readable bytes after string_bytes.
struct write_batch {
  const uint32_t* ops;
  size_t op_count;
  const double* numbers;
  size_t number_count;
  const uint8_t* strings;
  size_t string_bytes;
  bool utf8;  // strings are UTF-8 (else UTF-16 code units)
};

template <class Kernel>
class json_writer {
 public:
  static constexpr size_t kMaxGapUnits = 10;

  // Starts a document. The gap (space argument, at most 10 UTF-16 units) is given as
  // UTF-16; an empty gap means compact output.
  void begin(uint32_t flags, const uint16_t* gap, size_t gap_units) {
    out_.clear();
    flags_ = flags;
    out_flags_ = 0;
    depth_ = 0;
    first_ = true;
    after_key_ = false;
    sorter_.reset();
    if (gap_units > kMaxGapUnits) gap_units = kMaxGapUnits;
    gap_len_ = static_cast<size_t>(
        transcode_utf16(gap_, gap, gap_units, (flags & cmd::kKeepLoneSurrogates) != 0, out_flags_) - gap_);
    // (Canonical text is compact: indented text is not sorted, and write() says so.)
    if (gap_len_ != 0) sorter_.stop();
  }

  // Appends one batch. Returns a cmd::status; after kResendUtf16 or an error the output
  // and state are as they were before the call (in canonical mode, only after
  // kResendUtf16: the document is given up after an error).
  uint32_t write(const write_batch& b, key_cache& keys) {
    size_t size = out_.size();
    uint32_t depth = depth_, flags = out_flags_;
    bool first = first_, after_key = after_key_;
    // A UTF-8 batch may have to go again as UTF-16 (cmd::kResendUtf16) after members it
    // closed had moved: from such a batch on, members stay in property order.
    if ((flags_ & cmd::kCanonical) && b.utf8) sorter_.stop();
    uint32_t status = gap_len_ ? run<true, false>(b, keys)
                      : sorter_.sorting() && (flags_ & cmd::kCanonical) ? run<false, true>(b, keys)
                                                                        : run<false, false>(b, keys);
    if (status != cmd::kOk) {
      out_.truncate(size);
      depth_ = depth;
      out_flags_ = flags;
      first_ = first;
      after_key_ = after_key;
    }
    if ((flags_ & cmd::kCanonical) && !sorter_.sorting()) out_flags_ |= cmd::kOutputUnsorted;
    return status;
  }

  const output_buffer& output() const { return out_; }
  output_buffer& output() { return out_; }
  uint32_t output_flags() const { return out_flags_; }

 private:
  // A key cache entry's flag beside its output flags: its text has a backslash (an
  // escape), which keeps canonical mode from sorting by it (writer_sort.h).
  static constexpr uint32_t kKeyHasBackslash = 1u << 7;

  // Most keys are short: one fixed 32-byte copy (the arena and the output have the
  // slack) instead of a variable-length memcpy.
  static void copy_key(uint8_t* o, const uint8_t* entry, size_t len) {
    if (len <= key_cache::kCopySlack) {
      std::memcpy(o, entry, key_cache::kCopySlack);
    } else {
      std::memcpy(o, entry, len);
    }
  }

  template <bool Pretty, bool Canonical>
  uint32_t run(const write_batch& b, key_cache& keys) {
    const uint32_t* op = b.ops;
    const uint32_t* op_end = op + b.op_count;
    const double* num = b.numbers;
    const double* num_end = num + b.number_count;
    const uint8_t* s8 = b.strings;  // UTF-8 cursor
    const uint16_t* s16 = reinterpret_cast<const uint16_t*>(b.strings);  // UTF-16 cursor
    const bool utf8 = b.utf8;
    const bool keep_lone = (flags_ & cmd::kKeepLoneSurrogates) != 0;
    uint32_t depth = depth_;
    bool first = first_;
    bool after_key = after_key_;
    uint32_t oflags = out_flags_;
    uint8_t* limit = nullptr;
    uint8_t* o = out_.reserve(out_.data() ? out_.data() + out_.size() : nullptr, 64, limit);
    if (!o) return cmd::kOutOfMemory;

    // Room for what goes before a value or key: ',' and, indented, '\n' and the indent.
    auto prefix_room = [&]() -> size_t { return Pretty ? 2 + size_t(depth) * gap_len_ : 1; };
    auto newline = [&](uint8_t* p, uint32_t d) {
      *p++ = '\n';
      for (uint32_t i = 0; i < d; ++i) {
        std::memcpy(p, gap_, gap_len_);
        p += gap_len_;
      }
      return p;
    };
    // Before a value: a separator unless it follows its key.
    auto value_prefix = [&](uint8_t* p) {
      if (after_key) {
        after_key = false;
      } else if (Pretty) {
        if (depth != 0) {
          if (!first) *p++ = ',';
          p = newline(p, depth);
        }
      } else if (!first) {
        *p++ = ',';
      }
      first = false;
      return p;
    };
    auto key_prefix = [&](uint8_t* p) {
      if (!first) *p++ = ',';
      if (Pretty) p = newline(p, depth);
      first = false;
      after_key = true;
      return p;
    };
    auto key_suffix = [&](uint8_t* p) {
      if (Pretty) *p++ = ' ';
      return p;
    };
    // (Canonical) A member whose key, quoted and followed by ':', spans [key, end); `id`
    // its id (member_sorter::kNoId: none), `escaped` whether it holds a backslash.
    auto member = [&](uint8_t* key, uint8_t* end, uint32_t id, bool escaped) {
      if (escaped) {
        sorter_.stop();
        return true;
      }
      return sorter_.member(static_cast<size_t>(key - out_.data()), static_cast<size_t>(end - key) - 3, id);
    };
    auto length = [&](uint32_t w) -> size_t {
      size_t n = w >> cmd::kTagBits;
      if (n == cmd::kLong) n = op < op_end ? *op++ : 0;
      return n;
    };
    // The most UTF-16 units the string data left can hold (UTF-8 takes at least a byte a
    // unit). Every string is checked against it before it is read, so a stream that says
    // more than it sent (a tampered JS side) asks for no room its data cannot need, and
    // reads no UTF-16 past the strings buffer's padding. (UTF-8 of 2- and 3-byte
    // sequences may still read up to 3x the data left; the check after the batch refuses it.)
    const uint8_t* strings_end = b.strings + b.string_bytes;
    auto units_left = [&]() -> size_t {
      const uint8_t* at = utf8 ? s8 : reinterpret_cast<const uint8_t*>(s16);
      size_t bytes = at < strings_end ? static_cast<size_t>(strings_end - at) : 0;
      return utf8 ? bytes : bytes / 2;
    };
    // Escaped content of the next string of n units, quoted. nullptr: resend as UTF-16.
    auto quoted = [&](uint8_t* p, size_t n) -> uint8_t* {
      *p++ = '"';
      if (utf8) {
        p = escape_utf8<Kernel>(p, s8, n, oflags);
        if (!p) return nullptr;
      } else {
        p = escape_utf16<Kernel>(p, s16, n, oflags);
        s16 += n;
      }
      *p++ = '"';
      return p;
    };
#define WJ_RESERVE(n)                               \
  do {                                              \
    size_t need_ = (n);                             \
    if (size_t(limit - o) < need_) {                \
      o = out_.reserve(o, need_, limit);            \
      if (!o) return cmd::kOutOfMemory;             \
    }                                               \
  } while (0)
    // A long UTF-16 string's content, quoted: piece by piece, each piece with its own
    // worst-case room (6 bytes a unit) and `after` bytes more. No piece splits a
    // surrogate pair: a piece that would end on a high surrogate ends before it.
#define WJ_QUOTED_PIECES(n, after)                                        \
  do {                                                                    \
    size_t left_ = (n);                                                   \
    *o++ = '"';                                                           \
    while (left_ != 0) {                                                  \
      size_t k_ = left_;                                                  \
      if (k_ > kEscapePieceUnits) {                                       \
        k_ = kEscapePieceUnits;                                           \
        if (detail::is_high(s16[k_ - 1])) --k_;                           \
      }                                                                   \
      WJ_RESERVE(k_ * kMaxEscapedPerUnit + kEscapeSlack + 1 + (after));   \
      o = escape_utf16<Kernel>(o, s16, k_, oflags);                       \
      s16 += k_;                                                          \
      left_ -= k_;                                                        \
    }                                                                     \
    *o++ = '"';                                                           \
  } while (0)

    while (op < op_end) {
      uint32_t w = *op++;
      switch (w & cmd::kTagMask) {
        case cmd::kNull:
        case cmd::kFalse:
        case cmd::kTrue: {
          // Tags 0, 1, 2: one fixed 8-byte copy of the literal.
          static constexpr char kLiterals[3][8] = {"null", "false", "true"};
          static constexpr uint8_t kLengths[3] = {4, 5, 4};
          uint32_t t = w & cmd::kTagMask;
          WJ_RESERVE(prefix_room() + 8);
          o = value_prefix(o);
          std::memcpy(o, kLiterals[t], 8);
          o += kLengths[t];
          break;
        }
        case cmd::kInt:
          WJ_RESERVE(prefix_room() + kMaxNumberLength);
          o = value_prefix(o);
          o = write_integer(o, static_cast<int32_t>(w) >> cmd::kTagBits);
          break;
        case cmd::kDouble: {
          if (num == num_end) return cmd::kBadCommand;
          double d = *num++;
          WJ_RESERVE(prefix_room() + kMaxNumberLength);
          o = value_prefix(o);
          if (std::isfinite(d)) {
            o = write_number(o, d);
          } else {
            std::memcpy(o, "null", 4);
            o += 4;
          }
          break;
        }
        case cmd::kString: {
          size_t n = length(w);
          if (n > units_left()) return cmd::kBadCommand;
          if (n > kEscapePieceUnits && !utf8) {
            WJ_RESERVE(prefix_room() + 1);
            o = value_prefix(o);
            WJ_QUOTED_PIECES(n, 0);
            break;
          }
          if (n > kMaxEscapableUnits) return cmd::kOutOfMemory;
          WJ_RESERVE(prefix_room() + 2 + n * kMaxEscapedPerUnit + kEscapeSlack);
          o = value_prefix(o);
          o = quoted(o, n);
          if (!o) return cmd::kResendUtf16;
          break;
        }
        case cmd::kKey: {
          size_t len = 0;
          uint32_t key_flags = 0;
          const uint8_t* entry = keys.get(w >> cmd::kTagBits, len, key_flags);
          if (!entry) return cmd::kBadCommand;
          oflags |= key_flags & ~kKeyHasBackslash;
          WJ_RESERVE(prefix_room() + len + key_cache::kCopySlack + 1);
          o = key_prefix(o);
          copy_key(o, entry, len);
          if (Canonical && !member(o, o + len, w >> cmd::kTagBits, key_flags & kKeyHasBackslash)) return cmd::kOutOfMemory;
          o = key_suffix(o + len);
          break;
        }
        case cmd::kKeyNew: {
          uint32_t id = w >> cmd::kTagBits;
          size_t n = op < op_end ? *op++ : 0;
          if (n > key_cache::kMaxKeyUnits || n > units_left()) return cmd::kBadCommand;
          uint8_t* room = keys.room(3 + n * kMaxEscapedPerUnit + kEscapeSlack);
          if (!room) return cmd::kOutOfMemory;
          uint32_t before = oflags;
          oflags = 0;
          uint8_t* end = quoted(room, n);
          uint32_t key_flags = oflags;
          oflags |= before;
          if (!end) return cmd::kResendUtf16;
          *end++ = ':';
          size_t len = static_cast<size_t>(end - room);
          if (member_sorter::has_backslash(room + 1, len - 3)) key_flags |= kKeyHasBackslash;
          if (!keys.define(id, len, key_flags)) return cmd::kBadCommand;
          WJ_RESERVE(prefix_room() + len + key_cache::kCopySlack + 1);  // moves the output, not the arena
          o = key_prefix(o);
          copy_key(o, room, len);
          if (Canonical && !member(o, o + len, id, key_flags & kKeyHasBackslash)) return cmd::kOutOfMemory;
          o = key_suffix(o + len);
          break;
        }
        case cmd::kKeyString: {
          size_t n = length(w);
          if (n > units_left()) return cmd::kBadCommand;
          if (n > kEscapePieceUnits && !utf8) {
            WJ_RESERVE(prefix_room() + 1);
            o = key_prefix(o);
            uint8_t* key = o;
            WJ_QUOTED_PIECES(n, 2);  // ':' and, indented, ' '
            *o++ = ':';
            if (Canonical && !member(key, o, member_sorter::kNoId, member_sorter::has_backslash(key + 1, o - key - 3))) {
              return cmd::kOutOfMemory;
            }
            o = key_suffix(o);
            break;
          }
          if (n > kMaxEscapableUnits) return cmd::kOutOfMemory;
          WJ_RESERVE(prefix_room() + 4 + n * kMaxEscapedPerUnit + kEscapeSlack);
          o = key_prefix(o);
          uint8_t* key = o;
          o = quoted(o, n);
          if (!o) return cmd::kResendUtf16;
          *o++ = ':';
          if (Canonical && !member(key, o, member_sorter::kNoId, member_sorter::has_backslash(key + 1, o - key - 3))) {
            return cmd::kOutOfMemory;
          }
          o = key_suffix(o);
          break;
        }
        case cmd::kArrayBegin:
        case cmd::kObjectBegin:
          WJ_RESERVE(prefix_room() + 1);
          o = value_prefix(o);
          *o++ = (w & cmd::kTagMask) == cmd::kArrayBegin ? '[' : '{';
          ++depth;
          first = true;
          if (Canonical && (w & cmd::kTagMask) == cmd::kObjectBegin && !sorter_.open_object()) return cmd::kOutOfMemory;
          break;
        case cmd::kArrayEnd:
        case cmd::kObjectEnd:
          if (depth == 0) return cmd::kBadCommand;
          --depth;
          // (Canonical: room past the brace, for the key comparisons and copies.)
          WJ_RESERVE(prefix_room() + (Canonical ? member_sorter::kCopySlack + 8 : 1));
          if (Canonical && (w & cmd::kTagMask) == cmd::kObjectEnd &&
              !sorter_.close_object(out_.data(), static_cast<size_t>(o - out_.data()))) {
            return cmd::kOutOfMemory;
          }
          if (Pretty && !first) o = newline(o, depth);
          *o++ = (w & cmd::kTagMask) == cmd::kArrayEnd ? ']' : '}';
          first = false;
          // (Canonical: the document is complete; its members move into key order, in
          // another buffer.)
          if (Canonical && depth == 0) {
            size_t end = static_cast<size_t>(o - out_.data());
            if (!sorter_.finish(out_, end)) return cmd::kOutOfMemory;
            o = out_.reserve(out_.data() + end, 0, limit);
          }
          break;
        case cmd::kRaw: {
          size_t n = length(w);
          if (n > units_left()) return cmd::kBadCommand;
          // (3 bytes a unit: more than memory can give is out of memory, before 3n can
          // wrap around wasm32's size_t.)
          if (n > kGrowthCeiling / 3) return cmd::kOutOfMemory;
          WJ_RESERVE(prefix_room() + 3 * n);
          o = value_prefix(o);
          if (utf8) {
            o = copy_utf8(o, s8, n, oflags);
            if (!o) return cmd::kResendUtf16;
          } else {
            o = transcode_utf16(o, s16, n, keep_lone, oflags);
            s16 += n;
          }
          break;
        }
        default:
          return cmd::kBadCommand;
      }
    }
#undef WJ_QUOTED_PIECES
#undef WJ_RESERVE
    // A stream that says more string data than it sent is malformed.
    size_t consumed = utf8 ? static_cast<size_t>(s8 - b.strings)
                           : static_cast<size_t>(reinterpret_cast<const uint8_t*>(s16) - b.strings);
    if (consumed > b.string_bytes) return cmd::kBadCommand;
    out_.commit(o);
    depth_ = depth;
    first_ = first;
    after_key_ = after_key;
    out_flags_ = oflags;
    return cmd::kOk;
  }

  output_buffer out_;
  member_sorter sorter_;
  uint32_t flags_ = 0;
  uint32_t out_flags_ = 0;
  uint32_t depth_ = 0;
  bool first_ = true;
  bool after_key_ = false;
  uint8_t gap_[kMaxGapUnits * 3];
  size_t gap_len_ = 0;
};

}  // namespace wasmjson
