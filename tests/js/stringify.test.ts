// stringify(value, replacer?, space?) and encode(value, options?): a drop-in for
// JSON.stringify, checked against the engine's own (Node's V8 in the node project,
// Chromium's in the browser project), in both kernel flavors. encode() must give
// exactly TextEncoder's bytes of the same text.
import { attempt, type Outcome } from './support/outcome.js';
import { describe, expect, it } from 'vitest';
import { encode as exportedEncode, load, stringify as exportedStringify, type Codec } from 'wasmjson';
import { codecFor, FLAVORS } from './support/flavors.js';
import { Rng } from './support/random-json.js';
import { watchedCodec } from './support/watched-codec.js';


const encoder = new TextEncoder();
const env = (globalThis as { process?: { env?: Record<string, string | undefined> } }).process?.env;
/** WASMJSON_LONG=1: the number identity check over 10 million doubles instead of 100,000. */
const LONG = env?.WASMJSON_LONG === '1';
const rawJSON = (JSON as { rawJSON?: (text: string) => object }).rawJSON;


function describeError(e: unknown): string {
  return e instanceof Error ? `${e.constructor.name}: ${e.message}` : `thrown ${String(e)}`;
}

/** stringify and encode agree with JSON.stringify (values, or error class and message). */
function expectSame(codec: Codec, value: unknown, replacer?: any, space?: any, label = ''): void {
  const want = attempt(() => JSON.stringify(value, replacer, space));
  const got = attempt(() => codec.stringify(value, replacer, space));
  const bytes = attempt(() => codec.encode(value, { replacer, space }));
  if (!want.ok) {
    expect(got.ok, `${label}: stringify should throw ${describeError(want.error)}`).toBe(false);
    expect(describeError((got as { error: unknown }).error), label).toBe(describeError(want.error));
    expect(bytes.ok, `${label}: encode should throw`).toBe(false);
    expect(describeError((bytes as { error: unknown }).error), label).toBe(describeError(want.error));
    return;
  }
  if (!got.ok) throw new Error(`${label}: stringify threw ${describeError(got.error)}, native gave ${String(want.value)}`);
  expect(got.value, label).toBe(want.value);
  if (!bytes.ok) throw new Error(`${label}: encode threw ${describeError(bytes.error)}`);
  if (want.value === undefined) {
    expect(bytes.value, label).toBe(undefined);
  } else {
    const expected = encoder.encode(want.value as string);
    const actual = bytes.value as Uint8Array;
    expect(actual).toBeInstanceOf(Uint8Array);
    if (actual.length !== expected.length || actual.some((b, i) => b !== expected[i])) {
      expect(new TextDecoder().decode(actual), `${label}: encode`).toBe(want.value);
      expect(Array.from(actual), `${label}: encode bytes`).toEqual(Array.from(expected));
    }
  }
}

/** Every code unit from `from` to `to` once, in one string. */
function unitRange(from: number, to: number): string {
  const units: number[] = [];
  for (let u = from; u < to; u++) units.push(u);
  let s = '';
  for (let i = 0; i < units.length; i += 4096) s += String.fromCharCode(...units.slice(i, i + 4096));
  return s;
}

// Strings heavy in what escaping and UTF-8 care about.
const ALPHABET = [
  'a', 'Z', ' ', '"', '\\', '/', '\b', '\f', '\n', '\r', '\t', '\u0000', '\u0001', '\u001f', '\u007f', '\u0080',
  '\u00e9', '\u07ff', '\u0800', '\u2028', '\u2029', '\u3042', '\ufeff', '\ufffd', '\uffff', '\ud800', '\udbff',
  '\udc00', '\udfff', '\ud83d\ude00', '\ud800\udc00', '\udbff\udfff', 'abcdefghijklmnop',
];

function randomString(rng: Rng, max = 40): string {
  let s = '';
  const n = rng.int(max);
  for (let i = 0; i < n; i++) s += rng.chance(0.6) ? String.fromCharCode(97 + rng.int(26)) : rng.pick(ALPHABET);
  return s;
}

function randomBitsDouble(rng: Rng, view: DataView): number {
  view.setUint32(0, Math.floor(rng.next() * 4294967296));
  view.setUint32(4, Math.floor(rng.next() * 4294967296));
  return view.getFloat64(0);
}

const EDGE_NUMBERS = [
  0, -0, 1, -1, 0.1, 0.5, 1.5, -123.456, 1e-6, 1e-7, 5e-7, 1.5e-7, 123e-20, 1e20, 1e21, 999999999999999900000,
  1.2345e21, 5e-324, -5e-324, 2.2250738585072014e-308, 2.225073858507201e-308, 1.7976931348623157e308,
  -1.7976931348623157e308, 2 ** 53 - 1, 2 ** 53, 2 ** 53 + 1, 2 ** 53 + 2, -(2 ** 53), 2 ** 31 - 1, 2 ** 31, 2 ** 32,
  -(2 ** 31), 2 ** 27 - 1, 2 ** 27, -(2 ** 27), -(2 ** 27) - 1, 134217727.5, 0.30000000000000004, 0.1 + 0.7,
  1152921504606846976, 4.35, 0.000001234, 1.2e-6, 9.5367431640625e-7, 1e15, 1e16, 1e300, 2 ** -1074, 2 ** -1022,
  2 ** -1017, 2251799813685247.75, NaN, Infinity, -Infinity, Number.EPSILON, Number.MAX_SAFE_INTEGER,
  Number.MIN_VALUE,
];

function randomNumber(rng: Rng, view: DataView): number {
  switch (rng.int(6)) {
    case 0:
      return rng.pick(EDGE_NUMBERS);
    case 1:
      return rng.range(-1000000, 1000000);
    case 2:
      return randomBitsDouble(rng, view);
    case 3:
      return Number((rng.next() * 1000).toFixed(rng.int(6)));
    case 4:
      return rng.next() * 10 ** rng.range(-30, 30);
    default:
      return rng.range(-(2 ** 31), 2 ** 31) * 2 ** rng.range(-5, 30);
  }
}

const KEYS = ['a', 'b', 'id', 'name', '', '0', '1', '10', '2', '-1', '1.5', '__proto__', 'toJSON', 'x"y', 'k\n', '\u00e9', '\ud800', 'a\u0000b', 'constructor', 'length'];

function randomValue(rng: Rng, view: DataView, depth: number): unknown {
  const r = rng.int(depth > 4 ? 8 : 12);
  switch (r) {
    case 0:
      return null;
    case 1:
      return rng.chance(0.5);
    case 2:
    case 3:
      return randomNumber(rng, view);
    case 4:
    case 5:
      return randomString(rng);
    case 6:
      return rng.pick([undefined, () => 1, Symbol('s'), new Date(rng.range(0, 2e12)), new Number(rng.range(-9, 9)), new String(randomString(rng, 5)), new Boolean(rng.chance(0.5))]);
    case 7:
      return rng.chance(0.5) ? randomString(rng, 200) : -0;
    case 8:
    case 9: {
      const a: unknown[] = [];
      const n = rng.int(6);
      for (let i = 0; i < n; i++) a.push(randomValue(rng, view, depth + 1));
      if (rng.chance(0.1)) a.length += 2; // holes
      return a;
    }
    default: {
      const o: Record<string, unknown> = {};
      const n = rng.int(6);
      for (let i = 0; i < n; i++) {
        const k = rng.chance(0.7) ? rng.pick(KEYS) : randomString(rng, 12);
        Object.defineProperty(o, k, { value: randomValue(rng, view, depth + 1), enumerable: true, writable: true, configurable: true });
      }
      return o;
    }
  }
}

const REPLACERS: [string, any][] = [
  ['none', undefined],
  ['null', null],
  ['identity', function (this: unknown, _k: string, v: unknown) { return v; }],
  ['transform', function (this: any, k: string, v: unknown) {
    if (typeof v === 'number') return v * 2;
    if (k === 'a') return undefined;
    if (k === 'b') return [k, typeof this];
    if (typeof v === 'string' && v.length > 30) return { cut: v.slice(0, 5) };
    return v;
  }],
  ['list', ['a', 'b', 'id', '', '0', '10', 'name', 'a']],
  ['list-mixed', [1, 'b', new String('id'), new Number(10), true, null, {}, '1', 0]],
  ['list-empty', []],
];

const SPACES: any[] = [undefined, null, 0, 1, 2, 4, 10, 11, 100, -1, 3.9, NaN, Infinity, '', ' ', '\t', 'abc', '0123456789ABC', '\u00e9\u3042', '\ud800', '\udc00\ud800', '\udc00-\udbff', new Number(3), new String('--'), true, {}];

for (const flavor of FLAVORS) {
  describe(`stringify and encode (${flavor})`, async () => {
    const codec = await codecFor(flavor);

    it('is a drop-in for JSON.stringify: a method named stringify of length 3, no constructor', () => {
      for (const fn of [exportedStringify, codec.stringify]) {
        expect(typeof fn).toBe('function');
        expect(fn.length).toBe(3);
        expect(fn.name).toBe('stringify');
      }
      expect(Object.prototype.hasOwnProperty.call(exportedStringify, 'prototype')).toBe(false);
      expect(() => new (exportedStringify as any)({})).toThrow(TypeError);
      expect(exportedEncode.name).toBe('encode');
      expect(exportedEncode.length).toBe(2);
      expect(Object.prototype.hasOwnProperty.call(exportedEncode, 'prototype')).toBe(false);
      expect(exportedStringify({ a: [1, 'x'] })).toBe('{"a":[1,"x"]}');
      expect(Array.from(exportedEncode([true]))).toEqual(Array.from(encoder.encode('[true]')));
    });

    it('primitives at the top and inside containers', () => {
      for (const v of [null, true, false, 0, -0, 1, 'x', '', undefined, () => 1, Symbol('s'), NaN, Infinity, -Infinity]) {
        expectSame(codec, v, undefined, undefined, String(typeof v));
        expectSame(codec, [v], undefined, undefined, `[${String(typeof v)}]`);
        expectSame(codec, { k: v }, undefined, undefined, `{${String(typeof v)}}`);
        expectSame(codec, { k: v, z: 1 }, undefined, 2);
      }
      expect(codec.stringify(undefined)).toBe(undefined);
      expect(codec.encode(undefined)).toBe(undefined);
      expect(codec.stringify(() => 1)).toBe(undefined);
      expect(codec.stringify(Symbol('x'))).toBe(undefined);
      expect(codec.stringify([undefined, () => 1, Symbol('x')])).toBe('[null,null,null]');
      expect(codec.stringify({ a: undefined, b: () => 1, c: Symbol('x') })).toBe('{}');
      expect(codec.stringify({ a: undefined }, null, 2)).toBe('{}');
      expect(codec.stringify([], null, 2)).toBe('[]');
      expect(codec.stringify(-0)).toBe('0');
      expect(codec.stringify([NaN, Infinity, -Infinity])).toBe('[null,null,null]');
    });

    it('numbers exactly as Number.prototype.toString, edge cases', () => {
      for (const n of EDGE_NUMBERS) {
        expectSame(codec, n, undefined, undefined, String(n));
        expectSame(codec, -n, undefined, undefined, String(-n));
      }
      expectSame(codec, EDGE_NUMBERS);
      expect(codec.stringify([1e21, 5e-7, 1e-7, 123e-20])).toBe('[1e+21,5e-7,1e-7,1.23e-18]');
    });

    it(`numbers: ${LONG ? '10 million' : '100,000'} random bit patterns and decimals match the engine`, () => {
      const rng = new Rng(0x5eed);
      const view = new DataView(new ArrayBuffer(8));
      const total = LONG ? 10_000_000 : 100_000;
      const batch = 50_000;
      for (let done = 0; done < total; done += batch) {
        const values: number[] = [];
        for (let i = 0; i < batch; i++) {
          const r = i % 4;
          values.push(r === 0 ? randomBitsDouble(rng, view) : r === 1 ? Number(`${rng.range(1, 999999)}e${rng.range(-330, 310)}`) : r === 2 ? rng.next() * 10 ** rng.range(-8, 22) : rng.range(-(2 ** 31), 2 ** 31));
        }
        const want = JSON.stringify(values);
        const got = codec.stringify(values);
        if (got !== want) {
          for (const v of values) expect(codec.stringify(v), `bits of ${v}`).toBe(String(Number.isFinite(v) ? v : null));
        }
        expect(got).toBe(want);
      }
    });

    it('strings: every code unit, escapes exactly as V8, lone surrogates as \\udxxx', () => {
      for (let from = 0; from < 0x10000; from += 0x2000) {
        const s = unitRange(from, from + 0x2000);
        expectSame(codec, s, undefined, undefined, `units ${from}`);
        expectSame(codec, { [s.slice(0, 50)]: s.slice(50, 120) }, undefined, undefined, `key units ${from}`);
      }
      expect(codec.stringify('\ud800')).toBe('"\\ud800"');
      expect(codec.stringify('\udc00\ud800')).toBe('"\\udc00\\ud800"');
      expect(codec.stringify('\ud83d\ude00\ude00')).toBe('"\ud83d\ude00\\ude00"');
      expect(codec.stringify('\u001f\u007f\u2028')).toBe('"\\u001f\u007f\u2028"');
      expect(Array.from(codec.encode('\ud800x'))).toEqual(Array.from(encoder.encode('"\\ud800x"')));
      // Pairs split between neighbouring strings and keys stay two lone surrogates.
      expectSame(codec, ['\ud83d', '\ude00', 'a\ud83d', '\ude00b']);
      expectSame(codec, { '\ud83d': '\ude00', a: '\ud800' });
      // Escapes at every offset around the kernel chunk sizes, in long and short strings.
      for (const special of ['"', '\\', '\n', '\u0001', '\u00e9', '\u3042', '\ud800', '\ud83d\ude00', '\udfff']) {
        const strings: string[] = [];
        for (let i = 0; i < 40; i++) strings.push('x'.repeat(i) + special + 'y'.repeat(40 - i));
        expectSame(codec, strings, undefined, undefined, JSON.stringify(special));
      }
    });

    it('big strings and many strings across batches', () => {
      const big = 'ab"c\n\u00e9\u3042\ud83d\ude00'.repeat(200000);
      expectSame(codec, big);
      expectSame(codec, [big, big.slice(7), { k: big }]);
      const many = Array.from({ length: 50000 }, (_, i) => `s${i}\u00e9`);
      expectSame(codec, many);
      const ascii = 'x'.repeat(3_000_000);
      expect(codec.stringify(ascii)).toBe(`"${ascii}"`);
      const lone = '\ud800'.repeat(100000);
      expectSame(codec, [lone, 'a']);
    });

    it('toJSON: called with the key, on objects, arrays, functions and BigInt', () => {
      const log: unknown[] = [];
      const make = (tag: string) => ({
        toJSON(this: unknown, key: unknown) {
          log.push(tag, key, this === obj[tag as keyof typeof obj]);
          return `${tag}:${String(key)}`;
        },
      });
      const obj = { x: make('x'), y: [make('y0'), make('y1')], z: Object.assign(() => 1, { toJSON: (k: string) => `fn ${k}` }) } as any;
      obj.y0 = obj.y[0];
      obj.y1 = obj.y[1];
      const run = (fn: (v: unknown) => unknown) => {
        log.length = 0;
        const out = fn(obj);
        return [out, [...log]];
      };
      const want = run((v) => JSON.stringify(v));
      expect(run((v) => codec.stringify(v))).toEqual(want);
      expect(codec.stringify(new Date(0))).toBe(JSON.stringify(new Date(0)));
      expect(codec.stringify({ d: new Date(86400000) })).toBe(JSON.stringify({ d: new Date(86400000) }));
      expect(codec.stringify({ toJSON: () => undefined })).toBe(undefined);
      expect(codec.stringify({ a: { toJSON: () => undefined } })).toBe('{}');
      expect(codec.stringify([{ toJSON: (k: string) => k }, { toJSON: (k: string) => k }])).toBe('["0","1"]');
      expect(codec.stringify({ toJSON: (k: string) => `[${k}]` })).toBe('"[]"');
      // A toJSON that is not a function is ignored; inherited ones count.
      expectSame(codec, { a: { toJSON: 5 }, b: Object.create({ toJSON: () => 'inherited' }) });
      const proto = (BigInt.prototype as any);
      proto.toJSON = function (this: bigint) {
        return `${this}n`;
      };
      try {
        expectSame(codec, { big: 12n, list: [1n, -2n] });
        expect(codec.stringify(5n)).toBe('"5n"');
      } finally {
        delete proto.toJSON;
      }
    });

    it('replacer function: (holder, key, value) with this = holder, in native order', () => {
      const value = { a: 1, b: [2, { c: 3 }, undefined], d: { toJSON: () => ({ e: 4 }) }, f: 'x' };
      const logFor = (fn: (replacer: any) => unknown) => {
        const log: unknown[] = [];
        let first: any;
        const out = fn(function (this: any, key: string, v: unknown) {
          if (first === undefined) {
            first = this;
            log.push('wrapper', Object.getPrototypeOf(this) === Object.prototype, Object.keys(this), this[''] === value);
          }
          log.push(typeof key, key, JSON.stringify(v) ?? 'undefined', this === value ? 'root' : Array.isArray(this) ? 'array' : typeof this);
          return key === 'f' ? undefined : v;
        });
        return [out, log];
      };
      expect(logFor((r) => codec.stringify(value, r))).toEqual(logFor((r) => JSON.stringify(value, r)));
      expect(logFor((r) => codec.stringify(value, r, 2))).toEqual(logFor((r) => JSON.stringify(value, r, 2)));
      const replaceRoot = (k: string, v: unknown) => (k === '' ? { swapped: [1, 2] } : v);
      expectSame(codec, 'anything', replaceRoot);
      expectSame(codec, { a: 1 }, () => undefined);
      expectSame(codec, { a: { b: 1 } }, (k: string, v: unknown) => (k === 'b' ? new Date(0) : v));
      expectSame(codec, [1, 2, 3], (k: string, v: unknown) => (k === '1' ? undefined : v));
      expectSame(codec, { a: 1 }, (k: string, v: unknown) => (k === 'a' ? { nested: [k] } : v), '\t');
    });

    it('replacer array: a property list, de-duplicated, numbers as strings, boxed values accepted', () => {
      const v = { 1: 'one', a: 'A', b: { a: 'inner', c: 'C' }, c: [{ a: 1, z: 2 }], z: 'Z', 10: 'ten' };
      for (const list of [
        ['a', 'b', 'a', 'c'],
        [1, '1', 10, 'z'],
        [new String('a'), new Number(1), 'b'],
        ['z', 'a'],
        [true, null, {}, [], Symbol.iterator, 'a'],
        [],
      ] as any[]) {
        expectSame(codec, v, list, undefined, JSON.stringify(list.map(String)));
        expectSame(codec, v, list, 2);
      }
      // Inherited properties named in the list are read (Get, not own keys).
      expectSame(codec, Object.create({ a: 'inherited' }), ['a']);
      // Boxed list items go through their own toString/valueOf, as native does.
      const calls: string[] = [];
      const tricky = Object.assign(new String('a'), { toString: () => (calls.push('toString'), 'b') });
      const nativeOut = JSON.stringify({ a: 1, b: 2 }, [tricky as any]);
      const nativeCalls = calls.splice(0);
      expect(codec.stringify({ a: 1, b: 2 }, [tricky as any])).toBe(nativeOut);
      expect(calls).toEqual(nativeCalls);
      // A sparse or proxied list is read by index.
      const sparse = ['a'];
      sparse[3] = 'b';
      expectSame(codec, { a: 1, b: 2 }, sparse);
      expectSame(codec, { a: 1, b: 2 }, new Proxy(['b'], {}));
    });

    it('space: numbers clamped to 10, strings cut to 10, boxed values, everything else ignored', () => {
      const v = { a: [1, { b: 2, c: [] }, {}], d: 'x', e: { f: null } };
      for (const space of SPACES) expectSame(codec, v, undefined, space, `space ${String(space)}`);
      const calls: string[] = [];
      const num = Object.assign(new Number(3), { valueOf: () => (calls.push('valueOf'), 5), toString: () => (calls.push('toString'), '7') });
      const nativeOut = JSON.stringify(v, null, num as any);
      const nativeCalls = calls.splice(0);
      expect(codec.stringify(v, null, num as any)).toBe(nativeOut);
      expect(calls.splice(0)).toEqual(nativeCalls);
      const str = Object.assign(new String('ab'), { toString: () => (calls.push('toString'), '*') });
      const nativeStr = JSON.stringify(v, null, str as any);
      const nativeStrCalls = calls.splice(0);
      expect(codec.stringify(v, null, str as any)).toBe(nativeStr);
      expect(calls).toEqual(nativeStrCalls);
      expectSame(codec, 7, null, 4);
      expectSame(codec, [[[]]], null, 1);
    });

    it('space: a string gap is its first 10 units, NUL included (V8 cuts it at the first NUL)', () => {
      // The specification's gap is the string's first 10 code units, whatever they are.
      // V8 (Node 20 to 26, Chromium) stops at a U+0000 instead, as if it were a C string.
      const v = [1, [2]];
      const expected = '[\na\u0000b1,\na\u0000b[\na\u0000ba\u0000b2\na\u0000b]\n]';
      expect(codec.stringify(v, null, 'a\u0000b')).toBe(expected);
      expect(new TextDecoder().decode(codec.encode(v, { space: 'a\u0000b' }))).toBe(expected);
      expect(codec.stringify(v, null, '\u0000'.repeat(12))).toBe(JSON.stringify(v, null, 'x'.repeat(10)).replaceAll('x', '\u0000'));
    });

    it('boxed primitives are unwrapped as native does (ToNumber, ToString)', () => {
      expectSame(codec, [new Number(3), new String('s'), new Boolean(false), new Boolean(true), Object('x'), Object(2)]);
      expectSame(codec, { n: new Number(-0), s: new String('\ud800"'), b: new Boolean(false) });
      const calls: string[] = [];
      const n = Object.assign(new Number(1), { valueOf: () => (calls.push('valueOf'), 42) });
      const s = Object.assign(new String('x'), { toString: () => (calls.push('toString'), 'y') });
      const nativeOut = JSON.stringify([n, s]);
      const nativeCalls = calls.splice(0);
      expect(codec.stringify([n, s])).toBe(nativeOut);
      expect(calls).toEqual(nativeCalls);
      expectSame(codec, Object(1n));
      // Not boxed: objects that only inherit from Number.prototype.
      expectSame(codec, [Object.create(Number.prototype), Object.create(String.prototype)]);
    });

    it('conversions as the specification makes them: ToNumber throws on a BigInt, the built-in prototypes are boxes', () => {
      // A BigInt from valueOf or a proxy's length: ToNumber's TypeError (Number() converts).
      const boxedBigInt = () => Object.assign(new Number(5), { valueOf: () => 10n });
      expectSame(codec, boxedBigInt());
      expectSame(codec, [boxedBigInt()]);
      expectSame(codec, [1], null, Object.assign(new Number(1), { valueOf: () => 3n }));
      const bigLength = (target: unknown[]) => new Proxy(target, { get: (t, k) => (k === 'length' ? 2n : (t as any)[k]) });
      expectSame(codec, bigLength([1, 2]));
      expectSame(codec, { a: 1 }, bigLength(['a']));
      expect(() => codec.canonicalize(bigLength([1, 2]))).toThrow(TypeError);
      // parse: a reviver that puts such an array where the walk goes next.
      const reviveInto = (p: (text: string, reviver: (this: any, k: string, v: unknown) => unknown) => unknown) =>
        attempt(() => p('[1, [2]]', function (this: any, k: string, v: unknown) {
          if (k === '0') this[1] = bigLength([3, 4]);
          return v;
        }));
      const nativeRevived = reviveInto(JSON.parse);
      expect(nativeRevived.ok).toBe(false);
      const revived = reviveInto(codec.parse);
      expect(revived.ok).toBe(false);
      expect(describeError((revived as { error: unknown }).error)).toBe(describeError((nativeRevived as { error: unknown }).error));
      // Number.prototype, String.prototype and Boolean.prototype hold 0, '' and false.
      expectSame(codec, [Number.prototype, String.prototype, Boolean.prototype, Symbol.prototype]);
      expectSame(codec, { n: Number.prototype, s: String.prototype, b: Boolean.prototype });
      // A proxy whose getPrototypeOf trap throws: JSON.stringify never asks for it.
      const opaque = () => new Proxy({ a: 1, b: [2] }, { getPrototypeOf() { throw new Error('asked for the prototype'); } });
      expectSame(codec, opaque());
      expectSame(codec, { x: opaque(), y: [opaque()] });
      expectSame(codec, { x: opaque() }, null, 2);
    });

    it('a program that replaced Array.prototype.concat does not hang the walk', async () => {
      // A codec of its own, whose walk state has not grown yet.
      const fresh = await load({ flavor });
      const concat = Array.prototype.concat;
      let deep: unknown = {};
      for (let i = 0; i < 40; i++) deep = { d: deep, e: [i] };
      const want = JSON.stringify(deep);
      // One that never grows the array: loops doubling an array by it never ended.
      Array.prototype.concat = function (this: unknown[], ...items: unknown[]) {
        return concat.apply(this, items).slice(0, this.length);
      } as typeof concat;
      let got: string;
      try {
        got = fresh.stringify(deep);
      } finally {
        Array.prototype.concat = concat;
      }
      expect(got).toBe(want);
    });

    it('Array.prototype.concat replaced after load is never called (JSON.stringify calls no such method)', async () => {
      const fresh = await load({ flavor });
      const concat = Array.prototype.concat;
      const value = { a: 1, b: [{ c: 2, d: 'x' }, { c: 3, d: 'y' }], e: { f: null, g: [true] } };
      let calls = 0;
      const got: string[] = [];
      Array.prototype.concat = function () {
        calls++;
        throw new Error('concat replaced');
      } as typeof concat;
      try {
        got.push(fresh.stringify(value)!, new TextDecoder().decode(fresh.encode(value)));
      } finally {
        Array.prototype.concat = concat;
      }
      expect(calls).toBe(0);
      expect(got).toEqual([JSON.stringify(value), JSON.stringify(value)]);
    });

    it('BigInt: TypeError like native, or integer literals with encode({ bigint: "number" })', () => {
      expectSame(codec, 1n);
      expectSame(codec, { a: [1, 2n] });
      expect(() => codec.stringify({ a: 1n })).toThrow(new TypeError('Do not know how to serialize a BigInt'));
      const out = codec.encode({ a: 12345678901234567890n, b: [-1n, 0n] }, { bigint: 'number' });
      expect(new TextDecoder().decode(out)).toBe('{"a":12345678901234567890,"b":[-1,0]}');
      expect(() => codec.encode(1n)).toThrow(TypeError);
      expect(() => codec.encode(1, { bigint: 'string' as any })).toThrow(TypeError);
    });

    it('cycles: TypeError with V8\'s message, no partial output, the codec still works', () => {
      const shapes: (() => unknown)[] = [
        () => { const a: any = {}; a.self = a; return a; },
        () => { const a: any = { x: { y: {} } }; a.x.y.z = a; return a; },
        () => { const a: any = [1]; a.push(a); return a; },
        () => { const a: any = { x: [{}] }; a.x[0].b = a.x; return a; },
        () => { class Foo { q: any; } const a = new Foo(); a.q = { r: a }; return a; },
        () => { const a: any = Object.create(null); a.q = a; return a; },
        () => { const a: any = { b: { c: { d: { e: { f: {} } } } } }; a.b.c.d.e.f.g = a; return a; },
        () => { const a: any = { b: { c: { d: { e: { f: {} } } } } }; a.b.c.d.e.f.g = a.b; return a; },
        () => { const a: any = { toJSON: () => a2 }; const a2 = { k: a }; return a2; },
        () => { const a: any = {}; a['we"ird\n'] = a; return a; },
        () => { const x: any = {}; x.y = x; return { z: { toJSON: () => x } }; },
        () => { const a: any = {}; let cur = a; for (let i = 0; i < 100; i++) cur = cur.next = {}; cur.back = a; return a; },
        () => { const a: any = []; let cur = a; for (let i = 0; i < 100; i++) cur = cur[0] = []; cur[1] = a.at(0)[0][0]; return a; },
        // V8 names the empty key <anonymous>.
        () => { const a: any = {}; a[''] = a; return a; },
        () => { const a: any = { x: {} }; a.x[''] = { y: a }; return a; },
        // The names V8 gives objects: @@toStringTag data properties (own or inherited,
        // even ''), not getters; constructors up the chain but not the object's own.
        () => { const a: any = { [Symbol.toStringTag]: 'Tagged' }; a.self = a; return a; },
        () => { const a: any = { [Symbol.toStringTag]: '' }; a.self = a; return a; },
        () => { const a: any = { [Symbol.toStringTag]: 5 }; a.self = a; return a; },
        () => { const a: any = { get [Symbol.toStringTag]() { return 'Getter'; } }; a.self = a; return a; },
        () => { const a: any = Object.create({ [Symbol.toStringTag]: 'Inherited' }); a.x = { y: a }; return a; },
        () => { const a: any = Object.create(null); a[Symbol.toStringTag] = 'NullTag'; a.self = a; return a; },
        () => { class G { self: unknown; } const a: any = new G(); a[Symbol.toStringTag] = 'T'; a.self = a; return a; },
        () => { const a: any = { constructor: function Own() {} }; a.self = a; return a; },
        () => { const a: any = Object.create(Object.create(null, { constructor: { value: function Deep() {} } })); a.self = a; return a; },
        () => { const a: any = Object.create(Map.prototype); a.self = a; return a; },
        () => { const a: any = new Map(); a.self = a; return a; },
        () => { const a: any = new (class extends Array {})(); a.push({ b: a }); return a; },
        () => { class Named extends Array {} const a: any = new Named(); a.push({ b: a }); return a; },
        () => { const a: any = {}; Object.defineProperty(a, 'constructor', { get: () => function Got() {} }); a.self = a; return a; },
      ];
      for (const make of shapes) {
        expectSame(codec, make(), undefined, undefined, make.toString().slice(0, 60));
        expectSame(codec, make(), undefined, 2);
      }
      // Accessors name nothing, even when Object.prototype has a `value` an accessor's
      // descriptor would inherit.
      const tagged = () => {
        const a: any = { get [Symbol.toStringTag]() { return 'Getter'; } };
        Object.defineProperty(a, 'constructor', { get: () => function Got() {} });
        a.self = a;
        return a;
      };
      const objects = [tagged(), tagged()];
      const messages: string[] = [];
      // (Polluted only around the two calls: the test framework itself would trip on it.)
      Object.defineProperty(Object.prototype, 'value', { value: 'Polluted', configurable: true, writable: true });
      try {
        for (const [i, fn] of [JSON.stringify, codec.stringify].entries()) {
          try {
            fn(objects[i]);
          } catch (e) {
            messages.push((e as Error).message);
          }
        }
      } finally {
        delete (Object.prototype as any).value;
      }
      expect(messages[1]).toContain("constructor 'Object'");
      expect(messages[1]).toBe(messages[0]);
      // A repeated (acyclic) object is fine.
      const shared = { s: 1 };
      expectSame(codec, [shared, shared, { a: shared }]);
      expect(codec.stringify({ ok: true })).toBe('{"ok":true}');
    });

    it('toJSON, replacers and revivers are called directly, never through a `call` property of their own', () => {
      const hijack = () => 'hijacked';
      const toJSON = Object.assign(function (this: unknown) { return 'real'; }, { call: hijack });
      const replacer = Object.assign((_k: string, v: unknown) => v, { call: hijack });
      for (const [v, r] of [[{ a: { toJSON } }, undefined], [{ a: 1 }, replacer]] as const) {
        expect(codec.stringify(v, r as never)).toBe(JSON.stringify(v, r as never));
        expect(new TextDecoder().decode(codec.encode(r ? v : v))).toBe(JSON.stringify(v));
      }
      expect(codec.canonicalize({ a: { toJSON } })).toBe('{"a":"real"}');
      const reviver = Object.assign((_k: string, v: unknown) => v, { call: hijack });
      expect(codec.parse('{"a":[1]}', reviver)).toEqual({ a: [1] });
    });

    it('an array too long for any text throws RangeError at once, as native does', () => {
      const a: unknown[] = [];
      a.length = 2 ** 32 - 1;
      expect(() => codec.stringify(a)).toThrow(new RangeError('Invalid string length'));
      // encode makes no string: its limit is the output's 2 GiB - 64 KiB (at least 2 bytes an element).
      expect(() => codec.encode([a])).toThrow(RangeError);
      expect(() => codec.encode([a])).toThrow(/do not fit in WebAssembly memory/);
      a.length = 2 ** 28;
      expect(() => codec.stringify(a)).toThrow(new RangeError('Invalid string length'));
      expect(() => JSON.stringify(a)).toThrow(RangeError);
      // Just below V8's limit the elements are read (a getter's error comes first).
      const outcome = (f: () => unknown) => {
        try {
          return f();
        } catch (e) {
          return `${(e as Error).constructor.name}: ${(e as Error).message}`;
        }
      };
      for (const length of [2 ** 28 - 12, 2 ** 28 - 11]) {
        const b: unknown[] = [];
        b.length = length;
        Object.defineProperty(b, 0, { get: () => { throw new Error('element 0 read'); } });
        expect(outcome(() => codec.stringify(b)), `length ${length}`).toBe(outcome(() => JSON.stringify(b)));
      }
      expect(codec.stringify({ ok: true })).toBe('{"ok":true}');
    });

    it('key order as Object.keys; getters called; holes; special objects as native', () => {
      const log: string[] = [];
      const withGetters = {
        b: 1,
        get a() {
          log.push('a');
          return 'A';
        },
        2: 'two',
        1: 'one',
        [Symbol('hidden')]: 'no',
      };
      Object.defineProperty(withGetters, 'hidden', { value: 'x', enumerable: false });
      const nativeOut = JSON.stringify(withGetters);
      const nativeLog = log.splice(0);
      expect(codec.stringify(withGetters)).toBe(nativeOut);
      expect(log).toEqual(nativeLog);
      const holes = [1, , 3]; // eslint-disable-line no-sparse-arrays
      (holes as any).extra = 'ignored';
      class Point {
        constructor(public x: number, public y: number) {}
        get norm() {
          return 0;
        }
      }
      const specials: unknown[] = [
        holes,
        new Array(5),
        new Uint8Array([1, 2, 3]),
        new Float64Array([1.5, -0, NaN]),
        new Map([[1, 2]]),
        new Set([1]),
        new Date(1e12),
        new Error('e'),
        /re/g,
        new Point(1, 2),
        Object.create(null),
        Object.assign(Object.create(null), { z: 1, a: 2 }),
        (function (..._args: unknown[]) { return arguments; })(1, 'x'),
        new ArrayBuffer(4),
        new DataView(new ArrayBuffer(2)),
        new WeakMap(),
        Promise.resolve(1),
        { [Symbol.toStringTag]: 'T', v: 1 },
        Object.assign([1, 2], { x: 1 }),
        new Proxy({ a: 1, b: [2] }, {}),
        new Proxy([1, 2, { c: 3 }], {}),
        new Proxy({}, { ownKeys: () => ['p', 'q'], getOwnPropertyDescriptor: () => ({ value: 0, enumerable: true, configurable: true }), get: (_t, k) => `got ${String(k)}` }),
        globalThis.Buffer ? globalThis.Buffer.from('hi') : 'no Buffer',
      ];
      for (const v of specials) {
        expectSame(codec, v, undefined, undefined, Object.prototype.toString.call(v));
        expectSame(codec, { v }, undefined, 1);
      }
    });

    it('keys are taken when an object opens and each is read in its turn, while getters and toJSON change the object', () => {
      // Each scenario builds a fresh object (its getters and toJSON log every read and
      // change it), once for native and once for each of ours; output and log must match.
      // Members that are containers make the walk resume the object after them, and
      // objects past 64 keys, or whose first key is an index, are read by key: every
      // change below lands before, between and after such resumptions.
      type Scenario = (log: string[]) => unknown;
      const logged = (log: string[], o: Record<string, unknown>, name: string, value: () => unknown): void => {
        Object.defineProperty(o, name, { enumerable: true, configurable: true, get: () => (log.push(`get ${name}`), value()) });
      };
      const scenarios: Record<string, Scenario> = {
        'a getter deletes a later key': (log) => {
          const o: Record<string, unknown> = { x: 1 };
          logged(log, o, 'a', () => (delete o.c, 'A'));
          Object.assign(o, { b: { n: 1 }, c: 3, d: 4 });
          return o;
        },
        'a getter adds keys, an index key among them': (log) => {
          const o: Record<string, unknown> = { p: [1] };
          logged(log, o, 'a', () => ((o.z = 'new'), (o[7] = 'seven'), 'A'));
          o.b = 2;
          return { o };
        },
        'a nested toJSON deletes the next key and re-adds an earlier one': (log) => {
          const o: Record<string, unknown> = { first: 0 };
          o.nested = { toJSON: () => (log.push('toJSON'), delete o.after, delete o.first, (o.first = 'again'), { done: true }) };
          o.after = 'gone';
          o.last = { deep: [{}] };
          return [o, o.last];
        },
        'a nested toJSON turns later values into containers and undefined': (log) => {
          const o: Record<string, unknown> = {};
          for (let i = 0; i < 10; i++) o[`k${i}`] = i;
          o.k2 = { toJSON: () => (log.push('k2'), (o.k5 = { made: [i32()] }), (o.k6 = undefined), (o.k7 = () => 0), 2) };
          return o;
        },
        'getters read in key order around nested members': (log) => {
          const o: Record<string, unknown> = {};
          for (let i = 0; i < 12; i++) {
            if (i % 3 === 0) o[`n${i}`] = { toJSON: () => (log.push(`toJSON n${i}`), [i]) };
            else logged(log, o, `g${i}`, () => i);
          }
          return o;
        },
        'many nested members (past the resumption limit)': (log) => {
          const o: Record<string, unknown> = {};
          for (let i = 0; i < 50; i++) {
            o[`m${i}`] = { v: i };
            logged(log, o, `g${i}`, () => (i === 40 ? (delete o.m45, (o.extra = 1)) : i));
          }
          return o;
        },
        'more than 64 keys': (log) => {
          const o: Record<string, unknown> = {};
          for (let i = 0; i < 80; i++) o[`k${i}`] = i % 7 === 0 ? { i } : i;
          logged(log, o, 'k3', () => (delete o.k70, 'three'));
          return o;
        },
        'index keys first': (log) => {
          const o: Record<string, unknown> = { 2: 'two', 0: { z: 0 }, name: 'n' };
          logged(log, o, '1', () => (delete o.name, (o[5] = 'five'), 'one'));
          return o;
        },
        'a proxy whose has() hides keys from for-in': (log) => {
          const target = { a: 1, b: { c: 2 }, d: 3 };
          return new Proxy(target, { has: (t, k) => (log.push(`has ${String(k)}`), k === 'a'), get: (t, k) => (t as Record<PropertyKey, unknown>)[k] });
        },
        'a proxy in the prototype chain, with enumerable keys of its own': (log) => {
          const proto = new Proxy({ inherited: 1, a: 'shadowed' }, { ownKeys: (t) => (log.push('ownKeys'), Reflect.ownKeys(t)) });
          const o = Object.create(proto) as Record<string, unknown>;
          Object.assign(o, { a: 1, b: { c: 2 }, d: [3] });
          logged(log, o, 'e', () => (delete o.a, 'E'));
          return [o, o];
        },
      };
      function i32(): number {
        return 32;
      }
      for (const [name, make] of Object.entries(scenarios)) {
        const nativeLog: string[] = [];
        const want = JSON.stringify(make(nativeLog));
        for (const write of [(v: unknown) => codec.stringify(v), (v: unknown) => new TextDecoder().decode(codec.encode(v))]) {
          const log: string[] = [];
          expect(write(make(log)), name).toBe(want);
          // (A proxy sees traps native does not cause: README; its output is what counts.)
          if (!name.includes('proxy')) expect(log, name).toEqual(nativeLog);
        }
      }
    });

    it('Proxy traps that JSON.stringify never calls may throw: the output (or error) is still native\'s', () => {
      const throwing = (trap: string) => () => {
        throw new Error(`${trap} trap`);
      };
      const cases: Record<string, () => unknown> = {
        'a proxy prototype whose ownKeys throws': () => {
          const o = Object.create(new Proxy({}, { ownKeys: throwing('ownKeys') }));
          o.a = 1;
          o.b = 'x';
          return { x: o, y: [o] };
        },
        'a proxy prototype whose getPrototypeOf throws': () => {
          const o = Object.create(new Proxy({}, { getPrototypeOf: throwing('getPrototypeOf') }));
          Object.assign(o, { a: 1, b: [2], c: 'three' });
          return [o];
        },
        'a proxy whose ownKeys throws from its second call': () => {
          let calls = 0;
          const target = { a: 1, b: 'two', c: null };
          return { p: new Proxy(target, { ownKeys: (t) => (calls++ ? throwing('ownKeys')() : Reflect.ownKeys(t)) }) };
        },
        'a proxy whose getOwnPropertyDescriptor throws from the second key on': () => {
          let calls = 0;
          const target = { a: 1, b: 2, c: { d: 3 } };
          return new Proxy(target, {
            getOwnPropertyDescriptor: (t, k) => (calls++ >= 3 ? throwing('getOwnPropertyDescriptor')() : Reflect.getOwnPropertyDescriptor(t, k)),
          });
        },
        'a getter that swaps in a prototype whose traps throw': () => {
          const o: Record<string, unknown> = { a: 1 };
          Object.defineProperty(o, 'b', {
            enumerable: true,
            get() {
              Object.setPrototypeOf(o, new Proxy({}, { ownKeys: throwing('ownKeys'), getPrototypeOf: throwing('getPrototypeOf'), has: throwing('has') }));
              return 2;
            },
          });
          o.c = 'three';
          return o;
        },
        'a proxy revoked by its own get trap': () => {
          const target = { a: 1, b: 2, c: 3 };
          const r = Proxy.revocable(target, { get: (t, k) => (k === 'a' && r.revoke(), (t as Record<PropertyKey, unknown>)[k]) });
          return { p: r.proxy };
        },
      };
      const outcome = (f: () => unknown) => {
        try {
          return f();
        } catch (e) {
          return `${(e as Error).constructor.name}: ${(e as Error).message}`;
        }
      };
      for (const [name, make] of Object.entries(cases)) {
        const want = outcome(() => JSON.stringify(make()));
        expect(outcome(() => codec.stringify(make())), name).toBe(want);
        expect(outcome(() => new TextDecoder().decode(codec.encode(make()))), name).toBe(want);
      }
      expect(codec.stringify({ ok: [1] })).toBe('{"ok":[1]}');
    });

    it('seeded: objects whose getters and toJSON delete, add and replace keys as they are read', () => {
      // Each scenario is built twice from its seed (once for native, once for ours).
      // Getters and toJSON draw their changes from the scenario's own generator when they
      // run, so the two builds change alike only if their reads come in the same order.
      function build(seed: number, log: string[]): unknown {
        const rng = new Rng(seed);
        const objects: Record<string, unknown>[] = [];
        const keyOf = (): string => (rng.chance(0.15) ? String(rng.int(40)) : `k${rng.int(90)}`);
        const change = (): void => {
          const o = rng.pick(objects);
          const k = keyOf();
          const what = rng.int(4);
          log.push(`${what} ${k}`);
          if (what === 0) delete o[k];
          else if (what === 1) o[k] = rng.int(100);
          else if (what === 2) o[k] = { fresh: [rng.int(9), 'x'] };
          else o[k] = undefined;
        };
        const scalar = (): unknown => rng.pick([rng.int(1000), `s${rng.int(50)}`, null, true, false, undefined, 1.5]);
        const count = rng.range(2, 6);
        for (let i = 0; i < count; i++) objects.push({});
        objects.forEach((o, i) => {
          const size = rng.pick([1, 3, 8, 20, 40, 70]);
          for (let j = 0; j < size; j++) {
            const k = keyOf();
            const kind = rng.int(10);
            if (kind < 5) o[k] = scalar();
            else if (kind < 7 && i + 1 < count) o[k] = objects[rng.range(i + 1, count - 1)]; // no cycles
            else if (kind === 7) o[k] = [scalar(), { n: rng.int(5) }];
            else if (kind === 8) {
              const name = k;
              Object.defineProperty(o, k, { enumerable: true, configurable: true, get: () => (log.push(`get ${name}`), change(), scalar()) });
            } else {
              o[k] = { toJSON: (key: string) => (log.push(`toJSON ${key}`), change(), rng.chance(0.5) ? { made: key } : scalar()) };
            }
          }
        });
        return objects[0];
      }
      for (let seed = 1; seed <= 300; seed++) {
        const nativeLog: string[] = [];
        const want = attempt(() => JSON.stringify(build(seed, nativeLog)));
        for (const write of [(v: unknown) => codec.stringify(v), (v: unknown) => new TextDecoder().decode(codec.encode(v))]) {
          const log: string[] = [];
          const got = attempt(() => write(build(seed, log)));
          expect(got, `seed ${seed}`).toEqual(want);
          expect(log, `seed ${seed}`).toEqual(nativeLog);
        }
      }
    });

    it.runIf(rawJSON !== undefined)('JSON.rawJSON values are written verbatim', () => {
      const raw = rawJSON!;
      expectSame(codec, raw('1e1000'));
      expectSame(codec, [raw('123456789012345678901234567890'), raw('"\\u0041"'), raw('null'), raw('-0')]);
      expectSame(codec, { a: raw('"\u00e9"'), b: raw('true') }, undefined, 2);
      expectSame(codec, { a: raw('"\ud800"') });
      expect(codec.stringify({ a: raw('"\ud800"') })).toBe(JSON.stringify({ a: raw('"\ud800"') }));
      expectSame(codec, { a: raw('1') }, (k: string, v: unknown) => (k === 'a' ? raw('2') : v));
    });

    it('a 1,000,000-deep array and object', () => {
      const depth = 1_000_000;
      let arr: unknown[] = [];
      const root = arr;
      for (let i = 1; i < depth; i++) {
        const next: unknown[] = [];
        arr.push(next);
        arr = next;
      }
      const text = codec.stringify(root);
      expect(text.length).toBe(2 * depth);
      expect(text).toBe('['.repeat(depth) + ']'.repeat(depth));
      expect(codec.encode(root).length).toBe(2 * depth);
      let obj: Record<string, unknown> = {};
      const top = obj;
      for (let i = 1; i < depth; i++) {
        const next = {};
        obj.k = next;
        obj = next;
      }
      const out = codec.stringify(top);
      expect(out.length).toBe(6 * depth - 4); // {"k": and } per level, {} innermost
      expect(out.startsWith('{"k":{"k":')).toBe(true);
      const deepCycle: any = {};
      let cur = deepCycle;
      for (let i = 0; i < 200000; i++) cur = cur.k = {};
      cur.back = deepCycle.k;
      expect(() => codec.stringify(deepCycle)).toThrow(TypeError);
    });

    it('reentrant: toJSON, getters and replacers may call stringify, encode, parse and validate', () => {
      const inner = { list: [1, 'two', { three: 3 }], text: '\u00e9"' };
      const value = {
        a: { toJSON: () => codec.stringify(inner) },
        b: { toJSON: () => codec.parse(codec.stringify({ nested: { toJSON: () => codec.stringify([inner, inner], null, 2) } })) },
        get c() {
          return codec.validate(codec.stringify(inner)) && Array.from(codec.encode(inner)).length;
        },
        d: [inner, inner],
      };
      const native = {
        a: { toJSON: () => JSON.stringify(inner) },
        b: { toJSON: () => JSON.parse(JSON.stringify({ nested: { toJSON: () => JSON.stringify([inner, inner], null, 2) } })) },
        get c() {
          return encoder.encode(JSON.stringify(inner)).length;
        },
        d: [inner, inner],
      };
      expect(codec.stringify(value)).toBe(JSON.stringify(native));
      expect(codec.stringify(value, null, 3)).toBe(JSON.stringify(native, null, 3));
      expect(new TextDecoder().decode(codec.encode(value))).toBe(JSON.stringify(native));
      const replacer = (k: string, v: unknown) => (k === 'list' ? codec.stringify(v, (kk: string, vv: unknown) => (kk === '1' ? 'ONE' : vv)) : v);
      const nativeReplacer = (k: string, v: unknown) => (k === 'list' ? JSON.stringify(v, (kk: string, vv: unknown) => (kk === '1' ? 'ONE' : vv)) : v);
      expect(codec.stringify({ x: inner, y: inner }, replacer)).toBe(JSON.stringify({ x: inner, y: inner }, nativeReplacer));
      // Nested calls that grow wasm memory (a big parse) in the middle of an outer call.
      const big = JSON.stringify(Array.from({ length: 200000 }, (_, i) => ({ id: i, name: `n${i}` })));
      const growing = { before: inner, mid: { toJSON: () => codec.parse(big).length }, after: [inner, 'tail'] };
      expect(codec.stringify(growing)).toBe(JSON.stringify({ before: inner, mid: 200000, after: [inner, 'tail'] }));
    });

    it('user errors propagate and leave the codec consistent (key cache included)', () => {
      const boom = new Error('boom');
      const value = { freshKeyOne: 1, freshKeyTwo: { toJSON: () => { throw boom; } } };
      expect(() => codec.stringify(value)).toThrow(boom);
      expect(codec.stringify({ freshKeyOne: 2, freshKeyTwo: 3 })).toBe('{"freshKeyOne":2,"freshKeyTwo":3}');
      expect(() => codec.stringify({ k: 1 }, () => { throw boom; })).toThrow(boom);
      // A nested call flushes its own batches, then the outer call throws: keys the outer
      // call gave ids in its unsent batch must be forgotten all the same.
      const nestedThenThrow = {
        keyOnlyHereAlpha: 1,
        keyOnlyHereBeta: { toJSON: () => codec.stringify({ inner: [1, 'x'] }) },
        last: { toJSON: () => { throw boom; } },
      };
      expect(() => codec.stringify(nestedThenThrow)).toThrow(boom);
      expect(codec.stringify({ keyOnlyHereAlpha: 2, keyOnlyHereBeta: 3 })).toBe('{"keyOnlyHereAlpha":2,"keyOnlyHereBeta":3}');
      // Errors from nested calls caught by the outer call's user code.
      const outer = { a: { toJSON: () => { try { return codec.stringify({ nestedKey: 1n }); } catch (e) { return (e as Error).message; } } }, nestedKey: 'x' };
      expect(codec.stringify(outer)).toBe(JSON.stringify({ a: 'Do not know how to serialize a BigInt', nestedKey: 'x' }));
      // Many distinct keys (past the key cache's size) and long keys.
      const wide: Record<string, number> = {};
      for (let i = 0; i < 20000; i++) wide[`key_${i}_\u00e9`] = i;
      expectSame(codec, wide);
      expectSame(codec, wide);
      const longKeys = { ['k'.repeat(64)]: 1, ['k'.repeat(65)]: 2, ['"'.repeat(64)]: 3, ['\ud800'.repeat(64)]: 4 };
      expectSame(codec, [longKeys, longKeys], undefined, 2);
    });

    it('calls in a row share walk state safely: after a throw mid-walk, around key cache resets', () => {
      const boom = new Error('boom');
      // Thrown with `outer` and `mid` open: the next calls must not see them as still
      // open (a false cycle) nor reuse anything of the failed walk.
      const mid: Record<string, unknown> = { m1: [1, 2], m2: { deep: 'x' } };
      const outer = { o1: mid, o2: { o3: mid, bad: { toJSON: () => { throw boom; } } } };
      expect(() => codec.stringify(outer)).toThrow(boom);
      expectSame(codec, { again: mid, list: [mid, mid] });
      (outer.o2 as Record<string, unknown>).bad = 'fine';
      expectSame(codec, outer);
      // Same-shaped records before and after the key cache fills and is reset (its key
      // ids change): each call's output is the record's own.
      const record = (i: number) => ({ id: i, name: `n${i}`, tags: ['t', i], meta: { at: i * 1.5, ok: i % 2 === 0 } });
      for (let round = 0; round < 3; round++) {
        for (let i = 0; i < 5; i++) expectSame(codec, record(i));
        const wide: Record<string, number> = {};
        for (let i = 0; i < 9000; i++) wide[`reset_${round}_${i}`] = i;
        expectSame(codec, wide);
        expectSame(codec, [record(round), { name: 'x', id: 1 }, record(round + 1)]);
      }
    });

    it('encode returns a fresh Uint8Array, never a view of wasm memory', () => {
      const a = codec.encode({ a: 1 });
      const b = codec.encode({ a: 1 });
      expect(a).not.toBe(b);
      a[0] = 0;
      expect(b[0]).toBe('{'.charCodeAt(0));
      expect(a.byteOffset).toBe(0);
      expect(a.buffer.byteLength).toBe(a.length);
    });

    it('differential: seeded random values with every replacer and space', () => {
      const rng = new Rng(20261130);
      const view = new DataView(new ArrayBuffer(8));
      for (let round = 0; round < 300; round++) {
        const value = randomValue(rng, view, 0);
        for (const [name, replacer] of REPLACERS) {
          for (const space of SPACES) expectSame(codec, value, replacer, space, `round ${round} replacer ${name} space ${String(space)}`);
        }
      }
    });
  });
}

describe('stringify output longer than any string', () => {
  // ~1.27 billion characters: over every engine's limit (V8: 2^29 - 24 units).
  const text = 'x'.repeat(4800);
  function manyReads(): { items: unknown[]; reads: () => number } {
    let reads = 0;
    const item = {
      get v() {
        reads++;
        return text;
      },
    };
    return { items: new Array(2 ** 18).fill(item), reads: () => reads };
  }

  it('is RangeError: Invalid string length, as native, after the whole walk (every getter read), with nothing more written', async () => {
    const watched = await watchedCodec('simd128');
    const { items, reads } = manyReads();
    expect(() => watched.codec.stringify(items)).toThrow(new RangeError('Invalid string length'));
    expect(reads()).toBe(items.length);
    // Writing stopped at the limit: wasm memory did not go on to hold the rest (the
    // output buffer grown to 1.26 GB would take 2.7 GB at once, the old block and the new).
    expect(watched.memory.buffer.byteLength).toBeLessThan(2 * 2 ** 30);
    expect(watched.codec.stringify({ ok: [1, 'x'] })).toBe('{"ok":[1,"x"]}');
  });

  it('lets what the rest of the walk throws win over the RangeError, as native', () => {
    const { items } = manyReads();
    const late = (v: unknown): unknown[] => [...items, { k: v }];
    const cyclic: unknown[] = late(1);
    cyclic.push(cyclic);
    const cases: unknown[] = [late({ toJSON: () => { throw new SyntaxError('late toJSON'); } }), late(1n), cyclic];
    for (const value of cases) {
      const native = attempt(() => JSON.stringify(value));
      expect(native.ok).toBe(false);
      expect(attempt(() => exportedStringify(value))).toStrictEqual(native);
    }
  });

  it('takes keys first met after the limit correctly in later calls (their ids never reached wasm)', () => {
    const { items } = manyReads();
    // (Batches go on being made and dropped after it: this one's keys in one of them.)
    const value = [...items, { fresh1: 1, fresh2: [2] }, ...items.slice(0, 16), 1n];
    expect(() => exportedStringify(value)).toThrow(TypeError);
    const again = { fresh2: 'b', fresh1: 'a', other: { fresh1: true } };
    expect(exportedStringify(again)).toBe(JSON.stringify(again));
    expect(exportedStringify(again)).toBe(JSON.stringify(again));
  });

});
