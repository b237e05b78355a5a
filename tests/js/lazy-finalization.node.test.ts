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
