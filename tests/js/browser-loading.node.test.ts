// Loading the browser entry in Chromium where the defaults do not hold: the module is
// served without its .wasm files beside it (a custom asset path), so its start-up
// init() fails. The import must still succeed, the functions must say why they cannot
// run, and init({ wasm }) must then work from any source, including another realm's
// (an iframe's bytes, Module or URL). Overlapping init() calls: the last one made wins.
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser } from 'playwright';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../../scripts/chromium.mjs';
import { serve, type StaticServer } from './support/static-server.js';

const dist = fileURLToPath(new URL('../../dist/', import.meta.url));

// The page: imports the entry, then records what each step gives in data-result.
const PAGE_SCRIPT = `
const out = {};
const step = async (name, f) => {
  try {
    out[name] = await f();
  } catch (e) {
    out[name] = 'threw ' + e.constructor.name + ': ' + e.message;
  }
};
let w;
await step('import', async () => { w = await import('./lonely/browser.mjs'); return 'ok'; });
await step('parseBefore', () => w.parse('[1]'));
await step('implementationBefore', () => w.implementation().flavor);
const bytes = new Uint8Array(await (await fetch('./assets/wasmjson-swar64.wasm')).arrayBuffer());
const frame = document.createElement('iframe');
document.body.append(frame);
const FW = frame.contentWindow;
await step('foreignBytes', async () => {
  const b = new FW.Uint8Array(bytes.length);
  b.set(bytes);
  return (await w.init({ wasm: b })).flavor;
});
await step('parseAfter', () => w.parse('{"a":[1,"x"]}'));
await step('foreignBuffer', async () => {
  const b = new FW.Uint8Array(bytes.length);
  b.set(bytes);
  return (await w.init({ wasm: b.buffer })).flavor;
});
await step('dataView', async () => (await w.init({ wasm: new DataView(bytes.buffer) })).flavor);
await step('foreignModule', async () => (await w.init({ wasm: await FW.WebAssembly.compile(bytes) })).flavor);
await step('foreignUrl', async () => (await w.init({ wasm: new FW.URL('./assets/wasmjson-simd128.wasm', location.href) })).flavor);
await step('missingUrl', async () => (await w.init({ wasm: './assets/nothing.wasm' })).flavor);
await step('stillWorks', () => w.stringify(w.parse('[true]')) + ' ' + w.implementation().flavor);
await step('nullSource', async () => (await w.init({ wasm: null })).flavor);
await step('numberSource', async () => (await w.init({ wasm: 42 })).flavor);
await step('overlapping', async () => {
  const first = w.init({ wasm: './assets/wasmjson-simd128.wasm' });
  const second = w.init({ wasm: bytes });
  const flavors = [(await first).flavor, (await second).flavor];
  return [...flavors, w.implementation().flavor];
});
document.body.dataset.result = JSON.stringify(out);
`;

let temp = '';
let server: StaticServer | undefined;
let browser: Browser | undefined;

describe('browser entry without its .wasm beside it (Chromium)', () => {
  beforeAll(() => {
    temp = mkdtempSync(join(tmpdir(), 'wasmjson-loading-'));
    mkdirSync(join(temp, 'lonely'));
    mkdirSync(join(temp, 'assets'));
    copyFileSync(join(dist, 'browser.mjs'), join(temp, 'lonely/browser.mjs'));
    for (const f of ['wasmjson-simd128.wasm', 'wasmjson-swar64.wasm']) copyFileSync(join(dist, f), join(temp, 'assets', f));
    writeFileSync(join(temp, 'index.html'), `<!doctype html><meta charset="utf-8"><link rel="icon" href="data:,"><body><script type="module">${PAGE_SCRIPT}</script>`);
  });

  afterAll(async () => {
    await browser?.close().catch(() => {});
    await server?.close();
    if (temp) rmSync(temp, { recursive: true, force: true });
  });

  it('imports, explains, and takes init({ wasm }) from any realm; the last init() wins', async () => {
    const requests: string[] = [];
    server = await serve(temp, requests);
    browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS, headless: true });
    const page = await browser.newPage();
    const problems: string[] = [];
    page.on('pageerror', (e) => problems.push(`pageerror: ${e.message}`));
    await page.goto(server.url);
    const result = await page
      .locator('body[data-result]')
      .getAttribute('data-result', { timeout: 30_000 })
      .catch((e: Error) => {
        throw new Error(`page never finished: ${e.message}\n${[...problems, ...requests].join('\n')}`);
      });
    const out = JSON.parse(result ?? '{}');
    expect(problems).toEqual([]);
    expect(out.import).toBe('ok');
    // The default URL (next to the module) was tried and missed.
    expect(requests).toContain('404 /lonely/wasmjson-simd128.wasm');
    for (const before of [out.parseBefore, out.implementationBefore]) {
      expect(before).toMatch(/^threw Error: wasmjson: its wasm did not load \(wasmjson: could not load .*\/lonely\/wasmjson-simd128\.wasm: HTTP 404\); pass its location or bytes to await init\(\{ wasm \}\)$/);
    }
    expect(out.foreignBytes).toBe('swar64');
    expect(out.parseAfter).toEqual({ a: [1, 'x'] });
    expect([out.foreignBuffer, out.dataView, out.foreignModule, out.foreignUrl]).toEqual(['swar64', 'swar64', 'swar64', 'simd128']);
    expect(out.missingUrl).toMatch(/^threw Error: wasmjson: could not load .*\/assets\/nothing\.wasm: HTTP 404$/);
    // A failed init() leaves the codec before it in place.
    expect(out.stillWorks).toBe('[true] simd128');
    for (const bad of [out.nullSource, out.numberSource]) {
      expect(bad).toMatch(/^threw TypeError: wasmjson: the wasm to load is a URL .*; got (null|\[object Number\])$/);
    }
    // Each call answers with what it loaded; the codec is the last call's.
    expect(out.overlapping).toEqual(['simd128', 'swar64', 'swar64']);
  }, 60_000);
});
