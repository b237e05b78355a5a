// What a call leaves behind once its result is gone: the library's reusable stacks and
// scratch arrays (JS heap) and buffers (wasm memory) grow with the largest document they
// have held, and a later call that does not need that room gives it back. Node only
// (forced collections; the wasm memory taken from WebAssembly.instantiate).
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import v8 from 'node:v8';
import vm from 'node:vm';
import { describe, expect, it } from 'vitest';
import { load } from 'wasmjson';
import { watchedCodec } from './support/watched-codec.js';

v8.setFlagsFromString('--expose-gc');
const gc = vm.runInNewContext('gc') as () => void;

const MB = 1e6;
function heapUsed(): number {
  gc();
  gc();
  return process.memoryUsage().heapUsed;
}

describe('heap kept after large calls', () => {
  for (const flavor of ['simd128', 'swar64'] as const) {
    it(`parse of a million-element array, then a small parse, keeps no large stacks (${flavor})`, async () => {
      const codec = await load({ flavor });
      codec.parse('[{"a":1},[1.5,2.5],[true,null]]');
      let objects: string | null = '[' + '{"a":1},'.repeat(1_000_000) + '{"a":2}]';
      let numbers: string | null = '[' + '1.5,'.repeat(1_000_000) + '2.5]';
      let scalars: string | null = '[' + 'true,null,'.repeat(500_000) + 'true]';
      const before = heapUsed();
      for (const text of [objects, numbers, scalars]) expect((codec.parse(text) as unknown[]).length).toBeGreaterThan(1_000_000);
      objects = numbers = scalars = null;
      expect(codec.parse('{"x":[1,2,3],"y":[true]}')).toStrictEqual({ x: [1, 2, 3], y: [true] });
      // Kept, the value stacks (three of 1M elements), the doubles' and the scalars'
      // scratch would be over 40 MB.
      expect((heapUsed() - before) / MB).toBeLessThan(8);
    });
  }

  it('stringify of a value 100,000 levels deep, then a shallow one, keeps no deep walk state', async () => {
    const codec = await load({ flavor: 'simd128' });
    expect(codec.stringify({ a: [1] })).toBe('{"a":[1]}');
    const before = heapUsed();
    let deep: unknown[] | null = [];
    let at = deep;
    for (let i = 0; i < 100_000; i++) {
      const next: unknown[] = [];
      at.push(next);
      at = next;
    }
    expect(codec.stringify(deep)!.length).toBe(200_002);
    deep = at = null;
    expect(codec.stringify({ b: [2] })).toBe('{"b":[2]}');
    // Kept, the walk's arrays for 100,000 levels were about 8 MB.
    expect((heapUsed() - before) / MB).toBeLessThan(3);
  });
});

describe('validate with checks keeps no value', () => {
  // A child process with a 48 MB heap: 1,000,000 objects in 42 MB of bytes, whose value
  // (about 150 MB) that heap cannot hold. validate with checks builds none of it: every
  // flavor's answer comes back, where building the value ends in V8's heap-out-of-memory abort.
  it('validates 1,000,000 objects with every check in a heap too small for their value', () => {
    const entry = fileURLToPath(new URL('../../dist/node.mjs', import.meta.url));
    const script = `
      import { load } from ${JSON.stringify(entry)};
      const unit = new TextEncoder().encode('{"a":1,"b":"xy","c":[1,2],"d":{"e":null}},');
      const n = 1_000_000;
      const bytes = new Uint8Array(1 + unit.length * n + 2);
      bytes[0] = 0x5b;
      bytes.set(unit, 1);
      for (let filled = 1; filled < n; filled *= 2) bytes.copyWithin(1 + unit.length * filled, 1, 1 + unit.length * Math.min(filled, n - filled));
      bytes.set([0x30, 0x5d], 1 + unit.length * n);
      const checks = { duplicateKeys: 'error', protoAction: 'error', constructorAction: 'error', maxDepth: 8 };
      const answers = [];
      for (const flavor of ['simd128', 'swar64']) {
        const codec = await load({ flavor });
        answers.push(codec.validate(bytes, checks), codec.validate(bytes, { ...checks, maxDepth: 2 }));
      }
      console.log(answers.join());`;
    const r = spawnSync(process.execPath, ['--max-old-space-size=48', '--input-type=module', '-e', script], { encoding: 'utf8', timeout: 120_000 });
    expect(r.stderr).toBe('');
    expect(r.stdout.trim()).toBe('true,false,true,false');
  });
});

describe('wasm buffers kept after large calls', () => {
  it('a parse of 21 MB, then a small one, leaves its input and tape buffers free for an encode of the value', async () => {
    const { codec, memory } = await watchedCodec('simd128');
    const text = JSON.stringify({ items: Array.from({ length: 300_000 }, (_, i) => ({ id: i, name: `item ${i}`, tags: ['a', 'b'], v: i / 7 })) });
    const value = codec.parse(text);
    expect(codec.parse('[1]')).toStrictEqual([1]);
    const grown = memory.buffer.byteLength;
    expect(new TextDecoder().decode(codec.encode(value))).toBe(text);
    // Kept, the parse's input copy and tape made the encode grow memory by 32 MiB more.
    expect((memory.buffer.byteLength - grown) / 2 ** 20).toBeLessThanOrEqual(8);
  });
});
