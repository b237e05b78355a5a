// The top-level functions, flavor choice and init() options, in every environment.
import { describe, expect, it } from 'vitest';
import * as wasmjson from 'wasmjson';
import { codecFor } from './support/flavors.js';

describe('package entry', () => {
  it('is ready at import and picks SIMD128 where the engine has it', () => {
    const impl = wasmjson.implementation();
    expect(impl.simd128Supported).toBe(true);
    expect(impl.flavor).toBe('simd128');
    expect(wasmjson.validate('{"ok":true}')).toBe(true);
  });

  it('init() switches the flavor behind the same functions', async () => {
    const validate = wasmjson.validate;
    expect((await wasmjson.init({ flavor: 'swar64' })).flavor).toBe('swar64');
    expect(wasmjson.implementation().flavor).toBe('swar64');
    expect(validate('[1,2]')).toBe(true);
    expect((await wasmjson.init()).flavor).toBe('simd128');
  });

  it('init({ wasm }) accepts a compiled WebAssembly.Module and reads its flavor', async () => {
    const codec = await codecFor('swar64');
    expect(codec.flavor).toBe('swar64');
    await expect(wasmjson.init({ flavor: 'nope' as never })).rejects.toThrow(/unknown flavor 'nope'/);
    // (An option value out of its set is a TypeError, as for every other option.)
    await expect(wasmjson.load({ flavor: 'nope' as never })).rejects.toBeInstanceOf(TypeError);
  });

  it('load() gives independent instances', async () => {
    const a = await wasmjson.load({ flavor: 'swar64' });
    const b = await wasmjson.load({ flavor: 'simd128' });
    expect([a.flavor, b.flavor]).toEqual(['swar64', 'simd128']);
    expect(a.validate('[')).toBe(false);
    expect(b.validate('[]')).toBe(true);
  });

  it('allowEval: false never compiles an object constructor (no CSP violation report); the values are the same', async () => {
    // A shape seen in two documents gets a constructor compiled by new Function (build.ts).
    const docs = ['{"alpha":1,"beta":[true,null],"gamma":"x"}', '{"alpha":2,"beta":[],"gamma":"y"}'];
    const compiled = async (allowEval: boolean | undefined) => {
      const codec = await wasmjson.load({ allowEval });
      const RealFunction = globalThis.Function;
      let calls = 0;
      globalThis.Function = new Proxy(RealFunction, {
        construct(target, args) {
          calls++;
          return Reflect.construct(target, args);
        },
      });
      try {
        for (let i = 0; i < 3; i++) for (const d of docs) expect(codec.parse(d)).toEqual(JSON.parse(d));
      } finally {
        globalThis.Function = RealFunction;
      }
      return calls;
    };
    expect(await compiled(undefined)).toBeGreaterThan(0);
    expect(await compiled(false)).toBe(0);
    await expect(wasmjson.load({ allowEval: 'no' as never })).rejects.toBeInstanceOf(TypeError);
  });

  it('in a document parsed once, a shape gets a constructor only when it recurs thousands of times', async () => {
    // (build.ts: a new constructor runs slower than assignment until it is optimized.)
    const compiledFor = async (records: number) => {
      const codec = await wasmjson.load();
      const text = JSON.stringify(Array.from({ length: records }, (_, i) => ({ id: i, name: `n${i}`, on: i % 2 === 0 })));
      const RealFunction = globalThis.Function;
      const bodies: string[] = [];
      globalThis.Function = new Proxy(RealFunction, {
        construct(target, args) {
          bodies.push(String(args[args.length - 1]));
          return Reflect.construct(target, args);
        },
      });
      try {
        expect(codec.parse(text)).toEqual(JSON.parse(text));
      } finally {
        globalThis.Function = RealFunction;
      }
      return bodies.filter((b) => b.includes('"id"')).length;
    };
    expect(await compiledFor(300)).toBe(0);
    expect(await compiledFor(2000)).toBe(0);
    expect(await compiledFor(20000)).toBe(1);
  });
});
