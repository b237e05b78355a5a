// Errors reported by the wasm core (a code and a byte offset) become JS errors here, and
// only here: line, column and the excerpt are computed when an error is built, never
// tracked while parsing. Codes mirror cpp/core/error.h and docs/BOUNDARY.md.
import { jsonParse, jsonStringify } from './intrinsics.js';

export type ErrorCode =
  | 'UNEXPECTED_END'
  | 'UNEXPECTED_CHARACTER'
  | 'EXPECTED_PROPERTY_NAME_OR_BRACE'
  | 'EXPECTED_PROPERTY_NAME'
  | 'EXPECTED_COLON'
  | 'EXPECTED_COMMA_OR_BRACE'
  | 'EXPECTED_COMMA_OR_BRACKET'
  | 'UNTERMINATED_STRING'
  | 'BAD_CONTROL_CHARACTER'
  | 'BAD_ESCAPE'
  | 'BAD_UNICODE_ESCAPE'
  | 'NO_NUMBER_AFTER_MINUS'
  | 'EXPONENT_MISSING_NUMBER'
  | 'UNTERMINATED_FRACTION'
  | 'TRAILING_CONTENT'
  | 'INVALID_UTF8'
  | 'LEADING_ZERO'
  // From parse's checking options (not wasm codes, but for validate's maxDepth).
  | 'DUPLICATE_KEY'
  | 'FORBIDDEN_PROTO'
  | 'FORBIDDEN_CONSTRUCTOR'
  | 'TOO_DEEP';

// Index = the numeric code from wasm.
const CODES: readonly (ErrorCode | undefined)[] = [
  undefined,
  'UNEXPECTED_END',
  'UNEXPECTED_CHARACTER',
  'EXPECTED_PROPERTY_NAME_OR_BRACE',
  'EXPECTED_PROPERTY_NAME',
  'EXPECTED_COLON',
  'EXPECTED_COMMA_OR_BRACE',
  'EXPECTED_COMMA_OR_BRACKET',
  'UNTERMINATED_STRING',
  'BAD_CONTROL_CHARACTER',
  'BAD_ESCAPE',
  'BAD_UNICODE_ESCAPE',
  'NO_NUMBER_AFTER_MINUS',
  'EXPONENT_MISSING_NUMBER',
  'UNTERMINATED_FRACTION',
  'TRAILING_CONTENT',
  'INVALID_UTF8',
  'LEADING_ZERO',
  // 18, out of memory, is no syntax error: callers throw outOfMemory() instead; 19 to 23
  // are other calls' (cpp/core/error.h).
  undefined,
  undefined,
  undefined,
  undefined,
  undefined,
  undefined,
  // wj_validate with a nesting limit (options.maxDepth).
  'TOO_DEEP',
];

// Every ErrorCode, for the constructor's check of its arguments.
const KNOWN_CODES: ReadonlySet<unknown> = new Set<ErrorCode>([
  ...(CODES.filter((c) => c !== undefined) as ErrorCode[]),
  'DUPLICATE_KEY',
  'FORBIDDEN_PROTO',
  'FORBIDDEN_CONSTRUCTOR',
]);

const PHRASES: Partial<Record<ErrorCode, string>> = {
  EXPECTED_PROPERTY_NAME_OR_BRACE: "Expected property name or '}' in JSON",
  EXPECTED_PROPERTY_NAME: 'Expected double-quoted property name in JSON',
  EXPECTED_COLON: "Expected ':' after property name in JSON",
  EXPECTED_COMMA_OR_BRACE: "Expected ',' or '}' after property value in JSON",
  EXPECTED_COMMA_OR_BRACKET: "Expected ',' or ']' after array element in JSON",
  UNTERMINATED_STRING: 'Unterminated string in JSON',
  BAD_CONTROL_CHARACTER: 'Bad control character in string literal in JSON',
  BAD_ESCAPE: 'Bad escaped character in JSON',
  BAD_UNICODE_ESCAPE: 'Bad Unicode escape in JSON',
  NO_NUMBER_AFTER_MINUS: 'No number after minus sign in JSON',
  EXPONENT_MISSING_NUMBER: 'Exponent part is missing a number in JSON',
  UNTERMINATED_FRACTION: 'Unterminated fractional number in JSON',
  TRAILING_CONTENT: 'Unexpected non-whitespace character after JSON',
  INVALID_UTF8: 'Invalid UTF-8 in JSON',
  LEADING_ZERO: 'Unexpected number in JSON',
  FORBIDDEN_PROTO: 'Forbidden "__proto__" key in JSON',
  FORBIDDEN_CONSTRUCTOR: 'Forbidden "constructor" key (its value has a "prototype") in JSON',
};

const SPECIAL_STRINGS = ['NaN', 'Infinity', 'undefined', '[object Object]'];

/**
 * The source when it is one of SPECIAL_STRINGS: the string itself, or bytes that
 * TextDecoder makes one of them (past one BOM), as JSON.parse of the decoded text sees.
 */
function specialString(source: ErrorSource): string | undefined {
  if (typeof source === 'string') return SPECIAL_STRINGS.includes(source) ? source : undefined;
  if (source.length > 18) return undefined;
  const from = bomBytes(source);
  // (They are ASCII: a byte is a unit, and no other bytes spell one.)
  let text = '';
  for (let i = from; i < source.length; i++) text += String.fromCharCode(source[i]);
  return SPECIAL_STRINGS.includes(text) ? text : undefined;
}

/**
 * The text shown of bytes input starts after the UTF-8 BOM it may begin with, which is
 * skipped (as JSON.parse(new TextDecoder().decode(bytes)) never sees it); offsets past
 * it are re-based to the text shown.
 */
function afterBom(source: ErrorSource, offset: number): [ErrorSource, number] {
  if (typeof source === 'string' || offset < 3 || bomBytes(source) === 0) return [source, offset];
  return [source.subarray(3), offset - 3];
}

/** 3 when the bytes begin with a UTF-8 BOM, else 0. */
function bomBytes(bytes: Uint8Array): number {
  return bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? 3 : 0;
}

/** The source an error refers to: the caller's string, or the bytes as given. */
export type ErrorSource = string | Uint8Array;

/**
 * Stands for bytes whose errors must be described from their copy in wasm memory, not
 * from the caller's array: a lazy document's, read after lazy() returned, when the caller
 * may have changed or detached its array (the codec's error maker swaps in the copy).
 */
export const BYTES_IN_WASM: Uint8Array = new Uint8Array(0);

/**
 * A JSON syntax error. `offset` is a UTF-16 index into a string input, or a byte offset
 * into bytes input; `line` and `column` are 1-based in the same units.
 */
export class JsonSyntaxError extends SyntaxError {
  readonly code: ErrorCode;
  readonly offset: number;
  readonly line: number;
  readonly column: number;
  /** Up to 40 characters of source around the offset. */
  readonly excerpt: string;

  // As a drop-in for JSON.parse's errors, `error.constructor` is SyntaxError itself: code
  // that checks `e.constructor === SyntaxError` (as test262's assert.throws does) sees what
  // JSON.parse throws. `instanceof JsonSyntaxError` and `instanceof SyntaxError` both hold.
  static {
    Object.defineProperty(this.prototype, 'constructor', {
      value: SyntaxError,
      writable: true,
      enumerable: false,
      configurable: true,
    });
  }

  /**
   * `at`: line and column when already known (wasm counts them on the document's bytes).
   * `detail`: the duplicate key (DUPLICATE_KEY), the depth limit (TOO_DEEP).
   */
  constructor(code: ErrorCode, offset: number, source: ErrorSource, at?: { line: number; column: number }, detail?: string) {
    checkArguments(code, offset, source);
    const { line, column } = at ?? lineAndColumn(source, offset);
    const excerpt = excerptAt(source, offset);
    super(message(code, offset, line, column, source, detail));
    this.code = code;
    this.offset = offset;
    this.line = line;
    this.column = column;
    this.excerpt = excerpt;
  }
}

/**
 * The class is public (for instanceof, and for code that makes its own): what it is given
 * must describe a place in JSON text, else it says so instead of failing inside.
 */
function checkArguments(code: unknown, offset: unknown, source: unknown): asserts source is ErrorSource {
  if (!KNOWN_CODES.has(code)) throw new TypeError(`wasmjson.JsonSyntaxError: unknown code ${String(code)} (see ErrorCode)`);
  if (typeof source !== 'string' && !(source instanceof Uint8Array)) {
    throw new TypeError('wasmjson.JsonSyntaxError: the source must be the JSON text (a string or a Uint8Array)');
  }
  if (typeof offset !== 'number' || !Number.isInteger(offset) || offset < 0 || offset > source.length) {
    throw new RangeError(`wasmjson.JsonSyntaxError: the offset must be an index into the source (0 to ${source.length}), got ${String(offset)}`);
  }
}

export function codeName(code: number): ErrorCode {
  const name = CODES[code];
  if (name === undefined) throw new Error(`wasmjson: unknown error code ${code} from wasm`);
  return name;
}

/** Error for input that cannot fit in wasm memory; not a syntax error. */
export function outOfMemory(bytes?: number): RangeError {
  // Without a size: the output side (a serialized document), whose final size is unknown.
  const what = bytes === undefined ? 'the output' : `a document of ${bytes} bytes`;
  return new RangeError(
    `wasmjson: ${what} and its working buffers do not fit in WebAssembly memory (a 4 GiB address space); the instance stays usable`,
  );
}

/**
 * Whether this engine's JSON.parse names the line and column in its messages (V8 from
 * about 12.x: Node 22+ and current Chromium; Node 20's V8 11.3 gives the position only):
 * messages follow the engine they run on, as a drop-in's should.
 */
const NATIVE_LINE_COLUMN = (() => {
  try {
    jsonParse('[1 2]');
  } catch (e) {
    return /\(line \d+ column \d+\)$/.test((e as Error).message);
  }
  return true;
})();

/**
 * Whether this engine's JSON.parse reports a missing ':' after a property name other than
 * an object's first as an unexpected token, or at the end of the input as its end (V8
 * 11.3, Node 20); later V8 says "Expected ':' after property name" for every property.
 */
const LEGACY_COLON_AFTER_COMMA = (() => {
  try {
    jsonParse('{"x":1,"a"}');
  } catch (e) {
    return /^Unexpected token/.test((e as Error).message);
  }
  return false;
})();

/**
 * Whether the property name that ends before `offset` (a missing ':' was found there) is
 * its object's first: the text before its opening quote, past whitespace, is '{'. The
 * name is a valid string (wasm read it), so the first quote found going back with an
 * even run of backslashes before it opens it. Error path only.
 */
function isFirstProperty(source: ErrorSource, offset: number): boolean {
  const at = (i: number) => (typeof source === 'string' ? source.charCodeAt(i) : source[i]!);
  const isSpace = (c: number) => c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09;
  let i = offset - 1;
  while (i >= 0 && isSpace(at(i))) i--;
  // i: the closing quote. Find the opening one.
  for (i--; i >= 0; i--) {
    if (at(i) !== 0x22) continue;
    let slashes = 0;
    while (i - 1 - slashes >= 0 && at(i - 1 - slashes) === 0x5c) slashes++;
    if (slashes % 2 === 0) break;
  }
  for (i--; i >= 0 && isSpace(at(i)); i--);
  return i >= 0 && at(i) === 0x7b;
}

function lineAndColumnText(line: number, column: number): string {
  return NATIVE_LINE_COLUMN ? ` (line ${line} column ${column})` : '';
}

function message(
  code: ErrorCode,
  offset: number,
  line: number,
  column: number,
  source: ErrorSource,
  detail?: string,
): string {
  if (code === 'DUPLICATE_KEY') return `Duplicate key ${jsonStringify(detail)} in JSON at position ${offset}${lineAndColumnText(line, column)}`;
  if (code === 'TOO_DEEP') return `JSON nested deeper than ${detail} levels (options.maxDepth) at position ${offset}${lineAndColumnText(line, column)}`;
  if (code === 'EXPECTED_COLON' && LEGACY_COLON_AFTER_COMMA && !isFirstProperty(source, offset)) {
    code = offset >= source.length ? 'UNEXPECTED_END' : 'UNEXPECTED_CHARACTER';
  }
  if (code === 'UNEXPECTED_END') return 'Unexpected end of JSON input';
  const where = `at position ${offset}${lineAndColumnText(line, column)}`;
  // V8 names a misplaced number or string by its kind, and reports a backslash before a
  // character from U+0100 up as an unexpected token.
  const token = code === 'UNEXPECTED_CHARACTER' || code === 'BAD_ESCAPE' ? tokenAt(source, offset) : '';
  if (code === 'UNEXPECTED_CHARACTER' && (token === '-' || (token >= '0' && token <= '9'))) {
    return `Unexpected number in JSON ${where}`;
  }
  if (code === 'UNEXPECTED_CHARACTER' && token === '"') return `Unexpected string in JSON ${where}`;
  if (code === 'UNEXPECTED_CHARACTER' || (code === 'BAD_ESCAPE' && token.charCodeAt(0) >= 0x100)) {
    // V8 names the common mistakes of passing a non-JSON value's String() form.
    const special = specialString(source);
    if (special !== undefined) return `"${special}" is not valid JSON`;
    return `Unexpected token '${token}', ${context(source, offset)} is not valid JSON`;
  }
  if (code === 'INVALID_UTF8') return `Invalid UTF-8 in JSON at byte ${offset}${lineAndColumnText(line, column)}`;
  return `${PHRASES[code] ?? code} ${where}`;
}

// V8's context rule: inputs of up to 20 units are quoted whole; otherwise up to 10 units
// either side of the offset, with "..." before unless the offset is below 10 and after
// unless the offset is within 10 of the end.
function context(source: ErrorSource, offset: number): string {
  [source, offset] = afterBom(source, offset);
  const length = source.length;
  if (length <= 20) return `"${slice(source, 0, length)}"`;
  const before = offset >= 10;
  const after = offset < length - 10;
  return `${before ? '...' : ''}"${slice(source, Math.max(0, offset - 10), Math.min(length, offset + 10))}"${after ? '...' : ''}`;
}

// (ignoreBOM: a U+FEFF in the text is shown, not dropped as a byte order mark.)
const utf8Decoder = new TextDecoder('utf-8', { ignoreBOM: true });

/**
 * source[from, to): for bytes, widened to whole UTF-8 sequences (by 3 bytes at most each
 * way, a sequence's continuation bytes: a run of stray ones stays cut, as invalid bytes).
 */
function slice(source: ErrorSource, from: number, to: number): string {
  if (typeof source === 'string') return source.slice(from, to);
  for (let k = 0; k < 3 && from > 0 && (source[from]! & 0xc0) === 0x80; k++) from--;
  for (let k = 0; k < 3 && to < source.length && (source[to]! & 0xc0) === 0x80; k++) to++;
  return utf8Decoder.decode(source.subarray(from, to));
}

const isHighSurrogate = (c: number) => c >= 0xd800 && c <= 0xdbff;
const isLowSurrogate = (c: number) => c >= 0xdc00 && c <= 0xdfff;

function tokenAt(source: ErrorSource, offset: number): string {
  // One UTF-16 code unit, as V8 shows it (half of a surrogate pair for astral characters).
  if (typeof source === 'string') return source.charAt(offset);
  const b = source[offset] ?? 0;
  const n = b < 0x80 ? 1 : b < 0xe0 ? 2 : b < 0xf0 ? 3 : 4;
  return utf8Decoder.decode(source.subarray(offset, offset + n)).charAt(0);
}

/** About 20 units (bytes) either side of offset, widened to whole characters. */
function excerptAt(source: ErrorSource, offset: number): string {
  [source, offset] = afterBom(source, offset);
  let from = Math.max(0, offset - 20);
  let to = Math.min(source.length, offset + 20);
  if (typeof source === 'string') {
    // (The message's context cuts pairs as V8's does; the excerpt keeps them whole.)
    if (from > 0 && isLowSurrogate(source.charCodeAt(from)) && isHighSurrogate(source.charCodeAt(from - 1))) from--;
    if (to < source.length && isLowSurrogate(source.charCodeAt(to)) && isHighSurrogate(source.charCodeAt(to - 1))) to++;
  }
  return slice(source, from, to);
}

/**
 * 1-based line and column of `offset`; '\n', '\r' and '\r\n' each end a line, as in V8.
 * For errors built without a position (the codec's own come with one that wasm counted
 * on the document's bytes: cpp/core/text_position.h).
 */
export function lineAndColumn(source: ErrorSource, offset: number): { line: number; column: number } {
  let line = 1;
  let lineStart = 0;
  if (typeof source === 'string') {
    const breaks = /\r\n?|\n/g;
    for (let m = breaks.exec(source); m !== null && m.index < offset; m = breaks.exec(source)) {
      line++;
      lineStart = m.index + m[0].length;
    }
  } else {
    let lf = source.indexOf(10);
    let cr = source.indexOf(13);
    for (;;) {
      const at = lf === -1 ? cr : cr === -1 ? lf : Math.min(lf, cr);
      if (at === -1 || at >= offset) break;
      const width = at === cr && lf === at + 1 ? 2 : 1;
      line++;
      lineStart = at + width;
      if (lf !== -1 && lf < lineStart) lf = source.indexOf(10, lineStart);
      if (cr !== -1 && cr < lineStart) cr = source.indexOf(13, lineStart);
    }
  }
  return { line, column: offset - Math.min(lineStart, offset) + 1 };
}
