// Browsers and bundlers: the .wasm files are separate assets next to this module. The
// literal `new URL('…', import.meta.url)` forms let bundlers find and emit them.
import { start, usePlatform } from '../facade.js';
import type { Flavor } from '../exports.js';

function wasmUrl(flavor: Flavor): URL {
  return flavor === 'simd128'
    ? new URL('./wasmjson-simd128.wasm', import.meta.url)
    : new URL('./wasmjson-swar64.wasm', import.meta.url);
}

usePlatform({
  requestedFlavor: () => (globalThis as { WASMJSON_FLAVOR?: string }).WASMJSON_FLAVOR,
  readWasm: async (flavor: Flavor) => fetch(wasmUrl(flavor)),
});
// (A failure is kept for the functions to report, and the import still succeeds: see start().)
await start();

export { load, loadSync, init, initSync, implementation, validate, parse, stringify, encode, minify, prettify, at, lazy, canonicalize } from '../facade.js';
export * from '../public-types.js';
