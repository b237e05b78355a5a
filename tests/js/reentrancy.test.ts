// Reentrancy under random load: user code that the library runs (revivers, replacers,
// toJSON, getters of values and of options, valueOf and toString of boxed primitives,
// inputs and keys, proxy traps, a LazyNode's iteration) calls back into the library at
// random moments, down to depth 3, with every API function on random documents, valid
// and invalid, small, medium and (in one case of LARGE_EVERY, on fresh codecs, so wasm
// memory grows in the middle of the outer call) large; lazy documents made before the
// outer call are used and freed from inside it. Every call, outer and nested, must
// give what it gives without the nesting, checked against expectations made without
// the library (tests/js/support/reentrancy-cases.ts, shared with tests/reentrancy.mjs,
// which runs many more of the same cases on demand).
// (The targeted reentrancy tests are in parse.test.ts, stringify.test.ts and
// wasm-faults.test.ts.)
import { describe, expect, it } from 'vitest';
import { LazyNode, load, type Codec } from 'wasmjson';
import { codecFor, FLAVORS } from './support/flavors.js';
import { Rng } from './support/random-json.js';
import { isLargeCase, LARGE_EVERY, Mismatch, runCase, type Counts } from './support/reentrancy-cases.js';

const CASES = 400;
const SEED = 20261201;

describe('reentrancy: random nested calls from every kind of callback', () => {
  it(`${CASES} seeded cases (seed ${SEED}), each on both flavors`, async () => {
    let codecs: Codec[] = await Promise.all(FLAVORS.map(codecFor));
    const counts: Counts = { outer: 0, nested: 0, checks: 0, large: 0 };
    const rng = new Rng(SEED);
    for (let n = 1; n <= CASES; n++) {
      const caseSeed = rng.int(2 ** 31);
      const large = isLargeCase(n);
      // Fresh codecs (2 MiB of wasm memory): the large document grows it mid-call.
      if (large) codecs = await Promise.all(FLAVORS.map((flavor) => load({ flavor })));
      for (const codec of codecs) {
        try {
          runCase({ codec, LazyNode }, caseSeed, large, counts);
        } catch (e) {
          if (!(e instanceof Mismatch)) throw e;
          // (The script draws case seeds as this loop does: it replays the case.)
          expect.fail(`case ${n} of seed ${SEED}, ${codec.flavor} (ONLY_CASE=${n} node tests/reentrancy.mjs ${n} ${SEED}): ${e.message}`);
        }
      }
    }
    // The cases did what they are for: nested calls, large documents among them.
    expect(counts.outer).toBe(CASES * FLAVORS.length);
    expect(counts.nested).toBeGreaterThan(CASES);
    expect(counts.large).toBeGreaterThan(CASES / LARGE_EVERY);
    expect(counts.checks).toBeGreaterThan(4 * CASES);
  });
});
