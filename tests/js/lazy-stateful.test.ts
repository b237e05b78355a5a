// Lazy documents under a stateful random run: many documents alive at once, child nodes
// and partly consumed iterators held across steps, documents freed (by any node, by
// `using`, inside replacers) while others are in use, and other API calls between that
// grow wasm memory. The step machine and its model are tests/js/support/lazy-steps.ts;
// tests/lazy-stateful.mjs runs it long, on demand, with both flavors in one pool and its
// wasm allocations counted.
import { describe, expect, it } from 'vitest';
import { LazyNode } from 'wasmjson';
import { codecFor, FLAVORS } from './support/flavors.js';
import { LazyStepMachine, type StepCodec } from './support/lazy-steps.js';
import { watchedCodec } from './support/watched-codec.js';

const STEPS = 4000;
const NodeBuffer = (globalThis as { Buffer?: { from(text: string, encoding: string): Uint8Array } }).Buffer;

for (const [i, flavor] of FLAVORS.entries()) {
  describe(`lazy documents, stateful (${flavor})`, () => {
    it(`${STEPS} random steps agree with the model (seeded)`, async () => {
      const codec = (await codecFor(flavor)) as unknown as StepCodec;
      const machine = new LazyStepMachine({
        codecs: [codec],
        LazyNode,
        seed: 1000 + i,
        // Large documents of 1-2 MB, a few per run: memory grows part way.
        bigRate: 0.01,
        bigMin: 1_000_000,
        bigMax: 2_000_000,
        NodeBuffer,
      });
      const stats = await machine.run(STEPS);
      expect(stats.steps).toBe(STEPS);
      // (The run reached what it is for: frees, uses after them, iterators, nesting.)
      expect(stats.freedErrors).toBeGreaterThan(100);
      for (const op of ['free', 'iterator-next', 'scoped', 'stringify-reentrant', 'parse-reentrant']) expect(stats.ops[op] ?? 0, op).toBeGreaterThan(0);
    });

    it('with every document freed, the codec keeps only its own buffers (a codec of its own, allocations counted)', async () => {
      // (Faults are never armed: the wrapper only counts what the JS side allocates.)
      const watched = await watchedCodec(flavor, { faults: true });
      const machine = new LazyStepMachine({
        codecs: [watched.codec as unknown as StepCodec],
        LazyNode,
        seed: 2000 + i,
        bigRate: 0.01,
        bigMin: 1_000_000,
        bigMax: 2_000_000,
        checkpointEvery: 500,
        // (The scratch and key buffers, prettify's indent, and a pooled writer session.)
        codecKeeps: 4,
        NodeBuffer,
        // (Container-end indexes are allocated in wasm: not counted here; the script counts them.)
        probe: () => ({ memoryBytes: () => watched.memory.buffer.byteLength, liveAllocations: watched.live, endsBuilt: () => 0, endsFreed: () => 0 }),
      });
      const stats = await machine.run(1500);
      expect(stats.checkpoints.length).toBe(3);
      for (const c of stats.checkpoints) expect(c.liveAllocations[0]).toBeLessThanOrEqual(4);
    });
  });
}
