// The package inside workers: Node's worker_threads (ES module and CommonJS entries,
// several at once, the flavor by environment, init()/load() inside, what crosses
// postMessage, terminate()) and Chromium's workers (a module worker, init({ wasm }) with
// bytes or a Module posted from the page, a worker's own Content-Security-Policy).
// SharedArrayBuffer input that another thread writes or grows while it is parsed must
// give what some version of those bytes gives: a value made from the bytes that were
// validated, or a SyntaxError, as JSON.parse of a decoded copy would.
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { SHARE_ENV, Worker, type WorkerOptions } from 'node:worker_threads';
import { chromium, type Browser } from 'playwright';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { implementation, parse, stringify, validate } from 'wasmjson';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../../scripts/chromium.mjs';
import { serve, type StaticServer } from './support/static-server.js';

const dist = fileURLToPath(new URL('../../dist/', import.meta.url));
const ESM = pathToFileURL(join(dist, 'node.mjs')).href;
const CJS = join(dist, 'node.cjs');

/** Runs `code` (a CommonJS script: ESM and CJS are the entries' paths) in a worker; its messages and exit code. */
function inWorker(code: string, options: WorkerOptions = {}): Promise<{ messages: any[]; errors: Error[]; exit: number }> {
  const worker = new Worker(`const ESM = ${JSON.stringify(ESM)}, CJS = ${JSON.stringify(CJS)};\n${code}`, { eval: true, ...options });
  const messages: any[] = [];
  const errors: Error[] = [];
  worker.on('message', (m) => messages.push(m));
  worker.on('error', (e) => errors.push(e));
  return new Promise((done) => worker.on('exit', (exit) => done({ messages, errors, exit })));
}

const doc = JSON.stringify({ items: Array.from({ length: 300 }, (_, i) => ({ id: i, name: `n${i} é`, tags: ['a', '\u4e16'], v: i / 3 })) });

describe('Node worker_threads', () => {
  it('ES module and CommonJS workers load it, six at once, while this thread parses', async () => {
    const roundTrips = `const { parentPort, workerData: d } = require('node:worker_threads');
      const check = (w) => { let ok = 0; for (let k = 0; k < 10; k++) { const v = w.parse(d); ok += w.stringify(v) === JSON.stringify(JSON.parse(d)) && new TextDecoder().decode(w.encode(v)) === JSON.stringify(v) ? 1 : 0; } parentPort.postMessage([w.implementation().flavor, ok]); };`;
    const runs = Array.from({ length: 6 }, (_, i) =>
      inWorker(roundTrips + (i % 2 ? 'check(require(CJS));' : 'import(ESM).then(check);'), { workerData: doc }),
    );
    let mine = 0;
    for (let k = 0; k < 30; k++) mine += stringify(parse(doc)) === JSON.stringify(JSON.parse(doc)) ? 1 : 0;
    const flavor = implementation().flavor;
    for (const run of await Promise.all(runs)) {
      expect(run.errors).toEqual([]);
      expect(run.messages).toEqual([[flavor, 10]]);
    }
    expect(mine).toBe(30);
  });

  it("WASMJSON_FLAVOR is read from the worker's env; init() and load() in a worker change nothing here", async () => {
    const report = `const w = require(CJS); const p = require('node:worker_threads').parentPort;
      let f; try { f = w.implementation().flavor; } catch (e) { f = 'threw ' + e.message; } p.postMessage(f);`;
    const before = implementation().flavor;
    const saved = process.env.WASMJSON_FLAVOR;
    process.env.WASMJSON_FLAVOR = 'swar64';
    try {
      expect((await inWorker(report)).messages).toEqual(['swar64']); // env copied at start
      expect((await inWorker(report, { env: SHARE_ENV })).messages).toEqual(['swar64']);
      expect((await inWorker(report, { env: { WASMJSON_FLAVOR: 'simd128' } })).messages).toEqual(['simd128']);
      const [bogus] = (await inWorker(report, { env: { WASMJSON_FLAVOR: 'bogus' } })).messages;
      expect(bogus).toMatch(/^threw wasmjson: its wasm did not load \(wasmjson: unknown flavor 'bogus'/);
    } finally {
      if (saved === undefined) delete process.env.WASMJSON_FLAVOR;
      else process.env.WASMJSON_FLAVOR = saved;
    }
    const inside = await inWorker(`import(ESM).then(async (w) => { const p = require('node:worker_threads').parentPort;
      const first = w.implementation().flavor; await w.init({ flavor: 'swar64' }); const c = await w.load({ flavor: 'simd128' }); const s = w.loadSync({ flavor: 'swar64' });
      p.postMessage([first, w.implementation().flavor, c.flavor, s.flavor, w.parse('[1]'), c.parse('[2]'), s.parse('[3]')]); });`);
    expect(inside.messages).toEqual([[before, 'swar64', 'simd128', 'swar64', [1], [2], [3]]]);
    expect(implementation().flavor).toBe(before);
  });

  it('init({ wasm }) in a worker takes bytes, a SharedArrayBuffer or a Module posted to it', async () => {
    const bytes = readFileSync(join(dist, 'wasmjson-swar64.wasm'));
    const shared = new SharedArrayBuffer(bytes.length);
    new Uint8Array(shared).set(bytes);
    for (const wasm of [new Uint8Array(bytes), shared, new WebAssembly.Module(bytes)]) {
      const run = await inWorker(
        `const w = require(CJS); const { parentPort: p, workerData } = require('node:worker_threads');
         w.init({ wasm: workerData }).then((r) => p.postMessage([r.flavor, w.parse('{"x":[true,"é"]}')]), (e) => p.postMessage('threw ' + e.message));`,
        { workerData: wasm },
      );
      expect(run.messages).toEqual([['swar64', { x: [true, 'é'] }]]);
    }
  });

  it("what crosses postMessage: encode()'s own bytes (transferable), errors as JSON.parse's arrive, no lazy document", async () => {
    const run = await inWorker(`const w = require(CJS); const p = require('node:worker_threads').parentPort;
      const small = w.encode({ a: 'first' }); const large = w.encode({ s: 'y'.repeat(100000) });
      w.encode({ a: 'other!!' }); w.encode({ s: 'z'.repeat(100000) }); // (would show through a view of wasm memory)
      p.postMessage({ small, large }, [small.buffer, large.buffer]);
      const thrown = (f) => { try { f(); } catch (e) { return e; } };
      p.postMessage({ mine: thrown(() => w.parse('{"a":1,}')), native: thrown(() => JSON.parse('{"a":1,}')), explained: w.validate('[1,', { explain: true }) });
      const d = w.lazy('{"k":[1]}'); try { p.postMessage(d); p.postMessage('posted'); } catch (e) { p.postMessage(e.name + ': ' + e.message); } d.free();`);
    expect(run.errors).toEqual([]);
    const [bytes, errors, lazy] = run.messages;
    expect(new TextDecoder().decode(bytes.small)).toBe('{"a":"first"}');
    expect(new TextDecoder().decode(bytes.large)).toBe(JSON.stringify({ s: 'y'.repeat(100000) }));
    // Structured cloning keeps an error's kind, message and stack (code, offset, line,
    // column and excerpt are own properties it drops, as for any error).
    expect(errors.mine).toBeInstanceOf(SyntaxError);
    expect(errors.mine.message).toBe(errors.native.message);
    expect(errors.explained.valid).toBe(false);
    expect(errors.explained.error).toBeInstanceOf(SyntaxError);
    expect(lazy).toMatch(/^DataCloneError: /);
  });

  it('terminate() ends a worker in the middle of a long call; this thread is untouched', async () => {
    const worker = new Worker(
      `const w = require(${JSON.stringify(CJS)}); const p = require('node:worker_threads').parentPort;
       const big = Buffer.from('[' + '{"a":[1,2,"xyz"],"b":true},'.repeat(1_000_000) + '0]'); p.postMessage('ready');
       for (;;) { w.validate(big); w.parse(big); }`,
      { eval: true },
    );
    await new Promise((ready) => worker.once('message', ready));
    await new Promise((later) => setTimeout(later, 100));
    expect(await worker.terminate()).toBe(1);
    expect(parse('{"still":[1]}')).toEqual({ still: [1] });
  });
});

describe('Node: SharedArrayBuffer input another thread changes', () => {
  /** A worker that writes `a` and `b` over `shared` by turns until stopped. */
  function flipper(shared: SharedArrayBuffer, a: Uint8Array, b: Uint8Array): { stop(): Promise<number> } {
    const stop = new Int32Array(new SharedArrayBuffer(4));
    const worker = new Worker(
      `const { workerData: { shared, stop, a, b } } = require('node:worker_threads'); const u = new Uint8Array(shared);
       while (Atomics.load(stop, 0) === 0) { u.set(a); u.set(b); }`,
      { eval: true, workerData: { shared, stop, a, b } },
    );
    return {
      stop: () => {
        Atomics.store(stop, 0, 1);
        return worker.terminate();
      },
    };
  }

  // Two documents of one length whose strings sit one byte apart. Any version of these
  // bytes (torn ones too) holds no backslash, so no string JSON.parse makes of one holds
  // a quote; a string sliced at offsets found in one version out of the text of another does.
  it('every string comes from the bytes the parse validated (reviver, stringDecoding: each)', async () => {
    const body = '[' + Array(20).fill('"xxxx"').join(',') + ']';
    const shared = new SharedArrayBuffer(body.length + 1);
    const flip = flipper(shared, Buffer.from(body + ' '), Buffer.from(' ' + body));
    const strays: Record<string, string[]> = {};
    try {
      for (const [name, options] of [['default', undefined], ['each', { stringDecoding: 'each' }], ['reviver', (_k: string, v: unknown) => v]] as const) {
        const found = new Set<string>();
        for (const until = Date.now() + 300; Date.now() < until && found.size < 3; ) {
          let value: unknown;
          try {
            value = parse(shared, options as any);
          } catch (e) {
            expect(e).toBeInstanceOf(SyntaxError); // a torn version
            continue;
          }
          for (const s of value as string[]) if (!/^x*$/.test(s)) found.add(s);
        }
        strays[name] = [...found];
      }
    } finally {
      await flip.stop();
    }
    expect(strays).toEqual({ default: [], each: [], reviver: [] });
  });

  // A length-tracking Uint8Array over a growable SharedArrayBuffer: its length may change
  // between any two reads. The bytes are copied into wasm memory; reading the length again
  // after reserving room overran that room (RangeError 'offset is out of bounds' from the
  // copy, or a wasm trap 'memory access out of bounds' from the parse).
  it('a growable SharedArrayBuffer grown meanwhile gives a value or a SyntaxError, never a trap', async () => {
    const MAX = 32 * 1024 * 1024;
    const shared = new (SharedArrayBuffer as any)(8, { maxByteLength: MAX }) as SharedArrayBuffer;
    const view = new Uint8Array(shared); // length-tracking
    view.set(new TextEncoder().encode('[1]     '));
    const stop = new Int32Array(new SharedArrayBuffer(4));
    const grower = new Worker(
      `const { workerData: { shared, stop, MAX }, parentPort } = require('node:worker_threads'); let n = shared.byteLength; parentPort.postMessage('go');
       while (Atomics.load(stop, 0) === 0 && n + 4096 <= MAX) { n += 4096; shared.grow(n); new Uint8Array(shared).fill(0x20, n - 4096, n); }`,
      { eval: true, workerData: { shared, stop, MAX } },
    );
    await new Promise((go) => grower.once('message', go));
    const others: string[] = [];
    try {
      for (const until = Date.now() + 1500; Date.now() < until && shared.byteLength < MAX - 8192 && others.length < 3; ) {
        for (const f of [() => parse(view), () => validate(view, { explain: true })]) {
          try {
            const v = f();
            if (JSON.stringify(v) !== '[1]' && typeof v !== 'object') others.push(`gave ${JSON.stringify(v)}`);
          } catch (e) {
            if (!(e instanceof SyntaxError)) others.push(`${(e as Error).constructor.name}: ${(e as Error).message}`);
          }
        }
      }
    } finally {
      Atomics.store(stop, 0, 1);
      await grower.terminate();
    }
    expect(others).toEqual([]);
  });
});

// ---- Chromium ----

/**
 * The site's files, cross-origin isolated (COOP and COEP on every response: pages and
 * workers may use SharedArrayBuffer); `csp` adds a Content-Security-Policy to the named paths.
 */
function serveIsolated(dir: string, csp: Record<string, string>): Promise<StaticServer> {
  return serve(dir, [], (path) => ({
    'cross-origin-opener-policy': 'same-origin',
    'cross-origin-embedder-policy': 'require-corp',
    ...(csp[path] ? { 'content-security-policy': csp[path] } : {}),
  }));
}

// The page runs all.mjs and records its result in data-result.
const PAGE = `<!doctype html><meta charset="utf-8"><link rel="icon" href="data:,"><body><script type="module">
let result;
try { result = await (await import('./all.mjs')).run(); } catch (e) { result = 'page threw ' + e; }
document.body.dataset.result = JSON.stringify(result);
</script>`;

/** The first `n` messages of a worker (or what went wrong), within `ms`. */
const COLLECT = `export function collect(worker, n, ms = 10000) {
  return new Promise((done) => {
    const got = [];
    const timer = setTimeout(() => done([...got, 'timeout']), ms);
    const add = (m) => { got.push(m); if (got.length >= n) { clearTimeout(timer); done(got); } };
    worker.onmessage = (e) => add(e.data);
    worker.onerror = (e) => { e.preventDefault(); add('error: ' + e.message); };
  });
}`;

// What a module worker gives (and what a page, for comparison, gives) with the package.
const PROBE = `export async function probe(w) {
  const out = {};
  const step = (name, f) => { try { out[name] = f(); } catch (e) { out[name] = 'threw ' + e.constructor.name + ': ' + e.message; } };
  const text = JSON.stringify({ a: [1, 2.5, 'x'], s: 'é'.repeat(40), cjk: '\\u4e16\\u754c'.repeat(300), e: 'q"\\n' });
  step('flavor', () => w.implementation().flavor);
  step('roundTrip', () => w.stringify(w.parse(text), null, 2) === JSON.stringify(JSON.parse(text), null, 2) && w.stringify(w.parse(new TextEncoder().encode(text))) === text);
  step('encodeCopy', () => { const a = w.encode({ a: 'first' }); w.encode({ a: 'other!!' }); return new TextDecoder().decode(a); });
  // Syntax errors of SharedArrayBuffer input: the SyntaxError a copy of the bytes gives.
  const bad = new TextEncoder().encode('{"k":["v\\u00e9", 1],}');
  const shared = new SharedArrayBuffer(bad.length);
  new Uint8Array(shared).set(bad);
  const copy = new Uint8Array(shared).slice();
  const message = (f) => { try { f(); return 'no error'; } catch (e) { return e.constructor.name + ': ' + e.message; } };
  out.shared = {
    parse: [message(() => w.parse(shared)), message(() => w.parse(copy))],
    view: [message(() => w.parse(new Uint8Array(shared))), message(() => w.parse(copy))],
    validate: [message(() => { throw w.validate(shared, { explain: true }).error; }), message(() => { throw w.validate(copy, { explain: true }).error; })],
    at: [message(() => w.at(shared, '/k/0')), message(() => w.at(copy, '/k/0'))],
    minify: [message(() => w.minify(shared)), message(() => w.minify(copy))],
  };
  return out;
}`;

const WORKER_MODULE = `import * as w from './pkg/browser.mjs';
import { probe } from './probe.mjs';
const out = await probe(w);
const large = w.encode({ s: 'z'.repeat(100000) });
postMessage({ out, large }, [large.buffer]);
try { w.parse('{"a":1,}'); } catch (e) { postMessage(e); }
const d = w.lazy('[1]');
try { postMessage(d); } catch (e) { postMessage(e.name); }`;

// Every case at once, in one page (each in workers of its own); the tests read its parts.
const CASE_ALL = `import * as w from './pkg/browser.mjs';
import { collect } from './collect.mjs';
import { probe } from './probe.mjs';
const thrown = (f) => { try { f(); } catch (e) { return e; } };
async function moduleWorker() {
  const [first, error, lazy] = await collect(new Worker('./w-module.mjs', { type: 'module' }), 3);
  return { ...first.out, isolated: crossOriginIsolated, large: [first.large.length, new TextDecoder().decode(first.large.subarray(0, 6))],
    error: [error instanceof SyntaxError, error.message === thrown(() => JSON.parse('{"a":1,}')).message], lazy };
}
// A copy of the entry without its .wasm beside it: init({ wasm }) with what the page posts.
async function init() {
  const bytes = new Uint8Array(await (await fetch('./pkg/wasmjson-swar64.wasm')).arrayBuffer());
  const worker = new Worker('./w-lonely.mjs', { type: 'module' });
  const out = await collect(worker, 1); // (its start-up failure)
  for (const wasm of [bytes, await WebAssembly.compile(bytes)]) {
    const answer = collect(worker, 1);
    worker.postMessage(wasm);
    out.push(...(await answer));
  }
  return out;
}
// A worker served with a policy of its own that lacks 'wasm-unsafe-eval'.
const csp = () => collect(new Worker('./w-csp.mjs', { type: 'module' }), 1);
// A message posted at once to a worker that sets onmessage first and imports the
// package dynamically (README's pattern), and one posted later.
async function early(name) {
  const worker = new Worker('./' + name, { type: 'module' });
  const answers = collect(worker, 2);
  worker.postMessage('{"first":1}');
  setTimeout(() => worker.postMessage('{"second":2}'), 700);
  return answers;
}
export async function run() {
  const [module, loaded, policy, dynamically] = await Promise.all([moduleWorker(), init(), csp(), early('w-echo-dynamic.mjs')]);
  return { module, page: await probe(w), init: loaded, csp: policy, early: dynamically };
}`;

const FILES: Record<string, string> = {
  'w-module.mjs': WORKER_MODULE,
  'w-lonely.mjs': `const w = await import('./lonely/browser.mjs');
    try { w.parse('[1]'); } catch (e) { postMessage(e.message); }
    onmessage = async (e) => { try { postMessage((await w.init({ wasm: e.data })).flavor + ' ' + JSON.stringify(w.parse('{"x":[true,"é"]}'))); } catch (err) { postMessage('threw ' + err.message); } };`,
  'w-csp.mjs': `const w = await import('./pkg/browser.mjs');
    try { postMessage(JSON.stringify(w.parse('[1]'))); } catch (e) { postMessage(e.message); }`,
  'w-echo-dynamic.mjs': `const ready = import('./pkg/browser.mjs');
    onmessage = async (e) => postMessage((await ready).parse(e.data));`,
};

let temp = '';
let server: StaticServer | undefined;
let browser: Browser | undefined;

let visited: Promise<any> | undefined;

/** The page's result (one visit for all the tests below). */
function results(): Promise<any> {
  visited ??= (async () => {
    browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS, headless: true });
    const page = await browser.newPage();
    const problems: string[] = [];
    page.on('pageerror', (e) => problems.push(`pageerror: ${e.message}`));
    await page.goto(server!.url);
    const result = await page.locator('body[data-result]').getAttribute('data-result', { timeout: 20_000 });
    expect(problems).toEqual([]);
    return JSON.parse(result ?? 'null');
  })();
  return visited;
}

describe('Chromium workers', () => {
  beforeAll(async () => {
    temp = mkdtempSync(join(tmpdir(), 'wasmjson-workers-'));
    for (const sub of ['pkg', 'lonely']) mkdirSync(join(temp, sub));
    for (const f of ['browser.mjs', 'wasmjson-simd128.wasm', 'wasmjson-swar64.wasm']) copyFileSync(join(dist, f), join(temp, 'pkg', f));
    copyFileSync(join(dist, 'browser.mjs'), join(temp, 'lonely', 'browser.mjs'));
    writeFileSync(join(temp, 'index.html'), PAGE);
    writeFileSync(join(temp, 'collect.mjs'), COLLECT);
    writeFileSync(join(temp, 'probe.mjs'), PROBE);
    writeFileSync(join(temp, 'all.mjs'), CASE_ALL);
    for (const [name, text] of Object.entries(FILES)) writeFileSync(join(temp, name), text);
    server = await serveIsolated(temp, { '/w-csp.mjs': "script-src 'self'" });
  });

  afterAll(async () => {
    await browser?.close().catch(() => {});
    await server?.close();
    if (temp) rmSync(temp, { recursive: true, force: true });
  });

  it('a module worker imports it (the .wasm fetched beside the module); results and errors cross postMessage', async () => {
    const out = (await results()).module;
    expect(out.isolated).toBe(true);
    expect(out.flavor).toBe('simd128');
    expect(out.roundTrip).toBe(true);
    expect(out.encodeCopy).toBe('{"a":"first"}');
    expect(out.large).toEqual([100008, '{"s":"']);
    expect(out.error).toEqual([true, true]);
    expect(out.lazy).toBe('DataCloneError');
  }, 30_000);

  it('init({ wasm }) in a worker takes bytes or a Module the page posts', async () => {
    const [before, bytes, module] = (await results()).init;
    expect(before).toMatch(/^wasmjson: its wasm did not load \(wasmjson: could not load .*\/lonely\/wasmjson-simd128\.wasm: HTTP 404\)/);
    expect([bytes, module]).toEqual(['swar64 {"x":[true,"é"]}', 'swar64 {"x":[true,"é"]}']);
  }, 30_000);

  it("a worker whose own policy lacks 'wasm-unsafe-eval': the functions say so", async () => {
    const [message] = (await results()).csp;
    expect(message).toMatch(/^wasmjson: its wasm did not load \(.*\); this page's Content-Security-Policy must allow WebAssembly: add 'wasm-unsafe-eval' to its script-src$/);
  }, 30_000);

  // Chromium's TextDecoder refuses views of shared memory: errors.ts decoded the excerpt
  // and the unexpected token from the caller's bytes with it, so every syntax error of a
  // SharedArrayBuffer input was that TypeError ("The provided ArrayBufferView value must
  // not be shared") instead of the SyntaxError.
  it('a syntax error in SharedArrayBuffer input is the SyntaxError a copy gives (worker and page)', async () => {
    const { module, page } = await results();
    for (const out of [module.shared, page.shared]) {
      for (const [name, [shared, copy]] of Object.entries(out as Record<string, [string, string]>)) {
        expect(copy, name).toMatch(/^SyntaxError: /);
        expect(shared, name).toBe(copy);
      }
    }
  }, 30_000);

  // The browser entry awaits its wasm at the top level. A worker that imports it
  // statically has no message handler until that import finishes, and Chromium drops the
  // messages that arrive before (README: workers). The pattern README gives, onmessage
  // set first and the package imported dynamically, answers every message.
  it('a module worker that sets onmessage first and imports the package dynamically answers a message posted at once', async () => {
    expect((await results()).early).toEqual([{ first: 1 }, { second: 2 }]);
  }, 30_000);
});
