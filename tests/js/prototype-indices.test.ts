// Index properties on Object.prototype or Array.prototype (what a prototype-polluting
// merge leaves behind, `Object.prototype[1] = ...`, or accessors defined there) change
// nothing native JSON does: JSON.parse defines its properties and elements, and reads
// only its own. Every function here must be just as blind to them: the library's own
// arrays and tables must never read an element they do not have (it would come from the
// prototype) nor store one past their end (a setter there would take it).
//
// Each check pollutes, runs every operation synchronously, and cleans up before any
// assertion: the test runner itself runs in this realm.
import { describe, expect, it } from 'vitest';
import { load, type Codec, type LazyValue } from 'wasmjson';
import { codecFor, FLAVORS } from './support/flavors.js';
import { randomDocument, Rng } from './support/random-json.js';

/** Indices polluted: past every internal stack and table these documents fill. */
const POLLUTED = 3000;
const MARK = 'polluted';

type Pollution = 'data' | 'accessors';

/** Pollutes both prototypes at [0, POLLUTED); returns the undo and the setter call count. */
function pollute(kind: Pollution): { undo: () => void; setterCalls: () => number } {
  let calls = 0;
  const prototypes = [Object.prototype, Array.prototype] as Record<number, unknown>[];
  for (const proto of prototypes) {
    for (let i = 0; i < POLLUTED; i++) {
      if (kind === 'data') {
        // As `Object.prototype[i] = MARK` makes it: writable, enumerable, configurable.
        Object.defineProperty(proto, i, { value: `${MARK}${i}`, writable: true, enumerable: true, configurable: true });
      } else {
        Object.defineProperty(proto, i, {
          get: () => `${MARK}${i}`,
          set: () => {
            calls++;
          },
          enumerable: false,
          configurable: true,
        });
      }
    }
  }
  return {
    undo: () => {
      for (const proto of prototypes) for (let i = 0; i < POLLUTED; i++) delete proto[i];
      // Array.prototype is an array: defining index i made its length i + 1.
      (Array.prototype as unknown as { length: number }).length = 0;
    },
    setterCalls: () => calls,
  };
}

/** Every operation on one document; each result made comparable (bytes as text, errors as class and message). */
function operations(c: Codec, text: string): Record<string, () => unknown> {
  const bytes = new TextEncoder().encode(text);
  const value = JSON.parse(text);
  const keysOf = (v: unknown) => (v && typeof v === 'object' ? Object.keys(v) : []);
  return {
    'parse(text)': () => c.parse(text),
    'parse(bytes)': () => c.parse(bytes),
    'parse(bytes, each string decoded)': () => c.parse(bytes, { stringDecoding: 'each' }),
    'parse(text, reviver)': () => c.parse(text, (_k, v) => v),
    'parse(text, reviver reading sources)': () => {
      // (This test's own code appends by concatenation too: push would meet the setters.)
      let sources = '';
      const out = c.parse(text, function (this: unknown, k: string, v: unknown, ctx?: { source?: string }) {
        sources += `${k}=${ctx?.source};`;
        return v;
      });
      return [out, sources];
    },
    'parse(text, bigint)': () => c.parse(text, { bigint: 'always' }),
    'parse(text, checks)': () =>
      c.parse(text, { duplicateKeys: 'error', protoAction: 'remove', constructorAction: 'remove', maxDepth: 100 }),
    'parse(invalid text)': () => c.parse(`${text}]`),
    'validate(invalid, explain)': () => c.validate(`[${text}`, { explain: true }),
    // JSON.stringify itself reads properties through prototypes (a key list's keys,
    // holes): these compare with it under the same pollution.
    'stringify(value)': () => sameAsNative(c.stringify(value), JSON.stringify(value)),
    'stringify(value, null, 2)': () => sameAsNative(c.stringify(value, null, 2), JSON.stringify(value, null, 2)),
    'stringify(value, replacer)': () => sameAsNative(c.stringify(value, (_k, v) => v), JSON.stringify(value, (_k, v) => v)),
    'stringify(value, key list)': () =>
      sameAsNative(c.stringify(value, keysOf(value).slice(0, 3)), JSON.stringify(value, keysOf(value).slice(0, 3))),
    'encode(value)': () => sameAsNative(new TextDecoder().decode(c.encode(value)), JSON.stringify(value)),
    'canonicalize(value)': () => c.canonicalize(value),
    'canonicalize(text)': () => c.canonicalize(text),
    'minify(text)': () => c.minify(text),
    'minify(bytes)': () => new TextDecoder().decode(c.minify(bytes)),
    'prettify(bytes)': () => new TextDecoder().decode(c.prettify(bytes)),
    'validate(text)': () => c.validate(text),
    'prettify(text)': () => c.prettify(text, { indent: 3 }),
    'at(text, first key or index)': () => c.at(text, Array.isArray(value) ? '/0' : `/${keysOf(value)[0] ?? 'x'}`),
    'lazy: toJS, keys, walk': () => {
      const doc = c.lazy(text);
      try {
        const walk = (v: LazyValue | undefined, depth: number): unknown => {
          if (!(v && typeof v === 'object' && 'kind' in v) || depth > 3) return v;
          const node = v as unknown as { kind: string; length: number; keys(): string[]; get(k: string | number): LazyValue | undefined; toJS(): unknown };
          let parts: unknown[] = [node.kind, node.length];
          if (node.kind === 'array') for (let i = 0; i < Math.min(node.length, 4); i++) parts = parts.concat([walk(node.get(i), depth + 1)]);
          else for (const k of node.keys().slice(0, 4)) parts = parts.concat([k, walk(node.get(k), depth + 1)]);
          return parts.concat([node.toJS()]);
        };
        return walk(doc as unknown as LazyValue, 0);
      } finally {
        (doc as unknown as { free?: () => void }).free?.();
      }
    },
  };
}

function sameAsNative(ours: string | undefined, native: string | undefined): unknown {
  return ours === native ? 'same as JSON.stringify' : { ours, native };
}

function runAll(ops: Record<string, () => unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [name, fn] of Object.entries(ops)) {
    try {
      out[name] = { value: fn() };
    } catch (e) {
      out[name] = { threw: (e as Error)?.constructor?.name, message: (e as Error)?.message };
    }
  }
  return out;
}

function documents(): string[] {
  const rng = new Rng(0x9e3779b9);
  const docs = [
    '[1,2,3]',
    '[[1,2],[3,4,5,6,7,8]]',
    '{"a":[true,"s",null],"b":{"1":2,"0":"z"},"c":[]}',
    '[{"k":1,"m":"x"},{"k":2,"m":"y"},{"k":3,"m":"z"},{"k":4,"m":"w"}]',
    '{"1":5,"2":[1.5,-0,1e300],"__proto__":{"x":1},"constructor":{"prototype":1}}',
    '[1.5,2,null,true,false,0.25,7]',
    '["s\\u00e9\\n",{"k\\"":"v"},123456789012345678901234567890]',
  ];
  // Wide documents: stacks and tables grow past a few hundred entries.
  docs.push(JSON.stringify(Array.from({ length: 600 }, (_, i) => ({ [`k${i % 40}`]: i, n: [i, i / 4, `s${i}`] }))));
  docs.push(JSON.stringify(Object.fromEntries(Array.from({ length: 300 }, (_, i) => [`key${i}`, [i, { i }]]))));
  // More keys and shapes than the codec's key cache holds at first: it grows (under the
  // pollution, in the codec made for that run).
  docs.push(JSON.stringify(Array.from({ length: 1500 }, (_, i) => ({ [`w${i}`]: i, [`v${i % 7}`]: [i] }))));
  // Past 64 KiB of strings, some not ASCII: parse reads them from wasm in pieces.
  docs.push(JSON.stringify(Array.from({ length: 3000 }, (_, i) => ({ name: `n\u00e9${i}`.repeat(4), id: i, tags: ['a', 'b\u2028'] }))));
  for (let i = 0; i < 12; i++) docs.push(randomDocument(rng).text);
  return docs;
}

describe('index properties on Object.prototype and Array.prototype change nothing', () => {
  for (const flavor of FLAVORS) {
    for (const kind of ['data', 'accessors'] as Pollution[]) {
      it(`${flavor}: ${kind} at indices 0..${POLLUTED - 1}`, async () => {
        const c = await codecFor(flavor);
        const docs = documents();
        const expected = docs.map((text) => runAll(operations(c, text)));
        const nativeExpected = docs.map((text) => JSON.parse(text));
        // A codec of its own for the polluted run, made before it: every key, shape and
        // stack table it grows (they start small), it grows under the pollution.
        const fresh = await load({ flavor });
        const { undo, setterCalls } = pollute(kind);
        let got: Record<string, unknown>[];
        let nativeGot: unknown[];
        try {
          got = docs.map((text) => runAll(operations(fresh, text)));
          nativeGot = docs.map((text) => JSON.parse(text));
        } finally {
          undo();
        }
        // The pollution is real: native JSON.parse is blind to it, and so must we be.
        expect(nativeGot).toEqual(nativeExpected);
        // Every operation that differs, listed at once.
        const differing: string[] = [];
        for (let d = 0; d < docs.length; d++) {
          for (const op of Object.keys(expected[d])) {
            try {
              expect(got[d][op]).toEqual(expected[d][op]);
            } catch {
              differing.push(`${op} on document ${d} (${docs[d].slice(0, 40)}): ${JSON.stringify(got[d][op]).slice(0, 120)}`);
            }
          }
        }
        expect(differing).toEqual([]);
        expect(setterCalls()).toBe(0);
      });
    }
  }

  it('the pollution reaches ordinary code (the check can fail)', () => {
    const { undo } = pollute('data');
    let holeRead: unknown;
    try {
      holeRead = new Array(3)[1];
    } finally {
      undo();
    }
    expect(holeRead).toBe(`${MARK}1`);
  });
});
