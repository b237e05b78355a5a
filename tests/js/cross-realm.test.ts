// Values from another realm (a vm context in Node, an iframe in Chromium): JSON.stringify
// recognises boxed primitives by their internal slot, so a Number object made in another
// realm, whose prototype is that realm's Number.prototype, is written as its number, and a
// BigInt object from there throws as a local one does. stringify, encode and canonicalize
// must do the same, and must still write every other foreign object as an object.
import { describe, expect, it } from 'vitest';
import { at, canonicalize, encode, minify, parse, stringify } from 'wasmjson';
import { codecFor, FLAVORS } from './support/flavors.js';
import { attempt } from './support/outcome.js';

/** Evaluates `source` in a new realm: an iframe's window in a browser, a vm context in Node. */
async function realmEvaluator(): Promise<(source: string) => unknown> {
  if (typeof document !== 'undefined') {
    return (source) => {
      const frame = document.createElement('iframe');
      document.body.appendChild(frame);
      try {
        return (frame.contentWindow as unknown as { eval(s: string): unknown }).eval(source);
      } finally {
        frame.remove();
      }
    };
  }
  // A computed specifier, so that the browser bundle does not try to resolve it.
  const vm = (await import(/* @vite-ignore */ ['node', 'vm'].join(':'))) as typeof import('node:vm');
  return (source) => vm.runInContext(source, vm.createContext({}));
}
const inRealm = await realmEvaluator();

/** What a call gives: its text, or the thrown error's class. */
function outcome(fn: () => unknown): unknown {
  const r = attempt(fn);
  if (r.ok) return { text: r.value instanceof Uint8Array ? new TextDecoder().decode(r.value) : r.value };
  const e = r.error as Error;
  return { threw: e.constructor.name };
}

// Each is evaluated in a fresh context, so every object in it is foreign.
const SOURCES: Record<string, string> = {
  'a Number object': 'new Number(5)',
  'a String object': 'new String("s\\u00e9")',
  'a Boolean object': 'new Boolean(false)',
  'boxed values nested in arrays and objects': '({ n: new Number(-0.5), s: [new String("x"), new Boolean(true)] })',
  'a subclass of Number': 'class N extends Number {}; [new N(7)]',
  'an object with Number.prototype but no number inside': '[Object.create(Number.prototype)]',
  'a class instance': 'class P { constructor() { this.x = 1; } }; [new P()]',
  'plain objects and arrays': '({ a: [1, { b: "c" }], d: null })',
  'a Number object whose valueOf is its own': 'const n = new Number(1); n.valueOf = () => 42; [n]',
  'a BigInt object': '[Object(1n)]',
};

describe('values from another realm', () => {
  it('the realm is another one (its Number.prototype is not ours)', () => {
    const n = inRealm('new Number(5)') as object;
    expect(n instanceof Number).toBe(false);
    expect(Object.getPrototypeOf(n)).not.toBe(Number.prototype);
  });

  for (const [what, source] of Object.entries(SOURCES)) {
    it(`${what}: as JSON.stringify writes it`, async () => {
      const value = inRealm(source);
      const native = outcome(() => JSON.stringify(value));
      expect(outcome(() => stringify(value))).toEqual(native);
      expect(outcome(() => encode(value))).toEqual(native);
      for (const flavor of FLAVORS) {
        const codec = await codecFor(flavor);
        expect(outcome(() => codec.stringify(value)), flavor).toEqual(native);
        expect(outcome(() => codec.encode(value)), flavor).toEqual(native);
      }
    });
  }

  it('canonicalize unboxes foreign Number and String objects too', () => {
    const value = inRealm('({ b: new Number(1e21), a: new String("x") })');
    expect(canonicalize(value)).toBe('{"a":"x","b":1e+21}');
  });

  it('a foreign BigInt object throws in canonicalize as a local one does', () => {
    const value = inRealm('[Object(1n)]');
    expect(() => canonicalize(value)).toThrow(TypeError);
    expect(() => canonicalize([Object(1n)])).toThrow(TypeError);
  });

  it('canonicalize refuses JSON.rawJSON text rather than write it in a form JCS may not allow', () => {
    const rawJSON = (JSON as { rawJSON?: (text: string) => unknown }).rawJSON;
    expect(typeof rawJSON).toBe('function'); // Node 26, Chromium
    expect(() => canonicalize([rawJSON!('1.0')])).toThrow(/rawJSON\("1\.0"\) cannot be canonicalized/);
    expect(stringify([rawJSON!('1.0')])).toBe('[1.0]');
  });
});

describe('bytes from another realm', () => {
  it('a foreign Uint8Array, DataView or ArrayBuffer is read as UTF-8 bytes, like a local one', () => {
    const text = '{"a":[1,"é"]}';
    const bytes = [...new TextEncoder().encode(text)].join(',');
    const views = inRealm(`const b = new Uint8Array([${bytes}]); [b, new DataView(b.buffer), b.buffer, new Int16Array(2)]`) as [
      Uint8Array, DataView, ArrayBuffer, Int16Array,
    ];
    for (const v of views.slice(0, 3)) {
      expect(v instanceof Uint8Array || v instanceof DataView || v instanceof ArrayBuffer).toBe(false);
      expect(parse(v)).toEqual({ a: [1, 'é'] });
      expect(at(v as Uint8Array, '/a/1')).toBe('é');
      expect(new TextDecoder().decode(minify(v as Uint8Array) as Uint8Array)).toBe('{"a":[1,"é"]}');
    }
    // Other typed arrays are not bytes: parse takes their String() form, as JSON.parse does.
    expect(String(views[3])).toBe('0,0');
    expect(() => JSON.parse(views[3] as never)).toThrow('Unexpected non-whitespace character after JSON');
    expect(() => parse(views[3])).toThrow('Unexpected non-whitespace character after JSON');
  });
});
