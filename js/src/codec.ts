// The API over one wasm instance. Each call crosses the boundary once per document.
import { buildValue, checkNotBuilding, KEEP, KeyCache, PolicyViolation, REJECT, REMOVE, type BuildPolicy, type KeyAction, type ParseRecord, type TextSource } from './build.js';
import { locateViolation } from './locate.js';
import { codeName, JsonSyntaxError, outOfMemory, type ErrorSource } from './errors.js';
import { CODE_JCS_LONE_SURROGATE, CODE_JCS_NOT_FINITE, CODE_OUTPUT_TOO_LONG, CODE_TOO_DEEP, NO_DEPTH_LIMIT, FLAG_BIGINTS_ALL, FLAG_BIGINTS_UNSAFE, FLAG_BYTE_OFFSETS, FLAG_IN_OBJECT, FLAG_NO_KEY_INTERNING, FLAG_NUMBERS_IN_JS_FORM, FLAG_SINGLE_VALUE, FLAG_SKIP_BOM, FLAG_STRING_HEAP, FLAG_WITH_SOURCE, type Flavor, type WasmExports } from './exports.js';
import { CanonicalizationError, forbiddenIn } from './canonicalize.js';
import { getPrototypeOf, isArray, jsonStringify } from './intrinsics.js';
import type { WasmInstance } from './wasm-types.js';
import { copyOut, Memory, type Region, type StringInput } from './memory.js';
import { at as navigateTo, atNarrowed, KIND_OBJECT, lazy as lazyDocument, NOT_NARROWED, ROOT, type LazyValue, type NavHost, type PathProgress } from './navigate.js';
import { revive, type Reviver } from './revive.js';
import { createSerializer, toGap, type EncodeOptions, type Replacer } from './stringify.js';
import { option, optionOf } from './options.js';
import { longestString, stringTooLong } from './string-limit.js';
import { DECODER_CALLS_ARE_CHEAP, decodeAscii, decodeUtf16, decodeUtf8, decodeUtf8In, NodeBufferCtor } from './utf8.js';

export type JsonInput = string | Uint8Array | Uint8ClampedArray | ArrayBuffer | SharedArrayBuffer | DataView;

/** validate's answer with `explain`: when not valid, what is wrong and where. */
export type ValidationResult = { valid: true; error?: undefined } | { valid: false; error: JsonSyntaxError };

export interface ValidateOptions {
  /** Return a ValidationResult that says why, instead of a boolean. */
  explain?: boolean;
  /**
   * parse's checks for untrusted input (see ParseOptions): what they refuse is invalid.
   * maxDepth is checked in wasm; refusing keys (duplicates, `__proto__`, `constructor`)
   * parses the document, keeping no value. ('remove' refuses nothing.)
   */
  duplicateKeys?: 'last' | 'error';
  protoAction?: 'ignore' | 'error' | 'remove';
  constructorAction?: 'ignore' | 'error' | 'remove';
  maxDepth?: number;
}

export interface ParseOptions {
  /** Called as JSON.parse calls a reviver (with the source-text context argument). */
  reviver?: Reviver;
  /**
   * Bytes input only. 'document' (default below 256 MiB): decode the text of all strings
   * at once and slice strings out of it (fastest; long strings share that text's memory).
   * 'each': decode every string on its own (independent strings; used automatically for
   * inputs too large to be one JS string).
   */
  stringDecoding?: 'document' | 'each';
  /**
   * Integer literals (no fraction, no exponent) as BigInt: 'never' (default, numbers as
   * JSON.parse makes them), 'unsafe' (those beyond ±Number.MAX_SAFE_INTEGER, which a
   * number cannot hold exactly: 12345678901234567890 -> 12345678901234567890n), or
   * 'always' (every one: 1 -> 1n, -0 -> 0n). Fractions and exponents stay numbers.
   * encode(value, { bigint: 'number' }) writes them back as they were (but -0, which
   * 'always' makes 0n, comes back as 0).
   */
  bigint?: 'never' | 'unsafe' | 'always';
  /**
   * A key repeated in one object: 'last' (default) keeps the last value, as JSON.parse
   * does; 'error' throws a SyntaxError (code DUPLICATE_KEY) at the repeated key. Keys
   * are compared as decoded ("a" and "\u0061" are the same key).
   */
  duplicateKeys?: 'last' | 'error';
  /**
   * `__proto__` keys: 'ignore' (default) makes them own data properties, as JSON.parse
   * does (a prototype never changes either way); 'error' throws a SyntaxError (code
   * FORBIDDEN_PROTO); 'remove' leaves them out. For values that later meet code that
   * merges objects unsafely (secure-json-parse's protoAction).
   */
  protoAction?: 'ignore' | 'error' | 'remove';
  /**
   * `constructor` keys whose value is an object with its own `prototype` key: 'ignore'
   * (default), 'error' (code FORBIDDEN_CONSTRUCTOR) or 'remove', as protoAction
   * (secure-json-parse's constructorAction).
   */
  constructorAction?: 'ignore' | 'error' | 'remove';
  /**
   * The deepest nesting of arrays and objects allowed (the outermost container is at
   * depth 1; 0 allows primitives only). Deeper is a SyntaxError (code TOO_DEEP) at the
   * first container too deep. Default: no limit (any depth parses, as in JSON.parse).
   */
  maxDepth?: number;
}

/** Bytes inputs from this size decode strings one by one (V8 strings stop near 2^29 units). */
const DECODE_EACH_FROM = 256 * 1024 * 1024;

/**
 * Where decoder calls are not cheap (browsers), a document whose escaped ASCII text
 * takes at most this many bytes has its strings unescaped in JS, without decoding that
 * heap (Tape.asciiSource): a TextDecoder call costs more than a few escapes undone. In
 * a large document the heap is decoded once and sliced, cheaper per string.
 */
const UNESCAPE_IN_JS_MAX_BYTES = 512;

export interface PrettifyOptions {
  /** As JSON.stringify's space: a number of spaces (at most 10) or a string (first 10 characters). Default (left out or undefined) 2; null, like JSON.stringify's space null, is no indent. */
  indent?: number | string;
}

export interface Codec {
  readonly flavor: Flavor;
  /** The same JSON text without insignificant whitespace; strings and numbers byte for byte. */
  minify<T extends JsonInput>(input: T): T extends string ? string : Uint8Array<ArrayBuffer>;
  /** The same JSON text indented like JSON.stringify(value, null, indent), strings and numbers verbatim. */
  prettify<T extends JsonInput>(input: T, options?: PrettifyOptions): T extends string ? string : Uint8Array<ArrayBuffer>;
  /** The value at an RFC 6901 JSON Pointer, or undefined; reads only what the path needs. */
  at(input: JsonInput, pointer: string): unknown;
  /** A document kept in wasm memory, explored on demand (free() it, or let GC do it). */
  lazy(input: JsonInput): LazyValue;
  /**
   * RFC 8785 canonical JSON. A string or bytes argument is JSON text (bytes in, UTF-8
   * bytes out); anything else is a value, converted as JSON.stringify converts it
   * (undefined where JSON.stringify gives undefined: undefined, a function, a symbol).
   */
  canonicalize(input: string): string;
  canonicalize(input: Exclude<JsonInput, string>): Uint8Array<ArrayBuffer>;
  canonicalize(input: unknown): string | Uint8Array<ArrayBuffer> | undefined;
  /** JSON.parse, from a string or UTF-8 bytes. */
  parse(text: unknown, reviver?: Reviver | ParseOptions | null): any;
  validate(input: JsonInput): boolean;
  validate(input: JsonInput, options: ValidateOptions & { explain: true }): ValidationResult;
  validate(input: JsonInput, options?: ValidateOptions & { explain?: false }): boolean;
  validate(input: JsonInput, options?: ValidateOptions): boolean | ValidationResult;
  /** JSON.stringify, byte for byte (undefined where JSON.stringify returns undefined). */
  stringify(value: unknown, replacer?: Replacer, space?: string | number | null): string;
  /**
   * The same text as UTF-8 bytes, without building the string first. undefined where
   * JSON.stringify returns undefined (a top-level undefined, function or symbol), which
   * the return type leaves out as TypeScript's own type of JSON.stringify does.
   */
  encode(value: unknown, options?: EncodeOptions): Uint8Array<ArrayBuffer>;
}

const KERNELS: Record<number, Flavor | undefined> = { 1: 'swar64', 2: 'simd128' };
const encoder = new TextEncoder();

/** A UTF-16 unit that is half of no pair. */
const LONE_SURROGATE = '[\\ud800-\\udbff](?![\\udc00-\\udfff])|(?<![\\ud800-\\udbff])[\\udc00-\\udfff]';

/** Whether the character at `at` follows an odd run of backslashes (it is escaped). */
function escapedAt(source: string, at: number): boolean {
  let backslashes = 0;
  while (source.charCodeAt(at - 1 - backslashes) === 0x5c) backslashes++;
  return backslashes % 2 === 1;
}

/**
 * A string with lone surrogates as the same JSON text with those written as \u escapes
 * (they can only be valid inside strings, where the escape means the same code unit),
 * so its UTF-8 copy in wasm loses nothing. Error offsets after them shift by 5 each
 * (originalOffset maps them back). One that an odd run of backslashes escapes is a bad
 * escape, and stays one as U+FFFD.
 */
function wellFormed(source: string): string {
  return source.replace(new RegExp(LONE_SURROGATE, 'g'), (c: string, at: number) =>
    escapedAt(source, at) ? '\ufffd' : `\\u${c.charCodeAt(0).toString(16)}`,
  );
}

/** The offset in `source` of what is at `offset` in wellFormed(source). */
function originalOffset(source: string, offset: number): number {
  let shift = 0;
  for (const m of source.matchAll(new RegExp(LONE_SURROGATE, 'g'))) {
    if (m.index + shift >= offset) break;
    const extra = escapedAt(source, m.index) ? 0 : 5;
    // Inside the escape written for this surrogate: the surrogate itself.
    if (offset <= m.index + shift + extra) return m.index;
    shift += extra;
  }
  return offset - shift;
}

/**
 * TextEncoder wrote each lone surrogate of a string input as U+FFFD, and the output
 * copied it. Strings are copied verbatim and in order, so the k-th U+FFFD of the output
 * is the k-th character of the input that is U+FFFD or a lone surrogate.
 */
function restoreLoneSurrogates(input: string, output: string): string {
  if (input.isWellFormed()) return output;
  const originals = input.match(new RegExp(`\\ufffd|${LONE_SURROGATE}`, 'g')) ?? [];
  let k = 0;
  return output.replace(/\ufffd/g, () => originals[k++] ?? '\ufffd');
}
const OUT_OF_MEMORY = 18;

/** at() reads an array of at least this many units or bytes from heads of the input (see at). */
const AT_HEADS_FROM = 4 * 1024 * 1024;
/** The first head's units or bytes: each next is 8 times longer, up to a 16th of the input; then the whole input. */
const AT_HEAD = 64 * 1024;
/** at()'s progress through the heads of an input, and whether they are read narrowed. */
interface HeadProgress extends PathProgress {
  narrowed: boolean | undefined;
}
/** What at()'s try on a head returns, or throws, when the head does not answer. */
const NOT_ANSWERED: unique symbol = Symbol('wasmjson: not answered in the head');
/** Thrown by at()'s first try on a string that holds a lone surrogate (see at). */
const LONE_SURROGATE_FOUND = new Error('wasmjson: the string input holds a lone surrogate');
/** Pointers that at() may evaluate on a string's narrowed units (see atNarrowed): ASCII, no 0x7F, not the root. */
const NARROWED_POINTER = /^\/[\0-\x7e]*$/;
/** buildFromReport's source for a parse with a string heap (FLAG_STRING_HEAP): its pieces. */
const HEAP_PIECES = Symbol('string heap');
/** What prettify's units route returns for text longer than any string. */
const OUTPUT_TOO_LONG: unique symbol = Symbol('wasmjson: output too long');
/**
 * Stand-ins for the units of an indent (at most 10): control characters that are not
 * whitespace, which no JSON text holds raw, so in reformatted text they can only be
 * the indent.
 */
const INDENT_PLACEHOLDERS = '\x0e\x0f\x10\x11\x12\x13\x14\x15\x16\x17';
const INDENT_PLACEHOLDER = /[\x0e-\x17]/g;

/** The wasm flags for an input's kind: bytes may start with a UTF-8 BOM to skip; strings not. */
function inputFlags(source: string | Uint8Array): number {
  return typeof source === 'string' ? 0 : FLAG_SKIP_BOM;
}

export function createCodec(instance: WasmInstance, options: { stringInput?: StringInput; stringBuiltins?: boolean; allowEval?: boolean } | null = {}): Codec {
  const wasm = instance.exports as unknown as WasmExports;
  // (Told by its exports before any of them runs: another module's _initialize is its own code.)
  const ours = typeof wasm.wj_kernel === 'function' && typeof wasm._initialize === 'function' && wasm.memory instanceof WebAssembly.Memory;
  if (ours) wasm._initialize();
  const flavor = ours ? KERNELS[wasm.wj_kernel()] : undefined;
  if (!flavor) throw new Error('wasmjson: this .wasm file is not a wasmjson SIMD128 or SWAR64 build');
  // Whether at() may read strings as their units narrowed (see at()).
  const narrows = flavor === 'simd128';
  const stringInput = (optionOf(options, 'stringInput') as StringInput | undefined) ?? 'auto';
  if (stringInput !== 'auto' && stringInput !== 'utf8' && stringInput !== 'utf16') {
    throw new TypeError(`wasmjson: stringInput must be 'auto', 'utf8' or 'utf16', got ${String(stringInput)}`);
  }
  const useBuiltins = optionOf(options, 'stringBuiltins') ?? true;
  if (typeof useBuiltins !== 'boolean') throw new TypeError(`wasmjson: stringBuiltins must be true or false, got ${String(useBuiltins)}`);
  const allowEval = optionOf(options, 'allowEval') ?? true;
  if (typeof allowEval !== 'boolean') throw new TypeError(`wasmjson: allowEval must be true or false, got ${String(allowEval)}`);
  const memory = new Memory(wasm, stringInput, useBuiltins);
  const keys = new KeyCache(allowEval);

  /**
   * The error of a failed call on the document at `ptr` in wasm memory (still there):
   * out of memory, or a SyntaxError whose position wasm works out from the document's
   * bytes (error path only): UTF-16 offset, line and column for string input, bytes for
   * bytes input.
   */
  function failure(code: number, byteOffset: number, source: ErrorSource, bytes: number, ptr: number): Error {
    if (code === OUT_OF_MEMORY) return outOfMemory(bytes);
    return syntaxError(code, byteOffset, source, ptr, bytes);
  }

  function syntaxError(code: number, byteOffset: number, source: ErrorSource, ptr: number, len: number, detail?: string): JsonSyntaxError {
    const r = wasm.wj_text_position(ptr, byteOffset) >>> 2;
    const i32 = memory.wide().i32;
    const line = i32[r] >>> 0;
    // Bytes are described from their copy in wasm memory, the bytes that were read: the
    // caller's array may have changed since (a SharedArrayBuffer another thread writes; a
    // lazy document's, BYTES_IN_WASM). (A view made now: the error is made before
    // anything else runs in wasm.)
    if (typeof source !== 'string') source = memory.bytes().subarray(ptr, ptr + len);
    if (typeof source === 'string') {
      const units = i32[r + 2] >>> 0;
      return new JsonSyntaxError(codeName(code), units, source, { line, column: units - (i32[r + 3] >>> 0) + 1 }, detail);
    }
    const lineStart = Math.min(i32[r + 1] >>> 0, byteOffset);
    return new JsonSyntaxError(codeName(code), byteOffset, source, { line, column: byteOffset - lineStart + 1 }, detail);
  }

  function parse(text: unknown, reviverOrOptions?: Reviver | ParseOptions | null): unknown {
    const policy = policyOf(reviverOrOptions, 'parse');
    return parseInput(text, reviverOrOptions, policy);
  }

  /**
   * parse() with its checks already read from the options (validate() reads them
   * itself: each option is read once per call). Every option is read before the input
   * is looked at: a getter may detach or resize the input's buffer.
   */
  function parseInput(text: unknown, reviverOrOptions: Reviver | ParseOptions | null | undefined, policy: BuildPolicy | undefined): unknown {
    const reviver = pickReviver(reviverOrOptions);
    const eachAsked = stringDecodingEach(reviverOrOptions);
    const bigints = bigintFlags(reviverOrOptions);
    const input = toParseInput(text);
    const records: { root?: ParseRecord } | undefined = reviver ? {} : undefined;
    const isString = typeof input === 'string';
    const decodeEach = !isString && (eachAsked || input.length >= DECODE_EACH_FROM);
    // Bytes input: JS needs the text of the strings only, not of the whole document (a
    // reviver's context.source needs the document).
    const stringHeap = !isString && !decodeEach && !reviver;
    let flags =
      bigints |
      inputFlags(input) |
      (reviver ? FLAG_WITH_SOURCE : 0) |
      (decodeEach ? FLAG_BYTE_OFFSETS : 0) |
      (stringHeap ? FLAG_STRING_HEAP : 0);
    let illFormed = false;
    // maxDepth in wasm too: it stops reading at the first non-empty container deeper
    // (see wj_parse_depth_check), and the build then meets that container last.
    const maxDepth = depthLimitOf(policy);
    const region = memory.acquire(input);
    let value: unknown;
    try {
      let report = runParse(region.ptr, region.len, flags, input, maxDepth);
      // TextEncoder writes a lone surrogate as U+FFFD. Only when U+FFFD occurs is the
      // (slower) well-formedness check worth it; lone surrogates then survive only in
      // the JS string, and keys must not be interned by their bytes.
      if (isString && memory.wide().i32[report + 7] && !input.isWellFormed()) {
        illFormed = true;
        flags |= FLAG_NO_KEY_INTERNING;
        wasm.wj_reset_keys();
        keys.clear();
        report = runParse(region.ptr, region.len, flags, input, maxDepth);
      }
      // Strings of bytes input are decoded from the copy in wasm memory, which was
      // checked (the caller's array may be a SharedArrayBuffer another thread writes).
      const text: TextSource | (() => string) | typeof HEAP_PIECES = isString
        ? input
        : decodeEach
          ? eachStringDecoder(memory, region.ptr)
          : stringHeap
            ? HEAP_PIECES
            : () => decodeUtf8(memory.bytes(), region.ptr, region.ptr + region.len);
      const depthStop = maxDepth !== NO_DEPTH_LIMIT && memory.wide().i32[report + 15] !== 0;
      value = buildFromReport(report, text, records, illFormed, policy);
      // A tape cut at a container too deep ends with it: its build always throws (that
      // container's depth check, or one the build meets before it).
      if (depthStop) throw new Error('wasmjson: internal error: a parse stopped too deep, but no check failed');
    } catch (e) {
      if (e instanceof PolicyViolation) {
        throw violationError(e, isString ? input : memory.bytes().subarray(region.ptr, region.ptr + region.len), policy!);
      }
      throw e;
    } finally {
      memory.release(region);
    }
    return reviver ? revive(value, records!.root, reviver) : value;
  }

  /**
   * A parse's string heap (FLAG_STRING_HEAP), read one piece at a time: the first
   * piece's text (the whole heap when it has one piece: no reader is made then) and
   * the function the build calls at each piece marker for the next.
   */
  function stringHeapPieces(report: number): { first: string; next: (() => string) | undefined } {
    const i32 = memory.wide().i32;
    const heap = i32[report + 10] >>> 0;
    const bytes = i32[report + 11] >>> 0;
    // As many UTF-16 units as bytes: all ASCII.
    const latin1 = memory.builtins?.latin1;
    const decode =
      bytes !== i32[report + 12] >>> 0
        ? decodeUtf8
        : latin1 === undefined
          ? decodeAscii
          : (view: Uint8Array, b: number, e: number): string => decodeAscii(view, b, e, latin1);
    const count = i32[report + 14] >>> 0;
    // (No strings to decode, as when every key is cached and the values are numbers and
    // literals: no decoder call, which costs Node's latin1Slice 80-100 ns.)
    if (count === 0) return { first: bytes === 0 ? '' : decode(memory.bytes(), heap, heap + bytes), next: undefined };
    const starts = i32[report + 13] >>> 2;
    // Piece k spans [bounds[k], bounds[k + 1]) of the heap.
    const bounds = new Uint32Array(count + 2);
    for (let j = 0; j < count; j++) bounds[j + 1] = i32[starts + j] >>> 0;
    bounds[count + 1] = bytes;
    let k = 0; // pieces decoded so far
    const piece = (): string => {
      k++;
      return decode(memory.bytes(), heap + bounds[k - 1], heap + bounds[k]);
    };
    return { first: piece(), next: piece };
  }

  /** The heap of a parse without a string heap (ASCII text) as one string. */
  function asciiHeap(report: number): string {
    const i32 = memory.wide().i32;
    const heap = i32[report + 10] >>> 0;
    return decodeAscii(memory.bytes(), heap, heap + (i32[report + 11] >>> 0), memory.builtins?.latin1);
  }

  /** Builds the value of the tape a report describes; `source` is the document as text. */
  function buildFromReport(
    report: number,
    source: TextSource | (() => string) | typeof HEAP_PIECES,
    records: { root?: ParseRecord } | undefined,
    illFormed: boolean,
    policy?: BuildPolicy,
  ): unknown {
    const pieces = source === HEAP_PIECES ? stringHeapPieces(report) : undefined;
    const { i32, f64, u16 } = memory.wide();
    const start = i32[report + 2] >>> 2;
    const units = i32[report + 8] >>> 0;
    const utf16Start = i32[report + 5] >>> 1;
    const text = pieces !== undefined ? pieces.first : typeof source === 'function' ? source() : (source as TextSource);
    // Without a string heap, the heap holds escaped strings whose text is ASCII.
    const asciiBytes = pieces === undefined ? i32[report + 11] >>> 0 : 0;
    const asciiSource =
      asciiBytes !== 0 && asciiBytes <= UNESCAPE_IN_JS_MAX_BYTES && !DECODER_CALLS_ARE_CHEAP && typeof text === 'string' ? text : undefined;
    const tape = {
      escaped:
        units > 0 && !illFormed && i32[report + 9] === 0
          ? decodeUtf16(memory.bytes(), utf16Start * 2, (utf16Start + units) * 2, memory.builtins?.units)
          : undefined,
      ascii: asciiBytes !== 0 && asciiSource === undefined ? asciiHeap(report) : undefined,
      asciiSource,
      decodeAscii: asciiSource !== undefined ? () => asciiHeap(report) : undefined,
      words: i32,
      start,
      end: start + (i32[report + 3] >>> 0),
      numbers: f64,
      numbersStart: i32[report + 4] >>> 3,
      utf16: u16,
      utf16Start,
      nextPiece: pieces?.next,
    };
    try {
      return buildValue(tape, text, keys, records, illFormed, policy);
    } catch (e) {
      // Some new keys may not have reached the cache: forget them all on both sides.
      wasm.wj_reset_keys();
      keys.clear();
      throw e;
    }
  }

  // Whether the last parseValueAt's text held U+FFFD (set before its value is built).
  let lastValueSawReplacement = false;

  /**
   * The value starting at byte `begin` of a document already in wasm memory (at() and
   * lazy documents), parsed in place and validated in full: a member of an object or
   * array (`within` KIND_OBJECT or KIND_ARRAY) up to the comma or bracket that must
   * follow it, or the root (`within` ROOT) up to the document's end. Offsets of errors are
   * re-based to the document.
   */
  function parseValueAt(region: Region, begin: number, source: string | Uint8Array, within: number): unknown {
    const ptr = region.ptr + begin;
    const len = region.len - begin;
    const flags = within === ROOT ? 0 : FLAG_SINGLE_VALUE | (within === KIND_OBJECT ? FLAG_IN_OBJECT : 0);
    const report = wasm.wj_parse(ptr, len, flags) >>> 2;
    const i32 = memory.wide().i32;
    if (i32[report + 6]) keys.clear();
    if (i32[report] !== 0) throw failure(i32[report], begin + (i32[report + 1] >>> 0), source, region.len, region.ptr);
    lastValueSawReplacement = i32[report + 7] !== 0;
    const end = i32[report + 1] >>> 0;
    // The value's own text: its tape offsets count from its first byte.
    return buildFromReport(report, () => decodeUtf8(memory.bytes(), ptr, ptr + end), undefined, false);
  }

  /**
   * One wj_parse call (within maxDepth unless NO_DEPTH_LIMIT: see parseInput); returns
   * the report's index in i32 words, or throws its error.
   */
  function runParse(ptr: number, len: number, flags: number, input: string | Uint8Array, maxDepth: number): number {
    const limited = maxDepth !== NO_DEPTH_LIMIT;
    if (limited) wasm.wj_parse_depth_limit(maxDepth);
    const report = wasm.wj_parse(ptr, len, flags) >>> 2;
    if (limited) wasm.wj_parse_depth_check(ptr, len, flags);
    const i32 = memory.wide().i32;
    if (i32[report + 6]) keys.clear();
    const code = i32[report];
    // Out of memory, an invalid document's own error comes first, as JSON.parse's would.
    if (code === OUT_OF_MEMORY) throw validationError(input, ptr, len) ?? outOfMemory(len);
    if (code !== 0) throw failure(code, i32[report + 1] >>> 0, input, len, ptr);
    return report;
  }

  // Room for a prettify indent (at most 10 UTF-8 characters, then from byte 32 its
  // units), allocated on first use, and the indent it holds. Encoding it anew on every
  // call allocated an ArrayBuffer, a quarter of a 200-byte document's minify.
  let indentPtr = 0;
  let indentHeld = '';
  let indentHeldBytes = 0;

  /** UTF-8 length of `indent` after writing it to wasm memory at indentPtr. */
  function placeIndent(indent: string): number {
    checkNotBuilding();
    if (indent === indentHeld) return indentHeldBytes;
    allocateIndentRoom();
    // (At most 30 bytes: the units go from byte 32 on, see placeIndentUnits.)
    const written = encoder.encodeInto(indent, memory.bytes().subarray(indentPtr, indentPtr + 32)).written;
    indentHeld = indent;
    indentHeldBytes = written;
    return written;
  }

  function allocateIndentRoom(): void {
    if (indentPtr !== 0) return;
    indentPtr = wasm.wj_alloc(64) >>> 0;
    if (indentPtr === 0) throw outOfMemory();
  }

  function reformat(input: unknown, indent: string, fn: string): string | Uint8Array {
    const source = asInput(input, fn);
    const isString = typeof source === 'string';
    // An indent that UTF-8 cannot carry (a lone surrogate) or that holds U+FFFD (which
    // restoreLoneSurrogates would take for the input's) goes in as placeholders, mapped
    // back in the text out. Bytes out get what TextEncoder makes of it, U+FFFD.
    const placeholders = isString && (indent.includes('\ufffd') || !indent.isWellFormed());
    if (placeholders) {
      const text = reformat(source, INDENT_PLACEHOLDERS.slice(0, indent.length), fn) as string;
      return text.replace(INDENT_PLACEHOLDER, (c) => indent[c.charCodeAt(0) - INDENT_PLACEHOLDERS.charCodeAt(0)]);
    }
    // (SIMD128 only, as for at(): SWAR64 narrows at 0.42 ns a unit, and read so,
    // twitter.json minified 0.83x and random.json pretty-printed 0.62x as fast.)
    if (isString && narrows && memory.readsUnits(source)) {
      const text = reformatUnits(source, indent);
      // (Too long for a string: its error, unless the text has one of its own, which
      // JSON.parse would throw first; found in the text's UTF-8, as other errors are,
      // without writing the output again.)
      if (text === OUTPUT_TOO_LONG) throw tooLongFailure(source);
      if (text !== undefined) return text;
    }
    const indentLength = placeIndent(indent);
    const region = memory.acquire(source);
    try {
      // Pretty text out: no more bytes than the longest string's units can be. Each unit
      // is 1 to 3 bytes; the input's strings and numbers are copied as they are, so the
      // output's bytes exceed its units by at most what the input's do (region.len -
      // source.length), unless the indent is not ASCII. (+ 64: a writer's step asks for
      // room past what it writes.)
      const maxOutput =
        !isString || indent === ''
          ? 0
          : Math.min(2 ** 32 - 1, indentLength === indent.length ? longestString() + (region.len - source.length) + 64 : 3 * longestString() + 64);
      const report = wasm.wj_reformat(region.ptr, region.len, inputFlags(source), indentPtr, indentLength, maxOutput) >>> 2;
      const i32 = memory.wide().i32;
      const code = i32[report];
      if (code !== 0) throw reformatFailure(code, i32[report + 1] >>> 0, source, region, indent === '');
      const out = i32[report + 2] >>> 0;
      const outLen = i32[report + 3] >>> 0;
      // Minifying only drops whitespace: nothing dropped means the text is already
      // minified, and a string (immutable) can be returned as it is.
      if (isString && indent === '' && outLen === region.len) return source;
      if (!isString) return copyOut(memory.bytes(), out, out + outLen);
      // As many UTF-8 bytes as UTF-16 units: the text is ASCII, and so is its output when
      // the indent is (whitespace and the indent are all that is added or dropped).
      if (region.len === source.length && indentLength === indent.length) {
        return decodeAscii(memory.bytes(), out, out + outLen, memory.builtins?.latin1);
      }
      // Lone surrogates of the input became U+FFFD on the way in: only then (wasm saw
      // one in a string) can the output hold one to put back. (Read first: the decoding
      // may grow memory, which empties i32.)
      const sawReplacement = i32[report + 4] !== 0;
      const text = decodeUtf8In(wasm, out, out + outLen);
      return sawReplacement ? restoreLoneSurrogates(source, text) : text;
    } finally {
      memory.release(region);
    }
  }

  /**
   * minify() or prettify() of a string read as its UTF-16 units (Memory.readsUnits),
   * or undefined when that fails (invalid JSON, or memory ran out): the UTF-8 route then
   * finds the error again and places and words it as for any input. OUTPUT_TOO_LONG:
   * the pretty text would be longer than any string.
   */
  function reformatUnits(source: string, indent: string): string | undefined | typeof OUTPUT_TOO_LONG {
    const indentUnits = indent === '' ? 0 : placeIndentUnits(indent);
    const region = memory.acquireUnits(source);
    try {
      const report = (
        indent === '' ? wasm.wj_minify_units(region.ptr, region.len) : wasm.wj_prettify_units(region.ptr, region.len, indentUnits, indent.length, longestString() + 64)
      ) >>> 2;
      const i32 = memory.wide().i32;
      if (i32[report] === CODE_OUTPUT_TOO_LONG) return OUTPUT_TOO_LONG;
      if (i32[report] !== 0) return undefined;
      const out = i32[report + 2] >>> 0;
      const outUnits = i32[report + 3] >>> 0;
      // Minify dropped nothing: the text is already minified, and a string is immutable.
      if (indent === '' && outUnits === source.length) return source;
      return decodeUtf16(memory.bytes(), out, out + 2 * outUnits, memory.builtins?.units);
    } finally {
      memory.release(region);
    }
  }

  // The indent's UTF-16 units, for wj_prettify_units, after its UTF-8 in the same room.
  let indentUnitsHeld = '';

  /** The address of `indent`'s units (at most 10) in wasm memory, written there first. */
  function placeIndentUnits(indent: string): number {
    checkNotBuilding();
    allocateIndentRoom();
    const at = indentPtr + 32;
    if (indent !== indentUnitsHeld) {
      const u16 = memory.wide().u16;
      for (let i = 0; i < indent.length; i++) u16[(at >>> 1) + i] = indent.charCodeAt(i);
      indentUnitsHeld = indent;
    }
    return at;
  }

  /**
   * The error of a failed wj_reformat. Minify writes over its input as it reads, so the
   * text before the error is no longer there to place it (line, column): it is placed in
   * a fresh copy of the input. Out of memory, or past the longest string: indented
   * output can outgrow either long before the input ends (each level indents deeper:
   * 50,000 unclosed '[' ask for 2.5 GB), so an invalid input's own error comes first, as
   * JSON.parse's would; otherwise the output is what did not fit.
   */
  function reformatFailure(code: number, byteOffset: number, source: string | Uint8Array, region: Region, minified: boolean): Error {
    const outgrown = code === OUT_OF_MEMORY || code === CODE_OUTPUT_TOO_LONG;
    if (!minified && !outgrown) return failure(code, byteOffset, source, region.len, region.ptr);
    const copy = minified ? memory.acquireOwned(source) : region;
    try {
      if (!outgrown) return failure(code, byteOffset, source, copy.len, copy.ptr);
      return validationError(source, copy.ptr, copy.len) ?? (code === OUT_OF_MEMORY ? outOfMemory() : stringTooLong());
    } finally {
      if (copy !== region) memory.release(copy);
    }
  }

  /** prettify's error for a string whose pretty text no string can hold (see reformatFailure). */
  function tooLongFailure(source: string): Error {
    const region = memory.acquire(source);
    try {
      return validationError(source, region.ptr, region.len) ?? stringTooLong();
    } finally {
      memory.release(region);
    }
  }

  function minify(input: JsonInput): string | Uint8Array {
    return reformat(input, '', 'minify');
  }

  function prettify(input: JsonInput, options?: PrettifyOptions): string | Uint8Array {
    // Only a missing indent is the default: any other value, null too, is read as
    // JSON.stringify reads its space (null, true or an object: no indent).
    const indent = optionOf(options, 'indent') as PrettifyOptions['indent'];
    return reformat(input, toGap(indent === undefined ? 2 : indent), 'prettify');
  }

  /**
   * The document's first syntax error, as JSON.parse reports it (validated in wasm, where
   * the document is), or undefined when it has none (or validation ran out of memory).
   */
  function validationError(source: string | Uint8Array, ptr: number, len: number): JsonSyntaxError | undefined {
    const code = wasm.wj_validate(ptr, len, inputFlags(source), NO_DEPTH_LIMIT);
    if (code === 0 || code === OUT_OF_MEMORY) return undefined;
    return syntaxError(code, wasm.wj_error_offset() >>> 0, source, ptr, len);
  }

  /**
   * A syntax error at() or a lazy document met, made JSON.parse's: the first error of the
   * whole document. (Navigation reads out of order, skipping what the path does not
   * need, and the value found is read after what follows it is checked: its own error
   * would come second, or be missed for the end of input.) Error path only: the
   * document is validated once more.
   */
  function firstInDocument(e: unknown, source: string | Uint8Array, len: number, ptr: number): unknown {
    if (!(e instanceof JsonSyntaxError)) return e;
    return validationError(source, ptr, len) ?? e;
  }

  const navHost: NavHost = {
    wasm,
    memory,
    inputFlags,
    fail(code, byteOffset, source, len, ptr): never {
      throw firstInDocument(failure(code, byteOffset, source, len, ptr), source, len, ptr);
    },
    valueAt(region, begin, source, within) {
      try {
        return parseValueAt(region, begin, source, within);
      } catch (e) {
        throw firstInDocument(e, source, region.len, region.ptr);
      }
    },
  };

  function at(input: JsonInput, pointer: string): unknown {
    const source = asInput(input, 'at');
    // A long array is read from growing heads of the input: a path to one of its first
    // elements then costs copying and reading a head, not the whole input into wasm
    // memory (which at() otherwise spends most of its time on). Each head is read as a
    // document of its own, from the element the last one stopped at (PathProgress), so
    // what the heads read is not read again; each is copied anew (a copy costs a tenth
    // of reading what it holds). Only arrays: a key is looked up to the end of its object
    // (the last of duplicate keys is the one JSON.parse keeps), so under an object at the
    // top no head can answer.
    if (typeof pointer === 'string' && pointer.charCodeAt(0) === 0x2f && source.length >= AT_HEADS_FROM && rootIsArray(source)) {
      const progress: HeadProgress = { index: 0, offset: 0, narrowed: undefined };
      for (let n = AT_HEAD; ; n *= 8) {
        // The last head is the whole input.
        const whole = n * 16 > source.length;
        const value = atHead(source, whole ? source.length : n, pointer, progress);
        if (value !== NOT_ANSWERED) return value;
        if (whole) break;
      }
      // Not answered (an error, a lone surrogate's U+FFFD...): at() as for any input,
      // which finds and places errors as JSON.parse would.
    }
    return atWhole(source, pointer);
  }

  /** Whether the input's first character past whitespace (and a bytes input's BOM) is '['. */
  function rootIsArray(source: string | Uint8Array): boolean {
    const isString = typeof source === 'string';
    let i = !isString && source[0] === 0xef && source[1] === 0xbb && source[2] === 0xbf ? 3 : 0;
    for (;;) {
      const c = isString ? source.charCodeAt(i) : source[i];
      if (c !== 0x20 && c !== 0x0a && c !== 0x0d && c !== 0x09) return c === 0x5b;
      i++;
    }
  }

  /**
   * at() on the first `n` units or bytes of `source` (a string is not cut between the
   * halves of a pair), or NOT_ANSWERED. What follows the head reads as the end of
   * input, so every read that reaches past it fails, and any failure (whatever its
   * cause) leaves the answer to a longer head; what is read within the head is the
   * input's own text, so an answer found there is the input's. `progress` is where the
   * lookup resumes, and where it records how far it got.
   */
  function atHead(source: string | Uint8Array, n: number, pointer: string, progress: HeadProgress): unknown {
    let head: string | Uint8Array;
    if (typeof source !== 'string') {
      head = n === source.length ? source : source.subarray(0, n);
    } else {
      if (!pointer.isWellFormed() || pointer.includes('\ufffd')) return NOT_ANSWERED;
      const last = source.charCodeAt(n - 1);
      head = n === source.length ? source : source.slice(0, last >= 0xd800 && last < 0xdc00 ? n - 1 : n);
      // Offsets of the narrowed units are not those of the UTF-8: progress made in one is
      // not resumed in the other (a head and the whole input may take different routes).
      const narrowed = narrows && memory.navigatesNarrowed(head) && NARROWED_POINTER.test(pointer);
      if (narrowed !== progress.narrowed) {
        progress.index = 0;
        progress.offset = 0;
        progress.narrowed = narrowed;
      }
      if (narrowed) {
        const value = atNarrowed(narrowedNavHost, head, pointer, progress);
        return value === NOT_NARROWED ? NOT_ANSWERED : value;
      }
    }
    try {
      return navigateTo(headNavHost, head, pointer, progress);
    } catch {
      return NOT_ANSWERED;
    }
  }

  // atHead()'s host: every failure ends the try, as does U+FFFD in a key read or in the
  // value of a string head (it may stand for a lone surrogate: see atWhole).
  const headNavHost: NavHost = {
    ...navHost,
    fail(): never {
      throw NOT_ANSWERED;
    },
    valueAt(region, begin, source, within) {
      const value = parseValueAt(region, begin, source, within);
      if (lastValueSawReplacement && typeof source === 'string') throw NOT_ANSWERED;
      return value;
    },
    keySawReplacement(source): void {
      if (typeof source === 'string') throw NOT_ANSWERED;
    },
  };

  /** at() read from the whole input. */
  function atWhole(source: string | Uint8Array, pointer: string): unknown {
    // A string is first navigated as it is, without the scan for lone surrogates that
    // navigable() makes (a fifth of at()'s time on twitter.json, a two-byte string).
    // TextEncoder writes each one as U+FFFD, which matters only where the input is then
    // read back: in keys compared with the pointer (a key with a lone surrogate may be
    // the pointer's token once its other half, escaped, joins it: "\ud800\\udc00") and
    // in the value returned (its parse reports a U+FFFD). When a key read or the value
    // held U+FFFD, and after any error, the string is checked: if it holds a lone
    // surrogate, it is navigated again as navigable() makes it (errors are then placed
    // as before).
    if (typeof source === 'string' && typeof pointer === 'string' && pointer.isWellFormed() && !pointer.includes('\ufffd')) {
      // A two-byte string and a pointer that is ASCII without 0x7F: first by its units
      // narrowed. (SIMD128 only: SWAR64 narrows at 0.42 ns a unit, twitter.json's in
      // 240-280 us where Node 26's encoder takes 55 and SIMD128 narrows in 25.)
      if (narrows && memory.navigatesNarrowed(source) && NARROWED_POINTER.test(pointer)) {
        const value = atNarrowed(narrowedNavHost, source, pointer);
        if (value !== NOT_NARROWED) return value;
      }
      try {
        return navigateTo(optimisticNavHost, source, pointer);
      } catch (e) {
        if (e !== LONE_SURROGATE_FOUND && source.isWellFormed()) throw e;
        // Found to hold one: navigable()'s route, without its second scan.
        return navigateTo(navHostFor(source), wellFormed(source), pointer);
      }
    }
    const { host, source: navigated } = navigable(source);
    return navigateTo(host, navigated, pointer);
  }

  // atNarrowed()'s host: a failure only ends that try (at() then finds it again in the
  // string's UTF-8, without validating the narrowed bytes first), as does a key read
  // with U+FFFD (which no ASCII token equals anyway).
  const narrowedNavHost: NavHost = {
    ...navHost,
    fail(): never {
      throw NOT_NARROWED;
    },
    valueAt: (region, begin, source, within) => parseValueAt(region, begin, source, within),
    keySawReplacement(): void {
      throw NOT_NARROWED;
    },
    parseText: (text) => parse(text),
  };

  // at()'s first try on a string: a value whose parse saw U+FFFD is returned only if the
  // string holds no lone surrogate (the U+FFFD may stand for one).
  const optimisticNavHost: NavHost = {
    ...navHost,
    keySawReplacement(source) {
      if (!(source as string).isWellFormed()) throw LONE_SURROGATE_FOUND;
    },
    valueAt(region, begin, source, within) {
      const value = navHost.valueAt(region, begin, source, within);
      if (lastValueSawReplacement && !(source as string).isWellFormed()) throw LONE_SURROGATE_FOUND;
      return value;
    },
  };

  function lazy(input: JsonInput): LazyValue {
    const { host, source } = navigable(asInput(input, 'lazy'));
    return lazyDocument(host, source);
  }

  /**
   * What the navigator reads, and its host: the input itself, or for a string with lone
   * surrogates wellFormed(input), with a host that places errors in the input.
   */
  function navigable(input: string | Uint8Array): { host: NavHost; source: string | Uint8Array } {
    if (typeof input !== 'string' || input.isWellFormed()) return { host: navHost, source: input };
    return { host: navHostFor(input), source: wellFormed(input) };
  }

  /**
   * The navigator's host for a string with lone surrogates, navigated as wellFormed(original):
   * its errors are placed in the original (offset, line, column, excerpt).
   */
  function navHostFor(original: string): NavHost {
    const placed = (e: unknown): unknown => {
      if (!(e instanceof JsonSyntaxError)) return e;
      return new JsonSyntaxError(e.code, originalOffset(original, e.offset), original);
    };
    return {
      ...navHost,
      fail(code, byteOffset, source, len, ptr): never {
        try {
          navHost.fail(code, byteOffset, source, len, ptr);
        } catch (e) {
          throw placed(e);
        }
      },
      valueAt(region, begin, source, within) {
        try {
          return navHost.valueAt(region, begin, source, within);
        } catch (e) {
          throw placed(e);
        }
      },
    };
  }

  const serializer = createSerializer(wasm, memory.builtins);

  function canonicalize(input: unknown): unknown {
    if (typeof input === 'string') return canonicalizeText(input);
    const bytes = asBytes(input);
    return bytes ? canonicalizeText(bytes) : canonicalizeValue(input);
  }

  /**
   * JSON text canonicalized in wasm: the same text (or its UTF-8) as canonicalizing the
   * value parse() makes of it. What RFC 8785 forbids, and string input with lone
   * surrogates (TextEncoder turned them into U+FFFD), take the value path, which throws
   * its own errors with their messages.
   */
  function canonicalizeText(source: string | Uint8Array): string | Uint8Array {
    const isString = typeof source === 'string';
    const region = memory.acquire(source);
    try {
      const report = wasm.wj_canonicalize(region.ptr, region.len, inputFlags(source)) >>> 2;
      const i32 = memory.wide().i32;
      const code = i32[report];
      const forbidden = code === CODE_JCS_LONE_SURROGATE || code === CODE_JCS_NOT_FINITE;
      if (code !== 0 && !forbidden) throw failure(code, i32[report + 1] >>> 0, source, region.len, region.ptr);
      if (!forbidden && !(isString && i32[report + 4] && !source.isWellFormed())) {
        if (!isString) {
          const out = i32[report + 2] >>> 0;
          return copyOut(memory.bytes(), out, out + (i32[report + 3] >>> 0));
        }
        return canonicalText(report);
      }
    } finally {
      memory.release(region);
    }
    // What JCS forbids, named; or a string with lone surrogates that only a value a later
    // duplicate key replaced had (TextEncoder wrote them as U+FFFD): canonicalized as the
    // value parse() makes of it, in which they are gone.
    const value = parse(source);
    const forbidden = forbiddenIn(value);
    if (forbidden !== undefined) throw forbidden;
    const text = canonicalizeValue(value);
    return isString ? text : encoder.encode(text);
  }

  /**
   * A value: serialized as stringify() serializes it (user code runs as in JSON.stringify;
   * non-finite numbers and JSON.rawJSON values are errors there), and that text
   * canonicalized where the serializer left it in wasm memory, its numbers copied: they
   * are already in the form RFC 8785 asks for, Number::toString's. Undefined where
   * stringify() gives undefined.
   */
  function canonicalizeValue(value: unknown): string {
    return serializer.serializeForCanonical(value, (ptr, len, text) => {
      const report = wasm.wj_canonicalize(ptr, len, FLAG_NUMBERS_IN_JS_FORM) >>> 2;
      const i32 = memory.wide().i32;
      const code = i32[report];
      if (code !== 0) {
        if (code === OUT_OF_MEMORY) throw outOfMemory(len);
        // A lone surrogate, escaped by the serializer (nothing else can fail here).
        throw forbiddenIn(parse(text())) ?? new CanonicalizationError('a string contains a lone surrogate, which JCS forbids');
      }
      return canonicalText(report);
    }) as string;
  }

  /**
   * wj_canonicalize's output (report: its index in i32) as a string: made from its bytes
   * when wasm found it all ASCII, with no UTF-8 decoding (in Chromium, short outputs then
   * go through the string builtins, not a TextDecoder call: a 200-byte document's
   * canonicalize(text) 1.5x faster), else decoded.
   */
  function canonicalText(report: number): string {
    const i32 = memory.wide().i32;
    const out = i32[report + 2] >>> 0;
    const end = out + (i32[report + 3] >>> 0);
    return i32[report + 5] !== 0 ? decodeAscii(memory.bytes(), out, end, memory.builtins?.latin1) : decodeUtf8In(wasm, out, end);
  }

  function validate(input: JsonInput, options?: ValidateOptions): boolean | ValidationResult {
    const policy = policyOf(options, 'validate');
    const explain = !!optionOf(options, 'explain');
    const bytesOrText = asInput(input, 'validate');
    // (Removing keys leaves any document valid: only refusals and the depth count.)
    if (policy !== undefined && (policy.duplicateKeys || policy.protoKeys === REJECT || policy.constructorKeys === REJECT)) {
      // Those checks need the keys as decoded strings: a parse (it validates as well)
      // that builds no arrays or objects (BuildPolicy.discardValues). Its syntax errors
      // are validate's own.
      try {
        parseInput(bytesOrText, undefined, policy);
      } catch (e) {
        if (!(e instanceof JsonSyntaxError)) throw e;
        return explain ? { valid: false, error: e } : false;
      }
      return explain ? { valid: true } : true;
    }
    // A two-byte string read as its units, as minify reads it (SIMD128): valid text is
    // told so at once; invalid text is read again as UTF-8, which finds and places the error.
    // A nesting limit is checked in wasm: the first container too deep, unless the text
    // has a syntax error anywhere (which comes before parse's checks too).
    const maxDepth = depthLimitOf(policy);
    if (typeof bytesOrText === 'string' && narrows && memory.readsUnits(bytesOrText)) {
      const units = memory.acquireUnits(bytesOrText);
      try {
        if (wasm.wj_validate_units(units.ptr, units.len, maxDepth) === 0) return explain ? { valid: true } : true;
      } finally {
        memory.release(units);
      }
    }
    const region = memory.acquire(bytesOrText);
    let code: number;
    let error: JsonSyntaxError | undefined;
    try {
      code = wasm.wj_validate(region.ptr, region.len, inputFlags(bytesOrText), maxDepth);
      // (Built while the document is still in wasm memory: its position is read there.)
      if (code !== 0 && code !== OUT_OF_MEMORY && explain) {
        const detail = code === CODE_TOO_DEEP ? String(policy!.maxDepth) : undefined;
        error = syntaxError(code, wasm.wj_error_offset() >>> 0, bytesOrText, region.ptr, region.len, detail);
      }
    } finally {
      memory.release(region);
    }
    if (code === OUT_OF_MEMORY) throw outOfMemory(region.len);
    if (!explain) return code === 0;
    if (code === 0) return { valid: true };
    return { valid: false, error: error! };
  }

  return {
    flavor,
    parse,
    validate: validate as Codec['validate'],
    at,
    lazy,
    canonicalize: canonicalize as Codec['canonicalize'],
    minify: minify as Codec['minify'],
    prettify: prettify as Codec['prettify'],
    stringify: serializer.stringify,
    encode: serializer.encode,
  };
}

/** Byte containers (Uint8Array, Buffer, ArrayBuffer, DataView) as a Uint8Array, else undefined. */
export function asBytes(input: unknown): Uint8Array | undefined {
  if (input instanceof Uint8Array) {
    let n: number;
    try {
      n = typedArrayLength.call(input); // 0 once detached or out of bounds
    } catch {
      return undefined; // not a typed array, only an object that inherits from one
    }
    if (n === 0) return new Uint8Array(0);
    const proto = Object.getPrototypeOf(input);
    if ((proto === Uint8Array.prototype || proto === nodeBufferPrototype) && !Object.hasOwn(input, 'length') && !Object.hasOwn(input, 'constructor')) {
      return input;
    }
    // A subclass or an own property can answer length, buffer or byteOffset otherwise
    // (a length longer than the bytes read a previous call's input left in wasm
    // memory), or make subarray() build something else: a plain view of what the
    // array really spans.
    return viewBytes(input);
  }
  // (Each kind told by its internal slots: an object that only inherits from one of
  // these prototypes is text, through its toString, as for JSON.parse.)
  if (input instanceof ArrayBuffer) return bufferBytes(input, arrayBufferByteLength);
  if (input instanceof DataView || input instanceof Uint8ClampedArray) return ArrayBuffer.isView(input) ? viewBytes(input) : undefined;
  if (typeof SharedArrayBuffer !== 'undefined' && input instanceof SharedArrayBuffer) return bufferBytes(input, sharedByteLength!);
  if (typeof input !== 'object' || input === null) return undefined;
  // Arrays and plain objects (canonicalize's values) hold no bytes. The slot tests of
  // foreignBytes would tell so by a throw, which costs 3-7 us in V8 (two of them were
  // 10 us of canonicalize's 14 for a 200-byte value). (So an ArrayBuffer given
  // Object.prototype or null as its prototype by setPrototypeOf is a value here.)
  if (isArray(input)) return undefined;
  const proto = getPrototypeOf(input);
  if (proto === ObjectPrototype || proto === null) return undefined;
  return foreignBytes(input);
}
const ObjectPrototype = Object.prototype;

/**
 * The bytes a view spans. A view over a detached buffer, or out of the bounds of a
 * resizable buffer that shrank, holds none, as TextDecoder reads it (so the parse fails
 * as native's does, on empty text): a typed array then has length 0 (and its buffer
 * cannot take a new view, nor be copied from), a DataView's byteLength getter throws.
 */
function viewBytes(view: ArrayBufferView): Uint8Array {
  // Through the intrinsic getters: a subclass may answer otherwise.
  const slots = typedArrayName.call(view) !== undefined ? typedArraySlots : dataViewSlots;
  let length: number;
  try {
    length = slots.byteLength.call(view);
  } catch {
    return new Uint8Array(0);
  }
  return length !== 0 ? new Uint8Array(slots.buffer.call(view), slots.byteOffset.call(view), length) : new Uint8Array(0);
}

/** An ArrayBuffer's bytes; none for a detached one (which no view can be made on). */
function bufferBytes(buffer: ArrayBufferLike, byteLength: (this: unknown) => number): Uint8Array | undefined {
  let n: number;
  try {
    n = byteLength.call(buffer); // (a subclass's own byteLength getter may say otherwise)
  } catch {
    return undefined; // only an object that inherits from the prototype
  }
  return n === 0 ? new Uint8Array(0) : new Uint8Array(buffer, 0, n);
}

// Intrinsic getters that read internal slots, so they tell the kind of any realm's
// buffers and views (instanceof knows only this realm's), and cannot be fooled.
function intrinsicGetter<T>(proto: object, name: PropertyKey): (this: unknown) => T {
  return Object.getOwnPropertyDescriptor(proto, name)!.get as (this: unknown) => T;
}
const TypedArrayPrototype: object = Object.getPrototypeOf(Uint8Array.prototype);
const typedArrayName = intrinsicGetter<string | undefined>(TypedArrayPrototype, Symbol.toStringTag);
const typedArrayLength = intrinsicGetter<number>(TypedArrayPrototype, 'length');
const arrayBufferByteLength = intrinsicGetter<number>(ArrayBuffer.prototype, 'byteLength');
const sharedByteLength = typeof SharedArrayBuffer === 'undefined' ? undefined : intrinsicGetter<number>(SharedArrayBuffer.prototype, 'byteLength');
interface ViewSlots {
  buffer: (this: unknown) => ArrayBufferLike;
  byteOffset: (this: unknown) => number;
  byteLength: (this: unknown) => number;
}
function viewSlots(proto: object): ViewSlots {
  return { buffer: intrinsicGetter(proto, 'buffer'), byteOffset: intrinsicGetter(proto, 'byteOffset'), byteLength: intrinsicGetter(proto, 'byteLength') };
}
const typedArraySlots = viewSlots(TypedArrayPrototype);
const dataViewSlots = viewSlots(DataView.prototype);
const nodeBufferPrototype: object | undefined = NodeBufferCtor?.prototype;

/** Bytes containers from another realm (an iframe, a vm context), or undefined. */
function foreignBytes(input: object): Uint8Array | undefined {
  if (ArrayBuffer.isView(input)) {
    const name = typedArrayName.call(input);
    if (name !== undefined && name !== 'Uint8Array' && name !== 'Uint8ClampedArray') return undefined;
    return viewBytes(input);
  }
  for (const byteLength of [arrayBufferByteLength, sharedByteLength]) {
    if (byteLength === undefined) continue; // (no SharedArrayBuffer: a page not cross-origin isolated)
    const bytes = bufferBytes(input as ArrayBufferLike, byteLength);
    if (bytes !== undefined) return bytes; // (else not that kind of buffer)
  }
  return undefined;
}

/** parse(): strings and bytes as they are; anything else through ToString, as JSON.parse does. */
function toParseInput(input: unknown): string | Uint8Array {
  if (typeof input === 'string') return input;
  return asBytes(input) ?? `${input as string}`;
}

function pickReviver(arg: unknown): Reviver | undefined {
  // (A reviver that is no function is ignored, in the options form too, as JSON.parse
  // ignores one it cannot call: a drop-in for it never throws where it would not.)
  if (typeof arg === 'function') return arg as Reviver;
  if (arg !== null && typeof arg === 'object') {
    const r = option(arg, 'reviver');
    if (typeof r === 'function') return r as Reviver;
  }
  return undefined;
}

/** The checks parse's (or validate's) options ask for; undefined when none (the default path). */
function policyOf(arg: unknown, fn: 'parse' | 'validate'): BuildPolicy | undefined {
  if (arg === null || typeof arg !== 'object') return undefined;
  const duplicates = option(arg, 'duplicateKeys');
  if (duplicates !== undefined && duplicates !== 'last' && duplicates !== 'error') {
    throw new TypeError(`wasmjson.${fn}: options.duplicateKeys must be 'last' or 'error', got ${String(duplicates)}`);
  }
  const protoKeys = keyAction(option(arg, 'protoAction'), 'protoAction', fn);
  const constructorKeys = keyAction(option(arg, 'constructorAction'), 'constructorAction', fn);
  let maxDepth = Infinity;
  const depthOption = option(arg, 'maxDepth');
  if (depthOption !== undefined) {
    maxDepth = depthOption as number;
    if (typeof maxDepth !== 'number') {
      throw new TypeError(`wasmjson.${fn}: options.maxDepth must be a number, got ${typeof depthOption} ${jsonStringify(String(depthOption))}`);
    }
    if (!(maxDepth >= 0) || (maxDepth !== Infinity && !Number.isInteger(maxDepth))) {
      throw new RangeError(`wasmjson.${fn}: options.maxDepth must be a non-negative integer, got ${String(depthOption)}`);
    }
  }
  if (duplicates !== 'error' && protoKeys === KEEP && constructorKeys === KEEP && maxDepth === Infinity) return undefined;
  return { duplicateKeys: duplicates === 'error', protoKeys, constructorKeys, maxDepth, discardValues: fn === 'validate' };
}

function keyAction(action: unknown, name: string, fn: 'parse' | 'validate'): KeyAction {
  if (action === undefined || action === 'ignore') return KEEP;
  if (action === 'error') return REJECT;
  if (action === 'remove') return REMOVE;
  throw new TypeError(`wasmjson.${fn}: options.${name} must be 'ignore', 'error' or 'remove', got ${String(action)}`);
}

/** A policy's maxDepth as wasm takes it (NO_DEPTH_LIMIT: none). */
function depthLimitOf(policy: BuildPolicy | undefined): number {
  return policy === undefined || policy.maxDepth >= NO_DEPTH_LIMIT ? NO_DEPTH_LIMIT : policy.maxDepth;
}

/** The SyntaxError for a document a parse option refuses, positioned in the source. */
function violationError(v: PolicyViolation, source: string | Uint8Array, policy: BuildPolicy): JsonSyntaxError {
  const offset = locateViolation(source, v, policy.maxDepth);
  if (v.kind === 'depth') return new JsonSyntaxError('TOO_DEEP', offset, source, undefined, String(policy.maxDepth));
  if (v.kind === 'duplicate') return new JsonSyntaxError('DUPLICATE_KEY', offset, source, undefined, v.key);
  return new JsonSyntaxError(v.kind === 'proto' ? 'FORBIDDEN_PROTO' : 'FORBIDDEN_CONSTRUCTOR', offset, source);
}

/** The parse flags for options.bigint (0 for a reviver function or no options). */
function bigintFlags(arg: unknown): number {
  if (arg === null || typeof arg !== 'object') return 0;
  const mode = option(arg, 'bigint');
  if (mode === undefined || mode === 'never') return 0;
  if (mode === 'unsafe') return FLAG_BIGINTS_UNSAFE;
  if (mode === 'always') return FLAG_BIGINTS_ALL;
  throw new TypeError(`wasmjson.parse: options.bigint must be 'never', 'unsafe' or 'always', got ${String(mode)}`);
}

/** Whether options.stringDecoding asks for 'each' ('document', or none: no); other values are refused. */
function stringDecodingEach(arg: unknown): boolean {
  if (arg === null || typeof arg !== 'object') return false;
  const mode = optionOf(arg, 'stringDecoding');
  if (mode === undefined || mode === 'document') return false;
  if (mode === 'each') return true;
  throw new TypeError(`wasmjson.parse: options.stringDecoding must be 'document' or 'each', got ${String(mode)}`);
}

/** Decodes strings one at a time from the document at `base` in wasm memory. */
function eachStringDecoder(memory: Memory, base: number): TextSource {
  // (memory.bytes() each time: a view made before may be stale once memory grew.)
  return { slice: (begin: number, end: number) => decodeUtf8(memory.bytes(), base + begin, base + end) };
}


/** Strings stay strings; byte containers become a Uint8Array view; others are refused. */
function asInput(input: unknown, fn: string): string | Uint8Array {
  if (typeof input === 'string') return input;
  const bytes = asBytes(input);
  if (bytes) return bytes;
  throw new TypeError(
    `wasmjson.${fn}: expected a string, Uint8Array, Buffer, ArrayBuffer or DataView, got ${describe(input)}`,
  );
}

function describe(v: unknown): string {
  if (v === null) return 'null';
  if (typeof v === 'object') return (v as object).constructor?.name ?? 'object';
  return typeof v;
}

