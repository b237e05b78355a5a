// Error codes reported across the wasm boundary. Numbers are stable: the JS side
// (js/src/errors.ts) maps them to messages. Keep both lists and docs/BOUNDARY.md in step.
#pragma once
#include <cstddef>
#include <cstdint>

namespace wasmjson {

enum class error_code : uint32_t {
  ok = 0,
  unexpected_end = 1,              // input ended where more was required
  unexpected_character = 2,        // a value was expected here
  expected_property_name_or_brace = 3,  // after '{'
  expected_property_name = 4,      // after ',' in an object
  expected_colon = 5,              // after a property name
  expected_comma_or_brace = 6,     // after a property value
  expected_comma_or_bracket = 7,   // after an array element
  unterminated_string = 8,
  bad_control_character = 9,       // raw byte < 0x20 inside a string
  bad_escape = 10,                 // '\' followed by something other than "\/bfnrtu
  bad_unicode_escape = 11,         // '\u' not followed by four hex digits
  no_number_after_minus = 12,
  exponent_missing_number = 13,
  unterminated_fraction = 14,
  trailing_content = 15,           // non-whitespace after the document
  invalid_utf8 = 16,               // bytes input that is not well-formed UTF-8
  leading_zero = 17,               // a digit after a leading 0 ("01")
  out_of_memory = 18,              // wasm memory could not grow to hold the work
  // (19 and 20 are wj_write statuses, writer_commands.h.) canonicalize() only: valid
  // JSON whose value RFC 8785 cannot write. JS reports these as its value path does.
  jcs_lone_surrogate = 21,         // a string or key that is written holds a lone surrogate
  jcs_not_finite = 22,             // a number that is written reads as ±Infinity
  // prettify() only: the output would pass the caller's limit (the longest JS string).
  output_too_long = 23,
  // validate() with a nesting limit (options.maxDepth): a container deeper than it.
  too_deep = 24,
};

struct result {
  error_code code;
  size_t offset;  // byte offset of the offending byte (or of the end of input)
  bool ok() const { return code == error_code::ok; }
};

}  // namespace wasmjson
