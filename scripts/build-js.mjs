// Bundles the TypeScript entry points into dist/ (ESM for Node and for browsers, and the
// Node entry as CommonJS too) and writes the CommonJS entry, which requires the ES module
// one where it can (js/src/entries/node-cjs.ts says why). Type declarations come from `tsc -p js/tsconfig.json`.
import { writeFileSync } from 'node:fs';
import { build } from 'esbuild';

const common = { bundle: true, target: 'es2022', logLevel: 'warning', legalComments: 'none' };
await Promise.all([
  build({ ...common, entryPoints: ['js/src/entries/node-esm.ts'], outfile: 'dist/node.mjs', format: 'esm', platform: 'node' }),
  build({ ...common, entryPoints: ['js/src/entries/browser.ts'], outfile: 'dist/browser.mjs', format: 'esm', platform: 'browser' }),
  // The same entry as CommonJS, for where require() cannot load the ES module.
  build({ ...common, entryPoints: ['js/src/entries/node-esm.ts'], outfile: 'dist/node-commonjs.cjs', format: 'cjs', platform: 'node', logLevel: 'error' }),
]);
writeFileSync(
  'dist/node.cjs',
  `'use strict';
// The ES module entry itself: one copy of wasmjson per program (js/src/entries/node-cjs.ts).
// Where require() cannot load an ES module (Node before 20.19 and 22.12, Jest's module
// loader), the same entry built as CommonJS: a copy of its own.
try {
  module.exports = require('./node.mjs');
} catch (e) {
  if (!(e && (e.code === 'ERR_REQUIRE_ESM' || /\\bES Module\\b/.test(String(e.message))))) throw e;
  module.exports = require('./node-commonjs.cjs');
}
`,
);
