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

/** What init() and load() accept as the wasm to run. */
export type WasmSource = string | URL | ArrayBuffer | SharedArrayBuffer | Uint8Array | DataView | WebAssembly.Module | Response | Promise<Response>;

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
}

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
      throw new Error(`wasmjson: unknown flavor '${requested}' (expected one of: ${FLAVORS.join(', ')})`);
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
  if (!response.ok) throw new Error(`wasmjson: could not load ${response.url}: HTTP ${response.status}`);
  if (typeof WebAssembly.instantiateStreaming === 'function' &&
      response.headers.get('content-type')?.startsWith('application/wasm')) {
    return (await WebAssembly.instantiateStreaming(response, IMPORTS)).instance;
  }
  return (await WebAssembly.instantiate(await response.arrayBuffer(), IMPORTS)).instance;
}

/**
 * Node's readLocation: a file: URL or a path (anything without a scheme of two or more
 * letters: `C:\\x.wasm` is a path) is read from disk; other URLs are fetched.
 */
export async function readLocationInNode(location: string, readFile: (path: string | URL) => Uint8Array): Promise<Response | Uint8Array> {
  if (location.startsWith('file:')) return readFile(new URL(location));
  return /^[a-z][a-z0-9+.-]+:/i.test(location) ? fetch(location) : readFile(location);
}

export function createFacade(platform: Platform) {
  let active: Codec | undefined;
  // Why the entry's own start-up init() failed, if it did (see start()).
  let startError: unknown;
  // Calls to init() so far: when they overlap, the one made last decides the codec.
  let inits = 0;

  function codec(): Codec {
    if (!active) {
      if (startError !== undefined) {
        const why = (startError as Error)?.message ?? String(startError);
        throw new Error(`wasmjson: its wasm did not load (${why}); pass its location or bytes to await init({ wasm })`, { cause: startError });
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
  async function start(): Promise<void> {
    try {
      await init();
    } catch (e) {
      startError = e;
    }
  }
  /** start() for Node's entries, whose init is synchronous (a bundle that left the .wasm files behind still imports). */
  function startSync(): void {
    try {
      initSync();
    } catch (e) {
      startError = e;
    }
  }

  /** A new, independent codec (its own wasm instance and memory). */
  async function load(options: InitOptions | null = {}): Promise<Codec> {
    const wasm = optionOf(options, 'wasm') as InitOptions['wasm'];
    const requested = optionOf(options, 'flavor') as Flavor | undefined;
    if (wasm !== undefined) {
      const c = createCodec(await instantiate(wasm, platform), options);
      if (requested && c.flavor !== requested) {
        throw new Error(`wasmjson: the given wasm is the ${c.flavor} flavor, not ${requested}`);
      }
      return c;
    }
    const flavor = pickFlavor(requested ?? platform.requestedFlavor());
    return createCodec(await instantiate(await platform.readWasm(flavor), platform), options);
  }

  /** Synchronous load from the packaged files (Node only). */
  function loadSync(options: { flavor?: Flavor; stringInput?: StringInput } | null = {}): Codec {
    if (!platform.readWasmSync) throw new Error('wasmjson: synchronous loading is only available in Node');
    const flavor = pickFlavor((optionOf(options, 'flavor') as Flavor | undefined) ?? platform.requestedFlavor());
    const module = new WebAssembly.Module(platform.readWasmSync(flavor) as Uint8Array<ArrayBuffer>);
    return createCodec(new WebAssembly.Instance(module, IMPORTS), options);
  }

  /** (Re)initialises the codec behind the package's top-level functions. */
  async function init(options: InitOptions | null = {}): Promise<Implementation> {
    const call = ++inits;
    const loaded = await load(options);
    if (call === inits) active = loaded;
    return { flavor: loaded.flavor, simd128Supported: engineHasSimd128() };
  }

  function initSync(options: { flavor?: Flavor; stringInput?: StringInput } | null = {}): Implementation {
    ++inits;  // (an init() still loading does not override it)
    active = loadSync(options);
    return implementation();
  }

  function implementation(): Implementation {
    return { flavor: codec().flavor, simd128Supported: engineHasSimd128() };
  }

  function validate(input: JsonInput): boolean;
  function validate(input: JsonInput, options: ValidateOptions & { explain: true }): ValidationResult;
  function validate(input: JsonInput, options?: ValidateOptions & { explain?: false }): boolean;
  function validate(input: JsonInput, options?: ValidateOptions): boolean | ValidationResult;
  function validate(input: JsonInput, options?: ValidateOptions): boolean | ValidationResult {
    return codec().validate(input, options);
  }

  // A method, like JSON.parse: not a constructor, no prototype, name 'parse', length 2.
  const { parse } = {
    parse(text: unknown, reviver?: Reviver | ParseOptions | null): any {
      return codec().parse(text, reviver);
    },
  };

  // Methods too, like JSON.stringify: not constructors, no prototype; stringify's length is 3.
  const { stringify, encode } = {
    stringify(value: unknown, replacer?: Replacer, space?: string | number | null): string {
      return codec().stringify(value, replacer, space);
    },
    encode(value: unknown, options?: EncodeOptions): Uint8Array<ArrayBuffer> {
      return codec().encode(value, options);
    },
  };

  function minify<T extends JsonInput>(input: T): T extends string ? string : Uint8Array<ArrayBuffer> {
    return codec().minify(input);
  }
  function prettify<T extends JsonInput>(input: T, options?: PrettifyOptions): T extends string ? string : Uint8Array<ArrayBuffer> {
    return codec().prettify(input, options);
  }

  function at(input: JsonInput, pointer: string): unknown {
    return codec().at(input, pointer);
  }
  function lazy(input: JsonInput): LazyValue {
    return codec().lazy(input);
  }

  function canonicalize(input: string): string;
  function canonicalize(input: Exclude<JsonInput, string>): Uint8Array<ArrayBuffer>;
  function canonicalize(input: unknown): string | Uint8Array<ArrayBuffer> | undefined;
  function canonicalize(input: unknown): string | Uint8Array<ArrayBuffer> | undefined {
    return codec().canonicalize(input);
  }

  return {
    start, startSync, load, loadSync, init, initSync, implementation, validate, parse, stringify, encode, minify, prettify, at, lazy, canonicalize,
  };
}
