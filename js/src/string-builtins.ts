// Moving strings between JS and wasm memory through the engine's JS String Builtins
// (WebAssembly `wasm:js-string`, compiled with `{ builtins: ['js-string'] }`): browsers.
//
// Why: browsers have no fast way to put a JS string into linear memory. Chromium's
// TextEncoder.encodeInto writes two-byte strings at 4-5 ns a unit and a JS charCodeAt
// loop takes about 3, which made the copy cost as much as JSON.parse of the same text.
// `intoCharCodeArray` copies a string's units into a wasm GC array; a wasm loop then
// moves them into linear memory, where cpp/core/utf16_input.h transcodes them to UTF-8.
// The other way, UTF-16 units in memory (the parse's unescaped strings) become a string
// by a wasm loop into the array and `fromCharCodeArray`: Chromium's TextDecoder takes
// 2.4 ns a unit for UTF-16LE, this 0.9-1.0.
//
// The module is small enough to be written here as bytes (no toolchain of ours emits
// wasm GC). Where the engine lacks the builtins (or wasm GC), compiling or linking it
// fails and the caller keeps its other routes.
//
//   (type $units (array (mut i16)))
//   (import "wasm:js-string" "intoCharCodeArray" (func (param externref (ref null $units) i32) (result i32)))
//   (import "wasm:js-string" "length" (func (param externref) (result i32)))
//   (import "wasm:js-string" "fromCharCodeArray" (func (param (ref null $units) i32 i32) (result (ref extern))))
//   (import "env" "memory" (memory 0))
//   (global $kept (mut (ref null $units)) (ref.null $units))
//   (func (export "copy") (param $text externref) (param $ptr i32) (result i32)
//     ;; intoCharCodeArray(text) into the array for its length (see below), then the
//     ;; units stored at ptr as u16, four at a time as an i64. Returns the text's length.
//     ...)
//   (func (export "units") (param $ptr i32) (param $n i32) (result (ref extern))
//     ;; The n u16 units at ptr (even) into the array for n, two from each i32 load,
//     ;; then fromCharCodeArray(array, 0, n) (a one-byte string when they fit).
//     ...)
//   (func (export "latin1") (param $ptr i32) (param $n i32) (result (ref extern))
//     ;; The same for n bytes, each a unit, four from each i32 load.
//     ...)
//   The array for n units: $kept (made on first use, KEPT_UNITS long), or for more
//   units an array of their own, garbage after the call.

import type { WasmMemory } from './wasm-types.js';

/**
 * Strings up to this many units go through one array, kept (128 KiB); a longer one
 * gets an array of its own for the call. (Copying a long string a piece at a time,
 * through `substring`, measured slower in Chromium than one array for all of it.)
 */
const KEPT_UNITS = 65536;

/** The module's exports, over one wasm memory. */
export interface StringBuiltins {
  /** Writes the UTF-16 units of `text` at byte `ptr` of memory (even); returns text.length. */
  copy(text: string, ptr: number): number;
  /** The string of the `n` UTF-16 units at byte `ptr` of memory (even). */
  units(ptr: number, n: number): string;
  /** The string of the `n` bytes at `ptr`, each a unit (Latin-1; used for ASCII). */
  latin1(ptr: number, n: number): string;
}

function uleb(n: number): number[] {
  const out: number[] = [];
  do {
    let b = n & 0x7f;
    n >>>= 7;
    if (n !== 0) b |= 0x80;
    out.push(b);
  } while (n !== 0);
  return out;
}

function sleb(n: number): number[] {
  const out: number[] = [];
  for (;;) {
    const b = n & 0x7f;
    n >>= 7;
    if ((n === 0 && (b & 0x40) === 0) || (n === -1 && (b & 0x40) !== 0)) {
      out.push(b);
      return out;
    }
    out.push(b | 0x80);
  }
}

function name(s: string): number[] {
  return [...uleb(s.length), ...Array.from(s, (c) => c.charCodeAt(0))];
}

function vec(items: number[][]): number[] {
  return [...uleb(items.length), ...items.flat()];
}

function section(id: number, body: number[]): number[] {
  return [id, ...uleb(body.length), ...body];
}

// Opcodes and types used below.
const I32 = 0x7f;
const EXTERNREF = 0x6f;
const REF_NULL = 0x63;
const REF = 0x64;
const EXTERN = 0x6f; // (a heap type, after REF)
const ARRAY = 0x5e;
const FUNC = 0x60;
const I16 = 0x77;
const MUT = 0x01;
const VOID = 0x40;
const [BLOCK, LOOP, IF, ELSE, END, BR, BR_IF, CALL, DROP] = [0x02, 0x03, 0x04, 0x05, 0x0b, 0x0c, 0x0d, 0x10, 0x1a];
const [LOCAL_GET, LOCAL_SET, LOCAL_TEE, GLOBAL_GET, GLOBAL_SET] = [0x20, 0x21, 0x22, 0x23, 0x24];
const [I32_CONST, I32_GE_U, I32_GT_U, I32_ADD, I32_AND, I32_SHL, I32_SHR_U] = [0x41, 0x4f, 0x4b, 0x6a, 0x71, 0x74, 0x76];
const [I32_LOAD, I32_LOAD8_U, I32_LOAD16_U, I32_STORE16] = [0x28, 0x2d, 0x2f, 0x3b];
const [REF_NULL_OP, REF_IS_NULL] = [0xd0, 0xd1];
const [I64_CONST, I64_EXTEND_I32_U, I64_SHL, I64_OR, I64_STORE] = [0x42, 0xad, 0x86, 0x84, 0x37];
const GC = 0xfb;
const [ARRAY_NEW_DEFAULT, ARRAY_GET_U, ARRAY_SET] = [0x07, 0x0d, 0x0e];

/** The module's bytes (see the text above). */
export function stringBuiltinsModule(): Uint8Array {
  const UNITS = 0; // type index of $units
  const types = vec([
    [ARRAY, I16, MUT],
    [FUNC, 3, EXTERNREF, REF_NULL, UNITS, I32, 1, I32], // intoCharCodeArray
    [FUNC, 1, EXTERNREF, 1, I32], // length
    [FUNC, 3, REF_NULL, UNITS, I32, I32, 1, REF, EXTERN], // fromCharCodeArray
    [FUNC, 2, EXTERNREF, I32, 1, I32], // copy
    [FUNC, 2, I32, I32, 1, REF, EXTERN], // units, latin1
  ]);
  const [INTO, LENGTH, FROM] = [0, 1, 2];
  const imports = vec([
    [...name('wasm:js-string'), ...name('intoCharCodeArray'), 0x00, 1],
    [...name('wasm:js-string'), ...name('length'), 0x00, 2],
    [...name('wasm:js-string'), ...name('fromCharCodeArray'), 0x00, 3],
    [...name('env'), ...name('memory'), 0x02, 0x00, 0x00],
  ]);
  const functions = vec([[4], [5], [5]]);
  const globals = vec([[REF_NULL, UNITS, MUT, REF_NULL_OP, UNITS, END]]);
  const exports = vec([
    [...name('copy'), 0x00, 3],
    [...name('units'), 0x00, 4],
    [...name('latin1'), 0x00, 5],
  ]);
  const kept = sleb(KEPT_UNITS);
  /** arr = the array for len units (see the text above). */
  const arrayFor = (LEN: number, ARR: number): number[] => [
    LOCAL_GET, LEN, I32_CONST, ...kept, I32_GT_U,
    IF, VOID,
    LOCAL_GET, LEN, GC, ARRAY_NEW_DEFAULT, UNITS, LOCAL_SET, ARR,
    ELSE,
    GLOBAL_GET, 0, LOCAL_TEE, ARR, REF_IS_NULL,
    IF, VOID,
    I32_CONST, ...kept, GC, ARRAY_NEW_DEFAULT, UNITS, LOCAL_TEE, ARR, GLOBAL_SET, 0,
    END,
    END,
  ];
  /** ptr + 2 * i */
  const unitAddress = (PTR: number, I: number): number[] => [LOCAL_GET, PTR, LOCAL_GET, I, I32_CONST, 1, I32_SHL, I32_ADD];

  // copy: locals 0 text, 1 ptr (parameters); 2 len, 3 arr, 4 i.
  const copy = ((TEXT: number, PTR: number, LEN: number, ARR: number, I: number): number[] => [
    ...vec([
      [1, I32],
      [1, REF_NULL, UNITS],
      [1, I32],
    ]),
    LOCAL_GET, TEXT, CALL, LENGTH, LOCAL_SET, LEN,
    ...arrayFor(LEN, ARR),
    LOCAL_GET, TEXT, LOCAL_GET, ARR, I32_CONST, 0, CALL, INTO, DROP,
    // Four units a step as one i64 store (Chromium 156: 0.3-0.4 ns a unit for the loop,
    // one store16 a unit took twice that); intoCharCodeArray itself takes about 0.9.
    // for (; i + 4 <= len; i += 4) store64(ptr + 2 * i, arr[i] | arr[i + 1] << 16 | ...)
    BLOCK, VOID, LOOP, VOID,
    LOCAL_GET, I, I32_CONST, 4, I32_ADD, LOCAL_GET, LEN, I32_GT_U, BR_IF, 1,
    ...unitAddress(PTR, I),
    ...[0, 1, 2, 3].flatMap((k) => [
      LOCAL_GET, ARR, LOCAL_GET, I, I32_CONST, k, I32_ADD, GC, ARRAY_GET_U, UNITS, I64_EXTEND_I32_U,
      ...(k === 0 ? [] : [I64_CONST, 16 * k, I64_SHL, I64_OR]),
    ]),
    I64_STORE, 0x01, 0x00,
    LOCAL_GET, I, I32_CONST, 4, I32_ADD, LOCAL_SET, I,
    BR, 0, END, END,
    // The last units: for (; i < len; i++) store16(ptr + 2 * i, arr[i])
    BLOCK, VOID, LOOP, VOID,
    LOCAL_GET, I, LOCAL_GET, LEN, I32_GE_U, BR_IF, 1,
    ...unitAddress(PTR, I),
    LOCAL_GET, ARR, LOCAL_GET, I, GC, ARRAY_GET_U, UNITS,
    I32_STORE16, 0x01, 0x00,
    LOCAL_GET, I, I32_CONST, 1, I32_ADD, LOCAL_SET, I,
    BR, 0, END, END,
    LOCAL_GET, LEN,
    END,
  ])(0, 1, 2, 3, 4);

  /**
   * units (2 bytes a unit) and latin1 (1): locals 0 ptr, 1 n (parameters); 2 arr, 3 i,
   * 4 w. The units into the array, 4 bytes a load:
   *   for (; i + per <= n; i += per) { w = load32(at(i)); arr[i + k] = (w >>> bits * k) & mask }
   *   for (; i < n; i++) arr[i] = load(at(i))
   * then fromCharCodeArray(arr, 0, n).
   */
  const decoder = (unitBytes: 1 | 2): number[] => {
    const [PTR, N, ARR, I, W] = [0, 1, 2, 3, 4];
    const per = 4 / unitBytes;
    const bits = 8 * unitBytes;
    const at = unitBytes === 1 ? [LOCAL_GET, PTR, LOCAL_GET, I, I32_ADD] : unitAddress(PTR, I);
    const align = unitBytes - 1; // (log2 of the unit's size: a hint)
    return [
      ...vec([
        [1, REF_NULL, UNITS],
        [2, I32],
      ]),
      ...arrayFor(N, ARR),
      BLOCK, VOID, LOOP, VOID,
      LOCAL_GET, I, I32_CONST, per, I32_ADD, LOCAL_GET, N, I32_GT_U, BR_IF, 1,
      ...at, I32_LOAD, align, 0x00, LOCAL_SET, W,
      ...Array.from({ length: per }, (_, k) => [
        LOCAL_GET, ARR, LOCAL_GET, I, I32_CONST, k, I32_ADD,
        LOCAL_GET, W, ...(k === 0 ? [] : [I32_CONST, bits * k, I32_SHR_U]), ...(k === per - 1 ? [] : [I32_CONST, ...sleb((1 << bits) - 1), I32_AND]),
        GC, ARRAY_SET, UNITS,
      ]).flat(),
      LOCAL_GET, I, I32_CONST, per, I32_ADD, LOCAL_SET, I,
      BR, 0, END, END,
      BLOCK, VOID, LOOP, VOID,
      LOCAL_GET, I, LOCAL_GET, N, I32_GE_U, BR_IF, 1,
      LOCAL_GET, ARR, LOCAL_GET, I, ...at, unitBytes === 1 ? I32_LOAD8_U : I32_LOAD16_U, align, 0x00, GC, ARRAY_SET, UNITS,
      LOCAL_GET, I, I32_CONST, 1, I32_ADD, LOCAL_SET, I,
      BR, 0, END, END,
      LOCAL_GET, ARR, I32_CONST, 0, LOCAL_GET, N, CALL, FROM,
      END,
    ];
  };
  const units = decoder(2);
  const latin1 = decoder(1);

  const code = vec([
    [...uleb(copy.length), ...copy],
    [...uleb(units.length), ...units],
    [...uleb(latin1.length), ...latin1],
  ]);
  return new Uint8Array([
    0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00,
    ...section(1, types),
    ...section(2, imports),
    ...section(3, functions),
    ...section(6, globals),
    ...section(7, exports),
    ...section(10, code),
  ]);
}

let compiled: WebAssembly.Module | null | undefined;

/**
 * The module's functions over `memory`, or undefined where the engine has no JS String
 * Builtins. (The module is compiled once per realm, then instantiated per memory.)
 */
export function stringBuiltins(memory: WasmMemory): StringBuiltins | undefined {
  if (compiled === undefined) {
    try {
      // (The options argument is the proposal's; engines without it ignore it, and then
      // fail to link the `wasm:js-string` imports below.)
      compiled = new (WebAssembly.Module as unknown as new (bytes: Uint8Array, options: object) => WebAssembly.Module)(
        stringBuiltinsModule(),
        { builtins: ['js-string'] },
      );
    } catch {
      compiled = null;
    }
  }
  if (compiled === null) return undefined;
  try {
    const { copy, units, latin1 } = new WebAssembly.Instance(compiled, { env: { memory } }).exports;
    return { copy, units, latin1 } as unknown as StringBuiltins;
  } catch {
    return undefined;
  }
}
