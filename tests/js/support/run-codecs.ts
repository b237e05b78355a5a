// For the on-demand differential runs (tests/differential*.mjs): the codecs they
// compare, one per flavor, and what their models share.
//
// The codecs: BROWSER_ROUTES=1 loads the browser build instead, with Node's Buffer
// removed: strings then move as they do in browsers (TextEncoder and TextDecoder, and the
// JS String Builtins module, which Node 26 has as Chromium does) rather than through
// Buffer's methods.
import { readFileSync } from 'node:fs';

const browserRoutes = process.env.BROWSER_ROUTES === '1';

export async function runCodecs(): Promise<{ codecs: any[]; LazyNode: any }> {
  if (browserRoutes) delete (globalThis as { Buffer?: unknown }).Buffer;
  const lib = await import(browserRoutes ? '../../../dist/browser.mjs' : '../../../dist/node.mjs');
  const wasmOf = (flavor: string) => readFileSync(new URL(`../../../dist/wasmjson-${flavor}.wasm`, import.meta.url));
  const codecs = await Promise.all(['simd128', 'swar64'].map((flavor) => (browserRoutes ? lib.load({ wasm: wasmOf(flavor) }) : lib.load({ flavor }))));
  return { codecs, LazyNode: lib.LazyNode };
}

/**
 * Whether RFC 8785 can write a JSON value (as JSON.parse gives them): no lone surrogate
 * in any string or key, and every number finite (JSON text's 1e400 parses to Infinity).
 */
export function canonicalizable(v: unknown): boolean {
  const stack = [v];
  while (stack.length) {
    const x = stack.pop();
    if (typeof x === 'number' && !Number.isFinite(x)) return false;
    if (typeof x === 'string' && !x.isWellFormed()) return false;
    if (typeof x === 'object' && x !== null) {
      for (const k of Object.keys(x)) {
        if (!k.isWellFormed()) return false;
        stack.push((x as Record<string, unknown>)[k]);
      }
    }
  }
  return true;
}
