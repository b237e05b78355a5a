// Node-only checks of the built files: the SWAR64 flavor has no SIMD opcode, the
// flavor can be forced by environment, and CommonJS works synchronously.
import { execFileSync, spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../../', import.meta.url));
const dist = root + 'dist/';

function runNode(code: string, env: Record<string, string> = {}, type: 'module' | 'commonjs' = 'module') {
  return execFileSync(process.execPath, [type === 'module' ? '--input-type=module' : '--input-type=commonjs', '-e', code], {
    cwd: root,
    env: { ...process.env, ...env },
    encoding: 'utf8',
  }).trim();
}

describe('built wasm files', () => {
  it('SWAR64 validates on an engine with SIMD turned off; SIMD128 does not', () => {
    // wabt's validator with the SIMD proposal disabled: any v128 opcode or type fails it.
    execFileSync('wasm-validate', ['--disable-simd', dist + 'wasmjson-swar64.wasm']);
    expect(() => execFileSync('wasm-validate', ['--disable-simd', dist + 'wasmjson-simd128.wasm'], { stdio: 'pipe' })).toThrow();
  });

  it('SWAR64 contains no 0xFD-prefixed (SIMD) instruction in its disassembly', () => {
    const text = execFileSync('wasm-objdump', ['-d', dist + 'wasmjson-swar64.wasm'], { encoding: 'utf8', maxBuffer: 1 << 26 });
    expect(text).toMatch(/i64\.load/);
    expect(text).not.toMatch(/v128|i8x16|i16x8|i32x4|i64x2|f32x4|f64x2/);
    const simd = execFileSync('wasm-objdump', ['-d', dist + 'wasmjson-simd128.wasm'], { encoding: 'utf8', maxBuffer: 1 << 26 });
    expect(simd).toMatch(/i8x16\.bitmask/);
  });

  it('each module imports only the memory-growth notification', () => {
    for (const flavor of ['simd128', 'swar64']) {
      const module = new WebAssembly.Module(readFileSync(`${dist}wasmjson-${flavor}.wasm`));
      expect(WebAssembly.Module.imports(module)).toEqual([
        { module: 'env', name: 'emscripten_notify_memory_growth', kind: 'function' },
      ]);
    }
  });
});

describe('TypeScript consumers', () => {
  it('type-check against the package in CommonJS and ES module projects (node16) and with bundler resolution, libs checked too, with and without the DOM lib', () => {
    const project = mkdtempSync(join(tmpdir(), 'wasmjson-ts-'));
    try {
      const write = (file: string, text: string) => {
        mkdirSync(join(project, file, '..'), { recursive: true });
        writeFileSync(join(project, file), text);
      };
      mkdirSync(join(project, 'node_modules'));
      symlinkSync(root, join(project, 'node_modules/wasmjson'), 'dir');
      write('cjs/package.json', '{}');
      write('esm/package.json', '{"type":"module"}');
      // CommonJS: both spellings reach the .d.cts declarations of the require condition.
      write('cjs/a.cts', "import wj = require('wasmjson');\nexport const s: string = wj.stringify(wj.parse('[1]'));\nexport const b: Uint8Array<ArrayBuffer> = wj.minify(new Uint8Array([49]));\n");
      write('cjs/b.ts', "import { parse, JsonSyntaxError } from 'wasmjson';\nexport const v: unknown = parse('1');\nexport const isError = (e: unknown): boolean => e instanceof JsonSyntaxError;\n");
      const esm =
        "import { parse, minify, lazy, LazyNode } from 'wasmjson';\nexport const v: unknown = parse('1');\n" +
        "export const b: Uint8Array<ArrayBuffer> = minify(new Uint8Array([49]));\nconst doc = lazy('{\"a\":1}');\n" +
        'export const k: string[] = doc instanceof LazyNode ? doc.keys() : [];\n' +
        // LazyNode is made by lazy() only: its constructor's parameters are declared.
        '// @ts-expect-error\nexport const bare = new LazyNode();\n' +
        // A node narrowed by kind (or isArray/isObject) iterates as its kind: elements, or [key, value] pairs.
        "import type { LazyValue } from 'wasmjson';\nconst node = lazy('[[1],{\"a\":2}]');\n" +
        "if (node instanceof LazyNode && node.kind === 'array') {\n  for (const e of node) { const x: LazyValue = e; void x; }\n" +
        '  const en: [number, LazyValue][] = [...node.entries()]; void en;\n' +
        '  // @ts-expect-error\n  const pairs: [string, LazyValue][] = [...node]; void pairs;\n}\n' +
        'if (node instanceof LazyNode && node.isObject()) {\n  const ps: [string, LazyValue][] = [...node]; void ps;\n' +
        '  const en: [string, LazyValue][] = [...node.entries()]; void en;\n' +
        '  // @ts-expect-error\n  const items: string[] = [...node]; void items;\n}\n' +
        'export const vs: LazyValue[] = node instanceof LazyNode ? [...node.values()] : [];\n' +
        // Overloads: canonicalize by input kind, validate by explain; an explained failure has its error.
        "import { canonicalize, validate } from 'wasmjson';\n" +
        "export const c: string = canonicalize('{}');\nexport const cb: Uint8Array<ArrayBuffer> = canonicalize(new Uint8Array([49]));\n" +
        'export const cv: string | Uint8Array | undefined = canonicalize({ a: 1 });\n' +
        "export const ok: boolean = validate('1', { explain: false, maxDepth: 3 });\n" +
        'const r = validate(new SharedArrayBuffer(1), { explain: true });\nexport const where: number = r.valid ? -1 : r.error.offset;\n';
      write('esm/c.mts', esm);
      write('bundler/d.ts', esm);
      const options = { strict: true, noEmit: true, skipLibCheck: false, lib: ['esnext', 'dom'], types: [] };
      write('node16.json', JSON.stringify({ compilerOptions: { ...options, module: 'node16', moduleResolution: 'node16' }, files: ['cjs/a.cts', 'cjs/b.ts', 'esm/c.mts'] }));
      write('bundler.json', JSON.stringify({ compilerOptions: { ...options, module: 'esnext', moduleResolution: 'bundler' }, files: ['bundler/d.ts'] }));
      // Without the DOM lib (a Node project: @types/node only), and a browser app's libs
      // without esnext (no Symbol.dispose of its own).
      write('node-only.json', JSON.stringify({ compilerOptions: { ...options, lib: ['es2022'], types: ['node'], typeRoots: [join(root, 'node_modules/@types')], module: 'node16', moduleResolution: 'node16' }, files: ['cjs/a.cts', 'cjs/b.ts', 'esm/c.mts'] }));
      write('browser-app.json', JSON.stringify({ compilerOptions: { ...options, lib: ['es2022', 'dom'], module: 'esnext', moduleResolution: 'bundler' }, files: ['bundler/d.ts'] }));
      for (const config of ['node16.json', 'bundler.json', 'node-only.json', 'browser-app.json']) {
        const run = spawnSync(join(root, 'node_modules/.bin/tsc'), ['-p', join(project, config)], { encoding: 'utf8' });
        expect(run.stdout + run.stderr, config).toBe('');
        expect(run.status, config).toBe(0);
      }
    } finally {
      rmSync(project, { recursive: true, force: true });
    }
  }, 120_000);
});

describe('type declarations', () => {
  it('every exported function of every entry point carries its documentation (editor hovers)', () => {
    // (TypeScript 7 has no compiler API to ask; the declarations are read as text: each
    // entry re-exports the functions from the facade, whose declarations follow their
    // doc comments.)
    const names = ['load', 'loadSync', 'init', 'initSync', 'implementation', 'validate', 'parse', 'stringify', 'encode', 'minify', 'prettify', 'at', 'lazy', 'canonicalize'];
    for (const [entry, ext] of [['node-esm', 'ts'], ['node-cjs', 'cts'], ['browser', 'ts']]) {
      let text = readFileSync(join(dist, `types/entries/${entry}.d.${ext}`), 'utf8');
      // The CommonJS declarations are the ES module entry's.
      if (entry === 'node-cjs') {
        expect(text).toContain("export * from './node-esm.cjs';");
        text = readFileSync(join(dist, `types/entries/node-esm.d.${ext}`), 'utf8');
      }
      const reexport = new RegExp(`export \\{([^}]*)\\} from '\\.\\./facade\\.${ext === 'cts' ? 'c' : ''}js';`).exec(text);
      expect(reexport, entry).not.toBeNull();
      expect(reexport![1].split(',').map((n) => n.trim()).sort(), entry).toEqual([...names].sort());
      const facade = readFileSync(join(dist, `types/facade.d.${ext}`), 'utf8');
      for (const name of names) {
        const at = facade.search(new RegExp(`^export declare (function|const) ${name}\\b`, 'm'));
        expect(at, `${name} declared`).toBeGreaterThan(0);
        const before = facade.slice(0, at).trimEnd();
        expect(before.endsWith('*/'), `${entry}: ${name} has a doc comment`).toBe(true);
        const doc = before.slice(before.lastIndexOf('/**'));
        expect(doc.length, `${entry}: ${name}'s doc comment`).toBeGreaterThan(40);
      }
    }
  });
});

describe('Node entry points', () => {
  it('WASMJSON_FLAVOR forces a flavor at import', () => {
    const code = "import('wasmjson').then(m => console.log(m.implementation().flavor))";
    expect(runNode(code, { WASMJSON_FLAVOR: 'swar64' })).toBe('swar64');
    expect(runNode(code, { WASMJSON_FLAVOR: 'simd128' })).toBe('simd128');
    expect(runNode(code, { WASMJSON_FLAVOR: '' })).toBe('simd128');
    expect(() => runNode(code, { WASMJSON_FLAVOR: 'avx512' })).toThrow(/unknown flavor 'avx512'/);
  });

  it('an engine without WebAssembly (node --jitless): import succeeds, calls say the engine lacks it', () => {
    const run = (type: 'module' | 'commonjs', code: string) =>
      execFileSync(process.execPath, ['--jitless', `--input-type=${type}`, '-e', code], { cwd: root, encoding: 'utf8' }).trim();
    const message = 'wasmjson: this JavaScript engine has no WebAssembly (in Node or Chromium: was V8 started with --jitless?), which wasmjson needs';
    const esm = run(
      'module',
      `const w = await import('wasmjson');
       const said = [];
       for (const f of [() => w.parse('[1]'), () => w.implementation(), () => w.loadSync(), () => w.load(), () => w.init({ flavor: 'swar64' }), () => w.init({ wasm: new Uint8Array(8) })]) {
         try { await f(); said.push('ran'); } catch (e) { said.push(e.constructor.name + ': ' + e.message); }
       }
       console.log(JSON.stringify(said));`,
    );
    expect(JSON.parse(esm)).toEqual(Array(6).fill(`Error: ${message}`));
    const cjs = run('commonjs', "try { require('wasmjson').stringify([1]); console.log('written'); } catch (e) { console.log(e.message); }");
    expect(cjs).toBe(message);
  });

  it('a bundle that left the .wasm files behind still imports; calls say why they cannot run until init({ wasm })', () => {
    const alone = mkdtempSync(join(tmpdir(), 'wasmjson-alone-'));
    try {
      copyFileSync(dist + 'node.mjs', join(alone, 'node.mjs'));
      copyFileSync(dist + 'node.cjs', join(alone, 'node.cjs'));
      const wasm = JSON.stringify(dist + 'wasmjson-swar64.wasm');
      const esm = runNode(
        `const w = await import(${JSON.stringify(join(alone, 'node.mjs'))});
         let before; try { w.parse('[1]'); } catch (e) { before = e.message; }
         const { readFileSync } = await import('node:fs');
         const flavor = (await w.init({ wasm: readFileSync(${wasm}) })).flavor;
         // A location: a path, a file: URL as a string or a URL object.
         const { pathToFileURL } = await import('node:url');
         const located = [];
         for (const where of [${wasm}, pathToFileURL(${wasm}).href, pathToFileURL(${wasm})]) located.push((await w.init({ wasm: where })).flavor);
         let missing; try { await w.init({ wasm: ${wasm} + '.missing' }); } catch (e) { missing = e.message; }
         console.log(JSON.stringify([before, flavor, w.parse('{"a":[1]}'), located, missing]));`,
      );
      const [before, flavor, value, located, missing] = JSON.parse(esm);
      expect(located).toEqual(['swar64', 'swar64', 'swar64']);
      expect(missing).toMatch(/^wasmjson: could not load .*wasmjson-swar64\.wasm\.missing: ENOENT/);
      expect(before).toMatch(/^wasmjson: its wasm did not load \(ENOENT.*wasmjson-simd128\.wasm.*\); pass its location or bytes to await init\(\{ wasm \}\)$/);
      expect([flavor, value]).toEqual(['swar64', { a: [1] }]);
      const cjs = runNode(
        `const w = require(${JSON.stringify(join(alone, 'node.cjs'))});
         try { w.validate('[1]'); } catch (e) { console.log(e.message.startsWith('wasmjson: its wasm did not load (ENOENT')); }`,
        {},
        'commonjs',
      );
      expect(cjs).toBe('true');
    } finally {
      rmSync(alone, { recursive: true, force: true });
    }
  });

  it('the ES module entry bundled into CommonJS (esbuild for Node, import.meta empty) finds the .wasm files beside the bundle', async () => {
    const { build } = await import('esbuild');
    const out = mkdtempSync(join(tmpdir(), 'wasmjson-esb-'));
    try {
      writeFileSync(join(out, 'app.mjs'), `import { parse, implementation } from ${JSON.stringify(dist + 'node.mjs')};\nconsole.log(JSON.stringify([parse('{"a":[1]}'), implementation().flavor]));\n`);
      await build({ entryPoints: [join(out, 'app.mjs')], bundle: true, platform: 'node', format: 'cjs', outfile: join(out, 'bundle/app.cjs'), logLevel: 'silent' });
      for (const f of ['wasmjson-simd128.wasm', 'wasmjson-swar64.wasm']) copyFileSync(dist + f, join(out, 'bundle', f));
      const run = execFileSync(process.execPath, [join(out, 'bundle/app.cjs')], { cwd: tmpdir(), encoding: 'utf8' }).trim();
      expect(JSON.parse(run)).toEqual([{ a: [1] }, 'simd128']);
    } finally {
      rmSync(out, { recursive: true, force: true });
    }
  });

  it("keys stay themselves where V8's JSON.parse (Node 24, 26) reads every one-character escaped key as a backslash", () => {
    const out = runNode(
      `const w = await import('wasmjson');
       JSON.parse('{"\\\\\\\\":1}');
       const texts = ['{"\\\\n":2}', '{"\\\\u0000":2}', '{"a":0,"\\\\u0041":2}'];
       console.log(JSON.stringify(texts.map((t) => [Object.keys(w.parse(t)).at(-1), Object.keys(w.parse(new TextEncoder().encode(t))).at(-1), w.lazy(t).keys().at(-1)])));`,
    );
    expect(JSON.parse(out)).toEqual([['\n', '\n', '\n'], ['\u0000', '\u0000', '\u0000'], ['A', 'A', 'A']]);
  });

  it('where require() cannot load the ES module entry (older Node, Jest), it loads the CommonJS build of it', () => {
    const run = spawnSync(process.execPath, ['--no-experimental-require-module', '-e', "const w = require('wasmjson'); console.log(JSON.stringify([w.parse('[1]'), w.implementation().flavor, typeof w.LazyNode]))"], { cwd: root, encoding: 'utf8' });
    expect(run.stderr).toBe('');
    expect(JSON.parse(run.stdout)).toEqual([[1], 'simd128', 'function']);
  });

  it('import and require in one program give one copy: the same functions, classes and codec', () => {
    const out = runNode(
      `const esm = await import('wasmjson');
       const { createRequire } = await import('node:module');
       const cjs = createRequire(import.meta.url)('wasmjson');
       await esm.init({ flavor: 'swar64' });
       let error; try { cjs.parse('[1,'); } catch (e) { error = e; }
       console.log(JSON.stringify([cjs.parse === esm.parse, cjs.implementation().flavor, error instanceof esm.JsonSyntaxError, cjs.lazy('[1]') instanceof esm.LazyNode]));`,
    );
    expect(JSON.parse(out)).toEqual([true, 'swar64', true, true]);
  });

  it('require() works synchronously and exposes the same API', () => {
    const out = runNode(
      "const w = require('wasmjson'); console.log(typeof w.validate, w.validate('[1]'), w.validate('[1'), w.implementation().flavor, typeof w.JsonSyntaxError)",
      {},
      'commonjs',
    );
    expect(out).toBe('function true false simd128 function');
  });

  it('init({ wasm }) takes bytes or a compiled module and reports its flavor', async () => {
    const { init, implementation, load } = await import('wasmjson');
    const bytes = readFileSync(dist + 'wasmjson-swar64.wasm');
    expect((await init({ wasm: new Uint8Array(bytes) })).flavor).toBe('swar64');
    expect(implementation().flavor).toBe('swar64');
    const module = new WebAssembly.Module(readFileSync(dist + 'wasmjson-simd128.wasm'));
    expect((await load({ wasm: module })).flavor).toBe('simd128');
    await expect(load({ wasm: module, flavor: 'swar64' })).rejects.toThrow(/is the simd128 flavor, not swar64/);
    // A Response-like object without headers is read as bytes; a Response made here has
    // no URL to name.
    const responseLike = { ok: true, status: 200, url: '', arrayBuffer: async () => new Uint8Array(bytes).buffer };
    expect((await load({ wasm: responseLike as never })).flavor).toBe('swar64');
    await expect(load({ wasm: new Response(null, { status: 404 }) })).rejects.toThrow('could not load the given Response: HTTP 404');
    // An unknown flavor is said as without wasm (before the wasm is compiled: not bytes).
    await expect(load({ wasm: new Uint8Array([1, 2, 3]), flavor: 'avx' as never })).rejects.toThrow(/unknown flavor 'avx'/);
    await expect(load({ wasm: new Uint8Array([0, 97, 115, 109, 1, 0, 0, 0]) })).rejects.toThrow(/not a wasmjson SIMD128 or SWAR64 build/);
    // Another module with an _initialize export: told by its exports, before any runs.
    const foreign = [0, 97, 115, 109, 1, 0, 0, 0, 1, 4, 1, 96, 0, 0, 3, 2, 1, 0, 7, 15, 1, 11, ...new TextEncoder().encode('_initialize'), 0, 0, 10, 4, 1, 2, 0, 11];
    await expect(load({ wasm: new Uint8Array(foreign) })).rejects.toThrow(/not a wasmjson SIMD128 or SWAR64 build/);
    await init();
    expect(implementation().flavor).toBe('simd128');
    // The synchronous loaders read the packaged files: wasm given to them is refused, not ignored.
    const { loadSync, initSync } = await import('wasmjson');
    for (const f of [loadSync, initSync]) expect(() => f({ wasm: bytes } as never)).toThrow(/read the packaged \.wasm files/);
    expect(implementation().flavor).toBe('simd128');
  });

  it('a download cut off part way is named with its URL (streamed or not); wasm that does not compile keeps its CompileError', async () => {
    const { load } = await import('wasmjson');
    const bytes = readFileSync(dist + 'wasmjson-simd128.wasm');
    // Says the whole length, sends a fifth of it, then drops the connection.
    const server = createServer((req, res) => {
      const type = req.url!.startsWith('/streamed/') ? 'application/wasm' : 'application/octet-stream';
      res.writeHead(200, { 'content-type': type, 'content-length': String(bytes.length) });
      res.write(bytes.subarray(0, bytes.length / 5), () => res.destroy());
    });
    await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
    try {
      const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
      for (const url of [`${base}streamed/w.wasm`, `${base}plain/w.wasm`]) {
        const said = (e: unknown) => [(e as Error).message, ((e as Error).cause as Error)?.name];
        const escaped = url.replace(/[./]/g, '\\$&');
        for (const wasm of [url, new URL(url), fetch(url)]) {
          const e = await load({ wasm }).then(() => undefined, (error: unknown) => error);
          expect(said(e)).toEqual([expect.stringMatching(new RegExp(`^wasmjson: could not load ${escaped}: \\S`)), 'TypeError']);
        }
      }
    } finally {
      await new Promise((done) => server.close(done));
    }
    const failing = new ReadableStream({
      start(c) {
        c.enqueue(bytes.subarray(0, 1000));
        c.error(new TypeError('gone'));
      },
    });
    await expect(load({ wasm: new Response(failing, { headers: { 'content-type': 'application/wasm' } }) })).rejects.toThrow(
      /^wasmjson: could not load the given Response: gone$/,
    );
    for (const type of ['application/wasm', 'application/octet-stream']) {
      const cut = new Response(bytes.subarray(0, 1000), { headers: { 'content-type': type } });
      await expect(load({ wasm: cut })).rejects.toBeInstanceOf(WebAssembly.CompileError);
    }
  });

  it('package.json exports map resolves every condition to a built file', () => {
    const pkg = JSON.parse(readFileSync(root + 'package.json', 'utf8'));
    const dot = pkg.exports['.'];
    const { import: esm, require: cjs } = dot.node;
    // (Each Node condition carries its own types: the CommonJS one its .d.cts twins.)
    expect(cjs.types).toMatch(/\.d\.cts$/);
    for (const rel of [dot.types, esm.types, esm.default, cjs.types, cjs.default, dot.browser, dot.default]) {
      expect(() => readFileSync(root + rel), rel).not.toThrow();
    }
    expect(pkg.dependencies ?? {}).toEqual({});
  });
});
