// Faults only a wasm codec has, each on a fresh codec instance (its own linear memory,
// which starts at 2 MiB and can only grow, up to wasm32's 4 GiB):
//   - memory growth in the middle of a call: user code (a reviver, toJSON, a replacer)
//     that itself parses or serializes a document several times larger than all of the
//     instance's memory, so the memory must grow (and every view of it is detached)
//     while the outer call is under way; the outer results must still be exact;
//   - out of memory: documents that cannot fit in wasm32's address space end in the
//     codec's RangeError, and the same instance keeps working exactly afterwards.
// (Reentrancy on the shared instances is in parse.test.ts and stringify.test.ts.)
import { describe, expect, it } from 'vitest';
import { load, type Codec } from 'wasmjson';
import { FLAVORS } from './support/flavors.js';

const INITIAL_MEMORY = 2 * 1024 * 1024; // CMakeLists.txt: -sINITIAL_MEMORY=2MB
const OOM_MESSAGE = /do not fit in WebAssembly memory \(a 4 GiB address space\); the instance stays usable/;

const utf8 = (s: string) => new TextEncoder().encode(s);
const decode = (b: Uint8Array) => new TextDecoder().decode(b);

// A deterministic document: escapes, non-ASCII, numbers of every kind, nesting, repeated keys.
function bigValue(records: number, tag: string) {
  return Array.from({ length: records }, (_, i) => ({
    [`key${tag}`]: `v${i}\n"é😀\\`,
    n: i * 1.5 - 7,
    big: 1e21 + i * 1e6,
    tiny: i * 1e-9,
    list: [true, null, -i, `${tag}${i % 7}`],
    nested: { deep: [[i]] },
  }));
}

/** A value sure to work on any instance, to check one still works after a fault. */
const PROBE = { a: [1, -0, 2.5, 'x\u00e9\ud83d\ude00"\n', null, true], b: { c: {}, d: [] }, e: 1e300 };
const PROBE_TEXT = JSON.stringify(PROBE);

function expectWorks(codec: Codec) {
  expect(codec.parse(PROBE_TEXT)).toStrictEqual(JSON.parse(PROBE_TEXT));
  expect(codec.parse(utf8(PROBE_TEXT))).toStrictEqual(JSON.parse(PROBE_TEXT));
  expect(codec.validate(PROBE_TEXT)).toBe(true);
  expect(codec.stringify(PROBE)).toBe(PROBE_TEXT);
  expect(codec.stringify(PROBE, null, 2)).toBe(JSON.stringify(PROBE, null, 2));
  expect(decode(codec.encode(PROBE))).toBe(PROBE_TEXT);
  // And a document of a few MB, which needs the input and tape buffers to be sound.
  const mid = JSON.stringify(bigValue(20_000, 'm'));
  expect(JSON.stringify(codec.parse(utf8(mid)))).toBe(mid);
  expect(codec.stringify(JSON.parse(mid))).toBe(mid);
}

/** Allocates n bytes, or null when this engine cannot make an ArrayBuffer that large. */
function tryAlloc(n: number): Uint8Array | null {
  try {
    return new Uint8Array(n);
  } catch (e) {
    if (e instanceof RangeError) return null;
    throw e;
  }
}

for (const flavor of FLAVORS) {
  describe(`wasm faults (${flavor})`, () => {
    it('memory growth inside a reviver: the outer walk, its source texts and the nested results are exact', async () => {
      const codec = await load({ flavor });
      const bigText = JSON.stringify(bigValue(50_000, 'p'));
      expect(bigText.length).toBeGreaterThan(3 * INITIAL_MEMORY); // the nested parse must grow memory
      const bigBytes = utf8(bigText);
      const biggerText = JSON.stringify(bigValue(100_000, 'r'));
      const smallText = JSON.stringify(bigValue(50, 's'));
      const outerText =
        '{"a":[1,2.5,"x\\n",{"k":"v","n":null}],"b":{"c":[true,false],"d":"😀"},"e":[[1],[2,[3]]],"z":"last"}';

      // The same reviver for native and ours; `p` parses the nested documents.
      const walk = (p: (t: string | Uint8Array, r?: any) => unknown) => {
        const log: unknown[] = [];
        const nested: string[] = [];
        const result = p(outerText, function (this: unknown, key: string, value: unknown, context: { source?: string }) {
          log.push([key, structuredClone(value), context?.source]);
          if (key === 'k') nested.push(JSON.stringify(p(bigText)));
          if (key === 'c') nested.push(JSON.stringify(p(bigBytes)));
          if (key === 'd') {
            // A nested parse whose own reviver parses a document twice as big (growing
            // memory again, or at least reusing it after the first growth).
            nested.push(JSON.stringify(p(smallText, (k: string, v: unknown) => (k === 'tiny' && v === 0 ? (p(biggerText) as unknown[]).length : v))));
          }
          return typeof value === 'number' ? value * 3 : value;
        });
        return { log, nested, result };
      };
      const nativeParse = (t: string | Uint8Array, r?: any) => JSON.parse(typeof t === 'string' ? t : decode(t), r);
      const ours = walk((t, r) => codec.parse(t, r));
      const native = walk(nativeParse);
      expect(ours.log).toStrictEqual(native.log);
      expect(ours.result).toStrictEqual(native.result);
      expect(ours.nested.length).toBe(3);
      for (let i = 0; i < 3; i++) expect(ours.nested[i] === native.nested[i], `nested document ${i}`).toBe(true);
      expectWorks(codec);
    });

    it('memory growth inside toJSON and a replacer: stringify and encode output is exact', async () => {
      const codec = await load({ flavor });
      const bigText = JSON.stringify(bigValue(50_000, 'g'));
      expect(bigText.length).toBeGreaterThan(3 * INITIAL_MEMORY);
      const bigVal = JSON.parse(bigText);
      // Strings and keys before, inside and after the growing calls, so the outer call has
      // a batch of commands and string data pending in JS while memory grows under it.
      const before = { text: 'before\u00e9"\n'.repeat(50), list: [1, 2.5, -0, 'x'] };
      const make = (p: (t: string) => unknown, s: (v: unknown, r?: any, sp?: any) => string) => ({
        before,
        parsed: { toJSON: () => (p(bigText) as unknown[]).length },
        serialized: { toJSON: () => s(bigVal).length },
        pretty: { toJSON: () => s(bigVal, null, 2).length },
        after: [before, 'tail\ud800', { k: 'v'.repeat(10_000) }],
      });
      const ours = make((t) => codec.parse(t), (v, r, sp) => codec.stringify(v, r, sp));
      const native = make((t) => JSON.parse(t), (v, r, sp) => JSON.stringify(v, r, sp));
      const expected = JSON.stringify(native);
      expect(codec.stringify(ours)).toBe(expected);
      expect(codec.stringify(ours, null, '\t')).toBe(JSON.stringify(native, null, '\t'));
      expect(decode(codec.encode(ours))).toBe(expected); // lone surrogates are escaped, so the bytes are ASCII there
      // A replacer that parses and serializes big documents for every key of an object.
      const replacer = (f: typeof codec.parse, g: typeof codec.stringify) => (key: string, value: unknown) =>
        key.startsWith('r') ? [(f(bigText) as unknown[]).length, g(bigVal).length, key] : value;
      const withKeys = { r1: 1, plain: 'é', r2: [1, 2], r3: { x: 'y' } };
      expect(codec.stringify(withKeys, replacer((t) => codec.parse(t), (v) => codec.stringify(v)))).toBe(
        JSON.stringify(withKeys, replacer((t) => JSON.parse(t as string), (v) => JSON.stringify(v))),
      );
      expectWorks(codec);
    });

    it('out of memory, parse: a document of 4 GiB or more is a RangeError and the instance stays usable', async () => {
      const codec = await load({ flavor });
      expectWorks(codec);
      // Zero-filled ArrayBuffers are not touched, so these cost no real memory. Just under
      // 2^32 bytes: the allocation fails in wasm. 2^32 and more: wasm32 cannot even ask
      // for it (a 32-bit size once wrapped around here and left the instance corrupt).
      const sizes = [4_000_000_000, 2 ** 32 - 64, 2 ** 32 + 16];
      const tested: number[] = [];
      for (const size of sizes) {
        const huge = tryAlloc(size);
        if (!huge) continue; // this engine cannot make the ArrayBuffer at all
        tested.push(size);
        expect(() => codec.parse(huge), `parse ${size}`).toThrow(RangeError);
        expect(() => codec.parse(huge), `parse ${size}`).toThrow(OOM_MESSAGE);
        expect(() => codec.parse(huge), `parse ${size}`).toThrow(`a document of ${size} bytes`);
        expect(() => codec.validate(huge), `validate ${size}`).toThrow(OOM_MESSAGE);
        expect(() => codec.minify(huge), `minify ${size}`).toThrow(OOM_MESSAGE);
        expectWorks(codec);
      }
      // Node 26 and Chromium 156 make all three (V8 allows ArrayBuffers past 4 GiB).
      expect(tested).toStrictEqual(sizes);
    });

    it('out of memory, stringify and encode: output that cannot fit is a RangeError and the instance stays usable', async () => {
      const codec = await load({ flavor });
      expectWorks(codec);
      // One string of 360 million units: escaping reserves 6 bytes a unit (over 2 GiB of
      // output room on top of the string itself), more than wasm32 can hold.
      let long: string | undefined = 'x'.repeat(360_000_000);
      // (The message speaks of the output: a serializer does not know its final size.)
      expect(() => codec.stringify(['start', long, 'end']), 'stringify').toThrow(OOM_MESSAGE);
      expect(() => codec.stringify(['start', long, 'end']), 'stringify').toThrow(/^wasmjson: the output and its/);
      expectWorks(codec);
      expect(() => codec.encode({ key: long }), 'encode').toThrow(/^wasmjson: the output and its working buffers do not fit/);
      long = undefined;
      expectWorks(codec);
    });
  });
}
