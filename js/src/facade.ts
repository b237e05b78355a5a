// The package's public functions, shared by every entry point. An entry supplies how to
// obtain the .wasm bytes on its platform; the facade owns the active codec and flavor
// choice. The exported functions are stable: init() swaps what they call.
import {
  asBytes,
  createCodec,
  type Codec,
  type JsonInput,
  type ParseOptions,
  type PrettifyOptions,
  type ValidateOptions,
  type ValidationResult,
} from './codec.js';
import type { LazyValue } from './navigate.js';
import type { Reviver } from './revive.js';
import type { EncodeOptions, Replacer } from './stringify.js';
import { engineHasSimd128, FLAVORS, IMPORTS, type Flavor } from './exports.js';
import { optionOf } from './options.js';
import type { StringInput } from './memory.js';
import type { WasmModule } from './wasm-types.js';

/** What init() and load() accept as the wasm to run. */
export type WasmSource = string | URL | ArrayBuffer | SharedArrayBuffer | Uint8Array | DataView | WasmModule | Response | Promise<Response>;

export interface InitOptions {
  /** Force a kernel flavor; default: SIMD128 when the engine has it, else SWAR64. */
  flavor?: Flavor;
  /**
   * The .wasm to run, for hosts that need control (CSP, custom asset paths): a URL,
   * bytes, a compiled WebAssembly.Module or a fetch Response. Its flavor is read from it.
   */
  wasm?: WasmSource;
  /**
   * How string input is copied into wasm memory: 'utf8' (the engine's UTF-8 encoder),
   * 'utf16' (the string's UTF-16 units, transcoded to UTF-8 in wasm), or 'auto'
   * (default): the engine's encoder for ASCII, and for other strings whichever of the
   * two a one-time measurement found faster (the UTF-16 route in Node 24 and 20 for text
   * such as twitter.json's; the engine's in Node 26 and Chromium, though in Chromium
   * 'utf16' is about 10% faster on text that is mostly not ASCII). Results never differ.
   * Strings over 16M units always go in as UTF-8. Outside Node, where the engine has
   * WebAssembly JS String Builtins, 'auto' sends two-byte strings and those of 33-512
   * units as units (see stringBuiltins).
   */
  stringInput?: StringInput;
  /**
   * Outside Node: whether strings move between JS and wasm memory through WebAssembly
   * JS String Builtins where the engine has them (a second, small wasm module; Chromium
   * 130+, Firefox 134+). Default true. false: the engine's TextEncoder and TextDecoder
   * and JS loops, as in engines without them. Results never differ. (Node uses its
   * Buffer methods either way.)
   */
  stringBuiltins?: boolean;
  /**
   * Whether parse may compile (new Function) a constructor for an object shape it meets
   * often: default true (faster). Under a Content-Security-Policy without 'unsafe-eval'
   * the first attempt fails, harmlessly but reported as a CSP violation, and parse builds
   * objects without; false never attempts it (no report).
   */
  allowEval?: boolean;
}

/** What loadSync() and initSync() accept: InitOptions without `wasm` (they read the packaged files). */
export type SyncInitOptions = Omit<InitOptions, 'wasm' | 'stringBuiltins'>;

export interface Implementation {
  /** The kernel flavor running now. */
  flavor: Flavor;
  /** Whether this engine can run the SIMD128 flavor. */
  simd128Supported: boolean;
}

export interface Platform {
  /** The flavor the host environment asks for (e.g. WASMJSON_FLAVOR), if any. */
  requestedFlavor(): string | undefined;
  /** Bytes of the packaged .wasm for a flavor, synchronously (Node only). */
  readWasmSync?(flavor: Flavor): Uint8Array;
  /** The packaged .wasm for a flavor. */
  readWasm(flavor: Flavor): Promise<WasmSource>;
  /**
   * The wasm at a URL or path given to init({ wasm }), where fetch is not the whole
   * story (Node: file: URLs and paths are read from disk). Default: fetch.
   */
  readLocation?(location: string): Promise<Response | Uint8Array>;
}

export function pickFlavor(requested: string | undefined): Flavor {
  if (requested !== undefined && requested !== '') {
    if (!(FLAVORS as readonly string[]).includes(requested)) {
      throw new TypeError(`wasmjson: unknown flavor '${requested}' (expected one of: ${FLAVORS.join(', ')})`);
    }
    if (requested === 'simd128' && !engineHasSimd128()) {
      throw new Error('wasmjson: flavor simd128 was requested but this engine has no WebAssembly SIMD128');
    }
    return requested as Flavor;
  }
  return engineHasSimd128() ? 'simd128' : 'swar64';
}

const objectToString = Object.prototype.toString;

/** Whether x is a compiled WebAssembly.Module of any realm (an iframe's too). */
function isModule(x: object): x is WebAssembly.Module {
  try {
    WebAssembly.Module.exports(x as WebAssembly.Module);
    return true;
  } catch {
    return false;
  }
}

/**
 * The instance of a WasmSource. Kinds are told apart by what they hold, not by
 * instanceof, so that a page's iframe (another realm) may hand over its bytes, Module or
 * URL; anything else is a TypeError that says what is taken.
 */
async function instantiate(source: WasmSource, platform: Platform): Promise<WebAssembly.Instance> {
  if (typeof source === 'object' && source !== null && isModule(source)) return WebAssembly.instantiate(source, IMPORTS);
  if (typeof source === 'string' || (typeof source === 'object' && source !== null && objectToString.call(source) === '[object URL]')) {
    const location = String(source);
    // (A failure to read it, such as a network error, a CSP's connect-src or a missing
    // file, is named with the location.)
    source = await (platform.readLocation ? platform.readLocation(location) : fetch(location)).catch((e: unknown) => {
      throw new Error(`wasmjson: could not load ${location}: ${(e as Error)?.message ?? String(e)}`, { cause: e });
    });
  }
  const bytes = asBytes(source);
  if (bytes !== undefined) return (await WebAssembly.instantiate(bytes as Uint8Array<ArrayBuffer>, IMPORTS)).instance;
  const isResponseLike = (x: unknown): x is Response =>
    typeof x === 'object' && x !== null && typeof (x as Response).arrayBuffer === 'function' && 'ok' in x;
  if (!isResponseLike(source) && typeof (source as { then?: unknown } | null)?.then !== 'function') {
    throw new TypeError(
      'wasmjson: the wasm to load is a URL (a string or URL), bytes (an ArrayBuffer, Uint8Array or DataView), ' +
        `a WebAssembly.Module, or a fetch Response or a promise of one; got ${source === null ? 'null' : objectToString.call(source)}`,
    );
  }
  const response = await (source as Response | Promise<Response>);
  if (!isResponseLike(response)) throw new TypeError(`wasmjson: the promise for the wasm gave ${objectToString.call(response)}, not a Response`);
  // (A Response made by the page, not fetched, has no URL.)
  const name = response.url || 'the given Response';
  if (!response.ok) throw new Error(`wasmjson: could not load ${name}: HTTP ${response.status}`);
  try {
    // (Streamed when it says it is wasm; a Response-like object may have no headers.)
    if (typeof WebAssembly.instantiateStreaming === 'function' &&
        typeof response.headers?.get === 'function' && response.headers.get('content-type')?.startsWith('application/wasm')) {
      return (await WebAssembly.instantiateStreaming(response, IMPORTS)).instance;
    }
    return (await WebAssembly.instantiate(await response.arrayBuffer(), IMPORTS)).instance;
  } catch (e) {
    // A body cut off part way is the engine's bare TypeError ('terminated' in Node;
    // Chromium has words of its own): named with where it came from. Wasm that is not
    // valid stays WebAssembly's own error.
    if (e instanceof WebAssembly.CompileError || e instanceof WebAssembly.LinkError || e instanceof WebAssembly.RuntimeError) throw e;
    throw new Error(`wasmjson: could not load ${name}: ${(e as Error)?.message ?? String(e)}`, { cause: e });
  }
}

/**
 * Node's readLocation: a file: URL or a path (anything without a scheme of two or more
 * letters: `C:\\x.wasm` is a path) is read from disk; other URLs are fetched.
 */
export async function readLocationInNode(location: string, readFile: (path: string | URL) => Uint8Array): Promise<Response | Uint8Array> {
  if (location.startsWith('file:')) return readFile(new URL(location));
  return /^[a-z][a-z0-9+.-]+:/i.test(location) ? fetch(location) : readFile(location);
}

// The state behind the top-level functions: one per bundle (each entry is its own
// bundle), set up once by the entry through usePlatform() and start() / startSync().
let platform: Platform | undefined;
let active: Codec | undefined;
// Why the entry's own start-up init() failed, if it did (see start()).
let startError: unknown;
// Calls to init() so far: when they overlap, the one made last decides the codec.
let inits = 0;

/** How this entry obtains the .wasm files (called once, before start() or startSync()). */
export function usePlatform(p: Platform): void {
  platform = p;
}

function host(): Platform {
  if (platform === undefined) throw new Error('wasmjson: no platform (an entry point calls usePlatform() first)');
  return platform;
}

/**
 * What load() and every function say in an engine without WebAssembly at all (V8 run
 * with --jitless, some locked-down embeddings), where no location or bytes help.
 */
const NO_WEBASSEMBLY = 'wasmjson: this JavaScript engine has no WebAssembly (in Node or Chromium: was V8 started with --jitless?), which wasmjson needs';

function requireWebAssembly(): void {
  if (typeof WebAssembly === 'undefined') throw new Error(NO_WEBASSEMBLY);
}

/** What the functions say when the entry's start-up init() failed with `e`. */
export function loadFailureMessage(e: unknown): string {
  if (typeof WebAssembly === 'undefined') return NO_WEBASSEMBLY;
  const why = (e as Error)?.message ?? String(e);
  // A Content-Security-Policy that forbids compiling wasm: no other location or bytes help.
  // (V8: "... 'unsafe-eval' is not an allowed source ..."; Firefox: "... blocked by CSP".)
  const advice = /unsafe-eval|content security policy|blocked by CSP/i.test(why)
    ? "this page's Content-Security-Policy must allow WebAssembly: add 'wasm-unsafe-eval' to its script-src"
    : 'pass its location or bytes to await init({ wasm })';
  return `wasmjson: its wasm did not load (${why}); ${advice}`;
}

function codec(): Codec {
  if (!active) {
    if (startError !== undefined) {
      throw new Error(loadFailureMessage(startError), { cause: startError });
    }
    throw new Error('wasmjson: not initialised yet; await init() first');
  }
  return active;
}

/**
 * The entry's start-up init() (at import). A failure is kept, not thrown:
 * the module still loads, so that init({ wasm }) can follow (a CSP or a custom asset
 * path that the default URL misses); the functions throw it until then.
 */
export async function start(): Promise<void> {
  try {
    await init();
  } catch (e) {
    startError = e;
  }
}

/** start() for Node's entries, whose init is synchronous (a bundle that left the .wasm files behind still imports). */
export function startSync(): void {
  try {
    initSync();
  } catch (e) {
    startError = e;
  }
}

// ---- The package's top-level functions (every entry exports these) ----

/**
 * A new, independent codec: its own wasm instance and memory, with the same functions as
 * methods. For isolation (a worker, a flavor of its own), or to pass `wasm` explicitly.
 * The top-level functions are unaffected.
 */
export async function load(options: InitOptions | null = {}): Promise<Codec> {
  requireWebAssembly();
  const p = host();
  const wasm = optionOf(options, 'wasm') as InitOptions['wasm'];
  const requested = optionOf(options, 'flavor') as Flavor | undefined;
  if (wasm !== undefined) {
    // (An unknown flavor is said before the wasm is fetched and compiled.)
    const name: string | undefined = requested;
    if (name && !(FLAVORS as readonly string[]).includes(name)) pickFlavor(name);
    const c = createCodec(await instantiate(wasm, p), options);
    if (requested && c.flavor !== requested) {
      throw new Error(`wasmjson: the given wasm is the ${c.flavor} flavor, not ${requested}`);
    }
    return c;
  }
  const flavor = pickFlavor(requested ?? p.requestedFlavor());
  return createCodec(await instantiate(await p.readWasm(flavor), p), options);
}

/** load(), synchronously, from the packaged .wasm files (Node only). */
export function loadSync(options: SyncInitOptions | null = {}): Codec {
  requireWebAssembly();
  const p = host();
  if (!p.readWasmSync) throw new Error('wasmjson: synchronous loading is only available in Node');
  // (Said, not ignored: a caller that passes it means another module than the packaged one.)
  if (optionOf(options, 'wasm') !== undefined) {
    throw new TypeError('wasmjson: loadSync() and initSync() read the packaged .wasm files; for other wasm, use load({ wasm }) or init({ wasm })');
  }
  const flavor = pickFlavor((optionOf(options, 'flavor') as Flavor | undefined) ?? p.requestedFlavor());
  const module = new WebAssembly.Module(p.readWasmSync(flavor) as Uint8Array<ArrayBuffer>);
  return createCodec(new WebAssembly.Instance(module, IMPORTS), options);
}

/**
 * (Re)initialises the codec behind the top-level functions: another flavor, or the wasm
 * from a location or bytes of your choosing (`wasm`; for a Content-Security-Policy or
 * custom asset paths). Each entry point has already initialised itself when its import
 * finishes; a failure then is reported by the functions until init() succeeds.
 */
export async function init(options: InitOptions | null = {}): Promise<Implementation> {
  const call = ++inits;
  const loaded = await load(options);
  if (call === inits) active = loaded;
  return { flavor: loaded.flavor, simd128Supported: engineHasSimd128() };
}

/** init(), synchronously, from the packaged .wasm files (Node only). */
export function initSync(options: SyncInitOptions | null = {}): Implementation {
  ++inits; // (an init() still loading does not override it)
  active = loadSync(options);
  return implementation();
}

/** The kernel flavor behind the top-level functions, and whether this engine has SIMD128. */
export function implementation(): Implementation {
  return { flavor: codec().flavor, simd128Supported: engineHasSimd128() };
}

/**
 * Whether the input is one well-formed JSON text (RFC 8259; bytes: also valid UTF-8),
 * without making any value. With `{ explain: true }`: `{ valid: true }` or
 * `{ valid: false, error }`, error being the JsonSyntaxError parse would throw.
 */
export function validate(input: JsonInput): boolean;
export function validate(input: JsonInput, options: ValidateOptions & { explain: true }): ValidationResult;
export function validate(input: JsonInput, options?: ValidateOptions & { explain?: false }): boolean;
export function validate(input: JsonInput, options?: ValidateOptions): boolean | ValidationResult;
export function validate(input: JsonInput, options?: ValidateOptions): boolean | ValidationResult {
  return codec().validate(input, options);
}

// (Methods, then taken out, like JSON.parse and JSON.stringify: not constructors, no
// prototype; their names and lengths match native's.)
const methods = {
  parse(text: unknown, reviver?: Reviver | ParseOptions | null): any {
    return codec().parse(text, reviver);
  },
  stringify(value: unknown, replacer?: Replacer, space?: string | number | null): string {
    return codec().stringify(value, replacer, space);
  },
  encode(value: unknown, options?: EncodeOptions): Uint8Array<ArrayBuffer> {
    return codec().encode(value, options);
  },
};

/**
 * JSON.parse, from a string or UTF-8 bytes (any Uint8Array or Buffer, ArrayBuffer,
 * SharedArrayBuffer, DataView, Uint8ClampedArray):
 * the same values, key order and errors' kind. The second argument is a reviver, called
 * as JSON.parse calls it (with the `{ source }` context), or ParseOptions. A malformed
 * text throws a JsonSyntaxError (a SyntaxError) with offset, line and column; bytes that
 * are not UTF-8 too.
 */
export const parse: (text: unknown, reviver?: Reviver | ParseOptions | null) => any = methods.parse;

/**
 * JSON.stringify, byte for byte: toJSON, a replacer function or property list, space,
 * and the same errors (cycles and BigInt are TypeErrors); README lists the few cases
 * where V8 departs from the specification and this follows the specification. undefined where JSON.stringify
 * returns undefined (a top-level undefined, function or symbol), which the return type
 * leaves out as TypeScript's own type of JSON.stringify does.
 */
export const stringify: (value: unknown, replacer?: Replacer, space?: string | number | null) => string = methods.stringify;

/**
 * stringify()'s text as UTF-8 bytes, made without the string: a new Uint8Array. Options:
 * replacer and space as stringify's; `bigint: 'number'` writes BigInts as integer
 * literals. undefined where stringify returns undefined (left out of the return type).
 */
export const encode: (value: unknown, options?: EncodeOptions) => Uint8Array<ArrayBuffer> = methods.encode;

/**
 * The same JSON text without insignificant whitespace; strings and numbers byte for
 * byte. String in, string out; bytes in, a new Uint8Array out. Invalid input is a
 * JsonSyntaxError.
 */
export function minify<T extends JsonInput>(input: T): T extends string ? string : Uint8Array<ArrayBuffer> {
  return codec().minify(input);
}

/**
 * The same JSON text indented like JSON.stringify(value, null, indent) (indent: default
 * 2), strings and numbers verbatim. String in, string out; bytes in, bytes out.
 */
export function prettify<T extends JsonInput>(input: T, options?: PrettifyOptions): T extends string ? string : Uint8Array<ArrayBuffer> {
  return codec().prettify(input, options);
}

/**
 * The value at an RFC 6901 JSON Pointer ('' is the whole document, '/a/0/b~1c' a path),
 * or undefined where nothing is. Reads only what the path needs, and makes only that
 * value; what it reads is checked, the rest is not (validate() is). A syntax error it
 * throws is the JsonSyntaxError JSON.parse would throw (the document's first).
 */
export function at(input: JsonInput, pointer: string): unknown {
  return codec().at(input, pointer);
}

/**
 * A document kept in wasm memory, explored on demand: a LazyNode for an object or array
 * (at(), get(), length, keys(), iteration, toJS()), else the primitive itself. Release
 * it with free() or `using`; a FinalizationRegistry frees it otherwise.
 */
export function lazy(input: JsonInput): LazyValue {
  return codec().lazy(input);
}

/**
 * RFC 8785 canonical JSON (JCS): keys sorted by UTF-16 units, numbers as ECMAScript
 * writes them, minimal escapes. A string or bytes argument is JSON text (bytes in, UTF-8
 * bytes out); anything else is a value, converted as JSON.stringify converts it (its
 * getters and toJSON run as there). What JCS forbids (lone surrogates, non-finite
 * numbers, JSON.rawJSON values) is a CanonicalizationError.
 */
export function canonicalize(input: string): string;
export function canonicalize(input: Exclude<JsonInput, string>): Uint8Array<ArrayBuffer>;
export function canonicalize(input: unknown): string | Uint8Array<ArrayBuffer> | undefined;
export function canonicalize(input: unknown): string | Uint8Array<ArrayBuffer> | undefined {
  return codec().canonicalize(input);
}
