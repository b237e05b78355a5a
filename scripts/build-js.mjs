// Bundles the TypeScript entry points into dist/ (ESM and CJS for Node, ESM for
// browsers). Type declarations come from `tsc -p js/tsconfig.json`.
import { build } from 'esbuild';

const common = { bundle: true, target: 'es2022', logLevel: 'warning', legalComments: 'none' };
await Promise.all([
  build({ ...common, entryPoints: ['js/src/entries/node-esm.ts'], outfile: 'dist/node.mjs', format: 'esm', platform: 'node' }),
  build({ ...common, entryPoints: ['js/src/entries/node-cjs.ts'], outfile: 'dist/node.cjs', format: 'cjs', platform: 'node' }),
  build({ ...common, entryPoints: ['js/src/entries/browser.ts'], outfile: 'dist/browser.mjs', format: 'esm', platform: 'browser' }),
]);
