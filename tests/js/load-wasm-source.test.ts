// load({ wasm }) from each kind of source: foreign modules, an unknown flavor, Responses
// (made here, Response-like, failing part way, not ok) and URLs. The loader is the
// browser entry's code too, and Chromium's fetch, Response and streaming compilation
// fail in their own ways, so this runs in Chromium as well as in Node.
import { describe, expect, it } from 'vitest';
import { load } from 'wasmjson';

const inBrowser = typeof document !== 'undefined';

// The packaged SWAR64 module: served by the vitest server in Chromium, read from disk in Node.
const swar64Url = new URL('../../dist/wasmjson-swar64.wasm', import.meta.url);
async function readSwar64(): Promise<Uint8Array> {
  if (inBrowser) {
    const response = await fetch(swar64Url);
    if (!response.ok) throw new Error(`${swar64Url}: HTTP ${response.status}`);
    return new Uint8Array(await response.arrayBuffer());
  }
  // A computed specifier, so that the browser bundle does not try to resolve it.
  const fs = (await import(/* @vite-ignore */ ['node', 'fs/promises'].join(':'))) as typeof import('node:fs/promises');
  return new Uint8Array(await fs.readFile(swar64Url));
}
const bytes = await readSwar64();

/** What load() rejected with (or 'loaded' if it did not). */
async function failure(wasm: unknown): Promise<Error> {
  return load({ wasm: wasm as never }).then(
    () => new Error('loaded'),
    (e: unknown) => e as Error,
  );
}

describe('load({ wasm })', () => {
  it('a valid module that is not a wasmjson build is refused, by its exports', async () => {
    const empty = new Uint8Array([0, 97, 115, 109, 1, 0, 0, 0]);
    // Another module with an _initialize export: told by its exports, before any runs.
    const initialize = new Uint8Array([0, 97, 115, 109, 1, 0, 0, 0, 1, 4, 1, 96, 0, 0, 3, 2, 1, 0, 7, 15, 1, 11, ...new TextEncoder().encode('_initialize'), 0, 0, 10, 4, 1, 2, 0, 11]);
    for (const foreign of [empty, initialize]) {
      expect(WebAssembly.validate(foreign)).toBe(true);
      await expect(load({ wasm: foreign })).rejects.toThrow(/not a wasmjson SIMD128 or SWAR64 build/);
    }
  });

  it('an unknown flavor is said before the wasm is compiled (these bytes are no wasm)', async () => {
    const e = await failure(new Uint8Array([1, 2, 3]));
    expect(e).toBeInstanceOf(WebAssembly.CompileError);
    await expect(load({ wasm: new Uint8Array([1, 2, 3]), flavor: 'avx' as never })).rejects.toThrow(/unknown flavor 'avx'/);
  });

  it('a Response-like object without headers is read as bytes', async () => {
    const responseLike = { ok: true, status: 200, url: '', arrayBuffer: async () => new Uint8Array(bytes).buffer };
    const codec = await load({ wasm: responseLike as never });
    expect(codec.flavor).toBe('swar64');
    expect(codec.parse('[1]')).toEqual([1]);
  });

  it('a Response that is not ok is named; one made here has no URL', async () => {
    await expect(load({ wasm: new Response(null, { status: 404 }) })).rejects.toThrow('could not load the given Response: HTTP 404');
  });

  // The body stream's error as each runtime reports it: Node passes it on ('gone');
  // Chromium replaces it with words of its own (Chromium 156: instantiateStreaming's
  // 'WebAssembly compilation aborted: Network error: Failed to read from a
  // ReadableStream.', arrayBuffer()'s 'Failed to fetch'), which other versions may change.

  for (const type of ['application/wasm', 'none']) {
    const headers: HeadersInit = type === 'none' ? {} : { 'content-type': type };

    it(`a body that fails part way is named with the Response (content-type ${type})`, async () => {
      const failing = new ReadableStream({
        start(c) {
          c.enqueue(bytes.subarray(0, 1000));
          c.error(new TypeError('gone'));
        },
      });
      const e = await failure(new Response(failing, { headers }));
      const cause = e.cause as Error;
      expect(cause).toBeInstanceOf(TypeError);
      if (!inBrowser) expect(cause.message).toBe('gone');
      expect(e.message).toBe(`wasmjson: could not load the given Response: ${cause.message}`);
    });

    it(`wasm cut off keeps WebAssembly's CompileError (content-type ${type})`, async () => {
      const e = await failure(new Response(bytes.subarray(0, 1000), { headers }));
      expect(e).toBeInstanceOf(WebAssembly.CompileError);
      // (Compiled as it streams only when it says it is wasm.)
      expect(e.message).toMatch(type === 'application/wasm' ? /^WebAssembly\.instantiateStreaming\(\): / : /^WebAssembly\.instantiate\(\): /);
    });
  }

  it('a URL is fetched (Chromium) or read (Node); one that cannot be is named with it', async () => {
    const sources = (url: URL) => (inBrowser ? [url.href, url, fetch(url)] : [url.href, url]);
    for (const wasm of sources(swar64Url)) expect((await load({ wasm })).flavor).toBe('swar64');
    const missing = new URL('nothing.wasm', swar64Url);
    const why = inBrowser ? 'HTTP 404' : "ENOENT: no such file or directory, open '";
    for (const wasm of sources(missing)) {
      const { message } = await failure(wasm);
      expect(message.startsWith(`wasmjson: could not load ${missing.href}: ${why}`), message).toBe(true);
    }
  });
});
