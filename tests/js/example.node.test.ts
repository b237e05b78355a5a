// The bundler path, end to end: pack the repo as npm would publish it, install the
// tarball into examples/vite-app, build the app with Vite in production mode, serve the
// output and check in headless Chromium that the page really validated with SIMD128.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser } from 'playwright';
import { build } from 'vite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../../scripts/chromium.mjs';
import { serve, type StaticServer } from './support/static-server.js';

const root = fileURLToPath(new URL('../../', import.meta.url));
const app = resolve(root, 'examples/vite-app');
const appModules = resolve(app, 'node_modules');
const installed = resolve(appModules, 'wasmjson');
const chromiumPath = CHROMIUM_PATH;
const chromiumArgs = CHROMIUM_ARGS;

let temp = '';
let outDir = '';
let server: StaticServer | undefined;
let browser: Browser | undefined;
let chunkModules: string[] = [];
let createdAppModules = false;

describe('examples/vite-app (packed tarball, Vite production build, Chromium)', () => {
  beforeAll(async () => {
    temp = mkdtempSync(join(tmpdir(), 'wasmjson-vite-'));
    outDir = join(temp, 'site');

    // 1. The published layout: `npm pack`, then unpack into the app's node_modules.
    const packed = JSON.parse(
      execFileSync('npm', ['pack', '--json', '--ignore-scripts', '--pack-destination', temp], {
        cwd: root,
        encoding: 'utf8',
        stdio: ['ignore', 'pipe', 'pipe'],
      }),
    ) as { filename: string }[];
    createdAppModules = !existsSync(appModules);
    rmSync(installed, { recursive: true, force: true });
    mkdirSync(installed, { recursive: true });
    execFileSync('tar', ['-xzf', join(temp, packed[0].filename), '-C', installed, '--strip-components=1']);

    // 2. Production build through Vite's JS API (vitest runs with NODE_ENV=test, which
    // Vite would otherwise take as "not production").
    const nodeEnv = process.env.NODE_ENV;
    process.env.NODE_ENV = 'production';
    try {
      const result = await build({
        root: app,
        mode: 'production',
        logLevel: 'silent',
        build: { outDir, emptyOutDir: true },
      });
      const outputs = Array.isArray(result) ? result : [result];
      chunkModules = outputs.flatMap((o) =>
        'output' in o ? o.output.flatMap((c) => (c.type === 'chunk' ? c.moduleIds : [])) : [],
      );
    } finally {
      if (nodeEnv === undefined) delete process.env.NODE_ENV;
      else process.env.NODE_ENV = nodeEnv;
    }
  }, 60_000);

  afterAll(async () => {
    await browser?.close().catch(() => {});
    await server?.close();
    if (temp) rmSync(temp, { recursive: true, force: true });
    // Vite also leaves node_modules/.vite-temp (config bundling) behind.
    rmSync(createdAppModules ? appModules : installed, { recursive: true, force: true });
  });

  it('the tarball holds the built entries and both wasm files', () => {
    const dist = readdirSync(join(installed, 'dist')).sort();
    expect(dist).toEqual(expect.arrayContaining(['browser.mjs', 'node.mjs', 'node.cjs', 'wasmjson-simd128.wasm', 'wasmjson-swar64.wasm', 'types']));
    // The bundle took wasmjson from the unpacked tarball, not from the repo's own dist/.
    const fromPackage = chunkModules.filter((id) => id.includes('/node_modules/wasmjson/'));
    expect(fromPackage).toContain(join(installed, 'dist/browser.mjs'));
    expect(chunkModules.filter((id) => id.startsWith(join(root, 'dist') + sep))).toEqual([]);
  });

  it('the build emitted both .wasm files as assets', () => {
    const assets = readdirSync(join(outDir, 'assets'));
    const wasm = assets.filter((f) => f.endsWith('.wasm')).sort();
    expect(wasm).toHaveLength(2);
    expect(wasm[0]).toMatch(/^wasmjson-simd128[-.\w]*\.wasm$/);
    expect(wasm[1]).toMatch(/^wasmjson-swar64[-.\w]*\.wasm$/);
    for (const [file, flavor] of [[wasm[0], 'simd128'], [wasm[1], 'swar64']]) {
      expect(readFileSync(join(outDir, 'assets', file))).toEqual(readFileSync(join(installed, `dist/wasmjson-${flavor}.wasm`)));
    }
    // …and the JS refers to them by their emitted names.
    const js = assets.filter((f) => f.endsWith('.js')).map((f) => readFileSync(join(outDir, 'assets', f), 'utf8')).join('\n');
    for (const file of wasm) expect(js).toContain(file);
  });

  it('the built page validates in Chromium with the SIMD128 flavor, without errors', async () => {
    const requests: string[] = [];
    server = await serve(outDir, requests);
    const url = server.url;
    browser = await chromium.launch({ executablePath: chromiumPath, args: chromiumArgs, headless: true });
    const page = await browser.newPage();
    const problems: string[] = [];
    page.on('console', (m) => {
      if (m.type() === 'error' || m.type() === 'warning') problems.push(`console.${m.type()}: ${m.text()}`);
    });
    page.on('pageerror', (e) => problems.push(`pageerror: ${e.message}`));
    page.on('requestfailed', (r) => problems.push(`requestfailed: ${r.url()} ${r.failure()?.errorText}`));

    await page.goto(url);
    const text = await page
      .locator('#out[data-done="true"]')
      .textContent({ timeout: 15_000 })
      .catch((e: Error) => {
        throw new Error(`page never finished: ${e.message}\n${[...problems, ...requests].join('\n')}`);
      });
    expect(JSON.parse(text ?? '')).toEqual({ flavor: 'simd128', results: [true, false, true] });
    await page.waitForLoadState('networkidle'); // let late errors and requests surface
    expect(problems).toEqual([]);
    expect(requests.filter((r) => !r.startsWith('200 '))).toEqual([]);
    // Only the chosen flavor is fetched, and from the emitted asset.
    expect(requests.filter((r) => r.endsWith('.wasm'))).toEqual([expect.stringMatching(/^200 \/assets\/wasmjson-simd128[-.\w]*\.wasm$/)]);
  });
});
