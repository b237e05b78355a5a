// For the on-demand runs (tests/*.mjs): the codecs they compare, one per flavor.
//
// The codecs: BROWSER_ROUTES=1 loads the browser build instead, with Node's Buffer
// removed: strings then move as they do in browsers (TextEncoder and TextDecoder, and the
// JS String Builtins module, which Node 26 has as Chromium does) rather than through
// Buffer's methods. BROWSER_ROUTES=plain: the same without the builtins module
// (load({ stringBuiltins: false })), as in browsers that lack JS String Builtins.
import { readFileSync } from 'node:fs';

const browserRoutes = process.env.BROWSER_ROUTES === '1' || process.env.BROWSER_ROUTES === 'plain';
const stringBuiltins = process.env.BROWSER_ROUTES !== 'plain';

/** The routes these codecs take, for the scripts' reports, and the setting that gives them. */
export const routes = browserRoutes
  ? { name: stringBuiltins ? 'browser routes (no Buffer)' : 'browser routes without string builtins (no Buffer)', env: `BROWSER_ROUTES=${process.env.BROWSER_ROUTES} ` }
  : { name: 'Node routes', env: '' };

export async function runCodecs(): Promise<{ codecs: any[]; LazyNode: any }> {
  if (browserRoutes) delete (globalThis as { Buffer?: unknown }).Buffer;
  const lib = await import(browserRoutes ? '../../../dist/browser.mjs' : '../../../dist/node.mjs');
  const wasmOf = (flavor: string) => readFileSync(new URL(`../../../dist/wasmjson-${flavor}.wasm`, import.meta.url));
  const codecs = await Promise.all(['simd128', 'swar64'].map((flavor) => (browserRoutes ? lib.load({ wasm: wasmOf(flavor), stringBuiltins }) : lib.load({ flavor }))));
  return { codecs, LazyNode: lib.LazyNode };
}
