// canonicalize(): RFC 8785 (JCS) — the conformance vectors byte for byte, agreement with
// the canonicalize npm package on generated values, and JCS's errors.
import { describe, expect, it } from 'vitest';
import referenceCanonicalize from 'canonicalize';
import { readShared } from '#files';
import { sharedNames } from './support/shared.js';
import * as wasmjson from 'wasmjson';
import { codecFor, FLAVORS } from './support/flavors.js';

const utf8 = new TextEncoder();
const fromUtf8 = new TextDecoder();

function* values(count: number): Generator<unknown> {
  let seed = 7;
  const rnd = (n: number) => {
    seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
    return seed % n;
  };
  const strings = ['', 'a', 'é', '😀', '\u20ac', '\ufb33', '\r', '\n', '\u0080', '</script>', 'ключ', 'B', 'b', '1', '10', '2'];
  const numbers = [0, -0, 1, -1, 0.1, 1e21, 1e-7, 5e-324, 1.7976931348623157e308, 123456789012345680000, 333333333.3333333, 2 ** 53 + 2];
  const value = (depth: number): unknown => {
    const k = rnd(depth > 4 ? 4 : 7);
    if (k === 0) return [null, true, false][rnd(3)];
    if (k === 1) return numbers[rnd(numbers.length)] * (rnd(2) ? 1 : -1);
    if (k === 2 || k === 3) return strings[rnd(strings.length)] + strings[rnd(strings.length)];
    if (k === 4) return Array.from({ length: rnd(4) }, () => value(depth + 1));
    const o: Record<string, unknown> = {};
    for (let i = rnd(6); i > 0; i--) o[strings[rnd(strings.length)] + strings[rnd(strings.length)]] = value(depth + 1);
    return o;
  };
  for (let i = 0; i < count; i++) yield value(0);
}

for (const flavor of FLAVORS) {
  describe(`canonicalize (${flavor})`, async () => {
    const codec = await codecFor(flavor);

    it('reproduces every RFC 8785 vector byte for byte, from text and from bytes', async (ctx) => {
      const names = await sharedNames(ctx, 'conformance/jcs/input');
      for (const name of names) {
        const input = await readShared(`conformance/jcs/input/${name}`);
        const expected = await readShared(`conformance/jcs/output/${name}`);
        expect(codec.canonicalize(fromUtf8.decode(input)), name).toBe(fromUtf8.decode(expected));
        expect(codec.canonicalize(input), name).toStrictEqual(expected);
        expect(codec.canonicalize(JSON.parse(fromUtf8.decode(input))), name).toBe(fromUtf8.decode(expected));
      }
    });

    it('agrees with the canonicalize package on generated values and their JSON text', () => {
      for (const v of values(2000)) {
        const expected = referenceCanonicalize(v);
        // A string argument is JSON text; other values are values.
        if (typeof v !== 'string') expect(codec.canonicalize(v)).toBe(expected);
        expect(codec.canonicalize(JSON.stringify(v, null, 2))).toBe(expected);
        expect(fromUtf8.decode(codec.canonicalize(utf8.encode(JSON.stringify(v))))).toBe(expected);
      }
    });

    it('sorts keys by UTF-16 code units, not code points', () => {
      // U+FB33 sorts after U+1F602's high surrogate (D83D) only by code points; JCS uses units.
      expect(codec.canonicalize({ '\ufb33': 1, '\ud83d\ude02': 2, '\u20ac': 3 })).toBe('{"\u20ac":3,"\ud83d\ude02":2,"\ufb33":1}');
      expect(codec.canonicalize({ b: 1, a: 2, 10: 3, 9: 4 })).toBe('{"10":3,"9":4,"a":2,"b":1}');
    });

    it('converts values as JSON.stringify does', () => {
      const v = {
        d: new Date(0),
        n: new Number(2),
        s: new String('x'),
        u: undefined,
        f() {},
        arr: [undefined, () => 1, Symbol('s'), -0],
        t: { toJSON: (k: string) => `key:${k}` },
      };
      expect(codec.canonicalize(v)).toBe('{"arr":[null,null,null,0],"d":"1970-01-01T00:00:00.000Z","n":2,"s":"x","t":"key:t"}');
      expect(codec.canonicalize(undefined)).toBeUndefined();
      expect(codec.canonicalize(3.0)).toBe('3');
      // A function is an object: its toJSON counts, as in JSON.stringify.
      const f = Object.assign(() => 0, { toJSON: () => 'F' });
      expect(codec.canonicalize({ a: f, b: [f] })).toBe(JSON.stringify({ a: f, b: [f] }));
    });

    it('takes byte containers as JSON text (bytes out), and an ArrayBuffer given a plain prototype as a value', () => {
      const text = '{"b":1,"a":2}';
      const bytes = new TextEncoder().encode(text);
      for (const input of [bytes, bytes.buffer, new DataView(bytes.buffer)]) {
        const out = codec.canonicalize(input);
        expect(out).toBeInstanceOf(Uint8Array);
        expect(new TextDecoder().decode(out as Uint8Array)).toBe('{"a":2,"b":1}');
      }
      // Arrays and objects whose prototype is Object.prototype or null are told from
      // byte containers by that alone (codec.ts, asBytes): such a buffer is a value,
      // with no own enumerable property, as JSON.stringify sees it.
      for (const proto of [Object.prototype, null]) {
        const buffer = Object.setPrototypeOf(new TextEncoder().encode(text).buffer, proto) as object;
        expect(codec.canonicalize(buffer)).toBe('{}');
        expect(codec.canonicalize({ k: buffer })).toBe('{"k":{}}');
      }
      // A typed array of other elements is a value too (an object of indexed members).
      expect(codec.canonicalize(new Uint16Array([3, 1]))).toBe('{"0":3,"1":1}');
    });

    it('runs getters and toJSON in the order JSON.stringify does, so that what they change is seen as JSON.stringify sees it', () => {
      // Each maker gives a fresh value whose user code logs its calls and changes members
      // not yet read (it ran in sorted order before: the first gave "a":1, the second
      // dropped b, the third kept "orig").
      const makers: ((log: string[]) => unknown)[] = [
        (log) => {
          const o: Record<string, unknown> = {
            get b() {
              log.push('b');
              o.a = 2;
              return 0;
            },
            a: 1,
          };
          return o;
        },
        (log) => ({
          b: 1,
          get a() {
            log.push('a');
            delete (this as Record<string, unknown>).b;
            return 1;
          },
        }),
        (log) => {
          const o: Record<string, unknown> = {};
          o.z = {
            toJSON() {
              log.push('z');
              o.a = 'changed';
              return { y: { get q() { log.push('q'); o.m = [3]; return 1; } }, x: 0 };
            },
          };
          o.m = [1, { toJSON: () => (log.push('m1'), 'M') }];
          o.a = 'orig';
          return o;
        },
        (log) => [{ toJSON: () => (log.push('0'), { k: 1 }) }, { get j() { log.push('1'); return undefined; }, i: 2 }],
      ];
      for (const make of makers) {
        const nativeLog: string[] = [];
        const text = JSON.stringify(make(nativeLog));
        const log: string[] = [];
        expect(codec.canonicalize(make(log))).toBe(codec.canonicalize(text));
        expect(log).toStrictEqual(nativeLog);
      }
    });

    it('rejects what JCS forbids', () => {
      expect(() => codec.canonicalize({ a: NaN })).toThrow(/NaN, which JCS forbids/);
      expect(() => codec.canonicalize([Infinity])).toThrow(TypeError);
      expect(() => codec.canonicalize('[1e400]')).toThrow(/Infinity/);
      expect(() => codec.canonicalize('"\\ud800"')).toThrow(/lone surrogate/);
      expect(() => codec.canonicalize({ '\udc00': 1 })).toThrow(/lone surrogate/);
      expect(() => codec.canonicalize(10n)).toThrow(/BigInt/);
      const cyclic: any = { a: [] };
      cyclic.a.push(cyclic);
      expect(() => codec.canonicalize(cyclic)).toThrow(/circular/);
      expect(() => codec.canonicalize('{"a":')).toThrow(SyntaxError);
    });

    it('names the place of what JCS forbids in a value, and runs no user code past a non-finite number', () => {
      expect(() => codec.canonicalize({ a: [1, NaN] })).toThrow(/^wasmjson\.canonicalize: the value at "1" is NaN, which JCS forbids$/);
      expect(() => codec.canonicalize(-Infinity)).toThrow(/^wasmjson\.canonicalize: the value is -Infinity, which JCS forbids$/);
      expect(() => codec.canonicalize({ n: new Number(Infinity) })).toThrow(/the value at "n" is Infinity/);
      expect(() => codec.canonicalize({ t: { toJSON: () => NaN } })).toThrow(/the value at "t" is NaN/);
      let later = false;
      const o = {
        a: NaN,
        get b() {
          later = true;
          return 1;
        },
      };
      expect(() => codec.canonicalize(o)).toThrow(/the value at "a" is NaN/);
      expect(later).toBe(false);
      expect(() => codec.canonicalize({ k: ['ok', 'x\ud800'] })).toThrow(/^wasmjson\.canonicalize: the value at "1" contains a lone surrogate, which JCS forbids$/);
      expect(() => codec.canonicalize({ s: { toJSON: () => '\udfff' } })).toThrow(/the value at "s" contains a lone surrogate/);
      expect(() => codec.canonicalize({ a: { '\udc00': 1 } })).toThrow(/^wasmjson\.canonicalize: the key "\\udc00" contains a lone surrogate, which JCS forbids$/);
      // A canonicalize call in a toJSON, and the numbers of every length the serializer writes.
      const numbers = [1.7976931348623157e308, -1.2345678901234567e-300, 5e-324, -0, 1e21, 1e-7, 0.1 + 0.2];
      const nested = { b: { toJSON: () => codec.canonicalize({ y: 1, x: [2] }) }, a: numbers };
      expect(codec.canonicalize(nested)).toBe(`{"a":${JSON.stringify(numbers)},"b":"{\\"x\\":[2],\\"y\\":1}"}`);
    });

    it('sorts values as wasm writes them, and where it cannot (escaped keys), as text', async () => {
      // (Without the string builtins, browsers send the serializer's strings as UTF-8,
      // except for canonicalize(value), whose sorting takes UTF-16: both must agree.)
      const withoutBuiltins = await wasmjson.load({ flavor, stringBuiltins: false });
      // Records of a few shapes in other key orders, keys past 64 units (not cached),
      // long keys sharing a prefix, strings past a batch: the serializer's sorting.
      const shapes = [
        ['id', 'name', 'url', 'text'],
        ['url', 'id', 'text', 'name'],
        ['abcdefghij2', 'abcdefghij1', 'd', 'c'],
        ['abcdefghij1', 'abcdefghij2', 'd', 'c'],
        ['k'.repeat(70) + 'b', 'k'.repeat(70) + 'a', 'é', '\ud83d\ude00', '\uffff'],
      ];
      const records = Array.from({ length: 6000 }, (_, i) => {
        const o: Record<string, unknown> = {};
        for (const k of shapes[i % shapes.length]) o[k] = i % 7 === 0 ? { z: i, y: [{ b: 1, a: 'x'.repeat(i % 300) }] } : i;
        return o;
      });
      const big = { records, meta: { count: records.length, long: 'é'.repeat(40_000) } };
      const expected = referenceCanonicalize(big);
      expect(codec.canonicalize(big)).toBe(expected);
      expect(withoutBuiltins.canonicalize(big)).toBe(expected);
      // A key with an escape: the sorting stops there, and the text is canonicalized.
      for (const v of [{ b: 1, 'a"': 2, a: 3 }, { z: { y: 1, x: 2 }, 'q\n': [{ d: 1, c: 2 }], a: 0 }, [{ b: 1, a: 2 }, { '\u0001': 1, '\\': 2 }]]) {
        expect(codec.canonicalize(v)).toBe(referenceCanonicalize(v));
        expect(withoutBuiltins.canonicalize(v)).toBe(referenceCanonicalize(v));
      }
      // Every level out of order, each holding the next: the text moves once, not per level.
      const depth = 20_000;
      let deep: unknown = {};
      for (let i = 0; i < depth; i++) deep = { b: deep, a: 0 };
      expect(codec.canonicalize(deep)).toBe('{"a":0,"b":'.repeat(depth) + '{}' + '}'.repeat(depth));
    });

    it('handles deep nesting without recursion', () => {
      const n = 100_000;
      expect(codec.canonicalize('['.repeat(n) + ']'.repeat(n))).toBe('['.repeat(n) + ']'.repeat(n));
    });
  });
}

describe('top-level canonicalize', () => {
  it('a toJSON that returns a new container at every level is a RangeError, as for stringify (it grew until the process died)', () => {
    const endless = { toJSON(): unknown { return { a: this }; } };
    let error: unknown;
    try {
      wasmjson.canonicalize(endless);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(RangeError);
    expect((error as Error).message).toMatch(/^wasmjson\.canonicalize: more than \d+ containers open at once/);
    expect(wasmjson.canonicalize({ b: 1, a: 0 })).toBe('{"a":0,"b":1}');
  }, 60_000);

  it('is exported', () => {
    expect(wasmjson.canonicalize('{"b": 1, "a": [2.50, 1E2]}')).toBe('{"a":[2.5,100],"b":1}');
  });
});
