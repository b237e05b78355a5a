// Runs the benchmark page in headless Chromium: serves the repository (and
// ../shared/corpus) on 127.0.0.1, opens bench/browser/ via Playwright, waits for the
// results and saves bench/results/chromium.json, chromium.html and chromium.png.
//   node bench/browser/run.mjs [files|folders...] [--quick] [--rounds N] [--ops a,b] ...
// Same options as `npm run bench` (node bench/run.mjs --help). CHROMIUM_PATH overrides
// /usr/bin/chromium. Never downloads a browser.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { BENCH_OPTIONS, machineInfo, parseBenchArgs, UsageError } from '../node.mjs';
import { renderHtml } from '../report.mjs';
import { startServer } from './server.mjs';
import { CHROMIUM_ARGS as BASE_ARGS, CHROMIUM_PATH } from '../../scripts/chromium.mjs';

const usage = 'node bench/browser/run.mjs [files|folders...] [options]';
const chromiumPath = CHROMIUM_PATH;
const CHROMIUM_ARGS = [
  ...BASE_ARGS,
  // For the heap probe: gc() and unquantized performance.memory.
  '--js-flags=--expose-gc',
  '--enable-precise-memory-info',
];

let opts;
try {
  opts = parseBenchArgs(process.argv.slice(2));
} catch (e) {
  if (!(e instanceof UsageError)) throw e;
  console.error(`bench (browser): ${e.message}\n(usage: ${usage}; --help for options)`);
  process.exit(2);
}
if (opts.help) {
  console.log(`Usage: ${usage}\n\nRuns the benchmark page (bench/browser/) in headless Chromium.\n\n${BENCH_OPTIONS}`);
  process.exit(0);
}

const query = new URLSearchParams({ rounds: String(opts.rounds), minMs: String(opts.minMs) });
if (opts.ops) query.set('ops', opts.ops.join(','));
query.set('flavors', opts.flavors.join(','));
if (!opts.peers) query.set('peers', '0');
if (!opts.heap) query.set('heap', '0');
if (!opts.builtin) query.set('builtin', '0');
if (!opts.shared) query.set('shared', '0');

let server;
try {
  server = await startServer({ files: opts.paths, shared: opts.shared });
} catch (e) {
  console.error(`bench (browser): ${e.message}`);
  process.exit(2);
}

const { chromium } = await import('playwright');
let browser;
let code = 0;
try {
  browser = await chromium.launch({ executablePath: chromiumPath, args: CHROMIUM_ARGS, headless: true });
  const version = browser.version();
  let v8 = null;
  try {
    const p = await browser.newPage();
    await p.goto('chrome://version');
    v8 = (await p.textContent('body'))?.match(/V8\s*([\d.]+)/)?.[1] ?? null;
    await p.close();
  } catch {}
  const page = await browser.newPage({ viewport: { width: 1200, height: 900 } });
  page.on('console', (m) => {
    if (m.type() === 'log' || m.type() === 'error') console.log(`[chromium] ${m.text()}`);
  });
  page.on('pageerror', (e) => console.error(`[chromium] page error: ${e.message}`));
  query.set('browserVersion', version);
  if (v8) query.set('v8', v8);
  const url = `${server.url}/bench/browser/?${query}`;
  console.log(`bench (browser): Chromium ${version} (V8 ${v8 ?? '?'}) on ${url}`);
  await page.goto(url);
  await page.waitForFunction(() => window.__benchDone === true || window.__benchError !== undefined, null, { timeout: 60 * 60 * 1000, polling: 500 });
  const error = await page.evaluate(() => window.__benchError);
  if (error) throw new Error(`the page failed: ${error}`);
  const results = await page.evaluate(() => window.__benchResults);
  const m = machineInfo();
  results.meta.runtime = { ...results.meta.runtime, name: 'chromium', version, v8 };
  results.meta.machine = `${m.cpu}, ${m.cores} cores, ${m.memoryGiB} GiB`;
  results.meta.command = `node bench/browser/run.mjs ${process.argv.slice(2).join(' ')}`.trim();

  const dir = opts.out ?? fileURLToPath(new URL('../results/', import.meta.url));
  mkdirSync(dir, { recursive: true });
  const name = opts.name ?? 'chromium';
  const json = join(dir, `${name}.json`);
  const html = join(dir, `${name}.html`);
  const png = join(dir, `${name}.png`);
  writeFileSync(json, JSON.stringify(results, null, 2) + '\n');
  writeFileSync(html, renderHtml(results));
  // Full page, up to a height Chromium can capture in one piece.
  const height = await page.evaluate(() => document.documentElement.scrollHeight);
  await page.screenshot({ path: png, fullPage: true, clip: height > 16000 ? { x: 0, y: 0, width: 1200, height: 16000 } : undefined });
  console.log(`results: ${relative(process.cwd(), json)}, ${relative(process.cwd(), html)}, ${relative(process.cwd(), png)} (${results.meta.seconds} s)`);
  if (opts.json) console.log(JSON.stringify(results, null, 2));
  if (results.mismatches.length) {
    console.log(`!!! ${results.mismatches.length} mismatch(es) with native JSON: exit code 1`);
    code = 1;
  }
} catch (e) {
  console.error(`bench (browser): ${e.message}`);
  code = 1;
} finally {
  await browser?.close();
  await server.close();
}
process.exit(code);
