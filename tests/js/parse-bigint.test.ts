// parse(text, { bigint }): integer literals as BigInt. The model is the engine's own
// JSON.parse with a reviver that reads each number's source text (JSON.parse source text
// access, Node 26 and Chromium): an integer literal (no fraction, no exponent) becomes
// BigInt(source) when the mode asks for it; everything else is what JSON.parse gives.
import { describe, expect, it } from 'vitest';
import { encode, parse } from 'wasmjson';
import { codecFor, FLAVORS } from './support/flavors.js';
import { jsonDiff, keyOrders, randomDocument, randomOptions, Rng } from './support/random-json.js';

type Mode = 'never' | 'unsafe' | 'always';
const INTEGER = /^-?(0|[1-9][0-9]*)$/;

function model(text: string, mode: Mode): unknown {
  return (JSON.parse as (t: string, r: unknown) => unknown)(text, (_k: string, v: unknown, ctx?: { source?: string }) => {
    if (typeof v !== 'number' || mode === 'never') return v;
    const source = ctx?.source;
    if (source === undefined) throw new Error('the engine has no JSON.parse source text access');
    if (!INTEGER.test(source)) return v;
    return mode === 'always' || !Number.isSafeInteger(v) ? BigInt(source) : v;
  });
}

/** Deep equality that tells 1n from 1, -0 from 0, and compares key order. */
function same(actual: unknown, expected: unknown): string {
  const walk = (a: unknown, e: unknown, path: string): string => {
    if (typeof a !== typeof e) return `${path}: ${typeof a} ${String(a)} vs ${typeof e} ${String(e)}`;
    if (typeof a === 'bigint' || typeof a === 'number' || typeof a === 'string' || typeof a === 'boolean') {
      return Object.is(a, e) ? '' : `${path}: ${String(a)} vs ${String(e)}`;
    }
    if (a === null || e === null) return a === e ? '' : `${path}: null`;
    if (Array.isArray(a) !== Array.isArray(e)) return `${path}: array vs object`;
    const ka = Object.keys(a as object), ke = Object.keys(e as object);
    if (ka.join('\u0000') !== ke.join('\u0000')) return `${path}: keys ${ka.length} vs ${ke.length}`;
    for (const k of ka) {
      const d = walk((a as Record<string, unknown>)[k], (e as Record<string, unknown>)[k], `${path}/${k}`);
      if (d) return d;
    }
    return '';
  };
  return walk(actual, expected, '');
}

const utf8 = (s: string) => new TextEncoder().encode(s);

const CASES = [
  '12345678901234567890',
  '-12345678901234567890',
  '[9007199254740991,9007199254740992,-9007199254740991,-9007199254740992,9007199254740993]',
  '[0,-0,1,-1,10,2.5,1e3,1E30,-0.0,0.5e1,100000000000000000000000000000.0]',
  '{"id":123456789012345678901234567890,"id_str":"123456789012345678901234567890","n":[1,2,3]}',
  '[1,2,3,12345678901234567890,true,null,"x",[4,99999999999999999999],{"a":-99999999999999999999}]',
  ' { "a" : 98765432109876543210 , "b" : [ 18446744073709551615 , 1 ] } ',
  '[' + '1'.repeat(400) + ',-' + '9'.repeat(1000) + ']',
  '{"__proto__":12345678901234567890,"\\u00e9\\ud83d\\ude00":77777777777777777777,"é😀":1}',
];

for (const flavor of FLAVORS) {
  describe(`parse options.bigint (${flavor})`, async () => {
    const codec = await codecFor(flavor);

    it('hand-picked documents, as strings, bytes and bytes decoded string by string, in each mode', () => {
      const failures: string[] = [];
      for (const text of CASES) {
        for (const mode of ['never', 'unsafe', 'always'] as Mode[]) {
          const expected = model(text, mode);
          for (const [label, input, extra] of [
            ['string', text, {}],
            ['bytes', utf8(text), {}],
            ['bytes, each', utf8(text), { stringDecoding: 'each' }],
          ] as const) {
            const d = same(codec.parse(input, { bigint: mode, ...extra }), expected);
            if (d) failures.push(`${mode} ${label} ${text.slice(0, 50)}: ${d}`);
          }
        }
      }
      expect(failures).toEqual([]);
    });

    it('random documents (numbers of every spelling) match the model in each mode', () => {
      const rng = new Rng(20261201);
      const failures: string[] = [];
      for (let i = 0; i < 300 && failures.length < 5; i++) {
        // Whole documents wrapped with big integers so that every mode has work to do.
        const { text: inner } = randomDocument(rng, randomOptions(rng));
        const big = `${rng.chance(0.5) ? '-' : ''}${1 + rng.int(9)}${'0123456789'.repeat(2).slice(0, 15 + rng.int(20))}`;
        const text = `[${inner},${big},{"k":${big},"s":${inner}}]`;
        for (const mode of ['never', 'unsafe', 'always'] as Mode[]) {
          const expected = model(text, mode);
          for (const input of [text, utf8(text)]) {
            const d = same(codec.parse(input, { bigint: mode }), expected);
            if (d) failures.push(`#${i} ${mode} ${typeof input === 'string' ? 'string' : 'bytes'}: ${d}`);
          }
        }
      }
      expect(failures).toEqual([]);
    });

    it("'never' and no option give exactly what JSON.parse gives", () => {
      const rng = new Rng(7);
      for (let i = 0; i < 50; i++) {
        const { text } = randomDocument(rng, randomOptions(rng));
        const native = JSON.parse(text);
        for (const got of [codec.parse(text), codec.parse(text, { bigint: 'never' }), codec.parse(utf8(text), {})]) {
          expect(jsonDiff(got, native)).toBe('');
          expect(keyOrders(got)).toEqual(keyOrders(native));
        }
      }
    });

    it('a reviver sees the BigInt, with the literal as context.source, and may replace it', () => {
      const seen: [string, unknown, string | undefined][] = [];
      const value = codec.parse('{"a":12345678901234567890,"b":[1,-99999999999999999999]}', {
        bigint: 'unsafe',
        reviver(key: string, v: unknown, ctx?: { source?: string }) {
          if (typeof v !== 'object') seen.push([key, v, ctx?.source]);
          return typeof v === 'bigint' ? `big:${v}` : v;
        },
      });
      expect(seen).toEqual([
        ['a', 12345678901234567890n, '12345678901234567890'],
        ['0', 1, '1'],
        ['1', -99999999999999999999n, '-99999999999999999999'],
      ]);
      expect(value).toEqual({ a: 'big:12345678901234567890', b: [1, 'big:-99999999999999999999'] });
    });

    it('round trip: encode(value, { bigint: "number" }) writes the integers back digit for digit', () => {
      const text = '{"id":12345678901234567890,"list":[-98765432109876543210,1,2.5]}';
      const value = codec.parse(text, { bigint: 'unsafe' });
      expect(new TextDecoder().decode(codec.encode(value, { bigint: 'number' }))).toBe(text);
    });

    it('errors stay SyntaxErrors at the same offset; a bad mode is a TypeError', () => {
      for (const bad of ['[12345678901234567890,]', '12345678901234567890x', '[-]', '[1.]']) {
        let native: SyntaxError | undefined;
        try {
          JSON.parse(bad);
        } catch (e) {
          native = e as SyntaxError;
        }
        expect(native).toBeInstanceOf(SyntaxError);
        expect(() => codec.parse(bad, { bigint: 'unsafe' })).toThrow(native!.message);
      }
      for (const mode of ['yes', true, 1, null]) {
        expect(() => codec.parse('1', { bigint: mode as never })).toThrow(TypeError);
      }
    });
  });
}

describe('parse options.bigint through the top-level export', () => {
  it('works on the default codec too', () => {
    expect(parse('[12345678901234567890, 7]', { bigint: 'unsafe' })).toEqual([12345678901234567890n, 7]);
    expect(parse(utf8('[7]'), { bigint: 'always' })).toEqual([7n]);
    expect(new TextDecoder().decode(encode([12345678901234567890n], { bigint: 'number' }))).toBe('[12345678901234567890]');
  });
});
