// Node, ES modules: ready at import (wasm compiled synchronously from the packaged file).
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { readLocationInNode, startSync, usePlatform } from '../facade.js';
import type { Flavor } from '../exports.js';

/**
 * The packaged .wasm of a flavor, beside this module. The `new URL(…, import.meta.url)`
 * form lets bundlers (webpack) find and emit the files. A bundler that turned this
 * module into CommonJS (esbuild's default for Node) leaves import.meta empty: the files
 * are then looked for beside the bundle.
 */
function wasmFile(flavor: Flavor): URL | string {
  if (import.meta.url === undefined) return join(dirname(__filename), `wasmjson-${flavor}.wasm`);
  return new URL(`./wasmjson-${flavor}.wasm`, import.meta.url);
}

usePlatform({
  requestedFlavor: () => process.env.WASMJSON_FLAVOR,
  readWasmSync: (flavor: Flavor) => readFileSync(wasmFile(flavor)),
  readLocation: (location: string) => readLocationInNode(location, readFileSync),
  readWasm: async (flavor: Flavor) => readFileSync(wasmFile(flavor)),
});
// (A failure is kept for the functions to report: see start() in facade.ts.)
startSync();

export { load, loadSync, init, initSync, implementation, validate, parse, stringify, encode, minify, prettify, at, lazy, canonicalize } from '../facade.js';
export * from '../public-types.js';
