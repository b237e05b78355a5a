// Bundles the TypeScript entry points into dist/ (ESM for Node and for browsers) and
// writes the CommonJS entry, which requires the ES module one (js/src/entries/node-cjs.ts
// says why). Type declarations come from `tsc -p js/tsconfig.json`.
import { writeFileSync } from 'node:fs';
import { build } from 'esbuild';

const common = { bundle: true, target: 'es2022', logLevel: 'warning', legalComments: 'none' };
await Promise.all([
  build({ ...common, entryPoints: ['js/src/entries/node-esm.ts'], outfile: 'dist/node.mjs', format: 'esm', platform: 'node' }),
  build({ ...common, entryPoints: ['js/src/entries/browser.ts'], outfile: 'dist/browser.mjs', format: 'esm', platform: 'browser' }),
]);
writeFileSync('dist/node.cjs', "'use strict';\n// The ES module entry itself: one copy of wasmjson per program (js/src/entries/node-cjs.ts).\nmodule.exports = require('./node.mjs');\n");
