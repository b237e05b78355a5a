// Node, ES modules: ready at import (wasm compiled synchronously from the packaged file).
import { readFileSync } from 'node:fs';
import { readLocationInNode, startSync, usePlatform } from '../facade.js';
import type { Flavor } from '../exports.js';

usePlatform({
  requestedFlavor: () => process.env.WASMJSON_FLAVOR,
  readWasmSync: (flavor: Flavor) => readFileSync(new URL(`./wasmjson-${flavor}.wasm`, import.meta.url)),
  readLocation: (location: string) => readLocationInNode(location, readFileSync),
  readWasm: async (flavor: Flavor) => readFileSync(new URL(`./wasmjson-${flavor}.wasm`, import.meta.url)),
});
// (A failure is kept for the functions to report: see start() in facade.ts.)
startSync();

export { load, loadSync, init, initSync, implementation, validate, parse, stringify, encode, minify, prettify, at, lazy, canonicalize } from '../facade.js';
export * from '../public-types.js';
