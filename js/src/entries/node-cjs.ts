// Node, CommonJS: require('wasmjson') is ready synchronously.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { readLocationInNode, startSync, usePlatform } from '../facade.js';
import type { Flavor } from '../exports.js';

usePlatform({
  requestedFlavor: () => process.env.WASMJSON_FLAVOR,
  readWasmSync: (flavor: Flavor) => readFileSync(join(__dirname, `wasmjson-${flavor}.wasm`)),
  readLocation: (location: string) => readLocationInNode(location, readFileSync),
  readWasm: async (flavor: Flavor) => readFileSync(join(__dirname, `wasmjson-${flavor}.wasm`)),
});
// (A failure is kept for the functions to report: see start() in facade.ts.)
startSync();

export { load, loadSync, init, initSync, implementation, validate, parse, stringify, encode, minify, prettify, at, lazy, canonicalize } from '../facade.js';
export * from '../public-types.js';
