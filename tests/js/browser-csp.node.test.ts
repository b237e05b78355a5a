// The browser entry under a Content-Security-Policy (Chromium, served pages). Without
// 'wasm-unsafe-eval' no wasm can compile: the import succeeds and the functions say
// what the policy lacks. With it but without 'unsafe-eval', parse works, and its one
// attempt to compile an object constructor is a violation report, unless
// init({ allowEval: false }) turned that attempt off.
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser } from 'playwright';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../../scripts/chromium.mjs';
import { serve, type StaticServer } from './support/static-server.js';

const dist = fileURLToPath(new URL('../../dist/', import.meta.url));

// The page's script (a file: the policy allows no inline script). `?allowEval=false`
// re-initialises with that option before parsing.
const PAGE_SCRIPT = `
const out = { violations: [] };
document.addEventListener('securitypolicyviolation', (e) => out.violations.push(e.effectiveDirective + ' ' + e.blockedURI));
const w = await import('./pkg/browser.mjs');
const step = async (name, f) => {
  try {
    out[name] = await f();
  } catch (e) {
    out[name] = 'threw ' + e.constructor.name + ': ' + e.message;
  }
};
if (new URL(location.href).searchParams.get('allowEval') === 'false') await step('init', async () => (await w.init({ allowEval: false })).flavor);
// One shape in two documents: the second sighting asks for a constructor.
const docs = ['{"alpha":1,"beta":[true,null],"gamma":"x"}', '{"alpha":2,"beta":[],"gamma":"y"}'];
await step('parse', () => JSON.stringify([0, 1, 2].flatMap(() => docs.map((d) => w.parse(d)))));
// (Violation events are dispatched in a later task.)
await new Promise((done) => setTimeout(done, 100));
document.body.dataset.result = JSON.stringify(out);
`;

let temp = '';
let browser: Browser | undefined;
const servers: StaticServer[] = [];

async function visit(policy: string, query = ''): Promise<Record<string, any>> {
  const requests: string[] = [];
  const server = await serve(temp, requests, { 'content-security-policy': policy });
  servers.push(server);
  browser ??= await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS, headless: true });
  const page = await browser.newPage();
  const problems: string[] = [];
  page.on('pageerror', (e) => problems.push(`pageerror: ${e.message}`));
  await page.goto(server.url + query);
  const result = await page
    .locator('body[data-result]')
    .getAttribute('data-result', { timeout: 30_000 })
    .catch((e: Error) => {
      throw new Error(`page never finished: ${e.message}\n${[...problems, ...requests].join('\n')}`);
    });
  await page.close();
  expect(problems).toEqual([]);
  return JSON.parse(result ?? '{}');
}

describe('browser entry under a Content-Security-Policy (Chromium)', () => {
  beforeAll(() => {
    temp = mkdtempSync(join(tmpdir(), 'wasmjson-csp-'));
    mkdirSync(join(temp, 'pkg'));
    for (const f of ['browser.mjs', 'wasmjson-simd128.wasm', 'wasmjson-swar64.wasm']) copyFileSync(join(dist, f), join(temp, 'pkg', f));
    writeFileSync(join(temp, 'page.mjs'), PAGE_SCRIPT);
    writeFileSync(join(temp, 'index.html'), '<!doctype html><meta charset="utf-8"><link rel="icon" href="data:,"><body><script type="module" src="./page.mjs"></script>');
  });

  afterAll(async () => {
    await browser?.close().catch(() => {});
    for (const s of servers) await s.close();
    if (temp) rmSync(temp, { recursive: true, force: true });
  });

  const expected = JSON.stringify([0, 1, 2].flatMap(() => [{ alpha: 1, beta: [true, null], gamma: 'x' }, { alpha: 2, beta: [], gamma: 'y' }]));

  it("without 'wasm-unsafe-eval': the functions say the policy must allow WebAssembly", async () => {
    const out = await visit("script-src 'self'");
    expect(out.parse).toMatch(/^threw Error: wasmjson: its wasm did not load \(.*\); this page's Content-Security-Policy must allow WebAssembly: add 'wasm-unsafe-eval' to its script-src$/);
  }, 60_000);

  it("with 'wasm-unsafe-eval' only: parse is right; one violation report, none after init({ allowEval: false })", async () => {
    const policy = "script-src 'self' 'wasm-unsafe-eval'";
    const plain = await visit(policy);
    expect(plain.parse).toBe(expected);
    expect(plain.violations).toEqual(['script-src eval']);
    const off = await visit(policy, '?allowEval=false');
    expect(off.init).toBe('simd128');
    expect(off.parse).toBe(expected);
    expect(off.violations).toEqual([]);
  }, 60_000);
});
