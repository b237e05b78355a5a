// The raw wasm exports, as documented in docs/BOUNDARY.md. Pointers and sizes are
// wasm32 numbers (unsigned values arrive as signed i32 and are read with >>> 0).
import type { WasmMemory } from './wasm-types.js';

export interface WasmExports {
  readonly memory: WasmMemory;
  _initialize(): void;
  wj_alloc(size: number): number;
  wj_free(ptr: number): void;
  wj_padding(): number;
  wj_kernel(): number;
  wj_error_offset(): number;
  wj_validate(ptr: number, len: number, flags: number, maxDepth: number): number;
  /** Returns a pointer to the parse report (docs/BOUNDARY.md). */
  wj_parse(ptr: number, len: number, flags: number): number;
  /** parse's maxDepth: the limit before a wj_parse, the check after it (docs/BOUNDARY.md). */
  wj_parse_depth_limit(maxDepth: number): void;
  wj_parse_depth_check(ptr: number, len: number, flags: number): void;
  wj_reset_keys(): void;
  /** Where a byte offset of the UTF-8 text at ptr stands: a pointer to [line, line start, units, line-start units]. */
  wj_text_position(ptr: number, offset: number): number;
  /** Returns a pointer to the reformat report (docs/BOUNDARY.md). */
  wj_reformat(ptr: number, len: number, flags: number, indentPtr: number, indentLen: number, maxOutput: number): number;
  /** minify of a string's n UTF-16 units at ptr, in place; returns a pointer to the reformat report (units). */
  wj_minify_units(ptr: number, n: number): number;
  /** validate of a string's n UTF-16 units at ptr: an error code (0: valid). */
  wj_validate_units(ptr: number, n: number, maxDepth: number): number;
  /** prettify of a string's n UTF-16 units at ptr with the indent's units; returns a pointer to the reformat report (units). */
  wj_prettify_units(ptr: number, n: number, indentPtr: number, indentUnits: number, maxOutput: number): number;
  /** Navigation (docs/BOUNDARY.md): each returns a pointer to the navigation report. */
  wj_nav_root(doc: number, len: number, flags: number): number;
  // `ends`: the document's container ends (wj_nav_ends_build), or 0.
  wj_nav_child(doc: number, len: number, offset: number, key: number, keyLen: number, index: number, ends: number): number;
  wj_nav_entries(doc: number, len: number, offset: number, ends: number): number;
  wj_nav_path(doc: number, len: number, offset: number, pointer: number, pointerLen: number, ends: number, resumeIndex: number, resumeOffset: number): number;
  /** The ends of every container of a document, for the calls above (0: out of memory); freed by wj_nav_ends_free. */
  wj_nav_ends_build(doc: number, len: number): number;
  wj_nav_ends_free(ends: number): void;
  /** n UTF-16 units at `units` narrowed to n bytes at `out` (may be `units`; cpp/core/narrowed_units.h). */
  wj_nav_narrow(units: number, n: number, out: number): void;
  /** Where the value at offset ends (report: end), and count 1 when its text holds a 0x7F byte. */
  wj_nav_value_end(doc: number, len: number, offset: number): number;
  /** RFC 8785 text of a JSON document; returns a pointer to the canonicalize report. */
  wj_canonicalize(ptr: number, len: number, flags: number): number;
  /** n UTF-16 units at `units` -> UTF-8 at `out` (lone surrogates as U+FFFD); returns the bytes written. */
  wj_utf16_to_utf8(units: number, n: number, out: number): number;
  /** Where n units may sit after the output of wj_utf16_to_utf8, in bytes (even). */
  wj_utf16_input_gap(n: number): number;
  /** The well-formed UTF-8 (or WTF-8) at data[0..len) as UTF-16 units at out (room for len); returns how many. */
  wj_utf8_to_utf16(data: number, len: number, out: number): number;
}

export type Flavor = 'simd128' | 'swar64';

export const FLAVORS: readonly Flavor[] = ['simd128', 'swar64'];

/** Input flags (cpp/core/validate.h, cpp/core/parse.h). */
export const FLAG_SKIP_BOM = 1;
export const FLAG_WITH_SOURCE = 2;
export const FLAG_NO_KEY_INTERNING = 4;
/** Parse one value, a container's member, and stop after it (the report's error_offset is then its end). */
export const FLAG_SINGLE_VALUE = 8;
/** With FLAG_SINGLE_VALUE: the value is an object member (',' or '}' must follow it; else ',' or ']'). */
export const FLAG_IN_OBJECT = 256;
/** Tape positions are byte offsets (strings decoded one by one). */
export const FLAG_BYTE_OFFSETS = 16;
/** Strings without escapes are copied to a string heap; tape positions index its text. */
export const FLAG_STRING_HEAP = 32;
/** Integer literals beyond ±(2^53 - 1) come as text (kDouble with kIntegerText), for BigInts. */
export const FLAG_BIGINTS_UNSAFE = 64;
/** Every integer literal comes as text, for BigInts. */
export const FLAG_BIGINTS_ALL = 128;
/**
 * wj_canonicalize's own flag (cpp/core/canonicalize.h): every number is already as
 * Number::toString writes it (the serializer's output), and is copied.
 */
export const FLAG_NUMBERS_IN_JS_FORM = 2;

/**
 * wj_canonicalize's codes for valid JSON that RFC 8785 cannot write (cpp/core/error.h):
 * a lone surrogate, a number that reads as Infinity.
 */
export const CODE_JCS_LONE_SURROGATE = 21;
export const CODE_JCS_NOT_FINITE = 22;
/** wj_reformat's and wj_prettify_units's code for output that would pass their max_output. */
export const CODE_OUTPUT_TOO_LONG = 23;
/** wj_validate's max_depth for no limit, and its code for a container deeper than a limit. */
export const NO_DEPTH_LIMIT = 0xffffffff;
export const CODE_TOO_DEEP = 24;

// The only import a standalone Emscripten module asks for; nothing to do on growth
// because every view is re-checked before use (growth leaves old views empty).
/** @internal (its type names WebAssembly: see wasm-types.ts) */
export const IMPORTS: WebAssembly.Imports = {
  env: { emscripten_notify_memory_growth: () => {} },
};

// (module (func (result v128) i32.const 0 i8x16.splat)): validates only where the
// engine has SIMD128.
const SIMD_PROBE = new Uint8Array([
  0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00, 0x01, 0x05, 0x01, 0x60, 0x00, 0x01, 0x7b, 0x03, 0x02, 0x01,
  0x00, 0x0a, 0x08, 0x01, 0x06, 0x00, 0x41, 0x00, 0xfd, 0x0f, 0x0b,
]);

export function engineHasSimd128(): boolean {
  try {
    return WebAssembly.validate(SIMD_PROBE);
  } catch {
    return false;
  }
}
