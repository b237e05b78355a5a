// Calls cut off part way (a stack overflow can strike at any call: a program that
// recurses until it overflows, catches the RangeError and calls the library on its way
// back up) give back what they allocated in wasm memory. A buffer taken before the
// call's own try/finally began was lost at each such throw: a nested stringify's write
// session (in one such program, about 4,000 a second, until wasm memory was full and
// every later nested call, and every large one, failed for good), and the copy of a
// lazy document's input (freed by the next call that copies an input).
// The cut is injected (support/watched-codec.ts): right after the allocation, the next
// read of the memory's buffer throws, as an overflow at that point would.
import { describe, expect, it } from 'vitest';
import { LazyNode } from 'wasmjson';
import { INJECTED, watchedCodec } from './support/watched-codec.js';

const inner = { a: [1, { b: 'x' }], s: 'é' };

describe('calls cut off right after an allocation free it', () => {
  for (const flavor of ['simd128', 'swar64'] as const) {
    it(`a nested stringify, encode or canonicalize: its write session (${flavor})`, async () => {
      const { codec, live, arm, fired } = await watchedCodec(flavor, { faults: true });
      for (const serialize of [codec.stringify, codec.encode, codec.canonicalize]) {
        // The outermost call reuses the idle session; a nested one makes its own.
        const outer = {
          o: {
            toJSON() {
              arm();
              return serialize(inner);
            },
          },
        };
        expect(codec.stringify({ warm: [1, 'x'] })).toBe('{"warm":[1,"x"]}');
        const before = live();
        expect(() => serialize(outer)).toThrow(INJECTED);
        expect(fired()).toBe(true);
        expect(live()).toBe(before);
      }
      expect(codec.stringify({ o: { toJSON: () => codec.stringify(inner) } })).toBe(JSON.stringify({ o: JSON.stringify(inner) }));
    });

    it(`lazy(): the input's copy, a buffer of its own (${flavor})`, async () => {
      const { codec, live, arm, fired } = await watchedCodec(flavor, { faults: true });
      const text = JSON.stringify({ k: ['é', 2, { z: 'ü'.repeat(40) }] });
      // (Its lookups keep a buffer for keys, and toJS() the scratch buffer: taken first.)
      const use = (input: string | Uint8Array) => {
        const doc = codec.lazy(input) as LazyNode;
        expect((doc.get('k') as LazyNode).toJS()).toStrictEqual(JSON.parse(text).k);
        doc.free();
      };
      for (const input of [text, new TextEncoder().encode(text)]) {
        use(input);
        const before = live();
        arm();
        expect(() => codec.lazy(input)).toThrow(INJECTED);
        expect(fired()).toBe(true);
        // (Freed by the next copy of an input: no try/catch on the path of every call.)
        use(input);
        expect(live()).toBe(before);
      }
    });
  }
});
