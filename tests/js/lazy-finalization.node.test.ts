// The safety net of lazy documents (a FinalizationRegistry): a document never freed
// gives its wasm memory back once collected, and one freed gives it back once only.
// Node only: it forces collections (gc() through V8's flag) and reads the instance's
// memory size, taken from WebAssembly.instantiate while the codec loads.
import v8 from 'node:v8';
import vm from 'node:vm';
import { describe, expect, it } from 'vitest';
import { watchedCodec } from './support/watched-codec.js';

v8.setFlagsFromString('--expose-gc');
const gc = vm.runInNewContext('gc') as () => void;

/** Collections, with the tasks between them where finalization callbacks run. */
async function collect(): Promise<void> {
  for (let i = 0; i < 3; i++) {
    gc();
    await new Promise((resolve) => setTimeout(resolve, 0));
  }
}

const MiB = 1024 * 1024;

describe('lazy documents: the FinalizationRegistry safety net', () => {
  it('a document never freed gives its memory back once it is collected', async () => {
    const { codec, memory } = await watchedCodec('swar64');
    const text = JSON.stringify({ a: 'x'.repeat(MiB), b: [1, 2, 3] });
    // 160 documents of 1 MiB each, never freed: kept, they would need 160 MiB.
    for (let round = 0; round < 32; round++) {
      for (let i = 0; i < 5; i++) {
        const doc = codec.lazy(text) as { get(k: string): unknown };
        expect((doc.get('b') as { toJS(): unknown }).toJS()).toStrictEqual([1, 2, 3]);
      }
      await collect();
    }
    expect(memory.buffer.byteLength).toBeLessThan(80 * MiB);
  });

  it('a document made after one was freed, itself never freed, gives its memory back once collected', async () => {
    // (The freed one's registration with the registry serves the next document.)
    const { codec, live } = await watchedCodec('swar64', { faults: true });
    const text = JSON.stringify({ a: [1, 2, 3], s: 'x'.repeat(1000) });
    // (The first call allocates what the codec keeps: scratch buffers.)
    const first = codec.lazy(text) as { get(k: string): { toJS(): unknown }; free(): void };
    first.get('a').toJS();
    first.free();
    await collect();
    const before = live();
    for (let round = 0; round < 4; round++) {
      const start = live();
      for (let i = 0; i < 25; i++) {
        const freed = codec.lazy(text) as { free(): void };
        freed.free();
        // (Freed at once; the documents dropped so far this round are not collected yet.)
        expect(live()).toBe(start + i);
        const dropped = codec.lazy(text) as { get(k: string): { toJS(): unknown } };
        expect(dropped.get('a').toJS()).toStrictEqual([1, 2, 3]);
      }
      expect(live()).toBe(start + 25);
      await collect();
      // Collected and released: all but perhaps the last, which the suspended test
      // function's frame may still hold.
      expect(live()).toBeLessThanOrEqual(before + 1);
    }
  });

  it('more documents freed at once than are made next: none is released again when collected', async () => {
    // (Slots of freed documents wait for the next ones, up to a number; the rest are
    // collected with their documents, and must release nothing.)
    const { codec } = await watchedCodec('swar64');
    const texts = Array.from({ length: 3 }, (_, k) => JSON.stringify({ k, s: String(k).repeat(2000) }));
    type Doc = { toJS(): unknown; free(): void };
    for (let round = 0; round < 3; round++) {
      let old: Doc[] | undefined = Array.from({ length: 200 }, () => codec.lazy(texts[0]) as Doc);
      for (const d of old) d.free();
      // Likely in the buffers the freed ones had.
      const kept = Array.from({ length: 200 }, () => codec.lazy(texts[1]) as Doc);
      old = undefined;
      await collect();
      // Were a freed buffer released again, these would take the kept ones'.
      const more = Array.from({ length: 200 }, () => codec.lazy(texts[2]) as Doc);
      for (const d of kept) expect(d.toJS()).toStrictEqual(JSON.parse(texts[1]));
      for (const d of more) expect(d.toJS()).toStrictEqual(JSON.parse(texts[2]));
      for (const d of [...kept, ...more]) d.free();
    }
  });

  it('a freed document is released once: its collection later frees no one else', async () => {
    const { codec } = await watchedCodec('swar64');
    const texts = Array.from({ length: 3 }, (_, i) => JSON.stringify({ i, s: String(i).repeat(100_000) }));
    for (let round = 0; round < 10; round++) {
      let first: { free(): void } | undefined = codec.lazy(texts[0]) as { free(): void };
      const firstCollected = new WeakRef(first);
      first.free();
      // Likely in the buffer the first one had.
      const second = codec.lazy(texts[1]) as { toJS(): unknown };
      first = undefined;
      await collect();
      // (Collected, so its registry entry is due: the check below then means something.)
      expect(firstCollected.deref()).toBeUndefined();
      // Were the first document's buffer released again, this one would take the second's.
      const third = codec.lazy(texts[2]) as { toJS(): unknown; free(): void };
      expect(second.toJS()).toStrictEqual(JSON.parse(texts[1]));
      expect(third.toJS()).toStrictEqual(JSON.parse(texts[2]));
      (second as unknown as { free(): void }).free();
      third.free();
    }
  });
});
